//===- Builder.cpp - the fast path behind aster's Python kernel builder ---===//
//
// The builder's instruction methods (one per table row, InstMethods.inc; also
// a kernel's `fast_emit` function) call `emit(index, frame, *dsts, *srcs,
// *mods[, label])`; this file turns that into one instruction op, verifies it at once and raises
// AsterError (or AsterTypeError for wrong Python types) at the user's line.
// The user's line is the first frame, from `frame` outwards, whose file is
// not inside the aster package; locations are cached per call site.
//
//===----------------------------------------------------------------------===//
#include "python/Core.h"
#include "dialect/Copy.h"
#include "dialect/Immediates.h"
#include "dialect/InstText.h"
#include "target/InstAsm.h"
#include "target/Translate.h"
#include "transforms/Inline.h"
#include "target/raise/KernelRecord.h"
#include "target/raise/RaiseCommon.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"

#include <frameobject.h>
#include <structmember.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/unique_ptr.h>
#include <optional>

namespace nb = nanobind;
using namespace mlir;
using namespace aster::amdgcn;

namespace aster::py {

namespace {

nb::object asterTypeError;
// The Python types of Reg, Value and Label (exact-type checks in the hot path).
PyTypeObject *regPyType, *valuePyType;
std::string internalPrefix = "\x01"; // the aster package dir + '/'
uint64_t nextGeneration = 1;

[[noreturn]] void raiseType(const std::string &msg) {
  PyErr_SetString(asterTypeError.ptr(), msg.c_str());
  throw nb::python_error();
}

/// "file:line" of a location (Python users think in lines, not columns).
std::string where(Location loc) {
  if (auto fl = dyn_cast<FileLineColLoc>(loc))
    return fl.getFilename().str() + ":" + std::to_string(fl.getLine());
  return formatLocation(loc);
}

/// A register operand as Python names it: v[3], s[0:2], a[0:4], vcc, or a
/// virtual register spec (index -1). Caches its type and entry value for
/// the kernel (generation) that used it last.
struct PyReg {
  int kind;  // 0 VGPR, 1 SGPR, 2 AGPR, 3 special
  int index; // -1: virtual; special: SpecialReg id
  unsigned width, align;
  uint64_t cacheGen = 0;
  Type cacheType;
  Value cacheValue;

