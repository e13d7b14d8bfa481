//===- Emulator.cpp - the `aster._emu` extension: the gfx942 emulator ----===//
//
// A thin nanobind layer over cc/emulator/Emulator.h. Every llvm::Error
// becomes aster.EmulatorError (a RuntimeError) carrying the emulator's text
// (kernel, pc, instruction, wave, lane, address). Argument packing and array
// handling live in Python (aster/kernargs.py, aster/runtime.py).
//
//===----------------------------------------------------------------------===//
#include "emulator/Emulator.h"
#include "emulator/timing/HbmChannels.h"
#include "emulator/timing/Params.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <optional>

namespace nb = nanobind;
using namespace aster::emu;

namespace {

nb::object emulatorError;

[[noreturn]] void raise(llvm::Error err) {
  std::string msg = llvm::toString(std::move(err));
  PyErr_SetString(emulatorError.ptr(), msg.c_str());
  throw nb::python_error();
}

template <typename T> T check(llvm::Expected<T> v) {
  if (!v)
    raise(v.takeError());
  return std::move(*v);
}

void check(llvm::Error err) {
  if (err)
    raise(std::move(err));
}

/// A 1-D C-contiguous byte view of host memory (Python passes arr.view(uint8)).
using Bytes = nb::ndarray<uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

Dim3 dim3(std::tuple<uint32_t, uint32_t, uint32_t> d) {
  return Dim3{std::get<0>(d), std::get<1>(d), std::get<2>(d)};
}

UninitPolicy policy(const std::string &p) {
  if (p == "error")
    return UninitPolicy::Error;
  if (p == "warn")
    return UninitPolicy::Warn;
  if (p == "ignore")
    return UninitPolicy::Ignore;
  throw nb::value_error(
      ("uninitialized must be 'error', 'warn' or 'ignore', got '" + p + "'").c_str());
}

const KernelInfo &kernel(const CodeObject &co, const std::string &name) {
  return *check(co.getKernel(name));
}

} // namespace

