//===- LowerAmdgpuBuffer.h - buffer resources and accesses (amdgpu) -------===//
//
// What LowerAmdgpu.cpp (raw_buffer_* ops) shares with LowerAmdgpuFatBuffer.cpp
// (fat_raw_buffer_cast and the memref.load / store through its result):
// internal to cc/lower, included by those two files only.
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_LOWERAMDGPUBUFFER_H
#define ASTER_LOWER_LOWERAMDGPUBUFFER_H

#include "lower/KernelLowering.h"

#include <optional>

namespace aster::lower {

/// The raw buffer resource (V#, 4 SGPRs) of kernel-argument memref `m`, as
/// MLIR's AMDGPUToROCDL builds it for gfx9: base = the aligned pointer +
/// `baseBytes` (uniform), stride 0, num_records = `numRecords` or the
/// memref's size in bytes (max over d of size(d) * stride(d) * element
/// bytes), word 3 = 0x27000 (DST_SEL_XYZW, DATA_FORMAT 32). An error at `op`
/// for other memrefs (views, LDS, private, held in registers).
FailureOr<Value> bufferResource(KernelLowering &L, Operation *op, Value m,
                                RV baseBytes = RV::imm(0),
                                std::optional<RV> numRecords = std::nullopt);
/// Bytes one buffer access of a value of type t moves (0: no single
/// instruction moves it: 1, 2, 4, 8, 12 and 16 do).
unsigned bufferAccessBytes(Type t);
/// The buffer load (store) moving `bytes` bytes: buffer_load_ubyte / ushort
/// (zero-extending: a narrow value's high bits are free), dword[xN];
/// buffer_store_byte / short / dword[xN], as llc-22 selects them for
/// llvm.amdgcn.raw.ptr.buffer.load / store of i8, i16, half and wider.
std::string bufferMnemonic(bool store, unsigned bytes);
/// `result` := the buffer load (offen) at (rsrc, voff, soff): a scalar in
/// vals (64-bit: a pair), a vector's words in vecs (LowerVectorUtil.h's
/// packing; 8-bit elements four to a word, as vector.bitcast holds them).
LogicalResult emitBufferLoad(KernelLowering &L, Operation *op, Value result, Value rsrc,
                             Value voff, Value soff);
/// The buffer store (offen) of `value` at (rsrc, voff, soff).
LogicalResult emitBufferStore(KernelLowering &L, Operation *op, Value value, Value rsrc,
                              Value voff, Value soff);

} // namespace aster::lower

#endif