  Type type(MLIRContext *ctx) const {
    if (kind == 3)
      return SpecialRegType::get(ctx, (SpecialReg)index);
    return RegType::get(ctx, (RegKind)kind, index, width, align);
  }
  bool isVirtual() const { return kind != 3 && index < 0; }
  std::string str() const { // assembly spelling
    if (kind == 3)
      return specialRegName((SpecialReg)index).str();
    char p = "vsa"[kind];
    if (index < 0)
      return std::string(1, p) + "<virtual x" + std::to_string(width) + ">";
    if (width == 1)
      return std::string(1, p) + std::to_string(index);
    return std::string(1, p) + "[" + std::to_string(index) + ":" +
           std::to_string(index + width - 1) + "]";
  }
  std::string repr() const { // Python spelling
    if (kind == 3)
      return str();
    if (index < 0)
      return std::string(kind == 0 ? "VGPR" : kind == 1 ? "SGPR" : "AGPR") + "(" +
             std::to_string(width) + (align > 1 ? ", align=" + std::to_string(align) : "") + ")";
    std::string p(1, "vsa"[kind]);
    if (width == 1)
      return p + "[" + std::to_string(index) + "]";
    return p + "[" + std::to_string(index) + ":" + std::to_string(index + width) + "]";
  }
};

/// An SSA value produced by the builder (a virtual destination register).
struct PyValue {
  Value value;
  uint64_t gen; // the kernel that defined it
  // "kernel 'k'" or "function 'f'", shared with its kernel (no string copy
  // per instruction).
  std::shared_ptr<const std::string> owner;
  const std::string &kernelName() const { return *owner; }
};

struct PyLabel {
  Block *block;
  std::string name;
  uint64_t gen;
  bool bound = false;
};

struct CodeInfo {
  bool internal;
  StringAttr file;
};

struct PyKernel {
  nb::object moduleRef; // keeps the PyModule (and context) alive
  PyModule *module;
  Operation *kernel; // the amdgcn.kernel or amdgcn.func being built
  MLIRContext *context; // kept apart: the destructor must not read `kernel`
  OpBuilder builder;
  Block *current;
  bool needNewBlock = false, sealed = false;
  uint8_t targetBit;
  uint64_t gen = nextGeneration++;
  llvm::DenseMap<Type, Value> regValues;
  std::shared_ptr<const std::string> whatCache;
  Operation *entryLast = nullptr; // last register/constant op at entry
  SmallVector<Value> branchArgs; // for the next branch's target block arguments
  llvm::DenseMap<std::pair<Type, uint64_t>, Value> constants;
  llvm::StringMap<Value> relocs;
  std::vector<std::unique_ptr<PyLabel>> labels;
  std::vector<std::optional<OperationName>> opNames;
  // Call-site cache: code object (held) -> facts; last (code, lasti) -> loc.
  llvm::DenseMap<PyObject *, CodeInfo> codes;
  PyObject *lastCode = nullptr;
  int lastLasti = -2;
  Location lastLoc, curLoc; // curLoc: of the current call, for messages
  DictionaryAttr emptyAttrs; // of the context, made on first use
  // The first error of the instruction being verified (VerifySink).
  std::string diagText;
  // Editing an existing kernel (EditBindings.inc): inserting before/after
  // an op; erased ops are kept (detached) so handles never dangle.
  bool inserting = false;
  std::unique_ptr<Block> erased = std::make_unique<Block>();

  PyKernel(nb::object ref, PyModule *m, Operation *k, uint8_t t)
      : moduleRef(std::move(ref)), module(m), kernel(k), context(k->getContext()),
        builder(k->getContext()),
        current(&k->getRegion(0).front()), targetBit(t), lastLoc(k->getLoc()),
        curLoc(k->getLoc()) {
    builder.setInsertionPointToEnd(current);
    opNames.resize(ISA::instructions().size());
  }
  PyKernel(const PyKernel &) = delete;
  ~PyKernel() {
    for (auto &kv : codes)
      Py_DECREF(kv.first);
  }
  MLIRContext *ctx() { return context; }
  Region &body() { return kernel->getRegion(0); }
  Location loc() { return kernel->getLoc(); }
  bool isFunction() { return isa<FuncOp>(kernel); }
  std::string name() { return SymbolTable::getSymbolName(kernel).str(); }
  /// "kernel 'k'" or "function 'f'", for messages.
  std::string what() { return *whatShared(); }
  /// what(), made once (the name of a kernel being built does not change).
  const std::shared_ptr<const std::string> &whatShared() {
    if (!whatCache)
      whatCache = std::make_shared<const std::string>(
          (isFunction() ? "function '" : "kernel '") + name() + "'");
    return whatCache;
  }

  OperationName opName(const ISA::InstDesc &d) {
    auto &n = opNames[d.index()];
    if (!n)
      n = getInstOpName(ctx(), d);
    return *n;
  }

