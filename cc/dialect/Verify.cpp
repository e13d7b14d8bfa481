//===- Verify.cpp - instruction verification from the table --------------===//
//
// Checks an instruction op against its table row: operand counts, register
// class and width, alignment of allocated ranges, immediates (kind, range,
// literal count), the constant-bus limit, modifiers and target validity.
// Shapes that verified are remembered (VerifyMemo.h).
//
//===----------------------------------------------------------------------===//
#include "dialect/Dialect.h"
#include "dialect/Immediates.h"
#include "dialect/ModSpelling.h"
#include "dialect/VerifyMemo.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;

static std::string describeClass(const ISA::OperandDesc &o) {
  std::string s;
  auto add = [&](const char *n) {
    if (!s.empty())
      s += " or ";
    s += n;
  };
  if (o.cls & ISA::CLS_V) add("VGPR");
  if (o.cls & ISA::CLS_A) add("AGPR");
  if (o.cls & ISA::CLS_S) add("SGPR");
  if (o.cls & ISA::CLS_I) add((o.cls & ISA::CLS_L) ? "immediate" : "inline constant");
  else if (o.cls & ISA::CLS_L) add("literal");
  if (o.cls & ISA::CLS_O) add("offset");
  if (o.width > 1)
    s += " x" + std::to_string(o.width);
  return s;
}

static LogicalResult checkRegister(Operation *op, const ISA::OperandDesc &o,
                                   Type t, bool isDst, uint8_t target,
                                   bool optPresent = false) {
  unsigned width = o.widthFor(optPresent);
  auto role = [&]() {
    return op->emitOpError() << (isDst ? "destination '" : "source '")
                             << o.name << "' ";
  };
  if (auto r = dyn_cast<RegType>(t)) {
    unsigned need = r.getKind() == RegKind::VGPR   ? ISA::CLS_V
                    : r.getKind() == RegKind::SGPR ? ISA::CLS_S
                                                   : ISA::CLS_A;
    if (!(o.cls & need))
      return role() << "expects " << describeClass(o) << ", got " << t;
    if (r.getWidth() != width)
      return role() << "expects " << width << " register"
                    << (width > 1 ? "s" : "") << ", got " << r.getWidth()
                    << " (" << t << ")";
    if (!r.isVirtual()) {
      unsigned a = requiredRegAlign(r.getKind(), r.getWidth(), target);
      if (r.getIndex() % a)
        return role() << "range " << registerAsm(t) << " must start at a multiple of "
                      << a;
    }
    return success();
  }
  if (auto s = dyn_cast<SpecialRegType>(t)) {
    if (s.getReg() == SpecialReg::scc)
      return role() << "cannot name scc explicitly";
    if (!(o.cls & ISA::CLS_S))
      return role() << "expects " << describeClass(o) << ", got " << t;
    if (s.getWidth() == 0 && isDst)
      return role() << "cannot write " << specialRegName(s.getReg())
                    << ": it is a read-only aperture constant";
    if (s.getWidth() != width && (s.getWidth() != 0 || width > 2))
      return role() << "expects " << width << " register"
                    << (width > 1 ? "s" : "") << ", got " << t << " of "
                    << s.getWidth();
    return success();
  }
  return role() << "expects " << describeClass(o) << ", got " << t;
}

