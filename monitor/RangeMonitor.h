// The associative address-range counter monitor (EP-Cache, Kereku et al.,
// Euro-Par 2004, section 3.1) simulated in software: hardware counters say
// THAT level-1 misses are high; this says WHICH data structure misses and
// WHERE inside it. See docs/monitor.md.
//
// Like cachesim/, this is compiled twice: freestanding into the Valgrind tool
// (no libc, no libstdc++, no exceptions, no RTTI, no operator new, no static
// constructors, no virtual functions) and hosted into the unit tests. Memory
// comes only through the Allocator of cachesim/Types.h.
//
// Model. A *structure* is a named thing the tool reports (a global, a heap
// allocation site, a user-named range); it owns any number of address
// *ranges* (a global's extent, each live heap block of the site, a user
// range). For every data access the tool simulates one cache line and then
// calls record() with the depth that served it. Each structure keeps
//   served[kind][depth]   kind 0 = read, 1 = write; depth 0..levels
// (depth 0 = level-1 hit, d = level index d served it, levels = memory), so
// at level k the references are the sum over depth >= k, the hits depth == k
// and the misses depth > k: one increment per access.
//
// Static mode: counters only. Dynamic mode: additionally a histogram over the
// offset inside the range (block) of every access, either in buckets of k
// cache lines (histogram_lines) or in N equal portions of each block
// (histogram_bins, as the 25 portions of the paper's figure 3).
//
// Slots: with MonitorConfig::slots = N > 0 only N structures are counted, as
// a hardware monitor with N counter slots. The counted set is always the
// first N structures in this order: user-named ones in the order they were
// added, then automatic ones in the order they were added. So a user-named
// structure added when every slot is taken takes the slot of the most
// recently added counted automatic structure, whose counts are dropped (it
// reports counted() == false and zeroes); a structure that did not get a slot
// when it was added never gets one.
#ifndef OMPSIM_MONITOR_RANGEMONITOR_H
#define OMPSIM_MONITOR_RANGEMONITOR_H

#include "LevelStats.h"
#include "Types.h"