  /// Location of the user's call: the first frame outside the package.
  Location userLoc(PyObject *frameArg) {
    PyFrameObject *f = frameArg && PyFrame_Check(frameArg) ? (PyFrameObject *)frameArg
                                                           : PyEval_GetFrame();
    Py_XINCREF(f);
    while (f) {
      PyCodeObject *code = PyFrame_GetCode(f);
      auto it = codes.find((PyObject *)code);
      if (it == codes.end()) {
        nb::object fn = nb::steal(PyObject_GetAttrString((PyObject *)code, "co_filename"));
        std::string name = fn && PyUnicode_Check(fn.ptr()) ? nb::cast<std::string>(fn)
                                                           : std::string("<unknown>");
        PyErr_Clear();
        // aster's library (python/aster/nanokernels) is user code: its lines are
        // the locations of the functions it builds.
        CodeInfo ci{StringRef(name).starts_with(internalPrefix) &&
                        !StringRef(name).starts_with(internalPrefix + "nanokernels" +
                                                     internalPrefix.back()),
                    StringAttr::get(ctx(), name)};
        Py_INCREF(code);
        it = codes.try_emplace((PyObject *)code, ci).first;
      }
      Py_DECREF(code);
      if (!it->second.internal) {
#if PY_VERSION_HEX >= 0x030B0000
        int lasti = PyFrame_GetLasti(f);
#else
        int lasti = -3 - PyFrame_GetLineNumber(f);
#endif
        if ((PyObject *)code != lastCode || lasti != lastLasti) {
          lastLoc = FileLineColLoc::get(it->second.file, PyFrame_GetLineNumber(f), 0);
          lastCode = (PyObject *)code;
          lastLasti = lasti;
        }
        Py_DECREF(f);
        return curLoc = lastLoc;
      }
      PyFrameObject *back = PyFrame_GetBack(f);
      Py_DECREF(f);
      f = back;
    }
    return curLoc = loc();
  }

  [[noreturn]] void fail(const std::string &msg, bool typeError = false) {
    std::string m = where(curLoc) + ": error: " + msg;
    if (typeError)
      raiseType(m);
    raiseError(m);
  }

  void ensureBlock() {
    if (!needNewBlock)
      return;
    Block *b = new Block();
    body().getBlocks().insertAfter(Region::iterator(current), b);
    current = b;
    builder.setInsertionPointToEnd(current);
    needNewBlock = false;
  }

  /// Registers and constants are defined at kernel entry, in first-use order.
  OpBuilder entryBuilder() {
    OpBuilder b(ctx());
    if (entryLast)
      b.setInsertionPointAfter(entryLast);
    else
      b.setInsertionPointToStart(&body().front());
    return b;
  }
  /// The value naming an allocated register, created once at kernel entry.
  Value regValue(Type t) {
    auto it = regValues.find(t);
    if (it != regValues.end())
      return it->second;
    OpBuilder b = entryBuilder();
    Value v = RegOp::create(b, loc(), t).getResult();
    entryLast = v.getDefiningOp();
    regValues[t] = v;
    return v;
  }
  Type regType(PyReg &r) {
    if (r.cacheGen != gen) {
      r.cacheGen = gen;
      r.cacheType = r.type(ctx());
      r.cacheValue = nullptr;
    }
    return r.cacheType;
  }
  Value regSource(PyReg &r) {
    Type t = regType(r);
    if (!r.cacheValue)
      r.cacheValue = regValue(t);
    return r.cacheValue;
  }

  Value constant(Type t, uint64_t bits) {
    auto key = std::make_pair(t, bits);
    auto it = constants.find(key);
    if (it != constants.end())
      return it->second;
    TypedAttr attr;
    if (auto ft = dyn_cast<FloatType>(t))
      attr = FloatAttr::get(ft, APFloat(ft.getFloatSemantics(), APInt(ft.getWidth(), bits)));
    else
      attr = IntegerAttr::get(t, APInt(t.getIntOrFloatBitWidth(), bits));
    OpBuilder b = entryBuilder();
    Value v = arith::ConstantOp::create(b, loc(), t, attr).getResult();
    entryLast = v.getDefiningOp();
    constants[key] = v;
    return v;
  }

