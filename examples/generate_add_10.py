"""Prints the textual IR (.mlir) of the add_10 kernel built by Python
metaprogramming. `aster-translate --mlir-to-asm` turns it into the same
assembly that examples/add_10.py prints:

    python examples/generate_add_10.py > add_10.mlir
    aster-translate --mlir-to-asm add_10.mlir
"""
import sys

import _path  # noqa: F401  (finds aster in a source checkout)
from add_10 import build

if __name__ == "__main__":
    locations = "--locations" in sys.argv[1:]   # each op's Python file:line
    print(build().mlir(locations=locations), end="")
