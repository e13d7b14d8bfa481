"""Refuses to import beside another Python package named `aster`.

This package is distributed as `aster-amdgpu` (pyproject.toml) but imported as
`aster`. Two other distributions also install a top-level `aster` (checked on
the package registry, 2026-11): `aster` 0.0.0a1 (an empty `aster/__init__.py`
placeholder) and `aster-mlir` 0.0.1-0.0.4 (iree-org/aster: `aster/__init__.py`,
`aster/_mlir_libs/`, `aster/dialects/`, ... per its wheel's RECORD). With either
in one environment, one `aster` silently hides the other, or pip merges both
into one folder; `check()` turns that into an ImportError at `import aster`
that says what was found and how to fix it.

Needs: the path of this package's folder. Guarantees: returns only when no
foreign `aster` package is on sys.path and none was installed into this folder.
Cost: a few stat() calls per sys.path entry (importlib.metadata is loaded only
to name the culprit in the error).
"""
import glob
import os
import sys

DISTRIBUTION = "aster-amdgpu"
# A file only the other package has: iree-org/aster's compiled MLIR bindings.
_FOREIGN_MARKER = "_mlir_libs"
# A file every copy of ours has: the C++ extension.
_OURS_GLOB = "_aster*.so"
_OTHER_DISTRIBUTIONS = ("aster-mlir", "aster")


def _ours(folder):
    return bool(glob.glob(os.path.join(glob.escape(folder), _OURS_GLOB))) or bool(
        glob.glob(os.path.join(glob.escape(folder), "_aster*.pyd")))


def _installed_others():
    """The other distributions installing a top-level `aster`, as 'name version'."""
    import importlib.metadata as md
    found = []
    for name in _OTHER_DISTRIBUTIONS:
        try:
            d = md.distribution(name)
        except md.PackageNotFoundError:
            continue
        found.append(f"{d.metadata['Name']} {d.version}")
    return found


def _fail(what):
    others = _installed_others()
    named = f" (installed: {', '.join(others)})" if others else ""
    raise ImportError(
        f"aster ({DISTRIBUTION}): {what}{named}. Another package is also imported as "
        f"`aster` (iree-org/aster ships as 'aster-mlir'; 'aster' on the package registry "
        f"is a placeholder); both cannot live in one environment. Uninstall them "
        f"(`pip uninstall aster-mlir aster {DISTRIBUTION}`), reinstall {DISTRIBUTION}, "
        f"and keep the other in its own virtual environment.")


def check(here):
    here = os.path.realpath(here)
    if os.path.isdir(os.path.join(here, _FOREIGN_MARKER)):
        _fail(f"{here} also holds another package's files ({_FOREIGN_MARKER}/): pip "
              "installed two packages into one folder")
    for entry in sys.path:
        if not isinstance(entry, str):
            continue
        folder = os.path.join(entry or os.getcwd(), "aster")
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            continue
        folder = os.path.realpath(folder)
        if folder != here and not _ours(folder):
            _fail(f"another `aster` package is on the module path at {folder} "
                  f"(this one is {here})")
