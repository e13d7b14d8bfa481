//===- InstOp.cpp - instruction ops registered from the table ------------===//
//
// Every row of the instruction table becomes a registered op `amdgcn.<mnemonic>`
// with one shared implementation (parse, print, verify) driven by its row.
// IR form:
//   %d0, ... = amdgcn.MNEMONIC %s0, %s1 [^taken, ^next] {modifiers}
//              : (source types) -> destination types
// Results are the destinations (in assembly order); operands the sources.
// Immediates are operands defined by constants (arith.constant). An absent
// optional source (printed `off` in assembly) is simply left out.
//
//===----------------------------------------------------------------------===//
#include "dialect/Dialect.h"
#include "dialect/VerifyMemo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;

namespace {

class InstOpImpl : public OperationName::Impl {
public:
  InstOpImpl(const ISA::InstDesc &desc, Dialect *dialect, TypeID id)
      : Impl(StringRef(std::string("amdgcn.") + desc.mnemonic), dialect, id,
             mlir::detail::InterfaceMap()),
        desc(desc) {}

  LogicalResult foldHook(Operation *, ArrayRef<Attribute>,
                         SmallVectorImpl<OpFoldResult> &) final {
    return failure();
  }
  void getCanonicalizationPatterns(RewritePatternSet &, MLIRContext *) final {}
  bool hasTrait(TypeID id) final {
    if (id == TypeID::get<OpTrait::IsTerminator>())
      return desc.has(ISA::PROP_TERMINATOR);
    return false;
  }
  OperationName::ParseAssemblyFn getParseAssemblyFn() final {
    const ISA::InstDesc *d = &desc;
    return [d](OpAsmParser &p, OperationState &st) { return parse(*d, p, st); };
  }
  void populateDefaultAttrs(const OperationName &, NamedAttrList &) final {}
  void printAssembly(Operation *op, OpAsmPrinter &p, StringRef dd) final {
    print(desc, op, p, dd);
  }
  LogicalResult verifyInvariants(Operation *op) final {
    return verifyInstruction(op, desc);
  }
  LogicalResult verifyRegionInvariants(Operation *) final { return success(); }
  std::optional<Attribute> getInherentAttr(Operation *, StringRef) final {
    return std::nullopt;
  }
  void setInherentAttr(Operation *op, StringAttr name, Attribute value) final {
    op->setDiscardableAttr(name, value);
  }
  void populateInherentAttrs(Operation *, NamedAttrList &) final {}
  LogicalResult
  verifyInherentAttrs(OperationName, NamedAttrList &,
                      function_ref<InFlightDiagnostic()>) final {
    return success();
  }
  int getOpPropertyByteSize() final { return 0; }
  void initProperties(OperationName, OpaqueProperties, OpaqueProperties) final {}
  void deleteProperties(OpaqueProperties) final {}
  void populateDefaultProperties(OperationName, OpaqueProperties) final {}
  LogicalResult
  setPropertiesFromAttr(OperationName, OpaqueProperties, Attribute,
                        function_ref<InFlightDiagnostic()>) final {
    return success();
  }
  Attribute getPropertiesAsAttr(Operation *) final { return {}; }
  void copyProperties(OpaqueProperties, OpaqueProperties) final {}
  bool compareProperties(OpaqueProperties, OpaqueProperties) final { return true; }
  llvm::hash_code hashProperties(OpaqueProperties) final { return {}; }

  static ParseResult parse(const ISA::InstDesc &d, OpAsmParser &p,
                           OperationState &st);
  static void print(const ISA::InstDesc &d, Operation *op, OpAsmPrinter &p,
                    StringRef defaultDialect);