  /// An amdgcn.reloc `symbol@kind+addend`, created once at entry.
  Value reloc(const std::string &symbol, const std::string &kind, int64_t addend) {
    std::string key = symbol + "@" + kind + "@" + std::to_string(addend);
    auto it = relocs.find(key);
    if (it != relocs.end())
      return it->second;
    OpBuilder b = entryBuilder();
    Value v = RelocOp::create(b, loc(), b.getI32Type(),
                              FlatSymbolRefAttr::get(b.getContext(), symbol),
                              b.getStringAttr(kind), b.getI64IntegerAttr(addend))
                  .getResult();
    entryLast = v.getDefiningOp();
    return relocs[key] = v;
  }
};

/// A relocation operand from Python: `aster.Reloc("table", "rel32@lo", 4)`.
struct PyReloc {
  std::string symbol, kind;
  int64_t addend;
};

std::string pyTypeName(PyObject *h) { return Py_TYPE(h)->tp_name; }

std::string pyRepr(PyObject *h) {
  nb::object r = nb::steal(PyObject_Repr(h));
  if (!r) {
    PyErr_Clear();
    return "<?>";
  }
  return nb::cast<std::string>(r);
}

bool isIntegerTy(ISA::ValTy ty) {
  StringRef n = ISA::valTyName(ty);
  return n.starts_with("i") || n.starts_with("u") || n.starts_with("v2i") ||
         n.starts_with("v2u");
}

/// Immediate type for an operand value type, and whether Python gave a float.
Type immType(MLIRContext *ctx, ISA::ValTy ty, bool isFloat) {
  unsigned w = ISA::valTyImmBits(ty);
  if (isFloat || ISA::valTyIsFloat(ty)) {
    if (w == 16)
      return (ty == ISA::ValTy::bf16 || ty == ISA::ValTy::v2bf16)
                 ? (Type)BFloat16Type::get(ctx)
                 : (Type)Float16Type::get(ctx);
    return w == 64 ? (Type)Float64Type::get(ctx) : (Type)Float32Type::get(ctx);
  }
  return IntegerType::get(ctx, w == 16 ? 32 : w);
}

/// Rewrites a verifier message for Python users: "'amdgcn.x' op " prefixes
/// go, and register types are spelled as in assembly ('!amdgcn.vgpr<1>' -> v1).
std::string pythonMessage(MLIRContext *ctx, std::string msg) {
  size_t op = msg.find("' op ");
  if (msg.rfind("'amdgcn.", 0) == 0 && op != std::string::npos)
    msg = msg.substr(op + 5);
  size_t pos = 0;
  while ((pos = msg.find("'!amdgcn.", pos)) != std::string::npos) {
    size_t end = msg.find('\'', pos + 1);
    if (end == std::string::npos)
      break;
    Type t = parseType(msg.substr(pos + 1, end - pos - 1), ctx);
    std::string repl;
    if (t && (isa<SpecialRegType>(t) || (isa<RegType>(t) && !cast<RegType>(t).isVirtual())))
      repl = registerAsm(t);
    else if (auto r = dyn_cast_or_null<RegType>(t))
      repl = std::string("a virtual ") + regKindName(r.getKind()).str() + " x" +
             std::to_string(r.getWidth());
    if (repl.empty()) {
      pos = end + 1;
      continue;
    }
    msg.replace(pos, end - pos + 1, repl);
    pos += repl.size();
  }
  return msg;
}

} // namespace

static Value immediate(PyKernel &k, const ISA::InstDesc &d, const ISA::OperandDesc &o,
                       PyObject *h) {
  MLIRContext *ctx = k.ctx();
  auto what = [&] { return std::string(d.mnemonic) + ": source '" + o.name + "'"; };
  if (PyFloat_Check(h)) {
    if (isIntegerTy(o.ty))
      k.fail(what() + " is an integer (" + ISA::valTyName(o.ty).str() +
                 ") operand; got the float " + pyRepr(h),
             true);
    Type t = immType(ctx, o.ty, true);
    APFloat f(PyFloat_AsDouble(h));
    bool lost;
    f.convert(cast<FloatType>(t).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return k.constant(t, f.bitcastToAPInt().getZExtValue());
  }
  Type t = immType(ctx, o.ty, false);
  unsigned w = t.getIntOrFloatBitWidth();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h, &overflow);
  uint64_t bits = (uint64_t)v;
  if (overflow) {
    unsigned long long u = PyLong_AsUnsignedLongLong(h);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      k.fail(what() + ": immediate " + pyRepr(h) + " does not fit in 64 bits");
    }
    bits = u;
  }
  if (w < 64) {
    bool fitsU = (bits >> w) == 0;
    bool fitsS = v < 0 && !overflow && v >= -(1ll << (w - 1));
    if (!fitsU && !fitsS)
      k.fail(what() + ": immediate " + pyRepr(h) + " does not fit a " +
             ISA::valTyName(o.ty).str() + " operand");
    bits &= (1ull << w) - 1;
  } else if (!overflow) {
    bits = integerImmediateBits(v, o.ty); // an f64 literal: the high half
  }
  return k.constant(t, bits);
}

