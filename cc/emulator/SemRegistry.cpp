//===- SemRegistry.cpp - the semantic of each table row -------------------===//
//
// The Sem*.cpp files register semantics under the assembly name of the
// table row they implement; each row of the table (dialect/ISA.h) is bound
// once to its registration here, and the decoder dispatches on the row its
// text matched.
//
//===----------------------------------------------------------------------===//
#include "emulator/Semantics.h"

#include "dialect/ISA.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <deque>
#include <mutex>

namespace aster::emu {

static const SemTable &table() {
  static const SemTable t = [] {
    SemTable t;
    registerSALU(t);
    registerSOPP(t);
    registerVALUInt(t);
    registerVALUFloat(t);
    registerVALU16(t);
    registerVALUConvert(t);
    registerVOPC(t);
    registerVOP3P(t);
    registerMFMA(t);
    registerSMEM(t);
    registerVMEM(t);
    registerBuffer(t);
    registerDS(t);
    registerDSTranspose(t);
    registerGfx950(t);
    registerF8F6F4(t);
    registerGprIdx(t);
    registerScaleCvt(t);
    registerScaleCvtSR(t);
    return t;
  }();
  return t;
}

static const SemTable &gfx950Table() {
  static const SemTable t = [] {
    SemTable t;
    registerGfx950Ocp(t);
    registerGfx950OcpMFMA(t);
    registerF8F6F4(t); // gfx950-only: a gfx950 meaning (not refused as OCP)
    registerScaleCvt(t);
    registerScaleCvtSR(t);
    return t;
  }();
  return t;
}

static llvm::StringMap<const SemInfo *> indexOf(const SemTable &t) {
  llvm::StringMap<const SemInfo *> m;
  for (const SemInfo &s : t)
    m.try_emplace(s.name, &s);
  return m;
}

static const llvm::StringMap<const SemInfo *> &index() {
  static const llvm::StringMap<const SemInfo *> m = indexOf(table());
  return m;
}

static const llvm::StringMap<const SemInfo *> &gfx950Index() {
  static const llvm::StringMap<const SemInfo *> m = indexOf(gfx950Table());
  return m;
}

bool hasGfx950Meaning(llvm::StringRef mnemonic) { return gfx950Index().count(mnemonic); }

const SemInfo *findGfx950Semantic(llvm::StringRef mnemonic) {
  auto it = gfx950Index().find(mnemonic);
  return it == gfx950Index().end() ? findSemantic(mnemonic) : it->second;
}

const SemInfo *findSemantic(llvm::StringRef mnemonic) {
  auto it = index().find(mnemonic);
  return it == index().end() ? nullptr : it->second;
}

llvm::ArrayRef<SemInfo> allSemantics() { return table(); }

llvm::StringRef semanticName(const ISA::InstDesc &row) {
  llvm::StringRef n = row.asmName;
  if (row.enc == ISA::Enc::DPP)
    n.consume_back("_dpp");
  else if (row.enc == ISA::Enc::SDWA)
    n.consume_back("_sdwa");
  return n;
}

/// Row index -> semantic, for gfx942 meanings and for gfx950 code.
static std::vector<const SemInfo *> bindRows(bool gfx950) {
  llvm::ArrayRef<ISA::InstDesc> rows = ISA::instructions();
  std::vector<const SemInfo *> v(rows.size());
  for (const ISA::InstDesc &d : rows) {
    llvm::StringRef n = semanticName(d);
    v[d.index()] = gfx950 ? findGfx950Semantic(n) : findSemantic(n);
  }
  return v;
}

const SemInfo *semanticOf(const ISA::InstDesc &row, bool gfx950) {
  static const std::vector<const SemInfo *> g942 = bindRows(false), g950 = bindRows(true);
  return (gfx950 ? g950 : g942)[row.index()];
}

static float omodScale(uint8_t omod) {
  return omod == 1 ? 2.0f : omod == 2 ? 4.0f : omod == 3 ? 0.5f : 1.0f;
}

void finishF32(const Inst &in, uint32_t *d, uint64_t exec) {
  float m = omodScale(in.omod);
  bool clamp = in.flags & IF_CLAMP;
  forLanes(exec, [&](unsigned l) {
    float f = u2f(d[l]) * m;
    if (clamp)
      f = !(f >= 0.0f) ? 0.0f : (f > 1.0f ? 1.0f : f);
    d[l] = f2u(f);
  });
}

void finishF64(Wave &w, const Inst &in, const Opnd &dst, uint64_t exec) {
  double m = omodScale(in.omod);
  bool clamp = in.flags & IF_CLAMP;
  uint32_t *lo = vdst(w, dst, 0), *hi = vdst(w, dst, 1);
  forLanes(exec, [&](unsigned l) {
    double f = u2d(uint64_t(lo[l]) | uint64_t(hi[l]) << 32) * m;
    if (clamp)
      f = !(f >= 0.0) ? 0.0 : (f > 1.0 ? 1.0 : f);
    uint64_t u = d2u(f);
    lo[l] = uint32_t(u);
    hi[l] = uint32_t(u >> 32);
  });
}

uint16_t finishF16(const Inst &in, uint16_t h) {
  if (!in.omod && !(in.flags & IF_CLAMP))
    return h;
  float f = f16ToF32(h) * omodScale(in.omod);
  if (in.flags & IF_CLAMP)
    f = !(f >= 0.0f) ? 0.0f : (f > 1.0f ? 1.0f : f);
  return f32ToF16(f);
}

const char *intern(std::string s) {
  static std::mutex m;
  static std::deque<std::string> names;
  std::lock_guard<std::mutex> lock(m);
  names.push_back(std::move(s));
  return names.back().c_str();
}

} // namespace aster::emu
