//===- Builder.cpp - the fast path behind aster's Python kernel builder ---===//
//
// Python's generated methods (one per table row) call KernelBuilder.emit with
// the row index, destinations, sources and modifiers; this file turns those
// into one instruction op, verifies it at once and raises AsterError at the
// user's line when it is wrong.
//
//===----------------------------------------------------------------------===//
#include "python/Core.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

namespace nb = nanobind;
using namespace mlir;
using namespace aster::amdgcn;

namespace aster::py {

namespace {

/// A register operand as Python names it: v[3], s[0:2], a[0:4], vcc, or a
/// virtual register spec (index -1).
struct PyReg {
  int kind;  // 0 VGPR, 1 SGPR, 2 AGPR, 3 special
  int index; // -1: virtual; special: SpecialReg id
  unsigned width, align;

  Type type(MLIRContext *ctx) const {
    if (kind == 3)
      return SpecialRegType::get(ctx, (SpecialReg)index);
    return RegType::get(ctx, (RegKind)kind, index, width, align);
  }
  std::string str() const {
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
};

struct PyKernel;

/// An SSA value produced by the builder (a destination register).
struct PyValue {
  Value value;
  PyKernel *kernel;
};

struct PyLabel {
  Block *block;
  std::string name;
  bool bound = false;
};

struct PyKernel {
  nb::object moduleRef; // keeps the PyModule (and context) alive
  PyModule *module;
  KernelOp kernel;
  OpBuilder builder;
  Block *current;
  bool needNewBlock = false;
  uint8_t targetBit;
  llvm::DenseMap<Type, Value> regValues;
  llvm::DenseMap<std::pair<Type, uint64_t>, Value> constants;
  std::vector<PyLabel *> labels;
  std::string lastFile;
  StringAttr lastFileAttr;

  PyKernel(nb::object ref, PyModule *m, KernelOp k, uint8_t t)
      : moduleRef(std::move(ref)), module(m), kernel(k),
        builder(k.getContext()), current(&k.getBody().front()), targetBit(t) {
    builder.setInsertionPointToEnd(current);
  }
  MLIRContext *ctx() { return kernel.getContext(); }

  Location loc(const std::string &file, int line) {
    if (file != lastFile || !lastFileAttr) {
      lastFile = file;
      lastFileAttr = StringAttr::get(ctx(), file);
    }
    return FileLineColLoc::get(lastFileAttr, line, 0);
  }

  void ensureBlock() {
    if (!needNewBlock)
      return;
    Block *b = new Block();
    kernel.getBody().getBlocks().insertAfter(Region::iterator(current), b);
    current = b;
    builder.setInsertionPointToEnd(current);
    needNewBlock = false;
  }

  /// The value naming an allocated register, created once at kernel entry.
  Value regValue(Type t) {
    auto it = regValues.find(t);
    if (it != regValues.end())
      return it->second;
    OpBuilder b(ctx());
    b.setInsertionPointToStart(&kernel.getBody().front());
    Value v = RegOp::create(b, kernel.getLoc(), t).getResult();
    regValues[t] = v;
    return v;
  }

