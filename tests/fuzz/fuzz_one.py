"""One fuzz target under atheris (libFuzzer's engine in this process):
    python3 tests/fuzz/fuzz_one.py TARGET [libFuzzer flags] CORPUS_DIR...
run.py calls it; a crash, abort, hang (-timeout) or unexpected exception
ends it with a non-zero exit and a crash-* / timeout-* file (the input)."""
import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutators  # noqa: E402
import targets  # noqa: E402


def main():
    name = sys.argv.pop(1)
    fn = targets.ALL[name]
    mutator = targets.MUTATORS.get(name)
    if mutator is None:
        atheris.Setup(sys.argv, fn)
    else:
        atheris.Setup(sys.argv, fn, custom_mutator=mutator)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
