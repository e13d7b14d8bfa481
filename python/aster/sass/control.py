"""The control bits of a Volta-and-later SASS instruction (bits 105-127 of its 128 bits).

Layout (Jia, Maggioni, Staiger, Scarpazza, "Dissecting the NVIDIA Volta GPU
Architecture via Microbenchmarking", 2018, section 2.1; unchanged through Hopper,
as the corpus check in tests/py/sass/test_control_bits.py shows: every `.reuse`
flag nvdisasm prints sits in the reuse field and every barrier index is 0-5 or 7):
    105-108 stall   cycles to wait before issuing the next instruction (0-15)
    109     yield   1 = the scheduler may NOT switch warps (inverted "yield" flag)
    110-112 wrbar   scoreboard barrier set when the result is written (7 = none)
    113-115 rdbar   scoreboard barrier set when the sources are read (7 = none)
    116-121 wait    mask of barriers 0-5 to wait for before issuing
    122-125 reuse   operand reuse cache flags for source slots a, b, c, d
Needs: an int of 128 bits.  Guarantees: unpack(pack(c)) == c; pack sets only bits 105-125.
"""
from dataclasses import dataclass

SHIFT = 105
MASK = (1 << 23) - 1
LOW_MASK = (1 << SHIFT) - 1


@dataclass(frozen=True)
class Control:
    stall: int = 15
    yield_: int = 0
    wrbar: int = 7
    rdbar: int = 7
    wait: int = 0
    reuse: int = 0
    extra: int = 0  # bits 126-127 (zero in every corpus instruction)

    def pack(self):
        v = (self.stall | self.yield_ << 4 | self.wrbar << 5 | self.rdbar << 8
             | self.wait << 11 | self.reuse << 17 | self.extra << 21)
        return v << SHIFT

    def __str__(self):
        w = ''.join(str(b) if self.wait >> b & 1 else '-' for b in range(6))
        wr = '-' if self.wrbar == 7 else str(self.wrbar)
        rd = '-' if self.rdbar == 7 else str(self.rdbar)
        return f'[B{w}:R{rd}:W{wr}:{"-" if self.yield_ else "Y"}:S{self.stall:02d}]'


def unpack(word):
    c = word >> SHIFT
    return Control(stall=c & 15, yield_=c >> 4 & 1, wrbar=c >> 5 & 7, rdbar=c >> 8 & 7,
                   wait=c >> 11 & 63, reuse=c >> 17 & 15, extra=c >> 21 & 3)
