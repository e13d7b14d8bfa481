"""LLVM's build of the same upstream MLIR kernels: the oracle for amdgcn-lower.

    hsaco = aster.lowering.llvm.build(text, target="gfx942")   # {gpu.module name: bytes}

Runs the system LLVM 22 tools (no aster code decides what LLVM emits):
`mlir-opt-22` (convert-linalg-to-loops, upstream's math expansions where
amdgcn-lower uses them (_math_expand), n-D transfer lowerings
(_vector_expand), expand-strided-metadata + memref-expand + lower-affine (memref
views and the atomic_rmw kinds LLVM has no atomicrmw for),
convert-scf-to-cf, convert-vector-to-llvm (vector transfers
and masks, which convert-gpu-to-rocdl leaves), then convert-gpu-to-rocdl with the
chipset, bare pointers exactly when amdgcn-lower uses them, and
convert-math-to-llvm for the math ops it leaves, e.g. bf16 exp), `mlir-translate-22
--mlir-to-llvmir` on each gpu.module's body, `llc-22 -O3 -mtriple=amdgcn-amd-amdhsa
-mcpu=TARGET -filetype=obj` and `ld.lld-22 -shared`.

The width of `index`: MLIR leaves it to the lowering (the builtin `index`
type is "an integer of platform-dependent width"; convert-gpu-to-rocdl's
`index-bitwidth` option, 64 by default from the data layout). aster lowers
index as 32 bits (docs/lowering.md "What is lowered"), so `arith.divui`,
`remui`, `shrui`, `ceildivui` of an index and `index_castui` to i64 are the
32-bit operations. The oracle builds with `index-bitwidth=32` so that both
compute the same op. It keeps 64 (index_bits below) where the kernel
interface holds an index (a memref descriptor's sizes and strides, an
`index` parameter: 64 bits in the arguments aster's launch fills) and where
the kernel needs convert-vector-to-llvm (vector transfers and masks: that
pass has no index-width option and converts memrefs with 64-bit index) or
reads gpu.block_dim / grid_dim (mlir-translate-22 translates them to calls
of the ockl functions and uses their i64 result as the op's i32: a 32-bit
build of such a kernel is wrong); there unsigned index ops of values
outside 0..2^31 have no LLVM oracle.

convert-gpu-to-rocdl turns gpu.block_dim / grid_dim into calls of
`__ockl_get_local_size` / `__ockl_get_num_groups` from ROCm's device
library, which is not installed here. Those two are given in LLVM IR
(OCKL_SHIM below): they read the code-object-v5 hidden kernel arguments as
LLVM's AMDGPUUsage documents them ("Code Object V5 Metadata", hidden
arguments: hidden_block_count_x/y/z are u32 at offsets 0/4/8 of the
implicit arguments, hidden_group_size_x/y/z u16 at 12/14/16); LLVM then
declares those hidden arguments in the metadata and the launcher fills them.
"""
import os
import re
import subprocess
import tempfile

from .signature import Param

OCKL_SHIM = """
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
define linkonce_odr hidden i64 @__ockl_get_local_size(i32 %d) alwaysinline {
  %p = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %o = mul i32 %d, 2
  %o2 = add i32 %o, 12
  %q = getelementptr i8, ptr addrspace(4) %p, i32 %o2
  %v = load i16, ptr addrspace(4) %q, align 2
  %r = zext i16 %v to i64
  ret i64 %r
}
define linkonce_odr hidden i64 @__ockl_get_num_groups(i32 %d) alwaysinline {
  %p = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %o = mul i32 %d, 4
  %q = getelementptr i8, ptr addrspace(4) %p, i32 %o
  %v = load i32, ptr addrspace(4) %q, align 4
  %r = zext i32 %v to i64
  ret i64 %r
}
"""


