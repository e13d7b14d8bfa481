//===- Memory.h - LDS banks and the vector memory hierarchy ---------------===//
//
// LDS: 32 banks of 4 bytes, 128 bytes per clock per CU ([ISA], [WP]). An
// instruction's lanes go through the banks in groups of 128 bytes (32 lanes
// of b32, 16 of b64, 8 of b128); a group takes as many clocks as the most
// distinct dwords any bank holds in it (lanes reading the same dword share
// it: broadcast). The ideal is one clock per group.
//
// Global memory: unique 128-byte lines per instruction pass the CU's vector
// memory pipeline (64 bytes per clock), then its vector L1 (32 KiB), its
// XCD's L2 (4 MiB), the Infinity Cache (MALL, any line touched before in the
// launch) or HBM. Each level has a latency; the shared levels (L2 per XCD,
// MALL, HBM per channel: HbmChannels.h) have a bandwidth shared in time by
// all CUs (Calendar): a CU alone gets all of it, many CUs at once queue. Stores write through to L2
// without allocating in L1. Atomics execute at L2: they bypass L1, and an
// atomic occupies each line it updates for Params::atomicLineCycles, so
// atomics to one line serialise.
//
// Instruction fetch and scalar loads: an instruction cache per pair of CUs
// and a scalar cache per CU; a line they miss comes from the XCD's L2 (or
// the MALL or HBM, when L2 misses too) after that level's latency. They use
// no modelled bandwidth (few lines).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_MEMORY_H
#define ASTER_EMULATOR_TIMING_MEMORY_H

#include "emulator/timing/Params.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace aster::emu::timing {

/// Clocks the LDS needs for one instruction: `dwords[l * per + i]` is the
/// i-th dword address (byte address / 4) of lane l; lanes not in `exec` do
/// not access. Returns {cycles, ideal cycles}.
std::pair<unsigned, unsigned> ldsBankCycles(const uint32_t *dwords, unsigned per,
                                            uint64_t exec, unsigned banks);

/// One way of a TagCache set.
struct TagWay {
  uint64_t tag;    ///< line + 1, 0 = empty
  uint64_t ready;  ///< arrival cycle of the line's data
};
/// TagCache storage goes back to a process-wide pool (a launch allocates
/// ~9 MiB of tags for 304 CUs; fresh pages cost a fault each).
struct TagRelease {
  size_t n;
  void operator()(TagWay *p) const;
};

/// A set-associative cache of line tags with LRU replacement, the set a
/// hash of the line's address ([model]: hardware hashes). Each line
/// holds the cycle its data arrives (an access that finds a line still on
/// its way waits for it, as a miss merged into the one in flight would).
/// A set keeps its lines most recently used first (empty ways last), so a
/// hit is found near the front and the victim of a miss is the last way:
/// the same lines as LRU by time stamps, in one run of host memory per set.
/// Sets are emptied when first used (a launch touches few of the 2 MiB of
/// an idle XCD's L2 tags: a small kernel pays only for what it uses).
class TagCache {
public:
  void init(uint64_t bytes, unsigned lineBytes, unsigned ways);
  void clear();
  /// The arrival cycle of `line` if present (LRU updated), else nullptr; a
  /// miss allocates the line when `allocate` and returns its arrival slot
  /// through `fill` (the caller writes it). A returned slot stays valid
  /// until the next access of this cache.
  uint64_t *access(uint64_t line, bool allocate, uint64_t **fill);
  /// Asks the host to bring `line`'s set into its cache (no effect on
  /// the model).
  void prefetch(uint64_t line) const;
  unsigned ways() const { return ways_; }

private:
  /// The set from the line's address bits folded together: hardware hashes
  /// addresses over its channels and sets, so that power-of-two strides
  /// (the rows of a matrix) do not all land in a few sets.
  size_t setOf(uint64_t line) const {
    uint64_t h = line ^ (line >> setBits_) ^ (line >> 2 * setBits_) ^ (line >> 3 * setBits_);
    return size_t(h & (sets_ - 1));
  }
  using Way = TagWay;
  using Release = TagRelease;
  unsigned sets_ = 0, ways_ = 0, setBits_ = 0;
  std::unique_ptr<Way[], Release> lines_;  ///< per set: most recently used first;
                                           ///< allocated at the first access
  llvm::SmallVector<uint64_t, 4> used_;    ///< per set, a bit: its way 0 was initialised (access)
  Way *storage();
};

