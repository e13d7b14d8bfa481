# lit configuration for aster: round-trip, verifier diagnostics, asm and hsaco.
import os
import shutil

import lit.formats
import lit.util

config.name = "aster"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
build = os.environ.get("ASTER_BUILD_DIR", os.path.join(root, "build"))
config.test_exec_root = os.path.join(build, "lit")

tools = os.path.join(build, "cc", "tools")
llvm_bin = "/usr/lib/llvm-22/bin"
for name, where in (("aster-opt", tools), ("aster-translate", tools),
                    ("aster-emu", os.path.join(build, "cc", "emulator"))):
    path = os.path.join(where, name)
    if not os.path.exists(path):
        lit_config.fatal(f"{path} not found: build aster first (make build)")
    config.substitutions.append((r"\b%s\b" % name.replace("-", r"\-"), path))
for name in ("FileCheck", "llvm-readelf", "llvm-objdump", "not", "llvm-mc", "ld.lld"):
    path = os.path.join(llvm_bin, name)
    if not os.path.exists(path):
        path = shutil.which(name + "-22") or shutil.which(name)
    if not path:
        lit_config.fatal(f"{name} (LLVM 22) not found")
    config.substitutions.append((r"(?<![\w-])%s\b" % name.replace("-", r"\-"), path))