static void modifier(PyKernel &k, const ISA::InstDesc &d, const ISA::ModDesc &m,
                     PyObject *h, OperationState &st) {
  MLIRContext *ctx = k.ctx();
  auto what = [&] { return std::string(d.mnemonic) + ": modifier '" + m.name + "'"; };
  if (m.kind == ISA::ModKind::Flag) {
    if (!PyBool_Check(h))
      k.fail(what() + " is a flag (True/False), got " + pyTypeName(h), true);
    if (h == Py_True)
      st.addAttribute(m.name, UnitAttr::get(ctx));
    return;
  }
  int64_t v = 0;
  if (m.kind == ISA::ModKind::Bits && (PyList_Check(h) || PyTuple_Check(h))) {
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    size_t n = nb::len(seq);
    if (n != m.len)
      k.fail(what() + " takes " + std::to_string(m.len) + " bits, got " +
             std::to_string(n), true);
    for (size_t b = 0; b < n; ++b) {
      nb::object e = seq[b];
      if (!(PyBool_Check(e.ptr()) || PyLong_Check(e.ptr())))
        k.fail(what() + " takes a list of 0/1, got " + pyTypeName(e.ptr()), true);
      long bit = PyLong_AsLong(e.ptr());
      if (bit != 0 && bit != 1)
        k.fail(what() + " takes a list of 0/1, got " + std::to_string(bit));
      v |= (int64_t)bit << b;
    }
  } else if (PyLong_Check(h) && !PyBool_Check(h)) {
    int overflow = 0;
    v = PyLong_AsLongLongAndOverflow(h, &overflow);
    if (overflow || v < m.min || v > m.max)
      k.fail(what() + " = " + pyRepr(h) + " is out of range [" + std::to_string(m.min) +
             ", " + std::to_string(m.max) + "]");
  } else {
    k.fail(what() + " must be an int, got " + pyTypeName(h), true);
  }
  // Kinds whose absent attribute means a non-zero default keep a zero.
  bool keepZero = m.kind == ISA::ModKind::Waitcnt || m.kind == ISA::ModKind::Pos ||
                  m.kind == ISA::ModKind::Hex16 || m.kind == ISA::ModKind::Dpp ||
                  m.kind == ISA::ModKind::HexMask || m.kind == ISA::ModKind::Sel ||
                  ISA::isPositionalMod(m.kind);
  if (v || keepZero)
    st.addAttribute(m.name, IntegerAttr::get(IntegerType::get(ctx, 32), v));
}

