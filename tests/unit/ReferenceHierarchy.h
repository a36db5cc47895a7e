// An independent, deliberately naive model of the cache hierarchy described
// in docs/cache-model.md, used as the oracle of the differential tests in
// HierarchyTest.cpp. It shares nothing with cachesim/ but the configuration
// structs/enums (CacheConfig.h) and LevelStats; it is written to be obviously
// right, not fast: sets are std::list / std::vector of lines, set indices are
// always computed with %, the PLRU tree is walked by halving way ranges.
#ifndef OMPSIM_TESTS_REFERENCEHIERARCHY_H
#define OMPSIM_TESTS_REFERENCEHIERARCHY_H

#include <cstdint>
#include <list>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "CacheConfig.h"
#include "LevelStats.h"

namespace reference {

using ompsim::AccessKind;
using ompsim::HierarchyConfig;
using ompsim::Inclusion;
using ompsim::LevelConfig;
using ompsim::LevelStats;
using ompsim::Replacement;
using ompsim::WritePolicy;
using ompsim::kFetch;
using ompsim::kRead;
using ompsim::kWrite;
using ompsim::kWriteback;

struct Line {
    uint64_t block;
    bool dirty;
};

// One cache level.
class Level {
public:
    Level(const LevelConfig& c, uint64_t seed) : cfg(c) {
        assoc = c.assoc;
        nsets = c.size / (uint64_t(c.line) * c.assoc);
        if (nsets == 0 || assoc == 0) throw std::invalid_argument("empty level");
        rng = seed == 0 ? 1 : seed;
        if (ordered()) {
            lists.resize(nsets);
        } else {
            ways.assign(nsets, std::vector<std::optional<Line>>(assoc));
            tree.assign(nsets, std::vector<int>(assoc, 0));  // node i at index i
        }
        stats = LevelStats{};
    }

    LevelConfig cfg;
    uint64_t nsets;
    uint32_t assoc;
    uint64_t rng;
    LevelStats stats;
    // LRU/FIFO: front = most recently used (LRU) / most recently filled (FIFO).
    std::vector<std::list<Line>> lists;
    // PLRU/Random: way-indexed.
    std::vector<std::vector<std::optional<Line>>> ways;
    std::vector<std::vector<int>> tree;

    bool ordered() const {
        return cfg.replacement == Replacement::LRU || cfg.replacement == Replacement::FIFO;
    }
    bool write_back() const { return cfg.write == WritePolicy::WriteBack; }
    bool exclusive() const { return cfg.inclusion == Inclusion::Exclusive; }
    bool inclusive() const { return cfg.inclusion == Inclusion::Inclusive; }
    uint64_t set_of(uint64_t block) const { return block % nsets; }

    // The line holding `block`, or nullptr.
    Line* find(uint64_t block) {
        uint64_t s = set_of(block);
        if (ordered()) {
            for (Line& l : lists[s])
                if (l.block == block) return &l;
        } else {
            for (auto& w : ways[s])
                if (w && w->block == block) return &*w;
        }
        return nullptr;
    }

    bool present(uint64_t block, bool* dirty) {
        Line* l = find(block);
        if (l && dirty) *dirty = l->dirty;
        return l != nullptr;
    }

    // PLRU: mark the path to `way` so that it points away from it.
    void plru_touch(uint64_t s, uint32_t way) {
        uint32_t lo = 0, hi = assoc, node = 1;
        while (hi - lo > 1) {
            uint32_t mid = (lo + hi) / 2;
            if (way < mid) {  // path goes left: point right
                tree[s][node] = 1;
                node = 2 * node;
                hi = mid;
            } else {          // path goes right: point left
                tree[s][node] = 0;
                node = 2 * node + 1;
                lo = mid;
            }
        }
    }

    uint32_t plru_pick(uint64_t s) const {
        uint32_t lo = 0, hi = assoc, node = 1;
        while (hi - lo > 1) {
            uint32_t mid = (lo + hi) / 2;
            if (tree[s][node] == 0) {
                node = 2 * node;
                hi = mid;
            } else {
                node = 2 * node + 1;
                lo = mid;
            }
        }
        return lo;
    }

    uint32_t random_pick() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return uint32_t(rng % assoc);
    }

