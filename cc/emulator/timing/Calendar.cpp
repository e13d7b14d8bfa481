//===- Calendar.cpp - bandwidth shared in time (Memory.h: Calendar) -------===//
//
// Needs: nothing. Guarantees: Calendar and CalendarView as Memory.h
// describes them (buckets of lines, full buckets pointing on to a later
// candidate; a view adds one group's reservations of an epoch).
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/Memory.h"

#include <algorithm>
#include <cmath>

namespace aster::emu::timing {

namespace {
/// Path compression of a calendar's next-bucket pointers (`next` indexed
/// from bucket `origin`): every bucket on the chain from `b` to its found
/// bucket `r` points at `r` directly.
void compressPath(std::vector<uint64_t> &next, uint64_t origin, uint64_t b, uint64_t r) {
  while (b != r) {
    uint64_t n = next[b - origin];
    next[b - origin] = r;
    b = n;
  }
}
} // namespace

void Calendar::init(double linesPerCycle, unsigned width) {
  width_ = std::max(1u, width);
  widthShift_ = ~0u;
  if (!(width_ & (width_ - 1)))
    widthShift_ = unsigned(__builtin_ctz(width_));
  cap_ = std::max(1.0, linesPerCycle * width_);
  whole_ = cap_ == std::floor(cap_);
  base_ = 0;
  roomB_ = ~0ull;
  used_.clear();
  next_.clear();
}

void Calendar::grow(uint64_t b) {
  if (base_ + used_.size() > b)
    return;
  // [host] in one step, at least 64 buckets at first (a launch's 130
  // calendars grew one bucket at a time: reallocations per launch)
  size_t n = size_t(b - base_) + 1;
  if (n > used_.capacity()) {
    size_t cap = std::max<size_t>({n, 2 * used_.capacity(), 64});
    used_.reserve(cap);
    next_.reserve(cap);
  }
  for (size_t i = used_.size(); i < n; ++i)
    next_.push_back(base_ + i);
  used_.resize(n, 0.f);
}

uint64_t Calendar::find(uint64_t b) {
  uint64_t r = b;
  for (;;) {
    if (r - base_ >= used_.size())  // (r >= base_)
      grow(r);
    uint64_t n = next_[r - base_];
    if (n == r)
      break;
    r = n;
  }
  compressPath(next_, base_, b, r);
  return r;
}

uint64_t Calendar::take(uint64_t t) {
  uint64_t b = std::max(bucketOf(t), base_);
  // [host] Most requests find their own bucket held and not full: no search.
  if (b - base_ >= next_.size() || next_[b - base_] != b)
    b = find(b);
  float &u = used_[b - base_];
  // Bucket b holds floor((b + 1) cap) - floor(b cap) lines: cap_ per bucket
  // on average, also when cap_ is small and not whole (an HBM channel's).
  double room = roomMemo(b);
  // Served in its bucket after the lines reserved there before it.
  uint64_t at = b * width_ + uint64_t(u / room * width_);
  u += 1;
  if (u + 1 > room)
    next_[b - base_] = b + 1;  // full
  return std::max(t, at);
}

void Calendar::forget(uint64_t t) {
  uint64_t b = t / width_;
  // Drop in large steps (the vectors shift).
  if (b < base_ + 4096 || b - base_ > used_.size())
    return;
  size_t k = size_t(b - base_);
  used_.erase(used_.begin(), used_.begin() + k);
  next_.erase(next_.begin(), next_.begin() + k);
  base_ = b;
}

void Calendar::add(uint64_t b, float lines) {
  grow(b);
  used_[b - base_] += lines;
}

void Calendar::settle(uint64_t from) {
  float carry = 0;
  for (uint64_t b = std::max(from, base_); b < base_ + used_.size() || carry > 0; ++b) {
    grow(b);
    float &u = used_[b - base_];
    u += carry;
    double r = room(b);
    carry = 0;
    if (u > r) {  // (whole lines: exact in float)
      carry = float(u - r);
      u = float(r);
    }
    if (u + 1 > r && next_[b - base_] == b)
      next_[b - base_] = b + 1;  // full
  }
}

void CalendarView::reset(const Calendar *base, uint64_t from) {
  base_ = base;
  roomB_ = ~0ull;
  lo_ = from;
  used_.clear();
  next_.clear();
}

void CalendarView::grow(uint64_t b) {
  // ([host] in one step, not a bucket at a time)
  size_t old = used_.size(), n = size_t(b - lo_) + 1;
  if (n <= old)
    return;
  used_.resize(n, 0.f);
  next_.resize(n);
  for (size_t i = old; i < n; ++i)
    next_[i] = lo_ + i;
}

uint64_t CalendarView::find(uint64_t b) {
  uint64_t r = b;
  for (;;) {
    if (r - lo_ >= used_.size())  // (r >= lo_)
      grow(r);
    uint64_t n = next_[r - lo_];
    if (n != r) {
      r = n;
      continue;
    }
    if (fullAt(r)) {
      // Full: the shared calendar's own pointer when it is full there.
      uint64_t bn = base_->nextAt(r);
      next_[r - lo_] = bn > r ? bn : r + 1;
      r = next_[r - lo_];
      continue;
    }
    break;
  }
  compressPath(next_, lo_, b, r);
  return r;
}

uint64_t CalendarView::take(uint64_t t) {
  const unsigned width = base_->width();
  uint64_t b = std::max(base_->bucketOf(t), lo_);
  // [host] Most requests find their own bucket held, not marked full and
  // with room: no search (the call and its checks were ~60 host
  // instructions a take).
  if (b - lo_ >= next_.size() || next_[b - lo_] != b || fullAt(b))
    b = find(b);
  float &own = used_[b - lo_];
  double room = roomMemo(b);
  // As Calendar::take on the shared calendar plus this view's lines.
  float u = base_->usedAt(b) + own;
  uint64_t at = b * width + uint64_t(u / room * width);
  own += 1;
  if (u + 1 + 1 > room)
    next_[b - lo_] = b + 1;  // full
  return std::max(t, at);
}

void CalendarView::addTo(Calendar &base) const {
  for (size_t i = 0; i < used_.size(); ++i)
    if (used_[i])
      base.add(lo_ + i, used_[i]);
}

} // namespace aster::emu::timing
