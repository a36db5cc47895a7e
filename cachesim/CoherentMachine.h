// A multi-core machine: per core the private levels 1..private_levels of a
// HierarchyConfig, below them the shared levels, and a MESI protocol on the
// union of each core's private levels. docs/cache-model.md ("Multi-core
// machine and coherence") is the specification; tests/unit/ReferenceCoherent.h
// is an independent model of it used by the differential tests.
//
// Each level follows docs/cache-model.md's single-core rules (replacement,
// write and inclusion, counters); while only core 0 has made accesses the
// results are exactly those rules', access by access (the single-threaded
// program's machine). The object has no constructor
// (it lives in static storage inside the tool): init() before use.
//
// Hot path: a hit on the first line of the core's level-1 set is handled
// inline (see access() below) without looking at other cores. Coherence
// work (a hash directory, CoherenceDirectory.h) is done only on private
// misses, on writes to lines not known to be Modified, and on evictions of
// private lines, and only once a second core has made an access.
#ifndef OMPSIM_CACHESIM_COHERENTMACHINE_H
#define OMPSIM_CACHESIM_COHERENTMACHINE_H

#include "CacheConfig.h"
#include "CacheLevel.h"
#include "CoherenceDirectory.h"
#include "LevelStats.h"
#include "MissClassifier.h"
#include "PageOwners.h"
#include "Prefetcher.h"

namespace ompsim {

// Flags returned above the depth (bits 0..7 = the depth that served it, as
// returns it: 0 = L1 hit, k = level k+1 served, levels() = memory).
enum : u32 {
    // The core had lost the line to another core's write (invalidated) and
    // had not accessed it since: the access missed in all its private levels.
    kCoherenceMiss = 1u << 8,
    // A coherence miss whose bytes do not overlap the bytes other cores
    // wrote to the line between the invalidation and this access.
    kFalseSharing = 1u << 9,
    // Served by another core that held the line Modified with data newer
    // than the shared levels (a dirty copy in its private levels). The depth
    // is then private_levels() (the first shared level, or memory's depth
    // when every level is private); the shared levels were not accessed.
    kCacheToCache = 1u << 10,
    // A write by a core holding the line Shared (the bus upgrade).
    kUpgrade = 1u << 11,
    // This access invalidated at least one other core's copy.
    kInvalidatedOthers = 1u << 12,
    // Served by a line a prefetcher brought in, on its first use (at the
    // level the depth names).
    kPrefetchHit = 1u << 13,
    // Set on every access once enable_observation() (or classification)
    // was called: the access went through the slow path, and a caller that
    // watches references (reuse distances, per-structure miss classes)
    // must look at it.
    kObserved = 1u << 14,
};
constexpr u32 kDepthMask = 0xffu;

// Per core and private level. Every coherence event of a core is counted
// once, on its last private level (index private_levels-1); the other
// private levels' counters stay zero.
struct CoherenceStats {
    u64 coherence_misses;        // accesses flagged kCoherenceMiss
    u64 false_sharing_misses;    // of which flagged kFalseSharing
    u64 invalidations_received;  // times another core's write invalidated this core's copy
    u64 invalidations_sent;      // copies of other cores this core's writes invalidated
    u64 c2c_in;                  // private misses served by another core (kCacheToCache)
    u64 c2c_out;                 // lines this core supplied to another core
    u64 upgrades;                // writes to lines held Shared (kUpgrade)
};

class CoherentMachine {
public:
    // cfg.private_levels levels (0: the default, levels-1 or 1) are private
    // per core; the rest are shared by all cores. max_cores >= 1: cores are
    // numbered 0..max_cores-1; a core's private levels are allocated on its
    // first access (core 0's here). Fails (err set) on a Cachegrind-mode or
    // inconsistent configuration, or when memory could not be had.
    bool init(const HierarchyConfig& cfg, u32 max_cores, const Allocator& a, ErrorText& err);
    void destroy();

    // One demand reference (kFetch, kRead, kWrite) of `core` to line `block`
    // (= addr >> line_bits()). `bytes`: mask of the bytes of the line the
    // access touches, one bit per byte for lines <= 64 B (for longer lines
    // one bit per line/64 bytes). `pc`: the address of the instruction,
    // which trains stride prefetchers. Returns depth | flags. A core >=
    // max_cores (or one whose caches could not be allocated) is ignored:
    // nothing is counted and levels() is returned.
    //
    // Prefetchers (Prefetcher.h) run after the demand access: each level's
    // demand misses and first uses of prefetched lines train it, and the
    // blocks it proposes that the level lacks are fetched into it like
    // reads (through the coherence protocol once several cores run),
    // counted below as kPrefetch references, not as demand ones.
    u32 access(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc = 0);
    // access() with the search of the rest of an LRU level-1 set inline too
    // (for a caller with one call site, the replay: in every helper the
    // larger code cost more than it saved).
    u32 access_lru(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc);

