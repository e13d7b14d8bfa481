//===- Dialect.cpp - amdgcn dialect and its structural ops ---------------===//
#include "dialect/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace aster::amdgcn;

#include "dialect/AMDGCNDialect.cpp.inc"

void AMDGCNDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialect/AMDGCNOps.cpp.inc"
      >();
  registerInstructionOps();
}

Operation *AMDGCNDialect::materializeConstant(OpBuilder &b, Attribute value,
                                              Type type, Location loc) {
  if (auto t = dyn_cast<TypedAttr>(value))
    return arith::ConstantOp::create(b, loc, type, t);
  return nullptr;
}

void aster::amdgcn::registerAllDialects(DialectRegistry &registry) {
  registry.insert<AMDGCNDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, scf::SCFDialect>();
}

//===----------------------------------------------------------------------===//
// ModuleOp
//===----------------------------------------------------------------------===//

uint8_t KernelModuleOp::getTargetBit() { return ISA::targetBit(getTarget()); }

LogicalResult KernelModuleOp::verify() {
  if (!getTargetBit())
    return emitOpError("unknown target '")
           << getTarget() << "' (expected gfx942, gfx950 or gfx1201)";
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

static const char *const kSgprSetupOrder[] = {
    "private_segment_buffer", "dispatch_ptr", "queue_ptr", "kernarg_ptr",
    "dispatch_id", "flat_scratch_init", "private_segment_size",
    "workgroup_id_x", "workgroup_id_y", "workgroup_id_z", "workgroup_info",
    "private_segment_wave_offset"};

LogicalResult KernelOp::verify() {
  if (getArgNames().size() != getArgTypes().size())
    return emitOpError("has ") << getArgNames().size() << " argument names but "
                               << getArgTypes().size() << " argument types";
  for (Attribute a : getArgTypes()) {
    Type t = cast<TypeAttr>(a).getValue();
    if (!isa<PtrType>(t) && !t.isIntOrFloat())
      return emitOpError("argument type ")
             << t << " is not a pointer (!amdgcn.ptr<T>), integer or float";
    if (t.isIntOrFloat() && (t.getIntOrFloatBitWidth() % 8 ||
                             t.getIntOrFloatBitWidth() > 64))
      return emitOpError("argument type ") << t << " must be 8..64 bits in whole bytes";
  }
  if (auto blk = (*this)->getAttrOfType<DenseI32ArrayAttr>("block")) {
    if (blk.size() != 3)
      return emitOpError("`block` must have 3 dimensions");
    int64_t n = 1;
    for (int d : blk.asArrayRef()) {
      if (d < 1)
        return emitOpError("`block` dimensions must be positive");
      n *= d;
    }
    if (n > 1024)
      return emitOpError("workgroup of ") << n << " work-items exceeds 1024";
  } else if ((*this)->hasAttr("block")) {
    return emitOpError("`block` must be array<i32: x, y, z>");
  }
  if (Attribute lds = (*this)->getAttr("lds")) {
    auto i = dyn_cast<IntegerAttr>(lds);
    if (!i || i.getInt() < 0 || i.getInt() > 65536)
      return emitOpError("`lds` must be an integer in [0, 65536] bytes");
  }
  if (Attribute ps = (*this)->getAttr("private_segment")) {
    auto i = dyn_cast<IntegerAttr>(ps);
    if (!i || i.getInt() < 0 || i.getInt() > (1 << 20))
      return emitOpError("`private_segment` must be an integer in [0, 1048576] bytes");
  }
  if (Attribute w = (*this)->getAttr("workitem_ids")) {
    auto i = dyn_cast<IntegerAttr>(w);
    if (!i || i.getInt() < 1 || i.getInt() > 3)
      return emitOpError("`workitem_ids` must be 1, 2 or 3");
  }
  if (Attribute s = (*this)->getAttr("sgpr_setup")) {
    auto arr = dyn_cast<ArrayAttr>(s);
    if (!arr)
      return emitOpError("`sgpr_setup` must be an array of strings");
    int last = -1;
    for (Attribute e : arr) {
      auto str = dyn_cast<StringAttr>(e);
      int pos = -1;
      for (unsigned i = 0; str && i < std::size(kSgprSetupOrder); ++i)
        if (str.getValue() == kSgprSetupOrder[i])
          pos = i;
      if (pos < 0)
        return emitOpError("unknown `sgpr_setup` entry ") << e;
      if (pos <= last)
        return emitOpError("`sgpr_setup` entries must be unique and in hardware order");
      last = pos;
    }
  }
  if (getBody().empty())
    return emitOpError("must have a body");
  if ((*this)->hasAttr("allocated")) {
    // The register allocator's guarantee: no virtual register is left.
    auto isVirtual = [](Type t) {
      auto r = dyn_cast<RegType>(t);
      return r && r.isVirtual();
    };
    // The kernel is isolated from above: every operand is a result or a
    // block argument inside it, so results and block arguments cover all.
    Operation *bad = nullptr;
    getBody().walk([&](Operation *op) {
      bool virtualArg = false;
      for (Region &r : op->getRegions())
        for (Block &b : r)
          virtualArg |= llvm::any_of(b.getArgumentTypes(), isVirtual);
      if (virtualArg || llvm::any_of(op->getResultTypes(), isVirtual)) {
        bad = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (bad)
      return bad->emitOpError("uses a virtual register in a kernel marked "
                              "`allocated` (register allocation must leave none)");
    for (Block &b : getBody())
      if (llvm::any_of(b.getArgumentTypes(), isVirtual))
        return emitOpError("has a virtual block argument but is marked `allocated`");
  }
  return success();
}

// amdgcn.kernel @name(a: T, b: U) attributes {...} { ... }
ParseResult KernelOp::parse(OpAsmParser &p, OperationState &st) {
  StringAttr name;
  if (p.parseSymbolName(name, SymbolTable::getSymbolAttrName(), st.attributes))
    return failure();
  SmallVector<Attribute> names, types;
  auto parseArg = [&]() -> ParseResult {
    std::string n;
    Type t;
    if (p.parseKeywordOrString(&n) || p.parseColonType(t))
      return failure();
    names.push_back(p.getBuilder().getStringAttr(n));
    types.push_back(TypeAttr::get(t));
    return success();
  };
  if (p.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseArg))
    return failure();
  st.addAttribute("arg_names", p.getBuilder().getArrayAttr(names));
  st.addAttribute("arg_types", p.getBuilder().getArrayAttr(types));
  if (p.parseOptionalAttrDictWithKeyword(st.attributes))
    return failure();
  Region *body = st.addRegion();
  return p.parseRegion(*body);
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << '(';
  for (unsigned i = 0, e = getArgNames().size(); i < e; ++i) {
    if (i)
      p << ", ";
    p.printKeywordOrString(cast<StringAttr>(getArgNames()[i]).getValue());
    p << ": " << cast<TypeAttr>(getArgTypes()[i]).getValue();
  }
  p << ')';
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"sym_name", "arg_names", "arg_types"});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// RegOp
//===----------------------------------------------------------------------===//

LogicalResult DataOp::verify() {
  if (!getWords() && !getText())
    return emitOpError("needs `words` (data) or `text` (an assembly line)");
  if (getText() && getText()->contains('\n'))
    return emitOpError("`text` must be a single line");
  return success();
}

LogicalResult RegOp::verify() {
  Type t = getReg().getType();
  if (auto r = dyn_cast<RegType>(t)) {
    if (r.isVirtual())
      return emitOpError("requires an allocated register, got virtual ") << t;
    return success();
  }
  if (isa<SpecialRegType>(t))
    return success();
  return emitOpError("result must be a register type, got ") << t;
}

LogicalResult PartOp::verify() {
  auto src = dyn_cast<RegType>(getSource().getType());
  auto part = dyn_cast<RegType>(getPart().getType());
  if (!src || !part || !src.isVirtual() || !part.isVirtual())
    return emitOpError("takes and gives virtual registers (an allocated range "
                       "is sliced by its type, e.g. !amdgcn.vgpr<[4:7]>)");
  if (src.getKind() != part.getKind())
    return emitOpError("part must be of the source's class (")
           << regKindName(src.getKind()) << "), got " << getPart().getType();
  unsigned k = getOffset();
  if ((uint64_t)k + part.getWidth() > src.getWidth())
    return emitOpError("registers ") << k << ".." << k + part.getWidth() - 1
                                     << " are not all in a range of " << src.getWidth();
  auto mod = (*this)->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : ISA::T_GFX942;
  unsigned need = std::max(requiredRegAlign(part.getKind(), part.getWidth(), target),
                           part.getAlign());
  unsigned srcAlign = std::max(requiredRegAlign(src.getKind(), src.getWidth(), target),
                               src.getAlign());
  if (k % need || srcAlign % need)
    return emitOpError("a part of ") << part.getWidth() << " " << regKindName(part.getKind())
                                     << "s must be aligned to " << need
                                     << ": offset " << k << " in a range aligned to "
                                     << srcAlign << " cannot be";
  return success();
}

LogicalResult ConcatOp::verify() {
  auto range = dyn_cast<RegType>(getRange().getType());
  if (!range || !range.isVirtual())
    return emitOpError("gives a virtual register range, got ") << getRange().getType();
  if (getParts().empty())
    return emitOpError("needs at least one part");
  unsigned width = 0;
  for (Value p : getParts()) {
    auto t = dyn_cast<RegType>(p.getType());
    if (!t || !t.isVirtual() || t.getKind() != range.getKind())
      return emitOpError("parts must be virtual ")
             << regKindName(range.getKind()) << "s like the range, got " << p.getType();
    width += t.getWidth();
  }
  if (width != range.getWidth())
    return emitOpError("parts hold ") << width << " registers but the range has "
                                      << range.getWidth();
  return success();
}

/// A spill's register operand or result: `kind` (VGPR or AGPR when
/// `vectorData`, else SGPR) of width up to 16.
static LogicalResult checkSpillReg(Operation *op, Type t, StringRef what, bool vectorData) {
  auto r = dyn_cast<RegType>(t);
  bool ok = r && r.getWidth() <= 16 &&
            (vectorData ? r.getKind() != RegKind::SGPR : r.getKind() == RegKind::SGPR);
  if (!ok)
    return op->emitOpError() << what << " must be "
                             << (vectorData ? "a VGPR or AGPR" : "an SGPR")
                             << " (range of up to 16), got " << t;
  return success();
}
static LogicalResult checkLaneSlot(Operation *op, Type t) {
  auto r = dyn_cast<RegType>(t);
  if (!r || r.getKind() != RegKind::VGPR || r.getWidth() != 1)
    return op->emitOpError("lane slot must be one VGPR, got ") << t;
  return success();
}
static LogicalResult checkSpillBase(Operation *op, Type t) {
  auto r = dyn_cast<RegType>(t);
  if (!r || r.getKind() != RegKind::SGPR || r.getWidth() != 1)
    return op->emitOpError("base must be one SGPR, got ") << t;
  return success();
}

LogicalResult SpillStoreOp::verify() {
  if (failed(checkSpillReg(*this, getData().getType(), "data", true)))
    return failure();
  return checkSpillBase(*this, getBase().getType());
}
LogicalResult SpillLoadOp::verify() {
  if (failed(checkSpillReg(*this, getData().getType(), "result", true)))
    return failure();
  return checkSpillBase(*this, getBase().getType());
}
LogicalResult SpillToLanesOp::verify() {
  if (failed(checkSpillReg(*this, getData().getType(), "data", false)))
    return failure();
  return checkLaneSlot(*this, getSlot().getType());
}
LogicalResult SpillFromLanesOp::verify() {
  if (failed(checkSpillReg(*this, getData().getType(), "result", false)))
    return failure();
  return checkLaneSlot(*this, getSlot().getType());
}

#define GET_OP_CLASSES
#include "dialect/AMDGCNOps.cpp.inc"