namespace ompsim {

constexpr int kMonitorMaxLevels = 4;
// Dynamic mode limits: at most this many portions in bins mode; in lines mode
// the bucket is doubled (adjacent buckets folded) until a structure's largest
// block needs at most kMonitorMaxBuckets buckets.
constexpr u32 kMonitorMaxBins = 65536;
constexpr u32 kMonitorMaxBuckets = 65536;
constexpr u32 kMonitorMaxHistogramLines = 1u << 20;
// Ranges must be smaller than this (user space is 2^47 bytes on x86-64); it
// keeps offset * bins inside 64 bits.
constexpr u64 kMonitorMaxRangeSize = 1ull << 48;
// thread_at() of the row that collects accesses of threads for which no
// per-thread row was free (see prepare_thread()).
constexpr u32 kMonitorNoThread = 0xffffffffu;
constexpr u32 kMonitorNoStructure = 0xffffffffu;

// Which ranges remove_range() removes.
enum MonitorRangeClass : u32 { kAutomaticRanges = 1, kUserRanges = 2, kAllRanges = 3 };

// Per-structure event counters beside served[][] (record_extra()).
enum MonitorExtra : u32 {
    kExtraCoherence = 0,     // coherence misses (multi-core machine)
    kExtraFalseSharing = 1,  // of which false sharing
    kExtraPrefetchHit = 2,   // line references served by a prefetched line, first use
    kExtraTlb1Miss = 3,      // data accesses whose translation missed DTLB1
    kExtraTlb2Miss = 4,      // ... and DTLB2 (page walks with two levels)
    // --classify-misses: the misses of level k (0-based) of class c
    // (MissClass, LevelStats.h) count in kExtraClassBase + 4 k + c.
    kExtraClassBase = 5,
};
constexpr u32 kExtraClassCounters = 4 * kMonitorMaxLevels;

struct MonitorConfig {
    int levels;               // 1..kMonitorMaxLevels cache levels
    unsigned line_bits;       // log2 of the line size (all levels share it), 2..16
    u32 histogram_lines;      // dynamic mode: bucket = k cache lines (power of two); 0 = not this mode
    u32 histogram_bins;       // dynamic mode: N equal portions of each block; 0 = not this mode
                              // (at most one of the two non-zero; both 0 = static mode)
    u32 slots;                // counter slots of the emulated hardware monitor; 0 = unlimited
};

// Internal records (public only so that the inline hot path can see them).
namespace mon {

// served[kind][depth], then the event counters of MonitorExtra (coherence
// and false-sharing misses, prefetch hits, TLB misses), which have no
// histogram.
constexpr u32 kCoherenceBase = 2 * (kMonitorMaxLevels + 1);
constexpr u32 kExtraCounters = kExtraClassBase + kExtraClassCounters;
constexpr u32 kStride = kCoherenceBase + kExtraCounters;
constexpr u32 kNone = 0xffffffffu;
// The last-hit cache: direct-mapped by 4 KiB page number. An entry is read
// only for addresses of the pages of its slot (a wide entry copied into a
// slot included), which lets invalidate() visit only the slots of the
// changed range's pages. 16 slots were enough for matmul's three arrays
// and the stack, where the earlier 4-entry move-to-front cache paid a
// shuffle on every alternation (bench/monitor_overhead.sh). 1024 slots
// (64 KiB) hold containers' heap pages and matmul's column of B (313
// pages): containers 100000 4 with 25 bins 7.92 s -> 7.26 s, matmul 400
// 2.37 s -> 2.28 s, stencil 2.29 s -> 2.22 s, since invalidate() stopped
// walking every slot at each of containers' 1.5 M heap events and
// flush_cache() empties only the slots used since the last thread switch.
constexpr u32 kCacheWays = 1024;
inline u32 cache_slot(u64 addr) { return u32(addr >> 12) & (kCacheWays - 1); }
constexpr u32 kWideEntries = 2;
// Page hints (RangeMonitor::fill_in_page()): direct-mapped by 4 KiB page
// number, 8 times the last-hit cache, so that a heap of 8192 contiguous
// pages (32 MiB) keeps one hint per page.
constexpr u32 kHintSlots = 8192;
inline u32 hint_slot(u64 addr) { return u32(addr >> 12) & (kHintSlots - 1); }

// The counters of one (structure, thread) pair.
struct Row {
    Row* next;  // next row of the structure (ascending thread) or of the free list
    u32 thread;
    u32 pad;
    u64 served[kStride];
};

// A structure's totals are the sum of its rows: the hot path makes one
// increment fewer (measured: stencil 1.15x -> see docs/performance.md).
struct Structure {
    Row overflow;        // threads that found no free row (thread = kMonitorNoThread)
    Row* rows;           // per-thread rows, ascending thread
    Row* cur_row;        // row of cur_thread (last looked up)
    u32 cur_thread;
    u32 nrows;
    bool overflow_used;
    bool user;
    bool counted;
    u32 res_lines;       // requested resolution (lines or bins, or neither)
    u32 res_bins;
    u64* hist;           // nbuckets x (2 x (levels+1)) counters; null in static mode
    u32 nbuckets;
    u32 hist_cap;        // buckets allocated
    u32 bins;            // bins mode: N; 0 in lines mode
    unsigned hist_shift; // lines mode: log2 of the bucket size in bytes
    u64 max_block;       // largest range ever added to the structure
    // Bins mode: the multiplier of a small range (bucket_of) for the last
    // size and bin count it was computed for. A structure's blocks mostly
    // share a size (a std::map's nodes), and the division was 7 % of
    // resolve() in containers 100000 4 with 25 bins.
    u64 mul_size;
    u64 mul;
    u32 mul_bins;
};

struct Range {
    u64 lo, hi;   // [lo, hi)
    u64 prio;     // larger wins: user bit 63, then the add sequence number
    u32 sid;      // structure
    u32 link;     // removal chain
    bool user;
    bool big;     // in the big-range list rather than the page table
    bool mark;    // in a removal chain
};

// One 4 KiB page of the page table and the small ranges touching it, sorted
// by lo (inline up to kInline, else in heap). Beside each range id, the
// offsets in the page where the range starts (0 if before) and ends
// (exclusive; kPageSize if after): resolve()'s search reads these entries
// instead of the ranges. A page of containers' heap holds about
// 85 blocks; searching through ids -> ranges (two dependent loads and a
// mispredicted branch per step) was 55 % of resolve(), which was 40 % of the
// run with the monitor. With the starts alone, the neighbours' bounds still
// cost two host misses in the ranges per resolve, 42 % of it; the ends leave
// one, the winner's, and the structure beside each id (kCrossesPage when the
// range leaves the page, so that its bounds are not all here) removes that
// one too for the blocks inside one page.
// Each entry's start, end, structure and range lie together, in one host
// line (mostly): these were four parallel lists, and a lookup or a free in
// a cold page met the start, the end, the structure and the range in four
// lines, a heap event's shift of the entries after it in four regions.
// make bench-heap: 88 to 90 ns an event -> 76 to 85 (best of 5, twice).
constexpr u32 kInline = 3;  // 64-byte Page
constexpr u32 kCrossesPage = 1u << 31;
struct PageEntry {
    u16 start;
    u16 end;
    u32 sid;     // structure | kCrossesPage
    u32 id;      // range
};
struct Page {
    u64 page;          // page number; kEmptyPage when the slot is free
    PageEntry* heap;   // PageLists of capacity cap (RangeMonitor::lists_in)
    u32 count;
    u32 cap;           // heap capacity; 0 = the entries are inline
    union {
        PageEntry inl[kInline];  // cap == 0
        u32 shadow_at[2];        // cap != 0: the page's shadow (below), or null (shadow())
    };
    u32 overlap;       // some ranges of the list overlap each other
    // A pointer in two words: an 8-aligned member would grow the slot
    // past a host line (offset 24, so the load is aligned all the same).
    u16* shadow() const {
        u16* s;
        __builtin_memcpy(&s, shadow_at, sizeof s);
        return s;
    }
    void set_shadow(u16* s) { __builtin_memcpy(shadow_at, &s, sizeof s); }
};
static_assert(sizeof(Page) == 64, "one host cache line per page slot");

// A page's granules: per 16 bytes, the block that holds them, as
// kind << 8 | (granules from the block's start), where a kind is a pair
// (structure, size) numbered by the monitor (RangeMonitor::kind_of()); 0
// where no block is. Kept for a page with its entries in a heap block while
// every one starts on a granule, is at most a page long and overlaps none
// (a heap page of glibc's: blocks start 16-aligned), else dropped.
// fill_in_page() then reads one u16 where the lists cost two host misses
// in a row, the index's grain and the entries it points at (perf on
// containers 100000 4 with the monitor: 63 % of locate_slow()'s samples on
// those two loads, the entries in a 2.6 MiB spread the host's L2 does
// not hold).
constexpr unsigned kGranuleBits = 4;
constexpr u32 kGranules = 4096u >> kGranuleBits;
constexpr u32 kKinds = 256;      // kind 0 is "no block"
constexpr unsigned kKindSlotBits = 10;  // the kinds' hash (RangeMonitor::kind_of()): a quarter full at most
constexpr u32 kKindSlots = 1u << kKindSlotBits;

// A page's heap block of up to this many entries also holds an index of
// its starts (PageLists::first): the entries' count then fits a byte
// (capacities are 6 * 2^k).
constexpr u32 kIndexedCap = 192;
constexpr unsigned kGrainBits = 6;  // the index's grain: 64 bytes
constexpr u32 kGrains = 4096u >> kGrainBits;

// A page's entries, sorted by their ranges' starts, inline or in its heap
// block.
struct PageLists {
    PageEntry* e;
    // In a heap block of at most kIndexedCap entries, else null: per 64-byte
    // grain g of the page, how many ranges start before g * 64. A lookup
    // then steps over the few starts inside one grain instead of a binary
    // search over the page's (about 85 for containers' heap: 70
    // instructions a search, the largest part of a resolution).
    u8* first;
    void move(u32 to, u32 from) { e[to] = e[from]; }
};

// Disjoint segments of the big ranges, each with the range that wins there.
struct Seg {
    u64 lo, hi;
    u32 range;
    u32 small;  // some page inside holds small ranges (conservative: may be stale-true)
};

// A last-hit cache entry: over [lo, lo+len) the winning range is constant;
// s == null when nothing counted is there. Every entry that resolve() fills
// has a row and, unless it has hist, a bucket: where nothing counts, or
// nothing is histogrammed, they are RangeMonitor's sinks, so that the hot
// path counts without testing s and tests one pointer for the histogram.
struct alignas(64) CacheEntry {  // one cache line each
    u64 lo, len;
    Structure* s;
    Row* row;     // row of the cache's thread (the sink row when s is null)
    u64 base;     // lo of the winning range (histogram offsets)
    u64* bucket;  // bins mode, a large range: the bucket's counters (the interval stays in it); with
                  // neither a bucket nor hist, the sink bucket
    u64* hist;    // lines mode, or bins mode for a small range: the structure's histogram; else null
    u64 mul;      // with hist: addr's bucket is bucket_of(addr - base, mul)
};

// The histogram bucket of offset `off` in an entry's range, for its
// multiplier: in lines mode 2^(32 - shift), which gives off >> shift (the
// shift is at most 32: ranges stay below 2^48 and histograms at 2^16
// buckets, so off * mul stays below 2^48); for a bins-mode range under
// 64 KiB, RangeMonitor.cpp's bins_multiplier().
inline u64 bucket_of(u64 off, u64 mul) { return (off * mul) >> 32; }

// Bins mode: an entry before resolve() cut it down to one bin, with the
// size of its range (what the bin of an address depends on).
struct WholeEntry {
    CacheEntry e;
    u64 size;
};

}  // namespace mon

class RangeMonitor {
public:
    // Validates cfg (err says why not) and gets the initial tables. No
    // constructor: the object may live in static storage inside the tool.
    bool init(const MonitorConfig& cfg, const Allocator& a, ErrorText& err);
    void destroy();

