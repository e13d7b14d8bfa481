//===- Lower.cpp - aster._aster: lowering upstream MLIR GPU kernels ------===//
#include "python/Core.h"
#include "dialect/Dialect.h"
#include "lower/Lower.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <algorithm>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace mlir;

namespace aster::py {

/// Parses upstream MLIR text, lowers its gpu.modules (amdgcn-lower) and
/// returns one module per gpu.module, in order: (name, Module). The
/// modules share a context of their own (with the upstream dialects).
using Sigs = std::vector<std::pair<std::string, std::vector<std::string>>>;
using Lowered = std::tuple<std::string, std::unique_ptr<PyModule>, Sigs>;
static std::vector<Lowered>
lowerText(const std::string &text, const std::string &target, const std::string &name,
          const std::vector<std::string> &libraries) {
  std::shared_ptr<MLIRContext> ctx(PyModule::newContext());
  DialectRegistry registry;
  lower::registerUpstreamDialects(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadAllAvailableDialects();
  DiagnosticCollector diags(ctx.get());
  OwningOpRef<ModuleOp> top = parseSourceString<ModuleOp>(text, ParserConfig(ctx.get()), name);
  if (!top)
    diags.raise("cannot parse the module");
  // Libraries (printed aster Modules): their amdgcn.modules join the input,
  // so func.call finds their functions (cc/lower/LowerCall.cpp).
  for (const std::string &lib : libraries) {
    OwningOpRef<ModuleOp> l = parseSourceString<ModuleOp>(lib, ParserConfig(ctx.get()), "<library>");
    if (!l)
      diags.raise("cannot parse a library module");
    for (auto km : llvm::make_early_inc_range(l->getOps<amdgcn::KernelModuleOp>()))
      km->moveBefore(top->getBody(), top->getBody()->end());
  }
  if (failed(verify(*top)))
    diags.raise("the input module does not verify");
  if (failed(lower::lowerGpuModules(*top, target)))
    diags.raise("amdgcn-lower failed");
  std::vector<Lowered> out;
  for (auto km : llvm::make_early_inc_range(top->getOps<amdgcn::KernelModuleOp>())) {
    auto m = std::make_unique<PyModule>();
    m->ctx = ctx;
    m->module = ModuleOp::create(km.getLoc());
    km->moveBefore(m->module->getBody(), m->module->getBody()->end());
    Sigs sigs;
    for (auto k : km.getOps<amdgcn::KernelOp>()) {
      std::vector<std::string> types;
      if (auto from = k->getAttrOfType<ArrayAttr>("lowered_from"))
        for (Attribute t : from)
          types.push_back(cast<StringAttr>(t).getValue().str());
      sigs.emplace_back(k.getSymName().str(), std::move(types));
    }
    out.emplace_back(km.getSymName().str(), std::move(m), std::move(sigs));
  }
  return out;
}

/// The operations upstream MLIR registers for the dialects amdgcn-lower
/// loads (registerUpstreamDialects), sorted: the list the lowering's
/// coverage audit walks (python/aster/lowering/coverage.py), taken from the
/// linked MLIR libraries rather than typed by hand.
static std::vector<std::string> upstreamOps() {
  MLIRContext ctx;
  DialectRegistry registry;
  lower::registerUpstreamDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  std::vector<std::string> out;
  for (RegisteredOperationName op : ctx.getRegisteredOperations())
    out.push_back(op.getStringRef().str());
  std::sort(out.begin(), out.end());
  return out;
}

void bindLower(nb::module_ &m) {
  m.def("upstream_ops", &upstreamOps,
        "The op names upstream MLIR registers for the dialects aster.lower loads (sorted).");
  m.def("lower", &lowerText, nb::arg("text"), nb::arg("target") = "gfx942",
        nb::arg("name") = "<string>", nb::arg("libraries") = std::vector<std::string>(),
        "Lowers the gpu.modules of upstream MLIR text to amdgcn modules: [(name, Module, [(kernel, [source argument types])])].");
}

} // namespace aster::py
