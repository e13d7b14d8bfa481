"""Probes of gpu ops.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import numpy as np

from .kernels import N, elementwise, isfloat, raw


# gpu.shuffle's definition (GPUOps.td): "up: for lane k, returns the value
# from lane (k - offset); if (k - offset) is smaller than 0, the value is
# poison and valid is false" -- aster follows it. Upstream's ROCDL lowering
# (GPUShuffleOpLowering) checks the source lane only against the end of the
# width segment, so its lanes 0 .. offset-1 read lane 64 - offset + k and
# report valid: LLVM's build is no oracle for `up`.
_UP_VALID = ("LLVM's build is not the oracle: convert-gpu-to-rocdl's shuffle up reports lanes "
             "below the offset valid (wrapped source), gpu.shuffle's definition says invalid")


def _lane_store():
    return "      %v = arith.index_cast %r : index to i32\n      memref.store %v, %o[%lin] : memref<1024xi32>\n"


def _linear():
    return """      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %l1 = arith.muli %ty, %c16 : index
      %l2 = arith.muli %tz, %c32 : index
      %l3 = arith.muli %bx, %c64 : index
      %l4 = arith.addi %l1, %l2 : index
      %l5 = arith.addi %l4, %l3 : index
      %lin = arith.addi %l5, %tx : index
