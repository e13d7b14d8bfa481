"""Makes `import aster` work when running an example from a source checkout
without PYTHONPATH: falls back to the build tree's package (build*/python_packages)."""
import glob
import os
import sys


def ensure_aster():
    try:
        import aster  # noqa: F401  (installed, or on PYTHONPATH)
        return
    except ImportError:
        pass
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    builds = sorted(glob.glob(os.path.join(root, "build*", "python_packages")),
                    key=lambda p: (os.path.basename(os.path.dirname(p)) != "build", p))
    for pkg in builds:
        if os.path.exists(os.path.join(pkg, "aster", "__init__.py")) and \
                glob.glob(os.path.join(pkg, "aster", "_aster*")):
            sys.path.insert(0, pkg)
            return
    sys.exit("cannot import aster: install it (pip install .) or set "
             "PYTHONPATH=build/python_packages after building")


ensure_aster()
