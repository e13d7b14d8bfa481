//===- WaitcntPass.cpp - the amdgcn-waitcnt pass -------------------------===//
#include "transforms/Waitcnt.h"

#include "transforms/KernelList.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

const char *const kWaitcntDoc =
    "Inserts the waits for memory results (s_waitcnt on gfx942/gfx950, "
    "s_wait_loadcnt/storecnt/kmcnt/dscnt on gfx1201) in every amdgcn.kernel "
    "and amdgcn.device_function.\n"
    "Needs before: nothing; it runs before or after amdgcn-regalloc. On "
    "allocated registers it tracks hardware registers (a register is pending "
    "from a memory instruction writing it until a wait covers it); on virtual "
    "registers it tracks values (and a load result nobody reads is waited for "
    "at the next op, since the allocator may reuse its register). The intended "
    "pipeline is amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards: after "
    "allocation it also places the waits of the allocator's spill reloads, "
    "whose own s_waitcnt vmcnt(0) (marked spill_wait) it removes.\n"
    "Guarantees after: every read of a register (or value) a memory "
    "instruction writes, and every overwrite of it by a non-memory "
    "instruction or by a memory instruction of another counter or order, "
    "comes after a wait that covers it: on the counters the instruction "
    "increments (table props VMCNT/LGKMCNT/EXPCNT), with count N = the "
    "accesses of the same in-order stream issued after it (VMEM loads and "
    "stores in order on vmcnt, LDS in order on lgkmcnt), 0 for out-of-order "
    "ones (SMEM; FLAT on vmcnt and lgkmcnt), at most max-1 (a counter "
    "saturates at its maximum). The wait is placed right before the first "
    "such instruction, counts the waits already there (the author's waits "
    "are never removed or changed), and merges all predecessors at a block "
    "start (to a fixpoint around loops). A loop that stores to vector memory, "
    "loads none and reads a VGPR loaded before it gets one vmcnt(0) at the end "
    "of its preheader instead of a wait in every iteration (gfx9 counts "
    "stores on vmcnt; LLVM's SIInsertWaitcnts shouldFlushVmCnt). s_barrier waits for LDS accesses in "
    "flight (lgkmcnt(0)) so LDS data written before it is seen by the other "
    "waves; s_endpgm needs no wait. Calls follow the AMDGPU calling "
    "convention as LLVM 22 implements it: a device function waits first "
    "for everything its caller may have in flight (s_waitcnt vmcnt(0) "
    "expcnt(0) lgkmcnt(0) on gfx942/gfx950, as clang-22 puts at every "
    "non-kernel function's entry; on gfx1201 every counter but storecnt) "
    "unless the author's waits there already do, and before a return "
    "(s_setpc_b64) for everything in flight; a call (s_swappc_b64) waits "
    "only for the registers it reads or writes (target and return address), "
    "and nothing is in flight after it. An "
    "amdgcn.data op kept by raising is read "
    "from its text (the table row of its mnemonic: counters, destinations, "
    "sources); one whose mnemonic no row names waits for everything in flight. Records `waitcnt = {inserted, replaced, "
    "author, <counter>...}` on each kernel and device function (waits inserted, regalloc spill "
    "waits replaced, waits already there, inserted waits naming each counter).\n"
    "A gfx1201 instruction that counts on a counter without a wait instruction "
    "in the table is an error at the op.";

namespace {
struct WaitcntPass : PassWrapper<WaitcntPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WaitcntPass)
  StringRef getArgument() const override { return "amdgcn-waitcnt"; }
  StringRef getDescription() const override { return kWaitcntDoc; }

  void runOnOperation() override {
    SmallVector<Operation *> code = codeUnder(getOperation());
    bool ok = true;
    for (Operation *k : code) {
      FailureOr<WaitcntStats> st = insertWaits(k);
      if (failed(st)) {
        ok = false;
        continue;
      }
      Builder b(k->getContext());
      SmallVector<NamedAttribute> fields;
      auto add = [&](StringRef n, unsigned v) {
        fields.push_back(b.getNamedAttr(n, b.getI32IntegerAttr(v)));
      };
      add("inserted", st->inserted);
      add("replaced", st->replaced);
      add("author", st->author);
      for (auto &[name, n] : st->perCounter)
        add(name, n);
      k->setAttr("waitcnt", b.getDictionaryAttr(fields));
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void registerWaitcntPass() { PassRegistration<WaitcntPass>(); }

} // namespace aster
