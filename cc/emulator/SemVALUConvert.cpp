#include "emulator/Semantics.h"
namespace aster::emu {
void registerVALUConvert(SemTable &) {}
} // namespace aster::emu
