//===- Waitcnt.cpp - s_waitcnt insertion over the CFG ----------------------===//
//
// A forward dataflow over the kernel's blocks. Per counter c the walk keeps
// ub[c] (ordered instructions of c issued so far) and lb[c] (those known to
// have completed); a tracked unit (a hardware register, or before
// allocation a virtual value) pending on c holds the ub[c] of the
// instruction that writes it. It has completed once lb[c] reaches that
// number; to read it, a wait for c of ub[c] - seq (the ordered instructions
// issued after it, which are certainly still in flight while it is) is
// enough. Unordered pending writes need a wait of 0.
//
// Block entry states are kept relative (ages ub - seq, pending counts
// ub - lb), capped at the counter maxima, so that merging predecessors
// (union of pending writes, smallest age, largest pending count) reaches a
// fixpoint around loops. The walk of a block decides its waits from its
// entry state alone, so the fixpoint walks and the inserting walk agree.
//
// Before the fixpoint, loops whose reads of a VGPR loaded before them would
// wait in every iteration for the loop's own stores (gfx9: stores count on
// vmcnt, in order) get vmcnt(0) once at the end of their preheader
// (preheaderFlushes in WaitcntPreheader.cpp, after LLVM's
// SIInsertWaitcnts::shouldFlushVmCnt); the analysis then runs again with
// those waits as written ones. The walk's types (OpInfo, BlockState,
// Analysis) are in WaitcntAnalysis.h; this file fills them from the kernel,
// runs the fixpoint and inserts the waits.
//
//===----------------------------------------------------------------------===//
#include "transforms/Waitcnt.h"
#include "transforms/HazardRules.h"
#include "transforms/WaitcntAnalysis.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace aster::amdgcn;
using namespace aster::waitcnt;

