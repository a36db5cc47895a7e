#include "Tlb.h"

namespace ompsim {

void Tlb::clear() {
    for (int k = 0; k < kMaxTlbLevels; ++k) {
        lv_[k].clear();
        stats_[k] = TlbStats{0, 0};
    }
    levels_ = 0;
    page_bits_ = 12;
}

bool Tlb::init(const TlbConfig& cfg, const Allocator& a) {
    clear();
    int pb = log2_exact(cfg.page_size);
    page_bits_ = pb < 0 ? 12u : unsigned(pb);
    for (int k = 0; k < cfg.levels && k < kMaxTlbLevels; ++k) {
        // A translation cache is a cache of page numbers: `entries` lines
        // of one (notional) byte each.
        LevelConfig lc{};
        lc.size = cfg.level[k].entries;
        lc.assoc = cfg.level[k].assoc;
        lc.line = 1;
        lc.replacement = Replacement::LRU;
        lc.write = WritePolicy::WriteBack;
        lc.inclusion = Inclusion::NonInclusive;
        if (!lv_[k].init(lc, 1, a)) {
            destroy();
            return false;
        }
        levels_ = k + 1;
    }
    return true;
}

void Tlb::destroy() {
    for (int k = 0; k < kMaxTlbLevels; ++k) lv_[k].destroy();
    clear();
}

void Tlb::reset_stats() {
    for (int k = 0; k < kMaxTlbLevels; ++k) stats_[k] = TlbStats{0, 0};
}

u32 Tlb::lookup_slow(u64 page) {
    u32 depth = u32(levels_);
    for (int k = 0; k < levels_; ++k) {
        CacheLevel& l = lv_[k];
        if (k > 0) stats_[k].refs++;
        u64 s = l.set_of(page);
        int p = l.find(s, page);
        if (p >= 0) {
            l.touch(s, p);
            depth = u32(k);
            break;
        }
        stats_[k].misses++;
    }
    // Fill the levels that missed.
    for (u32 k = 0; k < depth; ++k) {
        CacheLevel& l = lv_[k];
        u64 victim;
        bool dirty;
        l.insert(l.set_of(page), page, false, &victim, &dirty);
    }
    return depth;
}

}  // namespace ompsim