# ocml functions (ROCm's device library, not installed) that LLVM itself
# lowers as intrinsics on AMDGPU: the oracle calls LLVM's intrinsic instead
# (llvm.sin/cos.f32 select v_sin/v_cos_f32 after a multiply by 1/(2 pi):
# SITargetLowering::LowerTrig). Functions LLVM cannot lower (tanh, erf, ...)
# are not listed: their kernels have no LLVM oracle.
OCML_AS_INTRINSIC = {"__ocml_sin_f32": "llvm.sin.f32", "__ocml_cos_f32": "llvm.cos.f32"}
# Rounding: ocml's floor / ceil are the builtins (llvm.floor / llvm.ceil:
# v_floor / v_ceil). f16 exp and exp2: ROCm-Device-Libs ocml/src/expH.cl
# is (half)v_exp_f32((float)x * 0x1.715476p+0f) and exp2H.cl
# BUILTIN_EXP2_F16, which is what llc-22 selects for llvm.exp.f16 /
# llvm.exp2.f16 on gfx942; for log / log2 of f16 we follow LLVM's
# llvm.log.f16 / llvm.log2.f16 (ocml's logH.cl was not checked).
OCML_AS_INTRINSIC.update({
    "__ocml_floor_f32": "llvm.floor.f32", "__ocml_ceil_f32": "llvm.ceil.f32",
    "__ocml_floor_f64": "llvm.floor.f64", "__ocml_ceil_f64": "llvm.ceil.f64",
    "__ocml_exp_f16": "llvm.exp.f16", "__ocml_exp2_f16": "llvm.exp2.f16",
    "__ocml_log_f16": "llvm.log.f16", "__ocml_log2_f16": "llvm.log2.f16",
})
# log10: ocml's log10F.cl is BUILTIN_LOG10_F32 (llvm.log10.f32;
# ROCm-Device-Libs, amd/device-libs/ocml/src in llvm-project);
# convert-gpu-to-rocdl extends f16 and bf16 log10 to it. bf16 math: convert-gpu-to-
# rocdl extends some ops to f32 and calls ocml (log10 above), leaves others
# (math.exp / log of bf16) to the convert-math-to-llvm that follows it in
# build(): llvm.exp.bf16 etc., which llc-22 promotes to f32 (LowerMathBf16.cpp).
OCML_AS_INTRINSIC.update({"__ocml_log10_f32": "llvm.log10.f32"})
# exp2 / log2 of f32: ocml's exp2F.cl is BUILTIN_EXP2_F32 (__builtin_exp2f:
# llvm.exp2.f32); logF_base.h (log2F.cl, not DAZ) scales a subnormal x by
# 2^32, calls BUILTIN_LOG2_F32 (llvm.log2.f32) and subtracts 32: the bits of
# llvm.log2.f32 alone, whose AMDGPU lowering does the same scaling
# (ROCm-Device-Libs ocml/src, amd/device-libs in llvm-project;
# cc/lower/LowerMath.cpp).
OCML_AS_INTRINSIC.update({"__ocml_exp2_f32": "llvm.exp2.f32", "__ocml_log2_f32": "llvm.log2.f32"})

# The math ops amdgcn-lower rewrites with upstream MLIR's own expansions
# (cc/lower/LowerMathExpand.cpp, which states the same lists): the oracle
# runs the same upstream passes with mlir-opt-22 before convert-gpu-to-rocdl
# (math-extend-to-supported-types for f16/bf16 operands,
# test-math-polynomial-approximation, math-expand-ops{ops=EXPANDED}), so
# both builds compute the same function. mlir-opt's approximation pass
# rewrites every approximable op of the module (math.exp, log, sin, ...
# too) where amdgcn-lower takes only APPROXIMATED: a kernel that mixes
# them with natively lowered exp / log / sin / cos has no bit-exact oracle.
APPROXIMATED = ("tanh", "erf", "erfc", "atan", "atan2", "asin", "acos", "cbrt", "log1p",
                "expm1")