    // Registration (not hot; may allocate). Each of these, and
    // prepare_thread(), refills the per-thread row pool.

    // A new structure; returns its id (dense, 0, 1, 2...) or
    // kMonitorNoStructure when memory could not be had. Slots: see above.
    u32 add_structure(bool user_named);
    // Histogram resolution of one structure (client request): lines (power of
    // two) or bins as in MonitorConfig, or both 0 for counters only. The
    // structure's histogram restarts empty. False on bad arguments.
    bool set_resolution(u32 id, u32 lines, u32 bins);
    // [lo, lo+size) now belongs to structure id. Where ranges overlap, one of
    // a user-named structure beats one of an automatic structure, and among
    // equals the most recently added wins. Histograms are over the offset
    // inside the range (for a heap site: inside each block); a lines-mode
    // histogram grows here when a larger block arrives. False on bad
    // arguments (unknown id, size 0 or >= kMonitorMaxRangeSize, wrap-around)
    // or no memory.
    bool add_range(u64 lo, u64 size, u32 id);
    // The ranges starting at lo of the given class stop belonging to their
    // structures (free, munmap, forget); structures and counts stay. Returns
    // how many were removed.
    u32 remove_range(u64 lo, MonitorRangeClass which = kAllRanges);
    // The structure of the range of the class that starts at lo and wins
    // there (a user range, else the most recently added; for automatic
    // ranges a live heap block's site), or kMonitorNoStructure.
    u32 structure_starting_at(u64 lo, MonitorRangeClass which) const;
    // Whether add_range() of `size` bytes for structure `id` may move the
    // structure's counters (a lines-mode histogram that must grow), which
    // locate_current()'s pointers would then miss. add_structure() may move
    // every structure's overflow row; remove_range() moves nothing.
    bool add_moves_counters(u32 id, u64 size) const;
    // Removes every range overlapping [lo, lo+size); returns how many.
    u32 remove_ranges_in(u64 lo, u64 size);
    // Call when `thread` is created or scheduled (Valgrind's
    // track_start_client_code): keeps enough free per-thread rows that the
    // thread can touch every counted structure before the next call. Threads
    // that run without it may find the pool empty; their accesses then count
    // in the structure's row for kMonitorNoThread (totals stay exact).
    void prepare_thread(u32 thread);

