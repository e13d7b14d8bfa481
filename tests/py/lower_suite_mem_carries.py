"""Memrefs whose memory is not known where they are used (issue 26 item 2,
LowerMemrefCarries.cpp / LowerMemrefFlat.cpp), in lower_suite.py's Case
form: each kernel built by aster and by LLVM (mlir-opt-22
convert-gpu-to-rocdl + llc-22), both checked against NumPy on the emulator
in strict mode (an access outside an argument's array faults there).

- scf.if / scf.for / scf.while yielding or carrying memrefs: of one memory
  (two global arguments, two LDS buffers: global_* / ds_* through the
  carried pointer or LDS address, as LLVM's InferAddressSpaces keeps the
  address space through the phi) or of mixed memories (an LDS buffer cast
  to generic and a global argument: a flat pointer, flat_*), views with
  dynamic offsets and sizes.
- vector.load / store / transfer_read / transfer_write (masked, odd sizes,
  f64) through a flat memref (llc-22 -mcpu=gfx942: flat_load_dwordx4 at any
  alignment, flat_load_ushort, flat_store_dwordx2 ...).
- atomics and vector.type_cast elements through flat memrefs:
  lower_suite_mem_flat.py.
- device functions (func.func) taking memrefs: a generic memref parameter
  passed global, LDS (cast to generic) and selected memrefs (a flat
  pointer), one only ever passed LDS (an LDS address), a workgroup-typed
  parameter.
"""
import numpy as np

from lower_suite import Case, module
from lower_suite_functions import _inlined

CASES = []

KB = "attributes {known_block_size = array<i32: 64, 1, 1>}"
WG = "#gpu.address_space<workgroup>"
_DYN = "memref<?xf32, strided<[1], offset: ?>>"
_L32 = f"memref<32xf32, strided<[1], offset: ?>, {WG}>"


# 1. scf.if yielding memrefs: per lane an LDS buffer (cast to generic) or a
#    global argument (flat); uniformly one of two global arguments (a
#    kernel argument decides: global_load from the selected pointer); per
#    lane one of two LDS halves (subviews: LDS address); per lane one of two
#    dynamic subviews of a dynamic-size argument (offset and size carried).
def _if_expect(a):
    x, y, d = a[0], a[1], a[5]
    i = np.arange(64)
    j, k = 63 - i, i >> 1
    even = i % 2 == 0
    l = x * np.float32(2)
    return {2: np.where(even, l[j], y[j]).astype(np.float32),
            3: x[j].copy(),
            4: np.where(even, l[k], l[32 + k]).astype(np.float32),
            6: np.where(even, d[1 + k], d[k]).astype(np.float32)}