static LogicalResult checkModifier(Operation *op, const ISA::InstDesc &d,
                                   NamedAttribute na) {
  StringRef name = na.getName().getValue();
  const ISA::ModDesc *m = nullptr;
  for (const ISA::ModDesc *c : d.mods())
    if (name == c->name)
      m = c;
  if (!m) {
    auto diag = op->emitOpError("has no modifier '") << name << "'";
    if (d.numMods) {
      diag << " (valid:";
      for (const ISA::ModDesc *c : d.mods())
        diag << " " << c->name;
      diag << ")";
    }
    return diag;
  }
  Attribute a = na.getValue();
  if (ISA::isFixedMod(m->kind))
    return op->emitOpError("modifier '")
           << name << "' is implied by this instruction form and is not an attribute";
  if (m->kind == ISA::ModKind::Flag) {
    if (!isa<UnitAttr>(a))
      return op->emitOpError("modifier '") << name << "' is a flag (unit attribute)";
    return success();
  }
  auto i = dyn_cast<IntegerAttr>(a);
  if (!i)
    return op->emitOpError("modifier '") << name << "' must be an integer";
  int64_t v = i.getValue().getSExtValue();
  if (v < m->min || v > m->max)
    return op->emitOpError("modifier '")
           << name << "' = " << v << " is out of range [" << m->min << ", "
           << m->max << "]";
  if (m->kind == ISA::ModKind::Dpp && ISA::formatDppCtrl(v).empty())
    return op->emitOpError("modifier '") << name << "' = " << v
                                         << " is not a DPP control (reserved value)";
  if ((m->kind == ISA::ModKind::SrcNeg || m->kind == ISA::ModKind::SrcAbs ||
       m->kind == ISA::ModKind::SrcSext) &&
      (v >> d.numSrcs))
    return op->emitOpError("modifier '")
           << name << "' selects a source beyond the " << d.numSrcs << " sources";
  return success();
}

/// Rules that tie operands and modifiers together.
static LogicalResult verifyEncodingRules(Operation *op, const ISA::InstDesc &d,
                                         uint8_t target, bool optPresent,
                                         bool hasLiteral) {
  // Flags that select the optional operand (MUBUF offen/idxen and vaddr).
  unsigned selectors = 0, set = 0;
  for (const ISA::ModDesc *m : d.mods())
    if (m->needsOpt) {
      ++selectors;
      set += (bool)op->getDiscardableAttr(m->name);
    }
  if (selectors && d.optionalSrc() >= 0) {
    const char *opt = d.srcs()[d.optionalSrc()].name;
    if (optPresent && set == 0)
      return op->emitOpError("source '") << opt << "' needs an addressing flag (offen or idxen)";
    if (!optPresent && set)
      return op->emitOpError("offen/idxen need the source '") << opt << "'";
    if (set > 1)
      return op->emitOpError("idxen with offen (a 64-bit vaddr) is not supported");
  }
  // MFMA: the result and the accumulator input live in the same register file.
  if (d.has(ISA::PROP_MFMA) && d.numDsts == 1 && d.numSrcs >= 3 &&
      (d.srcs()[2].cls & ISA::CLS_A)) {
    auto dst = dyn_cast<RegType>(op->getResult(0).getType());
    auto acc = op->getNumOperands() > 2 ? dyn_cast<RegType>(op->getOperand(2).getType())
                                        : RegType();
    if (dst && acc && dst.getKind() != acc.getKind())
      return op->emitOpError("destination and 'src2' must both be VGPRs or both AGPRs");
  }
  // gfx9 (gfx942, gfx950): a literal is only encodable in the 32-bit VOP1/
  // VOP2/VOPC encoding: later sources must be VGPRs, the SGPR-pair operands
  // (carry, condition, compare result) must be vcc, and no VOP3-only modifier.
  bool e32 = d.enc == ISA::Enc::VOP1 || d.enc == ISA::Enc::VOP2 || d.enc == ISA::Enc::VOPC;
  if (hasLiteral && e32 && target != ISA::T_GFX1201) {
    auto why = [&]() {
      return op->emitOpError("uses a literal, which needs the 32-bit encoding: ");
    };
    for (NamedAttribute na : op->getAttrs())
      for (const ISA::ModDesc *m : d.mods())
        if (na.getName().getValue() == m->name)
          return why() << "modifier '" << m->name << "' is not available there";
    for (unsigned i = 0; i < d.numDsts; ++i)
      if (d.dsts()[i].cls == ISA::CLS_S) {
        auto s = dyn_cast<SpecialRegType>(op->getResult(i).getType());
        if (!s || s.getReg() != SpecialReg::vcc)
          return why() << "destination '" << d.dsts()[i].name << "' must be vcc";
      }
    for (unsigned i = 1, oi = 1; i < d.numSrcs && oi < op->getNumOperands(); ++i, ++oi) {
      const ISA::OperandDesc &o = d.srcs()[i];
      Type t = op->getOperand(oi).getType();
      if (o.tiedTo >= 0 || !(o.cls & (ISA::CLS_V | ISA::CLS_S)))
        continue;
      if (o.width == 2 && !(o.cls & ISA::CLS_V)) {
        auto s = dyn_cast<SpecialRegType>(t);
        if (!s || s.getReg() != SpecialReg::vcc)
          return why() << "source '" << o.name << "' must be vcc";
      } else {
        auto r = dyn_cast<RegType>(t);
        if (!r || r.getKind() != RegKind::VGPR)
          return why() << "source '" << o.name << "' must be a VGPR";
      }
    }
  }
  return success();
}

