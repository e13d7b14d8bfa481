//===- LowerVectorUtil.h - the vector lowering: representation, helpers --===//
//
// A vector value is held as its elements, flattened in row-major order
// (KernelLowering::vecs): one RV per element for 32-bit elements (f32, i32,
// index) and i1 (an immediate, SGPR or lane mask like a scalar i1); 16-bit
// elements (f16, bf16, i16) two per 32-bit word, the lower index in the low
// half (the memory layout); 64-bit elements (i64, f64) as two words each,
// low first. Per-element ops unpack them (elementsOf) and pack the results
// back (packElements); loads, stores, bitcasts and MFMA operands take the
// words whole.
//
//   vector.load / transfer_read (in bounds) -> global_load_dword[x2|x3|x4]
//     in chunks of 16 bytes (any alignment: the HSA default unaligned mode,
//     as llc-22 selects for gfx942); LDS: ds_read_b128 / b64 where the byte
//     offset is known to be 16- / 8-byte aligned (knownAlign below), else
//     ds_read_b32 per word. Stores alike.
//   transfer_read out of bounds / masked: per element, lanes whose element
//     is out of bounds (index >= the memref's size in the minor dimension)
//     or masked off load from offset 0 of the memref instead (clamped) and
//     take the padding: v_cndmask_b32(pad, loaded, valid). The memref must
//     not be empty. transfer_write masked: each element stored under
//     EXEC &= valid (s_and_saveexec_b64, restored after).
//   broadcast, from_elements, extract / insert / extract_strided_slice (static
//     positions), shape_cast, bitcast: moves of element RVs, no instruction.
//   elementwise arith / math on vectors, vector.fma, create_mask: the scalar
//     op per element, lowered by its own dialect file (scalarOp below), so
//     SALU/VALU choice, folding and errors are the scalar ones.
//   scf.for / scf.if carrying vectors: rewritten first (scalarizeVectorCarries,
//     an upstream-IR rewrite that keeps the module valid) to carry the
//     vector's 32-bit words as scalars: vector.bitcast to i32 words where
//     the elements are not 32-bit, vector.extract per word at the yield,
//     vector.from_elements (+ bitcast back) at the uses: moves, no code.
//   vector.reduction: a left fold of the elements (and the accumulator
//     first), in order, with the kind's scalar arith op: LLVM's
//     llvm.vector.reduce.fadd without reassoc is ordered the same way.
//
// Needs before: operands lowered; transfers with minor-identity maps on
// vectors of rank 0 / 1 of whole words (LowerVectorTransfer.cpp's checkMem).
// Guarantees after: every vector result in vecs; anything else an error at
// the op naming what is missing.
//===----------------------------------------------------------------------===//
//
// The files: LowerVectorTransfer.cpp (loads, stores, transfers),
// LowerVectorShape.cpp (moves of elements), LowerVectorElementwise.cpp
// (per-element arithmetic, masks, reductions), LowerVectorCarries.cpp (loops
// carrying vectors), LowerVectorUtil.h/.cpp (shared helpers); each registers
// its ops by name (Lowerings.def). A vector op none registers is an error
// at the op (lowerOp). This header (internal to cc/lower) declares the
// helpers the vector files share; each function's comment says what it
// needs and guarantees.
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_LOWERVECTORUTIL_H
#define ASTER_LOWER_LOWERVECTORUTIL_H

#include "lower/KernelLowering.h"

namespace aster::lower::vec {

/// Bits of an element (index: 32).
unsigned elemBits(Type t);
/// RVs (words) a value of vector type `vt` is held in.
unsigned numWords(VectorType vt);
/// Largest power of two known to divide the index value `v` (at most 2^20).
uint64_t knownAlign(Value v, unsigned depth = 0);
/// Known byte alignment of the address of memref[idx] relative to the
/// memref's base (4-byte elements).
uint64_t knownByteAlign(MemRefType mt, ValueRange idx);
/// A VGPR range type of `n` registers (one: a VGPR).
Type rangeT(KernelLowering &L, unsigned n);
/// The words of range `r` (n registers) as single VGPRs.
SmallVector<RV> partsOf(KernelLowering &L, Value r, unsigned n, bool isFloat);
/// A range of VGPRs holding `words` in order.
Value concat(KernelLowering &L, ArrayRef<RV> words);
/// The lowered elements of vector value `v` (an error if it has none).
FailureOr<SmallVector<RV>> getVec(KernelLowering &L, Value v);
/// An error at `op` unless `vt`'s elements are 32-bit or i1.
LogicalResult only32(KernelLowering &L, Operation *op, VectorType vt);
/// The elements of vector value `v` one RV each, for per-element ops: 32-bit
/// and i1 elements as held; 16-bit ones unpacked from their words (the odd
/// element shifted down by 16: a narrow scalar, high bits unspecified);
/// 64-bit ones as pairs (RV::wide) of their two words. Other widths: an
/// error at `op`.
FailureOr<SmallVector<RV>> elementsOf(KernelLowering &L, Operation *op, Value v);
/// The held form of a vector of type `vt` from one RV per element (the
/// inverse of elementsOf: 16-bit elements packed two per word, the lower
/// index in the low half; 64-bit ones as their two words).
SmallVector<RV> packElements(KernelLowering &L, VectorType vt, ArrayRef<RV> elems);
/// Whether elementsOf / packElements take vectors of `vt`'s element type.
bool perElement(VectorType vt);
/// Loads `words` 32-bit words at byte offset `off` of memory `base` (null:
/// LDS), in chunks as wide as `align` (bytes) allows.
SmallVector<RV> loadWords(KernelLowering &L, Value base, RV off, unsigned words,
                          uint64_t align, bool isFloat);
/// Stores `words` at byte offset `off` of `base` (null: LDS), likewise.
void storeWords(KernelLowering &L, Value base, RV off, ArrayRef<RV> words, uint64_t align);
/// Loads `bytes` bytes (any count) at byte offset `off`: whole words as
/// loadWords, then a 16-bit piece and / or a byte (LowerVectorMasked.cpp).
SmallVector<RV> loadBytes(KernelLowering &L, Value base, RV off, unsigned bytes, uint64_t align,
                          bool isFloat);
/// Stores the first `bytes` bytes of `words` likewise.
void storeBytes(KernelLowering &L, Value base, RV off, ArrayRef<RV> words, unsigned bytes,
                uint64_t align);
/// One memory instruction at byte offset `off` of `base`: global memory (an
/// SGPR pair: `global`, VGPR offset + saddr), a flat pointer (a VGPR pair:
/// `global` renamed flat_*, at base + off) or LDS (null: `lds`); `data` the
/// value stored (null: a load with result type `res`) (LowerMemrefFlat.cpp).
Value memAccess(KernelLowering &L, StringRef global, StringRef lds, Type res, Value base, RV off,
                Value data);
/// The flat pointer `base` + `off` as a VGPR pair (LowerMemrefFlat.cpp).
Value flatAt(KernelLowering &L, Value base, RV off);
/// An out-of-bounds or masked vector.transfer_read / transfer_write element
/// by element, any element size (LowerVectorMasked.cpp).
LogicalResult transferPerElement(KernelLowering &L, Operation *op);

} // namespace aster::lower::vec

#endif
