//===- Examples.h - example assembly lines for table instructions --------===//
#ifndef ASTER_TARGET_EXAMPLES_H
#define ASTER_TARGET_EXAMPLES_H

#include "dialect/ISA.h"
#include <string>

namespace aster::target {

/// A valid assembly line for `d` on `target`, in the printer's syntax.
/// `variant` picks different registers, operand kinds (VGPR/SGPR/inline/
/// literal where the table allows them) and modifiers; variant 0 is the
/// plainest form. Used by aster.isa (example_asm) and the conformance sweep.
std::string exampleAsm(const ISA::InstDesc &d, uint8_t target, unsigned variant = 0);

/// How many distinct variants exampleAsm produces for `d`.
unsigned numExampleVariants(const ISA::InstDesc &d);

} // namespace aster::target

#endif
