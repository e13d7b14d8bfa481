//===- Memory.cpp - LDS bank conflicts, caches and bandwidth --------------===//
#include "emulator/timing/Memory.h"

#include "emulator/timing/HbmChannels.h"
#include "emulator/timing/HugeSlots.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <tuple>
#include <unordered_map>

namespace aster::emu::timing {

namespace {
/// Tables of at least this many bytes go in huge host pages (smaller ones
/// would each cost a whole 2 MiB page the host zeroes).
constexpr size_t kHugeTableBytes = size_t(256) << 10;
void *zeroedTable(size_t bytes) {
  return bytes >= kHugeTableBytes ? hugeZeroed(bytes) : std::calloc(bytes, 1);
}
void releaseTable(void *p, size_t bytes) {
  if (bytes >= kHugeTableBytes)
    hugeRelease(p, bytes);
  else
    std::free(p);
}
} // namespace

/// Clocks of one group of n (<= 64) dwords with a clash (two distinct dwords
/// in one bank): the most distinct dwords any bank holds (the same dword is
/// broadcast). Each bank chains the distinct dwords seen in it (no sort).
static unsigned clashCycles(const uint32_t *group, unsigned n, uint32_t mask) {
  uint8_t head[64] = {}, next[64], count[64] = {};
  uint32_t seen[64];
  unsigned distinct = 0, worst = 0;
  for (unsigned i = 0; i < n; ++i) {
    uint32_t d = group[i];
    unsigned b = d & mask;
    bool found = false;
    for (unsigned k = count[b], j = head[b]; k; --k, j = next[j])
      if (seen[j] == d) {
        found = true;
        break;
      }
    if (found)
      continue;
    seen[distinct] = d;
    next[distinct] = head[b];
    head[b] = uint8_t(distinct++);
    worst = std::max(worst, unsigned(++count[b]));
  }
  return worst;
}

std::pair<unsigned, unsigned> ldsBankCycles(const uint32_t *dwords, unsigned per,
                                            uint64_t exec, unsigned banks) {
  unsigned lanesPerGroup = std::max(1u, banks / per);
  unsigned cycles = 0, ideal = 0;
  uint32_t group[64];
  const uint32_t mask = banks - 1;  // banks is a power of two
  for (unsigned g0 = 0; g0 < 64; g0 += lanesPerGroup) {
    unsigned end = std::min(64u, g0 + lanesPerGroup);
    uint64_t lanes = exec >> g0;
    if (end - g0 < 64)
      lanes &= (1ull << (end - g0)) - 1;
    if (!lanes)
      continue;
    ++ideal;
    unsigned n = 0;
    if (lanes == (end - g0 < 64 ? (1ull << (end - g0)) - 1 : ~0ull) &&
        (end - g0) * per <= 64) {
      // Every lane of the group: its dwords are consecutive in `dwords`.
      // One dword per bank when the banks used are as many as the dwords
      // (the common case: a loop the compiler vectorizes).
      n = (end - g0) * per;
      const uint32_t *d = dwords + g0 * per;
      uint64_t used = 0;
      for (unsigned i = 0; i < n; ++i)
        used |= 1ull << (d[i] & mask);
      if (unsigned(__builtin_popcountll(used)) == n) {
        ++cycles;
        continue;
      }
      cycles += clashCycles(d, n, mask);
      continue;
    }
    uint64_t used = 0;
    uint32_t first[64];
    bool clash = false;
    for (unsigned l = g0; l < end; ++l)
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
    if (!clash) {  // one dword per bank
      ++cycles;
      continue;
    }
    cycles += clashCycles(group, n, mask);
  }
  return {cycles, ideal};
}

void TagCache::init(uint64_t bytes, unsigned lineBytes, unsigned ways) {
  unsigned sets = 1;  // a power of two, so that a line's set is a mask
  unsigned setBits = 0;
  while (uint64_t(sets) * 2 * lineBytes * ways <= bytes) {
    sets *= 2;
    ++setBits;
  }
  // (storage of the same size is kept: every set is emptied at its first use)
  if (lines_ && size_t(sets) * ways != size_t(sets_) * ways_)
    lines_.reset();
  ways_ = ways;
  sets_ = sets;
  setBits_ = setBits;
  clear();
}

namespace {
/// Tag storage of ended launches by size, up to kKeepBytes in all.
struct WayPool {
  static constexpr size_t kKeepBytes = size_t(64) << 20;
  std::mutex m;
  std::unordered_map<size_t, std::vector<void *>> free;
  size_t bytes = 0;
};
WayPool &wayPool() {
  static WayPool *p = new WayPool;  // never destroyed: launches may run at exit
  return *p;
}
} // namespace

void TagRelease::operator()(TagWay *p) const {
  WayPool &pool = wayPool();
  size_t bytes = n * sizeof(TagWay);
  {
    std::lock_guard<std::mutex> lk(pool.m);
    if (pool.bytes + bytes <= WayPool::kKeepBytes) {
      pool.free[n].push_back(p);
      pool.bytes += bytes;
      return;
    }
  }
  releaseTable(p, bytes);
}

TagCache::Way *TagCache::storage() {
  size_t n = size_t(sets_) * ways_;
  Way *p = nullptr;
  WayPool &pool = wayPool();
  {
    std::lock_guard<std::mutex> lk(pool.m);
    auto it = pool.free.find(n);
    if (it != pool.free.end() && !it->second.empty()) {
      p = static_cast<Way *>(it->second.back());
      it->second.pop_back();
      pool.bytes -= n * sizeof(Way);
    }
  }
  if (!p)  // (each set is emptied at its first use)
    p = static_cast<Way *>(zeroedTable(n * sizeof(Way)));
  if (!p)
    throw std::bad_alloc();
  lines_ = std::unique_ptr<Way[], Release>(p, Release{n});
  return p;
}

void TagCache::clear() { used_.assign((sets_ + 63) / 64, 0); }

void TagCache::prefetch(uint64_t line) const {
  if (lines_)
    __builtin_prefetch(lines_.get() + size_t(setOf(line)) * ways_);
}

uint64_t *TagCache::access(uint64_t line, bool allocate, uint64_t **fill) {
  size_t si = setOf(line);
  Way *set = (lines_ ? lines_.get() : storage()) + si * ways_;
  // A set holds its lines in ways [0, k) and an empty way at k (when k <
  // ways_); the ways after it are never read (the scan stops at the empty
  // one). [host] At its first use only way 0 is emptied, and a miss that
  // takes the empty way empties the one after it: the whole set was
  // written before (16 ways of L2: 4 host lines, a store miss each, for
  // the one or two ways a small launch uses of most sets).
  if (!(used_[si / 64] >> (si % 64) & 1)) {
    used_[si / 64] |= 1ull << (si % 64);
    set[0] = Way{0, 0};
  }
  const uint64_t key = line + 1;
  if (set[0].tag == key)  // the most recent line again
    return &set[0].ready;
  if (allocate) {
    // [host] One pass: each way takes the line before it (the new or hit
    // line goes to way 0) until the hit, the first empty way or the end:
    // the same set as finding the way, then moving the ways before it
    // down (a memmove call per miss before).
    Way carry{key, 0};
    for (unsigned i = 0; i < ways_; ++i) {
      Way cur = set[i];
      set[i] = carry;
      if (cur.tag == key) {  // a hit: it becomes the most recent
        set[0].ready = cur.ready;
        return &set[0].ready;
      }
      if (!cur.tag) {  // a miss that took the empty way i: ways [0, i] hold lines
        if (i + 1 < ways_)
          set[i + 1] = Way{0, 0};
        break;
      }
      carry = cur;  // (past the last way: the least recently used line, dropped)
    }
    *fill = &set[0].ready;
    return nullptr;
  }
  unsigned i = 1;
  while (i < ways_ && set[i].tag && set[i].tag != key)
    ++i;
  if (i < ways_ && set[i].tag == key) {  // a hit: it becomes the most recent
    Way hit = set[i];
    std::memmove(set + 1, set, i * sizeof(Way));
    set[0] = hit;
    return &set[0].ready;
  }
  *fill = nullptr;
  return nullptr;
}

void LineMap::clear() {
  if (count_)
    std::memset(static_cast<void *>(slots_), 0, cap_ * sizeof(Slot));
  count_ = 0;
}

void LineMap::reset(size_t keepSlots) {
  if (cap_ > keepSlots) {
    releaseTable(slots_, cap_ * sizeof(Slot));
    slots_ = nullptr;
    cap_ = count_ = 0;
  }
  clear();
}

LineMap::~LineMap() { releaseTable(slots_, cap_ * sizeof(Slot)); }

void LineMap::grow() {
  Slot *old = slots_;
  size_t oldCap = cap_;
  cap_ = std::max<size_t>(cap_ * 2, 1024);
  slots_ = static_cast<Slot *>(zeroedTable(cap_ * sizeof(Slot)));
  if (!slots_)
    throw std::bad_alloc();
  for (size_t i = 0; i < oldCap; ++i)
    if (const Slot &e = old[i]; e.key) {
      size_t j = slot(e.key);
      while (slots_[j].key)
        j = (j + 1) & (cap_ - 1);
      slots_[j] = e;
    }
  releaseTable(old, oldCap * sizeof(Slot));
}

uint64_t &LineMap::get(uint64_t line, bool &fresh) {
  if (2 * (count_ + 1) > cap_)
    grow();
  const uint64_t key = line + 1;
  size_t j = slot(key);
  while (slots_[j].key && slots_[j].key != key)
    j = (j + 1) & (cap_ - 1);
  fresh = !slots_[j].key;
  if (fresh) {
    slots_[j] = Slot{key, 0};
    ++count_;
  }
  return slots_[j].val;
}

namespace {
/// GlobalMemory objects of ended launches, reset by the next launch's take.
struct MemoryPool {
  static constexpr size_t kKeep = 2;
  std::mutex m;
  std::vector<GlobalMemory *> free;
};
MemoryPool &memoryPool() {
  static MemoryPool *p = new MemoryPool;  // never destroyed: launches may run at exit
  return *p;
}
} // namespace

std::unique_ptr<GlobalMemory, GlobalMemory::Release> GlobalMemory::take(const Params &p) {
  GlobalMemory *m = nullptr;
  {
    MemoryPool &pool = memoryPool();
    std::lock_guard<std::mutex> lk(pool.m);
    if (!pool.free.empty()) {
      m = pool.free.back();
      pool.free.pop_back();
    }
  }
  if (!m)
    return std::unique_ptr<GlobalMemory, Release>(new GlobalMemory(p));
  std::unique_ptr<GlobalMemory, Release> h(m);
  m->reset(p);
  return h;
}

void GlobalMemory::Release::operator()(GlobalMemory *m) const {
  MemoryPool &pool = memoryPool();
  {
    std::lock_guard<std::mutex> lk(pool.m);
    if (pool.free.size() < MemoryPool::kKeep) {
      pool.free.push_back(m);
      return;
    }
  }
  delete m;
}

void GlobalMemory::reset(const Params &p) {
  P = p;
  auto log2Of = [](unsigned x) {
    return x && !(x & (x - 1)) ? unsigned(__builtin_ctz(x)) : ~0u;
  };
  scacheShift_ = log2Of(P.scacheLine);
  pipeShift_ = log2Of(P.l1BytesPerClk);
  // (an earlier launch's large line map goes back to the host: clearing it
  // would cost a small launch more than a new one)
  mall_.reset(size_t(1) << 16);
  setUngrouped();
  epochBucket_ = 0;
  atomicFree_.clear();
  unsigned xcds = (P.numCUs + P.cusPerXcd - 1) / P.cusPerXcd;
  l2_.resize(xcds);
  l2Bw_.resize(xcds);
  double line = P.lineBytes;
  for (unsigned x = 0; x < xcds; ++x) {
    l2_[x].init(P.l2Bytes, P.lineBytes, P.l2Ways);
    l2Bw_[x].init(P.l2BytesPerClkPerXcd / line, P.bandwidthWindow);
  }
  mallBw_.init(P.mallBytesPerClk / line, P.bandwidthWindow);
  hbmBw_.resize(kHbmChannels);
  for (Calendar &c : hbmBw_)
    c.init(P.hbmBytesPerClk / line / kHbmChannels, P.bandwidthWindow);
  icache_.resize((P.numCUs + P.icacheCUs - 1) / P.icacheCUs);
  for (TagCache &c : icache_)
    c.init(P.icacheBytes, P.icacheLine, 8);
  lastRun_.assign(icache_.size(), LastRun{});
}

uint64_t GlobalMemory::mallEntry(unsigned xcd, uint64_t line, bool &fresh, uint64_t *&slot) {
  if (views_.empty()) {
    slot = &mall_.get(line, fresh);
    return *slot;
  }
  if (const uint64_t *b = mall_.find(line)) {  // brought in before this epoch
    fresh = false;
    slot = nullptr;
    return *b;
  }
  slot = &views_[xcd]->mall.get(line, fresh);
  return *slot;
}

uint64_t GlobalMemory::fromL2(unsigned xcd, uint64_t line, uint64_t t, bool inMall) {
  uint64_t *fill = nullptr;
  if (uint64_t *r = l2_[xcd].access(line, true, &fill))
    return std::max(t + P.l2Latency, *r);
  bool fresh;
  uint64_t *slot;
  uint64_t at = mallEntry(xcd, line, fresh, slot);
  bool first = fresh;
  fresh = fresh && !inMall;
  uint64_t arrive = fresh ? t + P.hbmLatency : std::max(t + P.mallLatency, at);
  if (fresh)
    *slot = arrive;
  else if (first)  // (code in the MALL: the entry as it was, 0)
    *slot = 0;
  *fill = arrive;
  return arrive;
}

uint64_t GlobalMemory::fetchRun(const CUMemory &m, uint64_t line, unsigned prefetch,
                                uint64_t t, unsigned &misses) {
  LastRun &last = lastRun_[m.icache];
  misses = 0;
  if (last.line == line && last.prefetch == prefetch)
    return std::max(t, last.ready);
  TagCache &ic = icache_[m.icache];
  uint64_t ready = 0;
  for (unsigned d = 0; d <= prefetch; ++d) {
    uint64_t *fill = nullptr, at;
    if (uint64_t *r = ic.access(line + d, true, &fill)) {
      at = *r;
    } else {
      ++misses;
      // Code lines in L2: their own address space (bit 60), in vector lines.
      uint64_t l2line = (1ull << 60) | ((line + d) * P.icacheLine / P.lineBytes);
      at = *fill = fromL2(m.xcd, l2line, t, P.codeInMall);
    }
    if (!d)
      ready = at;
  }
  // (a run of more lines than a set has ways could evict its own first
  // line: not remembered)
  last.line = prefetch < ic.ways() ? line : ~0ull;
  last.prefetch = prefetch;
  last.ready = ready;
  return std::max(t, ready);
}

uint64_t GlobalMemory::scalarLoad(CUMemory &m, uint64_t a, unsigned bytes, uint64_t t,
                                  unsigned &misses) {
  auto lineOf = [&](uint64_t x) {
    return scacheShift_ != ~0u ? x >> scacheShift_ : x / P.scacheLine;
  };
  uint64_t ready = t;
  misses = 0;
  for (uint64_t l = lineOf(a), e = lineOf(a + bytes - 1); l <= e; ++l) {
    uint64_t *fill = nullptr;
    if (uint64_t *r = m.scalar.access(l, true, &fill)) {
      ready = std::max(ready, *r);
      continue;
    }
    ++misses;
    ready = std::max(ready, *fill = fromL2(m.xcd, l * P.scacheLine / P.lineBytes, t, false));
  }
  return ready;
}

void GlobalMemory::initCU(CUMemory &m, unsigned cu) const {
  m.l1.init(P.l1Bytes, P.lineBytes, P.l1Ways);
  m.scalar.init(P.scacheBytes, P.scacheLine, 4);
  m.pipeFree = 0;
  // Workgroups go to the XCDs in turn (AMD: "on MI300 series GPUs,
  // workgroups are typically scheduled round-robin across XCDs",
  // ROCm/composable_kernel pull request 3652): CU slot `cu` (workgroups cu,
  // cu + numCUs, ...) is CU cu / xcds of XCD cu mod xcds. The CUs sharing an
  // instruction cache are neighbours in their XCD.
  std::tie(m.xcd, m.icache) = placeOf(cu);
}

std::pair<unsigned, unsigned> GlobalMemory::placeOf(unsigned cu) const {
  unsigned xcds = unsigned(l2_.size());
  unsigned xcd = cu % xcds;
  unsigned physical = xcd * P.cusPerXcd + (cu / xcds) % P.cusPerXcd;
  return {xcd, std::min<unsigned>(physical / P.icacheCUs, unsigned(icache_.size()) - 1)};
}

void GlobalMemory::warmCode(uint64_t first, uint64_t end, unsigned cus) {
  std::vector<bool> done(icache_.size());
  // (and the lines the last launch's prefetcher fetched past the end)
  uint64_t last = std::min(end + uint64_t(P.icachePrefetchLines) * P.icacheLine,
                           first + P.icacheBytes);
  for (unsigned cu = 0; cu < cus; ++cu) {
    unsigned ic = placeOf(cu).second;
    if (done[ic])
      continue;
    done[ic] = true;
    lastRun_[ic].line = ~0ull;
    for (uint64_t line = first / P.icacheLine; line * P.icacheLine < last; ++line) {
      uint64_t *fill = nullptr;
      if (!icache_[ic].access(line, true, &fill) && fill)
        *fill = 0;
    }
  }
}

bool GlobalMemory::groupable() const {
  return P.icacheCUs && P.cusPerXcd % P.icacheCUs == 0 && P.numCUs % P.cusPerXcd == 0;
}

void GlobalMemory::setGrouped() {
  setUngrouped();
  for (unsigned x = 0; x < xcds(); ++x) {
    std::unique_ptr<XcdView> v;
    if (spareViews_.empty()) {
      v = std::make_unique<XcdView>();
    } else {  // (beginEpoch empties it; a large line map goes back to the host)
      v = std::move(spareViews_.back());
      spareViews_.pop_back();
      v->mall.reset(size_t(1) << 16);
    }
    v->hbmBw.resize(hbmBw_.size());
    views_.push_back(std::move(v));
  }
}

void GlobalMemory::setUngrouped() {
  for (auto &v : views_)
    spareViews_.push_back(std::move(v));
  views_.clear();
}

void GlobalMemory::beginEpoch(uint64_t t) {
  forget(t);
  epochBucket_ = t / P.bandwidthWindow;
  for (auto &v : views_) {
    v->mall.clear();
    v->fetched.clear();
    v->mallBw.reset(&mallBw_, epochBucket_);
    for (size_t c = 0; c < hbmBw_.size(); ++c)
      v->hbmBw[c].reset(&hbmBw_[c], epochBucket_);
  }
}

void GlobalMemory::endEpochLines(std::vector<uint64_t> &again) {
  again.assign(views_.size(), 0);
  untake_.clear();
  // [host] mall_ is far larger than the host's caches and each line's slot
  // a miss: the slots are asked for kAhead lines ahead (the merge was ~4%
  // of a 1024-workgroup vector_add's launching thread, most of it waiting
  // for them).
  constexpr size_t kAhead = 16;
  for (size_t x = 0; x < views_.size(); ++x) {  // in XCD order
    auto &v = views_[x];
    // Its lines in its table's order (as before), their slots asked for
    // ahead; the view is left empty (beginEpoch and the next launch's
    // setGrouped then have no table to clear: [host] ~2.7 MiB of memset a
    // 1024-workgroup vector_add launch, on the launching thread).
    merging_.clear();
    v->mall.drain([&](uint64_t line, uint64_t arrive) { merging_.push_back({line, arrive}); });
    merged_.clear();
    for (size_t i = 0; i < merging_.size(); ++i) {
      if (i + kAhead < merging_.size())
        mall_.prefetch(merging_[i + kAhead].first);
      bool fresh;
      uint64_t &at = mall_.get(merging_[i].first, fresh);
      at = fresh ? merging_[i].second : std::min(at, merging_[i].second);
      if (!fresh)  // an earlier XCD brought it in this epoch
        merged_.push_back(merging_[i].first);
    }
    // Its HBM reads of those lines are taken back: they would have found
    // the line in flight. (No line it read from HBM was in mall_ at the
    // epoch's start, so a line found here is one an earlier XCD brought in;
    // [host] one lookup of mall_ per line, not two: a miss each.)
    if (merged_.empty())
      continue;
    std::sort(merged_.begin(), merged_.end());
    for (const XcdView::Fetch &f : v->fetched)
      if (std::binary_search(merged_.begin(), merged_.end(), f.line)) {
        untake_.push_back({f.channel, f.bucket});
        ++again[x];
      }
  }
}

void GlobalMemory::endEpochBandwidth() {
  for (auto &v : views_) {  // in XCD order
    v->mallBw.addTo(mallBw_);
    for (size_t c = 0; c < hbmBw_.size(); ++c)
      v->hbmBw[c].addTo(hbmBw_[c]);
  }
}

void GlobalMemory::endEpochSettle() {
  if (views_.empty())
    return;
  for (const auto &u : untake_)
    hbmBw_[u.first].add(u.second, -1.f);
  mallBw_.settle(epochBucket_);
  for (Calendar &c : hbmBw_)
    c.settle(epochBucket_);
}

void GlobalMemory::forget(uint64_t t) {
  for (Calendar &c : l2Bw_)
    c.forget(t);
  mallBw_.forget(t);
  for (Calendar &c : hbmBw_)
    c.forget(t);
}

unsigned GlobalMemory::pipeCycles(unsigned n) const {
  unsigned bytes = n * P.lineBytes + P.l1BytesPerClk - 1;
  return std::max(1u, pipeShift_ != ~0u ? bytes >> pipeShift_ : bytes / P.l1BytesPerClk);
}

uint64_t GlobalMemory::access(CUMemory &m, const uint64_t *lines, unsigned n, bool store,
                              bool atomic, uint64_t start, unsigned &pipe,
                              uint64_t *lineCount) {
  // The CU's pipeline takes the instruction's lines in turn, then each
  // line goes as far as it must.
  pipe = pipeCycles(n);
  uint64_t begin = std::max(start, m.pipeFree);
  m.pipeFree = begin + pipe;
  uint64_t issued = begin + pipe;
  uint64_t done = issued;
  // The host fetches every line's tag sets at once (they are far apart).
  XcdView *view = views_.empty() ? nullptr : views_[m.xcd].get();
  for (unsigned i = 0; i < n; ++i) {
    if (!store && !atomic)
      m.l1.prefetch(lines[i]);
    l2_[m.xcd].prefetch(lines[i]);
    mall_.prefetch(lines[i]);  // (read-only while grouped: no race)
    // Grouped: a line not in mall_ goes to the XCD's view ([host]: its
    // slot missed the host's caches, most of mallEntry's time).
    if (view)
      view->mall.prefetch(lines[i]);
  }
  for (unsigned i = 0; i < n; ++i) {
    uint64_t line = lines[i];
    uint64_t *fill1 = nullptr, *fill2 = nullptr, *r;
    uint64_t arrive;
    Level lv;
    if (!store && !atomic && (r = m.l1.access(line, true, &fill1))) {
      lv = L1;
      arrive = std::max(issued + P.l1Latency, *r);
    } else {
      // Beyond L1: the XCD's L2 bandwidth, then MALL and HBM for lines it
      // does not hold.
      uint64_t t = l2Bw_[m.xcd].take(issued);
      if ((r = l2_[m.xcd].access(line, true, &fill2))) {
        lv = L2;
        arrive = std::max(t + P.l2Latency, store ? 0 : *r);
      } else {
        t = mallTake(m.xcd, t);
        bool fresh;
        uint64_t *slot;
        uint64_t at = mallEntry(m.xcd, line, fresh, slot);
        if (fresh && P.dataInMall) {  // in the MALL before the launch
          *slot = 0;
          fresh = false;
          at = 0;
        }
        if (!fresh) {
          lv = MALL;
          arrive = std::max(t + P.mallLatency, store ? 0 : at);
        } else {
          lv = HBM;
          unsigned ch = hbmChannel(line * P.lineBytes);
          t = hbmTake(m.xcd, ch, t);
          if (!views_.empty())
            views_[m.xcd]->fetched.push_back({line, hbmBw_[ch].bucketOf(t), ch});
          arrive = t + P.hbmLatency;
          *slot = store ? t : arrive;
        }
        if (store)
          arrive = t;
        *fill2 = arrive;
      }
      if (store)
        arrive = t + P.storeAckLatency;
      if (atomic) {
        // The read-modify-write at L2, after the line is there and the
        // atomics before it on the line are done.
        uint64_t &free = atomicFree_[line];
        uint64_t at = std::max({t, free, lv == L2 ? 0 : arrive - P.l2Latency});
        free = at + P.atomicLineCycles;
        arrive = std::max(arrive, at + P.atomicLineCycles + P.l2Latency);
        ++lineCount[4];
      }
    }
    if (fill1)
      *fill1 = arrive;
    ++lineCount[lv];
    done = std::max(done, arrive);
  }
  return done;
}

} // namespace aster::emu::timing
