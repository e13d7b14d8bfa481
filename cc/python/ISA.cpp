//===- ISA.cpp - aster.isa: the instruction table seen from Python -------===//
#include "python/Core.h"
#include "target/Examples.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;

namespace aster::py {

namespace {
struct PyInst {
  const ISA::InstDesc *d;
  uint8_t target;
};
} // namespace

static std::vector<std::string> targetsOf(const ISA::InstDesc &d) {
  std::vector<std::string> out;
  for (uint8_t b : {ISA::T_GFX942, ISA::T_GFX950, ISA::T_GFX1201})
    if (d.validOn(b))
      out.push_back(ISA::targetName(b).str());
  return out;
}

static std::vector<std::string> propsOf(const ISA::InstDesc &d) {
  static const char *const names[] = {
#define ASTER_PROP(N, B) #N,
#include "dialect/Props.def"
  };
  std::vector<std::string> out;
  for (unsigned i = 0; i < std::size(names); ++i)
    if (d.props & (1u << i))
      out.push_back(names[i]);
  return out;
}

static std::vector<std::string> implicitOf(uint8_t mask) {
  std::vector<std::string> out;
  for (auto [bit, name] : {std::pair{ISA::IMP_SCC, "scc"}, std::pair{ISA::IMP_VCC, "vcc"},
                           std::pair{ISA::IMP_EXEC, "exec"}, std::pair{ISA::IMP_M0, "m0"}})
    if (mask & bit)
      out.push_back(name);
  return out;
}

void bindISA(nb::module_ &m) {
  nb::class_<PyInst>(m, "Instruction")
      .def_prop_ro("name", [](const PyInst &i) { return std::string(i.d->mnemonic); })
      .def_prop_ro("index", [](const PyInst &i) { return i.d->index(); })
      .def_prop_ro("encoding", [](const PyInst &i) { return ISA::encName(i.d->enc).str(); })
      .def_prop_ro("targets", [](const PyInst &i) { return targetsOf(*i.d); })
      .def_prop_ro("properties", [](const PyInst &i) { return propsOf(*i.d); })
      .def_prop_ro("asm_name", [](const PyInst &i) { return std::string(i.d->asmName); },
                   "The mnemonic in assembly (differs from name for e.g. _rtn forms).")
      .def_prop_ro("implicit_defs",
                   [](const PyInst &i) { return implicitOf(i.d->implicitDefs); },
                   "Special registers written without appearing in the assembly.")
      .def_prop_ro("implicit_uses",
                   [](const PyInst &i) { return implicitOf(i.d->implicitUses); },
                   "Special registers read without appearing in the assembly.")
      .def_prop_ro("num_variants",
                   [](const PyInst &i) { return target::numExampleVariants(*i.d); })
      .def("example_asm",
           [](const PyInst &i, unsigned variant) {
             return target::exampleAsm(*i.d, i.target, variant);
           },
           nb::arg("variant") = 0,
           "A valid assembly line for this instruction on the queried target.")
      .def("__repr__", [](const PyInst &i) {
        return std::string("<aster.isa.Instruction ") + i.d->mnemonic + ">";
      });
  m.def("instructions",
        [](const std::string &target) {
          uint8_t bit = ISA::targetBit(target);
          if (!bit)
            raiseError("unknown target '" + target +
                       "' (expected gfx942, gfx950 or gfx1201)");
          std::vector<PyInst> out;
          for (const ISA::InstDesc &d : ISA::instructions())
            if (d.validOn(bit))
              out.push_back({&d, bit});
          return out;
        },
        nb::arg("target"), "Instruction forms of the table valid on `target`.");
  m.def("all_instructions", [] {
    std::vector<PyInst> out;
    for (const ISA::InstDesc &d : ISA::instructions())
      out.push_back({&d, (uint8_t)(d.targets & -d.targets)});
    return out;
  });
}

} // namespace aster::py
