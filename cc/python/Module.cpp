//===- Module.cpp - the `aster._aster` extension: modules, passes, output ===//
#include "python/Core.h"
#include "recovery/Recovery.h"
#include "target/Assembler.h"
#include "target/Disassembler.h"
#include "target/DirectEmit.h"
#include "target/Translate.h"
#include "target/raise/RaiseCommon.h"
#include "transforms/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/StringMap.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/unique_ptr.h>

namespace nb = nanobind;
using namespace mlir;

namespace aster::py {

nb::object asterError;

void raiseError(const std::string &msg) {
  PyErr_SetString(asterError.ptr(), msg.c_str());
  throw nb::python_error();
}

std::unique_ptr<MLIRContext> PyModule::newContext() {
  DialectRegistry registry;
  amdgcn::registerAllDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  // Diagnostics name their op's location; MLIR's default also prints the
  // whole op into a note (for a remark on a kernel: the entire kernel), which
  // DiagnosticCollector drops anyway and which cost a quarter of
  // amdgcn-regalloc's time on large kernels (its statistics remark).
  ctx->printOpOnDiagnostic(false);
  DiagnosticSink::route(ctx.get());
  return ctx;
}

std::shared_ptr<MLIRContext> PyModule::sharedContext() {
  // Made once (C++ static initialisation is thread-safe), never destroyed:
  // modules may outlive the interpreter's teardown of this extension.
  static auto *shared = new std::shared_ptr<MLIRContext>(newContext());
  return *shared;
}

namespace {
/// This thread's innermost sink (of any context).
thread_local DiagnosticSink *innermostSink = nullptr;
} // namespace

DiagnosticSink::DiagnosticSink(MLIRContext *ctx) : ctx(ctx), outer(innermostSink) {
  innermostSink = this;
}
DiagnosticSink::~DiagnosticSink() { innermostSink = outer; }

void DiagnosticSink::route(MLIRContext *ctx) {
  ctx->getDiagEngine().registerHandler([ctx](Diagnostic &d) -> LogicalResult {
    for (DiagnosticSink *s = innermostSink; s; s = s->outer)
      if (s->ctx == ctx && succeeded(s->handle(d)))
        return success();
    return failure();
  });
}

std::string formatLocation(Location loc) {
  if (auto pc = raise::pcOfLocation(loc))
    return (cast<FileLineColLoc>(loc).getFilename().getValue() + " pc 0x" +
            llvm::utohexstr(*pc, true))
        .str();
  if (auto fl = dyn_cast<FileLineColLoc>(loc))
    return (fl.getFilename().getValue() + ":" + Twine(fl.getLine()) + ":" +
            Twine(fl.getColumn()))
        .str();
  if (auto n = dyn_cast<NameLoc>(loc))
    return formatLocation(n.getChildLoc());
  if (auto c = dyn_cast<CallSiteLoc>(loc)) // an op of an inlined function body
    return formatLocation(c.getCallee()) + " (called at " + formatLocation(c.getCaller()) +
           ")";
  if (auto f = dyn_cast<FusedLoc>(loc))
    if (!f.getLocations().empty())
      return formatLocation(f.getLocations().front());
  std::string s;
  llvm::raw_string_ostream os(s);
  os << loc;
  return s;
}

LogicalResult DiagnosticCollector::handle(Diagnostic &d) {
  if (d.getSeverity() != DiagnosticSeverity::Error &&
      d.getSeverity() != DiagnosticSeverity::Warning)
    return success();
  if (!messages.empty())
    messages += "\n";
  messages += formatLocation(d.getLocation()) + ": " +
              (d.getSeverity() == DiagnosticSeverity::Error ? "error: " : "warning: ") +
              d.str();
  for (Diagnostic &n : d.getNotes())
    if (!StringRef(n.str()).starts_with("see current operation"))
      messages += "\n" + formatLocation(n.getLocation()) + ": note: " + n.str();
  return success();
}
void DiagnosticCollector::raise(const std::string &fallback) {
  raiseError(messages.empty() ? fallback : messages);
}

static std::unique_ptr<PyModule> parseModule(const std::string &text,
                                             const std::string &name) {
  auto m = std::make_unique<PyModule>();
  m->ctx = PyModule::sharedContext();
  DiagnosticCollector diags(m->ctx.get());
  m->module = parseSourceString<ModuleOp>(text, ParserConfig(m->ctx.get()), name);
  if (!m->module)
    diags.raise("cannot parse the module");
  return m;
}

static amdgcn::KernelModuleOp kernelModule(PyModule &m, DiagnosticCollector &d) {
  if (failed(verify(m.get())))
    d.raise("the module does not verify");
  auto km = target::findKernelModule(m.get());
  if (failed(km))
    d.raise("expected exactly one amdgcn.module");
  return *km;
}

/// Raises a clear error at the first op (or block argument) holding a
/// virtual register: translation needs every register allocated.
static void requireAllocated(amdgcn::KernelModuleOp km) {
  auto isVirtual = [](Type t) {
    auto r = dyn_cast<amdgcn::RegType>(t);
    return r && r.isVirtual();
  };
  Location at = km.getLoc();
  std::string kernel;
  // Functions are not translated (their calls are inlined): only kernels.
  WalkResult res = WalkResult::advance();
  for (auto k : km.getBody().front().getOps<amdgcn::KernelOp>()) {
   // A kernel marked `allocated` has none: its verifier (run by
   // kernelModule, before this) checks that.
   if (k->hasAttr("allocated"))
     continue;
   res = k.walk([&](Operation *op) {
    bool found = llvm::any_of(op->getResultTypes(), isVirtual);
    for (Region &r : op->getRegions())
      for (Block &b : r)
        found |= llvm::any_of(b.getArgumentTypes(), isVirtual);
    if (!found)
      return WalkResult::advance();
    at = op->getLoc();
    if (auto k = op->getParentOfType<amdgcn::KernelOp>())
      kernel = k.getSymName().str();
    return WalkResult::interrupt();
   });
   if (res.wasInterrupted())
     break;
  }
  if (!res.wasInterrupted())
    return;
  raiseError(formatLocation(at) + ": error: virtual registers: run the amdgcn-regalloc "
             "pipeline (aster.compile(module, pipeline=\"amdgcn-regalloc\")) before "
             "producing assembly" + (kernel.empty() ? "" : " (kernel '" + kernel + "')"));
}

static std::string moduleAsm(PyModule &m) {
  DiagnosticCollector d(m.ctx.get());
  auto km = kernelModule(m, d);
  requireAllocated(km);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(target::translateToAsm(km, os)))
    d.raise("translation to assembly failed");
  return text;
}

