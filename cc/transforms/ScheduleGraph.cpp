//===- ScheduleGraph.cpp - regions of a block and their dependences -------===//
#include "transforms/ScheduleGraph.h"
#include "transforms/HazardRules.h"

#include "dialect/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster::sched {

namespace {

bool isPureValueOp(Operation *op) {
  return isa<RegOp, UndefOp, PartOp, ConcatOp, arith::ConstantOp, RelocOp>(op);
}

/// An op nothing may cross (see ScheduleGraph.h).
bool isFence(Operation *op) {
  const ISA::InstDesc *d = getInstDesc(op);
  if (!d)
    return !isPureValueOp(op);
  if (d->props & (ISA::PROP_WAITCNT | ISA::PROP_BARRIER | ISA::PROP_SIDE_EFFECT |
                  ISA::PROP_TERMINATOR | ISA::PROP_BRANCH))
    return true;
  if (d->successors)
    return true;
  StringRef mn = d->mnemonic;
  // A PC-relative address (s_getpc_b64, then `sym@rel32@lo+4` /
  // `@hi+12` literals, as clang writes calls and global addresses) counts its
  // addend from the s_getpc_b64: nothing may come between them.
  if (mn == "s_getpc_b64" ||
      llvm::any_of(op->getOperands(), [](Value v) { return (bool)v.getDefiningOp<RelocOp>(); }))
    return true;
  return mn == "s_nop" || mn == "s_sleep";
}

/// Address spaces a memory instruction may touch (bits), and whether it
/// writes memory.
enum Space : uint8_t { SP_GLOBAL = 1, SP_LDS = 2, SP_SCRATCH = 4 };
struct MemAccess {
  uint8_t loads = 0, stores = 0;
};
MemAccess memAccess(const ISA::InstDesc &d) {
  MemAccess m;
  StringRef mn = d.mnemonic;
  bool store = d.has(ISA::PROP_MAYSTORE) || d.has(ISA::PROP_ATOMIC);
  uint8_t space = 0;
  if (d.has(ISA::PROP_SMEM))
    space = SP_GLOBAL;
  else if (d.has(ISA::PROP_VMEM)) {
    space = mn.starts_with("scratch_") ? SP_SCRATCH
            : mn.starts_with("flat_")  ? SP_GLOBAL | SP_LDS
                                       : SP_GLOBAL;
    // Loads into LDS (global_load_lds_*, buffer ... lds) write LDS too.
    if (d.has(ISA::PROP_LDS))
      m.stores |= SP_LDS;
  } else if (d.has(ISA::PROP_LDS))
    space = SP_LDS;
  if (!space && !m.stores)
    return m;
  if (store)
    m.stores |= space;
  else
    m.loads |= space;
  // An atomic that returns its old value reads too.
  if (d.has(ISA::PROP_ATOMIC))
    m.loads |= space;
  return m;
}

/// Where a load or store goes in its own space, when that is known: the
/// address operands (SSA values of virtual registers or constants: same
/// value, same contents) and the byte range [lo, hi) from the offset.
struct Address {
  bool known = false;
  llvm::SmallVector<Value, 3> bases;
  int64_t lo = 0, hi = 0;
};
Address addressOf(Operation *op, const ISA::InstDesc &d) {
  Address a;
  StringRef mn = d.mnemonic;
  if (d.has(ISA::PROP_ATOMIC) || mn.starts_with("flat_") || mn.starts_with("buffer_") ||
      (d.has(ISA::PROP_VMEM) && d.has(ISA::PROP_LDS)) || op->hasAttr("gds"))
    return a; // atomics, FLAT, buffers (addressing modes), loads into LDS, GDS
  for (const ISA::ModDesc *m : d.mods())
    if (StringRef(m->name) == "offset0" || StringRef(m->name) == "offset1")
      return a; // read2/write2: two addresses
  int opt = d.optionalSrc();
  bool optPresent = op->getNumOperands() >= d.numSrcs;
  unsigned bytes = 0;
  for (unsigned s = 0, oi = 0; s < d.numSrcs && oi < op->getNumOperands(); ++s) {
    if ((int)s == opt && !optPresent)
      continue;
    Value v = op->getOperand(oi++);
    StringRef name = d.srcs()[s].name;
    if (name == "data0" || name == "vdata") {
      if (auto r = dyn_cast<RegType>(v.getType()))
        bytes = 4 * r.getWidth();
      continue;
    }
    if (name != "addr" && name != "vaddr" && name != "saddr" && name != "srsrc" &&
        name != "soffset")
      return a;
    auto r = dyn_cast<RegType>(v.getType());
    if (!(r && r.isVirtual()) && !v.getDefiningOp<arith::ConstantOp>())
      return a;
    a.bases.push_back(v);
  }
  if (op->getNumResults() == 1)
    if (auto r = dyn_cast<RegType>(op->getResult(0).getType()))
      bytes = 4 * r.getWidth();
  if (!bytes || a.bases.empty())
    return a;
  auto off = op->getAttrOfType<IntegerAttr>("offset");
  a.lo = off ? off.getInt() : 0;
  a.hi = a.lo + bytes;
  a.known = true;
  return a;
}
/// Provably different bytes: the same address operands, ranges apart.
bool disjoint(const Address &x, const Address &y) {
  return x.known && y.known && x.bases == y.bases && (x.hi <= y.lo || y.hi <= x.lo);
}

Unit unitOf(const ISA::InstDesc &d) {
  if (d.has(ISA::PROP_MFMA))
    return Unit::MFMA;
  if (d.has(ISA::PROP_VMEM))
    return Unit::VMEM;
  if (d.has(ISA::PROP_LDS))
    return Unit::LDS;
  if (d.has(ISA::PROP_SMEM))
    return Unit::SMEM;
  if (d.has(ISA::PROP_VALU))
    return d.has(ISA::PROP_TRANS) ? Unit::TRANS : Unit::VALU;
  if (d.has(ISA::PROP_SALU))
    return Unit::SALU;
  return Unit::Internal;
}

/// Hardware register units: V 0.., S 512.., A 1024.., specials 1536...
constexpr unsigned kUnits = 1536 + 8;
unsigned unitBase(hazards::RegFile f) {
  switch (f) {
  case hazards::RegFile::V: return 0;
  case hazards::RegFile::S: return 512;
  case hazards::RegFile::A: return 1024;
  case hazards::RegFile::Special: return 1536;
  }
  return 1536;
}

} // namespace