/// Bandwidth shared in time: `width`-cycle buckets of `linesPerCycle x
/// width` lines. A line wanted at cycle t is served in the first bucket
/// from t on with room left, so what a requester pays depends on what the
/// others asked for at the same time, not on the order they were simulated
/// in (as long as the buckets are not full). Full buckets point on to a
/// later candidate (union-find with path compression), so a long backlog
/// costs no scan.
class Calendar {
public:
  void init(double linesPerCycle, unsigned width);
  /// Reserves one line's transfer at or after cycle t; returns the cycle
  /// the transfer starts.
  uint64_t take(uint64_t t);
  /// No request will come before cycle t again: drops older buckets.
  void forget(uint64_t t);
  /// Lines bucket b holds: floor((b + 1) cap) - floor(b cap) (cap_ when whole).
  double room(uint64_t b) const {
    return whole_ ? cap_ : std::floor(double(b + 1) * cap_) - std::floor(double(b) * cap_);
  }
  /// Lines reserved in bucket b so far (read-only: 0 beyond the buckets held).
  float usedAt(uint64_t b) const {
    return b >= base_ && b - base_ < used_.size() ? used_[b - base_] : 0.f;
  }
  /// A later bucket that may have room, when b is full (else b).
  uint64_t nextAt(uint64_t b) const {
    return b >= base_ && b - base_ < next_.size() ? next_[b - base_] : b;
  }
  unsigned width() const { return width_; }
  /// The bucket of cycle t ([host]: a shift when the width is a power of
  /// two, as Params::bandwidthWindow is; a 64-bit division per take before).
  uint64_t bucketOf(uint64_t t) const { return widthShift_ != ~0u ? t >> widthShift_ : t / width_; }
  uint64_t firstBucket() const { return base_; }
  /// Adds `lines` reserved elsewhere (CalendarView) to bucket b; what a
  /// bucket cannot hold moves on to the next (carry: see merge()).
  void add(uint64_t b, float lines);
  /// After add()s: every bucket from b on holds at most its room, the
  /// excess served in the buckets after it, in order.
  void settle(uint64_t b);

private:
  friend class CalendarView;
  unsigned width_ = 64;
  unsigned widthShift_ = 6;      ///< log2(width_); ~0u: not a power of two
  double cap_ = 1;               ///< lines per bucket
  bool whole_ = true;            ///< cap_ is whole: every bucket holds cap_ (no floors per take)
  uint64_t base_ = 0;            ///< bucket number of used_[0]
  std::vector<float> used_;      ///< lines reserved per bucket
  std::vector<uint64_t> next_;   ///< a full bucket: a later candidate; else itself
  /// [host] room(b) of the last bucket asked for (most takes ask for the
  /// bucket the one before them asked for: two floors saved, ~45 host
  /// instructions a take of a calendar whose lines per bucket are not whole).
  uint64_t roomB_ = ~0ull;
  double roomV_ = 0;
  double roomMemo(uint64_t b) {
    if (whole_)
      return cap_;
    if (b != roomB_) {
      roomB_ = b;
      roomV_ = room(b);
    }
    return roomV_;
  }
  uint64_t find(uint64_t b);
  void grow(uint64_t b);
};

/// A calendar as one group of CUs sees it during an epoch (Model.cpp:
/// the XCDs' CUs advance independently between epoch boundaries): the
/// shared calendar as it was at the epoch's start (read-only) plus the
/// group's own reservations of this epoch. A take is served as
/// Calendar::take would serve it on that sum. At the epoch's end the
/// groups' reservations are added to the calendar in XCD order
/// (Calendar::add, settle): the other groups' reservations of an epoch are
/// seen from the next epoch on.
class CalendarView {
public:
  /// Starts an epoch whose requests come at or after bucket `from`.
  void reset(const Calendar *base, uint64_t from);
  uint64_t take(uint64_t t);
  /// Adds this epoch's reservations to `base` (Calendar::add).
  void addTo(Calendar &base) const;
  uint64_t from() const { return lo_; }

private:
  const Calendar *base_ = nullptr;
  uint64_t lo_ = 0;
  std::vector<float> used_;      ///< own lines per bucket from lo_
  std::vector<uint64_t> next_;   ///< full (base + own): a later candidate; else itself
  /// [host] base_->room(b) of the last bucket asked for (Calendar::roomMemo;
  /// the view's own: the shared calendar is read by several host threads).
  uint64_t roomB_ = ~0ull;
  double roomV_ = 0;
  double roomMemo(uint64_t b) {
    if (b != roomB_) {
      roomB_ = b;
      roomV_ = base_->room(b);
    }
    return roomV_;
  }
  /// Bucket b (held) cannot take another line: the shared calendar's
  /// lines there and this view's fill it.
  bool fullAt(uint64_t b) {
    return base_->usedAt(b) + used_[b - lo_] + 1 > roomMemo(b);
  }
  void grow(uint64_t b);
  uint64_t find(uint64_t b);
};