  const ISA::InstDesc &desc;
};

/// Per-context map from op TypeID to table row, owned by the dialect.
/// The TypeIDs of the instruction ops come from one allocator, a few bytes
/// apart: the default pointer hash puts many in one bucket chain (long
/// probes on every getInstDesc); a multiplicative hash spreads them.
struct SpreadTypeIDInfo : llvm::DenseMapInfo<TypeID> {
  static unsigned getHashValue(TypeID id) {
    auto p = reinterpret_cast<uintptr_t>(id.getAsOpaquePointer());
    return (unsigned)((p * 0x9E3779B97F4A7C15ull) >> 32);
  }
};

struct InstRegistry {
  TypeIDAllocator ids;
  VerifyMemo verified; // shapes that verified (VerifyMemo.h)
  llvm::DenseMap<TypeID, const ISA::InstDesc *, SpreadTypeIDInfo> byId;
  std::vector<OperationName> names;  // by table index
};

} // namespace

static InstRegistry &registryOf(Dialect *dialect) {
  return *static_cast<InstRegistry *>(
      static_cast<AMDGCNDialect *>(dialect)->instRegistry.get());
}

void AMDGCNDialect::registerInstructionOps() {
  auto owned = std::make_shared<InstRegistry>();
  InstRegistry &reg = *owned;
  instRegistry = owned;
  for (const ISA::InstDesc &d : ISA::instructions()) {
    TypeID id = reg.ids.allocate();
    reg.byId[id] = &d;
    RegisteredOperationName::insert(
        std::make_unique<InstOpImpl>(d, this, id), {});
  }
  for (const ISA::InstDesc &d : ISA::instructions())
    reg.names.push_back(OperationName(std::string("amdgcn.") + d.mnemonic,
                                      getContext()));
}

const ISA::InstDesc *aster::amdgcn::getInstDesc(Operation *op) {
  OperationName name = op->getName();
  if (!name.isRegistered())
    return nullptr;
  Dialect *d = name.getDialect();
  if (!d || !isa<AMDGCNDialect>(d))
    return nullptr;
  InstRegistry &reg = registryOf(d);
  auto it = reg.byId.find(name.getTypeID());
  return it == reg.byId.end() ? nullptr : it->second;
}

VerifyMemo *aster::amdgcn::verifyMemoOf(Operation *op) {
  Dialect *d = op->getName().getDialect();
  if (!d || !isa<AMDGCNDialect>(d))
    return nullptr;
  return &registryOf(d).verified;
}

OperationName aster::amdgcn::getInstOpName(MLIRContext *ctx,
                                           const ISA::InstDesc &d) {
  auto *dialect = ctx->getOrLoadDialect<AMDGCNDialect>();
  return registryOf(dialect).names[d.index()];
}

Operation *aster::amdgcn::createInstOp(OpBuilder &b, Location loc, StringRef mnemonic,
                                       ValueRange operands, TypeRange results,
                                       ArrayRef<NamedAttribute> attrs) {
  OperationState st(loc, getInstOpName(b.getContext(), *ISA::lookup(mnemonic)));
  st.addOperands(operands);
  st.addTypes(results);
  st.addAttributes(attrs);
  return b.create(st);
}

std::pair<unsigned, unsigned>
aster::amdgcn::successorOperandRange(Operation *term, unsigned i) {
  if (auto br = dyn_cast<BranchOpInterface>(term)) {
    OperandRange r = br.getSuccessorOperands(i).getForwardedOperands();
    if (r.empty()) // getBeginOperandIndex() needs a non-empty range
      return {term->getNumOperands(), 0};
    return {r.getBeginOperandIndex(), (unsigned)r.size()};
  }
  unsigned n = term->getNumSuccessors();
  if (!n)
    return {term->getNumOperands(), 0};
  // Instruction branches take no sources: every operand goes to a successor.
  auto sizes = term->getAttrOfType<DenseI32ArrayAttr>(kSuccOperandSizesAttr);
  if (!sizes || (unsigned)sizes.size() != n) {
    // One successor takes them all; two without sizes take none.
    if (n == 1)
      return {0, term->getNumOperands()};
    return {term->getNumOperands(), 0};
  }
  unsigned first = 0;
  for (unsigned k = 0; k < i; ++k)
    first += sizes[k];
  return {first, (unsigned)sizes[i]};
}

