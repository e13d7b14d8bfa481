//===- Examples.cpp - example assembly lines for table instructions ------===//
//
// Variants 0..5 vary the operands (see kOperandVariants below); each later
// variant sets one modifier of the instruction to a non-default value, and
// the last one (with two or more modifiers) sets them all at once. Every
// variant stays within what the table says the instruction accepts, and the
// generator keeps to the hardware rules the table leaves implicit (constant
// bus, literal only in the 32-bit encoding, MFMA result and accumulator in
// one register file, offen/idxen with vaddr), so each line must assemble.
//
//===----------------------------------------------------------------------===//
#include "target/Examples.h"
#include "target/InstAsm.h"

#include "dialect/Immediates.h"

#include "llvm/Support/raw_ostream.h"

using namespace aster;

namespace aster::target {

namespace {
/// 0 plain registers; 1 the optional operand present and an SGPR in the
/// first vector source that takes one; 2 an inline constant (or encoded
/// offset) in the first source taking one, vcc for SGPR-pair operands;
/// 3 a literal in the first source taking one; 4 AGPRs wherever accepted,
/// else an SGPR in a later source (exec/m0 for scalar instructions);
/// 5 an inline constant in the last source taking one.
constexpr unsigned kOperandVariants = 6;

struct Gen {
  const ISA::InstDesc &d;
  uint8_t target;
  unsigned variant;
  unsigned nextV, nextS, nextA = 0;