    unsigned line_bits() const { return line_bits_; }
    int levels() const { return levels_; }
    int private_levels() const { return plevels_; }
    // 1 + the highest core that made an access (core 0 counts from init).
    u32 cores_used() const { return cores_used_; }
    u32 max_cores() const { return ncores_; }

    // Counters: private level `index` (< private_levels) of `core`
    // (icache_side selects I1 when L1 is split); shared level `index`
    // (>= private_levels): `core` is ignored. Cores that never ran have zeros.
    const LevelStats& stats(u32 core, int index, bool icache_side) const;
    // Private levels only (zeros otherwise).
    const CoherenceStats& coherence(u32 core, int index) const;
    // Totals over cores (private) or the shared level.
    LevelStats total_stats(int index, bool icache_side) const;
    u64 memory_reads() const { return mem_reads_; }
    // A core's I1 fetch-reference counter (split L1), for callers that
    // count certain MRU hits themselves (vgtool/Instrumenter.h, the
    // replay); stays valid until destroy().
    u64* fetch_refs_counter(u32 core = 0) { return &cores_[core].i1.stats.refs[kFetch]; }
    // Whether a fetch by a core of the line its previous fetch went to is a
    // certain I1 hit that changes nothing but that counter, when only the
    // core's own data accesses ran in between: a split L1 without an I1
    // prefetcher or classification (hits change no state of any
    // replacement policy then), and no inclusive level (a data miss could
    // back-invalidate the line from I1: the zen presets' inclusive L2).
    bool certain_refetch() const;
    // Core 0's L1 (icache_side: I1 when L1 is split) for callers that test
    // for a hit on the most recently used way themselves, in generated code
    // (vgtool/Instrumenter.h): the key store, set mask and associativity,
    // and the counters a hit increments. Only levels where such a hit
    // changes nothing but the counters (and, for a write to a write-back
    // line, the dirty bit) and whose sets are a power of two qualify; false
    // otherwise. Valid until destroy(), while core 0 runs alone.
    struct L1View {
        u64* keys;
        u64 set_mask;
        u32 assoc;
        u64* refs;        // LevelStats::refs, indexed by AccessKind
        bool write_back;  // a write hit on the MRU way sets its dirty bit
        bool lru;         // a hit on another way moves it to the front
    };
    bool l1_view(bool icache_side, L1View* v);
    // The same for the replay (vgtool/CoreSim.cpp), which runs one core's
    // events at a time and tests L1 hits itself: any active core, with
    // writable()'s rule for writes spelled out. A write hit is inline when
    // `write_back`, the line is dirty or `clean_free`, and the core watches
    // nothing in `watch[block % kWatchSlots]` (read at each write: the
    // core's own slow accesses change it), or when the line's page is in
    // `owned` (a page only this core has touched: no other core can hold
    // the line, so writing a clean line changes nothing but its dirty bit,
    // as miss_owned() would). Valid while only `core` makes accesses
    // (clean_free changes when another core starts).
    struct CoreL1View {
        L1View l;             // l.write_back: the level's policy alone
        bool clean_free;
        const u32* watch;
        const u64* owned;     // Core::owned_pages
        u32 page_shift;
        bool ways4;           // l.lru and four ways or more: hit_if() tests ways 1 to 3
        // What first_way_hit() and other_way_hit() do for a hit of kind K
        // on `block` that changes nothing but the counters, the order and
        // the dirty bit: the first way, and for LRU ways 1 to 3 moved to
        // the front (the replayed stencil's rows share their sets as the
        // serial one's do; vgtool/SimHelpers.cpp, fast_data()). False
        // leaves the set untouched, for access_lru(). A hit's reference is
        // the caller's to add to l.refs[K]: the replay sums a batch's, an
        // increment per hit being a chain of read-modify-writes of one
        // counter.
        template <AccessKind K>
        bool try_hit(u64 block) const;
        // What try_hit<kWrite>() leaves for a dirty line whose write-filter
        // slot is in use: if `block` is such a line in one of the ways
        // try_hit() tests, it is moved to the front (LRU) and true comes
        // back. The write is a hit that changes no other state; the caller
        // counts it and calls write_records() (modified_write()'s work
        // without its search of the set).
        bool dirty_watched_hit(u64 block) const;
        // The search both share: the first way, and for LRU ways 1 to 3,
        // where `allowed(key)` says whether the line may be hit so.
        template <AccessKind K, class Allowed>
        bool hit_if(u64 block, Allowed allowed) const;
    };
    bool core_l1_view(u32 core, bool icache_side, CoreL1View* v);
    // A write of `bytes` (byte_mask) to `block`, a dirty line of the
    // writing core's L1 (CoreL1View::dirty_watched_hit()): the loss
    // records of the cores that lost the line, if any, get the bytes.
    void write_records(u64 block, u64 bytes);
    // access() for a caller that has just found `block` in none of the
    // ways of its L1 set (an L1View user): the demand access and the
    // prefetchers, without searching L1's set for an LRU hit first.
    u32 access_demand(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc);
    // Whether access_demand() takes the short miss path (see miss_simple()):
    // for core 0 alone, or (owned_misses()) for blocks of pages one core
    // has to itself.
    bool simple_misses() const { return simple_; }
    // The rest of an L1View user's access on the short path
    // (simple_misses()), after the MRU way of an LRU set failed (a write:
    // of a write-back view): ways 1 and up are compared while each moves
    // down one place, so a hit is already at the front when found and a
    // miss has its victim dropped and way 0 free. matmul 400 (62 M D1
    // misses, all searched to the end and then shifted again by the fill):
    // 1.92 s -> 1.78 s. (The short path has no prefetcher, so no key
    // carries the prefetched flag.) Returns depth | flags.
    // Always inline, as view_rest_l1() below: with the unrolled search GCC
    // left one of the two out of line in the one-core helpers' fast_rest(),
    // a call per miss (view_rest_l1() at first, this function once that
    // one was forced inline).
    template <u32 Skip = 0>
    __attribute__((always_inline)) u32 view_rest_shifting(const L1View& l, AccessKind kind, u64 block) {
        u64 victim;
        if (view_rest_l1<Skip>(l, kind, block, &victim)) return 0;
        // A hit on the MRU way of L2 moves nothing: only its count, here
        // rather than through miss_lower_half() and below_simple(). matmul
        // 400, whose D1 misses nearly all find B's line at the front of its
        // L2 set (the previous j used it): 2.06 s -> 1.94 s (medians of 5).
        // A hit on way 1 swaps the two front ways here too: of matmul's
        // other L2 references, those on way 1 (counted: the rest lie on
        // ways 8 and 9, 7.5 M, and ways 2 and 3 had 82 K) went through the
        // full search; 1.68 s -> 1.63 s and 1.72 s -> 1.69 s (medians of 7,
        // faster in 6 and 5 of 7 pairs).
        if (l2_ && l2_front_hit(kind, block)) {
            if (cur_ != &cores_[0]) cur_ = &cores_[0];
            if (victim != kNoVictim) writeback_l1_victim(victim);
            return 1;
        }
        return finish_miss(kind, block, victim);
    }
    // A hit on L2's way 0 (nothing moves) or way 1 (the two swap), counted;
    // false otherwise, with nothing changed. For l2_ only.
    __attribute__((always_inline)) bool l2_front_hit(AccessKind kind, u64 block) {
        u64* k2 = l2_->set_keys(l2_->set_of(block));
        u64 k0 = k2[0];
        bool hit = repl::key_holds(k0, block);
        if (!hit && l2_second_ && repl::key_holds(k2[1], block)) {
            k2[0] = k2[1];
            k2[1] = k0;
            hit = true;
        }
        if (hit) l2_->stats.refs[kind]++;
        return hit;
    }
    // Its two halves. On the short path L1 and the levels below it share
    // no state, so the one-core helpers may run finish_miss() on another
    // host thread (vgtool/MissWorker.h), misses in order.
    //  - view_rest_l1(): true for a hit (done). A miss is counted, the
    //    block put in way 0 and the victim's eviction counted; *victim is
    //    then the victim's block if it is dirty, else kNoVictim. Touches
    //    core 0's L1 only.
    //  - finish_miss(): the levels below L1 (miss_lower_half()), then the
    //    dirty victim's write-back into the level below; returns the depth.
    //    Touches no level-1 state.
    static constexpr u64 kNoVictim = ~0ull;
    // Skip: the caller compared ways 0 to Skip - 1 (at most 4, the
    // one-core helpers' inline tests) and found the block in none.
    template <u32 Skip = 0>
    __attribute__((always_inline)) bool view_rest_l1(const L1View& l, AccessKind kind, u64 block, u64* victim) {
        u64* keys = l.keys + (block & l.set_mask) * l.assoc;
        u64 dropped = repl::kInvalidKey;  // set on a miss
        // The default machine's 12-way D1 and an 8-way L1 (its I1, the
        // cachegrind machine's) get a search whose length is known when
        // compiling, so that it is unrolled: matmul 400's 62 M D1 misses
        // each run all twelve steps. fast_rest() 36 % -> 26 % of its
        // samples; faster in 8 of 9 alternating pairs. The short path has
        // no prefetcher, so no key carries the prefetched flag: the test
        // needs no mask (one instruction fewer a step, 6 of 9 pairs). Not
        // search_plain()'s vectors: memcopy 200 with the monitor was 5 %
        // slower with them here, without it 15 % faster instead of 16 %
        // (medians of 5; the pair loads of a set meet the single-key stores
        // the previous access to it left, which the host may not forward).
        int pos = repl::order_find_shifting_plain<Skip>(keys, l.assoc, block, &dropped);
        if (pos >= 0) {
            if (kind == kWrite) keys[0] |= 1;
            l.refs[kind]++;
            return true;
        }
        CacheLevel& top = (kind == kFetch && split_) ? cores_[0].i1 : cores_[0].lv[0];
        top.stats.refs[kind]++;
        top.stats.misses[kind]++;
        keys[0] = repl::make_key(block, kind == kWrite);
        *victim = kNoVictim;
        if (dropped == repl::kInvalidKey) return false;
        top.stats.evictions++;
        if (!repl::key_dirty(dropped)) return false;
        top.stats.writebacks++;
        *victim = repl::key_block(dropped);
        return false;
    }
    // repl::order_find_shifting() for a set of L2 or L3 on the short path
    // (below_simple()), whose keys carry no prefetched flag: by vectors
    // with wide_search_ (the assoc of the default machine's levels: 8, 10,
    // 12, also 16), else order_find_shifting_plain(). memcopy 200 (the miss
    // worker on): 4.08 s -> 3.43 s, medians of 5.
    __attribute__((always_inline)) int search_plain(u64* keys, u32 assoc, u64 block, u64* dropped) const {
#if defined(__x86_64__)
        if (wide_search_) {
            switch (assoc) {
                case 8: return repl::order_find_shifting_wide<8>(keys, block, dropped);
                case 10: return repl::order_find_shifting_wide<10>(keys, block, dropped);
                case 12: return repl::order_find_shifting_wide<12>(keys, block, dropped);
                case 16: return repl::order_find_shifting_wide<16>(keys, block, dropped);
                default: break;
            }
        }
#endif
        return repl::order_find_shifting_plain(keys, assoc, block, dropped);
    }
    u32 finish_miss(AccessKind kind, u64 block, u64 victim) {
        u32 k = miss_lower_half(kind, block);
        if (victim != kNoVictim) writeback_l1_victim(victim);
        return k;
    }
    u32 miss_lower_half(AccessKind kind, u64 block);
    void writeback_l1_victim(u64 block);
    // The lower half split once more, at L2 (vgtool/MissWorker.h, "below
    // L2"): L2 on the thread that runs L1, the levels below it on another,
    // in order. Most of matmul's misses end in L2 (61.9 M of 62.1 M), and
    // the 0.58 M that reach L3 cost about 0.1 s of its 1.8 s: L3's keys
    // (3.75 MiB) miss the host's caches. Only with three levels or more.
    //  - l2_part(): after view_rest_l1() and l2_front_hit() (`front`: its
    //    result), the rest of L2's part of the miss and of L1's dirty
    //    victim's write-back (kNoVictim: none). Returns the depth, 1, or
    //    kBelowL2 when L2 missed too; `w` gets what the levels below L2
    //    must then do, in the order of finish_miss(): LowerWork::kReference
    //    | block for the reference itself (first, when L2 missed), the
    //    block alone for a dirty line L2 evicted. The caller takes a front
    //    hit with no victim itself: 61.4 M of matmul's misses.
    //  - below_l2(): runs a kReference entry, returns its depth (2 or more).
    //  - writeback_below_l2(): runs a write-back entry.
    //  - run_below_l2(): runs all of `w` at once; returns the reference's
    //    depth, or `depth` (l2_part()'s) when `w` has no reference.
    // Touching no level below L2, l2_part() may run any number of misses
    // ahead of the entries (CoherentSingleCore.LevelsBelowL2MayLag).
    struct LowerWork {
        static constexpr u64 kReference = 1ull << 63;
        u64 op[3];  // at most: the reference, L2's victim, L1's victim's victim
        u32 n;
    };
    static constexpr u32 kBelowL2 = 2;
    bool splits_below_l2() const { return l2_ && levels_ >= 3; }
    u32 l2_part(AccessKind kind, u64 block, bool front, u64 l1_victim, LowerWork* w);
    u32 below_l2(AccessKind kind, u64 block);
    void writeback_below_l2(u64 block);
    u32 run_below_l2(AccessKind kind, const LowerWork& w, u32 depth);
    bool owned_misses() const { return plain_ && filtering_; }
    // The host has SSE4.1 (the tool asks CPUID, vgtool/HostMachine.h; the
    // hosted tests the compiler): the short path's searches of L2 and L3
    // compare two keys at a time (repl::order_find_shifting_wide()); the
    // same results. Off until set.
    void set_wide_search(bool on) { wide_search_ = on; }
    // For tests: off, every miss takes the general path (the short path must
    // give the same results; CoherentMachineTest.cpp's ShortMissPath* cases
    // compare them).
    void allow_simple_misses(bool on) {
        allow_simple_ = on;
        update_simple();
    }
    u64 memory_writes() const { return mem_writes_; }
    // Zeroes every counter; contents, states and loss records stay.
    void reset_stats();

