// An independent, deliberately naive model of the multi-core machine
// described in docs/cache-model.md ("Multi-core machine and coherence"),
// the oracle of the differential tests in CoherentMachineTest.cpp.
//
// It shares nothing with cachesim/ but the configuration structs, LevelStats
// and the flag values; the levels are reference::Level (ReferenceHierarchy.h,
// itself independent of cachesim/). Nothing is cached or indexed: who holds a
// line is found by looking into every core's private levels, the MESI state
// of a core is a std::map from block to 'M'/'E'/'S' that is swept after every
// access, loss records are a std::map keyed by (core, block). Coherence
// actions are done at the start of the access, literally as the
// specification orders them.
#ifndef OMPSIM_TESTS_REFERENCECOHERENT_H
#define OMPSIM_TESTS_REFERENCECOHERENT_H

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "CacheConfig.h"
#include "LevelStats.h"
#include "ReferenceHierarchy.h"

namespace reference {

struct CoherenceCounters {
    uint64_t coherence_misses = 0, false_sharing_misses = 0, invalidations_received = 0,
             invalidations_sent = 0, c2c_in = 0, c2c_out = 0, upgrades = 0;
};

// The flag bits of CoherentMachine::access (docs/cache-model.md).
constexpr uint32_t kRefCoherenceMiss = 1u << 8, kRefFalseSharing = 1u << 9, kRefCacheToCache = 1u << 10,
                   kRefUpgrade = 1u << 11, kRefInvalidatedOthers = 1u << 12;

class Coherent : public LevelChain<Coherent> {
    friend class LevelChain<Coherent>;

public:
    Coherent(const HierarchyConfig& c, uint32_t ncores) : cfg(c) {
        P = c.private_levels ? int(c.private_levels) : (c.levels >= 2 ? c.levels - 1 : 1);
        L = c.levels;
        const uint64_t golden = 0x9E3779B97F4A7C15ull;
        for (int k = P; k < L; ++k) shared.emplace_back(c.level[k], c.random_seed + uint64_t(k + 1) * golden);
        cores.resize(ncores);
        activate(0);
    }

    uint32_t access(uint32_t core, AccessKind kind, uint64_t block, uint64_t bytes) {
        if (core >= cores.size()) return uint32_t(L);
        if (!cores[core].active) activate(core);
        cur = core;
        flags = 0;
        c2c = false;
        pending = false;
        others_hold = false;
        char prev = 'I';
        if (multi) prev = coherence_first(kind, block, bytes);
        unsigned depth;
        if (kind == kWrite) {
            depth = write(0, block);
        } else {
            bool dirty = false;
            depth = fetch(0, kind == kFetch && cfg.split_l1, block, kind, dirty);
        }
        if (multi) {
            bool dirty = false;
            if (present(core, block, &dirty)) {
                int others = 0;
                for (uint32_t o = 0; o < cores.size(); ++o)
                    if (o != core && present(o, block, nullptr)) ++others;
                char st;
                if (kind == kWrite)
                    st = 'M';
                else if (prev == 'I')
                    st = others ? 'S' : (dirty ? 'M' : 'E');
                else
                    st = (prev == 'E' && dirty) ? 'M' : prev;
                cores[core].st[block] = st;
            }
            sweep();
        }
        return depth | flags;
    }

    int levels() const { return L; }
    int private_levels() const { return P; }
    uint32_t cores_used() const { return used; }
    uint64_t memory_reads() const { return mem_reads; }
    uint64_t memory_writes() const { return mem_writes; }

