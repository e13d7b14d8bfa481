"""Mutators that write numbers where numbers go.

libFuzzer's byte and token mutations rarely produce `-1` or `2**63` inside a
directive's operand, which is how `.p2align -1` hung `aster.assemble` for
millions of fuzz inputs (issue 28). For text inputs (assembly, MLIR), the
mutator below finds the numbers already in the text (decimal, hex, negative)
and rewrites one of them with a boundary value, or writes a boundary value as
a new operand after a directive; otherwise it leaves the work to libFuzzer's
own mutator. The choice stream of the builder/launch targets already reads
integers of every width (targets._Input.ConsumeInt).
"""
import random
import re

import atheris

# Negative, zero, sign and width boundaries, and huge counts.
BOUNDARY = ("-1", "-2", "-16", "-2147483648", "0", "1", "31", "32", "63", "64",
            "2147483647", "2147483648", "4294967295", "4294967296",
            "9223372036854775807", "9223372036854775808", "18446744073709551615",
            "18446744073709551616", "-9223372036854775808", "0x7fffffff", "0x80000000",
            "0xffffffff", "0xffffffffffffffff", "1e308", "1<<62", "(1<<31)*4", "-(1<<63)",
            "undefined_symbol", "")

_NUMBER = re.compile(rb"-?(?:0[xX][0-9a-fA-F]+|[0-9]+)")
_DIRECTIVE = re.compile(rb"(?m)^[ \t]*(\.[A-Za-z_][A-Za-z0-9_.]*)")


def mutate_numbers(data: bytes, rng: random.Random) -> bytes:
    """`data` with one number replaced by a boundary value, or a boundary
    operand added after a directive; `data` itself when it has neither."""
    value = rng.choice(BOUNDARY).encode()
    numbers = list(_NUMBER.finditer(data))
    directives = list(_DIRECTIVE.finditer(data))
    if numbers and (not directives or rng.random() < 0.7):
        m = rng.choice(numbers)
        return data[:m.start()] + value + data[m.end():]
    if directives:
        m = rng.choice(directives)
        sep = rng.choice((b" ", b" ", b", ", b","))
        return data[:m.end()] + b" " + value + sep + data[m.end():]
    return data


def text_mutator(choice_bytes: int):
    """A libFuzzer custom mutator for targets whose input is `choice_bytes`
    choice bytes followed by text: half the time a number mutation of the
    text, otherwise libFuzzer's own mutation of the whole input."""

    def mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if len(data) > choice_bytes and rng.random() < 0.5:
            head, text = data[:choice_bytes], data[choice_bytes:]
            out = head + mutate_numbers(text, rng)
            if len(out) <= max_size:
                return out
        return atheris.Mutate(data, max_size)

    return mutator
