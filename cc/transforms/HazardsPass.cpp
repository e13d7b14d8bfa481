//===- HazardsPass.cpp - the amdgcn-hazards pass -------------------------===//
#include "transforms/Hazards.h"

#include "transforms/KernelList.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

const char *const kHazardsDoc =
    "Inserts s_nop wait states between dependent instructions the hardware "
    "does not interlock, in every amdgcn.kernel and amdgcn.device_function "
    "of a gfx942 or gfx950 module "
    "(gfx1201 kernels are left unchanged: no rules yet).\n"
    "Needs before: allocated kernels (every register physical, e.g. after "
    "amdgcn-regalloc); a virtual register is an error at its op (in a "
    "device function too: amdgcn-regalloc does not allocate those).\n"
    "Guarantees after: every covered hazard has its wait states (MFMA result "
    "then VALU / v_accvgpr_read / memory read, MFMA srcA/B/srcC read, "
    "overwrite of an MFMA result or srcC; VALU write of a VGPR/AGPR or exec "
    "then MFMA; VALU write of an SGPR/vcc then VMEM read, VALU read, "
    "v_readlane/v_writelane lane select, v_div_fmas; VALU write of exec then "
    "v_readlane/v_readfirstlane/v_writelane, of a VGPR then v_readlane/"
    "v_readfirstlane; SALU write of m0 then LDS add-TID/"
    "LDS DMA; wide VMEM store then overwrite of its data; a VMEM/SMEM soft "
    "clause reading a register it writes; before a call or return "
    "(s_swappc_b64, s_setpc_b64) every pending hazard, so functions start "
    "and calls return with none), counting the "
    "instructions and s_nops already between them and, at a block start, "
    "the worst case over its predecessors; instruction order is otherwise "
    "unchanged (only s_nop ops are added). Records `hazard_nops` (s_nop ops "
    "inserted) on each kernel and device function.\n"
    "Options: only (mnemonics; default all): pad only the hazards one of "
    "whose two instructions has one of these mnemonics.";

namespace {
struct HazardsPass : PassWrapper<HazardsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(HazardsPass)
  HazardsPass() = default;
  HazardsPass(const HazardsPass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "amdgcn-hazards"; }
  StringRef getDescription() const override { return kHazardsDoc; }

  ListOption<std::string> only{
      *this, "only",
      llvm::cl::desc("pad only hazards involving these mnemonics (default: all)")};

  void runOnOperation() override {
    SmallVector<Operation *> kernels = codeUnder(getOperation());
    bool ok = true;
    for (Operation *k : kernels) {
      if (Operation *op = firstVirtualOp(k)) {
        // Device functions are not allocated by amdgcn-regalloc (their
        // registers are the calling convention's): one on virtual registers
        // is an error too, not skipped.
        if (isa<DeviceFunctionOp>(k))
          op->emitOpError("names a virtual register: amdgcn-hazards needs an "
                          "allocated kernel or device function (a device "
                          "function is written on physical registers)");
        else
          op->emitOpError("names a virtual register: amdgcn-hazards needs an "
                          "allocated kernel (run amdgcn-regalloc first)");
        ok = false;
        continue;
      }
      auto mayPad = [&](Operation *op) {
        if (only.empty())
          return true;
        const ISA::InstDesc *d = getInstDesc(op);
        return d && llvm::is_contained(only, StringRef(d->mnemonic));
      };
      unsigned n = insertHazardNops(k, mayPad);
      k->setAttr("hazard_nops", Builder(k->getContext()).getI32IntegerAttr(n));
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void registerHazardsPass() { PassRegistration<HazardsPass>(); }

} // namespace aster
