"""The instruction table: `instructions(target)` lists the forms valid there."""
from ._aster import instructions, all_instructions, Instruction

__all__ = ["instructions", "all_instructions", "Instruction", "TARGETS"]

TARGETS = ("gfx942", "gfx950", "gfx1201")
