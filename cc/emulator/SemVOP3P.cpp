#include "emulator/Semantics.h"
namespace aster::emu {
void registerVOP3P(SemTable &) {}
} // namespace aster::emu