/// line -> cycle for the lines a launch touched: open addressing (linear
/// probing, a power-of-two table at most half full). Every line beyond L2
/// is looked up here ([host]: std::unordered_map allocated a node per new
/// line).
class LineMap {
public:
  /// The value of `line`; an absent line is inserted with 0 (`fresh`). The
  /// reference stays valid until the next call.
  uint64_t &get(uint64_t line, bool &fresh);
  /// The value of `line`, or nullptr (no insertion: read-only).
  const uint64_t *find(uint64_t line) const {
    if (!cap_)
      return nullptr;
    const uint64_t key = line + 1;
    for (size_t j = slot(key);; j = (j + 1) & (cap_ - 1)) {
      if (slots_[j].key == key)
        return &slots_[j].val;
      if (!slots_[j].key)
        return nullptr;
    }
  }
  /// Empties the map (keeps its table).
  void clear();
  /// Empties the map; a table of more than `keepSlots` slots goes back to
  /// the host.
  void reset(size_t keepSlots);
  /// Calls f(line, value) for every entry, in table order, and empties the
  /// map as it goes (the state clear() leaves, without clearing the table
  /// again: [host] its lines are in the host's cache as they are read).
  template <typename F> void drain(F f) {
    for (size_t i = 0; i < cap_ && count_; ++i)
      if (slots_[i].key) {
        f(slots_[i].key - 1, slots_[i].val);
        slots_[i] = Slot{0, 0};
        --count_;
      }
  }
  size_t size() const { return count_; }
  /// Asks the host to bring `line`'s slot into its cache (no effect on the
  /// map): a launch's map is far larger than the host's caches.
  void prefetch(uint64_t line) const {
    if (cap_)
      __builtin_prefetch(slots_ + slot(line + 1));
  }
  LineMap() = default;
  LineMap(const LineMap &) = delete;
  LineMap &operator=(const LineMap &) = delete;
  ~LineMap();

private:
  /// A key and its value side by side: a lookup reads one host cache line
  /// ([host]: two arrays cost two misses per line beyond L2).
  struct Slot {
    uint64_t key;  ///< line + 1; 0: empty
    uint64_t val;
  };
  /// cap_ slots, zeroed when allocated; large tables in huge host pages
  /// (HugeSlots.h: looked up at random, they missed the host's TLB).
  Slot *slots_ = nullptr;
  size_t cap_ = 0;
  size_t count_ = 0;
  size_t slot(uint64_t key) const {
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    return size_t(h ^ (h >> 29)) & (cap_ - 1);
  }
  void grow();
};

/// Where a line was found.
enum Level : uint8_t { L1, L2, MALL, HBM };

/// What a CU has of its own: its vector L1, its vector memory pipeline
/// (lines pass at l1BytesPerClk, hits and misses alike) and its XCD.
struct CUMemory {
  TagCache l1;
  TagCache scalar;        ///< the scalar data cache
  uint64_t pipeFree = 0;  ///< the pipeline is busy until then
  unsigned xcd = 0;
  unsigned icache = 0;    ///< its instruction cache (shared by Params::icacheCUs CUs)
};