    // ---- Miss classification (docs/cache-model.md, "Miss classes (3C)")
    // From now on every demand miss of every cache is classified into
    // LevelStats::miss_class: compulsory, capacity or conflict against a
    // fully associative LRU shadow of the cache (MissClassifier.h, one per
    // cache and core), coherence when the access is a coherence miss and
    // the cache private. Every level-1 reference then takes the slow path
    // (the shadows must see hits too); implies enable_observation(). Call
    // before the first access. False (err set) when memory could not be had.
    bool enable_classification(ErrorText& err);
    bool classifying() const { return classify_; }
    // From now on every data access (with classification every access)
    // takes the slow path and its result carries kObserved: callers that
    // watch every reference (reuse distances, per-structure classes) see
    // each. Off, the hot path is unchanged.
    void enable_observation();
    // The class of the last demand access's miss at level k of the data
    // (or unified) side: valid for the levels it missed (a data access that
    // returned depth d missed the levels k < d).
    MissClass last_class(int k) const { return MissClass(final_cls_[k]); }

    // For tests: `block` present in level `index` of `core` (shared levels:
    // core ignored), and its dirty bit.
    bool contains(u32 core, int index, bool icache_side, u64 block, bool* dirty) const;
    // MESI state of `block` in `core`'s private levels: 'M', 'E', 'S' or 'I'.
    char state(u32 core, u64 block) const;
    // For tests: whether `core` has a pending loss record for `block`, and
    // the mask of the bytes written by others since it lost the line.
    bool loss_record(u32 core, u64 block, u64* written) const;
    // For tests and measurements: directory entries (0 while one core ran).
    u64 directory_entries() const { return dir_.entries(); }
    // The page filter in front of the directory (PageOwners.h): a line of a
    // page only one core has touched needs no entry. On by default with
    // pages of 64 lines, when every private level is write-back (the
    // owner's state is then read off its dirty bits). For tests: off, or
    // pages of 2^page_shift lines, before a second core's first access; off
    // later stops a running filter (its pages enter the directory, as when
    // the page table cannot grow).
    void set_page_filter(bool on, unsigned page_shift);
    bool page_filter() const { return filtering_; }
    // For tests and measurements: pages in the filter, and of them shared.
    u64 filter_pages() const { return pages_.ready() ? pages_.pages() : 0; }
    u64 filter_shared_pages() const { return pages_.ready() ? pages_.shared_pages() : 0; }

private:
    // Slots of the per-core write filter (see access()).
    static constexpr u32 kWatchSlots = 64;
    // Slots of the per-core memo of owned pages (see Core::owned_pages).
    static constexpr u32 kOwnedSlots = 64;
    static constexpr u64 kNoPage = ~0ull;