static nb::bytes moduleHsaco(PyModule &m, bool direct) {
  DiagnosticCollector d(m.ctx.get());
  auto km = kernelModule(m, d);
  requireAllocated(km);
  FailureOr<std::vector<char>> bytes;
  {
    nb::gil_scoped_release release;
    bytes = target::translateToHsaco(km, direct);
  }
  if (failed(bytes))
    d.raise("producing the code object failed");
  return nb::bytes(bytes->data(), bytes->size());
}

/// What the direct encoder does with the module (tests and benchmarks):
/// {kernels, text_kernels: [names], forms_learned, instructions, assembler
/// (whether LLVM's assembler ran: some text), object (the relocatable
/// object, or error)}.
static nb::dict directStats(PyModule &m, std::vector<std::string> textMnemonics) {
  DiagnosticCollector d(m.ctx.get());
  auto km = kernelModule(m, d);
  requireAllocated(km);
  target::DirectStats st;
  llvm::Expected<std::vector<char>> obj = std::vector<char>();
  {
    nb::gil_scoped_release release;
    obj = target::emitObject(km, &st, textMnemonics);
  }
  nb::dict out;
  out["kernels"] = st.kernels;
  out["text_kernels"] = st.textKernels;
  out["forms_learned"] = st.formsLearned;
  out["instructions"] = st.instructions;
  out["assembler"] = st.assembler;
  if (obj)
    out["object"] = nb::bytes(obj->data(), obj->size());
  else
    out["error"] = llvm::toString(obj.takeError());
  return out;
}

/// Parsed pipelines of the shared context by (verify, pipeline text):
/// parsing builds every pass and its options; a PassManager may run again
/// (aster's passes keep nothing between runs but their options). Only for
/// the shared context (a module's own context dies with it); used with the
/// GIL held, so by one thread at a time. At most kMax pipelines are kept.
static PassManager *parsedPipeline(MLIRContext *ctx, const std::string &pipeline,
                                   bool verify, std::string &err) {
  static auto &cache = *new llvm::StringMap<std::unique_ptr<PassManager>>;
  constexpr unsigned kMax = 64;
  std::string key = (verify ? "1" : "0") + pipeline;
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second.get();
  auto pm = std::make_unique<PassManager>(ctx, ModuleOp::getOperationName());
  pm->enableVerifier(verify);
  llvm::raw_string_ostream es(err);
  if (failed(parsePassPipeline(pipeline, *pm, es)))
    return nullptr;
  if (cache.size() >= kMax)
    cache.clear();
  return (cache[key] = std::move(pm)).get();
}

