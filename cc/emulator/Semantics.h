//===- Semantics.h - the instruction semantics registry and helpers ------===//
//
// Every instruction the emulator executes is a row of the instruction table
// (dialect/ISA.h) with a SemInfo. The Sem*.cpp files register SemInfos under
// the rows' assembly names (without _e32/_e64/_sdwa/_dpp); each row is bound
// to its registration once (semanticOf), and the decoder runs the semantic of
// the row an instruction's text matched.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_SEMANTICS_H
#define ASTER_EMULATOR_SEMANTICS_H

#include "emulator/Float.h"
#include "emulator/Wave.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstring>
#include <string>
#include <vector>

namespace aster::ISA {
struct InstDesc;
}

namespace aster::emu {

// Fixed-width names the semantic functions use.
using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;
using i16 = int16_t;
using i32 = int32_t;
using i64 = int64_t;

/// A stable C string for a generated semantic name (kept for the process).
const char *intern(std::string s);

/// How an immediate source operand is interpreted (inline constants differ
/// per type; 32-bit literals are extended per type).
enum class Ty : uint8_t {
  B32, F32, F16, B16, BF16, F64, B64, I64, PK16F, PK16I, PKF32
};
constexpr uint16_t tys(Ty a) {
  return uint16_t(unsigned(a) | unsigned(a) << 4 | unsigned(a) << 8 | unsigned(a) << 12);
}
constexpr uint16_t tys(Ty a, Ty b, Ty c = Ty::B32, Ty d = Ty::B32) {
  return uint16_t(unsigned(a) | unsigned(b) << 4 | unsigned(c) << 8 | unsigned(d) << 12);
}
inline Ty tyOf(uint16_t packed, unsigned src) {
  return Ty((packed >> (4 * (src < 4 ? src : 3))) & 15);
}

enum SemFlag : uint16_t {
  SF_READS_DST = 1,     ///< destination registers are also read (mac, swap)
  SF_ATOMIC = 2,        ///< returns data (has a destination) only with sc0
  SF_READS_VCC = 4,     ///< implicit vcc read
  SF_READS_M0 = 8,      ///< implicit m0 read
  SF_BRANCH = 16,       ///< source 0 is a pc-relative simm16 target
  SF_LOAD = 32,         ///< destinations are written by memory (pending)
  SF_MIX = 64,          ///< VOP3P mix: op_sel_hi defaults to 0
  SF_PACKED = 128,      ///< VOP3P packed: op_sel_hi defaults to all ones
  SF_BUF_ATOMIC = 256,  ///< MUBUF atomic: vdata is returned in place with sc0
  SF_NO_SDWA = 512,
  SF_WRITES_LDS = 1024, ///< writes no registers but LDS (LDS DMA)
  SF_NO_CLAMP = 2048,   ///< the semantic does not implement clamp/omod
  SF_NOT_EMULATED = 4096, ///< a table instruction the emulator cannot run:
                          ///< reported when decoding (unsupported())
  SF_LDS_FORM = 8192,   ///< MUBUF load: with `lds` it has no destination
                        ///< (the first operand is vaddr) and writes LDS at m0
  SF_MATRIX_JOB = 16384, ///< dense MFMA: may be computed on the launch's
                         ///< matrix thread (MatrixThread.h)
};

struct SemInfo {
  const char *name;
  SemFn fn;
  uint8_t ndst;
  ICls cls;
  uint16_t flags;
  uint16_t tys;
};

using SemTable = std::vector<SemInfo>;
void registerSALU(SemTable &t);
void registerSOPP(SemTable &t);
void registerVALUInt(SemTable &t);
void registerVALUFloat(SemTable &t);
void registerVALU16(SemTable &t);
void registerVALUConvert(SemTable &t);
void registerVOPC(SemTable &t);
void registerVOP3P(SemTable &t);
void registerMFMA(SemTable &t);
void registerSMEM(SemTable &t);
void registerVMEM(SemTable &t);
void registerBuffer(SemTable &t);
void registerDS(SemTable &t);
void registerDSTranspose(SemTable &t);  ///< gfx950 ds_read_b64_tr_* / b96_tr_b6
void registerGfx950(SemTable &t);
void registerGfx950Ocp(SemTable &t);      ///< gfx950 meanings of gfx942 mnemonics:
void registerGfx950OcpMFMA(SemTable &t);  ///< OCP fp8/bf8 conversions and MFMAs
void registerF8F6F4(SemTable &t);         ///< gfx950 f8f6f4 MFMAs (both tables)
void registerGprIdx(SemTable &t);         ///< VGPR index mode
void registerScaleCvt(SemTable &t);       ///< gfx950 v_cvt_scalef32_*
void registerScaleCvtSR(SemTable &t);     ///< gfx950 stochastic-rounding conversions

/// Why s_sendmsg / s_sendmsghalt with this sendmsg(...) field cannot run
/// ("" when it can: MSG_INTERRUPT). The decoder reports it.
std::string sendMsgProblem(unsigned imm);

/// Wrappers installed by the decoder.
void execSdwa(Wave &w, const Inst &in);     ///< SDWA selects around in.inner
void execDpp(Wave &w, const Inst &in);      ///< DPP lane moves around in.inner
void execProblem(Wave &w, const Inst &in);  ///< fails: cannot be executed

/// `in` as it executes in VGPR index mode (Wave::gprIdxOn): VALU VGPR
/// operands offset by m0; `in` itself for other instructions.
const Inst &gprIndexed(Wave &w, const Inst &in);

/// The semantic of a row of the instruction table (its registration under
/// semanticName(row)) in gfx942 or gfx950 code; nullptr if none.
const SemInfo *semanticOf(const ISA::InstDesc &row, bool gfx950);
/// The name a row's semantic is registered under: its assembly name (DPP
/// and SDWA forms run their base row's semantic in a wrapper).
llvm::StringRef semanticName(const ISA::InstDesc &row);

/// Looks up a registration by name; nullptr if none.
const SemInfo *findSemantic(llvm::StringRef mnemonic);
/// The semantic of `mnemonic` in gfx950 code: the gfx950 meaning where it
/// differs from gfx942's (OCP fp8/bf8), else findSemantic's.
const SemInfo *findGfx950Semantic(llvm::StringRef mnemonic);
/// True when gfx950 code gives `mnemonic` a meaning of its own.
bool hasGfx950Meaning(llvm::StringRef mnemonic);
llvm::ArrayRef<SemInfo> allSemantics();

// ---- helpers for semantic functions ----------------------------------------
#define EMU_INLINE inline __attribute__((always_inline))

/// Calls f(lane) for each set bit of exec; a straight loop when all are set
/// (so that simple bodies vectorize).
template <class F> EMU_INLINE void forLanes(uint64_t exec, F &&f) {
  if (exec == ~0ull) {
    for (unsigned l = 0; l < 64; ++l)
      f(l);
  } else {
    while (exec) {
      unsigned l = unsigned(__builtin_ctzll(exec));
      exec &= exec - 1;
      f(l);
    }
  }
}

EMU_INLINE uint32_t brev32(uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(v);
}
EMU_INLINE uint64_t brev64(uint64_t v) {
  return uint64_t(brev32(uint32_t(v))) << 32 | brev32(uint32_t(v >> 32));
}
EMU_INLINE float u2f(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
EMU_INLINE uint32_t f2u(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
EMU_INLINE double u2d(uint64_t u) { double f; std::memcpy(&f, &u, 8); return f; }
EMU_INLINE uint64_t d2u(double f) { uint64_t u; std::memcpy(&u, &f, 8); return u; }

/// Scalar source value (SGPR or immediate), word `w` of the operand.
EMU_INLINE uint32_t sget(const Wave &wv, const Opnd &o, unsigned w = 0) {
  if (o.kind == OpKind::S)
    return wv.s[(o.reg + w) & 127];
  return uint32_t(o.imm >> (32 * w));
}
EMU_INLINE uint64_t sget64(const Wave &wv, const Opnd &o) {
  if (o.kind == OpKind::S)
    return uint64_t(wv.s[o.reg & 127]) | uint64_t(wv.s[(o.reg + 1) & 127]) << 32;
  return o.imm;
}
EMU_INLINE void sset(Wave &wv, const Opnd &o, uint32_t v, unsigned w = 0) {
  wv.s[(o.reg + w) & 127] = v;
}
EMU_INLINE void sset64(Wave &wv, const Opnd &o, uint64_t v) {
  wv.s[o.reg & 127] = uint32_t(v);
  wv.s[(o.reg + 1) & 127] = uint32_t(v >> 32);
}

EMU_INLINE void fill64(uint32_t *t, uint32_t v) {
  for (unsigned l = 0; l < 64; ++l)
    t[l] = v;
}
/// Per-lane 32-bit values of word `w` of a vector source; scalars and
/// immediates are broadcast into `tmp`.
EMU_INLINE const uint32_t *vget(Wave &wv, const Opnd &o, uint32_t *tmp, unsigned w = 0) {
  switch (o.kind) {
  case OpKind::V:
    return wv.v[o.reg + w];
  case OpKind::A:
    return wv.a[o.reg + w];
  case OpKind::S:
    fill64(tmp, wv.s[(o.reg + w) & 127]);
    return tmp;
  default:
    fill64(tmp, uint32_t(o.imm >> (32 * w)));
    return tmp;
  }
}
/// Destination lanes of word `w` of a vector register operand.
EMU_INLINE uint32_t *vdst(Wave &wv, const Opnd &o, unsigned w = 0) {
  return o.kind == OpKind::A ? wv.a[o.reg + w] : wv.v[o.reg + w];
}
/// 64-bit per-lane source.
EMU_INLINE void vget64(Wave &wv, const Opnd &o, uint64_t *out) {
  if (o.isVector()) {
    const uint32_t *lo = vdst(wv, o, 0), *hi = vdst(wv, o, 1);
    for (unsigned l = 0; l < 64; ++l)
      out[l] = uint64_t(lo[l]) | uint64_t(hi[l]) << 32;
  } else {
    uint64_t x = sget64(wv, o);
    for (unsigned l = 0; l < 64; ++l)
      out[l] = x;
  }
}
EMU_INLINE void vset64(Wave &wv, const Opnd &o, unsigned l, uint64_t x) {
  vdst(wv, o, 0)[l] = uint32_t(x);
  vdst(wv, o, 1)[l] = uint32_t(x >> 32);
}

/// f32 source with neg/abs modifiers applied.
EMU_INLINE const uint32_t *vgetF32(Wave &wv, const Opnd &o, uint32_t *tmp) {
  const uint32_t *p = vget(wv, o, tmp);
  if (!(o.mods & (MOD_NEG | MOD_ABS)))
    return p;
  uint32_t andm = (o.mods & MOD_ABS) ? 0x7fffffffu : ~0u;
  uint32_t xorm = (o.mods & MOD_NEG) ? 0x80000000u : 0u;
  for (unsigned l = 0; l < 64; ++l)
    tmp[l] = (p[l] & andm) ^ xorm;
  return tmp;
}
/// f64 source with neg/abs modifiers applied.
EMU_INLINE void vgetF64(Wave &wv, const Opnd &o, uint64_t *out) {
  vget64(wv, o, out);
  if (!(o.mods & (MOD_NEG | MOD_ABS)))
    return;
  uint64_t andm = (o.mods & MOD_ABS) ? 0x7fffffffffffffffull : ~0ull;
  uint64_t xorm = (o.mods & MOD_NEG) ? 0x8000000000000000ull : 0;
  for (unsigned l = 0; l < 64; ++l)
    out[l] = (out[l] & andm) ^ xorm;
}
/// 16-bit source (low half, or high half when `hi`), modifiers applied to
/// bit 15 for floats; result in the low 16 bits of each element.
EMU_INLINE const uint32_t *vget16(Wave &wv, const Opnd &o, uint32_t *tmp, bool hi,
                                  bool isFloat) {
  const uint32_t *p = vget(wv, o, tmp);
  unsigned sh = hi ? 16 : 0;
  uint32_t andm = (isFloat && (o.mods & MOD_ABS)) ? 0x7fffu : 0xffffu;
  uint32_t xorm = (isFloat && (o.mods & MOD_NEG)) ? 0x8000u : 0u;
  for (unsigned l = 0; l < 64; ++l)
    tmp[l] = ((p[l] >> sh) & andm) ^ xorm;
  return tmp;
}

/// Applies omod and clamp to f32 results in the active lanes.
void finishF32(const Inst &in, uint32_t *d, uint64_t exec);
void finishF64(Wave &wv, const Inst &in, const Opnd &dst, uint64_t exec);
/// f16 results: omod/clamp on the low half.
uint16_t finishF16(const Inst &in, uint16_t h);

/// Writes a 16-bit VALU result: to the high half when op_sel[3] is set
/// (keeping the low half), else to the low half with the high half zeroed
/// or kept per `preserve`.
EMU_INLINE void write16(uint32_t &d, uint16_t r, bool hiDst, bool preserve) {
  if (hiDst)
    d = (d & 0xffffu) | uint32_t(r) << 16;
  else if (preserve)
    d = (d & 0xffff0000u) | r;
  else
    d = r;
}

} // namespace aster::emu

#endif
