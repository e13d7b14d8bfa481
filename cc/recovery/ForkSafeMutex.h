//===- ForkSafeMutex.h - a mutex that a fork() never leaves locked -------===//
//
// A process-wide lock around LLVM state (lld's globals, the direct encoder's
// caches). fork() waits until no thread holds it (pthread_atfork), so a child
// (multiprocessing's default on Linux) never inherits it locked. Instances
// live for the whole process: `static ForkSafeMutex &m = *new ForkSafeMutex;`.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_RECOVERY_FORKSAFEMUTEX_H
#define ASTER_RECOVERY_FORKSAFEMUTEX_H

#include <mutex>

namespace aster {

class ForkSafeMutex {
public:
  ForkSafeMutex();
  ForkSafeMutex(const ForkSafeMutex &) = delete;
  ForkSafeMutex &operator=(const ForkSafeMutex &) = delete;
  void lock() { mu.lock(); }
  void unlock() { mu.unlock(); }

private:
  std::mutex mu;
  ForkSafeMutex *next = nullptr;
  friend struct ForkHandlers;
};

} // namespace aster

#endif