CASES.append(Case("memref_if_yield", "iy", module(f"""
    gpu.func @iy(%x: memref<64xf32>, %y: memref<64xf32>, %o1: memref<64xf32>,
                 %o2: memref<64xf32>, %o3: memref<64xf32>, %d: memref<?xf32>,
                 %o4: memref<64xf32>, %flag: i32)
        workgroup(%l: memref<64xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c63 = arith.constant 63 : index
      %z32 = arith.constant 0 : i32
      %two = arith.constant 2.0 : f32
      %xv = memref.load %x[%i] : memref<64xf32>
      %x2 = arith.mulf %xv, %two : f32
      memref.store %x2, %l[%i] : memref<64xf32, {WG}>
      gpu.barrier
      %g = memref.memory_space_cast %l : memref<64xf32, {WG}> to memref<64xf32>
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %j = arith.subi %c63, %i : index
      %m = scf.if %even -> memref<64xf32> {{
        scf.yield %g : memref<64xf32>
      }} else {{
        scf.yield %y : memref<64xf32>
      }}
      %v = memref.load %m[%j] : memref<64xf32>
      memref.store %v, %o1[%i] : memref<64xf32>
      %u = arith.cmpi ne, %flag, %z32 : i32
      %mu = scf.if %u -> memref<64xf32> {{
        scf.yield %x : memref<64xf32>
      }} else {{
        scf.yield %y : memref<64xf32>
      }}
      %vu = memref.load %mu[%j] : memref<64xf32>
      memref.store %vu, %o2[%i] : memref<64xf32>
      %k = arith.shrui %i, %c1 : index
      %ml = scf.if %even -> {_L32} {{
        %s = memref.subview %l[%c0] [32] [1] : memref<64xf32, {WG}> to {_L32}
        scf.yield %s : {_L32}
      }} else {{
        %s = memref.subview %l[%c32] [32] [1] : memref<64xf32, {WG}> to {_L32}
        scf.yield %s : {_L32}
      }}
      %vl = memref.load %ml[%k] : {_L32}
      memref.store %vl, %o3[%i] : memref<64xf32>
      %n = memref.dim %d, %c0 : memref<?xf32>
      %n1 = arith.subi %n, %c1 : index
      %md = scf.if %even -> {_DYN} {{
        %s = memref.subview %d[%c1] [%n1] [1] : memref<?xf32> to {_DYN}
        scf.yield %s : {_DYN}
      }} else {{
        %s = memref.subview %d[%c0] [%n] [1] : memref<?xf32> to {_DYN}
        scf.yield %s : {_DYN}
      }}
      %vd = memref.load %md[%k] : {_DYN}
      memref.store %vd, %o4[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), r.standard_normal(64).astype(np.float32),
               np.zeros(64, np.float32), np.zeros(64, np.float32), np.zeros(64, np.float32),
               r.standard_normal(80).astype(np.float32), np.zeros(64, np.float32), 1],
    _if_expect))


# 2. scf.for carrying memrefs: two LDS buffers swapped each iteration
#    (ping-pong: dst[i] = src[(i + 1) % 64] + 1, four steps), two global
#    arguments swapped (dst[i] = 2 src[i], three steps), and a mixed carry
#    (the LDS buffer cast to generic first, then a global argument: flat)
#    summed over three iterations.
def _for_expect(a):
    x = a[0]
    s = x.copy()
    for _ in range(4):
        s = (np.roll(s, -1) + np.float32(1)).astype(np.float32)
    ga, gb = x.copy(), np.zeros(64, np.float32)
    src, dst = ga, gb
    for _ in range(3):
        dst[:] = src * np.float32(2)
        src, dst = dst, src
    acc = np.float32(0) + s
    acc = (acc + ga).astype(np.float32)
    acc = (acc + ga).astype(np.float32)
    return {1: s, 2: ga, 3: gb, 4: src.copy(), 5: acc}


CASES.append(Case("memref_for_carry", "pp", module(f"""
    gpu.func @pp(%x: memref<64xf32>, %o: memref<64xf32>, %ga: memref<64xf32>,
                 %gb: memref<64xf32>, %o2: memref<64xf32>, %o3: memref<64xf32>)
        workgroup(%la: memref<64xf32, {WG}>, %lb: memref<64xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c63 = arith.constant 63 : index
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %zero = arith.constant 0.0 : f32
      %xv = memref.load %x[%i] : memref<64xf32>
      memref.store %xv, %la[%i] : memref<64xf32, {WG}>
      memref.store %xv, %ga[%i] : memref<64xf32>
      gpu.barrier
      %i1 = arith.addi %i, %c1 : index
      %n = arith.andi %i1, %c63 : index
      %r:2 = scf.for %s = %c0 to %c4 step %c1 iter_args(%src = %la, %dst = %lb)
          -> (memref<64xf32, {WG}>, memref<64xf32, {WG}>) {{
        %v = memref.load %src[%n] : memref<64xf32, {WG}>
        %v1 = arith.addf %v, %one : f32
        memref.store %v1, %dst[%i] : memref<64xf32, {WG}>
        gpu.barrier
        scf.yield %dst, %src : memref<64xf32, {WG}>, memref<64xf32, {WG}>
      }}
      %f = memref.load %r#0[%i] : memref<64xf32, {WG}>
      memref.store %f, %o[%i] : memref<64xf32>
      %q:2 = scf.for %s = %c0 to %c3 step %c1 iter_args(%src = %ga, %dst = %gb)
          -> (memref<64xf32>, memref<64xf32>) {{
        %v = memref.load %src[%i] : memref<64xf32>
        %v2 = arith.mulf %v, %two : f32
        memref.store %v2, %dst[%i] : memref<64xf32>
        scf.yield %dst, %src : memref<64xf32>, memref<64xf32>
      }}
      %h = memref.load %q#0[%i] : memref<64xf32>
      memref.store %h, %o2[%i] : memref<64xf32>
      %g = memref.memory_space_cast %la : memref<64xf32, {WG}> to memref<64xf32>
      %w:2 = scf.for %s = %c0 to %c3 step %c1 iter_args(%m = %g, %acc = %zero)
          -> (memref<64xf32>, f32) {{
        %v = memref.load %m[%i] : memref<64xf32>
        %a = arith.addf %acc, %v : f32
        scf.yield %ga, %a : memref<64xf32>, f32
      }}
      memref.store %w#1, %o3[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), np.zeros(64, np.float32),
               np.zeros(64, np.float32), np.zeros(64, np.float32), np.zeros(64, np.float32),
               np.zeros(64, np.float32)],
    _for_expect))


# 3. scf.while carrying a memref (the LDS buffer cast to generic, then a
#    global argument: flat) through its before and after regions.
def _while_expect(a):
    x = a[0]
    acc = (np.float32(0) + x * np.float32(3)).astype(np.float32)
    acc = (acc + x).astype(np.float32)
    acc = (acc + x).astype(np.float32)
    return {1: (acc + x).astype(np.float32)}


CASES.append(Case("memref_while_carry", "wc", module(f"""
    gpu.func @wc(%x: memref<64xf32>, %o: memref<64xf32>)
        workgroup(%l: memref<64xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.0 : f32
      %three = arith.constant 3.0 : f32
      %xv = memref.load %x[%i] : memref<64xf32>
      %x3 = arith.mulf %xv, %three : f32
      memref.store %x3, %l[%i] : memref<64xf32, {WG}>
      %g = memref.memory_space_cast %l : memref<64xf32, {WG}> to memref<64xf32>
      %r:3 = scf.while (%m = %g, %k = %c0, %acc = %zero)
          : (memref<64xf32>, index, f32) -> (memref<64xf32>, index, f32) {{
        %c = arith.cmpi slt, %k, %c3 : index
        scf.condition(%c) %m, %k, %acc : memref<64xf32>, index, f32
      }} do {{
      ^bb0(%m2: memref<64xf32>, %k2: index, %a2: f32):
        %v = memref.load %m2[%i] : memref<64xf32>
        %a3 = arith.addf %a2, %v : f32
        %k3 = arith.addi %k2, %c1 : index
        scf.yield %x, %k3, %a3 : memref<64xf32>, index, f32
      }}
      %ve = memref.load %r#0[%i] : memref<64xf32>
      %s = arith.addf %r#2, %ve : f32
      memref.store %s, %o[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), np.zeros(64, np.float32)],
    _while_expect))


# 4. Vector accesses through flat memrefs (arith.select of an LDS buffer
#    cast to generic and a global argument, per lane): vector<4xf32> loads,
#    a masked transfer_read (mask i % 4, pad -1), vector<3xf16> loads of
#    two selected global arguments, vector<2xf64> loads and stores (the
#    store into LDS on even lanes, global memory on odd ones), a masked
#    transfer_write.
def _vec_expect(a):
    x, h, h2, d = a[0], a[1], a[2], a[3]
    i = np.arange(64)
    even = i % 2 == 0
    l = x * np.float32(2)
    o = np.concatenate([(l if e else x)[4 * k:4 * k + 4] for k, e in zip(i, even)])
    om = np.full(256, -1, np.float32)
    for k in i:
        src = l if even[k] else x
        for e in range(4):
            if e < k % 4:
                om[4 * k + e] = src[4 * k + 1 + e]
    oh = np.zeros(256, np.float16)
    for k in i:
        oh[4 * k:4 * k + 3] = (h if even[k] else h2)[4 * k:4 * k + 3]
    od = np.zeros(128)
    ol = np.zeros(128)
    for k in i:
        (ol if even[k] else od)[2 * k:2 * k + 2] = d[2 * k:2 * k + 2]
    ow = np.zeros(256, np.float32)
    for k in i:
        for e in range(4):
            if e < (k + 1) % 4:
                ow[4 * k + e] = o[4 * k + e]
    return {4: o, 5: om, 6: oh, 7: od, 8: ol, 9: ow}


CASES.append(Case("vector_through_flat", "vf", module(f"""
    gpu.func @vf(%x: memref<256xf32>, %h: memref<256xf16>, %h2: memref<256xf16>,
                 %d: memref<128xf64>, %o: memref<256xf32>, %om: memref<256xf32>,
                 %oh: memref<256xf16>, %od: memref<128xf64>, %ol: memref<128xf64>,
                 %ow: memref<256xf32>)
        workgroup(%l: memref<256xf32, {WG}>, %ld: memref<128xf64, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %b4 = arith.muli %i, %c4 : index
      %b41 = arith.addi %b4, %c1 : index
      %b2 = arith.muli %i, %c2 : index
      %two = arith.constant dense<2.0> : vector<4xf32>
      %xv = vector.load %x[%b4] : memref<256xf32>, vector<4xf32>
      %x2 = arith.mulf %xv, %two : vector<4xf32>
      vector.store %x2, %l[%b4] : memref<256xf32, {WG}>, vector<4xf32>
      gpu.barrier
      %g = memref.memory_space_cast %l : memref<256xf32, {WG}> to memref<256xf32>
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %m = arith.select %even, %g, %x : memref<256xf32>
      %v = vector.load %m[%b4] : memref<256xf32>, vector<4xf32>
      vector.store %v, %o[%b4] : memref<256xf32>, vector<4xf32>
      %k = arith.andi %i, %c3 : index
      %mk = vector.create_mask %k : vector<4xi1>
      %pad = arith.constant -1.0 : f32
      %vm = vector.transfer_read %m[%b41], %pad, %mk : memref<256xf32>, vector<4xf32>
      vector.store %vm, %om[%b4] : memref<256xf32>, vector<4xf32>
      %mh = arith.select %even, %h, %h2 : memref<256xf16>
      %vh = vector.load %mh[%b4] : memref<256xf16>, vector<3xf16>
      vector.store %vh, %oh[%b4] : memref<256xf16>, vector<3xf16>
      %vd = vector.load %d[%b2] : memref<128xf64>, vector<2xf64>
      %gd = memref.memory_space_cast %ld : memref<128xf64, {WG}> to memref<128xf64>
      %md = arith.select %even, %gd, %od : memref<128xf64>
      vector.store %vd, %md[%b2] : memref<128xf64>, vector<2xf64>
      gpu.barrier
      %ldv = vector.load %ld[%b2] : memref<128xf64, {WG}>, vector<2xf64>
      %zd = arith.constant dense<0.0> : vector<2xf64>
      %keep = arith.select %even, %ldv, %zd : vector<2xf64>
      vector.store %keep, %ol[%b2] : memref<128xf64>, vector<2xf64>
      %i1 = arith.addi %i, %c1 : index
      %k1 = arith.andi %i1, %c3 : index
      %mw = vector.create_mask %k1 : vector<4xi1>
      %mo = arith.select %even, %ow, %ow : memref<256xf32>
      vector.transfer_write %v, %mo[%b4], %mw {{in_bounds = [true]}} : vector<4xf32>, memref<256xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(256).astype(np.float32),
               r.standard_normal(256).astype(np.float16), r.standard_normal(256).astype(np.float16),
               r.standard_normal(128), np.zeros(256, np.float32), np.zeros(256, np.float32),
               np.zeros(256, np.float16), np.zeros(128), np.zeros(128), np.zeros(256, np.float32)],
    _vec_expect))


# 5. Device functions taking memrefs: @sum2 is passed a global argument, the
#    LDS buffer cast to generic and a per-lane select of the two (its
#    parameter a flat pointer); @get only ever the LDS buffer cast to
#    generic (an LDS address: ds_read); @put a workgroup-typed memref.
def _func_expect(a):
    x, y = a[0], a[1]
    i = np.arange(64)
    n = (i + 1) % 64
    l = x * np.float32(2)
    m = np.where(i % 2 == 0, l[n], y[n]).astype(np.float32)
    mm = np.where(i % 2 == 0, l[i], y[i]).astype(np.float32)
    return {2: (x[i] + x[n]).astype(np.float32), 3: (l[i] + l[n]).astype(np.float32),
            4: (mm + m).astype(np.float32), 5: l[n].copy()}


CASES.append(Case("func_memref_params", "fk", module(f"""
    func.func @sum2(%p: memref<64xf32>, %i: index) -> f32 {{
      %c1 = arith.constant 1 : index
      %c63 = arith.constant 63 : index
      %i1 = arith.addi %i, %c1 : index
      %n = arith.andi %i1, %c63 : index
      %a = memref.load %p[%i] : memref<64xf32>
      %b = memref.load %p[%n] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      return %s : f32
    }}
    func.func @get(%p: memref<64xf32>, %i: index) -> f32 {{
      %v = memref.load %p[%i] : memref<64xf32>
      return %v : f32
    }}
    func.func @put(%p: memref<64xf32, {WG}>, %i: index, %v: f32) -> f32 {{
      memref.store %v, %p[%i] : memref<64xf32, {WG}>
      return %v : f32
    }}
    gpu.func @fk(%x: memref<64xf32>, %y: memref<64xf32>, %o1: memref<64xf32>,
                 %o2: memref<64xf32>, %o3: memref<64xf32>, %o4: memref<64xf32>)
        workgroup(%l: memref<64xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c63 = arith.constant 63 : index
      %two = arith.constant 2.0 : f32
      %xv = memref.load %x[%i] : memref<64xf32>
      %x2 = arith.mulf %xv, %two : f32
      %pv = func.call @put(%l, %i, %x2) : (memref<64xf32, {WG}>, index, f32) -> f32
      gpu.barrier
      %g = memref.memory_space_cast %l : memref<64xf32, {WG}> to memref<64xf32>
      %a = func.call @sum2(%x, %i) : (memref<64xf32>, index) -> f32
      memref.store %a, %o1[%i] : memref<64xf32>
      %b = func.call @sum2(%g, %i) : (memref<64xf32>, index) -> f32
      memref.store %b, %o2[%i] : memref<64xf32>
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %m = arith.select %even, %g, %y : memref<64xf32>
      %c = func.call @sum2(%m, %i) : (memref<64xf32>, index) -> f32
      memref.store %c, %o3[%i] : memref<64xf32>
      %i1 = arith.addi %i, %c1 : index
      %n = arith.andi %i1, %c63 : index
      %e = func.call @get(%g, %n) : (memref<64xf32>, index) -> f32
      memref.store %e, %o4[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), r.standard_normal(64).astype(np.float32),
               np.zeros(64, np.float32), np.zeros(64, np.float32), np.zeros(64, np.float32),
               np.zeros(64, np.float32)],
    _func_expect))
CASES[-1].llvm_mlir = _inlined(CASES[-1].mlir)


# 6. scf.if choosing one of two private allocas per lane (scratch: the
#    scratch offset carried, scratch_load at it).
def _priv_expect(a):
    x = a[0]
    i = np.arange(64)
    return {1: np.where(i % 2 == 0, x, x * np.float32(3)).astype(np.float32)}


_P = "memref<4xf32, #gpu.address_space<private>>"
CASES.append(Case("memref_if_private", "pi", module(f"""
    gpu.func @pi(%x: memref<64xf32>, %o: memref<64xf32>, %k: index) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %three = arith.constant 3.0 : f32
      %a = memref.alloca() : {_P}
      %b = memref.alloca() : {_P}
      %xv = memref.load %x[%i] : memref<64xf32>
      %x3 = arith.mulf %xv, %three : f32
      memref.store %xv, %a[%k] : {_P}
      memref.store %x3, %b[%k] : {_P}
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %m = scf.if %even -> {_P} {{
        scf.yield %a : {_P}
      }} else {{
        scf.yield %b : {_P}
      }}
      %v = memref.load %m[%k] : {_P}
      memref.store %v, %o[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), np.zeros(64, np.float32), 2],
    _priv_expect))

