//===- Launch.cpp - running a kernel over a grid --------------------------===//
//
// Builds the launch's address space (copies of the buffers, kernarg segment,
// dispatch packet, queue, code object image), sets up each wave's initial
// state as the hardware does from the kernel descriptor, and runs the waves
// of each workgroup round-robin (a wave runs until it ends, reaches
// s_barrier, or has used its time slice). Workgroups run in order on the
// calling thread, or on worker threads.
//
//===----------------------------------------------------------------------===//
#include "emulator/Launcher.h"
#include "emulator/Semantics.h"
#include "emulator/timing/Model.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

using namespace llvm;
namespace amdhsa = llvm::amdhsa;

namespace aster::emu {

namespace {

constexpr uint64_t kFlushInstructions = 1 << 16;

void put(std::vector<uint8_t> &v, uint32_t off, const void *p, size_t n) {
  if (off + n <= v.size())
    std::memcpy(v.data() + off, p, n);
}

/// Fills the hidden (implicit) arguments the metadata declares.
void fillHidden(const KernelInfo &k, const LaunchOptions &o, Dim3 grid, Dim3 block,
                uint64_t queueAddr, std::vector<uint8_t> &ka) {
  unsigned dims = grid.z * block.z > 1 ? 3 : grid.y * block.y > 1 ? 2 : 1;
  for (const KernelArg &a : k.args) {
    if (!a.isHidden())
      continue;
    StringRef v = a.valueKind;
    uint64_t val = 0;
    if (v == "hidden_block_count_x") val = grid.x;
    else if (v == "hidden_block_count_y") val = grid.y;
    else if (v == "hidden_block_count_z") val = grid.z;
    else if (v == "hidden_group_size_x") val = block.x;
    else if (v == "hidden_group_size_y") val = block.y;
    else if (v == "hidden_group_size_z") val = block.z;
    else if (v == "hidden_grid_dims") val = dims;
    else if (v == "hidden_dynamic_lds_size") val = o.dynamicLdsBytes;
    else if (v == "hidden_shared_base") val = kSharedAperture >> 32;
    else if (v == "hidden_private_base") val = kPrivateAperture >> 32;
    else if (v == "hidden_queue_ptr") val = queueAddr;
    // remainders, global offsets, printf/hostcall/heap pointers: 0
    put(ka, a.offset, &val, std::min<size_t>(a.size, 8));
  }
}

} // namespace

void Launcher::initWave(Wave &w, WorkgroupCtx &wg, Worker &wk, unsigned waveIdx) {
  const KernelInfo &k = *L.kernel;
  w.L = &L;
  w.wg = &wg;
  w.waveId = waveIdx;
  w.pc = uint32_t(L.prog->indexOf(k.entryAddr));
  w.status = WaveStatus::Running;
  w.stop = false;
  w.scc = false;
  w.error.clear();
  w.warnings = &wk.warnings;
  w.trace = L.opts.traceLimit ? &wk.trace : nullptr;
  w.lastRegion = nullptr;
  w.icount = 0;
  w.timed = L.opts.timing;
  w.now = 0;
  w.formedFor = nullptr;
  w.matrix = L.matrix;
  w.mxLast = 0;
  if (w.matrix) {
    std::memset(w.mxWrite, 0, sizeof(w.mxWrite));
    std::memset(w.mxRead, 0, sizeof(w.mxRead));
  }
  std::memset(w.clsCount, 0, sizeof(w.clsCount));
  std::memset(w.s, 0, sizeof(w.s));
  // (the rows of a register file are contiguous: one clear each)
  std::memset(w.v, 0, sizeof(w.v[0]) * vgprsToClear);
  std::memset(w.a, 0, sizeof(w.a[0]) * agprsToClear);
  w.vmIssued = w.vmDone = w.ldsIssued = w.ldsDone = w.smIssued = w.smDone = 0;
  uint8_t init = L.opts.uninitialized == UninitPolicy::Ignore ? 0 : RS_UNINIT;
  std::memset(w.rstate, init, sizeof(w.rstate));
  if (L.scratchPerLane) {
    w.scratch.assign(size_t(L.scratchPerLane) * 64, 0);
  }

  // MODE register from the descriptor's float modes.
  uint32_t r1 = k.rsrc1;
  w.mode = AMDHSA_BITS_GET(r1, amdhsa::COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_32) |
           AMDHSA_BITS_GET(r1, amdhsa::COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_16_64) << 2 |
           AMDHSA_BITS_GET(r1, amdhsa::COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_32) << 4 |
           AMDHSA_BITS_GET(r1, amdhsa::COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64) << 6 |
           AMDHSA_BITS_GET(r1, amdhsa::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_DX10_CLAMP) << 8 |
           AMDHSA_BITS_GET(r1, amdhsa::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_IEEE_MODE) << 9;

  // User SGPRs, in hardware order.
  unsigned s = 0;
  auto set64 = [&](uint64_t v) {
    w.s[s] = uint32_t(v);
    w.s[s + 1] = uint32_t(v >> 32);
    w.rstate[s] = w.rstate[s + 1] = 0;
    s += 2;
  };
  uint16_t p = k.codeProperties;
  if (p & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER) {
    for (unsigned i = 0; i < 4; ++i)
      w.rstate[s + i] = 0;
    s += 4;  // not used with architected flat scratch; left zero
  }
  if (p & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR)
    set64(sys.packetAddr);
  if (p & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR)
    set64(sys.queueAddr);
  if (p & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR)
    set64(sys.kernargAddr);
  if (p & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID)
    set64(L.clockBase);
  if (p & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT)
    set64(0);
  if (p & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE) {
    w.s[s] = L.scratchPerLane;
    w.rstate[s++] = 0;
  }
  unsigned preLen = AMDHSA_BITS_GET(k.kernargPreload, amdhsa::KERNARG_PRELOAD_SPEC_LENGTH);
  unsigned preOff = AMDHSA_BITS_GET(k.kernargPreload, amdhsa::KERNARG_PRELOAD_SPEC_OFFSET);
  for (unsigned i = 0; i < preLen && s < 32; ++i) {
    uint32_t v = 0;
    if ((preOff + i) * 4 + 4 <= sys.kernarg.size())
      std::memcpy(&v, sys.kernarg.data() + (preOff + i) * 4, 4);
    w.s[s] = v;
    w.rstate[s++] = 0;
  }
  // System SGPRs follow the user SGPRs.
  s = k.userSgprCount;
  uint32_t r2 = k.rsrc2;
  auto sys32 = [&](uint32_t v) {
    w.s[s] = v;
    w.rstate[s++] = 0;
  };
  if (r2 & amdhsa::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X) sys32(wg.id[0]);
  if (r2 & amdhsa::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y) sys32(wg.id[1]);
  if (r2 & amdhsa::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z) sys32(wg.id[2]);
  if (r2 & amdhsa::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_INFO) sys32(numWaves);
  if (r2 & amdhsa::COMPUTE_PGM_RSRC2_ENABLE_PRIVATE_SEGMENT) sys32(0);

  // Work-item ids, packed in v0 (gfx90a+): x | y << 10 | z << 20.
  uint64_t items = L.block.count();
  uint64_t first = uint64_t(waveIdx) * 64;
  uint64_t exec = 0;
  // (x, y, z) of the first lane, then counted up lane by lane (no divisions).
  uint32_t x = uint32_t(first % L.block.x), y = uint32_t(first / L.block.x % L.block.y),
           z = uint32_t(first / (uint64_t(L.block.x) * L.block.y));
  for (unsigned l = 0; l < 64; ++l) {
    uint32_t id = 0;
    if (first + l < items) {
      exec |= 1ull << l;
      id = x | y << 10 | z << 20;
      if (++x == L.block.x) {
        x = 0;
        if (++y == L.block.y) {
          y = 0;
          ++z;
        }
      }
    }
    w.v[0][l] = id;
  }
  w.rstate[kTrackV] = 0;
  w.setExec(exec);
  w.rstate[SR_EXEC] = w.rstate[SR_EXEC + 1] = 0;
  w.s[SR_FLAT_SCRATCH] = uint32_t(kPrivateAperture);
  w.s[SR_FLAT_SCRATCH + 1] = uint32_t(kPrivateAperture >> 32);
  w.rstate[SR_FLAT_SCRATCH] = w.rstate[SR_FLAT_SCRATCH + 1] = 0;
}

void Launcher::initGroup(WorkgroupCtx &wg, uint64_t g) {
  wg.linearId = g;
  wg.id[0] = uint32_t(g % L.grid.x);
  wg.id[1] = uint32_t(g / L.grid.x % L.grid.y);
  wg.id[2] = uint32_t(g / (uint64_t(L.grid.x) * L.grid.y));
  wg.numWaves = numWaves;
  wg.lds.assign(L.ldsSize, 0);
}

bool Launcher::runGroup(Worker &wk, uint64_t g) {
  WorkgroupCtx &wg = wk.wg;
  initGroup(wg, g);
  while (wk.waves.size() < numWaves)
    wk.waves.push_back(std::make_unique<Wave>());
  for (unsigned i = 0; i < numWaves; ++i)
    initWave(*wk.waves[i], wg, wk, i);
  uint64_t budget = L.opts.instructionBudget;
  for (;;) {
    unsigned ended = 0, waiting = 0;
    for (unsigned i = 0; i < numWaves; ++i) {
      Wave &w = *wk.waves[i];
      if (w.status == WaveStatus::Running) {
        uint64_t n = runWave(w, std::max<uint64_t>(1, L.opts.sliceInstructions));
        // The launch-wide count is shared by the worker threads: add to it
        // in large steps, not per slice (slices between barriers are short).
        wk.unflushed += n;
        uint64_t total = L.instructions.load(std::memory_order_relaxed) + wk.unflushed;
        if (wk.unflushed >= kFlushInstructions) {
          L.instructions.fetch_add(wk.unflushed, std::memory_order_relaxed);
          wk.unflushed = 0;
        }
        if (w.status == WaveStatus::Error) {
          wk.error = w.error;
          return false;
        }
        if (budget && total > budget) {
          const Inst &in = L.prog->insts[w.pc];
          w.fail(in, "the instruction budget of " + std::to_string(budget) +
                         " wave-instructions is exhausted (the kernel may not terminate; "
                         "raise LaunchOptions::instructionBudget if it is just long)");
          wk.error = w.error;
          return false;
        }
        if (L.abort.load(std::memory_order_relaxed))
          return true;
      }
      if (w.status == WaveStatus::Ended)
        ++ended;
      else if (w.status == WaveStatus::Barrier)
        ++waiting;
    }
    if (ended == numWaves)
      break;
    if (waiting && waiting + ended == numWaves)
      for (unsigned i = 0; i < numWaves; ++i)
        if (wk.waves[i]->status == WaveStatus::Barrier)
          wk.waves[i]->status = WaveStatus::Running;
  }
  for (unsigned i = 0; i < numWaves; ++i)
    for (unsigned c = 0; c < 8; ++c)
      wk.cls[c] += wk.waves[i]->clsCount[c];
  wk.waveCount += numWaves;
  ++wk.groups;
  return true;
}

namespace {

Error launchError(const KernelInfo &k, const Twine &msg) {
  return createStringError("launch of kernel " + k.name + ": " + msg);
}

} // namespace

Expected<LaunchStats> Device::launch(const CodeObject &co, StringRef kernel, Dim3 grid,
                                     Dim3 block, ArrayRef<uint8_t> kernargs,
                                     const LaunchOptions &opts) {
  auto kOr = co.getKernel(kernel);
  if (!kOr)
    return kOr.takeError();
  const KernelInfo &k = **kOr;
  if (k.codeProperties & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32)
    return launchError(k, "wave32 kernels are not supported (" + co.processor() +
                              " runs wave64)");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
      block.z == 0)
    return launchError(k, "grid and block dimensions must be at least 1");
  if (block.count() > 1024 || block.x > 1024 || block.y > 1024 || block.z > 1024)
    return launchError(k, "a workgroup has at most 1024 work-items (got " +
                              Twine(block.count()) + ")");
  if (k.maxFlatWorkgroupSize && block.count() > k.maxFlatWorkgroupSize)
    return launchError(k, "workgroup of " + Twine(block.count()) +
                              " work-items exceeds the kernel's max_flat_workgroup_size " +
                              Twine(k.maxFlatWorkgroupSize));
  if (grid.count() > (1ull << 40))
    return launchError(k, "grid too large");
  if (k.kernargSegmentSize() > (1u << 20))
    return launchError(k, "kernarg segment of " + Twine(k.kernargSegmentSize()) +
                              " bytes (limit 1 MiB)");
  if (k.privateSegmentSize > (1u << 20))
    return launchError(k, "private segment of " + Twine(k.privateSegmentSize) +
                              " bytes per work-item (limit 1 MiB)");
  uint32_t explicitSize = k.explicitArgsSize();
  uint32_t segSize = std::max(k.kernargSegmentSize(), explicitSize);
  // Without metadata the descriptor's kernarg_size is all we know; accept
  // what the caller passes if that is larger.
  if (k.args.empty() && kernargs.size() > segSize && kernargs.size() <= (1u << 20))
    segSize = uint32_t(kernargs.size());
  if (kernargs.size() < explicitSize)
    return launchError(k, "the kernel takes " + Twine(explicitSize) +
                              " bytes of explicit arguments but " +
                              Twine(kernargs.size()) + " were given");
  if (kernargs.size() > std::max(segSize, explicitSize))
    return launchError(k, "too many argument bytes: " + Twine(kernargs.size()) +
                              " given, the kernarg segment is " + Twine(segSize));
  uint64_t lds = uint64_t(k.groupSegmentSize) + opts.dynamicLdsBytes;
  // LDS per workgroup: 64 KiB on CDNA3, 160 KiB on CDNA4 (gfx950).
  uint64_t ldsLimit = co.processor() == "gfx950" ? 160 * 1024 : 64 * 1024;
  if (lds > ldsLimit)
    return launchError(k, "needs " + Twine(lds) + " bytes of LDS; " + co.processor() + " has " +
                              Twine(ldsLimit));
  if (co.program().indexOf(k.entryAddr) < 0)
    return launchError(k, "the entry point is not a decoded instruction");

