//===- Sass.cpp - aster.sass's MLIR bridge: `sass` modules from/to lists --===//
//
// sass_build(module_attrs, kernels) -> MLIR text of a verified `sass` module;
// sass_read(text, name) -> (module attributes, kernels), after parsing and
// verifying. A kernel is (name, attributes, [(text, ctrl, target, raw, pc)]); see
// cc/dialect/sass/Build.h. Errors raise aster.AsterError with locations.
//
//===----------------------------------------------------------------------===//
#include "dialect/sass/Build.h"
#include "python/Core.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Parser/Parser.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace mlir;

namespace aster::py {
void raiseError(const std::string &msg);

namespace {
using PyInst = std::tuple<std::string, int64_t, int64_t, std::string, int64_t>;
using PyKernel = std::tuple<std::string, std::string, std::vector<PyInst>>;

MLIRContext *sassContext() {
  static MLIRContext *ctx = [] {
    auto *c = new MLIRContext(MLIRContext::Threading::DISABLED);
    c->getOrLoadDialect<sass::SassDialect>();
    return c;
  }();
  return ctx;
}

nb::object toPy(Attribute a) {
  if (auto i = dyn_cast<IntegerAttr>(a))
    return nb::int_(i.getInt());
  if (auto s = dyn_cast<StringAttr>(a))
    return nb::str(s.getValue().data(), s.getValue().size());
  if (auto d = dyn_cast<DenseI64ArrayAttr>(a)) {
    nb::list l;
    for (int64_t x : d.asArrayRef())
      l.append(x);
    return l;
  }
  if (auto arr = dyn_cast<ArrayAttr>(a)) {
    nb::list l;
    for (Attribute x : arr)
      l.append(toPy(x));
    return l;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  a.print(os);
  return nb::str(s.c_str());
}

std::string sassBuild(const std::string &moduleAttrs, const std::vector<PyKernel> &kernels) {
  std::vector<sass::FlatKernel> ks;
  for (const auto &[name, attrs, insts] : kernels) {
    sass::FlatKernel k{name, attrs, {}};
    for (const auto &[text, ctrl, target, raw, pc] : insts)
      k.insts.push_back({text, ctrl, target, raw, pc});
    ks.push_back(std::move(k));
  }
  std::string err;
  OwningOpRef<ModuleOp> m = sass::buildModule(sassContext(), moduleAttrs, ks, err);
  if (!m)
    raiseError(err);
  std::string s;
  llvm::raw_string_ostream os(s);
  m->print(os);
  return s;
}

nb::tuple sassRead(const std::string &text, const std::string &name) {
  MLIRContext *ctx = sassContext();
  std::string diags;
  OwningOpRef<ModuleOp> m;
  {
    ScopedDiagnosticHandler h(ctx, [&](Diagnostic &d) {
      std::string loc;
      llvm::raw_string_ostream os(loc);
      if (auto fl = dyn_cast<FileLineColLoc>(d.getLocation()))
        os << fl.getFilename().getValue() << ":" << fl.getLine() << ":" << fl.getColumn();
      else
        d.getLocation().print(os);
      diags += loc + ": " + d.str() + "\n";
      return success();
    });
    ParserConfig cfg(ctx);
    m = parseSourceString<ModuleOp>(text, cfg, name);
  }
  if (!m)
    raiseError("sass module " + name + " does not parse or verify:\n" + diags);
  nb::dict mattrs;
  for (NamedAttribute na : (*m)->getAttrs())
    mattrs[nb::str(na.getName().getValue().str().c_str())] = toPy(na.getValue());
  nb::list kernels;
  std::vector<sass::FlatKernel> ks = sass::readModule(*m);
  size_t i = 0;
  for (sass::KernelOp k : m->getBody()->getOps<sass::KernelOp>()) {
    nb::dict kattrs;
    for (NamedAttribute na : k->getDiscardableAttrs())
      kattrs[nb::str(na.getName().getValue().str().c_str())] = toPy(na.getValue());
    nb::list insts;
    for (const sass::FlatInst &fi : ks[i].insts)
      insts.append(nb::make_tuple(fi.text, fi.ctrl, fi.target, fi.raw, fi.pc));
    kernels.append(nb::make_tuple(ks[i].name, kattrs, insts));
    ++i;
  }
  return nb::make_tuple(mattrs, kernels);
}
} // namespace

void bindSass(nb::module_ &m) {
  m.def("sass_build", &sassBuild, nb::arg("module_attrs"), nb::arg("kernels"),
        "A verified `sass` MLIR module (text) from flat kernels.");
  m.def("sass_read", &sassRead, nb::arg("text"), nb::arg("name") = "<string>",
        "Parses and verifies a `sass` module: (module attributes, kernels).");
}
} // namespace aster::py
