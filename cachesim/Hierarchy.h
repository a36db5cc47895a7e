// A single-core cache hierarchy of 1 to 4 levels with configurable
// replacement, write policy and inclusion (see CacheConfig.h and
// docs/cache-model.md for the exact semantics).
//
// Hot path: the tool calls access() once per cache line touched by every
// instruction fetch, load and store. An L1 hit must cost a handful of
// instructions: the MRU way is checked first, the rest is out of line.
#ifndef OMPSIM_CACHESIM_HIERARCHY_H
#define OMPSIM_CACHESIM_HIERARCHY_H

#include "CacheConfig.h"
#include "CacheLevel.h"
#include "LevelStats.h"

namespace ompsim {

class Hierarchy {
public:
    // Builds the levels from a configuration that validate() accepted.
    // Returns false (with err set) if memory could not be had. Must be called
    // once before use; the
    // object has no constructor so that it can live in static storage inside
    // the tool (no static initialisers run there).
    bool init(const HierarchyConfig& cfg, const Allocator& a, ErrorText& err);
    void destroy();

    // One demand reference of `kind` (kFetch, kRead or kWrite) to the line
    // with number `block` (= address >> line_bits()). Returns the depth that
    // served it: 0 when level 1 hit, k when level k+1 served it, levels() when
    // memory did. The access missed in every level above the returned depth.
    unsigned access(AccessKind kind, u64 block);

    unsigned line_bits() const { return line_bits_; }
    int levels() const { return levels_; }

    // Counters of level `index` (0-based); icache_side selects I1 at index 0
    // when level 1 is split.
    const LevelStats& stats(int index, bool icache_side) const;
    // Lines read from memory (fills) and written to memory (write-backs and
    // write-throughs that left the last level).
    u64 memory_reads() const { return mem_reads_; }
    // Zeroes every counter; the cache contents stay (OMPSIM_ZERO_COUNTERS).
    void reset_stats();
    u64 memory_writes() const { return mem_writes_; }

    // For tests: whether `block` is present in level `index` (and its dirty bit).
    bool contains(int index, bool icache_side, u64 block, bool* dirty) const;

private:
    // Level `index` (I1 at index 0 when icache_side and level 1 is split).
    CacheLevel* level_for(int index, bool icache_side);
    const CacheLevel* level_for(int index, bool icache_side) const;
    // Everything but a level-1 hit that needs no replacement update.
    unsigned access_slow(AccessKind kind, u64 block);
    unsigned fetch(int k, u64 block, AccessKind kind, bool icache_side, bool* dirty_up);
    unsigned write(int k, u64 block);
    void writeback(int k, u64 block);
    void victim_insert(int k, u64 block, bool dirty);
    void allocate(int k, bool icache_side, u64 block, bool dirty);
    void evict(int k, bool icache_side, u64 victim, bool dirty);

    CacheLevel i1_;
    CacheLevel lv_[kMaxLevels];
    HierarchyConfig cfg_;
    int levels_;
    unsigned line_bits_;
    bool split_;
    u64 mem_reads_;
    u64 mem_writes_;
};

// The hot path: a hit on the first line of a level-1 set (the MRU line for
// LRU; for FIFO and Random any hit) needs no replacement update, so it is a
// set computation, one compare and a counter increment (plus the dirty bit
// for a write-back write). Everything else (other positions, PLRU, write-
// through writes, misses) goes out of line.
inline unsigned Hierarchy::access(AccessKind kind, u64 block) {
    CacheLevel& c = (kind == kFetch && split_) ? i1_ : lv_[0];
    if (c.first_hit_free()) {
        u64* keys = c.set_keys(c.set_of(block));
        u64 k0 = keys[0];
        if (repl::key_matches(k0, block) && (kind != kWrite || c.write_back())) {
            if (kind == kWrite) keys[0] = k0 | 1;
            c.stats.refs[kind]++;
            return 0;
        }
    }
    return access_slow(kind, block);
}

}  // namespace ompsim

#endif