    // Replacement update for a hit on `block` (present).
    void touch(uint64_t block) {
        uint64_t s = set_of(block);
        switch (cfg.replacement) {
        case Replacement::LRU: {
            auto& L = lists[s];
            for (auto it = L.begin(); it != L.end(); ++it) {
                if (it->block == block) {
                    Line copy = *it;
                    L.erase(it);
                    L.push_front(copy);
                    return;
                }
            }
            throw std::logic_error("touch of absent line");
        }
        case Replacement::FIFO:
            return;
        case Replacement::PLRU:
            for (uint32_t w = 0; w < assoc; ++w)
                if (ways[s][w] && ways[s][w]->block == block) {
                    plru_touch(s, w);
                    return;
                }
            throw std::logic_error("touch of absent line");
        case Replacement::Random:
            return;
        }
    }

    // Puts `block` in (it must be absent); returns the displaced line.
    std::optional<Line> fill(uint64_t block, bool dirty) {
        if (find(block)) throw std::logic_error("fill of present line");
        uint64_t s = set_of(block);
        Line nl{block, dirty};
        if (ordered()) {
            auto& L = lists[s];
            std::optional<Line> out;
            if (L.size() == assoc) {
                out = L.back();
                L.pop_back();
            }
            L.push_front(nl);
            return out;
        }
        auto& W = ways[s];
        std::optional<uint32_t> way;
        for (uint32_t w = 0; w < assoc; ++w)
            if (!W[w]) {
                way = w;
                break;
            }
        std::optional<Line> out;
        if (!way) {
            way = cfg.replacement == Replacement::PLRU ? plru_pick(s) : random_pick();
            out = W[*way];
        }
        W[*way] = nl;
        if (cfg.replacement == Replacement::PLRU) plru_touch(s, *way);
        return out;
    }

    // Takes `block` out if present; returns it.
    std::optional<Line> remove(uint64_t block) {
        uint64_t s = set_of(block);
        if (ordered()) {
            auto& L = lists[s];
            for (auto it = L.begin(); it != L.end(); ++it)
                if (it->block == block) {
                    Line l = *it;
                    L.erase(it);
                    return l;
                }
            return std::nullopt;
        }
        for (auto& w : ways[s])
            if (w && w->block == block) {
                Line l = *w;
                w.reset();
                return l;
            }
        return std::nullopt;
    }

    std::vector<Line> lines() const {
        std::vector<Line> out;
        for (auto& L : lists)
            for (auto& l : L) out.push_back(l);
        for (auto& W : ways)
            for (auto& w : W)
                if (w) out.push_back(*w);
        return out;
    }
};

// Write-backs, victims and fills along a chain of levels, the same in the
// single-core and in the coherent reference (ReferenceCoherent.h). Derived
// provides level(k, ic), is_last(k), evict(k, ic, victim) and mem_writes.
template <typename Derived>
class LevelChain {
protected:
    void writeback(int k, uint64_t block) {
        Level& L = self().level(k, false);
        L.stats.refs[kWriteback] += 1;
        Line* l = L.find(block);
        bool absorbs = L.write_back();
        if (l && absorbs) {
            l->dirty = true;
            return;
        }
        if (!l) {
            L.stats.misses[kWriteback] += 1;
            if (absorbs && !L.exclusive()) {
                put(k, false, block, true);
                return;
            }
        }
        if (self().is_last(k))
            self().mem_writes += 1;
        else
            writeback(k + 1, block);
    }

    void victim_insert(int k, uint64_t block, bool dirty) {
        Level& L = self().level(k, false);
        L.stats.victims_in += 1;
        if (Line* l = L.find(block)) {
            l->dirty = l->dirty || dirty;
            L.touch(block);
            return;
        }
        put(k, false, block, dirty);
    }

    // Fills a line at level k and deals with whatever it displaced.
    void put(int k, bool ic, uint64_t block, bool dirty) {
        std::optional<Line> victim = self().level(k, ic).fill(block, dirty);
        if (victim) self().evict(k, ic, *victim);
    }

private:
    Derived& self() { return static_cast<Derived&>(*this); }
};

class Hierarchy : public LevelChain<Hierarchy> {
    friend class LevelChain<Hierarchy>;

public:
    explicit Hierarchy(const HierarchyConfig& c) : cfg(c) {
        const uint64_t golden = 0x9E3779B97F4A7C15ull;
        for (int k = 0; k < c.levels; ++k) {
            LevelConfig lc = c.level[k];
            if (k == 0) lc.inclusion = Inclusion::NonInclusive;
            levels.emplace_back(lc, c.random_seed + uint64_t(k + 1) * golden);
        }
        if (c.split_l1) {
            LevelConfig lc = c.i1;
            lc.inclusion = Inclusion::NonInclusive;
            icache.emplace_back(lc, c.random_seed + 0xD1B54A32D192ED03ull);
        }
    }