/// The memory hierarchy of a launch, shared by all its CUs. The CUs are
/// simulated in epochs of global time (Model.cpp), so the shared caches and
/// the bandwidth calendars see the requests of all CUs in time order, up
/// to the length of an epoch.
class GlobalMemory {
public:
  explicit GlobalMemory(const Params &p) { reset(p); }
  /// The state of a new GlobalMemory(p) ([host]: a launch takes one an
  /// earlier launch left (take), so that its calendars, tag tables and line
  /// map keep their host memory: made anew, they cost a small launch ~10%
  /// of its time in allocations and page faults).
  void reset(const Params &p);
  /// A GlobalMemory for a launch with `p`: an earlier launch's, reset, or a
  /// new one; given back for later launches when the holder ends.
  struct Release {
    void operator()(GlobalMemory *m) const;
  };
  static std::unique_ptr<GlobalMemory, Release> take(const Params &p);
  /// CU `cu`'s memory state at the start of the launch.
  void initCU(CUMemory &m, unsigned cu) const;
  /// An access of `lines` (unique line numbers) issued at `start` by the CU
  /// owning `m`; returns its completion cycle. `pipe` gets the cycles it
  /// occupies the CU's pipeline, `lineCount` the lines per level.
  uint64_t access(CUMemory &m, const uint64_t *lines, unsigned n, bool store, bool atomic,
                  uint64_t start, unsigned &pipe, uint64_t *lineCount);
  /// A wave of CU `m` goes on in instruction-cache line `line` (code
  /// address / line size) at t: the lines line, line + 1, ..., line +
  /// `prefetch` are asked for in turn (the sequential prefetch: on their
  /// way, not waited for). Returns the cycle `line` is available; `misses`
  /// gets how many of them were fetched from L2 or beyond by this request.
  /// [host] The same run asked for again, nothing else having used that
  /// instruction cache since, hits in all its lines and leaves the LRU
  /// order as it was (every line of the run is more recent than the
  /// others of its set, in the same order): answered from the last run's
  /// memo (a wave's start and its moves to a new line cost ~5 tag lookups
  /// each, most of them repeating the run another wave of the CU pair
  /// just asked for).
  uint64_t fetchRun(const CUMemory &m, uint64_t line, unsigned prefetch, uint64_t t,
                    unsigned &misses);
  /// Puts the code [first, end) (and the prefetched lines after it; at
  /// most one cache's worth from `first`) in the instruction caches of CU slots
  /// 0..cus-1, arrived at cycle 0 (Params::codeWarm).
  void warmCode(uint64_t first, uint64_t end, unsigned cus);
  /// A scalar load of `bytes` at byte address `a` by CU m, issued at t:
  /// the cycle the last of its scalar-cache lines is there (t when all
  /// hit and arrived); `misses` gets the lines fetched from L2 or beyond.
  uint64_t scalarLoad(CUMemory &m, uint64_t a, unsigned bytes, uint64_t t, unsigned &misses);
  /// No request will be issued before cycle t again (the epoch start).
  void forget(uint64_t t);

