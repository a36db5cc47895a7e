// The hardware prefetchers of one cache level (docs/cache-model.md,
// "Prefetchers"). CoherentMachine owns one per private level per core and
// one per shared level, trains it with the level's demand events and issues
// the blocks it proposes.
//
// Training events are the level's demand misses and its demand hits on
// lines a prefetch brought in that had not been used yet (gem5's default,
// "prefetch on miss and on prefetch hit"): with prefetched lines marked in
// the tag store, the L1 hit path needs no test at all. Proposals never
// leave the 4 KiB page of the triggering block, because hardware
// prefetchers work on physical addresses and the next virtual page may map
// anywhere.
//
// Three kinds, any combination (PrefetchConfig::kinds):
//  - next-line (tagged, Smith 1982): blocks b+1 .. b+degree;
//  - stride (Chen and Baer's reference prediction table): a direct-mapped
//    table indexed by the PC of the access holds the PC, the last block and
//    the last stride (in lines); when a new stride equals the stored one
//    (confirmed once), b + stride .. b + degree x stride;
//  - stream: `stream_entries` pages, LRU; a page's first event allocates
//    it; an event moving in the same direction as the previous one (or the
//    second event of the page, which sets the direction) proposes
//    b + d .. b + degree x d, d = +1 or -1.
//
// Freestanding like the rest of cachesim/: no libc, allocation only in
// init() through the Allocator.
#ifndef OMPSIM_CACHESIM_PREFETCHER_H
#define OMPSIM_CACHESIM_PREFETCHER_H

#include "CacheConfig.h"

namespace ompsim {

// Most blocks one training event proposes: degree (<= 64) per kind.
constexpr u32 kMaxPrefetchProposals = 3 * 64;

class Prefetcher {
public:
    // No constructor (static storage in the tool): clear() or init() first.
    void clear();
    // Tables for `cfg` (kinds 0: an inactive prefetcher, no memory).
    // line_bits: log2 of the line size (<= 12). False if out of memory.
    bool init(const PrefetchConfig& cfg, unsigned line_bits, const Allocator& a);
    void destroy();

    bool active() const { return kinds_ != 0; }

    // One training event: a demand miss (prefetch_hit false) or the first
    // demand use of a prefetched line (true) of `block` by the instruction
    // at `pc`. Writes the proposed blocks (in the triggering block's page,
    // without duplicates, in proposal order) to out and returns how many.
    u32 train(u64 pc, u64 block, u64 out[kMaxPrefetchProposals]);

private:
    struct StrideEntry {
        u64 pc;       // ~0 = empty
        u64 last;     // block
        int64_t stride;  // of the last two events; 0 before the second
    };
    struct StreamEntry {
        u64 page;     // ~0 = empty
        u64 last;
        u64 stamp;    // LRU
        int dir;      // 0 unknown, +1, -1
    };

    void propose(u64 block, int64_t step, u64* out, u32& n) const;
    void train_stride(u64 pc, u64 block, u64* out, u32& n);
    void train_stream(u64 block, u64* out, u32& n);

    StrideEntry* stride_;
    StreamEntry* stream_;
    u64 clock_;
    u32 stride_entries_;
    u32 stream_entries_;
    u32 degree_;
    unsigned page_shift_;  // log2(lines per 4 KiB page)
    u8 kinds_;
    Allocator alloc_;
};

}  // namespace ompsim

#endif
