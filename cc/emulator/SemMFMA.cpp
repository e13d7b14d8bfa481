#include "emulator/Semantics.h"
namespace aster::emu {
void registerMFMA(SemTable &) {}
} // namespace aster::emu