  /// Grouped (Model.cpp): the CUs of each XCD advance on their own between
  /// epoch boundaries, possibly on different host threads. What an XCD has
  /// of its own (its L2 and L2 bandwidth, its CUs' L1s, scalar and
  /// instruction caches) is used as before; the Infinity Cache's lines and
  /// the MALL and HBM bandwidth, which all XCDs share, are seen as they
  /// were at the epoch's start plus the XCD's own requests of the epoch
  /// (XcdView), and endEpoch adds every XCD's requests to them in XCD order.
  /// Needs: each instruction cache used by the CUs of one XCD only
  /// (groupable()).
  void setGrouped();
  /// Back to one shared state (after endEpoch): every request sees all
  /// before it, as before setGrouped.
  void setUngrouped();
  bool groupable() const;
  unsigned xcds() const { return unsigned(l2_.size()); }
  /// The XCD of CU slot `cu`.
  unsigned xcdOf(unsigned cu) const { return placeOf(cu).first; }
  /// Starts an epoch at cycle t: forget(t), the views emptied.
  void beginEpoch(uint64_t t);
  /// The epoch's requests of every XCD, in XCD order, added to the shared
  /// state: a line first brought in by several XCDs arrives at the earliest
  /// of their arrivals and costs HBM bandwidth once (the first XCD's
  /// reservation; the others' are taken back: they would have found it in
  /// flight); the bandwidth reservations add up, and what a bucket cannot
  /// hold is served in the buckets after it (so an epoch in which the XCDs
  /// together asked for more than a level's bandwidth delays the requests
  /// of the epochs after it: the bandwidth is kept over time). `again`
  /// (per XCD) gets the lines an XCD read from HBM this epoch that an
  /// earlier XCD brought in (counted as Infinity Cache lines).
  ///
  /// In three steps, called in this order or the first two at once
  /// ([host]: they touch disjoint state, the Infinity Cache's lines and the
  /// bandwidth calendars, and run on two host threads; the third after
  /// both): the lines (and
  /// `again`), the bandwidth reservations added, then the reservations of
  /// the lines merged into an earlier XCD's taken back and what a bucket
  /// cannot hold moved on. The calendars hold whole lines (exact in float),
  /// so the order of their additions does not change them.
  void endEpochLines(std::vector<uint64_t> &again);
  void endEpochBandwidth();
  void endEpochSettle();

private:
  Params P;
  /// An XCD's requests to the shared levels during the current epoch.
  struct XcdView {
    LineMap mall;  ///< lines it brought in first (not in mall_ at the epoch's start)
    CalendarView mallBw;
    std::vector<CalendarView> hbmBw;
    /// Its HBM reads of those lines: the channel and bucket it reserved.
    struct Fetch {
      uint64_t line, bucket;
      unsigned channel;
    };
    std::vector<Fetch> fetched;
    /// [host] Nothing: the views, made one after another (144 bytes apart),
    /// are used by different host threads at once, and a view's `fetched`
    /// (grown per HBM line) shared a host cache line with the next view's
    /// line map (read per line beyond L2).
    char apart_[64];
  };
  std::vector<std::unique_ptr<XcdView>> views_;  ///< per XCD; empty: not grouped
  std::vector<std::unique_ptr<XcdView>> spareViews_;  ///< an earlier launch's (host memory)
  uint64_t epochBucket_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> merging_;  ///< endEpochLines' (host memory)
  std::vector<uint64_t> merged_;  ///< endEpochLines': an XCD's lines an earlier XCD brought in
  /// endEpochLines': the HBM reservations (channel, bucket) endEpochSettle takes back.
  std::vector<std::pair<unsigned, uint64_t>> untake_;
  /// The line's MALL entry as XCD `xcd` sees it: `fresh` when no one
  /// brought it in before (then `*slot` is where its arrival goes).
  uint64_t mallEntry(unsigned xcd, uint64_t line, bool &fresh, uint64_t *&slot);
  uint64_t mallTake(unsigned xcd, uint64_t t) {
    return views_.empty() ? mallBw_.take(t) : views_[xcd]->mallBw.take(t);
  }
  uint64_t hbmTake(unsigned xcd, unsigned ch, uint64_t t) {
    return views_.empty() ? hbmBw_[ch].take(t) : views_[xcd]->hbmBw[ch].take(t);
  }
  std::vector<TagCache> l2_;      ///< one per XCD
  std::vector<Calendar> l2Bw_;    ///< one per XCD
  LineMap mall_;                  ///< line -> arrival cycle
  std::vector<TagCache> icache_;  ///< one per Params::icacheCUs CUs
  /// Per instruction cache: the run fetchRun answered last (line, the
  /// prefetch count, the cycle its first line arrives), or line ~0: another
  /// use of that cache came after it (or none yet). Each 64 bytes ([host]:
  /// the XCDs' caches are used by different host threads).
  struct LastRun {
    uint64_t line = ~0ull, ready = 0;
    unsigned prefetch = 0;
    char apart_[44];
  };
  std::vector<LastRun> lastRun_;
  std::unordered_map<uint64_t, uint64_t> atomicFree_;  ///< line -> free at L2
  /// A line (in vector-line units) wanted from L2 at t by XCD xcd, without
  /// bandwidth: when it arrives.
  /// A line from the XCD's L2, else the MALL (a line touched before in the
  /// launch, or any line when `inMall`), else HBM.
  uint64_t fromL2(unsigned xcd, uint64_t line, uint64_t t, bool inMall);
  Calendar mallBw_;
  /// HBM bandwidth per channel (HbmChannels.h: 128 channels, 256-byte
  /// interleave), each 1/128 of the device's.
  std::vector<Calendar> hbmBw_;
  /// CU slot `cu`'s XCD and instruction cache (workgroups round-robin over
  /// the XCDs).
  std::pair<unsigned, unsigned> placeOf(unsigned cu) const;
  /// Cycles the CU's vector memory pipeline spends on n lines.
  unsigned pipeCycles(unsigned n) const;
  /// [host] log2 of P.scacheLine and P.l1BytesPerClk, ~0u when not a
  /// power of two: a shift, not a division, per scalar load and vector
  /// memory instruction (a 64-bit division is tens of host cycles).
  unsigned scacheShift_ = ~0u, pipeShift_ = ~0u;
};

} // namespace aster::emu::timing

#endif