    struct Core {
        CacheLevel i1;
        CacheLevel lv[kMaxLevels];   // [0, private_levels) used
        Prefetcher pf_i1;
        Prefetcher pf[kMaxLevels];   // the private levels' prefetchers
        // Number of lines this core holds exclusively (E/M) that another
        // core has a loss record for, by block % kWatchSlots: a write to
        // such a line must update the records, so it takes the slow path.
        u32 watch[kWatchSlots];
        // Pages miss_owned() or own_page() (on the short path's machines)
        // found this core's (PageOwners), by page % kOwnedSlots, kNoPage
        // when empty: the replay's inline path (CoreL1View::try_hit())
        // then writes a clean line of them itself. An entry goes when its
        // page becomes shared, all of them when the page filter or the
        // short path stops. omp_loop 1024 40 with 4 threads: 8.4 M writes
        // to clean lines of a thread's own rows took the slow path before.
        u64 owned_pages[kOwnedSlots];
        // Writes that hit a clean line need no coherence action (only
        // while a single core has run).
        bool clean_writes_free;
        bool active;
        CoherenceStats cs[kMaxLevels];
        MissClassifier cls_i1;             // classification only
        MissClassifier cls[kMaxLevels];    // the private levels'
    };

    // What the access in progress has learnt (slow path only).
    struct Context {
        u32 core;
        AccessKind kind;
        u64 block;
        u64 bytes;
        u32 flags;
        char prev;          // the core's state before the access
        bool dir;           // the directory was consulted: finish() needed
        bool crossed;       // a demand fetch crossed into the shared levels
        bool others_hold;   // other cores hold the line (rule for exclusive shared levels)
        bool c2c;           // a crossing fetch is served by `supplier`
        bool came_dirty;    // the crossing fetch brought a dirty line up
        bool pending;       // dirty data of an invalidated owner not yet placed
        bool in_own_page;   // the block's page is only this core's (own_page())
        u32 supplier;
        u32 pending_owner;
    };

