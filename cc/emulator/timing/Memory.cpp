//===- Memory.cpp - LDS bank conflicts, caches and bandwidth --------------===//
#include "emulator/timing/Memory.h"

#include <algorithm>

namespace aster::emu::timing {

std::pair<unsigned, unsigned> ldsBankCycles(const uint32_t *dwords, unsigned per,
                                            uint64_t exec, unsigned banks) {
  unsigned lanesPerGroup = std::max(1u, banks / per);
  unsigned cycles = 0, ideal = 0;
  uint32_t group[64];
  const uint32_t mask = banks - 1;  // banks is a power of two
  for (unsigned g0 = 0; g0 < 64; g0 += lanesPerGroup) {
    unsigned n = 0;
    uint64_t used = 0;
    uint32_t first[64];
    bool clash = false;
    for (unsigned l = g0; l < g0 + lanesPerGroup && l < 64; ++l)
      if (exec >> l & 1)
        for (unsigned i = 0; i < per && n < 64; ++i) {
          uint32_t d = dwords[l * per + i];
          unsigned b = d & mask;
          if (used >> b & 1)
            clash |= first[b] != d;  // the same dword again is a broadcast
          else
            first[b] = d;
          used |= 1ull << b;
          group[n++] = d;
        }
    if (!n)
      continue;
    ++ideal;
    if (!clash) {  // one dword per bank
      ++cycles;
      continue;
    }
    // Distinct dwords per bank (the same dword is broadcast).
    std::sort(group, group + n);
    n = unsigned(std::unique(group, group + n) - group);
    unsigned count[64] = {}, worst = 0;
    for (unsigned i = 0; i < n; ++i)
      worst = std::max(worst, ++count[group[i] & mask]);
    cycles += worst;
  }
  return {cycles, ideal};
}

void TagCache::init(uint64_t bytes, unsigned lineBytes, unsigned ways) {
  ways_ = ways;
  sets_ = 1;  // a power of two, so that a line's set is a mask
  while (uint64_t(sets_) * 2 * lineBytes * ways <= bytes)
    sets_ *= 2;
  clear();
}

void TagCache::clear() {
  tags_.assign(size_t(sets_) * ways_, 0);
  stamp_.assign(tags_.size(), 0);
  clock_ = 0;
}

bool TagCache::access(uint64_t line, bool allocate) {
  size_t base = size_t(line & (sets_ - 1)) * ways_;
  ++clock_;
  size_t victim = base;
  for (size_t i = base; i < base + ways_; ++i) {
    if (tags_[i] == line + 1) {
      stamp_[i] = clock_;
      return true;
    }
    if (stamp_[i] < stamp_[victim])
      victim = i;
  }
  if (allocate) {
    tags_[victim] = line + 1;
    stamp_[victim] = clock_;
  }
  return false;
}

GlobalMemory::GlobalMemory(const Params &p, unsigned cusUsed) : P(p) {
  l1_.init(P.l1Bytes, P.lineBytes, P.l1Ways);
  unsigned xcds = (P.numCUs + P.cusPerXcd - 1) / P.cusPerXcd;
  l2_.resize(xcds);
  for (TagCache &c : l2_)
    c.init(P.l2Bytes, P.lineBytes, P.l2Ways);
  // Shared bandwidth, evenly divided among the CUs in use: cycles per line.
  unsigned active = std::max(1u, cusUsed);
  unsigned perXcd = std::max(1u, std::min(active, P.cusPerXcd));
  l2Share_ = double(P.lineBytes) * perXcd / P.l2BytesPerClkPerXcd;
  mallShare_ = double(P.lineBytes) * active / P.mallBytesPerClk;
  hbmShare_ = double(P.lineBytes) * active / P.hbmBytesPerClk;
}

void GlobalMemory::beginCU(unsigned cu) {
  l1_.clear();
  xcd_ = (cu / P.cusPerXcd) % unsigned(l2_.size());
  l2Free_ = mallFree_ = hbmFree_ = 0;
}

unsigned GlobalMemory::pipeCycles(unsigned n) const {
  return std::max(1u, (n * P.lineBytes + P.l1BytesPerClk - 1) / P.l1BytesPerClk);
}

uint64_t GlobalMemory::access(const uint64_t *lines, unsigned n, bool store, uint64_t start,
                              uint64_t *lineCount) {
  double done = double(start);
  for (unsigned i = 0; i < n; ++i) {
    uint64_t line = lines[i];
    Level lv;
    if (!store && l1_.access(line, true))
      lv = L1;
    else if (l2_[xcd_].access(line, true))
      lv = L2;
    else if (!mall_.insert(line).second)
      lv = MALL;
    else
      lv = HBM;
    ++lineCount[lv];
    double t = double(start);
    // Lines from beyond L1 queue on the CU's share of each level they cross.
    if (lv >= L2) {
      l2Free_ = std::max(l2Free_, t) + l2Share_;
      t = l2Free_;
    }
    if (lv >= MALL) {
      mallFree_ = std::max(mallFree_, t) + mallShare_;
      t = mallFree_;
    }
    if (lv == HBM) {
      hbmFree_ = std::max(hbmFree_, t) + hbmShare_;
      t = hbmFree_;
    }
    unsigned lat = store ? P.storeAckLatency
                   : lv == L1 ? P.l1Latency
                   : lv == L2 ? P.l2Latency
                   : lv == MALL ? P.mallLatency
                                : P.hbmLatency;
    done = std::max(done, t + lat);
  }
  return uint64_t(done);
}

} // namespace aster::emu::timing
