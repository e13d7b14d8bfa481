//===- Functions.cpp - amdgcn.func, amdgcn.call, amdgcn.return -----------===//
//
// Register-level functions: parsing/printing of amdgcn.func (MLIR's
// function syntax), and the rules a call and a return obey (class, width,
// alignment, pinned registers, no recursion). amdgcn-inline
// (transforms/Inline.cpp) replaces the calls by the bodies.
//
//===----------------------------------------------------------------------===//
#include "dialect/Dialect.h"

#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace aster::amdgcn;

static std::string upperKind(RegKind k) { return regKindName(k).upper(); }

std::string aster::amdgcn::describeRegister(Type t) {
  if (auto r = dyn_cast<RegType>(t)) {
    if (!r.isVirtual())
      return registerAsm(t);
    std::string s = "a virtual " + upperKind(r.getKind());
    if (r.getWidth() > 1)
      s += " x" + std::to_string(r.getWidth());
    if (r.getAlign() > 1)
      s += " (align " + std::to_string(r.getAlign()) + ")";
    return s;
  }
  if (isa<SpecialRegType>(t))
    return registerAsm(t);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "a non-register " << t;
  return s;
}

std::string aster::amdgcn::callOperandMismatch(Type actual, Type formal) {
  auto f = dyn_cast<RegType>(formal);
  if (!f || !f.isVirtual()) {
    if (actual == formal)
      return "";
    return "the pinned register " + describeRegister(formal) + " must be passed, got " +
           describeRegister(actual);
  }
  auto a = dyn_cast<RegType>(actual);
  if (!a || a.getKind() != f.getKind() || a.getWidth() != f.getWidth())
    return "expects " + describeRegister(formal) + ", got " + describeRegister(actual);
  unsigned need = f.getAlign();
  if (need > 1 && (a.isVirtual() ? a.getAlign() % need != 0 : a.getIndex() % need != 0))
    return "expects " + describeRegister(formal) + ", got " + describeRegister(actual) +
           " (alignment " + std::to_string(need) + " is not guaranteed)";
  return "";
}

static bool findCycle(FuncOp f, StringRef to, SmallVectorImpl<StringRef> &path,
                      llvm::StringSet<> &seen) {
  path.push_back(f.getSymName());
  if (!seen.insert(f.getSymName()).second) {
    path.pop_back();
    return false;
  }
  bool found = false;
  f.walk([&](CallOp c) {
    StringRef callee = c.getCallee();
    if (callee == to) {
      path.push_back(callee);
      found = true;
      return WalkResult::interrupt();
    }
    auto g = SymbolTable::lookupNearestSymbolFrom<FuncOp>(f, c.getCalleeAttr());
    if (g && findCycle(g, to, path, seen)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    path.pop_back();
  return found;
}

std::string aster::amdgcn::callCycle(FuncOp from, StringRef to) {
  SmallVector<StringRef> path;
  llvm::StringSet<> seen;
  if (!findCycle(from, to, path, seen))
    return "";
  std::string s = "@" + to.str();
  for (StringRef p : path)
    s += " -> @" + p.str();
  return s;
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &p, OperationState &st) {
  auto build = [](Builder &b, ArrayRef<Type> args, ArrayRef<Type> results,
                  function_interface_impl::VariadicFlag, std::string &) {
    return b.getFunctionType(args, results);
  };
  return function_interface_impl::parseFunctionOp(
      p, st, /*allowVariadic=*/false, getFunctionTypeAttrName(st.name), build,
      getArgAttrsAttrName(st.name), getResAttrsAttrName(st.name));
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(p, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (getBody().empty())
    return emitOpError("must have a body (functions are inlined, not linked)");
  auto check = [&](Type t, StringRef what, unsigned i) -> LogicalResult {
    if (auto s = dyn_cast<SpecialRegType>(t)) {
      if (s.getReg() == SpecialReg::scc)
        return emitOpError() << what << " #" << i << " cannot be scc";
      return success();
    }
    if (!isa<RegType>(t))
      return emitOpError() << what << " #" << i << " must be a register (virtual like "
                           << "!amdgcn.vgpr<?x4> or pinned like !amdgcn.vgpr<7>), got " << t;
    return success();
  };
  for (auto [i, t] : llvm::enumerate(getArgumentTypes()))
    if (failed(check(t, "parameter", i)))
      return failure();
  for (auto [i, t] : llvm::enumerate(getResultTypes()))
    if (failed(check(t, "result", i)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp, ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto f = symbols.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!f)
    return emitOpError("calls @") << getCallee()
                                  << ", which is not an amdgcn.func of this module";
  if (getArgs().size() != f.getArgumentTypes().size())
    return emitOpError("passes ") << getArgs().size() << " operand(s) but @" << getCallee()
                                  << " takes " << f.getArgumentTypes().size();
  for (auto [i, a, t] : llvm::enumerate(getArgs(), f.getArgumentTypes())) {
    std::string why = callOperandMismatch(a.getType(), t);
    if (!why.empty())
      return emitOpError("operand #") << i << " of @" << getCallee() << ": " << why;
  }
  if (getResultTypes() != TypeRange(f.getResultTypes()))
    return emitOpError("result types must be those of @") << getCallee() << ": "
                                                          << f.getFunctionType();
  if (auto parent = (*this)->getParentOfType<FuncOp>()) {
    std::string name = parent.getSymName().str();
    std::string cycle = f == parent ? "@" + name + " -> @" + name
                                    : callCycle(f, parent.getSymName());
    if (!cycle.empty())
      return emitOpError("makes a recursive call (")
             << cycle << "): functions are inlined, so calls must not form a cycle";
  } else if (!(*this)->getParentOfType<KernelOp>()) {
    return emitOpError("must be inside an amdgcn.kernel or amdgcn.func");
  }
  return success();
}

LogicalResult ReturnOp::verify() {
  auto f = (*this)->getParentOfType<FuncOp>();
  ArrayRef<Type> results = f.getResultTypes();
  if (getOperands().size() != results.size())
    return emitOpError("returns ") << getOperands().size() << " value(s) but @"
                                   << f.getSymName() << " has " << results.size()
                                   << " result(s)";
  for (auto [i, v, t] : llvm::enumerate(getOperands(), results)) {
    std::string why = callOperandMismatch(v.getType(), t);
    if (!why.empty())
      return emitOpError("result #") << i << " of @" << f.getSymName() << ": " << why;
  }
  return success();
}