    const LevelStats& stats(uint32_t core, int k, bool ic) const {
        static const LevelStats zero{};
        if (k >= P) return shared.at(size_t(k - P)).stats;
        if (!cores.at(core).active) return zero;
        return level_of(core, k, ic).stats;
    }
    const CoherenceCounters& coherence(uint32_t core) const { return cores.at(core).cc; }
    bool contains(uint32_t core, int k, bool ic, uint64_t block, bool* dirty) {
        if (k >= P) return shared.at(size_t(k - P)).present(block, dirty);
        if (!cores.at(core).active) return false;
        return level_of(core, k, ic).present(block, dirty);
    }
    char state(uint32_t core, uint64_t block) {
        if (!cores.at(core).active) return 'I';
        bool dirty = false;
        if (!present(core, block, &dirty)) return 'I';
        if (!multi) return dirty ? 'M' : 'E';
        return cores[core].st.at(block);
    }
    bool loss_record(uint32_t core, uint64_t block, uint64_t* mask) const {
        auto it = lost.find({core, block});
        if (it == lost.end()) return false;
        *mask = it->second;
        return true;
    }

private:
    struct Core {
        bool active = false;
        std::vector<Level> priv;  // levels 0..P-1 (level 0 = D1 or unified L1)
        std::vector<Level> i1;    // I1 when split
        std::map<uint64_t, char> st;
        CoherenceCounters cc;
    };

    HierarchyConfig cfg;
    int P = 1, L = 1;
    std::vector<Core> cores;
    std::vector<Level> shared;  // levels P..L-1
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> lost;
    bool multi = false;
    uint32_t used = 0;
    uint64_t mem_reads = 0, mem_writes = 0;

    // The access in progress.
    uint32_t cur = 0;
    uint32_t flags = 0;
    bool c2c = false;          // the crossing fetch is served by `supplier`
    uint32_t supplier = 0;
    bool pending = false;      // an invalidated owner's dirty data
    uint32_t pending_owner = 0;
    bool others_hold = false;

    void activate(uint32_t core) {
        const uint64_t golden = 0x9E3779B97F4A7C15ull, salt = 0xBF58476D1CE4E5B9ull;
        Core& c = cores[core];
        for (int k = 0; k < P; ++k) {
            LevelConfig lc = cfg.level[k];
            if (k == 0) lc.inclusion = Inclusion::NonInclusive;
            c.priv.emplace_back(lc, cfg.random_seed + uint64_t(k + 1) * golden + core * salt);
        }
        if (cfg.split_l1) {
            LevelConfig lc = cfg.i1;
            lc.inclusion = Inclusion::NonInclusive;
            c.i1.emplace_back(lc, cfg.random_seed + 0xD1B54A32D192ED03ull + core * salt);
        }
        c.active = true;
        used = std::max(used, core + 1);
        if (core != 0 && !multi) {
            // Core 0's lines: Modified if a copy is dirty, else Exclusive.
            multi = true;
            for (const Level* l : private_levels_of(0))
                for (const Line& line : l->lines()) {
                    char& s = cores[0].st[line.block];
                    s = (line.dirty || s == 'M') ? 'M' : 'E';
                }
        }
    }

    std::vector<const Level*> private_levels_of(uint32_t core) const {
        std::vector<const Level*> v;
        for (const Level& l : cores[core].i1) v.push_back(&l);
        for (const Level& l : cores[core].priv) v.push_back(&l);
        return v;
    }
    std::vector<Level*> private_levels_of(uint32_t core) {
        std::vector<Level*> v;
        for (Level& l : cores[core].i1) v.push_back(&l);
        for (Level& l : cores[core].priv) v.push_back(&l);
        return v;
    }

    bool present(uint32_t core, uint64_t block, bool* dirty) {
        if (!cores[core].active) return false;
        bool found = false;
        for (Level* l : private_levels_of(core)) {
            bool d = false;
            if (l->present(block, &d)) {
                found = true;
                if (dirty && d) *dirty = true;
            }
        }
        return found;
    }

