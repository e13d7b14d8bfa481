//===- Examples.cpp - example assembly lines for table instructions ------===//
#include "target/Examples.h"
#include "target/InstAsm.h"

#include "dialect/Immediates.h"

#include "llvm/Support/raw_ostream.h"

using namespace aster;

namespace aster::target {

unsigned numExampleVariants(const ISA::InstDesc &d) {
  return 4 + d.numMods;
}

static std::string reg(char k, unsigned idx, unsigned w) {
  if (w == 1)
    return std::string(1, k) + std::to_string(idx);
  return std::string(1, k) + "[" + std::to_string(idx) + ":" +
         std::to_string(idx + w - 1) + "]";
}

std::string exampleAsm(const ISA::InstDesc &d, uint8_t target, unsigned variant) {
  unsigned nextV = 2 + 2 * (variant % 3), nextS = 4 + 4 * (variant % 2), nextA = 0;
  auto take = [&](unsigned &next, unsigned w, unsigned align) {
    next = (next + align - 1) / align * align;
    unsigned r = next;
    next += w;
    return r;
  };
  auto alignOf = [&](char k, unsigned w) -> unsigned {
    if (w < 2)
      return 1;
    if (k == 's')
      return w >= 4 ? 4 : 2;
    return target == ISA::T_GFX1201 ? 1 : 2;
  };
  std::vector<AsmOperand> ops;
  bool optPresent = variant % 2 == 1;
  bool usedScalar = false;
  auto pick = [&](const ISA::OperandDesc &o, bool isDst, unsigned si) {
    unsigned w = o.widthFor(optPresent);
    bool vector = o.cls & (ISA::CLS_V | ISA::CLS_A);
    // Variant 2 tries an inline constant, 3 a literal, 1 an SGPR, on the
    // first source that takes one (one scalar operand at most: constant bus).
    if (!isDst && si == 0 && !usedScalar) {
      if (variant == 2 && (o.cls & ISA::CLS_I)) {
        usedScalar = true;
        return std::string(ISA::valTyIsFloat(o.ty) ? "1.0" : "7");
      }
      if (variant == 3 && (o.cls & ISA::CLS_L) && w == 1) {
        usedScalar = true;
        return amdgcn::formatImmediate(ISA::valTyIsFloat(o.ty) ? 0x40490fdbu : 0x1234567u, o.ty);
      }
      if (variant == 1 && (o.cls & ISA::CLS_S) && vector) {
        usedScalar = true;
        return reg('s', take(nextS, w, alignOf('s', w)), w);
      }
    }
    if (o.cls & ISA::CLS_V)
      return reg('v', take(nextV, w, alignOf('v', w)), w);
    if (o.cls & ISA::CLS_A)
      return reg('a', take(nextA, w, alignOf('a', w)), w);
    if (o.cls & ISA::CLS_S)
      return reg('s', take(nextS, w, alignOf('s', w)), w);
    return std::string(ISA::valTyIsFloat(o.ty) ? "1.0" : "3");
  };
  for (const ISA::OperandDesc &o : d.dsts())
    ops.push_back({pick(o, true, 0)});
  unsigned si = 0;
  for (const ISA::OperandDesc &o : d.srcs()) {
    if (o.optional && !optPresent) {
      ops.push_back({""});
      continue;
    }
    ops.push_back({pick(o, false, si++)});
  }
  std::vector<AsmModifier> mods;
  int chosen = variant >= 4 ? (int)(variant - 4) : -1;
  for (unsigned i = 0; i < d.numMods; ++i) {
    const ISA::ModDesc *m = d.mods()[i];
    AsmModifier am{m, 0, false};
    if ((int)i == chosen || m->kind == ISA::ModKind::Pos ||
        m->kind == ISA::ModKind::Hex16) {
      am.present = true;
      am.value = m->kind == ISA::ModKind::Flag ? 1
                 : m->kind == ISA::ModKind::Bits ? 1
                 : m->kind == ISA::ModKind::SrcNeg || m->kind == ISA::ModKind::SrcAbs ? 1
                 : std::min<int64_t>(m->max, std::max<int64_t>(m->min, 4));
      if ((int)i != chosen)
        am.value = std::max<int64_t>(m->min, 0);
    }
    mods.push_back(am);
  }
  std::vector<std::string> labels;
  unsigned nlab = d.successors == 2 ? 1 : d.successors;
  for (unsigned i = 0; i < nlab; ++i)
    labels.push_back("label");
  std::string out;
  llvm::raw_string_ostream os(out);
  printInstParts(d, ops, mods, labels, os);
  return out;
}

} // namespace aster::target