EXPANDED = ("powf", "sinh", "cosh", "tan", "asinh", "acosh", "atanh", "fpowi", "round", "ipowi")
EXTENDED_TOO = ("sin", "cos", "floor", "ceil", "trunc", "roundeven", "copysign")


def _math_expand(text):
    """The module with upstream's math expansions applied (see above)."""
    uses = re.findall(r"\bmath\.(\w+)\b([^\n]*)", text)
    names = {n for n, _ in uses}
    narrow = any(n in APPROXIMATED + EXPANDED + EXTENDED_TOO and re.search(r"\b(b?f16)\b", rest)
                 for n, rest in uses)
    passes = []
    if narrow:
        passes.append("math-extend-to-supported-types{target-type=f32}")
    if names & set(APPROXIMATED):
        passes.append("test-math-polynomial-approximation")
    if names & set(EXPANDED):
        passes.append("math-expand-ops{ops=" + ",".join(EXPANDED) + "}")
    if not passes:
        return text
    return _run(["mlir-opt-22", "--pass-pipeline=builtin.module(gpu.module("
                 + ",".join(passes) + "))"], text)


# ocml functions that LLVM expands from plain IR on AMDGPU: the oracle
# defines them as that IR (inlined: `alwaysinline`). arith.remf becomes
# __ocml_fmod_*, which the oracle computes as LLVM's `frem` (expanded by
# llc-22's expand-ir-insts into its exact fmod loop); math.rsqrt of f16 /
# f64 becomes __ocml_rsqrt_*, here `fdiv 1.0, llvm.sqrt` without fast-math
# flags (llc-22 -mcpu=gfx942: v_sqrt_f16 + v_rcp_f16; lowerFSQRTF64 +
# LowerFDIV64), the pattern aster lowers (cc/lower/LowerRemf.cpp,
# LowerMathFormats.cpp).
_OCML_IR_TYPES = {"f16": "half", "f32": "float", "f64": "double"}
OCML_AS_IR = {}
for _s, _t in _OCML_IR_TYPES.items():
    OCML_AS_IR[f"__ocml_fmod_{_s}"] = (
        f"define linkonce_odr hidden {_t} @__ocml_fmod_{_s}({_t} %x, {_t} %y) alwaysinline {{\n"
        f"  %r = frem {_t} %x, %y\n  ret {_t} %r\n}}\n")
for _s in ("f16", "f64"):
    _t = _OCML_IR_TYPES[_s]
    OCML_AS_IR[f"__ocml_rsqrt_{_s}"] = (
        f"define linkonce_odr hidden {_t} @__ocml_rsqrt_{_s}({_t} %x) alwaysinline {{\n"
        f"  %s = call {_t} @llvm.sqrt.{_s}({_t} %x)\n  %r = fdiv {_t} 1.0, %s\n"
        f"  ret {_t} %r\n}}\n")
# ocml's rsqrtF.cl (ROCm-Device-Libs, not DAZ: f32 denormals are on by
# default): x < 2^-126 scaled by 2^24, llvm.amdgcn.rsq.f32 (v_rsq_f32), the
# result scaled by 2^12 there.
OCML_AS_IR["__ocml_rsqrt_f32"] = (
    "define linkonce_odr hidden float @__ocml_rsqrt_f32(float %x) alwaysinline {\n"
    "  %s = fcmp olt float %x, 0x3810000000000000\n"
    "  %m = fmul float %x, 0x4170000000000000\n  %i = select i1 %s, float %m, float %x\n"
    "  %r = call float @llvm.amdgcn.rsq.f32(float %i)\n  %u = fmul float %r, 4096.0\n"
    "  %o = select i1 %s, float %u, float %r\n  ret float %o\n}\n"
    "declare float @llvm.amdgcn.rsq.f32(float)\n")
