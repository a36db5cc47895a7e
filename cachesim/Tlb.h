// The data TLBs of one core (docs/cache-model.md, "TLBs"): one or two
// levels of LRU translation caches over page numbers, filled on a miss at
// every level the lookup passed (non-inclusive, like the cache levels).
// One page size for the run: the tool cannot see which pages the kernel
// backs with huge pages, so --tlb-page=2M models a program that runs on
// transparent huge pages.
//
// The tag stores are CacheLevels whose "line" is a page. Freestanding, no
// allocation after init().
#ifndef OMPSIM_CACHESIM_TLB_H
#define OMPSIM_CACHESIM_TLB_H

#include "CacheLevel.h"

namespace ompsim {

struct TlbStats {
    u64 refs;    // lookups reaching the level
    u64 misses;  // of which missed
};

class Tlb {
public:
    void clear();
    // cfg.levels >= 1 (validated). False if out of memory.
    bool init(const TlbConfig& cfg, const Allocator& a);
    void destroy();

    int levels() const { return levels_; }
    unsigned page_bits() const { return page_bits_; }

    // The translation of the page holding `addr`: 0 = DTLB1 hit, 1 = DTLB2
    // hit, levels() = page walk. The DTLB1 hit on the most recently used
    // entry of its set is inline.
    u32 lookup(u64 addr) {
        u64 page = addr >> page_bits_;
        CacheLevel& l = lv_[0];
        stats_[0].refs++;
        if (repl::key_matches(l.set_keys(l.set_of(page))[0], page)) return 0;
        return lookup_slow(page);
    }

    const TlbStats& stats(int level) const { return stats_[level]; }
    void reset_stats();

private:
    u32 lookup_slow(u64 page);

    CacheLevel lv_[kMaxTlbLevels];
    TlbStats stats_[kMaxTlbLevels];
    int levels_;
    unsigned page_bits_;
};

}  // namespace ompsim

#endif
