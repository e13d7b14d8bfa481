//===- SchedulePass.cpp - the amdgcn-schedule pass -----------------------===//
#include "transforms/Schedule.h"

#include "transforms/KernelList.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

const char *const kScheduleDoc =
    "Reorders the instructions inside each basic block of every "
    "amdgcn.kernel and amdgcn.device_function by list scheduling on the timing model's machine facts "
    "(emulator/timing/Costs.h and Params.h: one instruction per 4-cycle issue "
    "turn, VALU 4 cycles, transcendentals 16, MFMA passes x 4 on the matrix "
    "core with results 4 cycles later and srcC forwarding, SMEM 64, LDS 65, "
    "vector memory planned as an L2 hit, 250).\n"
    "Needs before: nothing; meant before amdgcn-regalloc, on virtual "
    "registers (SSA values give it freedom; allocated and special registers "
    "are followed by register, so it also works after allocation), and "
    "before amdgcn-waitcnt and amdgcn-hazards (written waits and s_nops are "
    "fences). Intended pipeline: amdgcn-schedule,amdgcn-regalloc,"
    "amdgcn-waitcnt,amdgcn-hazards.\n"
    "Guarantees after: each block holds the same ops; only ops of one region "
    "(between fences: s_waitcnt, s_barrier, s_nop, s_sleep, instructions with "
    "side effects, branches (calls s_swappc_b64 and returns s_setpc_b64 "
    "too), s_getpc_b64 and the instructions with a PC-relative relocation "
    "literal (its addend counts from the s_getpc_b64), "
    "amdgcn.sched_barrier, amdgcn.data, the terminator) change places, and each stays after every op it depends "
    "on: SSA definitions, readers of a value before its in-place (tied) "
    "overwrite, hardware registers (read after write, write after read, "
    "write after write; implicit scc/vcc/exec/m0 of the table, exec for "
    "every vector instruction), memory per address space (global with "
    "scalar and buffer accesses, LDS, scratch; FLAT in global and LDS): "
    "stores and atomics stay in order, no store passes an earlier load and no "
    "load an earlier store of its space that it may alias (accesses through "
    "the same SSA address values, virtual registers or constants, whose "
    "bytes from offset and data width are apart do not alias; atomics, FLAT, "
    "buffers and read2/write2 always may). Regions after `amdgcn.sched_barrier {freeze}` (Python: "
    "`with k.no_reorder()`) keep their order. A region whose new order the "
    "estimate finds slower than the written one is left as written. "
    "sched_barrier ops stay (they emit nothing). Records `schedule = "
    "{cycles_before, cycles_after, vgpr_maxlive_before, vgpr_maxlive_after, "
    "sgpr_..., agpr_..., regions, frozen, moved}` on each kernel and device "
    "function: the "
    "estimated cycles of one wave issuing every block once (each region "
    "alone, fences one turn each), MaxLive of virtual registers per class.\n"
    "Options: mode=latency (default: critical path first, register pressure "
    "only past the limits) or mode=pressure (fewest added live registers "
    "first); seed=N (0: ties keep the written order; otherwise broken by a "
    "hash of N); max-vgprs, max-sgprs, max-agprs (live registers of virtual "
    "values the scheduler avoids exceeding; defaults 128, 96, 256).";

namespace {
struct SchedulePass : PassWrapper<SchedulePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SchedulePass)
  SchedulePass() = default;
  SchedulePass(const SchedulePass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "amdgcn-schedule"; }
  StringRef getDescription() const override { return kScheduleDoc; }

  Option<std::string> mode{*this, "mode",
                           llvm::cl::desc("latency (default) or pressure"),
                           llvm::cl::init("latency")};
  Option<uint64_t> seed{*this, "seed", llvm::cl::desc("tie-breaking seed (0: written order)"),
                        llvm::cl::init(0)};
  Option<unsigned> maxVgprs{*this, "max-vgprs", llvm::cl::desc("live VGPR limit"),
                            llvm::cl::init(128)};
  Option<unsigned> maxSgprs{*this, "max-sgprs", llvm::cl::desc("live SGPR limit"),
                            llvm::cl::init(96)};
  Option<unsigned> maxAgprs{*this, "max-agprs", llvm::cl::desc("live AGPR limit"),
                            llvm::cl::init(256)};

  void runOnOperation() override {
    if (mode != "latency" && mode != "pressure") {
      getOperation()->emitError("amdgcn-schedule: mode must be 'latency' or 'pressure', got '")
          << mode << "'";
      return signalPassFailure();
    }
    SmallVector<Operation *> kernels = codeUnder(getOperation());
    ScheduleOptions opts;
    opts.pressureFirst = mode == "pressure";
    opts.seed = seed;
    opts.maxLive[0] = maxVgprs;
    opts.maxLive[1] = maxSgprs;
    opts.maxLive[2] = maxAgprs;
    bool ok = true;
    for (Operation *k : kernels) {
      FailureOr<ScheduleStats> st = scheduleKernel(k, opts);
      if (failed(st)) {
        ok = false;
        continue;
      }
      Builder b(k->getContext());
      SmallVector<NamedAttribute> fields;
      auto add = [&](StringRef n, uint64_t v) {
        fields.push_back(b.getNamedAttr(n, b.getI64IntegerAttr(v)));
      };
      add("cycles_before", st->cyclesBefore);
      add("cycles_after", st->cyclesAfter);
      const char *names[3] = {"vgpr", "sgpr", "agpr"};
      for (int c = 0; c < 3; ++c) {
        add(std::string(names[c]) + "_maxlive_before", st->maxLiveBefore[c]);
        add(std::string(names[c]) + "_maxlive_after", st->maxLiveAfter[c]);
      }
      add("regions", st->regions);
      add("frozen", st->frozen);
      add("moved", st->moved);
      k->setAttr("schedule", b.getDictionaryAttr(fields));
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void registerSchedulePass() { PassRegistration<SchedulePass>(); }

} // namespace aster