static void runPipeline(PyModule &m, const std::string &pipeline, bool verify) {
  DiagnosticCollector d(m.ctx.get());
  std::string err;
  std::unique_ptr<PassManager> own;
  PassManager *pm;
  if (m.ctx == PyModule::sharedContext()) {
    pm = parsedPipeline(m.ctx.get(), pipeline, verify, err);
  } else {
    own = std::make_unique<PassManager>(m.ctx.get(), ModuleOp::getOperationName());
    own->enableVerifier(verify);
    llvm::raw_string_ostream es(err);
    pm = succeeded(parsePassPipeline(pipeline, *own, es)) ? own.get() : nullptr;
  }
  if (!pm)
    raiseError("invalid pass pipeline '" + pipeline + "': " + err);
  if (failed(pm->run(m.get())))
    d.raise("pass pipeline '" + pipeline + "' failed");
}

static nb::bytes assembleText(const std::string &text, const std::string &cpu,
                              bool link) {
  std::vector<target::AsmDiagnostic> diags;
  llvm::Expected<std::vector<char>> out = std::vector<char>();
  {
    nb::gil_scoped_release release;
    out = link ? target::assembleHsaco(text, cpu, &diags)
               : target::assembleObject(text, cpu, &diags);
  }
  if (!out) {
    std::string msg = llvm::toString(out.takeError());
    for (size_t i = 1; i < diags.size(); ++i)
      msg += "\nline " + std::to_string(diags[i].line) + ": " + diags[i].message;
    raiseError(msg);
  }
  return nb::bytes(out->data(), out->size());
}

static std::vector<std::string> disassembleBytes(nb::bytes data,
                                                 const std::string &cpu) {
  auto lines = target::disassemble(
      llvm::ArrayRef<char>(static_cast<const char *>(data.data()), data.size()), cpu);
  if (!lines)
    raiseError(llvm::toString(lines.takeError()));
  return *lines;
}

void bindSass(nanobind::module_ &m); // Sass.cpp: the sass dialect bridge
} // namespace aster::py

using namespace aster::py;

NB_MODULE(_aster, m) {
  m.doc() = "aster's C++ core: the amdgcn dialect, passes, translation, MC/lld.";
  static bool registered = [] {
    aster::installFatalErrorRecovery();
    aster::registerAllPasses();
    return true;
  }();
  (void)registered;
  asterError = nb::borrow(PyErr_NewException("aster.AsterError", PyExc_ValueError, nullptr));
  m.attr("AsterError") = asterError;

  nb::class_<PyModule>(m, "Module")
      .def("__str__", [](PyModule &self) {
        std::string s;
        llvm::raw_string_ostream os(s);
        self.get()->print(os);
        return s;
      })
      .def("asm", &moduleAsm, "The module as AMDGCN assembly text (no passes run).")
      .def("hsaco", &moduleHsaco, nb::arg("direct") = true,
           "The linked code object, made and linked in process: instructions "
           "encoded directly (direct=True) or through assembly text.")
      .def("verify", [](PyModule &self) {
        DiagnosticCollector d(self.ctx.get());
        if (failed(verify(self.get())))
          d.raise("the module does not verify");
      });
  m.def("parse", &parseModule, nb::arg("text"), nb::arg("name") = "<string>",
        "Parses textual IR into a Module; raises AsterError with locations.");
  m.def("direct_stats", &directStats, nb::arg("module"),
        nb::arg("text_mnemonics") = std::vector<std::string>(),
        "What the direct encoder does with the module (tests, benchmarks); "
        "kernels using text_mnemonics go through text.");
  m.def("run_pipeline", &runPipeline, nb::arg("module"), nb::arg("pipeline"),
        nb::arg("verify") = true,
        "Runs an MLIR pass pipeline string on the module in place; verify=False "
        "skips the verifier after each pass (to time the passes alone).");
  m.def("assemble", &assembleText, nb::arg("text"), nb::arg("target"),
        nb::arg("link") = true,
        "Assembles AMDGCN text with LLVM MC (and links with lld when link=True).");
  m.def("disassemble", &disassembleBytes, nb::arg("data"), nb::arg("target"),
        "Disassembles the code sections of an object or code object.");
  m.def("passes", [] { return aster::passDocs(); },
        "aster's passes as (name, documentation) pairs.");
  bindISA(m);
  bindRaise(m);
  bindLower(m);
  bindBuilder(m);
  bindSass(m);
}