namespace aster {

namespace {
using hazards::RegFile;
using hazards::RegRange;

unsigned unitBase(RegFile f) {
  switch (f) {
  case RegFile::V: return 0;
  case RegFile::A: return kBaseA;
  case RegFile::S: return kBaseS;
  case RegFile::Special: return kBaseSpecial;
  }
  return 0;
}
unsigned unitLimit(RegFile f) {
  switch (f) {
  case RegFile::V: return kBaseA;
  case RegFile::A: return kBaseS;
  case RegFile::S: return kBaseSpecial;
  case RegFile::Special: return kLdsDma;
  }
  return 0;
}

/// Adds `from` (a predecessor's tail) to `into`. True if `into` changed.
/// `out` is scratch space (swapped with into.entries).
bool merge(BlockState &into, const BlockState &from, std::vector<Entry> &out) {
  if (!into.reached) {
    into = from;
    into.reached = true;
    return true;
  }
  bool changed = false;
  for (unsigned c = 0; c < kMaxCounters; ++c)
    if (from.pend[c] > into.pend[c]) {
      into.pend[c] = from.pend[c];
      changed = true;
    }
  if ((into.anyUnord | from.anyUnord) != into.anyUnord || (from.flatLds && !into.flatLds) ||
      (into.unknown | from.unknown) != into.unknown)
    changed = true;
  into.anyUnord |= from.anyUnord;
  into.unknown |= from.unknown;
  into.flatLds |= from.flatLds;
  out.clear();
  auto a = into.entries.begin(), ae = into.entries.end();
  auto b = from.entries.begin(), be = from.entries.end();
  while (a != ae || b != be) {
    if (b == be || (a != ae && a->unit < b->unit)) {
      out.push_back(*a++);
    } else if (a == ae || b->unit < a->unit) {
      out.push_back(*b++);
      changed = true;
    } else {
      Entry e = *a;
      for (unsigned c = 0; c < kMaxCounters; ++c)
        e.age[c] = std::min(e.age[c], b->age[c]);
      e.unord |= b->unord;
      changed |= !(e == *a);
      out.push_back(e);
      ++a, ++b;
    }
  }
  into.entries.swap(out);
  return changed;
}

/// The wait counts an existing wait instruction states.
void readWait(Operation *op, const ISA::InstDesc &d, const Model &m, uint8_t *w) {
  std::fill_n(w, kMaxCounters, kNone);
  auto count = [&](StringRef attr) -> uint8_t {
    auto a = op->getAttrOfType<IntegerAttr>(attr);
    return a ? (uint8_t)std::min<int64_t>(a.getInt(), 254) : kNone;
  };
  if (!m.split) {
    for (unsigned c = 0; c < m.numCounters; ++c)
      w[c] = count(m.name[c]);
    return;
  }
  int c = m.counter(StringRef(d.mnemonic).drop_front(strlen("s_wait_")));
  if (c >= 0) {
    uint8_t n = count("imm");
    w[c] = n == kNone ? 0 : n; // an absent immediate is 0
  }
}
} // namespace

FailureOr<WaitcntStats> insertWaits(Operation *kernel) {
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : 0;
  Model m = Model::get(target);
  WaitcntStats stats;
  for (unsigned c = 0; c < m.numCounters; ++c)
    stats.perCounter.push_back({m.name[c], 0});
  if (!m.numCounters)
    return stats;
  Region &body = kernel->getRegion(0);
  // The AMDGPU calling convention as LLVM's SIInsertWaitcnts implements it
  // (LLVM 22, gfx942: clang-22 puts `s_waitcnt vmcnt(0) expcnt(0)
  // lgkmcnt(0)` first in every non-kernel function): a callee waits at its
  // entry for everything its caller may have in flight and, before it
  // returns (s_setpc_b64), for everything it has in flight; a caller waits
  // before s_swappc_b64 only for the registers the call reads or writes
  // (target and return address), and nothing is in flight after it. On
  // gfx1201 storecnt is not waited for at a function's entry nor assumed
  // zero after a call (LLVM leaves STORE_CNT out of both).
  const ISA::InstDesc *swappc = ISA::lookup("s_swappc_b64"),
                      *setpc = ISA::lookup("s_setpc_b64");


  Analysis an(m);
  llvm::DenseMap<Value, uint32_t> valueUnit;
  auto unitOfValue = [&](Value v) -> uint32_t {
    if (auto p = v.getDefiningOp<PartOp>())
      v = p.getSource(); // reading a part reads the range's registers
    auto [it, fresh] = valueUnit.try_emplace(v, an.numUnits);
    if (fresh)
      ++an.numUnits;
    return it->second;
  };
  auto isVirtual = [](Type t) {
    auto r = dyn_cast<RegType>(t);
    return r && r.isVirtual();
  };
  auto addRange = [&](const RegRange &r) {
    unsigned base = unitBase(r.file), lim = unitLimit(r.file);
    for (unsigned i = r.lo; i <= r.hi && base + i < lim; ++i)
      an.units.push_back(base + i);
  };
  std::vector<int16_t> evCache(ISA::instructions().size(), -1);
  std::vector<Events> evStore;
  bool ok = true;
  for (Block &b : body) {
    unsigned begin = an.ops.size();
    for (Operation &op : llvm::make_early_inc_range(b)) {
      const ISA::InstDesc *d = getInstDesc(&op);
      // amdgcn-regalloc's own waits go: this analysis places them.
      if (d && d->has(ISA::PROP_WAITCNT) && op.hasAttr(kSpillWaitAttr)) {
        op.erase();
        ++stats.replaced;
        continue;
      }
      OpInfo o{};
      o.op = &op;
      o.first = an.units.size();
      if (!d && op.getName().getStringRef() == "amdgcn.data") {
        // Raised code kept as text: read from its text; if no row of the
        // table names it, it waits for everything in flight (what it
        // accesses is unknown). Data words without text do not execute.
        auto text = op.getAttrOfType<StringAttr>("text");
        SmallVector<RegRange, 4> reads, writes;
        const ISA::InstDesc *row =
            text ? describeText(text.getValue(), reads, writes) : nullptr;
        if (text && !row)
          o.kind = Kind::Opaque;
        if (row) {
          std::string missing;
          m.events(*row, o.ev, missing);
          o.flat = row->enc == ISA::Enc::FLAT;
          for (const RegRange &r : reads)
            addRange(r);
          hazards::addImplicit(row->implicitUses, addRange);
          o.nReads = an.units.size() - o.first;
          for (const RegRange &r : writes)
            addRange(r);
          hazards::addImplicit(row->implicitDefs, addRange);
          o.nWrites = an.units.size() - o.first - o.nReads;
        }
        an.ops.push_back(o);
        continue;
      }
      if (d) {
        int16_t &ci = evCache[d->index()];
        if (ci < 0) {
          Events e;
          std::string missing;
          if (!m.events(*d, e, missing)) {
            op.emitOpError("counts on ")
                << missing << ", which " << ISA::targetName(target)
                << " has no wait instruction for in aster's table (amdgcn-waitcnt)";
            ok = false;
          }
          ci = evStore.size();
          evStore.push_back(e);
        }
        o.ev = evStore[ci];
        o.flat = d->enc == ISA::Enc::FLAT;
        if (d->has(ISA::PROP_WAITCNT)) {
          o.kind = Kind::Wait;
          readWait(&op, *d, m, o.wait);
          ++stats.author;
        } else if (d->has(ISA::PROP_BARRIER)) {
          o.kind = Kind::Barrier;
        } else if (d == setpc) { // a return (a terminator, but not the end)
          o.kind = Kind::Opaque;
        } else if (d == swappc) {
          o.kind = Kind::Call;
        } else if (d->has(ISA::PROP_TERMINATOR) && !d->successors) {
          o.kind = Kind::End;
        }
      }
      // Reads: an instruction's sources in registers (its branch operands
      // are not read once allocated) and implicit uses; virtual values read
      // by any op (a copy may be made there), a part by its range.
      bool branch = d && d->successors;
      for (Value v : op.getOperands()) {
        if (isVirtual(v.getType())) {
          if (!isa<PartOp>(op))
            an.units.push_back(unitOfValue(v));
        } else if (d && !branch) {
          if (auto r = hazards::rangeOf(v.getType()))
            addRange(*r);
        }
      }
      if (d) {
        hazards::addImplicit(d->implicitUses, addRange);
        if (d->enc == ISA::Enc::DS || o.kind == Kind::Barrier)
          an.units.push_back(kLdsDma);
      }
      o.nReads = an.units.size() - o.first;
      for (Value res : op.getResults()) {
        if (isVirtual(res.getType())) {
          if (isa<PartOp>(op))
            continue;
          an.units.push_back(unitOfValue(res));
          if (o.ev.any() && res.use_empty())
            o.deadDef = true;
        } else if (d) {
          if (auto r = hazards::rangeOf(res.getType()))
            addRange(*r);
        }
      }
      if (d) {
        hazards::addImplicit(d->implicitDefs, addRange);
        if (d->has(ISA::PROP_VMEM) && d->has(ISA::PROP_LDS))
          an.units.push_back(kLdsDma);
      }
      o.nWrites = an.units.size() - o.first - o.nReads;
      an.ops.push_back(o);
    }
    an.blockOps.push_back({begin, (unsigned)an.ops.size()});
  }
  if (!ok)
    return failure();
  an.seq.assign((size_t)an.numUnits * kMaxCounters, 0);
  an.unord.assign(an.numUnits, 0);
  an.touched.assign(an.numUnits, 0);

  // Entry states to a fixpoint (ages only shrink, pending counts and sets
  // only grow, all bounded by the counter maxima): blocks are walked in
  // region order, again only when their entry state changed. Each walk
  // records the waits it decides; a block's last walk had its final entry
  // state, so its record is what gets inserted.
  unsigned numBlocks = an.blockOps.size();
  llvm::DenseMap<Block *, unsigned> blockIndex;
  blockIndex.reserve(numBlocks);
  std::vector<Block *> blocks;
  for (Block &b : body) {
    blockIndex[&b] = blocks.size();
    blocks.push_back(&b);
  }
  // Loop preheaders where vmcnt is flushed once (preheaderFlushes): the
  // waits go in, then the analysis runs again with them as written ones.
  if (SmallVector<Operation *> terms = preheaderFlushes(an, m, blocks, blockIndex);
      !terms.empty()) {
    OpBuilder fb(kernel->getContext());
    OperationName waitName = getInstOpName(kernel->getContext(), *ISA::lookup("s_waitcnt"));
    for (Operation *term : terms) {
      fb.setInsertionPoint(term);
      OperationState st(term->getLoc(), waitName);
      st.addAttribute("vmcnt", fb.getI32IntegerAttr(0));
      st.addAttribute(kFlushAttr, fb.getUnitAttr());
      fb.create(st);
    }
    FailureOr<WaitcntStats> again = insertWaits(kernel);
    kernel->walk([](Operation *op) { op->removeAttr(kFlushAttr); });
    if (succeeded(again)) {
      again->replaced += stats.replaced;
      again->inserted += terms.size();
      again->author -= terms.size();
      int vm = m.counter("vmcnt");
      again->perCounter[vm].second += terms.size();
    }
    return again;
  }
  std::vector<BlockState> entry(numBlocks);
  std::vector<uint8_t> dirty(numBlocks, 0);
  struct Decision {
    unsigned op;
    uint8_t need[kMaxCounters];
  };
  // Waits decided, by walk; a block's last walk is recorded[bi].
  std::vector<Decision> decided;
  std::vector<std::pair<unsigned, unsigned>> recorded(numBlocks, {0, 0});
  BlockState t;
  std::vector<Entry> scratch;
  if (numBlocks) {
    entry[0].reached = true;
    if (isa<DeviceFunctionOp>(kernel))
      entry[0].unknown = an.callMask;
    dirty[0] = 1;
  }
  for (bool again = numBlocks > 0; again;) {
    again = false;
    for (unsigned bi = 0; bi < numBlocks; ++bi) {
      if (!dirty[bi])
        continue;
      dirty[bi] = 0;
      unsigned first = decided.size();
      auto [begin, end] = an.blockOps[bi];
      an.walk(entry[bi], begin, end, t, [&](unsigned i, const uint8_t *need) {
        Decision d{i, {}};
        std::copy(need, need + kMaxCounters, d.need);
        decided.push_back(d);
      });
      recorded[bi] = {first, (unsigned)decided.size()};
      for (Block *succ : blocks[bi]->getSuccessors()) {
        unsigned si = blockIndex[succ];
        if (merge(entry[si], t, scratch)) {
          dirty[si] = 1;
          again |= si <= bi; // an earlier block: another sweep
        }
      }
    }
  }

  // Insertion of the recorded waits (unreachable blocks have none: nothing
  // is known to be in flight there).
  MLIRContext *ctx = kernel->getContext();
  OpBuilder builder(ctx);
  const ISA::InstDesc *gfx9Wait = ISA::lookup("s_waitcnt");
  SmallVector<OperationName, kMaxCounters> splitWait;
  if (m.split)
    for (unsigned c = 0; c < m.numCounters; ++c)
      splitWait.push_back(getInstOpName(ctx, *ISA::lookup("s_wait_" + m.name[c])));
  OperationName gfx9Name = gfx9Wait ? getInstOpName(ctx, *gfx9Wait) : OperationName("", ctx);
  StringAttr imm = builder.getStringAttr("imm");
  SmallVector<StringAttr, kMaxCounters> fieldName;
  for (unsigned c = 0; c < m.numCounters; ++c)
    fieldName.push_back(builder.getStringAttr(m.name[c]));
  // The attribute dictionaries of the waits, made once each.
  llvm::DenseMap<uint64_t, DictionaryAttr> dicts;
  auto dictFor = [&](ArrayRef<NamedAttribute> attrs) {
    uint64_t key = 0;
    for (const NamedAttribute &a : attrs) {
      unsigned c = a.getName() == imm ? kMaxCounters
                                      : llvm::find(fieldName, a.getName()) - fieldName.begin();
      key = key * 1024 + (c + 1) * 256 + cast<IntegerAttr>(a.getValue()).getInt();
    }
    DictionaryAttr &d = dicts[key];
    if (!d)
      d = builder.getDictionaryAttr(attrs);
    return d;
  };
  for (auto [first, last] : recorded)
    for (const Decision &d : ArrayRef<Decision>(decided).slice(first, last - first)) {
      Operation *before = an.ops[d.op].op;
      builder.setInsertionPoint(before);
      auto make = [&](OperationName name, ArrayRef<NamedAttribute> attrs) {
        OperationState st(before->getLoc(), name);
        st.attributes = NamedAttrList(dictFor(attrs));
        builder.create(st);
        ++stats.inserted;
      };
      SmallVector<NamedAttribute, kMaxCounters> fields;
      for (unsigned c = 0; c < m.numCounters; ++c) {
        if (d.need[c] == kNone)
          continue;
        ++stats.perCounter[c].second;
        IntegerAttr n = builder.getI32IntegerAttr(d.need[c]);
        if (m.split)
          make(splitWait[c], NamedAttribute(imm, n));
        else
          fields.push_back(NamedAttribute(fieldName[c], n));
      }
      if (!fields.empty())
        make(gfx9Name, fields);
    }
  return stats;
}

} // namespace aster