/// emit(index, frame, *dsts, *srcs, *mods[, label]) -> destination(s) | None
static PyObject *emit(PyKernel &k, PyObject *const *args, Py_ssize_t nargs) {
  auto insts = ISA::instructions();
  size_t index = nargs >= 2 && PyLong_Check(args[0]) ? PyLong_AsSize_t(args[0]) : (size_t)-1;
  if (PyErr_Occurred())
    PyErr_Clear();
  if (index >= insts.size())
    raiseType("emit(index, frame, *operands): bad instruction index");
  const ISA::InstDesc &d = insts[index];
  Py_ssize_t want = 2 + d.numDsts + d.numSrcs + d.numMods + (d.successors ? 1 : 0);
  if (nargs != want)
    raiseType(std::string("emit: ") + d.mnemonic + " takes " + std::to_string(want - 2) +
              " operands, got " + std::to_string(nargs - 2));
  Location loc = k.userLoc(args[1]);
  MLIRContext *ctx = k.ctx();
  if (k.sealed)
    k.fail(k.what() + " was transformed by a pass pipeline; build a new module to add instructions");
  if (!d.validOn(k.targetBit)) {
    std::string valid;
    for (uint8_t b : {ISA::T_GFX942, ISA::T_GFX950, ISA::T_GFX1201})
      if (d.validOn(b))
        valid += " " + ISA::targetName(b).str();
    k.fail(std::string(d.mnemonic) + " is not valid on target '" +
           ISA::targetName(k.targetBit).str() + "' (valid on:" + valid + ")");
  }
  SmallVector<Value> bargs; // block arguments of the branch target (set_branch_args)
  if (d.successors)
    std::swap(bargs, k.branchArgs);
  OperationState st(loc, k.opName(d));
  PyObject *const *a = args + 2;
  for (unsigned i = 0; i < d.numDsts; ++i) {
    PyObject *h = a[i];
    if (Py_TYPE(h) != regPyType)
      k.fail(std::string(d.mnemonic) + ": destination '" + d.dsts()[i].name +
                 "' must be a register (v[i], s[i:j], ...) or a virtual spec "
                 "(aster.VGPR(n), ...), got " +
                 (Py_TYPE(h) == valuePyType ? std::string("a Value, which cannot be redefined")
                                             : pyTypeName(h)),
             true);
    st.types.push_back(k.regType(*nb::inst_ptr<PyReg>(h)));
  }
  a += d.numDsts;
  for (unsigned i = 0; i < d.numSrcs; ++i) {
    const ISA::OperandDesc &o = d.srcs()[i];
    PyObject *h = a[i];
    if (h == Py_None) {
      if (o.optional)
        continue;
      k.fail(std::string(d.mnemonic) + ": source '" + o.name + "' is required, got None",
             true);
    }
    if (Py_TYPE(h) == regPyType) {
      PyReg &r = *nb::inst_ptr<PyReg>(h);
      if (r.isVirtual() && o.tiedTo >= 0)
        k.fail(std::string(d.mnemonic) + ": '" + d.dsts()[o.tiedTo].name +
               "' is virtual, so its old value must be given: pass " + o.name +
               "=<the Value it had>");
      if (r.isVirtual())
        k.fail(std::string(d.mnemonic) + ": source '" + o.name + "' is the virtual spec " +
               r.repr() + "; pass the Value returned by the instruction that wrote it");
      st.operands.push_back(k.regSource(r));
    } else if (Py_TYPE(h) == valuePyType) {
      PyValue &v = *nb::inst_ptr<PyValue>(h);
      if (v.gen != k.gen)
        k.fail(std::string(d.mnemonic) + ": source '" + o.name +
               "' is a Value of " + v.kernelName() + ", not of this " +
               (k.isFunction() ? "function" : "kernel"));
      st.operands.push_back(v.value);
    } else if (nb::isinstance<PyReloc>(nb::handle(h))) {
      PyReloc &r = nb::cast<PyReloc &>(nb::handle(h));
      st.operands.push_back(k.reloc(r.symbol, r.kind, r.addend));
    } else if (PyBool_Check(h) || !(PyLong_Check(h) || PyFloat_Check(h))) {
      k.fail(std::string(d.mnemonic) + ": source '" + o.name +
                 "' must be a register, a Value or a number, got " + pyTypeName(h),
             true);
    } else {
      st.operands.push_back(immediate(k, d, o, h));
    }
  }
  a += d.numSrcs;
  for (unsigned i = 0; i < d.numMods; ++i)
    if (a[i] != Py_None)
      modifier(k, d, *d.mods()[i], a[i], st);
  a += d.numMods;
  Block *fall = nullptr;
  if (d.successors) {
    PyLabel *l = nb::isinstance<PyLabel>(a[0]) ? nb::inst_ptr<PyLabel>(a[0]) : nullptr;
    if (!l)
      k.fail(std::string(d.mnemonic) + ": the branch target must be a label from "
                                       "k.label(), got " + pyTypeName(a[0]),
             true);
    if (l->gen != k.gen || !l->block)
      k.fail(std::string(d.mnemonic) + ": label '" + l->name +
             "' belongs to another kernel or was dropped when the kernel was finished");
    st.addSuccessors(l->block);
    if (d.successors == 2)
      st.addSuccessors(fall = new Block());
  }
  if (k.inserting && (d.has(ISA::PROP_TERMINATOR) || d.successors))
    k.fail(std::string(d.mnemonic) + " ends a block: it cannot be inserted before or "
                                     "after an op, only appended");
  k.ensureBlock();
  if (fall)
    k.body().getBlocks().insertAfter(Region::iterator(k.current), fall);
  // Most instructions carry no attribute: made from the context's empty
  // dictionary, not through OperationState's attribute list (sorting and
  // uniquing an empty list per op, a twentieth of an instruction's build).
  Operation *op;
  if (st.attributes.empty() && st.regions.empty() && !st.propertiesAttr && !st.getRawProperties()) {
    if (!k.emptyAttrs)
      k.emptyAttrs = DictionaryAttr::get(ctx);
    op = k.builder.insert(Operation::create(st.location, st.name, st.types, st.operands,
                                            k.emptyAttrs, nullptr, st.successors, 0));
  } else {
    op = k.builder.create(st);
  }
  if (!bargs.empty())
    setSuccessorOperands(op, 0, bargs);
  k.diagText.clear();
  LogicalResult ok = [&] {
    /// Keeps the first error of the verifier (for the message below).
    struct VerifySink : DiagnosticSink {
      std::string &text;
      VerifySink(MLIRContext *c, std::string &t) : DiagnosticSink(c), text(t) {}
      LogicalResult handle(Diagnostic &diag) override {
        if (diag.getSeverity() == DiagnosticSeverity::Error && text.empty())
          text = diag.str();
        return success();
      }
    } sink(ctx, k.diagText);
    return verifyInstruction(op, d);
  }();
  if (failed(ok)) {
    op->erase();
    if (fall)
      fall->erase();
    k.fail(std::string(d.mnemonic) + ": " +
           pythonMessage(ctx, k.diagText.empty() ? "invalid operands" : k.diagText));
  }
  if (fall) {
    k.current = fall;
    k.builder.setInsertionPointToEnd(fall);
  } else if (d.has(ISA::PROP_TERMINATOR)) {
    k.needNewBlock = true;
  }
  auto result = [&](unsigned i) -> PyObject * {
    PyReg &r = *nb::inst_ptr<PyReg>(args[2 + i]);
    if (!r.isVirtual())
      return Py_NewRef(args[2 + i]);
    return nb::cast(PyValue{op->getResult(i), k.gen, k.whatShared()}).release().ptr();
  };
  if (d.numDsts == 0)
    return Py_NewRef(Py_None);
  if (d.numDsts == 1)
    return result(0);
  PyObject *t = PyTuple_New(d.numDsts);
  for (unsigned i = 0; i < d.numDsts; ++i)
    PyTuple_SET_ITEM(t, i, result(i));
  return t;
}

static PyObject *emitTrampoline(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  try {
    return emit(*nb::inst_ptr<PyKernel>(self), args, nargs);
  } catch (nb::python_error &e) {
    e.restore();
  } catch (std::exception &e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

static PyMethodDef emitDef = {
    "emit", (PyCFunction)(void (*)(void))emitTrampoline, METH_FASTCALL,
    "emit(index, frame, *dsts, *srcs, *mods[, label]): one instruction (internal)."};

#include "python/InstMethods.inc"
#include "python/VirtualSpecs.inc"
#include "python/BuilderBindings.inc"
#include "python/GlobalBindings.inc"
#include "python/EditBindings.inc"
#include "python/FunctionBindings.inc"
#include "python/ScheduleBindings.inc"

} // namespace aster::py
