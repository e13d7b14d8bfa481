//===- DirectObject.h - kernel symbols, descriptor, metadata note via MC --===//
//
// The parts of a code object around the instructions, emitted straight into
// an MCStreamer (what the assembler makes of the text path's directives; the
// AMDGPU target streamer that does it for text is not installed):
//   beginKernel  `.protected K`, `.globl K`, `.p2align 8`, `.type K,@function`, `K:`
//   endKernel    `.Lfunc_endN:`, `.size K, .Lfunc_endN-K`, then the 64-byte
//                descriptor `K.kd` in .rodata (`.amdhsa_kernel`)
//   emitMetadataNote  the `.note` record NT_AMDGPU_METADATA "AMDGPU" with
//                the msgpack metadata (`.amdgpu_metadata`)
//   elfHeader    the ELF header's e_flags and ABI version (what
//                `.amdgcn_target` and `.amdhsa_code_object_version` set up)
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_DIRECTOBJECT_H
#define ASTER_TARGET_DIRECTOBJECT_H

#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <optional>
#include <utility>

namespace aster::target::direct {

/// Starts kernel `name` in .text; returns its symbol.
llvm::MCSymbol *beginKernel(llvm::MCStreamer &out, const llvm::MCSubtargetInfo &sti,
                            llvm::StringRef name);

/// Starts device function `name` in .text at 2^p2align bytes (`.p2align`,
/// `.type NAME,@function`, `NAME:`); returns its symbol.
llvm::MCSymbol *beginDeviceFunction(llvm::MCStreamer &out, const llvm::MCSubtargetInfo &sti,
                                    llvm::StringRef name, unsigned p2align);

/// Ends device function number `idx`: `.Ldf_endN:`, `.size F, .Ldf_endN-F`.
void endDeviceFunction(llvm::MCStreamer &out, llvm::MCSymbol *function, unsigned idx);

/// Ends kernel number `idx` (its size) and emits its descriptor `kd` as
/// `<name>.kd` in .rodata; .text is current again after. False (nothing
/// emitted) if MC lacks the AMDGPU `rel64` relocation specifier.
bool endKernel(llvm::MCStreamer &out, llvm::MCSymbol *kernel, unsigned idx,
               llvm::ArrayRef<uint8_t> kd);

/// The metadata note. `doc` is checked (and its string scalars given the
/// types the metadata needs) as the assembler does; false if it is invalid.
bool emitMetadataNote(llvm::MCStreamer &out, llvm::msgpack::Document &doc);

/// The ELF header fields of target `cpu` and code object version `cov`:
/// e_flags (its EF_AMDGPU_MACH_*, xnack and sramecc "any" where the target
/// has them, as the target ID `amdgcn-amd-amdhsa--<cpu>` without feature
/// suffixes states) and the ABI version. nullopt for a target or version
/// this does not know (the caller takes the assembler's way).
std::optional<std::pair<unsigned, uint8_t>> elfHeader(llvm::StringRef cpu, int64_t cov);

} // namespace aster::target::direct

#endif
