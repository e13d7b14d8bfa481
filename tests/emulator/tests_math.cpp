#include "TestUtil.h"
namespace emutest {
void addMathTests(std::vector<TestCase> &) {}
} // namespace emutest