    bool activate(u32 core);
    bool classify_core(Core& c);
    void observe_core(Core& c);
    // Classification: a demand reference of level k (its shadow class kept
    // until the access ends), a demand miss of level k, and at the end of
    // the access the count of each missed level's class.
    static u32 class_slot(int k, bool icache_side) { return icache_side ? u32(kMaxLevels) : u32(k); }
    void classify_ref(int k, bool icache_side, u64 block);
    void classify_miss(int k, bool icache_side) { miss_levels_ |= 1u << class_slot(k, icache_side); }
    u32 observed(u32 r);
    void enter_multicore();
    // The short miss path: every level of the configuration LRU, write-back
    // and non-inclusive, with no prefetcher, classification or observation
    // (plain_), for core 0 alone (simple_) or a page only the core has
    // touched (miss_owned()). miss_simple() runs on cur_.
    void update_simple();
    // Multi: on a multi-core machine (private victims update the directory).
    template <bool Multi>
    u32 miss_simple(AccessKind kind, u64 block);
    static constexpr u32 kNotOwned = ~0u;
    u32 miss_owned(u32 core, AccessKind kind, u64 block);
    bool modified_write(CacheLevel& c, u64 block, u64 bytes);
    void left_private(int k, bool icache_side, u64 victim, bool dirty);
    template <bool Multi>
    int below_simple(AccessKind kind, u64 block);
    template <int First>
    int below_plain(AccessKind kind, u64 block);
    void l2_dropped(CacheLevel& c, u64 dropped, LowerWork* w);
    template <bool Multi>
    void fill_simple(int k, CacheLevel& c, u64 block, bool dirty);
    template <bool Multi>
    void dropped_simple(int k, CacheLevel& c, u64 dropped);
    template <bool Multi>
    void writeback_simple(int k, u64 block);
    CacheLevel& lvl(int k, bool icache_side) {
        if (k < plevels_) return (k == 0 && icache_side && split_) ? cur_->i1 : cur_->lv[k];
        return shared_[k];
    }
    u32 access_slow(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc);
    // Level-1 hits that change nothing but the counters, the dirty bit and
    // (other_way_hit, LRU only) the order of the set `keys` of `c`: on the
    // first way, and on the others. A write qualifies on a write-back level
    // when the line is dirty (Modified) or only one core ran, and no other
    // core has a loss record for it (the write filter slot is zero).
    static bool writable(const Core& cr, const CacheLevel& c, u64 key, u64 block) {
        return c.write_back() && ((key & 1) || cr.clean_writes_free) && cr.watch[block % kWatchSlots] == 0;
    }
    static bool first_way_hit(Core& cr, CacheLevel& c, u64* keys, AccessKind kind, u64 block);
    static bool other_way_hit(Core& cr, CacheLevel& c, u64* keys, AccessKind kind, u64 block);
    u32 demand(u32 core, AccessKind kind, u64 block, u64 bytes);
    void begin_context(u32 core, AccessKind kind, u64 block, u64 bytes);
    // Prefetching: a training event of level k; a demand hit at (set, pos)
    // of level k, which may be the first use of a prefetched line.
    void train_later(int k, bool icache_side, u64 block);
    void demand_hit(CacheLevel& c, int k, bool icache_side, u64 set, int pos, u64 block) {
        if (c.prefetched_at(set, pos)) used_prefetch(c, k, icache_side, set, pos, block);
    }
    void used_prefetch(CacheLevel& c, int k, bool icache_side, u64 set, int pos, u64 block);
    bool has_prefetcher(int k, bool icache_side) const {
        return icache_side ? pf_i1_on_ : pf_on_[k];
    }
    Prefetcher& prefetcher(int k, bool icache_side) {
        if (k < plevels_) return icache_side ? cur_->pf_i1 : cur_->pf[k];
        return shared_pf_[k];
    }
    void run_prefetchers(u64 pc);
    void prefetch_into(int k, bool icache_side, u64 block);
    unsigned fetch(int k, u64 block, AccessKind kind, bool icache_side, bool* dirty_up);
    unsigned fetch_below(int k, u64 block, AccessKind kind, bool* dirty_up);
    unsigned write(int k, u64 block);
    unsigned write_below(int k, u64 block);
    void writeback(int k, u64 block);
    void victim_insert(int k, u64 block, bool dirty);
    void allocate(int k, bool icache_side, u64 block, bool dirty);
    void evict(int k, bool icache_side, u64 victim, bool dirty);