  Value constant(Type t, uint64_t bits) {
    auto key = std::make_pair(t, bits);
    auto it = constants.find(key);
    if (it != constants.end())
      return it->second;
    OpBuilder b(ctx());
    b.setInsertionPointToStart(&kernel.getBody().front());
    TypedAttr attr;
    if (auto ft = dyn_cast<FloatType>(t))
      attr = FloatAttr::get(ft, APFloat(ft.getFloatSemantics(),
                                        APInt(ft.getWidth(), bits)));
    else
      attr = IntegerAttr::get(t, APInt(t.getIntOrFloatBitWidth(), bits));
    Value v = arith::ConstantOp::create(b, kernel.getLoc(), t, attr).getResult();
    constants[key] = v;
    return v;
  }
};

[[noreturn]] void raiseAt(const std::string &file, int line, const std::string &msg) {
  raiseError(file + ":" + std::to_string(line) + ": error: " + msg);
}

std::string pyTypeName(nb::handle h) {
  return nb::cast<std::string>(nb::str(h.type().attr("__name__")));
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

} // namespace

static nb::object emit(PyKernel &k, unsigned index, nb::tuple dsts, nb::tuple srcs,
                       nb::tuple mods, nb::handle target, const std::string &file,
                       int line) {
  auto insts = ISA::instructions();
  if (index >= insts.size())
    raiseError("instruction index out of range");
  const ISA::InstDesc &d = insts[index];
  MLIRContext *ctx = k.ctx();
  if (!d.validOn(k.targetBit))
    raiseAt(file, line, std::string(d.mnemonic) + " is not valid on target '" +
                            ISA::targetName(k.targetBit).str() + "'");
  k.ensureBlock();
  Location loc = k.loc(file, line);
  OperationState st(loc, getInstOpName(ctx, d));
  // Destinations.
  for (unsigned i = 0; i < d.numDsts; ++i) {
    nb::handle h = dsts[i];
    if (!nb::isinstance<PyReg>(h))
      raiseAt(file, line, std::string(d.mnemonic) + ": destination '" +
                              d.dsts()[i].name + "' must be a register, got " +
                              pyTypeName(h));
    st.types.push_back(nb::cast<PyReg &>(h).type(ctx));
  }
  // Sources.
  for (unsigned i = 0; i < d.numSrcs; ++i) {
    const ISA::OperandDesc &o = d.srcs()[i];
    nb::handle h = srcs[i];
    if (h.is_none()) {
      if (o.optional)
        continue;
      raiseAt(file, line, std::string(d.mnemonic) + ": source '" + o.name +
                              "' is required");
    }
    if (nb::isinstance<PyValue>(h)) {
      st.operands.push_back(nb::cast<PyValue &>(h).value);
    } else if (nb::isinstance<PyReg>(h)) {
      PyReg &r = nb::cast<PyReg &>(h);
      if (r.kind != 3 && r.index < 0)
        raiseAt(file, line, std::string(d.mnemonic) + ": source '" + o.name +
                                "' is an unwritten virtual register spec; use the "
                                "value returned by the instruction that defines it");
      st.operands.push_back(k.regValue(r.type(ctx)));
    } else if (PyBool_Check(h.ptr()) || !(PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr()))) {
      raiseAt(file, line, std::string(d.mnemonic) + ": source '" + o.name +
                              "' must be a register, a value or a number, got " +
                              pyTypeName(h));
    } else if (PyFloat_Check(h.ptr())) {
      Type t = immType(ctx, o.ty, true);
      APFloat f(nb::cast<double>(h));
      bool lost;
      f.convert(cast<FloatType>(t).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      st.operands.push_back(k.constant(t, f.bitcastToAPInt().getZExtValue()));
    } else {
      Type t = immType(ctx, o.ty, false);
      unsigned w = t.getIntOrFloatBitWidth();
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
      uint64_t bits;
      if (overflow) {
        unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
        if (PyErr_Occurred()) {
          PyErr_Clear();
          raiseAt(file, line, std::string(d.mnemonic) + ": immediate for '" + o.name +
                                  "' does not fit in 64 bits");
        }
        bits = u;
      } else {
        bits = (uint64_t)v;
      }
      if (w < 64) {
        bool fitsU = (bits >> w) == 0;
        bool fitsS = v < 0 && !overflow && v >= -(1ll << (w - 1));
        if (!fitsU && !fitsS)
          raiseAt(file, line, std::string(d.mnemonic) + ": immediate " +
                                  nb::cast<std::string>(nb::str(h)) + " for '" +
                                  o.name + "' does not fit a " +
                                  ISA::valTyName(o.ty).str() + " operand");
        bits &= (1ull << w) - 1;
      }
      st.operands.push_back(k.constant(t, bits));
    }
  }
  // Modifiers.
  for (unsigned i = 0; i < d.numMods; ++i) {
    const ISA::ModDesc &m = *d.mods()[i];
    nb::handle h = mods[i];
    if (h.is_none())
      continue;
    if (m.kind == ISA::ModKind::Flag) {
      if (!PyBool_Check(h.ptr()))
        raiseAt(file, line, std::string(d.mnemonic) + ": modifier '" + m.name +
                                "' is a flag (True/False), got " + pyTypeName(h));
      if (h.ptr() == Py_True)
        st.addAttribute(m.name, UnitAttr::get(ctx));
      continue;
    }
    int64_t v = 0;
    if (m.kind == ISA::ModKind::Bits && (nb::isinstance<nb::list>(h) || nb::isinstance<nb::tuple>(h))) {
      unsigned b = 0;
      for (nb::handle e : h)
        v |= (int64_t)(nb::cast<int>(e) & 1) << b++;
    } else if (PyLong_Check(h.ptr())) {
      v = nb::cast<int64_t>(h);
    } else {
      raiseAt(file, line, std::string(d.mnemonic) + ": modifier '" + m.name +
                              "' must be an int, got " + pyTypeName(h));
    }
    bool keepZero = m.kind == ISA::ModKind::Waitcnt || m.kind == ISA::ModKind::Pos ||
                    m.kind == ISA::ModKind::Hex16;
    if (v || keepZero)
      st.addAttribute(m.name, IntegerAttr::get(IntegerType::get(ctx, 32), v));
  }
  // Successors.
  Block *fall = nullptr;
  if (d.successors) {
    if (!nb::isinstance<PyLabel>(target))
      raiseAt(file, line, std::string(d.mnemonic) + ": branch target must be a label");
    st.addSuccessors(nb::cast<PyLabel &>(target).block);
    if (d.successors == 2) {
      fall = new Block();
      k.kernel.getBody().getBlocks().insertAfter(Region::iterator(k.current), fall);
      st.addSuccessors(fall);
    }
  }
  Operation *op = k.builder.create(st);
  {
    DiagnosticCollector diags(ctx);
    if (failed(verifyInstruction(op, d))) {
      op->erase();
      if (fall)
        fall->erase();
      diags.raise(file + ":" + std::to_string(line) + ": error: invalid " + d.mnemonic);
    }
  }
  if (fall) {
    k.current = fall;
    k.builder.setInsertionPointToEnd(fall);
  } else if (d.has(ISA::PROP_TERMINATOR)) {
    k.needNewBlock = true;
  }
  unsigned nr = op->getNumResults();
  if (nr == 0)
    return nb::none();
  if (nr == 1)
    return nb::cast(PyValue{op->getResult(0), &k});
  nb::list out;
  for (Value v : op->getResults())
    out.append(nb::cast(PyValue{v, &k}));
  return nb::tuple(out);
}

static void bindLabel(PyKernel &k, PyLabel &l) {
  if (l.bound)
    raiseError("label '" + l.name + "' is bound twice");
  l.bound = true;
  if (!k.needNewBlock) {
    // Fall through from the current block into the label.
    if (k.current->empty() && k.current->hasNoPredecessors() &&
        k.current != &k.kernel.getBody().front()) {
      // An empty unreachable block: drop it.
      Block *dead = k.current;
      k.current = dead->getPrevNode();
      dead->erase();
      l.block->moveBefore(k.current->getNextNode() ? k.current->getNextNode() : nullptr);
    }
    if (k.current->empty() ||
        !k.current->back().hasTrait<OpTrait::IsTerminator>())
      cf::BranchOp::create(k.builder, k.kernel.getLoc(), l.block);
  }
  // Place the label's block right after the current one.
  Block *next = k.current->getNextNode();
  if (next != l.block) {
    l.block->getParent()->getBlocks().remove(l.block);
    k.kernel.getBody().getBlocks().insertAfter(Region::iterator(k.current), l.block);
  }
  k.current = l.block;
  k.builder.setInsertionPointToEnd(l.block);
  k.needNewBlock = false;
}

static void finish(PyKernel &k) {
  for (PyLabel *l : k.labels)
    if (!l->bound && !l->block->hasNoPredecessors())
      raiseError("label '" + l->name + "' is used by a branch but never bound");
  // Drop unbound, unused label blocks and an empty trailing block.
  for (PyLabel *l : k.labels)
    if (!l->bound && l->block->getParent())
      l->block->erase(), l->block = nullptr, l->bound = true;
  Block &last = k.kernel.getBody().back();
  if (last.empty() && last.hasNoPredecessors() && &last != &k.kernel.getBody().front())
    last.erase();
  Block &end = k.kernel.getBody().back();
  if (end.empty() || !end.back().hasTrait<OpTrait::IsTerminator>()) {
    Location l = end.empty() ? k.kernel.getLoc() : end.back().getLoc();
    raiseError(formatLocation(l) + ": error: kernel '" +
               k.kernel.getSymName().str() +
               "' does not end with s_endpgm or a branch");
  }
}

static std::unique_ptr<PyModule> newModule(const std::string &target, const std::string &name) {
  uint8_t bit = ISA::targetBit(target);
  if (!bit)
    raiseError("unknown target '" + target + "' (expected gfx942, gfx950 or gfx1201)");
  auto m = std::make_unique<PyModule>();
  m->ctx = PyModule::newContext();
  OpBuilder b(m->ctx.get());
  Location loc = UnknownLoc::get(m->ctx.get());
  m->module = mlir::ModuleOp::create(loc);
  b.setInsertionPointToEnd(m->module->getBody());
  auto km = KernelModuleOp::create(b, loc, name, target);
  km.getBody().emplaceBlock();
  return m;
}

static PyKernel *addKernel(nb::object moduleObj, const std::string &name,
                           std::vector<std::string> argNames,
                           std::vector<std::string> argTypes, nb::dict attrs,
                           const std::string &file, int line) {
  PyModule &m = nb::cast<PyModule &>(moduleObj);
  MLIRContext *ctx = m.ctx.get();
  KernelModuleOp km;
  m.get().walk([&](KernelModuleOp op) { km = op; });
  if (!km)
    raiseError("module has no amdgcn.module");
  if (argNames.size() != argTypes.size())
    raiseError("argument names and types differ in length");
  if (km.lookupSymbol(name))
    raiseAt(file, line, "a kernel named '" + name + "' already exists");
  SmallVector<Attribute> names, types;
  for (size_t i = 0; i < argNames.size(); ++i) {
    Type t = parseType(argTypes[i], ctx);
    if (!t)
      raiseAt(file, line, "cannot parse argument type '" + argTypes[i] + "'");
    names.push_back(StringAttr::get(ctx, argNames[i]));
    types.push_back(TypeAttr::get(t));
  }
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(&km.getBody().front());
  Location loc = FileLineColLoc::get(ctx, file, line, 0);
  auto k = KernelOp::create(b, loc, name, b.getArrayAttr(names), b.getArrayAttr(types));
  for (auto [key, value] : attrs) {
    std::string kname = nb::cast<std::string>(key);
    Attribute a;
    if (kname == "block") {
      auto v = nb::cast<std::vector<int>>(value);
      a = DenseI32ArrayAttr::get(ctx, v);
    } else if (kname == "sgpr_setup") {
      SmallVector<Attribute> s;
      for (auto &e : nb::cast<std::vector<std::string>>(value))
        s.push_back(StringAttr::get(ctx, e));
      a = ArrayAttr::get(ctx, s);
    } else {
      a = b.getI32IntegerAttr(nb::cast<int>(value));
    }
    k->setAttr(kname, a);
  }
  k.getBody().emplaceBlock();
  DiagnosticCollector diags(ctx);
  if (failed(k.verify())) {
    k.erase();
    diags.raise("invalid kernel");
  }
  return new PyKernel(moduleObj, &m, k, km.getTargetBit());
}

void bindBuilder(nb::module_ &m) {
  nb::class_<PyReg>(m, "Reg")
      .def(nb::init<int, int, unsigned, unsigned>(), nb::arg("kind"),
           nb::arg("index"), nb::arg("width") = 1, nb::arg("align") = 1)
      .def_ro("kind", &PyReg::kind)
      .def_ro("index", &PyReg::index)
      .def_ro("width", &PyReg::width)
      .def_ro("align", &PyReg::align)
      .def("__repr__", &PyReg::str)
      .def("__eq__", [](const PyReg &a, const PyReg &b) {
        return a.kind == b.kind && a.index == b.index && a.width == b.width &&
               a.align == b.align;
      })
      .def("__hash__", [](const PyReg &a) {
        return (a.kind * 1000003) ^ (a.index * 10007) ^ (a.width * 31) ^ a.align;
      });
  m.def("special_index", [](const std::string &name) -> int {
    auto s = parseSpecialReg(name);
    if (!s)
      raiseError("unknown special register '" + name + "'");
    return (int)*s;
  });
  nb::class_<PyValue>(m, "Value")
      .def_prop_ro("type", [](PyValue &v) {
        std::string s;
        llvm::raw_string_ostream os(s);
        os << v.value.getType();
        return s;
      })
      .def("__repr__", [](PyValue &v) {
        std::string s;
        llvm::raw_string_ostream os(s);
        os << "<aster.Value " << v.value.getType() << ">";
        return s;
      });
  nb::class_<PyLabel>(m, "Label").def_ro("name", &PyLabel::name);
  nb::class_<PyKernel>(m, "KernelBuilder")
      .def("emit", &emit, nb::arg("index"), nb::arg("dsts"), nb::arg("srcs"),
           nb::arg("mods"), nb::arg("target").none(), nb::arg("file"), nb::arg("line"))
      .def("new_label", [](PyKernel &k, const std::string &name) {
        auto *l = new PyLabel{new Block(), name};
        k.kernel.getBody().push_back(l->block);
        k.labels.push_back(l);
        return l;
      }, nb::rv_policy::reference_internal)
      .def("bind", &bindLabel)
      .def("finish", &finish)
      .def_prop_ro("name", [](PyKernel &k) { return k.kernel.getSymName().str(); });
  m.def("new_module", &newModule, nb::arg("target"), nb::arg("name") = "module");
  m.def("add_kernel", &addKernel, nb::rv_policy::take_ownership);
}

} // namespace aster::py