    // HOT PATH: one cache-line access at byte address addr (the first byte of
    // the access in this line) of kind kRead or kWrite (others are ignored),
    // served at `depth` (0..levels), by `thread` (!= kMonitorNoThread).
    // Never allocates.
    inline void record(u64 addr, AccessKind kind, unsigned depth, u32 thread);
    // The tool's hot path: record() for the current thread with arguments
    // the caller guarantees (kind kRead or kWrite, depth <= levels), so it
    // checks neither; set_current_thread() must have named the thread
    // (it flushes the cache on a change). Saves a load, three compares and
    // a clamp per access: memcopy's byte-wise copies cost 1.21x without.
    inline void record_current(u64 addr, AccessKind kind, unsigned depth);
    // For a reference of the current thread whose depth is found later, on
    // another host thread (vgtool/MissWorker.h): where record_current()
    // would count it, instead of counting it. *row and *hist (null: no
    // histogram) point at the counters of depth 0 for `kind`; depth d's is
    // [d]. They stay valid until the ranges, the histograms' sizes or the
    // thread change. False: no counted structure holds addr.
    inline bool locate_current(u64 addr, AccessKind kind, u64** row, u64** hist);
    void set_current_thread(u32 thread);
    // Events of the current thread at addr: bit e of `mask` counts one in
    // extra counter e (MonitorExtra). Not histogrammed; rare enough that a
    // second lookup per event is fine.
    void record_extra(u64 addr, u32 mask);
    // Multi-core machine: a coherence miss of the current thread at addr
    // (false_sharing: also a false-sharing miss).
    // The counted structure that accesses of the current thread at addr
    // count in, or kMonitorNoStructure (not hot: like record_extra()).
    u32 structure_at(u64 addr);
    void record_coherence(u64 addr, bool false_sharing) {
        record_extra(addr, (1u << kExtraCoherence) | (false_sharing ? 1u << kExtraFalseSharing : 0u));
    }

