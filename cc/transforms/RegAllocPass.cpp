//===- RegAllocPass.cpp - the amdgcn-regalloc pass -----------------------===//
#include "transforms/RegAlloc.h"

#include "transforms/KernelList.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

const char *const kRegAllocDoc =
    "Allocates the virtual registers of every amdgcn.kernel. An "
    "amdgcn.device_function is not allocated (its registers follow the "
    "calling convention): one that names a virtual register is an error at "
    "that op; allocated ones (as raised) are left as they are.\n"
    "Needs before: SSA instruction ops (amdgcn instructions, amdgcn.reg/undef/"
    "part/concat, constants, cf.br) on virtual (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 4>, "
    "...) and/or pinned (allocated-type) registers inside amdgcn.kernel; blocks "
    "may take register block arguments (loops). Pinned registers are kept: a "
    "virtual value never takes a register a pinned one needs while it is live.\n"
    "Guarantees after: every register is allocated (the kernel is marked "
    "`allocated` and the verifier rejects virtual registers in it); the order "
    "of the instructions is unchanged; moves are added only for a tied operand "
    "whose source stays live, on a branch edge whose value and block argument "
    "ended in different registers (critical edges split), and moves between "
    "virtual registers that ended in one register are removed; spill code "
    "(saves, reloads, and an s_waitcnt before saving a load's result that "
    "must leave its register before its first use) is inserted when a class "
    "runs out (32-bit VGPRs to AGPRs then scratch; VGPR ranges, AGPRs and "
    "AGPR ranges of any width to scratch, saved and reloaded whole; SGPRs and "
    "SGPR ranges to lanes of a VGPR); scratch slots whose lifetimes do not "
    "overlap share bytes, and the private segment grows by what they take; "
    "spill code gets the wait states hazards need where it is one of the two "
    "instructions (insertHazardNops, see amdgcn-hazards; the program's own "
    "hazards are left as written). It ends: each value is spilled at "
    "most once (a spill frees a register where it is chosen, or is an operand "
    "of the op whose range result cannot fit), and where none can be freed the "
    "op gets a diagnostic. Records "
    "`regalloc = {vgpr, vgpr_maxlive, sgpr, sgpr_maxlive, agpr, agpr_maxlive, "
    "spills, scratch_spills, scratch_bytes, copies, spill_nops}` on the kernel (registers used = highest index + 1) and "
    "emits the same as a remark.\n"
    "Options: max-vgprs, max-sgprs, max-agprs (registers the allocator may use; "
    "default: the target's).";

namespace {
struct RegAllocPass : PassWrapper<RegAllocPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RegAllocPass)
  RegAllocPass() = default;
  RegAllocPass(const RegAllocPass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "amdgcn-regalloc"; }
  StringRef getDescription() const override { return kRegAllocDoc; }

  Option<unsigned> maxVgprs{*this, "max-vgprs",
                            llvm::cl::desc("VGPRs the allocator may use"),
                            llvm::cl::init(256)};
  Option<unsigned> maxSgprs{*this, "max-sgprs",
                            llvm::cl::desc("SGPRs the allocator may use"),
                            llvm::cl::init(106)};
  Option<unsigned> maxAgprs{*this, "max-agprs",
                            llvm::cl::desc("AGPRs the allocator may use"),
                            llvm::cl::init(256)};

  void runOnOperation() override {
    SmallVector<KernelOp> kernels = kernelsUnder(getOperation());
    // Device functions: their registers are the calling convention's (and
    // raised ones are allocated); one with a virtual register is an error.
    bool functionsOk = true;
    for (Operation *code : codeUnder(getOperation()))
      if (isa<DeviceFunctionOp>(code))
        if (Operation *op = firstVirtualOp(code)) {
          op->emitOpError("names a virtual register in amdgcn.device_function '")
              << SymbolTable::getSymbolName(code).getValue()
              << "': amdgcn-regalloc allocates kernels only (a device function's "
                 "registers follow the calling convention: write it on physical "
                 "registers, or as an amdgcn.func that is inlined)";
          functionsOk = false;
        }
    if (!functionsOk)
      signalPassFailure();
    RegAllocOptions opts;
    opts.maxRegs[(int)RegKind::VGPR] = maxVgprs;
    opts.maxRegs[(int)RegKind::SGPR] = maxSgprs;
    opts.maxRegs[(int)RegKind::AGPR] = maxAgprs;
    bool ok = true;
    for (KernelOp k : kernels) {
      if (k->hasAttr("allocated"))
        continue;
      FailureOr<RegAllocStats> st = allocateRegisters(k, opts);
      if (failed(st)) {
        ok = false;
        continue;
      }
      Builder b(k.getContext());
      SmallVector<NamedAttribute> fields;
      auto add = [&](StringRef n, unsigned v) {
        fields.push_back(b.getNamedAttr(n, b.getI32IntegerAttr(v)));
      };
      const char *names[3] = {"vgpr", "sgpr", "agpr"};
      for (int c = 0; c < 3; ++c) {
        add(names[c], st->used[c]);
        add(std::string(names[c]) + "_maxlive", st->maxLive[c]);
      }
      add("spills", st->spills);
      add("scratch_spills", st->scratchSpills);
      add("scratch_bytes", st->scratchBytes);
      add("copies", st->copies);
      add("spill_nops", st->hazardNops);
      k->setAttr("regalloc", b.getDictionaryAttr(fields));
      k->setAttr("allocated", b.getUnitAttr());
      // At the kernel's location, not the op: printing the op with the
      // remark (aster-opt's default) costs more than allocating it.
      mlir::emitRemark(k.getLoc()) << "register allocation: vgpr " << st->used[0] << " (maxlive "
                     << st->maxLive[0] << "), sgpr " << st->used[1] << " (maxlive "
                     << st->maxLive[1] << "), agpr " << st->used[2] << " (maxlive "
                     << st->maxLive[2] << "), spills " << st->spills << ", copies "
                     << st->copies;
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void registerRegAllocPass() { PassRegistration<RegAllocPass>(); }

} // namespace aster
