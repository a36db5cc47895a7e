// The multi-level protocol of Hierarchy (docs/cache-model.md is the
// specification; tests/unit/ReferenceHierarchy.h is an independent model of
// it used by the differential tests).
#include "Hierarchy.h"

namespace ompsim {

namespace {

constexpr u64 kGolden = 0x9E3779B97F4A7C15ull;
constexpr u64 kI1SeedSalt = 0xD1B54A32D192ED03ull;

inline u64 nonzero(u64 s) { return s ? s : 1; }

}  // namespace

bool Hierarchy::init(const HierarchyConfig& cfg, const Allocator& a, ErrorText& err) {
    cfg_ = cfg;
    levels_ = cfg.levels;
    split_ = cfg.split_l1;
    int lb = log2_exact(cfg.level[0].line);
    line_bits_ = lb < 0 ? 0 : unsigned(lb);
    mem_reads_ = 0;
    mem_writes_ = 0;
    i1_.clear();
    for (int k = 0; k < kMaxLevels; ++k) lv_[k].clear();

    bool ok = true;
    for (int k = 0; ok && k < levels_; ++k) {
        LevelConfig lc = cfg.level[k];
        if (k == 0) lc.inclusion = Inclusion::NonInclusive;  // level 1 has nothing above it
        ok = lv_[k].init(lc, nonzero(cfg.random_seed + u64(k + 1) * kGolden), a);
        if (!ok) {
            error_clear(err);
            error_append(err, "cache simulator: out of memory for the tags of level ");
            error_append_u64(err, u64(k + 1));
        }
    }
    if (ok && split_) {
        LevelConfig lc = cfg.i1;
        lc.inclusion = Inclusion::NonInclusive;
        ok = i1_.init(lc, nonzero(cfg.random_seed + kI1SeedSalt), a);
        if (!ok) {
            error_clear(err);
            error_append(err, "cache simulator: out of memory for the tags of I1");
        }
    }
    if (!ok) destroy();
    return ok;
}

void Hierarchy::destroy() {
    i1_.destroy();
    for (int k = 0; k < kMaxLevels; ++k) lv_[k].destroy();
}

CacheLevel* Hierarchy::level_for(int index, bool icache_side) {
    return (index == 0 && icache_side && split_) ? &i1_ : &lv_[index];
}

const CacheLevel* Hierarchy::level_for(int index, bool icache_side) const {
    return (index == 0 && icache_side && split_) ? &i1_ : &lv_[index];
}

const LevelStats& Hierarchy::stats(int index, bool icache_side) const {
    return level_for(index, icache_side)->stats;
}

bool Hierarchy::contains(int index, bool icache_side, u64 block, bool* dirty) const {
    if (index < 0 || index >= levels_) return false;
    return level_for(index, icache_side)->contains(block, dirty);
}

unsigned Hierarchy::access_slow(AccessKind kind, u64 block) {
    bool icache_side = kind == kFetch && split_;
    CacheLevel& c = icache_side ? i1_ : lv_[0];
    // Level-1 hits first (what fetch()/write() would do, minus the protocol).
    if (kind != kWrite || c.write_back()) {
        u64 s = c.set_of(block);
        int p = c.find(s, block);
        if (p >= 0) {
            c.stats.refs[kind]++;
            p = c.touch(s, p);
            if (kind == kWrite) c.mark_dirty(s, p);
            return 0;
        }
    }
    if (kind == kWrite) return write(0, block);
    bool dirty_up = false;
    return fetch(0, block, kind, icache_side, &dirty_up);
}

// A demand fetch (kFetch, kRead, or the fill of a write-allocate miss above:
// kWrite) of `block` into level k. *dirty_up tells the requester that the
// line comes from an exclusive level with its dirty bit set.
unsigned Hierarchy::fetch(int k, u64 block, AccessKind kind, bool icache_side, bool* dirty_up) {
    CacheLevel& c = *level_for(k, icache_side);
    c.stats.refs[kind]++;
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) {
        p = c.touch(s, p);
        *dirty_up = c.exclusive() ? c.remove_at(s, p) : false;
        return unsigned(k);
    }
    c.stats.misses[kind]++;
    bool below_dirty = false;
    unsigned depth;
    if (k + 1 < levels_) {
        depth = fetch(k + 1, block, kind, false, &below_dirty);
    } else {
        ++mem_reads_;
        depth = unsigned(levels_);
    }
    if (c.exclusive()) {
        *dirty_up = below_dirty;
        return depth;
    }
    *dirty_up = false;
    allocate(k, icache_side, block, below_dirty);
    return depth;
}