  LaunchCtx L;
  L.co = &co;
  L.prog = &co.program();
  L.kernel = &k;
  L.opts = opts;
  L.grid = grid;
  L.block = block;
  L.ldsSize = uint32_t(lds);
  L.scratchPerLane = (k.privateSegmentSize + 3) / 4 * 4 + (k.usesDynamicStack ? 16384 : 0);
  L.threaded = opts.threads > 1;
  L.clockBase = ++dispatchId_;

  Launcher LN(L);
  LN.numWaves = unsigned((block.count() + 63) / 64);
  unsigned vgprs = std::max(k.vgprCount, k.granulatedVgprs);
  LN.vgprsToClear = std::min(vgprs, kNumVgprs);
  // [host] A kernel whose code names no AGPR never reads them (Semantics.h:
  // only AGPR operands reach Wave::a): its waves' AGPRs are not cleared
  // (vector_add: 8 rows, 2 KiB a wave).
  LN.agprsToClear =
      co.program().usesAgprs ? std::min(std::max(k.agprCount, k.granulatedVgprs), kNumAgprs) : 0;

  // Address space: working copies of the buffers, then the system regions.
  std::vector<std::pair<Buffer *, std::vector<uint8_t>>> work;
  auto bindBuffer = [&](Buffer &b) {
    work.emplace_back(&b, b.data);
    work.back().second.resize(b.data.size() + b.slack, 0);  // the slack reads as zeros
  };
  if (opts.buffers.empty()) {
    for (auto &kv : buffers_)
      bindBuffer(kv.second);
  } else {
    for (uint64_t a : opts.buffers) {
      auto it = buffers_.find(a);
      if (it == buffers_.end())
        return launchError(k, "LaunchOptions::buffers names 0x" + utohexstr(a) +
                                  ", which is not the start of a buffer");
      bindBuffer(it->second);
    }
  }
  for (auto &wb : work) {
    Region r;
    r.base = wb.first->addr;
    r.size = wb.second.size();
    r.data = wb.second.data();
    r.name = wb.first->name;
    r.slack = wb.first->slack;
    L.mem.add(r);
  }
  SysRegions &sys = LN.sys;
  sys.kernarg.assign((segSize + 63) / 64 * 64 + 64, 0);
  if (!kernargs.empty())
    std::memcpy(sys.kernarg.data(), kernargs.data(), kernargs.size());
  fillHidden(k, opts, grid, block, sys.queueAddr, sys.kernarg);
  sys.packet.assign(64, 0);
  {
    uint16_t setup = uint16_t(grid.z * block.z > 1 ? 3 : grid.y * block.y > 1 ? 2 : 1);
    uint16_t wgs[3] = {uint16_t(block.x), uint16_t(block.y), uint16_t(block.z)};
    uint32_t gs[3] = {grid.x * block.x, grid.y * block.y, grid.z * block.z};
    uint32_t priv = L.scratchPerLane, group = L.ldsSize;
    uint64_t kobj = kImageBase + k.descriptorAddr, ka = sys.kernargAddr;
    put(sys.packet, 2, &setup, 2);
    put(sys.packet, 4, wgs, 6);
    put(sys.packet, 12, gs, 12);
    put(sys.packet, 24, &priv, 4);
    put(sys.packet, 28, &group, 4);
    put(sys.packet, 32, &kobj, 8);
    put(sys.packet, 40, &ka, 8);
  }
  sys.queue.assign(256, 0);
  sys.image.assign(co.image().begin(), co.image().end());
  auto addSys = [&](uint64_t base, std::vector<uint8_t> &v, bool writable, const char *name) {
    Region r;
    r.base = base;
    r.size = v.size();
    r.data = v.data();
    r.writable = writable;
    r.name = name;
    L.mem.add(r);
  };
  addSys(sys.kernargAddr, sys.kernarg, false, "kernarg segment");
  addSys(sys.packetAddr, sys.packet, false, "dispatch packet");
  addSys(sys.queueAddr, sys.queue, false, "queue");
  addSys(kImageBase, sys.image, true, "code object image");