void splitRegions(Block &block, std::vector<Region> &out) {
  out.clear();
  Region cur;
  bool freezeNext = false;
  auto close = [&](bool frozenAfter) {
    if (!cur.nodes.empty())
      out.push_back(std::move(cur));
    cur = Region();
    cur.frozen = frozenAfter;
  };
  for (Operation &op : block) {
    if (auto sb = dyn_cast<SchedBarrierOp>(op)) {
      freezeNext = sb.getFreeze();
      close(freezeNext);
      continue;
    }
    // Registers, undef and constants have no operands: they stay, before the
    // region's ops (which go after them).
    if (isa<RegOp, UndefOp, arith::ConstantOp, RelocOp>(op))
      continue;
    if (isFence(&op)) {
      // A fence inside a frozen region keeps it frozen after it.
      close(cur.frozen);
      continue;
    }
    Node n;
    n.op = &op;
    cur.nodes.push_back(std::move(n));
  }
  close(false);
}

void buildGraph(Region &r, const emu::timing::Params &P, uint8_t targetBit) {
  using namespace emu::timing;
  const uint32_t n = r.nodes.size();
  llvm::DenseMap<Operation *, uint32_t> index;
  index.reserve(n);
  for (uint32_t i = 0; i < n; ++i)
    index[r.nodes[i].op] = i;

  // Hardware registers: the last writer and the readers since (entries
  // from an earlier region, by stamp, count as empty).
  static thread_local std::vector<int32_t> lastWriter(kUnits, -1);
  static thread_local std::vector<llvm::SmallVector<uint32_t, 2>> readers(kUnits);
  static thread_local std::vector<uint32_t> stamp(kUnits, 0);
  static thread_local uint32_t curStamp = 0;
  ++curStamp;
  auto fresh = [&](unsigned u) {
    if (stamp[u] != curStamp) {
      stamp[u] = curStamp;
      lastWriter[u] = -1;
      readers[u].clear();
    }
  };
  // Memory, per space (global, LDS, scratch): stores stay in order; the
  // last stores (a window) and the loads not yet ordered before a store.
  constexpr size_t kWindow = 64;
  std::vector<uint32_t> stores[3], loads[3];
  bool olderStores[3] = {false, false, false};
  std::vector<Address> addr(n);

  auto addEdge = [&](uint32_t from, uint32_t to, uint32_t lat) {
    if (from == to)
      return;
    r.nodes[from].succ.push_back({to, lat});
    ++r.nodes[to].npred;
  };

  for (uint32_t i = 0; i < n; ++i) {
    Node &node = r.nodes[i];
    Operation *op = node.op;
    const ISA::InstDesc *d = getInstDesc(op);
    if (d) {
      node.slot = true;
      node.unit = unitOf(*d);
      const TableTiming *row = tableTiming(d->mnemonic);
      unsigned passes = row && row->passes ? row->passes : 4;
      IssueCost c = issueCost(P, node.unit, passes);
      node.valuBusy = c.valuBusy;
      node.unitBusy = c.unitBusy;
      node.latency = expectedLatency(P, node.unit, passes);
      node.forward = node.unit == Unit::MFMA ? c.forward : node.latency;
    }

    // SSA values: definitions in the region, and tied sources.
    int opt = d ? d->optionalSrc() : -1;
    bool optPresent = d && op->getNumOperands() >= d->numSrcs;
    for (unsigned s = 0, oi = 0; oi < op->getNumOperands(); ++s) {
      if (d && (int)s == opt && !optPresent)
        continue;
      Value v = op->getOperand(oi++);
      const ISA::OperandDesc *od = d && s < d->numSrcs ? &d->srcs()[s] : nullptr;
      if (Operation *def = v.getDefiningOp()) {
        auto it = index.find(def);
        if (it != index.end()) {
          const Node &p = r.nodes[it->second];
          bool srcC = node.unit == Unit::MFMA && p.unit == Unit::MFMA && od &&
                      (od->tiedTo >= 0 || StringRef(od->name) == "src2");
          addEdge(it->second, i, srcC ? p.forward : p.latency);
        }
      }
      // Overwriting a value in place: its other readers come first.
      if (od && od->tiedTo >= 0)
        for (Operation *user : v.getUsers()) {
          auto it = index.find(user);
          if (it != index.end() && it->second < i)
            addEdge(it->second, i, 0);
        }
    }
    if (!d)
      continue;

    // Hardware registers.
    hazards::InstFacts f = hazards::describe(op, targetBit);
    bool vector = node.unit == Unit::VALU || node.unit == Unit::TRANS ||
                  node.unit == Unit::MFMA || node.unit == Unit::VMEM ||
                  node.unit == Unit::LDS;
    if (vector) // exec_lo, exec_hi
      f.reads.push_back({{hazards::RegFile::Special, 2, 3}, hazards::ReadRole::Implicit});
    for (const hazards::Read &rd : f.reads) {
      unsigned base = unitBase(rd.reg.file);
      for (unsigned u = base + rd.reg.lo; u <= base + rd.reg.hi && u < kUnits; ++u) {
        fresh(u);
        if (lastWriter[u] >= 0) {
          const Node &p = r.nodes[lastWriter[u]];
          addEdge(lastWriter[u], i, rd.role == hazards::ReadRole::SrcC ? p.forward : p.latency);
        }
        readers[u].push_back(i);
      }
    }
    for (const hazards::RegRange &w : f.writes) {
      unsigned base = unitBase(w.file);
      for (unsigned u = base + w.lo; u <= base + w.hi && u < kUnits; ++u) {
        fresh(u);
        if (lastWriter[u] >= 0)
          addEdge(lastWriter[u], i, 0);
        for (uint32_t rd : readers[u])
          addEdge(rd, i, 0);
        readers[u].clear();
        lastWriter[u] = i;
      }
    }

    // Memory order per space: a load after the last store it may alias
    // (stores are in order, so after all before it too); a store after
    // the previous store and every earlier load it may alias.
    MemAccess m = memAccess(*d);
    if (m.loads | m.stores)
      addr[i] = addressOf(op, *d);
    for (unsigned sp = 0; sp < 3; ++sp) {
      uint8_t bit = 1 << sp;
      if (m.stores & bit) {
        if (!stores[sp].empty())
          addEdge(stores[sp].back(), i, 0);
        auto &ls = loads[sp];
        size_t keep = 0;
        for (size_t k = 0; k < ls.size(); ++k) {
          // Past the window, loads are ordered anyway (bounded work).
          if (ls.size() - k > kWindow || !disjoint(addr[ls[k]], addr[i]))
            addEdge(ls[k], i, 0);
          else
            ls[keep++] = ls[k];
        }
        ls.resize(keep);
        stores[sp].push_back(i);
        if (stores[sp].size() > kWindow) {
          stores[sp].erase(stores[sp].begin());
          olderStores[sp] = true;
        }
      } else if (m.loads & bit) {
        auto &st = stores[sp];
        size_t k = st.size();
        while (k > 0 && disjoint(addr[st[k - 1]], addr[i]))
          --k;
        if (k > 0)
          addEdge(st[k - 1], i, 0);
        else if (olderStores[sp])
          addEdge(st.front(), i, 0);
        loads[sp].push_back(i);
      }
    }
  }
}

} // namespace aster::sched
