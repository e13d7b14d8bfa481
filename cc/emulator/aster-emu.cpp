//===- aster-emu.cpp - run a kernel of a code object on the emulator -----===//
//
//   aster-emu FILE.hsaco KERNEL [--grid X,Y,Z] [--block X,Y,Z]
//             [--buf SIZE[:INIT_FILE]] [--arg TYPE:VALUE] ...
//             [--print N:TYPE[:COUNT]] [--dump N:FILE] [--stats]
//             [--no-strict] [--uninit error|warn|ignore] [--budget N]
//             [--threads N] [--lds BYTES] [--trace N] [--repeat N] [--json] [--timing]
//             [--no-matrix-thread]
//   aster-emu FILE.hsaco --list
//   aster-emu FILE.hsaco KERNEL --disasm
//
// Kernel arguments are formed in command-line order: every --buf passes the
// device address of a new zero-filled (or file-initialized) buffer, every
// --arg passes a scalar (i8 i16 i32 u32 i64 u64 f32 f64).
// --repeat N launches N times (for benchmarks; buffers carry over from one
// launch to the next) and reports the fastest; --json prints the statistics
// as one JSON object on stdout (bench/bench_emulator.py reads it).
//
//===----------------------------------------------------------------------===//
#include "emulator/Emulator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <ctime>
#include <fstream>

using namespace llvm;
using namespace aster::emu;

static int usage() {
  errs() << "usage: aster-emu FILE.hsaco KERNEL [--grid X,Y,Z] [--block X,Y,Z]\n"
            "         [--buf SIZE[:INIT_FILE]] [--arg TYPE:VALUE] [--print N:TYPE[:COUNT]]\n"
            "         [--dump N:FILE] [--stats] [--no-strict] [--uninit error|warn|ignore]\n"
            "         [--budget N] [--threads N] [--lds BYTES] [--trace N] [--repeat N] [--json]\n"
            "         [--timing]   (run the timing model; prints the simulated cycles)\n"
            "         [--no-matrix-thread]   (dense MFMAs on the launch's own thread)\n"
            "       aster-emu FILE.hsaco --list\n"
            "       aster-emu FILE.hsaco KERNEL --disasm\n";
  return 2;
}

static int fail(const Twine &msg) {
  errs() << "aster-emu: error: " << msg << "\n";
  return 1;
}

/// CPU time of the whole process (all threads), in seconds: with --json,
/// benchmarks on a shared machine divide by it rather than by wall time.
static double cpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

static bool parseDim(StringRef s, Dim3 &d) {
  SmallVector<StringRef, 3> parts;
  s.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return false;
  uint32_t v[3] = {1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(0, v[i]) || v[i] == 0)
      return false;
  d = {v[0], v[1], v[2]};
  return true;
}

static bool addArg(KernargBuilder &kb, StringRef spec) {
  auto [ty, val] = spec.split(':');
  if (ty == "f32" || ty == "f64") {
    double d;
    if (val.getAsDouble(d))
      return false;
    if (ty == "f32")
      kb.addF32(float(d));
    else
      kb.addF64(d);
    return true;
  }
  int64_t i;
  if (val.getAsInteger(0, i)) {
    uint64_t u;
    if (val.getAsInteger(0, u))
      return false;
    i = int64_t(u);
  }
  if (ty == "i8") kb.addI8(int8_t(i));
  else if (ty == "i16") kb.addI16(int16_t(i));
  else if (ty == "i32") kb.addI32(int32_t(i));
  else if (ty == "u32") kb.addU32(uint32_t(i));
  else if (ty == "i64") kb.addI64(i);
  else if (ty == "u64") kb.addU64(uint64_t(i));
  else return false;
  return true;
}

static void printBuffer(ArrayRef<uint8_t> data, StringRef ty, size_t count) {
  size_t esz = ty.ends_with("64") ? 8 : ty.ends_with("16") ? 2 : ty.ends_with("8") ? 1 : 4;
  size_t n = std::min(count, data.size() / esz);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t *p = data.data() + i * esz;
    if (i)
      outs() << (i % 8 ? " " : "\n");
    uint64_t u = 0;
    std::memcpy(&u, p, esz);
    if (ty == "f32") {
      float f;
      std::memcpy(&f, p, 4);
      outs() << format("%g", double(f));
    } else if (ty == "f64") {
      double f;
      std::memcpy(&f, p, 8);
      outs() << format("%.17g", f);
    } else if (ty == "i32") {
      outs() << int32_t(u);
    } else if (ty == "i64") {
      outs() << int64_t(u);
    } else if (ty == "i16") {
      outs() << int16_t(u);
    } else if (ty == "i8") {
      outs() << int(int8_t(u));
    } else if (ty.starts_with("x")) {
      outs() << format_hex(u, 2 + 2 * esz);
    } else {
      outs() << u;
    }
  }
  outs() << "\n";
}