# ocml's log10H.cl (ROCm-Device-Libs): (half)(BUILTIN_AMDGPU_LOG2_F32((float)x)
# * 0x1.344136p-2f), the f32 v_log_f32 (llvm.amdgcn.log.f32) times log10(2)
# rounded to f32 (LowerMathBf16.cpp lowers the same).
OCML_AS_IR["__ocml_log10_f16"] = (
    "define linkonce_odr hidden half @__ocml_log10_f16(half %x) alwaysinline {\n"
    "  %f = fpext half %x to float\n  %l = call float @llvm.amdgcn.log.f32(float %f)\n"
    "  %m = fmul float %l, 0x3FD3441360000000\n  %r = fptrunc float %m to half\n"
    "  ret half %r\n}\n")


def _ocml_intrinsics(ll):
    """The module with OCML_AS_INTRINSIC's calls turned into the intrinsics
    and OCML_AS_IR's declarations into their definitions."""
    for f, intr in OCML_AS_INTRINSIC.items():
        ll = ll.replace("@" + f + "(", "@" + intr + "(")
    for f, body in OCML_AS_IR.items():
        decl = re.compile(r"^declare [^\n]*@" + f + r"\(.*$", re.M)
        if decl.search(ll):
            ll = decl.sub("", ll) + body
    return ll


def _with_shim(ll):
    """The module with OCKL_SHIM's definitions in place of its declarations
    (and OCML_AS_INTRINSIC's calls as LLVM intrinsics)."""
    ll = _ocml_intrinsics(ll)
    if "__ockl_" not in ll:
        return ll
    drop = re.compile(r"^declare .*@(__ockl_get_local_size|__ockl_get_num_groups|"
                      r"llvm\.amdgcn\.implicitarg\.ptr)\(.*$", re.M)
    return drop.sub("", ll) + OCKL_SHIM


def _run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=isinstance(stdin, str))
    if p.returncode:
        err = p.stderr if isinstance(p.stderr, str) else p.stderr.decode(errors="replace")
        raise RuntimeError(f"{cmd[0]} failed: {err[:2000]}")
    return p.stdout


def _bare(text):
    """True when every memref argument of every gpu.func is static with an
    identity layout (the rule amdgcn-lower follows too)."""
    for sig in re.findall(r"gpu\.func\s+@\w+\(([^)]*)\)", text):
        for t in re.findall(r"memref<[^>]*(?:<[^>]*>[^>]*)?>", sig):
            if not Param(t).static:
                return False
    return True


def _split_modules(text):
    """{name: body text} of each gpu.module in mlir-opt's printed output."""
    out, lines, i = {}, text.splitlines(), 0
    while i < len(lines):
        m = re.match(r"(\s*)gpu\.module @(\w+)", lines[i])
        if not m:
            i += 1
            continue
        indent, name, body = m.group(1), m.group(2), []
        i += 1
        while not re.fullmatch(indent + r"\}", lines[i]):
            body.append(lines[i])
            i += 1
        out[name] = "\n".join(body)
    return out


def _aliases(text):
    """The top-level attribute aliases of mlir-opt's output (`#name = ...`,
    e.g. the MMRA tag of amdgpu.lds_barrier's fences), which the gpu.module
    bodies refer to."""
    return "".join(line + "\n" for line in text.splitlines() if re.match(r"#[\w.$-]+ = ", line))


def _private_alloca(m):
    """`%x = memref.alloc(...) : memref<T>` as an alloca of private memory
    (LLVM's allocas are in addrspace 5) cast to the type its users have."""
    name, sizes, attrs, ty = m.groups()
    priv = ty[:-1] + ", #gpu.address_space<private>>"
    return (f"{name}_p = memref.alloca({sizes}){attrs} : {priv}\n"
            f"    {name} = memref.memory_space_cast {name}_p : {priv} to {ty}\n")