    const Level& level_of(uint32_t core, int k, bool ic) const {
        if (k == 0 && ic && cfg.split_l1) return cores[core].i1.at(0);
        return cores[core].priv.at(size_t(k));
    }
    Level& level_of(uint32_t core, int k, bool ic) {
        if (k == 0 && ic && cfg.split_l1) return cores[core].i1.at(0);
        return cores[core].priv.at(size_t(k));
    }
    Level& level(int k, bool ic) {
        if (k >= P) return shared.at(size_t(k - P));
        if (k == 0 && ic && cfg.split_l1) return cores[cur].i1.at(0);
        return cores[cur].priv.at(size_t(k));
    }
    bool is_last(int k) const { return k == L - 1; }
    CoherenceCounters& counters(uint32_t core) { return cores[core].cc; }

    // Forgets the states of lines a core no longer holds.
    // Drops the states of lines no longer held. With write-back private
    // levels, Modified means a dirty copy: a Modified line none of whose
    // copies is dirty any more (its dirty data was written back from the
    // last private level while an I1 copy stayed) is Exclusive.
    void sweep() {
        bool write_back = true;
        for (int k = 0; k < P; ++k) write_back = write_back && cfg.level[k].write == WritePolicy::WriteBack;
        for (uint32_t c = 0; c < cores.size(); ++c) {
            auto& m = cores[c].st;
            for (auto it = m.begin(); it != m.end();) {
                bool dirty = false;
                if (!present(c, it->first, &dirty)) {
                    it = m.erase(it);
                    continue;
                }
                if (write_back && it->second == 'M' && !dirty) it->second = 'E';
                ++it;
            }
        }
    }

    // Step 1 of the specification; returns the core's state before the access.
    char coherence_first(AccessKind kind, uint64_t block, uint64_t bytes) {
        CoherenceCounters& me = counters(cur);
        auto rec = lost.find({cur, block});
        if (rec != lost.end()) {
            flags |= kRefCoherenceMiss;
            me.coherence_misses++;
            if ((rec->second & bytes) == 0) {
                flags |= kRefFalseSharing;
                me.false_sharing_misses++;
            }
            lost.erase(rec);
        }
        char prev = present(cur, block, nullptr) ? cores[cur].st.at(block) : 'I';
        std::vector<uint32_t> holders;
        for (uint32_t o = 0; o < cores.size(); ++o)
            if (o != cur && present(o, block, nullptr)) holders.push_back(o);
        if (kind == kWrite) {
            if (prev == 'S') {
                flags |= kRefUpgrade;
                me.upgrades++;
            }
            for (uint32_t o : holders) {
                bool dirty = false;
                for (Level* l : private_levels_of(o))
                    if (auto gone = l->remove(block)) dirty = dirty || gone->dirty;
                counters(o).invalidations_received++;
                cores[o].st.erase(block);
                lost[{o, block}] = 0;
                if (dirty) {
                    pending = true;
                    pending_owner = o;
                    c2c = true;
                    supplier = o;
                }
            }
            if (!holders.empty()) {
                flags |= kRefInvalidatedOthers;
                me.invalidations_sent += holders.size();
            }
            for (auto& r : lost)
                if (r.first.second == block) r.second |= bytes;
        } else if (prev == 'I' && !holders.empty()) {
            uint32_t first = holders[0];
            bool owner = holders.size() == 1 && cores[first].st.at(block) != 'S';
            for (uint32_t o : holders) cores[o].st[block] = 'S';
            if (owner) {
                bool dirty = false;
                for (Level* l : private_levels_of(first))
                    if (Line* line = l->find(block))
                        if (line->dirty) {
                            line->dirty = false;
                            dirty = true;
                        }
                if (dirty) {
                    c2c = true;
                    supplier = first;
                    flush(first, block);
                }
            }
        }
        others_hold = false;
        for (uint32_t o = 0; o < cores.size(); ++o)
            if (o != cur && present(o, block, nullptr)) others_hold = true;
        return prev;
    }

    // An owner's dirty private data written back to the first shared level.
    void flush(uint32_t owner, uint64_t block) {
        cores[owner].priv.at(size_t(P - 1)).stats.writebacks += 1;
        if (P == L)
            mem_writes += 1;
        else
            writeback(P, block);
    }

