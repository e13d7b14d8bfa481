"""Where the amd-aiter wheel's files are (no import of aiter itself)."""
from __future__ import annotations

import functools
import importlib.metadata
from pathlib import Path

DISTRIBUTION = "amd-aiter"


@functools.lru_cache(maxsize=None)
def _root() -> Path | None:
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
    return Path(dist.locate_file(""))


def available() -> bool:
    """True when the amd-aiter wheel is installed."""
    return _root() is not None and (_root() / "aiter_meta" / "hsa").is_dir()


def wheel_file(relative: str) -> Path:
    """A file of the installed wheel, e.g. ``"aiter_meta/csrc/py_itfs_cu/asm_gemm_a16w16.cu"``."""
    root = _root()
    if root is None:
        raise FileNotFoundError(
            f"the {DISTRIBUTION} wheel is not installed "
            f"(make deps: pip install --no-deps {DISTRIBUTION}==0.1.7.post2.dev18)")
    path = root / relative
    if not path.exists():
        raise FileNotFoundError(f"{relative} is not in the installed {DISTRIBUTION} wheel")
    return path


def hsa_dir(arch: str) -> Path:
    """The folder of AMD's code objects for `arch` ("gfx942" or "gfx950")."""
    return wheel_file(f"aiter_meta/hsa/{arch}")


def code_objects(arch: str) -> list[Path]:
    """Every code object (``*.co``) the wheel ships for `arch`, sorted."""
    return sorted(hsa_dir(arch).rglob("*.co"))


def code_object(arch: str, relative: str) -> bytes:
    """The bytes of one code object, `relative` to ``aiter_meta/hsa/<arch>``."""
    return (hsa_dir(arch) / relative).read_bytes()
