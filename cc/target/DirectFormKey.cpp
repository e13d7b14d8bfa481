//===- DirectFormKey.cpp - which learned form an instruction op is -------===//
#include "target/DirectFormKey.h"

#include "dialect/Dialect.h"
#include "dialect/Immediates.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace aster::amdgcn;
using llvm::SmallVectorImpl;

namespace aster::target::direct {

template <typename T> static void put(llvm::SmallString<64> &key, T v) {
  key.append((const char *)&v, (const char *)&v + sizeof(T));
}

/// Appends `t` to the key; allocated registers also go to `regs`.
static bool keyType(Type t, llvm::SmallString<64> &key, SmallVectorImpl<RegRef> &regs) {
  if (auto r = dyn_cast<RegType>(t)) {
    if (r.isVirtual())
      return false;
    put<uint8_t>(key, 'r');
    put<uint8_t>(key, (uint8_t)r.getKind());
    put<uint8_t>(key, (uint8_t)r.getWidth());
    regs.push_back({r.getKind(), r.getIndex(), r.getWidth()});
    return true;
  }
  if (auto s = dyn_cast<SpecialRegType>(t)) {
    put<uint8_t>(key, 'x');
    put<uint8_t>(key, (uint8_t)s.getReg());
    return true;
  }
  return false;
}

/// The form of an instruction op (`d`; null for a cf.br, an s_branch) as a
/// key, and its registers in assembly order (the order printInstAsm writes
/// them). False if the op cannot be encoded directly.
bool formKey(Operation *op, const ISA::InstDesc *d, llvm::SmallString<64> &key,
             SmallVectorImpl<RegRef> &regs) {
  key.clear();
  regs.clear();
  if (!d) {
    put<uint16_t>(key, 0xffff);
    return true;
  }
  put<uint16_t>(key, (uint16_t)d->index());
  for (unsigned i = 0; i < d->numDsts; ++i)
    if (!keyType(op->getResult(i).getType(), key, regs))
      return false;
  int opt = d->optionalSrc();
  bool optPresent = op->getNumOperands() == d->numSrcs;
  put<uint8_t>(key, optPresent);
  for (unsigned i = 0, oi = 0; i < d->numSrcs; ++i) {
    const ISA::OperandDesc &o = d->srcs()[i];
    if ((int)i == opt && !optPresent)
      continue;
    Value v = op->getOperand(oi++);
    if (o.tiedTo >= 0)
      continue;
    Type t = v.getType();
    if (isRegisterType(t)) {
      if (!keyType(t, key, regs))
        return false;
      continue;
    }
    if (auto r = v.getDefiningOp<RelocOp>()) {
      // The symbol is the op's own (TOp::Sym); kind and addend are the form's.
      llvm::raw_svector_ostream ks(key);
      ks << "S" << r.getKind() << '\0';
      put<int64_t>(key, r.getAddend());
      continue;
    }
    std::optional<uint64_t> bits = getImmediateBits(v);
    if (!bits || !t.isIntOrFloat())
      return false;
    put<uint8_t>(key, 'i');
    put<uint8_t>(key, (uint8_t)t.getIntOrFloatBitWidth());
    put<uint64_t>(key, *bits);
  }
  bool anyAttr = !op->getDiscardableAttrDictionary().empty();
  for (const ISA::ModDesc *m : d->mods()) {
    Attribute a = anyAttr ? op->getDiscardableAttr(m->name) : Attribute();
    put<uint8_t>(key, a ? 1 : 0);
    if (auto i = dyn_cast_or_null<IntegerAttr>(a))
      put<int64_t>(key, i.getValue().getSExtValue());
  }
  // Any other attribute (e.g. a raised op's `encoding` suffix) may change
  // what is printed: it is part of the form, spelled out.
  if (anyAttr)
    for (NamedAttribute na : op->getDiscardableAttrs()) {
      if (llvm::any_of(d->mods(), [&](const ISA::ModDesc *m) {
            return na.getName().getValue() == m->name;
          }))
        continue;
      llvm::raw_svector_ostream ks(key);
      ks << '\0' << na.getName().getValue() << '=' << na.getValue();
    }
  // Which registers are the same (canonical samples keep that).
  for (unsigned j = 0; j < regs.size(); ++j) {
    uint8_t same = 0xff;
    for (unsigned k = 0; k < j && same == 0xff; ++k)
      if (regs[k] == regs[j])
        same = k;
    put<uint8_t>(key, same);
  }
  return true;
}

/// The symbol of the `k`-th amdgcn.reloc source of `op`.
StringRef relocOperand(Operation *op, unsigned k) {
  for (Value v : op->getOperands())
    if (auto r = v.getDefiningOp<RelocOp>())
      if (k-- == 0)
        return r.getSymbol();
  return "";
}

} // namespace aster::target::direct
