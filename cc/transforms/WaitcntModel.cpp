//===- WaitcntModel.cpp - the memory counters of a target ------------------===//
#include "transforms/WaitcntModel.h"

namespace aster::waitcnt {

Model Model::get(uint8_t targetBit) {
  Model m;
  if (targetBit == ISA::T_GFX1201) {
    // One wait instruction per counter: s_wait_<counter> imm.
    m.split = true;
    for (const ISA::InstDesc &d : ISA::instructions()) {
      llvm::StringRef mn = d.mnemonic;
      if (!d.has(ISA::PROP_WAITCNT) || !d.validOn(targetBit) ||
          !mn.consume_front("s_wait_") || d.numMods != 1 || m.numCounters == kMaxCounters)
        continue;
      m.name[m.numCounters] = mn.str();
      m.max[m.numCounters++] = d.mods()[0]->max;
    }
    m.lds = m.counter("dscnt");
    return m;
  }
  if (!targetBit)
    return m;
  // gfx9: the fields of s_waitcnt.
  const ISA::InstDesc *w = ISA::lookup("s_waitcnt");
  if (!w || !w->validOn(targetBit))
    return m;
  for (const ISA::ModDesc *f : w->mods()) {
    if (f->kind != ISA::ModKind::Waitcnt || m.numCounters == kMaxCounters)
      continue;
    m.name[m.numCounters] = f->name;
    m.max[m.numCounters++] = f->max;
  }
  m.lds = m.counter("lgkmcnt");
  return m;
}

int Model::counter(llvm::StringRef n) const {
  for (unsigned c = 0; c < numCounters; ++c)
    if (name[c] == n)
      return c;
  return -1;
}

bool Model::events(const ISA::InstDesc &d, Events &out, std::string &missing) const {
  out = Events();
  bool flat = d.enc == ISA::Enc::FLAT;
  auto add = [&](llvm::StringRef n, bool ordered) {
    int c = counter(n);
    if (c < 0) {
      missing = n.str();
      return false;
    }
    (ordered ? out.ordered : out.unordered) |= 1u << c;
    return true;
  };
  bool ok = true;
  if (!split) {
    if (d.has(ISA::PROP_VMCNT))
      ok &= add("vmcnt", !flat);
    if (d.has(ISA::PROP_LGKMCNT))
      ok &= add("lgkmcnt", d.has(ISA::PROP_LDS) && !d.has(ISA::PROP_SMEM) && !flat);
    if (d.has(ISA::PROP_EXPCNT))
      ok &= add("expcnt", true);
    return ok;
  }
  // gfx1201: returning accesses count as loads, the others as stores.
  if (d.has(ISA::PROP_VMCNT)) {
    bool load = d.has(ISA::PROP_MAYLOAD) || d.has(ISA::PROP_RETURNS) || d.numDsts;
    ok &= add(load ? "loadcnt" : "storecnt", !flat);
  }
  if (d.has(ISA::PROP_LGKMCNT)) {
    if (d.has(ISA::PROP_SMEM))
      ok &= add("kmcnt", false);
    else
      ok &= add("dscnt", !flat);
  }
  if (d.has(ISA::PROP_EXPCNT))
    ok &= add("expcnt", true);
  return ok;
}

} // namespace aster::waitcnt