def _globals_into_gpu_modules(text):
    """The top-level memref.globals one-shot-bufferize makes of constant
    tensors (upstream's getGlobalFor puts them in the nearest builtin.module,
    where the gpu.module's get_global cannot see them: mlir-opt-22's
    verifier rejects its own output, printed in generic form) moved into
    each gpu.module that refers to them, as gpu-kernel-outlining clones a
    kernel's referenced symbols into its gpu.module (the same move
    cc/lower/LowerConstantTensor.cpp makes); mlir-opt-22 then verifies and
    prints the result."""
    generic = text.lstrip().startswith('"builtin.module"')
    glob = (r'  "memref\.global"\(\).*?sym_name = "([\w.$-]+)"' if generic
            else r"  memref\.global .*?@([\w.$-]+)\b")
    mod = (r'(  "gpu\.module"\(\)[^\n]*\(\{\n)(.*?\n  \}\)[^\n]*\n)' if generic
           else r"(gpu\.module @\w+[^\n]*\{\n)(.*?\n  \}\n)")
    lines = text.splitlines(keepends=True)
    globs = {m.group(1): line for line in lines for m in [re.match(glob, line)] if m}
    if not globs:
        return text
    text = "".join(line for line in lines if line not in globs.values())
    for name, line in globs.items():
        def put(m, name=name, line=line):
            head, body = m.group(1), m.group(2)
            if not re.search(rf"@{re.escape(name)}\b", body):
                return m.group(0)
            return head + "    " + line.strip() + "\n" + body
        text = re.sub(mod, put, text, flags=re.S)
    return _run(["mlir-opt-22"], text)


def _linalg_to_loops(text):
    """linalg ops of the gpu.modules as loops (mlir-opt-22
    --convert-linalg-to-loops), before the pipeline below; tensors first
    bufferized by the pass aster.lower runs (cc/lower/LowerTensors.cpp):
    one-shot-bufferize; its new buffers are work-item private
    (memref.alloca) and its copies linalg.copy, as aster's allocation and
    copy functions make them (mlir-opt-22's pass has no option for either:
    the text is rewritten; memref-to-llvm would call a runtime memrefCopy
    for a strided copy)."""
    if "tensor<" in text:
        text = _globals_into_gpu_modules(_run(["mlir-opt-22", "--one-shot-bufferize", "--verify-each=0"], text))
        text = re.sub(r"(%[\w.]+) = memref\.alloc\((.*?)\)(.*) : (memref<.*>)\n",
                      _private_alloca, text)
        text = re.sub(r"memref\.copy (%[\w.]+), (%[\w.]+) : (.+) to (.+)",
                      r"linalg.copy ins(\1 : \3) outs(\2 : \4)", text)
    if "linalg." not in text:
        return text
    return _run(["mlir-opt-22",
                 "--pass-pipeline=builtin.module(gpu.module(convert-linalg-to-loops))"], text)


def _vector_expand(text):
    """n-D and permuted vector transfers, which convert-vector-to-llvm leaves
    to convert-vector-to-scf, lowered as amdgcn-lower rewrites them
    (cc/lower/LowerVectorExpand.cpp): convert-vector-to-scf fully unrolled
    to rank 1, then lower-affine. (upstream's lower-vector-multi-reduction
    runs on func.func only, not on gpu.func: kernels with
    vector.multi_reduction have no LLVM build here.)"""
    if "vector.transfer_" not in text:
        return text
    return _run(["mlir-opt-22", "--pass-pipeline=builtin.module(gpu.module("
                 "convert-vector-to-scf{full-unroll=true target-rank=1},lower-affine))"], text)


def _abi_holds_index(text):
    """True when the kernels' interface holds an index: a memref descriptor
    (sizes, strides, offset) or an `index` parameter."""
    if not _bare(text):
        return True
    return any(re.search(r"\bindex\b", sig)
               for sig in re.findall(r"gpu\.func\s+@\w+\(([^)]*)\)", text))


