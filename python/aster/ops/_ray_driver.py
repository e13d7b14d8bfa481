"""The Ray driver process of aster.ops.tune(executor="ray"): tasks as JSON
on stdin, one JSON line per result on stdout (see tune._driver_main)."""
from aster.ops.tune import _driver_main

if __name__ == "__main__":
    _driver_main()