void aster::amdgcn::setSuccessorOperands(Operation *term, unsigned i,
                                         ValueRange values) {
  if (auto br = dyn_cast<BranchOpInterface>(term)) {
    MutableOperandRange r =
        br.getSuccessorOperands(i).getMutableForwardedOperands();
    r.assign(values);
    return;
  }
  unsigned n = term->getNumSuccessors();
  SmallVector<SmallVector<Value>> all(n);
  for (unsigned k = 0; k < n; ++k) {
    auto [first, count] = successorOperandRange(term, k);
    for (Value v : term->getOperands().slice(first, count))
      all[k].push_back(v);
  }
  all[i].assign(values.begin(), values.end());
  SmallVector<Value> flat;
  SmallVector<int32_t> sizes;
  for (auto &vs : all) {
    flat.append(vs.begin(), vs.end());
    sizes.push_back(vs.size());
  }
  term->setOperands(flat);
  if (n > 1 && !flat.empty())
    term->setAttr(kSuccOperandSizesAttr,
                  Builder(term->getContext()).getDenseI32ArrayAttr(sizes));
  else
    term->removeAttr(kSuccOperandSizesAttr);
}

ParseResult InstOpImpl::parse(const ISA::InstDesc &d, OpAsmParser &p,
                              OperationState &st) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SMLoc opsLoc = p.getCurrentLocation();
  // An instruction without sources takes none (else the `%x` of the next op
  // would be read as one: `amdgcn.s_barrier` then `%a = ...`).
  if (d.numSrcs && p.parseOperandList(operands))
    return failure();
  SmallVector<Value> succOperands;
  SmallVector<int32_t> succSizes;
  for (unsigned i = 0; i < d.successors; ++i) {
    Block *b;
    if (i && p.parseComma())
      return failure();
    if (!operands.empty() && i == 0 && p.parseComma())
      return failure();
    size_t before = succOperands.size();
    if (p.parseSuccessorAndUseList(b, succOperands))
      return failure();
    st.addSuccessors(b);
    succSizes.push_back(succOperands.size() - before);
  }
  if (p.parseOptionalAttrDict(st.attributes))
    return failure();
  if (succSizes.size() > 1 && !succOperands.empty())
    st.addAttribute(kSuccOperandSizesAttr,
                    p.getBuilder().getDenseI32ArrayAttr(succSizes));
  if (operands.empty() && d.numDsts == 0) {
    st.addOperands(succOperands);
    return success();
  }
  SMLoc typeLoc = p.getCurrentLocation();
  FunctionType fnType;
  if (p.parseColonType(fnType))
    return failure();
  if (fnType.getNumInputs() != operands.size())
    return p.emitError(typeLoc, "expected ")
           << operands.size() << " source types, got " << fnType.getNumInputs();
  st.addTypes(fnType.getResults());
  if (p.resolveOperands(operands, fnType.getInputs(), opsLoc, st.operands))
    return failure();
  st.addOperands(succOperands);
  return success();
}

void InstOpImpl::print(const ISA::InstDesc &d, Operation *op, OpAsmPrinter &p,
                       StringRef defaultDialect) {
  StringRef name = op->getName().getStringRef();
  if (!defaultDialect.empty() && name.size() > defaultDialect.size() &&
      name.starts_with(defaultDialect) && name[defaultDialect.size()] == '.')
    name = name.drop_front(defaultDialect.size() + 1);
  p.getStream() << name;
  unsigned numSrcs = op->getNumOperands();
  if (op->getNumSuccessors())
    numSrcs = successorOperandRange(op, 0).first;
  auto srcs = op->getOperands().take_front(numSrcs);
  if (numSrcs) {
    p << ' ';
    p.printOperands(srcs);
  }
  for (unsigned i = 0; i < op->getNumSuccessors(); ++i) {
    p << ((i || numSrcs) ? ", " : " ");
    auto [first, count] = successorOperandRange(op, i);
    p.printSuccessorAndUseList(op->getSuccessor(i),
                               op->getOperands().slice(first, count));
  }
  p.printOptionalAttrDict(op->getAttrs(), {kSuccOperandSizesAttr});
  if (numSrcs || op->getNumResults()) {
    p << " : ";
    p.printFunctionalType(TypeRange(srcs), op->getResultTypes());
  }
}