    // Results. kind: 0 = read, 1 = write; depth 0..levels. Out-of-range
    // arguments give 0.
    u32 structures() const { return nstructs_; }
    bool counted(u32 id) const { return id < nstructs_ && structs_[id].counted; }
    bool user_named(u32 id) const { return id < nstructs_ && structs_[id].user; }
    u64 served(u32 id, int kind, unsigned depth) const;
    // Threads with counts for the structure, ascending; kMonitorNoThread last
    // if the row pool ran dry for it.
    u32 threads_seen(u32 id) const;
    u32 thread_at(u32 id, u32 i) const;
    u64 served_thread(u32 id, u32 i, int kind, unsigned depth) const;
    // Extra counters (MonitorExtra), totals and per thread row.
    u64 extra(u32 id, u32 which) const;
    u64 extra_thread(u32 id, u32 i, u32 which) const;
    // Coherence counters: which = 0 coherence misses, 1 false-sharing misses.
    u64 coherence(u32 id, int which) const {
        return which < 0 || which > 1 ? 0 : extra(id, u32(which));
    }
    u64 coherence_thread(u32 id, u32 i, int which) const {
        return which < 0 || which > 1 ? 0 : extra_thread(id, i, u32(which));
    }
    // Histogram (dynamic mode, counted structures with ranges; else 0 buckets).
    u32 buckets(u32 id) const;
    u64 bucket_bytes(u32 id) const;  // lines mode; 0 in bins or static mode
    u32 bins(u32 id) const;          // bins mode: N; else 0
    u64 bucket_served(u32 id, u32 bucket, int kind, unsigned depth) const;
    // Largest range ever added to the structure.
    u64 max_block(u32 id) const { return id < nstructs_ ? structs_[id].max_block : 0; }
    // Zeroes all counters and histograms; structures and ranges stay.
    void zero();

    int levels() const { return cfg_.levels; }
    u32 live_ranges() const { return live_ranges_; }
    // Whether some access ever found the row pool empty.
    bool rows_starved() const { return rows_starved_; }

private:
    void clear_fields();
    void* mem(size_t bytes);
    void unmem(void* p);
    template <class T> bool grow(T*& p, u32& cap, u32 need);

    void flush_cache();
    void invalidate(u64 lo, u64 hi);
    void record_slow(u64 addr, u32 idx, u32 thread);
    void record_uncached(u64 addr, u32 idx);
    void record_in_page(u64 addr, u32 idx);
    bool locate_slow(u64 addr, u32 base, u64** row, u64** hist);
    inline mon::CacheEntry* entry_slow(u64 addr, u32 thread);
    inline mon::CacheEntry* entry_in_page(u64 addr);
    inline bool point(const mon::CacheEntry& e, u64 addr, u32 base, u64** row, u64** hist) const;
    void resolve(u64 addr, u32 thread, mon::CacheEntry& e, u64* range_size = nullptr);
    inline bool fill_in_page(u64 addr, mon::CacheEntry& e);
    inline bool fill_block(mon::CacheEntry& e, mon::Structure& s, u64 lo, u64 len, u64 ilo, u64 ilen);
    inline void point_at_histogram(mon::Structure& s, u64 size, mon::CacheEntry& e);
    inline void point_at_nothing(mon::CacheEntry& e);
    void forget_hints(u64 lo, u64 hi);
    void narrow_to_bin(mon::CacheEntry& e, u64 addr, u64 range_size) const;
    const mon::WholeEntry* find_whole(u64 addr, u32 slot);
    mon::Row* row_for(mon::Structure& s, u32 thread);
    static inline void bump(const mon::CacheEntry& e, u64 addr, u32 idx, u32 hstride);
    inline const mon::CacheEntry* lookup(u64 addr);
    void adopt_wide(u32 slot);
    inline bool cached(u64 addr, u32 idx);

