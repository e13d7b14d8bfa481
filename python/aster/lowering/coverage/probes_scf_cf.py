"""Probes of scf and cf ops.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import numpy as np

from .kernels import N, raw


def _f32_in(r):
    return [r.standard_normal(N).astype(np.float32), np.zeros(N, np.float32)]


def _i32_in(r):
    return [r.integers(-1000, 1000, N).astype(np.int32), np.zeros(N, np.int32)]


def _probes_scf_cf():
    P = []
    A = "%x: memref<1024xi32>, %o: memref<1024xi32>"
    head = """      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<1024xi32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c3 = arith.constant 3 : index
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %m = arith.andi %i, %c3 : index
"""
    st = "      memref.store %r, %o[%i] : memref<1024xi32>"
    P.append(raw("scf.for", "divergent", A, head + """
      %r = scf.for %k = %c0 to %m step %c1 iter_args(%s = %v) -> (i32) {
        %t = arith.addi %s, %s : i32
        scf.yield %t : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.if", "divergent", A, head + """
      %p = arith.cmpi eq, %m, %c1 : index
      %r = scf.if %p -> (i32) {
        %t = arith.muli %v, %v : i32
        scf.yield %t : i32
      } else {
        scf.yield %one : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.while", "divergent", A, head + """
      %r = scf.while (%s = %v) : (i32) -> i32 {
        %p = arith.cmpi slt, %s, %z : i32
        scf.condition(%p) %s : i32
      } do {
      ^bb0(%t: i32):
        %u = arith.addi %t, %one : i32
        scf.yield %u : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.index_switch", "divergent", A, head + """
      %r = scf.index_switch %m -> i32
      case 0 {
        scf.yield %one : i32
      }
      case 2 {
        %t = arith.addi %v, %v : i32
        scf.yield %t : i32
      }
      default {
        scf.yield %v : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.execute_region", "", A, head + """
      %r = scf.execute_region -> i32 {
        %t = arith.addi %v, %one : i32
        scf.yield %t : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.parallel", "with scf.reduce", A, head + """
      %r = scf.parallel (%k) = (%c0) to (%c4) step (%c1) init (%z) -> i32 {
        %kk = arith.index_cast %k : index to i32
        %t = arith.muli %kk, %v : i32
        scf.reduce(%t : i32) {
        ^bb0(%l: i32, %rr: i32):
          %s = arith.addi %l, %rr : i32
          scf.reduce.return %s : i32
        }
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.reduce", "in scf.parallel", A, head + """
      %r = scf.parallel (%k) = (%c0) to (%c4) step (%c1) init (%one) -> i32 {
        %kk = arith.index_cast %k : index to i32
        %t = arith.addi %kk, %v : i32
        scf.reduce(%t : i32) {
        ^bb0(%l: i32, %rr: i32):
          %s = arith.muli %l, %rr : i32
          scf.reduce.return %s : i32
        }
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.forall", "on memrefs", "%x: memref<1024xi32>, %o: memref<1024xi32>", head + """
      %b = arith.muli %i, %c4 : index
      scf.forall (%k) in (4) {
        %j = arith.addi %b, %k : index
        %w = memref.load %x[%j] : memref<1024xi32>
        %t = arith.addi %w, %one : i32
        memref.store %t, %o[%j] : memref<1024xi32>
      }""", _i32_in, [1]))
    P.append(raw("cf.br", "", A, head + """
      cf.br ^bb1(%v : i32)
    ^bb1(%r: i32):
""" + st, _i32_in, [1]))
    P.append(raw("cf.cond_br", "divergent", A, head + """
      %p = arith.cmpi eq, %m, %c1 : index
      cf.cond_br %p, ^bb1(%v : i32), ^bb1(%one : i32)
    ^bb1(%r: i32):
""" + st, _i32_in, [1]))
    P.append(raw("cf.switch", "divergent", A, head + """
      %mi = arith.index_cast %m : index to i32
      cf.switch %mi : i32, [
        default: ^bb1(%v : i32),
        0: ^bb1(%one : i32),
        2: ^bb1(%z : i32)
      ]
    ^bb1(%r: i32):
""" + st, _i32_in, [1]))
    return P