int main(int argc, char **argv) {
  if (argc < 3)
    return usage();
  auto co = CodeObject::loadFile(argv[1]);
  if (!co)
    return fail(toString(co.takeError()));
  if (StringRef(argv[2]) == "--list") {
    for (const KernelInfo &k : (*co)->kernels()) {
      outs() << k.name << ": entry " << format_hex(k.entryAddr, 0) << ", " << k.codeSize
             << " bytes of code, kernarg " << k.kernargSegmentSize() << " bytes ("
             << k.explicitArgsSize() << " explicit), LDS " << k.groupSegmentSize
             << ", private " << k.privateSegmentSize << ", vgprs " << k.vgprCount
             << ", agprs " << k.agprCount << ", sgprs " << k.sgprCount << "\n";
      for (const KernelArg &a : k.args)
        outs() << "  arg @" << a.offset << " size " << a.size << " " << a.valueKind
               << (a.name.empty() ? "" : " " + a.name) << "\n";
      for (const std::string &u : (*co)->unsupported(k))
        outs() << "  unsupported: " << u << "\n";
    }
    return 0;
  }
  StringRef kernel = argv[2];
  auto kinfo = (*co)->getKernel(kernel);
  if (!kinfo)
    return fail(toString(kinfo.takeError()));

  Device dev;
  KernargBuilder kb;
  Dim3 grid, block{64, 1, 1};
  LaunchOptions opts;
  std::vector<uint64_t> bufs;
  std::vector<std::pair<unsigned, std::string>> prints, dumps;
  bool stats = false, disasm = false, json = false;
  unsigned repeat = 1;
  for (int i = 3; i < argc; ++i) {
    StringRef a = argv[i];
    auto next = [&]() -> StringRef { return i + 1 < argc ? StringRef(argv[++i]) : StringRef(); };
    if (a == "--disasm") {
      disasm = true;
    } else if (a == "--stats") {
      stats = true;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--timing") {
      opts.timing = true;
    } else if (a == "--repeat") {
      if (next().getAsInteger(0, repeat) || repeat == 0)
        return fail("bad --repeat (expected a positive count)");
    } else if (a == "--no-strict") {
      opts.strict = false;
    } else if (a == "--no-matrix-thread") {
      opts.matrixThread = false;
    } else if (a == "--grid") {
      if (!parseDim(next(), grid))
        return fail("bad --grid (expected X[,Y[,Z]])");
    } else if (a == "--block") {
      if (!parseDim(next(), block))
        return fail("bad --block (expected X[,Y[,Z]])");
    } else if (a == "--buf") {
      auto [sz, file] = next().split(':');
      uint64_t size;
      if (sz.getAsInteger(0, size))
        return fail("bad --buf size '" + sz + "'");
      auto addr = dev.allocate(size, "buf" + std::to_string(bufs.size()));
      if (!addr)
        return fail(toString(addr.takeError()));
      if (!file.empty()) {
        auto mb = MemoryBuffer::getFile(file, false, false);
        if (!mb)
          return fail("cannot read " + file + ": " + mb.getError().message());
        size_t n = std::min<size_t>(size, (*mb)->getBufferSize());
        if (Error e = dev.write(*addr, ArrayRef<uint8_t>(
                                           reinterpret_cast<const uint8_t *>((*mb)->getBufferStart()), n)))
          return fail(toString(std::move(e)));
      }
      bufs.push_back(*addr);
      kb.addPointer(*addr);
    } else if (a == "--arg") {
      StringRef spec = next();
      if (!addArg(kb, spec))
        return fail("bad --arg '" + spec + "' (expected TYPE:VALUE, TYPE one of i8 i16 i32 u32 "
                    "i64 u64 f32 f64)");
    } else if (a == "--print" || a == "--dump") {
      StringRef spec = next();
      auto [idx, rest] = spec.split(':');
      unsigned n;
      if (idx.getAsInteger(0, n) || rest.empty())
        return fail("bad " + a + " '" + spec + "'");
      (a == "--print" ? prints : dumps).push_back({n, rest.str()});
    } else if (a == "--uninit") {
      StringRef v = next();
      if (v == "error") opts.uninitialized = UninitPolicy::Error;
      else if (v == "warn") opts.uninitialized = UninitPolicy::Warn;
      else if (v == "ignore") opts.uninitialized = UninitPolicy::Ignore;
      else return fail("bad --uninit '" + v + "'");
    } else if (a == "--budget") {
      if (next().getAsInteger(0, opts.instructionBudget))
        return fail("bad --budget");
    } else if (a == "--threads") {
      if (next().getAsInteger(0, opts.threads))
        return fail("bad --threads");
    } else if (a == "--trace") {
      if (next().getAsInteger(0, opts.traceLimit))
        return fail("bad --trace");
    } else if (a == "--lds") {
      if (next().getAsInteger(0, opts.dynamicLdsBytes))
        return fail("bad --lds");
    } else {
      errs() << "aster-emu: unknown option '" << a << "'\n";
      return usage();
    }
  }
  if (disasm) {
    outs() << (*co)->disassemble(**kinfo);
    for (const std::string &u : (*co)->unsupported(**kinfo))
      outs() << "unsupported: " << u << "\n";
    return 0;
  }
  for (auto &p : prints)
    if (p.first >= bufs.size())
      return fail("--print names buffer " + Twine(p.first) + " but there are " +
                  Twine(bufs.size()));
  for (auto &p : dumps)
    if (p.first >= bufs.size())
      return fail("--dump names buffer " + Twine(p.first) + " but there are " +
                  Twine(bufs.size()));

  double c0 = cpuSeconds();
  auto st = dev.launch(**co, kernel, grid, block, kb.bytes(), opts);
  if (!st)
    return fail(toString(st.takeError()));
  double cpu = cpuSeconds() - c0;
  for (unsigned r = 1; r < repeat; ++r) {
    c0 = cpuSeconds();
    auto again = dev.launch(**co, kernel, grid, block, kb.bytes(), opts);
    if (!again)
      return fail(toString(again.takeError()));
    cpu = std::min(cpu, cpuSeconds() - c0);
    st->seconds = std::min(st->seconds, again->seconds);
  }
  for (const std::string &w : st->warnings)
    errs() << "aster-emu: warning: " << w << "\n";
  for (const std::string &t : st->trace)
    outs() << t << "\n";
  for (auto &p : prints) {
    auto [ty, cnt] = StringRef(p.second).split(':');
    size_t count = ~size_t(0);
    if (!cnt.empty() && cnt.getAsInteger(0, count))
      return fail("bad --print count");
    auto data = dev.contents(bufs[p.first]);
    if (!data)
      return fail(toString(data.takeError()));
    printBuffer(*data, ty, count);
  }
  for (auto &p : dumps) {
    auto data = dev.contents(bufs[p.first]);
    if (!data)
      return fail(toString(data.takeError()));
    std::ofstream f(p.second, std::ios::binary);
    f.write(reinterpret_cast<const char *>(data->data()), std::streamsize(data->size()));
    if (!f)
      return fail("cannot write " + p.second);
  }
  if (json)
    outs() << "{\"wave_instructions\": " << st->waveInstructions << ", \"valu\": " << st->valu
           << ", \"salu\": " << st->salu << ", \"vmem\": " << st->vmem << ", \"smem\": "
           << st->smem << ", \"lds\": " << st->lds << ", \"mfma\": " << st->mfma
           << ", \"branch\": " << st->branch << ", \"workgroups\": " << st->workgroups
           << ", \"waves\": " << st->waves << ", \"seconds\": " << format("%.9g", st->seconds)
           << ", \"cpu_seconds\": " << format("%.9g", cpu)
           << (st->timing ? ", \"cycles\": " + std::to_string(st->timing->cycles) : "")
           << "}\n";
  if (st->timing && !json)
    outs() << "timing model: " << st->timing->cycles << " cycles ("
           << format("%.3f", double(st->timing->cycles) / st->timing->clockMHz)
           << " us at " << format("%.0f", st->timing->clockMHz) << " MHz), "
           << st->timing->groupsPerCU << " workgroups per CU (limit: "
           << st->timing->occupancyLimit << ")\n";
  if (stats)
    errs() << "wave-instructions " << st->waveInstructions << " (valu " << st->valu
           << ", salu " << st->salu << ", vmem " << st->vmem << ", smem " << st->smem
           << ", lds " << st->lds << ", mfma " << st->mfma << ", branch " << st->branch
           << "), workgroups " << st->workgroups << ", waves " << st->waves << ", "
           << format("%.3f", st->seconds * 1e3) << " ms, "
           << format("%.1f", st->waveInstructionsPerSecond() / 1e6) << " M wave-inst/s, "
           << format("%.2f", st->waveInstructions ? st->seconds * 1e9 / double(st->waveInstructions) : 0.0)
           << " ns per wave-instruction"
           << (repeat > 1 ? " (fastest of " + std::to_string(repeat) + " launches)" : "") << "\n";
  return 0;
}