    bool ensure_rows();
    void release_rows(mon::Structure& s);
    void drop_structure_counts(mon::Structure& s);
    bool size_hist(mon::Structure& s, u64 block);

    u32 new_range();
    void free_range(u32 r);
    bool insert_small(u32 r);
    void remove_small(u32 r);
    bool insert_big(u32 r);
    bool remove_big(u32 r, bool* rebuild);
    bool rebuild_segs();
    void mark_small_segments(u64 page);
    void mark_all_small_segments();
    void remove_chain(u32 head);

    u32 page_find(u64 page) const;
    u32 page_insert(u64 page);
    bool page_rehash(u32 bits);
    void page_erase(u32 slot);
    // The heap block's layout: cap entries, and up to kIndexedCap the index
    // (mon::PageLists::first).
    static mon::PageLists lists_in(mon::PageEntry* heap, u32 cap) {
        u8* first = cap <= mon::kIndexedCap ? reinterpret_cast<u8*>(heap + cap) : nullptr;
        return mon::PageLists{heap, first};
    }
    static size_t page_heap_bytes(u32 cap) {
        return sizeof(mon::PageEntry) * size_t(cap) + (cap <= mon::kIndexedCap ? mon::kGrains : 0);
    }
    static mon::PageLists page_lists(mon::Page& p) {
        return p.cap ? lists_in(p.heap, p.cap) : mon::PageLists{p.inl, nullptr};
    }
    // Read-only uses (the lists are not changed through it).
    static mon::PageLists page_lists(const mon::Page& p) { return page_lists(const_cast<mon::Page&>(p)); }
    bool page_add(u64 page, u32 r);
    u32 kind_of(u32 sid, u32 size);
    bool shadow_put(mon::Page& p, u64 base, const mon::PageEntry& e, u64 lo, u64 hi);
    void shadow_clear(mon::Page& p, const mon::PageEntry& e);
    void shadow_drop(mon::Page& p);
    void shadow_build(mon::Page& p);
    template <class F>
    void for_each_starting_at(u64 lo, F f) const;
    void page_remove(u64 page, u32 r);
    void page_remove_at(u32 slot, u32 pos);

    Allocator alloc_;
    MonitorConfig cfg_;
    u32 dstride_;  // levels + 1
    u32 hstride_;  // 2 * (levels + 1)

    // Counts nobody reads (mon::CacheEntry): of the accesses where nothing
    // counts, and the histogram of structures without one.
    mon::Row sink_row_;
    u64 sink_bucket_[mon::kStride];
    mon::CacheEntry cache_[mon::kCacheWays];
    mon::CacheEntry wide_[mon::kWideEntries];  // entries wider than a page, most recent first
    // Bins mode: the wide entries, and per page slot the last one resolved
    // there, before their cut to one bin.
    mon::WholeEntry whole_[mon::kWideEntries];
    mon::WholeEntry slot_whole_[mon::kCacheWays];
    // Slots filled since the last flush_cache(), one bit each.
    static constexpr u32 kUsedWords = mon::kCacheWays / 64;
    u64 used_[kUsedWords];
    void mark_used(u32 slot) { used_[slot / 64] |= 1ull << (slot % 64); }
    u32 cache_thread_;
    // Per page (mon::hint_slot()): its slot in pages_ plus one, when no big
    // range meets the page; 0 when unknown. See fill_in_page().
    u32 hint_[mon::kHintSlots];

    mon::Structure* structs_;
    u32 nstructs_, cap_structs_, ncounted_;

    mon::Range* ranges_;
    u32 nranges_, cap_ranges_, live_ranges_;
    u32* free_ids_;   // free ranges (RangeMonitor::new_range()), room for cap_ranges_
    u32 nfree_ids_;
    u64 seq_;

