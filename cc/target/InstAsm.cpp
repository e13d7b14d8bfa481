//===- InstAsm.cpp - one instruction op as an assembly line --------------===//
#include "target/InstAsm.h"

#include "dialect/Dialect.h"
#include "dialect/Immediates.h"
#include "dialect/ModSpelling.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;

namespace aster::target {

static int64_t modValue(ArrayRef<AsmModifier> mods, ISA::ModKind kind) {
  for (const AsmModifier &m : mods)
    if (m.desc->kind == kind && m.present)
      return m.value;
  return 0;
}

void printInstParts(const ISA::InstDesc &d, ArrayRef<AsmOperand> operands,
                    ArrayRef<AsmModifier> mods, ArrayRef<std::string> labels,
                    raw_ostream &os, StringRef encodingSuffix) {
  os << d.asmName;
  if (!encodingSuffix.empty())
    os << '_' << encodingSuffix;
  int64_t negMask = modValue(mods, ISA::ModKind::SrcNeg);
  int64_t absMask = modValue(mods, ISA::ModKind::SrcAbs);
  int64_t sextMask = modValue(mods, ISA::ModKind::SrcSext);
  bool any = false;
  // hwreg(...) is written after the destinations, before the sources.
  auto leading = [&] {
    for (const AsmModifier &m : mods)
      if (m.desc->kind == ISA::ModKind::Hwreg) {
        os << (any ? ", " : " ")
           << ISA::formatSymbolic(m.desc->kind, m.present ? m.value : m.desc->def);
        any = true;
      }
  };
  for (unsigned i = 0; i < operands.size(); ++i) {
    if (i == d.numDsts)
      leading();
    os << (any ? ", " : " ");
    any = true;
    const std::string &t = operands[i].text;
    if (t.empty()) {
      os << "off";
      continue;
    }
    int si = (int)i - (int)d.numDsts;
    bool neg = si >= 0 && (negMask >> si) & 1;
    bool abs = si >= 0 && (absMask >> si) & 1;
    bool sext = si >= 0 && (sextMask >> si) & 1;
    if (neg)
      os << '-';
    if (abs)
      os << '|' << t << '|';
    else if (sext)
      os << "sext(" << t << ')';
    else
      os << t;
  }
  if (operands.size() <= d.numDsts)
    leading();
  for (const std::string &l : labels) {
    os << (any ? ", " : " ") << l;
    any = true;
  }
  bool anyWait = false;
  for (const AsmModifier &m : mods) {
    const ISA::ModDesc &md = *m.desc;
    switch (md.kind) {
    case ISA::ModKind::Flag:
      if (m.present)
        os << ' ' << md.name;
      break;
    case ISA::ModKind::Int:
      if (int64_t v = m.present ? m.value : md.def)
        os << ' ' << md.name << ':' << v;
      break;
    case ISA::ModKind::HexInt:
      if (m.present && m.value) {
        os << ' ' << md.name << ':';
        if (m.value > 10)
          os << llvm::format_hex(m.value, 2);
        else
          os << m.value;
      }
      break;
    case ISA::ModKind::Pos:
      os << (any ? ", " : " ") << (m.present ? m.value : 0);
      any = true;
      break;
    case ISA::ModKind::Hex16:
      os << (any ? ", " : " ")
         << llvm::format_hex((uint16_t)(m.present ? m.value : 0), 2);
      any = true;
      break;
    case ISA::ModKind::Bits: {
      int64_t v = m.present ? m.value : std::max(md.def, 0);
      if (md.def < 0 || v != md.def) {
        os << ' ' << md.name << ":[";
        for (unsigned b = 0; b < md.len; ++b)
          os << (b ? "," : "") << ((v >> b) & 1);
        os << ']';
      }
      break;
    }
    case ISA::ModKind::Fixed:
      os << ' ' << md.name;
      break;
    case ISA::ModKind::FixedPos:
      os << (any ? ", " : " ") << md.name;
      any = true;
      break;
    case ISA::ModKind::Omod:
      if (m.present && m.value)
        os << (m.value == 1 ? " mul:2" : m.value == 2 ? " mul:4" : " div:2");
      break;
    case ISA::ModKind::SrcNeg:
    case ISA::ModKind::SrcAbs:
    case ISA::ModKind::SrcSext:
      break;
    case ISA::ModKind::Dpp:
      os << ' ' << ISA::formatDppCtrl(m.present ? m.value : md.def);
      break;
    case ISA::ModKind::HexMask:
      os << ' ' << md.name << ':' << llvm::format_hex(m.present ? m.value : md.def, 2);
      break;
    case ISA::ModKind::Sel:
      os << ' ' << md.name << ':' << ISA::selName(m.present ? m.value : md.def);
      break;
    case ISA::ModKind::Unused:
      os << ' ' << md.name << ':' << ISA::unusedName(m.present ? m.value : md.def);
      break;
    case ISA::ModKind::Hwreg:
      break; // written before the sources
    case ISA::ModKind::SendMsg:
    case ISA::ModKind::GprIdx:
      os << (any ? ", " : " ") << ISA::formatSymbolic(md.kind, m.present ? m.value : md.def);
      any = true;
      break;
    case ISA::ModKind::Swizzle:
      // A pattern that reads back as another offset is written as a number.
      if (m.present && m.value)
        os << ' ' << md.name << ':' << ISA::formatSymbolic(md.kind, m.value);
      break;
    case ISA::ModKind::Waitcnt:
      // A counter at its maximum is not waited on; LLVM leaves it out.
      if (m.present && m.value < md.max) {
        os << ' ' << md.name << '(' << m.value << ')';
        anyWait = true;
      }
      break;
    }
  }
  if (!anyWait) {
    // s_waitcnt that waits on no counter: LLVM prints all counters at max.
    bool isWait = false;
    for (const AsmModifier &m : mods)
      isWait |= m.desc->kind == ISA::ModKind::Waitcnt;
    if (isWait)
      for (const AsmModifier &m : mods)
        os << ' ' << m.desc->name << '(' << m.desc->max << ')';
  }
}

LogicalResult printInstAsm(Operation *op, const ISA::InstDesc &d,
                           raw_ostream &os,
                           function_ref<std::string(Block *)> labelOf,
                           function_ref<std::string(Type)> regAsm) {
  SmallVector<AsmOperand, 6> operands;
  auto regText = [&](Value v, Type t, const char *role,
                     const char *name) -> FailureOr<std::string> {
    if (auto r = dyn_cast<RegType>(t); r && r.isVirtual()) {
      op->emitOpError() << role << " '" << name
                        << "' is a virtual register; run register allocation "
                           "before translating to assembly";
      return failure();
    }
    return regAsm ? regAsm(t) : registerAsm(t);
  };
  for (unsigned i = 0; i < d.numDsts; ++i) {
    auto t = regText(op->getResult(i), op->getResult(i).getType(),
                     "destination", d.dsts()[i].name);
    if (failed(t))
      return failure();
    operands.push_back({*t});
  }
  int opt = d.optionalSrc();
  bool optPresent = op->getNumOperands() == d.numSrcs;
  int64_t forcedLiterals = 0;
  if (auto l = op->getAttrOfType<IntegerAttr>(kLiteralAttr))
    forcedLiterals = l.getInt();
  for (unsigned i = 0, oi = 0; i < d.numSrcs; ++i) {
    const ISA::OperandDesc &o = d.srcs()[i];
    if ((int)i == opt && !optPresent) {
      operands.push_back({""});
      continue;
    }
    Value v = op->getOperand(oi++);
    Type t = v.getType();
    if (o.tiedTo >= 0)
      continue; // same register as its destination; not written
    if (auto r = v.getDefiningOp<RelocOp>()) {
      operands.push_back({r.asmText()});
      continue;
    }
    if (o.cls & ISA::CLS_O && !isRegisterType(t)) {
      std::optional<uint64_t> bits = getImmediateBits(v);
      if (!bits)
        return op->emitOpError("source '") << o.name << "' is not a register or constant";
      operands.push_back({formatOffset(
          llvm::SignExtend64(*bits, t.getIntOrFloatBitWidth()))});
      continue;
    }
    if (isRegisterType(t)) {
      auto s = regText(v, t, "source", o.name);
      if (failed(s))
        return failure();
      operands.push_back({*s});
      continue;
    }
    std::optional<uint64_t> bits = getImmediateBits(v);
    if (!bits)
      return op->emitOpError("source '") << o.name << "' is not a register or constant";
    if ((forcedLiterals >> i) & 1) {
      operands.push_back({"lit(" + formatOffset((int64_t)(uint32_t)*bits) + ")"});
      continue;
    }
    operands.push_back({formatImmediate(*bits, o.ty)});
  }
  SmallVector<AsmModifier, 8> mods;
  for (const ISA::ModDesc *m : d.mods()) {
    Attribute a = op->getDiscardableAttr(m->name);
    AsmModifier am{m, 0, (bool)a};
    if (auto i = dyn_cast_or_null<IntegerAttr>(a))
      am.value = i.getValue().getSExtValue();
    mods.push_back(am);
  }
  SmallVector<std::string, 2> labels;
  // A conditional branch's second successor is its fall-through block.
  unsigned nlab = d.successors == 2 ? 1 : d.successors;
  for (unsigned i = 0; i < nlab; ++i)
    labels.push_back(labelOf(op->getSuccessor(i)));
  StringRef suffix;
  if (auto e = op->getAttrOfType<StringAttr>(kEncodingAttr))
    suffix = e.getValue();
  printInstParts(d, operands, mods, labels, os, suffix);
  return success();
}

} // namespace aster::target