NB_MODULE(_emu, m) {
  m.doc() = "aster's gfx942 emulator (cc/emulator): code objects, devices, launches.";
  emulatorError =
      nb::borrow(PyErr_NewException("aster.EmulatorError", PyExc_RuntimeError, nullptr));
  m.attr("EmulatorError") = emulatorError;

  nb::class_<KernelArg>(m, "KernelArg", "One kernarg entry of the code object metadata.")
      .def_ro("name", &KernelArg::name)
      .def_ro("type_name", &KernelArg::typeName)
      .def_ro("value_kind", &KernelArg::valueKind)
      .def_ro("address_space", &KernelArg::addressSpace)
      .def_ro("offset", &KernelArg::offset)
      .def_ro("size", &KernelArg::size)
      .def_prop_ro("hidden", &KernelArg::isHidden)
      .def("__repr__", [](const KernelArg &a) {
        return "<KernelArg " + a.name + ": " + a.valueKind + " " + a.typeName + " @" +
               std::to_string(a.offset) + "+" + std::to_string(a.size) + ">";
      });

  nb::class_<KernelInfo>(m, "KernelInfo", "A kernel: descriptor fields and metadata.")
      .def_ro("name", &KernelInfo::name)
      .def_ro("args", &KernelInfo::args)
      .def_ro("group_segment_size", &KernelInfo::groupSegmentSize)
      .def_ro("private_segment_size", &KernelInfo::privateSegmentSize)
      .def_ro("kernarg_size", &KernelInfo::kernargSize)
      .def_ro("sgpr_count", &KernelInfo::sgprCount)
      .def_ro("vgpr_count", &KernelInfo::vgprCount)
      .def_ro("agpr_count", &KernelInfo::agprCount)
      .def_ro("accum_offset", &KernelInfo::accumOffset)
      .def_ro("user_sgpr_count", &KernelInfo::userSgprCount)
      .def_ro("wavefront_size", &KernelInfo::wavefrontSize)
      .def_ro("max_flat_workgroup_size", &KernelInfo::maxFlatWorkgroupSize)
      .def_prop_ro("explicit_args_size", &KernelInfo::explicitArgsSize)
      .def("__repr__", [](const KernelInfo &k) { return "<KernelInfo " + k.name + ">"; });

  nb::class_<CodeObject>(m, "CodeObject", "A loaded, pre-decoded gfx942 code object.")
      .def_static(
          "load",
          [](nb::bytes data) {
            llvm::ArrayRef<uint8_t> bytes(static_cast<const uint8_t *>(data.data()),
                                          data.size());
            std::optional<llvm::Expected<std::unique_ptr<CodeObject>>> co;
            {
              nb::gil_scoped_release release;
              co.emplace(CodeObject::load(bytes));
            }
            return check(std::move(*co));
          },
          nb::arg("data"), "Parses and decodes an ELF code object (hsaco bytes).")
      .def_prop_ro("processor",
                   [](const CodeObject &co) { return co.processor().str(); })
      .def_prop_ro("code_object_version", &CodeObject::codeObjectVersion)
      .def_prop_ro("kernels",
                   [](const CodeObject &co) {
                     return std::vector<KernelInfo>(co.kernels().begin(),
                                                    co.kernels().end());
                   })
      .def("kernel", [](const CodeObject &co, const std::string &name) {
        return kernel(co, name);
      }, nb::arg("name"), "The kernel `name`; EmulatorError listing the kernels if absent.")
      .def("disassemble", [](const CodeObject &co, const std::string &name) {
        return co.disassemble(kernel(co, name));
      }, nb::arg("kernel"), "The kernel's code as 'ADDRESS: TEXT' lines.")
      .def("unsupported", [](const CodeObject &co, const std::string &name) {
        return co.unsupported(kernel(co, name));
      }, nb::arg("kernel"), "Instructions of the kernel the emulator cannot execute.");

  nb::class_<LaunchStats>(m, "LaunchStats", "What a launch executed.")
      .def_ro("wave_instructions", &LaunchStats::waveInstructions)
      .def_ro("salu", &LaunchStats::salu)
      .def_ro("valu", &LaunchStats::valu)
      .def_ro("smem", &LaunchStats::smem)
      .def_ro("vmem", &LaunchStats::vmem)
      .def_ro("lds", &LaunchStats::lds)
      .def_ro("mfma", &LaunchStats::mfma)
      .def_ro("branch", &LaunchStats::branch)
      .def_ro("workgroups", &LaunchStats::workgroups)
      .def_ro("waves", &LaunchStats::waves)
      .def_ro("seconds", &LaunchStats::seconds)
      .def_ro("warnings", &LaunchStats::warnings)
      .def_ro("trace", &LaunchStats::trace)
      .def_prop_ro("timing", [](const LaunchStats &st) -> nb::object {
        if (!st.timing)
          return nb::none();
        return nb::cast(st.timing);
      }, "The timing model's result (launch(timing=True)), else None.");

  using timing::Result;
  nb::class_<Result>(m, "TimingResult",
                     "The timing model's view of a launch (cc/emulator/timing).")
      .def_ro("cycles", &Result::cycles)
      .def_ro("clock_mhz", &Result::clockMHz)
      .def_ro("device", &Result::device)
      .def_ro("microseconds", &Result::microseconds)
      .def_ro("launch_us", &Result::launchUs)
      .def_ro("effective_mhz", &Result::effectiveMHz)
      .def_ro("mfma_utilization", &Result::mfmaUtilization)
      .def_ro("drain_cycles", &Result::drainCycles)
      .def_ro("icache_misses", &Result::icacheMisses)
      .def_ro("scalar_misses", &Result::scalarMisses)
      .def_ro("cus_used", &Result::cusUsed)
      .def_ro("groups_per_cu", &Result::groupsPerCU)
      .def_ro("waves_per_simd", &Result::wavesPerSimd)
      .def_ro("occupancy_limit", &Result::occupancyLimit)
      .def_ro("events_truncated", &Result::eventsTruncated)
      .def_prop_ro("text", [](const Result &r) {
        return r.text ? *r.text : std::vector<std::string>();
      }, "The code object's instructions as text, by instruction index.")
      .def_ro("lds_cycles", &Result::ldsCycles)
      .def_ro("lds_ideal_cycles", &Result::ldsIdealCycles)
      .def_prop_ro("events", [](const Result &r) {
        return nb::bytes(reinterpret_cast<const char *>(r.events.data()),
                         r.events.size() * sizeof(timing::Event));
      }, "Packed events (32 bytes each: issue u64, dur u32, stall u32, inst u32, "
         "wave u32, busy u16, reason u8, unit u8, pad u32).")
      .def_prop_ro("waves", [](const Result &r) {
        std::vector<std::tuple<uint32_t, uint32_t, uint64_t, uint32_t, uint64_t, uint64_t,
                               uint64_t, std::vector<uint64_t>, std::vector<uint64_t>>> out;
        for (const timing::WaveRecord &w : r.waves)
          out.emplace_back(w.cu, w.simd, w.group, w.waveInGroup, w.start, w.end,
                           w.instructions,
                           std::vector<uint64_t>(std::begin(w.stall), std::end(w.stall)),
                           std::vector<uint64_t>(std::begin(w.waitOn), std::end(w.waitOn)));
        return out;
      }, "(cu, simd, group, wave in group, start, end, instructions, stall cycles by reason, "
         "waitcnt stall cycles by what was waited for)")
      .def_prop_ro("unit_busy", [](const Result &r) {
        return std::vector<uint64_t>(std::begin(r.unitBusy), std::end(r.unitBusy));
      })
      .def_prop_ro("unit_count", [](const Result &r) {
        return std::vector<uint64_t>(std::begin(r.unitCount), std::end(r.unitCount));
      })
      .def_prop_ro("mem_lines", [](const Result &r) {
        return std::vector<uint64_t>(std::begin(r.memLines), std::end(r.memLines));
      }, "Vector-memory lines served by L1, L2, MALL, HBM.")
      .def_prop_ro_static("stall_names", [](nb::handle) {
        std::vector<std::string> n;
        for (unsigned i = 0; i < unsigned(timing::Stall::Count); ++i)
          n.push_back(timing::stallName(timing::Stall(i)));
        return n;
      })
      .def_prop_ro_static("wait_on_names", [](nb::handle) {
        std::vector<std::string> n;
        for (unsigned i = 0; i < unsigned(timing::WaitOn::Count); ++i)
          n.push_back(timing::waitOnName(timing::WaitOn(i)));
        return n;
      })
      .def_prop_ro_static("unit_names", [](nb::handle) {
        std::vector<std::string> n;
        for (unsigned i = 0; i < unsigned(timing::Unit::Count); ++i)
          n.push_back(timing::unitName(timing::Unit(i)));
        return n;
      });

  m.def("timing_devices", [] {
    // The timing model's device profiles (cc/emulator/timing/Params.h,
    // where each number's source is).
    nb::dict out;
    for (const std::string &name : timing::Params::devices()) {
      timing::Params p;
      timing::Params::forDevice(name, p);
      nb::dict d;
      d["target"] = p.target;
      d["cus"] = p.numCUs;
      d["xcds"] = (p.numCUs + p.cusPerXcd - 1) / p.cusPerXcd;
      d["clock_mhz"] = p.clockMHz;
      d["mfma_clock_mhz"] = p.mfmaClockMHz;
      d["launch_us"] = p.launchUs;
      d["lds_bytes_per_cu"] = p.ldsPerCU;
      d["l1_bytes"] = p.l1Bytes;
      d["l2_bytes_per_xcd"] = p.l2Bytes;
      d["hbm_tb_s"] = p.hbmBytesPerClk * p.clockMHz * 1e6 / 1e12;   // achievable
      d["hbm_peak_tb_s"] = p.hbmPeakTBs;
      d["mall_tb_s"] = p.mallBytesPerClk * p.clockMHz * 1e6 / 1e12;
      d["l2_tb_s_per_xcd"] = p.l2BytesPerClkPerXcd * p.clockMHz * 1e6 / 1e12;
      d["mall_bytes"] = p.mallBytes;
      d["latency_cycles"] = nb::make_tuple(p.l1Latency, p.l2Latency, p.mallLatency,
                                           p.hbmLatency);
      d["wave_dispatch_cycles"] = p.waveDispatchCycles;
      d["wave_start_cycles"] = p.waveStartCycles;
      d["line_bytes"] = p.lineBytes;
      d["l1_bytes_per_clk"] = p.l1BytesPerClk;
      d["atomic_line_cycles"] = p.atomicLineCycles;
      out[name.c_str()] = d;
    }
    return out;
  }, "The timing model's device profiles: name -> numbers (sources in "
     "cc/emulator/timing/Params.h).");
  m.def("timing_default_device", &timing::Params::defaultDevice, nb::arg("processor"));
  m.attr("timing_hbm_channel_count") = timing::kHbmChannels;
  m.def("timing_hbm_channels",
        [](nb::ndarray<const uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu> addr) {
          // The HBM channel of each byte address, as the timing model maps
          // it (cc/emulator/timing/HbmChannels.h): one map for the model and
          // for the GEMM dispatch estimate (aster.ops.hbm_spread).
          size_t n = addr.shape(0);
          auto *out = new uint8_t[n];
          for (size_t i = 0; i < n; ++i)
            out[i] = uint8_t(timing::hbmChannel(addr.data()[i]));
          nb::capsule owner(out, [](void *p) noexcept { delete[] static_cast<uint8_t *>(p); });
          return nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(out, {n}, owner);
        },
        nb::arg("addresses"),
        "The HBM channel (0..timing_hbm_channel_count - 1) serving each byte address "
        "(uint64 array), as the timing model maps it (HbmChannels.h).");

  nb::class_<Device>(m, "Device", "An emulated device: separate buffers with guard gaps.")
      .def(nb::init<>())
      .def("allocate", [](Device &d, uint64_t size, const std::string &name, uint64_t slack) {
        return check(d.allocate(size, name, slack));
      }, nb::arg("size"), nb::arg("name") = "", nb::arg("slack") = 0,
         "A zero-filled buffer; its device address. `slack` bytes after it read as zeros "
         "during a launch and may not be written.")
      .def("release", [](Device &d, uint64_t addr) { check(d.release(addr)); },
           nb::arg("addr"))
      .def("write", [](Device &d, uint64_t addr, Bytes data) {
        check(d.write(addr, llvm::ArrayRef<uint8_t>(data.data(), data.size())));
      }, nb::arg("addr"), nb::arg("data"), "Copies host bytes (a uint8 array) in.")
      .def("read_into", [](const Device &d, uint64_t addr, Bytes out) {
        check(d.read(addr, llvm::MutableArrayRef<uint8_t>(out.data(), out.size())));
      }, nb::arg("addr"), nb::arg("out"), "Copies device bytes into a uint8 array.")
      .def("read", [](const Device &d, uint64_t addr, size_t size) {
        std::vector<uint8_t> out(size);
        check(d.read(addr, out));
        return nb::bytes(reinterpret_cast<const char *>(out.data()), out.size());
      }, nb::arg("addr"), nb::arg("size"))
      .def(
          "launch",
          [](Device &d, const CodeObject &co, const std::string &kernelName,
             std::tuple<uint32_t, uint32_t, uint32_t> grid,
             std::tuple<uint32_t, uint32_t, uint32_t> block, nb::bytes kernargs,
             bool strict, const std::string &uninitialized, uint64_t budget,
             unsigned threads, uint32_t dynamicLds, unsigned traceLimit,
             std::vector<uint64_t> buffers, bool timed, uint64_t slice,
             const std::string &device, bool dataInMall) {
            LaunchOptions o;
            o.strict = strict;
            o.uninitialized = policy(uninitialized);
            o.instructionBudget = budget;
            o.threads = threads;
            o.dynamicLdsBytes = dynamicLds;
            o.traceLimit = traceLimit;
            o.buffers = std::move(buffers);
            o.timing = timed;
            o.sliceInstructions = slice;
            o.timingDevice = device;
            o.timingDataInMall = dataInMall;
            const auto *p = static_cast<const uint8_t *>(kernargs.data());
            std::vector<uint8_t> args(p, p + kernargs.size());
            std::optional<llvm::Expected<LaunchStats>> st;
            {
              nb::gil_scoped_release release;
              st.emplace(d.launch(co, kernelName, dim3(grid), dim3(block), args, o));
            }
            return check(std::move(*st));
          },
          nb::arg("code"), nb::arg("kernel"), nb::arg("grid"), nb::arg("block"),
          nb::arg("kernargs"), nb::arg("strict") = true,
          nb::arg("uninitialized") = "error", nb::arg("instruction_budget") = 2000000000ull,
          nb::arg("threads") = 1, nb::arg("dynamic_lds") = 0, nb::arg("trace_limit") = 0,
          nb::arg("buffers") = std::vector<uint64_t>(), nb::arg("timing") = false,
          nb::arg("slice_instructions") = 4096,
          nb::arg("device") = "", nb::arg("data_in_mall") = false,
          "Runs `kernel` over `grid` workgroups of `block` work-items; `kernargs` holds "
          "the explicit arguments. Buffers change only when the launch succeeds.");
}