    unsigned access(AccessKind kind, uint64_t block) {
        if (kind == kWrite) return write(0, block);
        bool dirty = false;
        return fetch(0, kind == kFetch && cfg.split_l1, block, kind, dirty);
    }

    int num_levels() const { return int(levels.size()); }
    uint64_t memory_reads() const { return mem_reads; }
    uint64_t memory_writes() const { return mem_writes; }
    const LevelStats& stats(int k, bool icache_side) const {
        return level(k, icache_side).stats;
    }
    bool contains(int k, bool icache_side, uint64_t block, bool* dirty) {
        return level(k, icache_side).present(block, dirty);
    }
    std::vector<Line> lines(int k, bool icache_side) const { return level(k, icache_side).lines(); }

private:
    HierarchyConfig cfg;
    std::vector<Level> levels;
    std::vector<Level> icache;  // empty unless split
    uint64_t mem_reads = 0;
    uint64_t mem_writes = 0;

    Level& level(int k, bool icache_side) {
        if (k == 0 && icache_side && cfg.split_l1) return icache[0];
        return levels.at(k);
    }
    const Level& level(int k, bool icache_side) const {
        if (k == 0 && icache_side && cfg.split_l1) return icache[0];
        return levels.at(k);
    }
    bool is_last(int k) const { return k == num_levels() - 1; }

    unsigned fetch(int k, bool ic, uint64_t block, AccessKind kind, bool& dirty_up) {
        Level& L = level(k, ic);
        L.stats.refs[kind] += 1;
        if (L.find(block)) {
            L.touch(block);
            dirty_up = false;
            if (L.exclusive()) dirty_up = L.remove(block)->dirty;
            return unsigned(k);
        }
        L.stats.misses[kind] += 1;
        bool came_dirty = false;
        unsigned depth;
        if (is_last(k)) {
            mem_reads += 1;
            depth = unsigned(num_levels());
        } else {
            depth = fetch(k + 1, false, block, kind, came_dirty);
        }
        if (L.exclusive()) {
            dirty_up = came_dirty;
        } else {
            dirty_up = false;
            put(k, ic, block, came_dirty);
        }
        return depth;
    }

    unsigned write(int k, uint64_t block) {
        Level& L = level(k, false);
        L.stats.refs[kWrite] += 1;
        Line* l = L.find(block);
        if (L.exclusive()) {
            if (l) {
                l->dirty = true;
                L.touch(block);
                return unsigned(k);
            }
            L.stats.misses[kWrite] += 1;
            return write_below(k, block);
        }
        if (l) {
            L.touch(block);
            if (L.write_back()) {
                L.find(block)->dirty = true;
            } else if (is_last(k)) {
                mem_writes += 1;
            } else {
                write(k + 1, block);
            }
            return unsigned(k);
        }
        L.stats.misses[kWrite] += 1;
        if (!L.write_back()) return write_below(k, block);
        unsigned depth;
        if (is_last(k)) {
            mem_reads += 1;
            depth = unsigned(num_levels());
        } else {
            bool ignored = false;
            depth = fetch(k + 1, false, block, kWrite, ignored);
        }
        put(k, false, block, true);
        return depth;
    }

    unsigned write_below(int k, uint64_t block) {
        if (is_last(k)) {
            mem_writes += 1;
            return unsigned(num_levels());
        }
        return write(k + 1, block);
    }

    void evict(int k, bool ic, Line victim) {
        Level& L = level(k, ic);
        L.stats.evictions += 1;
        if (k >= 1 && L.inclusive()) {
            for (int j = 0; j < k; ++j) {
                std::vector<Level*> above{&level(j, false)};
                if (j == 0 && cfg.split_l1) above.push_back(&level(0, true));
                for (Level* A : above) {
                    if (auto gone = A->remove(victim.block)) {
                        A->stats.back_invalidations += 1;
                        if (gone->dirty) victim.dirty = true;
                    }
                }
            }
        }
        if (!is_last(k) && level(k + 1, false).exclusive()) {
            victim_insert(k + 1, victim.block, victim.dirty);
            return;
        }
        if (victim.dirty) {
            L.stats.writebacks += 1;
            if (is_last(k))
                mem_writes += 1;
            else
                writeback(k + 1, victim.block);
        }
    }
};

}  // namespace reference

#endif