    mon::Page* pages_;
    u32 page_bits_;   // log2 of the table's slots
    u32 pages_used_;

    u32* big_;        // live big ranges (any order)
    u32 nbig_, cap_big_;
    mon::Seg* segs_;  // resolved big ranges, sorted, disjoint
    u32 nsegs_, cap_segs_;
    bool big_overlap_;  // some big ranges overlap (segments are not 1:1)

    // Page shadows' kinds: structure and size of kind k (1..nkinds_), and
    // the hash that finds a pair's kind (0: empty slot).
    u32 kind_sid_[mon::kKinds];
    u32 kind_size_[mon::kKinds];
    u8 kind_slot_[mon::kKindSlots];
    u32 nkinds_;

    mon::Row* free_rows_;
    u32 nfree_rows_;
    void* row_chunks_;
    bool rows_starved_;
};

inline void RangeMonitor::bump(const mon::CacheEntry& e, u64 addr, u32 idx, u32 hstride) {
    ++e.row->served[idx];
    // Bins mode: resolve() found the bucket and kept the interval inside it,
    // so no division here (memcopy with 25 bins: 1.18x -> docs/performance.md).
    if (e.hist)
        ++e.hist[mon::bucket_of(addr - e.base, e.mul) * hstride + idx];
    else
        ++e.bucket[idx];
}

// The entry that covers addr: its page slot's, else the most recent wide
// entry, which then fills the slot too (adopt_wide()). Without that a walk
// through one big array never refilled its pages' slots (only the slow
// path did), so every access tested the slot, failed and tested wide_[0]:
// memcopy 2 with 25 bins spent 26.7 instructions a write in this lookup
// and its counting, 16 of them finding the entry; 19.2 with the slot
// filled (Callgrind on the tool, bench/self_profile.sh). Null when neither
// covers addr.
inline const mon::CacheEntry* RangeMonitor::lookup(u64 addr) {
    u32 slot = mon::cache_slot(addr);
    const mon::CacheEntry* e = cache_ + slot;
    if (__builtin_expect(addr - e->lo >= e->len, 0)) {
        if (addr - wide_[0].lo >= wide_[0].len) return nullptr;
        adopt_wide(slot);
    }
    return e;
}

// True when the last-hit cache covered addr (and counted the access there).
inline bool RangeMonitor::cached(u64 addr, u32 idx) {
    const mon::CacheEntry* e = lookup(addr);
    if (!e) return false;
    bump(*e, addr, idx, hstride_);
    return true;
}

// The page's slot inline; anything else is record_uncached(), reached by
// a tail call, so that the one-core helpers' hit path saves no register
// (with adopt_wide() called inline and the count after it, fast_data()
// pushed and popped two on every access with the monitor on).
inline void RangeMonitor::record_current(u64 addr, AccessKind kind, unsigned depth) {
    u32 idx = (u32(kind) - 1u) * dstride_ + depth;
    const mon::CacheEntry* e = cache_ + mon::cache_slot(addr);
    if (__builtin_expect(addr - e->lo >= e->len, 0)) return record_uncached(addr, idx);
    bump(*e, addr, idx, hstride_);
}

inline bool RangeMonitor::point(const mon::CacheEntry& e, u64 addr, u32 base, u64** row, u64** hist) const {
    if (!e.s) return false;
    *row = e.row->served + base;
    *hist = e.hist ? e.hist + mon::bucket_of(addr - e.base, e.mul) * hstride_ + base
                   : e.bucket == sink_bucket_ ? nullptr : e.bucket + base;
    return true;
}

inline bool RangeMonitor::locate_current(u64 addr, AccessKind kind, u64** row, u64** hist) {
    u32 base = (u32(kind) - 1u) * dstride_;
    if (const mon::CacheEntry* e = lookup(addr)) return point(*e, addr, base, row, hist);
    return locate_slow(addr, base, row, hist);
}

inline void RangeMonitor::record(u64 addr, AccessKind kind, unsigned depth, u32 thread) {
    u32 k = u32(kind) - 1u;  // kRead -> 0, kWrite -> 1
    if (k > 1u) return;
    if (depth > u32(cfg_.levels)) depth = u32(cfg_.levels);
    u32 idx = k * dstride_ + depth;
    if (thread != cache_thread_ || !cached(addr, idx)) record_slow(addr, idx, thread);
}

}  // namespace ompsim

#endif