/// verifyInstruction without the memo.
static LogicalResult verifyShape(Operation *op, const ISA::InstDesc &d, KernelModuleOp mod,
                                 uint8_t target) {
  // Target validity.
  if (mod) {
    if (target && !d.validOn(target)) {
      auto diag = op->emitOpError("is not valid on target '")
                  << mod.getTarget() << "' (valid on:";
      for (uint8_t b : {ISA::T_GFX942, ISA::T_GFX950, ISA::T_GFX1201})
        if (d.validOn(b))
          diag << " " << ISA::targetName(b);
      return diag << ")";
    }
  }
  // Counts.
  if (op->getNumResults() != d.numDsts)
    return op->emitOpError("expects ")
           << d.numDsts << " destination" << (d.numDsts == 1 ? "" : "s")
           << ", got " << op->getNumResults();
  int opt = d.optionalSrc();
  unsigned n = op->getNumOperands();
  if (op->getNumSuccessors() != d.successors)
    return op->emitOpError("expects ") << (unsigned)d.successors
                                       << " successor blocks, got "
                                       << op->getNumSuccessors();
  if (d.successors) {
    if (auto sizes = op->getAttrOfType<DenseI32ArrayAttr>(kSuccOperandSizesAttr)) {
      int64_t total = 0;
      for (int32_t s : sizes.asArrayRef())
        total += s;
      if ((unsigned)sizes.size() != d.successors || total != n)
        return op->emitOpError("'") << kSuccOperandSizesAttr
                                    << "' does not match the successor operands";
    }
    for (unsigned i = 0; i < d.successors; ++i) {
      auto [first, count] = successorOperandRange(op, i);
      Block *dest = op->getSuccessor(i);
      if (count != dest->getNumArguments())
        return op->emitOpError("passes ") << count << " operands to successor #" << i
                                          << ", which has " << dest->getNumArguments()
                                          << " arguments";
      for (unsigned k = 0; k < count; ++k) {
        Type a = op->getOperand(first + k).getType(),
             b = dest->getArgument(k).getType();
        auto ra = dyn_cast<RegType>(a), rb = dyn_cast<RegType>(b);
        // Same class and width; the registers may differ until allocation
        // (translation requires them equal).
        bool ok = a == b || (ra && rb && ra.getKind() == rb.getKind() &&
                             ra.getWidth() == rb.getWidth());
        if (!ok)
          return op->emitOpError("successor operand #")
                 << k << " of type " << a << " does not match block argument type " << b;
      }
    }
    n = successorOperandRange(op, 0).first; // the sources come first
  }
  bool optPresent = true;
  if (n + 1 == d.numSrcs && opt >= 0)
    optPresent = false;
  else if (n != d.numSrcs)
    return op->emitOpError("expects ")
           << (opt >= 0 ? std::to_string(d.numSrcs - 1) + " or " : "")
           << d.numSrcs << " sources, got " << n;
  // Destinations.
  for (unsigned i = 0; i < d.numDsts; ++i)
    if (failed(checkRegister(op, d.dsts()[i], op->getResult(i).getType(),
                             /*isDst=*/true, target)))
      return failure();
  // Sources.
  unsigned literals = 0;
  llvm::SmallSet<std::pair<int, int>, 4> sgprs; // (special?, index) on the constant bus
  std::optional<uint64_t> literalBits;
  bool relocLiteral = false;
  bool isVector = d.has(ISA::PROP_VALU);
  for (unsigned i = 0, oi = 0; i < d.numSrcs; ++i) {
    const ISA::OperandDesc &o = d.srcs()[i];
    if ((int)i == opt && !optPresent)
      continue;
    Value v = op->getOperand(oi++);
    Type t = v.getType();
    if (o.tiedTo >= 0) {
      Type dt = op->getResult(o.tiedTo).getType();
      if (failed(checkRegister(op, o, t, /*isDst=*/false, target)))
        return failure();
      auto r = dyn_cast<RegType>(t), dr = dyn_cast<RegType>(dt);
      bool virt = (r && r.isVirtual()) || (dr && dr.isVirtual());
      if (!virt && t != dt)
        return op->emitOpError("source '")
               << o.name << "' is the old value of destination '"
               << d.dsts()[o.tiedTo].name << "' and must be the same register, got "
               << registerAsm(t) << " and " << registerAsm(dt);
      continue;
    }
    if (isRegisterType(t)) {
      if (failed(checkRegister(op, o, t, /*isDst=*/false, target, optPresent)))
        return failure();
      // The SDWA encoding has no field for a condition / carry pair: vcc.
      if (d.enc == ISA::Enc::SDWA && o.width == 2 && o.cls == ISA::CLS_S) {
        auto sr = dyn_cast<SpecialRegType>(t);
        if (!sr || sr.getReg() != SpecialReg::vcc)
          return op->emitOpError("source '")
                 << o.name << "' of an SDWA instruction must be vcc, got " << registerAsm(t);
      }
      if (isVector) {
        if (auto r = dyn_cast<RegType>(t)) {
          if (r.getKind() == RegKind::SGPR)
            sgprs.insert({r.isVirtual() ? 2 : 0,
                          r.isVirtual() ? (int)(intptr_t)v.getAsOpaquePointer()
                                        : r.getIndex()});
        } else if (auto s = dyn_cast<SpecialRegType>(t)) {
          sgprs.insert({1, (int)s.getReg()});
        }
      }
      continue;
    }
    if (v.getDefiningOp<RelocOp>()) {
      // A symbol's address the linker writes: a 32-bit literal.
      if (!(o.cls & ISA::CLS_L) || ISA::valTyImmBits(o.ty) != 32)
        return op->emitOpError("source '")
               << o.name << "' cannot take a relocation (sym@kind): it is not a 32-bit literal";
      if (literalBits || relocLiteral)
        return op->emitOpError("uses two different literals; at most one 32-bit literal is encodable");
      relocLiteral = true;
      ++literals;
      continue;
    }
    if (!t.isIntOrFloat())
      return op->emitOpError("source '") << o.name << "' has type " << t
                                         << ", which is neither a register nor an immediate";
    std::optional<uint64_t> bits = getImmediateBits(v);
    if (!bits)
      return op->emitOpError("source '")
             << o.name << "' is an immediate that is not a constant";
    if (o.cls & ISA::CLS_O) {
      int64_t off = (int64_t)*bits;
      if (off < -(1 << 20) || off >= (1 << 20))
        return op->emitOpError("offset '")
               << o.name << "' = " << off << " is out of range [-1048576, 1048575]";
      continue;
    }
    if (!(o.cls & (ISA::CLS_I | ISA::CLS_L)))
      return op->emitOpError("source '") << o.name << "' expects "
                                         << describeClass(o) << ", got an immediate";
    if (!fitsImmediate(*bits, o.ty))
      return op->emitOpError("immediate for '")
             << o.name << "' does not fit a " << ISA::valTyName(o.ty) << " operand";
    if (isInlineConstant(*bits, o.ty))
      continue;
    if (!(o.cls & ISA::CLS_L))
      return op->emitOpError("source '")
             << o.name << "' accepts only inline constants (-16..64, +-0.5, "
                          "+-1.0, +-2.0, +-4.0, 1/(2pi)); a literal is not encodable here";
    if (o.ty == ISA::ValTy::f64 && (*bits & 0xffffffffull))
      return op->emitOpError("source '")
             << o.name << "': an f64 literal is the high 32 bits of the double; "
             << "the low 32 bits must be zero";
    if (relocLiteral || (literalBits && *literalBits != *bits))
      return op->emitOpError("uses two different literals; at most one 32-bit literal is encodable");
    literalBits = bits;
    ++literals;
  }
  if (isVector && !d.has(ISA::PROP_MFMA)) {
    if (d.implicitUses & ISA::IMP_VCC) // v_div_fmas reads vcc implicitly
      sgprs.insert({1, (int)SpecialReg::vcc});
    unsigned bus = sgprs.size() + (literalBits || relocLiteral ? 1 : 0);
    unsigned limit = target == ISA::T_GFX1201 ? 2 : 1;
    if (bus > limit)
      return op->emitOpError("reads ")
             << bus << " scalar values (SGPRs/literals) but the constant bus "
             << "allows " << limit << " per VALU instruction on this target";
  }
  // Modifiers.
  for (NamedAttribute na : op->getAttrs())
    if (na.getName() == kLiteralAttr) {
      auto m = dyn_cast<IntegerAttr>(na.getValue());
      if (!m || m.getInt() <= 0 || (m.getInt() >> d.numSrcs))
        return op->emitOpError("'") << kLiteralAttr << "' must be a mask of sources";
    } else if (na.getName() == kEncodingAttr) {
      auto e = dyn_cast<StringAttr>(na.getValue());
      if (!e || (e.getValue() != "e32" && e.getValue() != "e64"))
        return op->emitOpError("'") << kEncodingAttr << "' must be \"e32\" or \"e64\"";
    } else if (na.getName() != kSuccOperandSizesAttr && na.getName() != kSpillWaitAttr &&
               failed(checkModifier(op, d, na)))
      return failure();
  return verifyEncodingRules(op, d, target, optPresent,
                             literalBits.has_value() || relocLiteral);
}