    // Coherence (multi-core only).
    u32 enter_directory();
    void begin_write();
    void read_crossing();
    void finish();
    void consume_record(u32 slot);
    bool holds_privately(const Core& c, u64 block, bool* dirty) const;
    bool present(const Core& c, u64 block, int first, int skip, bool skip_i1) const;
    bool invalidate_core(u32 core, u64 block);
    bool clean_core(u32 core, u64 block);
    void flush_to_shared(u32 owner, u64 block);
    void drop_holder(u32 core, u64 block);
    void drop_all_holders(u64 block);
    void dirty_data_left(u32 core, u64 block);
    bool own_page();
    void enter_page(u64 page, u32 owner);
    void stop_filtering();
    // Empties every core's owned_pages.
    void forget_owned_pages();
    // Whether the directory may hold an entry for `block` (its page is
    // shared, or no filter runs).
    bool tracked(u64 block) const {
        return !filtering_ || pages_.owner(block >> page_shift_) == PageOwners::kShared;
    }
    void sync_watch(u32 slot);
    CoherenceStats& cstats(u32 core) { return cores_[core].cs[plevels_ - 1]; }

    // Training events of the access in progress (at most one per level
    // and I1), run once the demand access is complete.
    struct PfEvent {
        int k;
        bool icache_side;
        u64 block;
    };

