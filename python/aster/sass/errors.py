"""The exception of aster.sass: bad SASS text, an instruction outside the table, a bad cubin."""
try:
    from .. import AsterError as _Base
except ImportError:  # aster.sass used without the compiled aster package (tools/sass)
    _Base = ValueError


class SassError(_Base):
    """Bad SASS input: names the instruction or section and what is wrong."""
