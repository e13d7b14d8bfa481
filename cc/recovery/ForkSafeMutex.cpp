//===- ForkSafeMutex.cpp - a mutex that a fork() never leaves locked -----===//
#include "recovery/ForkSafeMutex.h"

#include <pthread.h>

namespace aster {

/// Every ForkSafeMutex, newest first; fork() takes them all in that order.
struct ForkHandlers {
  static std::mutex &listMutex() {
    static std::mutex *m = new std::mutex;
    return *m;
  }
  static ForkSafeMutex *&head() {
    static ForkSafeMutex *h = nullptr;
    return h;
  }
  static void prepare() {
    listMutex().lock();
    for (ForkSafeMutex *m = head(); m; m = m->next)
      m->lock();
  }
  static void release() {
    for (ForkSafeMutex *m = head(); m; m = m->next)
      m->unlock();
    listMutex().unlock();
  }
  static void add(ForkSafeMutex *m) {
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(prepare, release, release); });
    std::lock_guard<std::mutex> lock(listMutex());
    m->next = head();
    head() = m;
  }
};

ForkSafeMutex::ForkSafeMutex() { ForkHandlers::add(this); }

} // namespace aster