    Core* cores_;
    Core* cur_;            // the core of the access in progress
    CacheLevel shared_[kMaxLevels];  // [private_levels, levels) used
    Prefetcher shared_pf_[kMaxLevels];
    PfEvent pf_events_[kMaxLevels + 1];
    u64 pf_proposals_[kMaxPrefetchProposals];
    u32 pf_count_;
    u32 pf_flags_;         // kPrefetchHit of the access in progress
    bool pf_on_[kMaxLevels];
    bool pf_i1_on_;
    CoherenceDirectory dir_;
    PageOwners pages_;
    Context ctx_;
    MissClassifier shared_cls_[kMaxLevels];  // the shared levels' (classification only)
    u32 miss_levels_;                  // class_slot bits of the levels the access missed
    u8 cls_[kMaxLevels + 1];           // shadow class of the access's reference, by class_slot
    u8 final_cls_[kMaxLevels];         // the last access's classes (data side)
    bool classify_;
    bool observe_;
    HierarchyConfig cfg_;
    Allocator alloc_;
    u64 mem_reads_;
    u64 mem_writes_;
    u64 private_lines_;    // lines of one core's private levels
    u32 ncores_;
    u32 cores_used_;
    int levels_;
    int plevels_;
    unsigned line_bits_;
    bool split_;
    bool multi_;           // a second core has made an access
    bool simple_;          // access_demand() takes miss_simple() for core 0
    bool plain_;           // the configuration allows the short miss path
    CacheLevel* l2_;       // simple_ with two levels or more: core 0's level 2 (view_rest_shifting())
    bool l2_second_;       // l2_ has two ways or more: view_rest_shifting() tests way 1
    bool allow_simple_;    // tests may turn the short path off
    bool wide_search_;     // the short path searches L2 and L3 by vectors (SSE4.1)
    bool wb_private_;      // every private level is write-back
    bool allow_filter_;    // tests may turn the page filter off
    bool filtering_;       // pages_ filters the directory
    unsigned page_shift_;  // a page is 2^page_shift_ lines
};

// The hot path: a hit on the first line of the core's level-1 set (the MRU
// line for LRU; for FIFO and Random any first-way hit) is,
// a set computation, one compare and a counter increment. Reads and fetches
// need no coherence action on a private hit. A write may stay on this path
// when the line is already dirty (a dirty private line is Modified: no other
// core holds it) and no other core has a loss record for it (the core's
// write filter slot is zero); while a single core has run, any write hit to
// a write-back L1 stays here.
inline bool CoherentMachine::first_way_hit(Core& cr, CacheLevel& c, u64* keys, AccessKind kind, u64 block) {
    u64 k0 = keys[0];
    if (!repl::key_matches(k0, block)) return false;
    if (kind == kWrite) {
        if (!writable(cr, c, k0, block)) return false;
        keys[0] = k0 | 1;
    }
    c.stats.refs[kind]++;
    return true;
}

inline bool CoherentMachine::other_way_hit(Core& cr, CacheLevel& c, u64* keys, AccessKind kind, u64 block) {
    u32 n = c.assoc();
    for (u32 i = 1; i < n; ++i) {
        u64 k = keys[i];
        if (!repl::key_matches(k, block)) continue;
        if (kind == kWrite) {
            if (!writable(cr, c, k, block)) return false;
            k |= 1;
        }
        for (u32 j = i; j > 0; --j) keys[j] = keys[j - 1];
        keys[0] = k;
        c.stats.refs[kind]++;
        return true;
    }
    return false;
}

template <AccessKind K, class Allowed>
inline bool CoherentMachine::CoreL1View::hit_if(u64 b, Allowed allowed) const {
    u64* k = l.keys + (b & l.set_mask) * l.assoc;
    u64 k0 = k[0];
    if (__builtin_expect(repl::key_matches(k0, b), 1)) {
        if (!allowed(k0)) return false;
        if (K == kWrite) k[0] = k0 | 1;
        return true;
    }
    if (!ways4) return false;
    u64 k1 = k[1], k2 = k[2], k3 = k[3], hit;
    if (repl::key_matches(k1, b)) {
        if (!allowed(k1)) return false;
        hit = k1;
    } else if (repl::key_matches(k2, b)) {
        if (!allowed(k2)) return false;
        k[2] = k1;
        hit = k2;
    } else if (repl::key_matches(k3, b)) {
        if (!allowed(k3)) return false;
        k[3] = k2;
        k[2] = k1;
        hit = k3;
    } else {
        return false;
    }
    k[1] = k0;
    k[0] = K == kWrite ? hit | 1 : hit;
    return true;
}

template <AccessKind K>
inline bool CoherentMachine::CoreL1View::try_hit(u64 b) const {
    // writable()'s rule, with the view's copies.
    return hit_if<K>(b, [&](u64 key) {
        if (K != kWrite) return true;
        if (l.write_back && ((key & 1) || clean_free) && watch[b % kWatchSlots] == 0) return true;
        u64 page = b >> page_shift;
        return owned[page % kOwnedSlots] == page;
    });
}

inline bool CoherentMachine::CoreL1View::dirty_watched_hit(u64 block) const {
    if (!l.write_back || watch[block % kWatchSlots] == 0) return false;
    return hit_if<kWrite>(block, [](u64 key) { return (key & 1) != 0; });
}

inline u32 CoherentMachine::access(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc) {
    if (core < ncores_) {
        Core& cr = cores_[core];
        CacheLevel& c = (kind == kFetch && split_) ? cr.i1 : cr.lv[0];
        // first_hit_free() is false for a core not yet active.
        if (c.first_hit_free() && first_way_hit(cr, c, c.set_keys(c.set_of(block)), kind, block)) return 0;
    }
    return access_slow(core, kind, block, bytes, pc);
}

inline __attribute__((always_inline)) u32 CoherentMachine::access_lru(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc) {
    if (core < ncores_) {
        Core& cr = cores_[core];
        CacheLevel& c = (kind == kFetch && split_) ? cr.i1 : cr.lv[0];
        if (c.first_hit_free()) {
            u64* keys = c.set_keys(c.set_of(block));
            if (first_way_hit(cr, c, keys, kind, block)) return 0;
            if (c.lru() && other_way_hit(cr, c, keys, kind, block)) return 0;
            return access_demand(core, kind, block, bytes, pc);
        }
    }
    return access_slow(core, kind, block, bytes, pc);
}

}  // namespace ompsim

#endif