"""


def _zeros_i32(rng):
    return [np.zeros(N, np.int32)]


_REDUCE = {"add": np.add, "mul": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or,
           "xor": np.bitwise_xor, "minsi": np.minimum, "maxsi": np.maximum, "minnumf": np.fmin,
           "maxnumf": np.fmax, "minimumf": np.minimum, "maximumf": np.maximum}


def _reduce_ref(kind, size, stride):
    """NumPy's reduction over each cluster of `size` lanes `stride` apart
    (gpu.subgroup_reduce's definition) of the 64 lanes; 0 past lane 63."""
    def ref(a):
        x = np.asarray(a[0])[:64]
        if kind in ("minui", "maxui"):
            u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
            f = np.minimum if kind == "minui" else np.maximum
        else:
            u, f = x, _REDUCE[kind]
        out = np.zeros_like(u)
        with np.errstate(all="ignore"):
            for lane in range(64):
                block, off = lane // (size * stride) * size * stride, lane % stride
                members = [block + off + stride * k for k in range(size)]
                acc = u[members[0]]
                for m in members[1:]:
                    acc = f(acc, u[m])
                out[lane] = acc
        full = np.zeros(N, x.dtype)
        full[:64] = out.view(x.dtype)
        return {1: full}
    return ref


_ROTATE_NO_LLVM = ("LLVM 22's convert-gpu-to-rocdl has no gpu.rotate pattern (failed to "
                   "legalize); NumPy computes the op's definition (GPUOps.td)")


def _rotate_ref(a):
    """gpu.rotate %a, 5, 32: lane k reads lane ((k + 5) & 31) + (k & ~31)."""
    lane = np.arange(64)
    out = np.zeros_like(a[1])
    out[:64] = a[0][((lane + 5) & 31) + (lane & ~31)]
    return {1: out}


def _shuffle_ref(mode, off, width):
    """gpu.shuffle on the 64 lanes as the probe stores it (the shuffled value
    where valid, else the lane's own), read as upstream's ROCDL lowering
    does (GPUShuffleOpLowering; aster follows it: cc/lower/LowerGpu.cpp):
    lane k reads lane k ^ off (xor), k - off (up), k + off (down) or off
    (idx: a lane of the wave), valid when 0 <= that lane < the end of k's
    segment of `width` lanes. Other readings, not followed: GPUOps.td's text
    makes lanes >= width invalid (unspecified value), NVVM's shfl reads idx
    within the segment; for up, the ROCDL lowering also reports lanes below
    the offset valid (_UP_VALID), GPUOps.td invalid, and aster and this
    reference follow GPUOps.td. Each lane's value is one element of the
    stored array (a vector<2xf16>: one i32 word)."""
    def ref(a):
        x = np.asarray(a[0])
        out = np.zeros_like(x)
        for k in range(64):
            end = (k + width) // width * width
            src = {"xor": k ^ off, "up": k - off, "down": k + off, "idx": off}[mode]
            out[k] = x[src] if 0 <= src < end else x[k]
        return {1: out}
    return ref


def _waves_ref(op, threads):
    """gpu.subgroup_id / num_subgroups of two work-groups of `threads`
    work-items (GPUOps.td: the subgroup of a work-item is its linear id in
    the work-group divided by the subgroup size, 64 here), at each
    work-item's linear id in the grid."""
    def ref(a):
        out = np.zeros(N, np.int32)
        lin = np.arange(2 * threads)
        out[:2 * threads] = (lin % threads) // 64 if op == "subgroup_id" else -(-threads // 64)
        return {0: out}
    return ref


def _probes_gpu():
    P = []
    for op in ("thread_id", "block_id", "block_dim", "grid_dim", "global_id", "cluster_id",
               "cluster_dim", "cluster_block_id", "cluster_dim_blocks"):
        for d in "xyz":
            P.append(raw(f"gpu.{op}", d, "%o: memref<1024xi32>",
                         _linear() + f"      %r = gpu.{op} {d}\n" + _lane_store(), _zeros_i32, [0],
                         grid=(2, 1, 1), block=(16, 2, 2),
                         attrs="known_block_size = array<i32: 16, 2, 2>"))
    for op in ("lane_id", "subgroup_size", "num_subgroups", "subgroup_id"):
        P.append(raw(f"gpu.{op}", "", "%o: memref<1024xi32>",
                     _linear() + f"      %r = gpu.{op}{'' if op == 'lane_id' else ' : index'}\n" + _lane_store(), _zeros_i32, [0],
                     grid=(2, 1, 1), block=(16, 2, 2),
                     ref=_waves_ref(op, 64) if op in ("num_subgroups", "subgroup_id") else None,
                     attrs="known_block_size = array<i32: 16, 2, 2>"))
    for op in ("num_subgroups", "subgroup_id"):
        P.append(raw(f"gpu.{op}", "4 waves", "%o: memref<1024xi32>", """
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %l1 = arith.muli %ty, %c64 : index
      %l2 = arith.muli %tz, %c128 : index
      %l3 = arith.muli %bx, %c256 : index
      %l4 = arith.addi %l1, %l2 : index
      %l5 = arith.addi %l4, %l3 : index
      %lin = arith.addi %l5, %tx : index
""" + f"      %r = gpu.{op} : index\n" + _lane_store(), _zeros_i32, [0],
                     grid=(2, 1, 1), block=(64, 2, 2), ref=_waves_ref(op, 256),
                     attrs="known_block_size = array<i32: 64, 2, 2>"))
    P.append(elementwise("gpu.barrier", "", "      gpu.barrier\n      %r = arith.addi %a, %a : i32",
                         ["i32"], "i32"))
    # The shuffled value of a lane whose source is out of range is
    # unspecified (gpu.shuffle's definition): the probe keeps the lane's
    # own value there, so both builds store defined bits.
    for mode, off in (("xor", 5), ("up", 3), ("down", 3), ("idx", 7)):
        for t in ("i32", "f32", "i64", "f64", "f16", "i16", "i8", "vector<2xf16>"):
            for w in (64, 16):
                P.append(elementwise("gpu.shuffle", f"{mode} {t} width {w}",
                                     f"      %off = arith.constant {off} : i32\n"
                                     f"      %w = arith.constant {w} : i32\n"
                                     f"      %s, %ok = gpu.shuffle {mode} %a, %off, %w : {t}\n"
                                     f"      %r = arith.select %ok, %s, %a : {t}",
                                     [t], t, ref=_shuffle_ref(mode, off, w)))
                if mode == "up":
                    P[-1].no_llvm = _UP_VALID
    for t in ("i32", "f32", "f16", "i64"):
        P.append(elementwise("gpu.rotate", f"{t}", f"      %r, %ok = gpu.rotate %a, 5, 32 : {t}",
                             [t], t, ref=_rotate_ref))
        P[-1].no_llvm = _ROTATE_NO_LLVM
        P.append(elementwise("gpu.subgroup_broadcast", f"specific_lane {t}",
                             f"      %l = arith.constant 9 : i32\n"
                             f"      %r = gpu.subgroup_broadcast %a, specific_lane %l : {t}", [t], t))
        P.append(elementwise("gpu.subgroup_broadcast", f"first_active_lane {t}",
                             f"      %r = gpu.subgroup_broadcast %a, first_active_lane : {t}", [t], t))
    ikinds = ("add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor")
    fkinds = ("add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf")
    for t in ("i32", "i64", "i16", "i8", "f32", "f64", "f16"):
        for k in (fkinds if isfloat(t) else ikinds):
            for cl, size, stride in (("", 64, 1), (" cluster(size = 4)", 4, 1),
                                     (" cluster(size = 8, stride = 2)", 8, 2)):
                P.append(elementwise("gpu.subgroup_reduce", f"{k} {t}{cl}",
                                     f"      %r = gpu.subgroup_reduce {k} %a{cl} : ({t}) -> {t}",
                                     [t], t, kind="small", ref=_reduce_ref(k, size, stride)))
            P.append(elementwise("gpu.all_reduce", f"{k} {t}",
                                 f"      %r = gpu.all_reduce {k} %a uniform {{}} : ({t}) -> {t}",
                                 [t], t, kind="small", ref=_reduce_ref(k, 64, 1)))
    P.append(raw("gpu.dynamic_shared_memory", "", "%x: memref<1024xf32>, %o: memref<1024xf32>", """
      %i = gpu.thread_id x
      %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %l = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %l[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %i : index
      %w = memref.load %l[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %o[%i] : memref<1024xf32>""",
                 lambda r: [r.standard_normal(N).astype(np.float32), np.zeros(N, np.float32)], [1],
                 launch={"dynamic_lds": 256}))
    return P