LogicalResult aster::amdgcn::verifyInstruction(Operation *op, const ISA::InstDesc &d) {
  auto mod = op->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : 0;
  VerifyMemo *memo = verifyMemoOf(op);
  VerifyMemo::Key key;
  bool memoised = memo && VerifyMemo::key(op, d, target, key);
  if (memoised && memo->contains(key))
    return success();
  if (failed(verifyShape(op, d, mod, target)))
    return failure();
  if (memoised)
    memo->insert(key);
  return success();
}

bool VerifyMemo::key(Operation *op, const ISA::InstDesc &d, uint8_t target, Key &k) {
  if (op->getNumSuccessors())
    return false;
  k.clear();
  k.push_back((const void *)(uintptr_t)((d.index() << 8) | target));
  k.push_back(op->getAttrDictionary().getAsOpaquePointer());
  k.push_back((const void *)(uintptr_t)((op->getNumOperands() << 16) | op->getNumResults()));
  for (Type t : op->getResultTypes())
    k.push_back(t.getAsOpaquePointer());
  for (Value v : op->getOperands()) {
    Type t = v.getType();
    k.push_back(t.getAsOpaquePointer());
    if (!isRegisterType(t)) {
      auto c = v.getDefiningOp<arith::ConstantOp>();
      if (!c)
        return false;
      k.push_back(c.getValue().getAsOpaquePointer());
    } else if (auto r = dyn_cast<RegType>(t); r && r.isVirtual() && r.getKind() == RegKind::SGPR) {
      unsigned first = 0;
      while (op->getOperand(first) != v)
        ++first;
      k.push_back((const void *)(uintptr_t)first);
    }
  }
  return true;
}

bool VerifyMemo::contains(ArrayRef<const void *> k) {
  std::lock_guard<std::mutex> lock(mu);
  return shapes.contains(k);
}

void VerifyMemo::insert(ArrayRef<const void *> k) {
  std::lock_guard<std::mutex> lock(mu);
  if (shapes.size() >= kMaxShapes) {
    shapes.clear();
    arena.Reset();
  }
  shapes.insert(k.copy(arena));
}