  unsigned alignOf(char k, unsigned w) const {
    if (w < 2)
      return 1;
    if (k == 's')
      return w >= 4 ? 4 : 2;
    return target == ISA::T_GFX1201 ? 1 : 2;
  }
  std::string reg(char k, unsigned w) {
    unsigned &next = k == 'v' ? nextV : k == 's' ? nextS : nextA;
    unsigned a = alignOf(k, w);
    next = (next + a - 1) / a * a;
    unsigned idx = next;
    next += w;
    if (w == 1)
      return std::string(1, k) + std::to_string(idx);
    return std::string(1, k) + "[" + std::to_string(idx) + ":" +
           std::to_string(idx + w - 1) + "]";
  }
};

bool isFloat(ISA::ValTy t) { return ISA::valTyIsFloat(t); }

std::string inlineConst(const ISA::OperandDesc &o, bool alt) {
  if (isFloat(o.ty))
    return alt ? "-4.0" : "1.0";
  return alt ? "-16" : "7";
}

std::string literal(const ISA::OperandDesc &o) {
  unsigned w = ISA::valTyImmBits(o.ty);
  uint64_t bits = w == 16   ? (isFloat(o.ty) ? 0x4248 : 0x1234)
                  : w == 64 ? 0x400921fb00000000ull  // f64 literal: the high half
                            : (isFloat(o.ty) ? 0x40490fdb : 0x1234567);
  return amdgcn::formatImmediate(bits, o.ty);
}

/// A scalar value read by a vector instruction uses the constant bus.
bool isVectorInst(const ISA::InstDesc &d) {
  return d.has(ISA::PROP_VALU) && !d.has(ISA::PROP_MFMA);
}
} // namespace

static unsigned numSettableMods(const ISA::InstDesc &d) {
  unsigned n = 0;
  for (const ISA::ModDesc *m : d.mods())
    n += !ISA::isFixedMod(m->kind);
  return n;
}

unsigned numExampleVariants(const ISA::InstDesc &d) {
  unsigned n = numSettableMods(d);
  return kOperandVariants + n + (n >= 2);
}

std::string exampleAsm(const ISA::InstDesc &d, uint8_t target, unsigned variant) {
  Gen g{d, target, variant, 2 + 2 * (variant % 3), 4 + 4 * (variant % 2)};
  // The modifier this variant sets, if any (all of them: the last variant).
  const ISA::ModDesc *chosen = nullptr;
  bool all = variant == kOperandVariants + numSettableMods(d) && variant > kOperandVariants + 1;
  if (variant >= kOperandVariants && !all) {
    unsigned k = variant - kOperandVariants;
    for (const ISA::ModDesc *m : d.mods())
      if (!ISA::isFixedMod(m->kind) && k-- == 0)
        chosen = m;
  }
  // With all modifiers set, only the first optional-operand selector is.
  const ISA::ModDesc *firstSel = nullptr;
  for (const ISA::ModDesc *m : d.mods())
    if (m->needsOpt && !firstSel)
      firstSel = m;
  auto isChosen = [&](const ISA::ModDesc *m) {
    if (all)
      return !ISA::isFixedMod(m->kind) && (!m->needsOpt || m == firstSel);
    return m == chosen;
  };
  bool optPresent = variant % 2 == 1 || (chosen && chosen->needsOpt) || (all && firstSel);
  bool vector = isVectorInst(d);
  bool gfx9 = target != ISA::T_GFX1201;
  int bus = !vector ? 1 << 20 : gfx9 ? 1 : 2;

  // Sources in the assembly, and which of them must be scalar (reserved on
  // the constant bus before anything else).
  std::vector<unsigned> srcs;
  for (unsigned i = 0; i < d.numSrcs; ++i)
    if (d.srcs()[i].tiedTo < 0)
      srcs.push_back(i);
  auto scalarOnly = [](const ISA::OperandDesc &o) {
    return (o.cls & ISA::CLS_S) && !(o.cls & (ISA::CLS_V | ISA::CLS_A | ISA::CLS_I |
                                              ISA::CLS_L | ISA::CLS_O));
  };
  for (unsigned i : srcs) {
    const ISA::OperandDesc &o = d.srcs()[i];
    if ((scalarOnly(o) && (optPresent || !o.optional)) || o.cls == ISA::CLS_L)
      --bus;
  }
  if (d.implicitUses & ISA::IMP_VCC)
    --bus;

  // Which source gets the special treatment of this variant.
  auto firstWith = [&](auto pred) -> int {
    for (unsigned i : srcs)
      if (pred(d.srcs()[i]))
        return i;
    return -1;
  };
  auto lastWith = [&](auto pred) -> int {
    int r = -1;
    for (unsigned i : srcs)
      if (pred(d.srcs()[i]))
        r = i;
    return r;
  };
  bool anyA = false;
  for (const ISA::OperandDesc &o : d.dsts())
    anyA |= (o.cls & ISA::CLS_A) != 0;
  for (unsigned i : srcs)
    anyA |= (d.srcs()[i].cls & ISA::CLS_A) != 0;
  int special = -1;
  switch (variant) {
  case 1:
    special = firstWith([&](const ISA::OperandDesc &o) {
      return vector && (o.cls & ISA::CLS_S) && (o.cls & ISA::CLS_V);
    });
    break;
  case 2:
    special = firstWith([](const ISA::OperandDesc &o) {
      return (o.cls & (ISA::CLS_I | ISA::CLS_O)) != 0;
    });
    break;
  case 3:
    special = firstWith([](const ISA::OperandDesc &o) {
      return (o.cls & ISA::CLS_L) && (o.width == 1 || o.ty == ISA::ValTy::f64);
    });
    break;
  case 4:
    if (!anyA)
      special = lastWith([&](const ISA::OperandDesc &o) {
        return (o.cls & ISA::CLS_S) && (d.has(ISA::PROP_SALU) || (o.cls & ISA::CLS_V)) &&
               !o.optional;
      });
    break;
  case 5:
    special = lastWith([](const ISA::OperandDesc &o) { return (o.cls & ISA::CLS_I) != 0; });
    break;
  }
  bool useVcc = vector && (variant == 2 || variant == 3) && gfx9;

  auto pick = [&](const ISA::OperandDesc &o, bool isDst, int si) -> std::string {
    unsigned w = o.widthFor(optPresent);
    // An SDWA form's carry / condition source is vcc (v_cndmask_b32_sdwa:
    // llvm-mc-22 takes no other SGPR pair there).
    if ((useVcc || (!isDst && d.enc == ISA::Enc::SDWA)) && o.cls == ISA::CLS_S && w == 2)
      return "vcc";
    if (si >= 0 && si == special) {
      switch (variant) {
      case 1:
        if (bus > 0) {
          --bus;
          return g.reg('s', w);
        }
        break;
      case 2:
        if (o.cls & ISA::CLS_O)
          return amdgcn::formatOffset(0x10);
        return inlineConst(o, false);
      case 3:
        if (bus > 0) {
          --bus;
          return literal(o);
        }
        break;
      case 4:
        if (d.has(ISA::PROP_SALU) && !(o.cls & ISA::CLS_V))
          return w == 2 ? "exec" : "m0";
        if (bus > 0) {
          --bus;
          return g.reg('s', w);
        }
        break;
      case 5:
        return inlineConst(o, true);
      }
    }
    if ((o.cls & ISA::CLS_A) && (variant == 4 || !(o.cls & ISA::CLS_V)))
      return g.reg('a', w);
    if (o.cls & ISA::CLS_V)
      return g.reg('v', w);
    if (o.cls & ISA::CLS_S) {
      if (isDst || scalarOnly(o) || bus > 0 || !(o.cls & ISA::CLS_I)) {
        if (!isDst && !scalarOnly(o))
          --bus;
        return g.reg('s', w);
      }
    }
    if (o.cls & ISA::CLS_I)
      return inlineConst(o, false);
    if (o.cls & ISA::CLS_O)
      return amdgcn::formatOffset(0x10);
    return literal(o);
  };

  std::vector<AsmOperand> ops;
  for (const ISA::OperandDesc &o : d.dsts())
    ops.push_back({pick(o, true, -1)});
  for (unsigned i : srcs) {
    const ISA::OperandDesc &o = d.srcs()[i];
    if (o.optional && !optPresent) {
      ops.push_back({""});
      continue;
    }
    ops.push_back({pick(o, false, i)});
  }

  std::vector<AsmModifier> mods;
  const ISA::ModDesc *selector = nullptr; // offen when vaddr is present
  if (optPresent && !(chosen && chosen->needsOpt) && !all)
    selector = firstSel;
  for (const ISA::ModDesc *m : d.mods()) {
    AsmModifier am{m, 0, false};
    if (isChosen(m)) {
      am.present = true;
      switch (m->kind) {
      case ISA::ModKind::Bits:
        am.value = m->def > 0 ? m->def ^ 1 : 1;
        break;
      case ISA::ModKind::Hex16:
        am.value = m->max >= 0x1234 ? 0x1234 : m->max;
        break;
      case ISA::ModKind::Flag:
      case ISA::ModKind::SrcNeg:
      case ISA::ModKind::SrcAbs:
      case ISA::ModKind::SrcSext:
      case ISA::ModKind::Omod:
        am.value = 1;
        break;
      default:
        am.value = std::min<int64_t>(m->max, std::max<int64_t>(m->min, 4));
        if (am.value == 0)
          am.value = m->max;
      }
    } else if (m == selector) {
      am.present = true;
      am.value = 1;
    } else if (m->kind == ISA::ModKind::Pos || m->kind == ISA::ModKind::Hex16) {
      am.present = true;
      am.value = std::max<int64_t>(m->min, 0);
    } else if (ISA::isPositionalMod(m->kind) && !ISA::isFixedMod(m->kind)) {
      am.present = true; // hwreg(...), sendmsg(...), gpr_idx(...): always written
      am.value = m->def;
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
