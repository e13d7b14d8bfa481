"""Where a user's mistake is: the first caller outside the aster package
(errors read `file:line: error: ...` at the user's line), and the check of
symbol names (kernels, functions, globals, modules, arguments).

The lowest layer of the package (imports nothing of aster): the builder,
functions, globals and modules all report through it."""
import os
import re
import sys

__all__ = ["user_frame", "user_loc", "check_symbol"]

_THIS_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_LIBRARY_DIR = _THIS_DIR + "nanokernels" + os.sep
_SYMBOL = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$]*\Z")


def _internal(filename):
    # aster.s nanokernels (aster/nanokernels) is user code: errors point at its lines.
    return filename.startswith(_THIS_DIR) and not filename.startswith(_LIBRARY_DIR)


def user_frame(depth=2):
    """File and line of the first caller outside the aster package."""
    f = sys._getframe(depth)
    while f is not None and _internal(f.f_code.co_filename):
        f = f.f_back
    if f is None:
        return "<unknown>", 0
    return f.f_code.co_filename, f.f_lineno


def user_loc():
    """`file:line` of the first caller outside the aster package."""
    file, line = user_frame(3)
    return f"{file}:{line}"


def check_symbol(name, what):
    """`name` if it is a valid symbol, else TypeError/ValueError naming `what`."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str, got {type(name).__name__}")
    if not _SYMBOL.match(name):
        raise ValueError(f"{what} {name!r} is not a valid symbol "
                         "(letters, digits, '_', '.', '$'; not starting with a digit)")
    return name
