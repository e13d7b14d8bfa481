//===- isa_sweep.cpp - run an example of every table instruction ----------===//
//
// For every gfx942 instruction of aster's table, takes the example assembly
// lines of aster::target::exampleAsm, puts each in its own kernel, assembles
// all of them into one code object, and runs every kernel once on the
// emulator (non-strict, registers zero). A kernel may fail cleanly (an
// out-of-bounds access through a zero address, a trap, ...); it must not be
// an instruction the emulator cannot decode or execute, and nothing may
// crash.
//
//===----------------------------------------------------------------------===//
#include "dialect/ISA.h"
#include "emulator/Emulator.h"
#include "emulator/Semantics.h"
#include "target/Assembler.h"
#include "target/Examples.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <set>

using namespace aster;
using namespace llvm;

namespace {

struct Example {
  std::string mnemonic, line;
};

std::string kernelText(const std::vector<Example> &ex, const std::set<size_t> &skip) {
  std::string s;
  raw_string_ostream os(s);
  os << "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
     << "\t.amdhsa_code_object_version 5\n";
  for (size_t i = 0; i < ex.size(); ++i) {
    if (skip.count(i))
      continue;
    std::string line = ex[i].line;
    std::string label = ".Lt" + std::to_string(i);
    size_t p = line.find("label");
    if (p != std::string::npos)
      line.replace(p, 5, label);
    os << "\t.text\n\t.globl k" << i << "\n\t.p2align 8\n\t.type k" << i
       << ",@function\nk" << i << ":\n\t" << line << "\n" << label << ":\n\ts_endpgm\n"
       << "\t.size k" << i << ", .-k" << i << "\n";
  }
  for (size_t i = 0; i < ex.size(); ++i) {
    if (skip.count(i))
      continue;
    os << "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel k" << i
       << "\n\t\t.amdhsa_next_free_vgpr 512\n\t\t.amdhsa_next_free_sgpr 96"
       << "\n\t\t.amdhsa_accum_offset 256\n\t.end_amdhsa_kernel\n";
  }
  return s;
}

/// Kernel index of an assembler diagnostic's line (each kernel's text
/// starts with ".text"; the instruction is its 6th line).
size_t kernelOfLine(const std::string &text, unsigned line) {
  unsigned ln = 1;
  size_t kernel = ~size_t(0);
  size_t pos = 0;
  while (ln < line && pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos)
      break;
    StringRef l(text.data() + pos, nl - pos);
    if (l.starts_with("k") && l.ends_with(":"))
      kernel = size_t(std::stoul(l.drop_front().drop_back().str()));
    pos = nl + 1;
    ++ln;
  }
  return kernel;
}

} // namespace

int main() {
  std::vector<Example> ex;
  for (const ISA::InstDesc &d : ISA::instructions()) {
    if (!d.validOn(ISA::T_GFX942))
      continue;
    unsigned nv = std::min(target::numExampleVariants(d), 3u);
    for (unsigned v = 0; v < std::max(nv, 1u); ++v)
      ex.push_back({d.mnemonic, target::exampleAsm(d, ISA::T_GFX942, v)});
  }
  std::set<size_t> skip;
  std::vector<char> hsaco;
  for (int attempt = 0; attempt < 20; ++attempt) {
    std::string text = kernelText(ex, skip);
    std::vector<target::AsmDiagnostic> diags;
    auto obj = target::assembleHsaco(text, "gfx942", &diags);
    if (obj) {
      hsaco = std::move(*obj);
      break;
    }
    std::string msg = toString(obj.takeError());
    size_t before = skip.size();
    for (const target::AsmDiagnostic &dg : diags) {
      size_t k = kernelOfLine(text, dg.line);
      if (k < ex.size() && !skip.count(k)) {
        outs() << "example does not assemble (skipped): " << ex[k].line << ": " << dg.message
               << "\n";
        skip.insert(k);
      }
    }
    if (skip.size() == before) {
      errs() << "cannot assemble the examples: " << msg << "\n";
      return 1;
    }
  }
  auto co = emu::CodeObject::load(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(hsaco.data()), hsaco.size()));
  if (!co) {
    errs() << "cannot load the sweep code object: " << toString(co.takeError()) << "\n";
    return 1;
  }
  unsigned ran = 0, clean = 0, bad = 0;
  std::set<std::string> covered;
  for (size_t i = 0; i < ex.size(); ++i) {
    if (skip.count(i))
      continue;
    const emu::KernelInfo *k = (*co)->findKernel("k" + std::to_string(i));
    if (!k) {
      errs() << "kernel k" << i << " missing\n";
      ++bad;
      continue;
    }
    // Instructions the emulator documents as not emulated (SF_NOT_EMULATED,
    // listed by aster-emu-isa-coverage) must be reported, and only so.
    const emu::SemInfo *si = emu::findSemantic(ISA::lookup(ex[i].mnemonic)->asmName);
    bool notEmulated = si && (si->flags & emu::SF_NOT_EMULATED);
    std::vector<std::string> problems = (*co)->unsupported(*k);
    if (notEmulated) {
      if (problems.empty() || !StringRef(problems[0]).contains("is not emulated")) {
        outs() << "FAIL " << ex[i].mnemonic << ": not reported as not emulated\n";
        ++bad;
      }
      continue;
    }
    for (const std::string &u : problems) {
      outs() << "FAIL " << ex[i].mnemonic << ": " << u << "\n";
      ++bad;
    }
    emu::Device dev;
    emu::LaunchOptions o;
    o.strict = false;
    o.uninitialized = emu::UninitPolicy::Ignore;
    o.instructionBudget = 10000;
    auto st = dev.launch(**co, k->name, {1}, {64}, {}, o);
    ++ran;
    if (st) {
      ++clean;
      covered.insert(ex[i].mnemonic);
      continue;
    }
    std::string msg = toString(st.takeError());
    if (getenv("SWEEP_VERBOSE"))
      outs() << "error " << ex[i].line << ": " << StringRef(msg).split('\n').first << "\n";
    if (StringRef(msg).contains("cannot execute")) {
      outs() << "FAIL " << ex[i].line << ": " << msg << "\n";
      ++bad;
    } else {
      covered.insert(ex[i].mnemonic);
    }
  }
  outs() << ran << " example kernels ran (" << clean << " completed, " << (ran - clean)
         << " stopped with a clean error), " << covered.size()
         << " distinct instructions executed, " << skip.size() << " examples skipped, "
         << bad << " failures\n";
  return bad ? 1 : 0;
}