    // The miss of level k fetched from below (the crossing at k = P-1).
    unsigned fetch_from_below(int k, uint64_t block, AccessKind kind, bool& dirty) {
        if (multi && k == P - 1 && c2c) {
            c2c = false;
            pending = false;
            flags |= kRefCacheToCache;
            counters(cur).c2c_in++;
            counters(supplier).c2c_out++;
            dirty = false;
            return unsigned(P);
        }
        if (is_last(k)) {
            mem_reads += 1;
            dirty = false;
            return unsigned(L);
        }
        return fetch(k + 1, false, block, kind, dirty);
    }

    unsigned fetch(int k, bool ic, uint64_t block, AccessKind kind, bool& dirty_up) {
        Level& Lv = level(k, ic);
        Lv.stats.refs[kind] += 1;
        if (Lv.find(block)) {
            Lv.touch(block);
            dirty_up = false;
            if (Lv.exclusive()) {
                bool keep = multi && k >= P && others_hold;
                if (!keep) dirty_up = Lv.remove(block)->dirty;
            }
            return unsigned(k);
        }
        Lv.stats.misses[kind] += 1;
        bool came_dirty = false;
        unsigned depth = fetch_from_below(k, block, kind, came_dirty);
        if (Lv.exclusive()) {
            dirty_up = came_dirty;
        } else {
            dirty_up = false;
            put(k, ic, block, came_dirty);
        }
        return depth;
    }

    unsigned write(int k, uint64_t block) {
        Level& Lv = level(k, false);
        Lv.stats.refs[kWrite] += 1;
        Line* l = Lv.find(block);
        if (Lv.exclusive()) {
            if (l) {
                l->dirty = true;
                Lv.touch(block);
                return unsigned(k);
            }
            Lv.stats.misses[kWrite] += 1;
            return write_below(k, block);
        }
        if (l) {
            Lv.touch(block);
            if (Lv.write_back())
                Lv.find(block)->dirty = true;
            else
                write_below(k, block);
            return unsigned(k);
        }
        Lv.stats.misses[kWrite] += 1;
        if (!Lv.write_back()) return write_below(k, block);
        bool ignored = false;
        unsigned depth = fetch_from_below(k, block, kWrite, ignored);
        put(k, false, block, true);
        return depth;
    }

    unsigned write_below(int k, uint64_t block) {
        if (multi && k == P - 1 && pending) {
            pending = false;
            c2c = false;
            flush(pending_owner, block);
        }
        if (is_last(k)) {
            mem_writes += 1;
            return unsigned(L);
        }
        return write(k + 1, block);
    }

    void evict(int k, bool ic, Line victim) {
        Level& Lv = level(k, ic);
        Lv.stats.evictions += 1;
        if (k >= 1 && Lv.inclusive()) {
            std::vector<Level*> above;
            if (k < P) {
                for (int j = 0; j < k; ++j) above.push_back(&cores[cur].priv[size_t(j)]);
                for (Level& l : cores[cur].i1) above.push_back(&l);
            } else {
                for (uint32_t c = 0; c < cores.size(); ++c)
                    for (Level* l : private_levels_of(c)) above.push_back(l);
                for (int j = P; j < k; ++j) above.push_back(&shared[size_t(j - P)]);
            }
            for (Level* A : above)
                if (auto gone = A->remove(victim.block)) {
                    A->stats.back_invalidations += 1;
                    if (gone->dirty) victim.dirty = true;
                }
        }
        if (!is_last(k) && level(k + 1, false).exclusive()) {
            victim_insert(k + 1, victim.block, victim.dirty);
            return;
        }
        if (victim.dirty) {
            Lv.stats.writebacks += 1;
            if (is_last(k))
                mem_writes += 1;
            else
                writeback(k + 1, victim.block);
        }
    }
};

}  // namespace reference

#endif
