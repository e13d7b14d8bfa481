//===- Raise.cpp - aster._aster: raising assembly and code objects -------===//
#include "python/Core.h"
#include "target/raise/Raise.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace mlir;

namespace aster::py {

/// The message with bytes that are not UTF-8 (from a corrupt input) escaped.
static std::string printable(const std::string &msg) {
  nb::object u = nb::steal(
      PyUnicode_DecodeUTF8(msg.data(), (Py_ssize_t)msg.size(), "backslashreplace"));
  if (!u) {
    PyErr_Clear();
    return "(unprintable message)";
  }
  return nb::cast<std::string>(u);
}

static std::unique_ptr<PyModule> finishRaise(std::unique_ptr<PyModule> m,
                                             llvm::Expected<OwningOpRef<ModuleOp>> r) {
  if (!r)
    raiseError(printable(llvm::toString(r.takeError())));
  m->module = std::move(*r);
  return m;
}

static std::unique_ptr<PyModule> raiseAsmText(const std::string &text, const std::string &target,
                                              bool keepUnknown, const std::string &name,
                                              const std::vector<std::string> &includeDirs) {
  auto m = std::make_unique<PyModule>();
  m->ctx = PyModule::newContext();
  raise::RaiseOptions opts;
  opts.keepUnknown = keepUnknown;
  opts.sourceName = name;
  opts.includeDirs = includeDirs;
  llvm::Expected<OwningOpRef<ModuleOp>> r = OwningOpRef<ModuleOp>();
  {
    nb::gil_scoped_release release;
    r = raise::raiseAsm(m->ctx.get(), text, target, opts);
  }
  return finishRaise(std::move(m), std::move(r));
}

static std::unique_ptr<PyModule> raiseCodeObjectBytes(nb::bytes data, bool keepUnknown,
                                                      const std::string &name) {
  auto m = std::make_unique<PyModule>();
  m->ctx = PyModule::newContext();
  raise::RaiseOptions opts;
  opts.keepUnknown = keepUnknown;
  opts.sourceName = name;
  std::string copy(static_cast<const char *>(data.data()), data.size());
  llvm::Expected<OwningOpRef<ModuleOp>> r = OwningOpRef<ModuleOp>();
  {
    nb::gil_scoped_release release;
    r = raise::raiseCodeObject(
        m->ctx.get(), llvm::ArrayRef<uint8_t>((const uint8_t *)copy.data(), copy.size()), opts);
  }
  return finishRaise(std::move(m), std::move(r));
}

void bindRaise(nb::module_ &m) {
  m.def("raise_asm", &raiseAsmText, nb::arg("text"), nb::arg("target"),
        nb::arg("keep_unknown") = false, nb::arg("name") = "<asm>",
        nb::arg("include_dirs") = std::vector<std::string>{},
        "Raises assembler text into a Module (raises AsterError naming lines).");
  m.def("raise_code_object", &raiseCodeObjectBytes, nb::arg("data"),
        nb::arg("keep_unknown") = false, nb::arg("name") = "<code object>",
        "Raises every kernel of a code object into a Module.");
}

} // namespace aster::py