  auto t0 = std::chrono::steady_clock::now();
  uint64_t groups = grid.count();
  unsigned nthreads = std::max(1u, std::min<unsigned>(opts.threads, unsigned(std::min<uint64_t>(groups, 256))));
  if (opts.traceLimit || opts.timing)
    nthreads = 1;
  std::vector<Worker> workers(nthreads);
  // Dense MFMAs on a second thread when the workgroups run on this one.
  std::unique_ptr<MatrixThread> matrix;
  if (nthreads == 1 && opts.matrixThread && matrixThreadAllowed() &&
      std::any_of(L.prog->insts.begin(), L.prog->insts.end(),
                  [](const Inst &in) { return in.flags & IF_MATRIX; })) {
    matrix = std::make_unique<MatrixThread>();
    L.matrix = matrix.get();
  }
  std::shared_ptr<timing::Result> timed;
  if (opts.timing) {
    auto r = timing::runTimed(LN, workers[0], k);
    if (!r)
      return r.takeError();
    timed = std::move(*r);
  } else if (nthreads == 1) {
    for (uint64_t g = 0; g < groups; ++g)
      if (!LN.runGroup(workers[0], g)) {
        workers[0].errorGroup = g;
        break;
      }
  } else {
    std::atomic<uint64_t> next{0};
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < nthreads; ++t)
      ts.emplace_back([&, t] {
        Worker &wk = workers[t];
        for (;;) {
          if (L.abort.load())
            return;
          uint64_t g = next.fetch_add(1);
          if (g >= groups)
            return;
          if (!LN.runGroup(wk, g)) {
            wk.errorGroup = g;
            L.abort.store(true);
            return;
          }
        }
      });
    for (std::thread &t : ts)
      t.join();
  }
  if (matrix)
    matrix->drain();
  auto t1 = std::chrono::steady_clock::now();

  const Worker *bad = nullptr;
  for (const Worker &wk : workers)
    if (!wk.error.empty() && (!bad || wk.errorGroup < bad->errorGroup))
      bad = &wk;
  if (bad)
    return createStringError(bad->error);

  // Success: copy the buffers back.
  for (auto &wb : work) {
    wb.second.resize(wb.second.size() - wb.first->slack);  // never written: still zeros
    wb.first->data = std::move(wb.second);
  }
  LaunchStats st;
  uint64_t cls[8] = {};
  for (const Worker &wk : workers) {
    for (unsigned c = 0; c < 8; ++c)
      cls[c] += wk.cls[c];
    st.waves += wk.waveCount;
    st.workgroups += wk.groups;
    for (const std::string &w : wk.warnings)
      if (st.warnings.size() < opts.maxWarnings)
        st.warnings.push_back(w);
    st.trace.insert(st.trace.end(), wk.trace.begin(), wk.trace.end());
  }
  st.salu = cls[unsigned(ICls::SALU)];
  st.valu = cls[unsigned(ICls::VALU)];
  st.smem = cls[unsigned(ICls::SMEM)];
  st.vmem = cls[unsigned(ICls::VMEM)];
  st.lds = cls[unsigned(ICls::LDS)];
  st.mfma = cls[unsigned(ICls::MFMA)];
  st.branch = cls[unsigned(ICls::BRANCH)];
  for (unsigned c = 0; c < 8; ++c)
    st.waveInstructions += cls[c];
  st.seconds = std::chrono::duration<double>(t1 - t0).count();
  st.timing = std::move(timed);
  return st;
}

} // namespace aster::emu
