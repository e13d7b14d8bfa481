"""The package's surface: every public submodule is an attribute after
`import aster` (costly ones imported on first use, PEP 562), and `import aster`
refuses to run beside another package imported as `aster`.

The foreign layouts are those of the two distributions on the package registry
that install a top-level `aster` (their wheels, 2026-11): `aster` 0.0.0a1, an
empty `aster/__init__.py`; `aster-mlir` 0.0.4 (iree-org/aster), whose RECORD
lists `aster/__init__.py` and `aster/_mlir_libs/`. Each case runs in a fresh
interpreter, the way a user meets it."""
import os
import subprocess
import sys
import textwrap

import aster

PKG = os.path.dirname(os.path.abspath(aster.__file__))      # this build's aster/
LAZY = ("aiter", "ops")                                     # costly: imported on first use


def python(code, *path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, path)))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=120)


def public_children():
    import pkgutil
    return sorted(m.name for m in pkgutil.iter_modules([PKG]) if not m.name.startswith("_"))


def test_every_public_submodule_is_an_attribute_after_import_aster():
    children = public_children()
    assert {"ops", "aiter", "timing", "schedule"} <= set(children)
    p = python(f"""
        import sys, aster
        lazy = [n for n in {LAZY!r} if "aster." + n in sys.modules]
        assert not lazy, f"imported by `import aster` alone: {{lazy}}"
        for n in {children!r}:
            assert getattr(aster, n) is sys.modules["aster." + n], n
            assert n in dir(aster), n
        assert callable(aster.ops.gemm)                     # the issue's example
        assert not hasattr(aster, "no_such_module")
        try:
            aster._private_nothing
        except AttributeError as e:
            assert "has no attribute '_private_nothing'" in str(e)
        else:
            raise AssertionError("aster._private_nothing resolved")
        print("ok")
        """, os.path.dirname(PKG))
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr


def _dist_info(site, name, version):
    d = site / f"{name.replace('-', '_')}-{version}.dist-info"
    d.mkdir()
    (d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")


def _copy_of_ours(dest):
    """This build's package as symlinks (the extension included) under dest/aster."""
    pkg = dest / "aster"
    pkg.mkdir(parents=True)
    for entry in os.listdir(PKG):
        if entry != "__pycache__":
            os.symlink(os.path.join(PKG, entry), pkg / entry)
    return pkg


def test_import_refuses_a_foreign_aster_on_the_path(tmp_path):
    site = tmp_path / "site"                      # the registry's `aster` placeholder
    (site / "aster").mkdir(parents=True)
    (site / "aster" / "__init__.py").write_text("")
    _dist_info(site, "aster", "0.0.0a1")
    p = python("import aster", os.path.dirname(PKG), site)
    assert p.returncode != 0
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: aster (aster-amdgpu): another `aster` package is "
                           f"on the module path at {os.path.realpath(site / 'aster')}"), last
    assert "(installed: aster 0.0.0a1)" in last and "pip uninstall" in last, last


def test_import_refuses_aster_mlir_installed_into_the_same_folder(tmp_path):
    site = tmp_path / "site"                      # pip put aster-mlir's files beside ours
    pkg = _copy_of_ours(site)
    (pkg / "_mlir_libs").mkdir()
    (pkg / "_mlir_libs" / "__init__.py").write_text("")
    _dist_info(site, "aster-mlir", "0.0.4")
    p = python("import aster", site)
    assert p.returncode != 0
    last = p.stderr.strip().splitlines()[-1]
    assert "also holds another package's files (_mlir_libs/)" in last, last
    assert "(installed: aster-mlir 0.0.4)" in last, last


def test_a_second_copy_of_aster_itself_is_not_a_clash(tmp_path):
    _copy_of_ours(tmp_path / "site")
    p = python("import aster; print(aster.__file__)", tmp_path / "site", os.path.dirname(PKG))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(tmp_path / "site" / "aster" / "__init__.py")