def _pipeline(text, target, bits):
    bare = "true" if _bare(text) else "false"
    # convert-vector-to-llvm (vector transfers and masks) has no index-width
    # option: it converts memrefs with 64-bit index, so it runs in the
    # 64-bit pipeline only (convert-gpu-to-rocdl converts the other vector ops).
    vec = "convert-vector-to-llvm," if bits == 64 else ""
    return (f"builtin.module(gpu.module(expand-strided-metadata,memref-expand,lower-affine,"
            f"convert-scf-to-cf,{vec}convert-gpu-to-rocdl{{chipset={target} "
            f"use-bare-ptr-memref-call-conv={bare} index-bitwidth={bits}}},convert-math-to-llvm),"
            f"reconcile-unrealized-casts)")


def _llvm_dialect(text, target, bits=None):
    """(the gpu.modules of `text` in the LLVM dialect, the index width used):
    the mlir-opt-22 part of build. 32-bit index (aster's) unless the kernel
    interface holds an index or the kernel needs convert-vector-to-llvm
    (what the 32-bit pipeline leaves unconverted); then the 64-bit one."""
    text = _vector_expand(_math_expand(_linalg_to_loops(text)))
    if "gpu.all_reduce" in text:
        # convert-gpu-to-rocdl does not lower gpu.all_reduce: upstream's own
        # rewrite of it (AllReduceLowering, run by --test-gpu-rewrite) first.
        text = _run(["mlir-opt-22", "--test-gpu-rewrite"], text)
    if bits == 32 or (bits is None and not _abi_holds_index(text)):
        try:
            out = _run(["mlir-opt-22", f"--pass-pipeline={_pipeline(text, target, 32)}"], text)
            # mlir-translate-22 turns rocdl.workgroup.dim / grid.dim into a
            # call of __ockl_get_local_size / num_groups whose i64 result it
            # uses in place of the op's i32 (a mul i64, a store of 8 bytes):
            # kernels reading block_dim / grid_dim keep the 64-bit index.
            if not re.search(r"\b(vector|memref|arith|builtin)\.\w+|rocdl\.(workgroup|grid)\.dim",
                             out):
                return out, 32
            if bits == 32:
                raise RuntimeError("mlir-opt-22 / mlir-translate-22 cannot build it with a "
                                   "32-bit index")
        except RuntimeError:
            if bits == 32:
                raise
    return _run(["mlir-opt-22", f"--pass-pipeline={_pipeline(text, target, 64)}"], text), 64


def index_bits(text, target="gfx942"):
    """The width of `index` in LLVM's build of `text` (32 or 64; see the module doc)."""
    return _llvm_dialect(text, target)[1]


def build(text, target="gfx942", opt="-O3", index=None):
    """{gpu.module name: hsaco bytes} built by LLVM (see the module doc);
    index=32 or 64 forces the width of index (None: index_bits's choice)."""
    llvm_dialect = _llvm_dialect(text, target, index)[0]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, body in _split_modules(llvm_dialect).items():
            ll = _run(["mlir-translate-22", "--mlir-to-llvmir"],
                     _aliases(llvm_dialect) + "module {\n" + body + "\n}\n")
            ll = _with_shim(ll)
            src = os.path.join(tmp, name + ".ll")
            obj = os.path.join(tmp, name + ".o")
            hsaco = os.path.join(tmp, name + ".hsaco")
            with open(src, "w") as f:
                f.write(ll)
            _run(["llc-22", opt, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}",
                  "-filetype=obj", src, "-o", obj])
            _run(["ld.lld-22", "-shared", obj, "-o", hsaco])
            with open(hsaco, "rb") as f:
                out[name] = f.read()
    return out


def asm(text, target="gfx942", opt="-O3"):
    """LLVM's assembly of the same kernels, {gpu.module name: text} (to read)."""
    llvm_dialect = _llvm_dialect(text, target)[0]
    out = {}
    for name, body in _split_modules(llvm_dialect).items():
        ll = _run(["mlir-translate-22", "--mlir-to-llvmir"],
                     _aliases(llvm_dialect) + "module {\n" + body + "\n}\n")
        ll = _with_shim(ll)
        out[name] = _run(["llc-22", opt, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-o", "-"],
                         ll)
    return out
