//===- Translate.cpp - amdgcn IR to assembly text and hsaco --------------===//
#include "target/Translate.h"
#include "target/Assembler.h"
#include "target/DirectEmit.h"
#include "target/GlobalData.h"
#include "target/InstAsm.h"
#include "target/KernelMetadata.h"
#include "target/MCTarget.h"
#include "target/raise/KernelRecord.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;

namespace aster::target {

namespace {
/// Counts lines as text is written so each line can be mapped to an op.
class LineTracker {
public:
  LineTracker(raw_ostream &os, std::vector<Location> *locs, Location unknown)
      : os(os), locs(locs), unknown(unknown) {}
  /// Writes `text` (which may hold several lines) attributed to `loc`.
  void write(StringRef text, std::optional<Location> loc = std::nullopt) {
    os << text;
    if (locs)
      for (char c : text)
        if (c == '\n')
          locs->push_back(loc.value_or(unknown));
  }

private:
  raw_ostream &os;
  std::vector<Location> *locs;
  Location unknown;
};
} // namespace

/// After register allocation a value passed to a block argument is already
/// in the argument's register: the edge is a no-op. Anything else (virtual
/// registers, a different register) is a diagnostic at the branch.
LogicalResult checkSuccessorOperands(Operation *term) {
  for (unsigned i = 0; i < term->getNumSuccessors(); ++i) {
    Block *dest = term->getSuccessor(i);
    auto [first, count] = successorOperandRange(term, i);
    for (unsigned k = 0; k < count; ++k) {
      Type from = term->getOperand(first + k).getType();
      Type to = dest->getArgument(k).getType();
      auto r = dyn_cast<RegType>(to);
      if ((r && r.isVirtual()) || (isa<RegType>(from) && cast<RegType>(from).isVirtual()))
        return term->emitOpError("passes a virtual register to a block argument; "
                                 "run register allocation before translating to assembly");
      if (from != to)
        return term->emitOpError("passes ")
               << from << " to block argument #" << k << " of type " << to
               << ": after register allocation they must be the same register";
    }
  }
  return success();
}

/// The body of a kernel or a device function; its blocks are labelled
/// `labelPrefix` N.
static LogicalResult emitBody(Region &body, const std::string &labelPrefix,
                              LineTracker &out) {
  llvm::DenseMap<Block *, unsigned> blockIds;
  for (Block &b : body)
    blockIds[&b] = blockIds.size();
  auto labelOf = [&](Block *b) { return labelPrefix + std::to_string(blockIds[b]); };
  Block *prev = nullptr;
  for (Block &b : body) {
    if (prev) // every block but the entry gets its label
      out.write(labelOf(&b) + ":\n");
    prev = &b;
    for (Operation &op : b) {
      if (op.getNumSuccessors() && failed(checkSuccessorOperands(&op)))
        return failure();
      if (const ISA::InstDesc *d = getInstDesc(&op)) {
        std::string line;
        llvm::raw_string_ostream ls(line);
        ls << "\t";
        if (failed(printInstAsm(&op, *d, ls, labelOf)))
          return failure();
        ls << "\n";
        out.write(line, op.getLoc());
        continue;
      }
      if (isa<RegOp, UndefOp, SchedBarrierOp, arith::ConstantOp, RelocOp>(op))
        continue;
      if (auto data = dyn_cast<DataOp>(op)) {
        std::string line;
        llvm::raw_string_ostream ls(line);
        raise::writeDataLine(data, ls);
        out.write(line, op.getLoc());
        continue;
      }
      if (auto br = dyn_cast<cf::BranchOp>(op)) {
        // Falling through to the next block prints nothing.
        if (br.getDest() != b.getNextNode())
          out.write("\ts_branch " + labelOf(br.getDest()) + "\n", op.getLoc());
        continue;
      }
      if (isa<CallOp>(op))
        return op.emitOpError("is a call that was not inlined: run amdgcn-inline "
                              "(aster.compile does when a kernel has calls)");
      return op.emitOpError("cannot be translated to assembly (only amdgcn "
                            "instructions, amdgcn.reg/undef, constants and "
                            "cf.br are)");
    }
    // A conditional branch falls through to its second successor, which must
    // be the next block.
    if (!b.empty()) {
      Operation &term = b.back();
      const ISA::InstDesc *d = getInstDesc(&term);
      if (d && d->successors == 2 && term.getSuccessor(1) != b.getNextNode())
        return term.emitOpError("fall-through successor must be the next block");
    }
  }
  return success();
}

void writeModuleHeader(KernelModuleOp module, raw_ostream &os) {
  os << "\t.amdgcn_target \"" << kTriple << "--" << module.getTarget() << "\"\n";
  auto cov = module->getAttrOfType<IntegerAttr>(raise::kCodeObjectVersionAttr);
  os << "\t.amdhsa_code_object_version " << (cov ? cov.getInt() : 5) << "\n";
  os << "\t.text\n";
}

static LogicalResult emitKernelBody(KernelOp k, unsigned kernelIdx, LineTracker &out) {
  return emitBody(k.getBody(), ".LBB" + std::to_string(kernelIdx) + "_", out);
}

LogicalResult writeKernelBody(KernelOp k, unsigned kernelIdx, raw_ostream &os) {
  LineTracker out(os, nullptr, k.getLoc());
  return emitKernelBody(k, kernelIdx, out);
}

LogicalResult writeBody(Region &body, const std::string &labelPrefix, raw_ostream &os) {
  LineTracker out(os, nullptr, body.getParentOp()->getLoc());
  return emitBody(body, labelPrefix, out);
}

/// A device function: a local function symbol at its alignment, its body,
/// its size.
static LogicalResult emitDeviceFunction(DeviceFunctionOp f, unsigned idx, LineTracker &out) {
  StringRef name = f.getSymName();
  std::string pre;
  llvm::raw_string_ostream ps(pre);
  ps << "\t.p2align\t" << f.getP2align().value_or(2) << "\n\t.type\t" << name
     << ",@function\n" << name << ":\n";
  out.write(pre, f.getLoc());
  if (failed(emitBody(f.getBody(), ".LDF" + std::to_string(idx) + "_", out)))
    return failure();
  std::string post;
  llvm::raw_string_ostream pp(post);
  if (auto tail = f->getAttrOfType<StringAttr>(raise::kCodeTailAttr))
    pp << tail.getValue();
  pp << ".Ldf_end" << idx << ":\n\t.size\t" << name << ", .Ldf_end" << idx << "-" << name
     << "\n\n";
  out.write(post, f.getLoc());
  return success();
}

void buildMetadata(KernelModuleOp module, ArrayRef<KernelInfo> infos,
                   llvm::msgpack::Document &doc) {
  if (raise::hasRecordedMetadata(module)) {
    // Raised kernels keep their metadata; others get aster's.
    raise::buildRecordedMetadata(module, doc,
                                 [&](unsigned i) { return kernelMetadata(doc, infos[i]); });
    return;
  }
  llvm::msgpack::ArrayDocNode list = doc.getArrayNode();
  for (const KernelInfo &k : infos)
    list.push_back(kernelMetadata(doc, k));
  moduleMetadata(doc, list, module.getTarget());
}

LogicalResult translateToAsm(KernelModuleOp module, raw_ostream &os,
                             std::vector<Location> *lineLocs) {
  uint8_t target = module.getTargetBit();
  LineTracker out(os, lineLocs, module.getLoc());
  std::string header;
  llvm::raw_string_ostream hs(header);
  writeModuleHeader(module, hs);
  out.write(header);
  std::vector<KernelInfo> infos;
  unsigned idx = 0, deviceIdx = 0;
  for (Operation &op : module.getBody().front()) {
    if (auto f = dyn_cast<DeviceFunctionOp>(op)) {
      if (failed(emitDeviceFunction(f, deviceIdx++, out)))
        return failure();
      continue;
    }
    auto k = dyn_cast<KernelOp>(op);
    if (!k)
      continue;
    KernelInfo info = analyzeKernel(k, target);
    std::string pre;
    llvm::raw_string_ostream ps(pre);
    // Protected, as clang's HIP kernels (the descriptor symbol takes the
    // kernel's visibility).
    ps << "\t.protected\t" << info.name << "\n\t.globl\t" << info.name
       << "\n\t.p2align\t8\n\t.type\t" << info.name
       << ",@function\n" << info.name << ":\n";
    out.write(pre, k.getLoc());
    if (failed(emitKernelBody(k, idx, out)))
      return failure();
    if (auto tail = k->getAttrOfType<StringAttr>(raise::kCodeTailAttr))
      out.write(tail.getValue().str(), k.getLoc());
    std::string post;
    llvm::raw_string_ostream pp(post);
    pp << ".Lfunc_end" << idx << ":\n\t.size\t" << info.name << ", .Lfunc_end"
       << idx << "-" << info.name << "\n\n";
    if (auto desc = k->getAttrOfType<DictionaryAttr>(raise::kDescriptorAttr))
      raise::writeDescriptorDirectives(info.name, desc, pp);
    else
      writeKernelDescriptor(info, target, pp);
    out.write(post, k.getLoc());
    infos.push_back(std::move(info));
    ++idx;
  }
  if (auto tail = module->getAttrOfType<StringAttr>(raise::kTextTailAttr))
    out.write(tail.getValue().str());
  for (auto g : module.getBody().front().getOps<GlobalOp>()) {
    std::string text;
    llvm::raw_string_ostream gs(text);
    writeGlobal(g, gs);
    out.write(text, g.getLoc());
  }
  std::string md;
  llvm::raw_string_ostream ms(md);
  if (raise::hasRecordedMetadata(module)) {
    llvm::msgpack::Document doc;
    buildMetadata(module, infos, doc);
    raise::writeRecordedMetadata(doc, ms);
  } else {
    writeMetadata(infos, module.getTarget(), ms);
  }
  out.write(md);
  return success();
}

FailureOr<std::vector<char>> translateToHsaco(KernelModuleOp module,
                                              bool direct) {
  if (direct) {
    auto obj = emitObject(module);
    if (obj) {
      auto hsaco = linkObject(*obj);
      if (hsaco)
        return std::move(*hsaco);
      module.emitError("cannot produce a code object: ")
          << llvm::toString(hsaco.takeError());
      return failure();
    }
    // The text path below reports the error at its op.
    llvm::consumeError(obj.takeError());
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  std::vector<Location> locs;
  if (failed(translateToAsm(module, os, &locs)))
    return failure();
  std::vector<AsmDiagnostic> diags;
  auto hsaco = assembleHsaco(text, module.getTarget(), &diags);
  if (hsaco)
    return std::move(*hsaco);
  std::string msg = llvm::toString(hsaco.takeError());
  if (diags.empty()) {
    module.emitError("cannot produce a code object: ") << msg;
    return failure();
  }
  for (const AsmDiagnostic &d : diags) {
    Location loc = d.line >= 1 && d.line <= locs.size() ? locs[d.line - 1]
                                                        : module.getLoc();
    StringRef line = StringRef(text);
    for (unsigned i = 1; i < d.line; ++i)
      line = line.split('\n').second;
    emitError(loc, "LLVM MC rejected this line: ")
        << d.message << "\n  " << line.split('\n').first.trim();
  }
  return failure();
}

FailureOr<KernelModuleOp> findKernelModule(Operation *op) {
  if (auto m = dyn_cast<KernelModuleOp>(op))
    return m;
  KernelModuleOp found;
  unsigned count = 0;
  op->walk([&](KernelModuleOp m) {
    found = m;
    ++count;
    return WalkResult::skip();
  });
  if (count != 1)
    return op->emitError("expected exactly one amdgcn.module, found ") << count,
           failure();
  return found;
}

void registerTranslations() {
  static TranslateFromMLIRRegistration toAsm(
      "mlir-to-asm", "translate an amdgcn.module to AMDGCN assembly",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto m = findKernelModule(op);
        if (failed(m))
          return failure();
        return translateToAsm(*m, os);
      },
      [](DialectRegistry &r) { amdgcn::registerAllDialects(r); });
  static TranslateFromMLIRRegistration toHsaco(
      "mlir-to-hsaco", "translate an amdgcn.module to a linked code object",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto m = findKernelModule(op);
        if (failed(m))
          return failure();
        auto bytes = translateToHsaco(*m);
        if (failed(bytes))
          return failure();
        os.write(bytes->data(), bytes->size());
        return success();
      },
      [](DialectRegistry &r) { amdgcn::registerAllDialects(r); });
}

} // namespace aster::target
