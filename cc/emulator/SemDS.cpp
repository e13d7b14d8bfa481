#include "emulator/Semantics.h"
namespace aster::emu {
void registerDS(SemTable &) {}
} // namespace aster::emu