// A demand write of `block` at level k (level 0 = D1 / unified L1).
unsigned Hierarchy::write(int k, u64 block) {
    CacheLevel& c = lv_[k];
    c.stats.refs[kWrite]++;
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    bool last = k + 1 >= levels_;
    if (p >= 0) {
        p = c.touch(s, p);
        if (c.write_back()) {
            c.mark_dirty(s, p);
        } else if (last) {
            ++mem_writes_;
        } else {
            write(k + 1, block);
        }
        return unsigned(k);
    }
    c.stats.misses[kWrite]++;
    if (c.write_back() && !c.exclusive()) {
        // Write-allocate: fetch the line, install it dirty.
        unsigned depth;
        if (last) {
            ++mem_reads_;
            depth = unsigned(levels_);
        } else {
            bool below_dirty = false;
            depth = fetch(k + 1, block, kWrite, false, &below_dirty);
        }
        allocate(k, false, block, true);
        return depth;
    }
    // Write-through no-allocate, or an exclusive level (never filled by
    // demand): pass the write on.
    if (last) {
        ++mem_writes_;
        return unsigned(levels_);
    }
    return write(k + 1, block);
}

// A dirty line written back from the level above into level k.
void Hierarchy::writeback(int k, u64 block) {
    CacheLevel& c = lv_[k];
    c.stats.refs[kWriteback]++;
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) {
        if (c.write_back()) {
            c.mark_dirty(s, p);  // no replacement update
            return;
        }
    } else {
        c.stats.misses[kWriteback]++;
        if (c.write_back() && !c.exclusive()) {
            allocate(k, false, block, true);
            return;
        }
    }
    // Write-through level (hit or miss), or a miss in an exclusive level
    // (reachable only through a write-through level above): pass it on.
    if (k + 1 < levels_)
        writeback(k + 1, block);
    else
        ++mem_writes_;
}

// A line evicted from level k-1 into exclusive level k.
void Hierarchy::victim_insert(int k, u64 block, bool dirty) {
    CacheLevel& c = lv_[k];
    c.stats.victims_in++;
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) {
        p = c.touch(s, p);
        if (dirty) c.mark_dirty(s, p);
        return;
    }
    allocate(k, false, block, dirty);
}

// Installs `block` (not present) in level k; the displaced line, if any, is
// handled after the new line is in place.
void Hierarchy::allocate(int k, bool icache_side, u64 block, bool dirty) {
    CacheLevel& c = *level_for(k, icache_side);
    u64 victim;
    bool victim_dirty;
    if (c.insert(c.set_of(block), block, dirty, &victim, &victim_dirty))
        evict(k, icache_side, victim, victim_dirty);
}

void Hierarchy::evict(int k, bool icache_side, u64 victim, bool dirty) {
    CacheLevel& c = *level_for(k, icache_side);
    c.stats.evictions++;
    if (c.inclusive()) {
        // Back-invalidate every copy above; a dirty copy makes the victim dirty.
        for (int j = 0; j < k; ++j) {
            bool d = false;
            if (j == 0 && split_ && i1_.invalidate(victim, &d)) {
                i1_.stats.back_invalidations++;
                dirty |= d;
            }
            d = false;
            if (lv_[j].invalidate(victim, &d)) {
                lv_[j].stats.back_invalidations++;
                dirty |= d;
            }
        }
    }
    if (k + 1 < levels_ && lv_[k + 1].exclusive()) {
        victim_insert(k + 1, victim, dirty);
    } else if (dirty) {
        c.stats.writebacks++;
        if (k + 1 < levels_)
            writeback(k + 1, victim);
        else
            ++mem_writes_;
    }
}

void Hierarchy::reset_stats() {
    LevelStats zero = {};
    i1_.stats = zero;
    for (int k = 0; k < kMaxLevels; ++k) lv_[k].stats = zero;
    mem_reads_ = 0;
    mem_writes_ = 0;
}

}  // namespace ompsim
