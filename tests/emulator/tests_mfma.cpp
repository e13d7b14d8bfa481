#include "TestUtil.h"
namespace emutest {
void addMfmaTests(std::vector<TestCase> &) {}
} // namespace emutest
