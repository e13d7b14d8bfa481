//===- MatrixThread.cpp - the queue of MFMA jobs and its thread -----------===//
//
// A ring of jobs with one producer (the launch's thread) and one consumer.
// Both sides spin briefly before they block: the consumer sleeps on a
// condition variable when the ring stays empty and is woken when a batch
// of jobs is queued or the producer waits for one; the producer yields
// while it waits (the development machine is shared: no long spins).
//
//===----------------------------------------------------------------------===//
#include "emulator/MatrixThread.h"

#include "emulator/Wave.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#define ASTER_PAUSE() _mm_pause()
#else
#define ASTER_PAUSE() ((void)0)
#endif

namespace aster::emu {

bool matrixThreadAllowed() {
  static const bool cores = std::thread::hardware_concurrency() > 1;
  const char *e = std::getenv("ASTER_EMU_MATRIX_THREAD");  // read per launch
  return cores && !(e && std::strcmp(e, "0") == 0);
}

MatrixThread::MatrixThread() : ring_(kRing) { thread_ = std::thread([this] { loop(); }); }

MatrixThread::~MatrixThread() {
  drain();
  {
    std::lock_guard<std::mutex> lk(m_);
    stop_.store(true);
  }
  cv_.notify_one();
  thread_.join();
}

MatrixJob &MatrixThread::slot() {
  // The slot of job pushed_ + 1 is free once job pushed_ + 1 - kRing is done.
  if (pushed_ >= kRing && done() < pushed_ + 1 - kRing)
    waitFor(pushed_ + 1 - kRing);
  return ring_[pushed_ % kRing];
}

void MatrixThread::wake() {
  std::lock_guard<std::mutex> lk(m_);
  cv_.notify_one();
}

uint64_t MatrixThread::push() {
  ++pushed_;
  published_.store(pushed_, std::memory_order_seq_cst);
  // A sleeping thread is woken for a batch of jobs (one wake-up per job
  // would cost a system call per MFMA), or by waitFor.
  if (sleeping_.load(std::memory_order_seq_cst) &&
      pushed_ - done_.load(std::memory_order_relaxed) >= kWakeBatch)
    wake();
  return pushed_;
}

void MatrixThread::waitFor(uint64_t seq) {
  if (done() >= seq)
    return;
  if (wanted_.load(std::memory_order_relaxed) < seq)
    wanted_.store(seq, std::memory_order_seq_cst);
  if (sleeping_.load(std::memory_order_seq_cst))
    wake();
  for (unsigned spin = 0; done() < seq; ++spin) {
    if (spin < 256)
      ASTER_PAUSE();
    else
      std::this_thread::yield();
  }
}

void MatrixThread::loop() {
  uint64_t next = 0;  // jobs computed
  for (;;) {
    if (published_.load(std::memory_order_acquire) > next) {
      MatrixJob &j = ring_[next % kRing];
      j.fn(*j.w, *j.in, j.src);
      done_.store(++next, std::memory_order_release);
      continue;
    }
    bool any = false;
    for (unsigned spin = 0; spin < 64 && !any; ++spin) {
      ASTER_PAUSE();
      any = published_.load(std::memory_order_acquire) > next;
    }
    if (any)
      continue;
    std::unique_lock<std::mutex> lk(m_);
    sleeping_.store(true, std::memory_order_seq_cst);
    cv_.wait(lk, [&] {
      uint64_t p = published_.load(std::memory_order_seq_cst);
      return stop_.load() ||
             (p > next && (p - next >= kWakeBatch ||
                           wanted_.load(std::memory_order_seq_cst) > next));
    });
    sleeping_.store(false, std::memory_order_seq_cst);
    if (stop_.load() && published_.load() == next)
      return;
  }
}

} // namespace aster::emu

namespace aster::emu {

void matrixSyncSlow(Wave &w, const Inst &in) {
  uint64_t need = 0;
  if (in.flags & IF_MATRIX) {
    // A queued MFMA: its A and B are copied now; C and D follow the queue.
    for (unsigned s = 0; s < 2; ++s) {
      const Opnd &o = in.src(s);
      if (!o.isVector())
        continue;
      unsigned t = (o.kind == OpKind::A ? kTrackA : kTrackV) + o.reg;
      for (unsigned k = 0; k < o.count && t + k < kTrackCount; ++k)
        need = std::max(need, w.mxWrite[t + k]);
    }
  } else if (in.cls == ICls::MFMA) {
    need = w.mxLast;  // computed here: reads its C, writes its D
  } else {
    for (unsigned i = 0; i < in.nreads; ++i)
      for (unsigned k = 0; k < in.reads[i].count; ++k)
        need = std::max(need, w.mxWrite[in.reads[i].first + k]);
    for (unsigned i = 0; i < in.nwrites; ++i)
      for (unsigned k = 0; k < in.writes[i].count; ++k) {
        unsigned t = in.writes[i].first + k;
        need = std::max({need, w.mxWrite[t], w.mxRead[t]});
      }
  }
  if (need > w.matrix->done())
    w.matrix->waitFor(need);
}

} // namespace aster::emu
