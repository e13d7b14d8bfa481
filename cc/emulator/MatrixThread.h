//===- MatrixThread.h - dense MFMAs computed on a second host thread ------===//
//
// Needs: a launch whose workgroups run on one host thread (with or without
// the timing model), LaunchOptions::matrixThread, and dense MFMAs in the
// code (Inst flag IF_MATRIX, from SemInfo flag SF_MATRIX_JOB).
// Guarantees: every register value an instruction, or the timing model,
// reads is the value a run without the thread reads, so results,
// strict-mode reports and cycles do not change; only host time does.
//
// How: a dense MFMA (SemMFMA.cpp) copies its A and B source registers into
// a job and queues it; the thread computes D = A * B + C from the copies
// and the wave's C registers. One queue, computed in order, so a wave's
// MFMAs run in program order (a chain through the accumulator needs no
// wait). Per wave, each register remembers the last queued job that writes
// it (D) and the last that reads it (C). Before an instruction executes,
// and before the timing model reads its addresses (matrixSync), the wave
// waits for the jobs whose D it reads (a queued MFMA: only for its A and
// B), or whose C or D it writes; an MFMA-class instruction computed on the
// calling thread (sparse, scaled) waits for all the wave's jobs. A wave
// that ends or fails waits for all its jobs (its registers are reused),
// and the launch drains the queue before its waves go away.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_MATRIXTHREAD_H
#define ASTER_EMULATOR_MATRIXTHREAD_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace aster::emu {

struct Wave;
struct Inst;

/// A queued MFMA computed from `src` (A's registers, then B's).
using MatrixFn = void (*)(Wave &w, const Inst &in, const uint32_t (*src)[64]);

struct MatrixJob {
  Wave *w = nullptr;
  const Inst *in = nullptr;
  MatrixFn fn = nullptr;
  static constexpr unsigned kMaxSrcRegs = 8;  ///< A and B: at most 4 each
  uint32_t src[kMaxSrcRegs][64];
};

class MatrixThread {
public:
  MatrixThread();
  ~MatrixThread();  ///< computes what is queued, then stops the thread
  MatrixThread(const MatrixThread &) = delete;
  MatrixThread &operator=(const MatrixThread &) = delete;

  /// The next job to fill (waits while the queue is full), then push() it:
  /// returns its sequence number (1, 2, ...).
  MatrixJob &slot();
  uint64_t push();
  /// Jobs 1..done() are computed (their registers visible to the caller).
  uint64_t done() const { return done_.load(std::memory_order_acquire); }
  /// Waits until job `seq` is computed.
  void waitFor(uint64_t seq);
  /// Waits until everything queued is computed.
  void drain() { waitFor(pushed_); }

private:
  static constexpr unsigned kRing = 128;
  static constexpr unsigned kWakeBatch = 32;  ///< jobs that wake a sleeping thread
  std::vector<MatrixJob> ring_;
  uint64_t pushed_ = 0;                 ///< caller's side
  std::atomic<uint64_t> published_{0};  ///< jobs queued
  std::atomic<uint64_t> done_{0};       ///< jobs computed
  std::atomic<uint64_t> wanted_{0};     ///< a job the caller waits for
  std::atomic<bool> stop_{false}, sleeping_{false};
  std::mutex m_;
  std::condition_variable cv_;
  std::thread thread_;
  void loop();
  void wake();
};

/// Whether launches of this process may use a matrix thread: the host has
/// more than one core and ASTER_EMU_MATRIX_THREAD is not "0" (now).
bool matrixThreadAllowed();

} // namespace aster::emu

#endif
