// The miss classifier (cachesim/MissClassifier.h and its parts LineMap.h,
// LruShadow.h) against brute-force references on random streams, and the
// CoherentMachine's classification: hand-derived cases, the partition of
// every level's demand misses on random hierarchies, the level-1 and
// level-2 classes against a brute-force 3C model, and unchanged simulation
// results with classification on.
#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <set>
#include <unordered_map>
#include <vector>

#include "CoherentMachine.h"
#include "LineMap.h"
#include "LruShadow.h"
#include "MissClassifier.h"
#include "RandomHierarchies.h"

using namespace ompsim;
using namespace ompsim::test;

namespace {

// Brute force: a fully associative LRU cache as a list, most recent first.
struct ListLru {
    size_t cap;
    std::list<u64> order;
    bool reference(u64 b) {
        auto it = std::find(order.begin(), order.end(), b);
        bool hit = it != order.end();
        if (hit) order.erase(it);
        order.push_front(b);
        if (order.size() > cap) order.pop_back();
        return hit;
    }
};

// Brute force 3C (Hill): first reference, else the shadow decides.
struct Brute3C {
    std::set<u64> seen;
    ListLru lru;
    explicit Brute3C(size_t lines) : lru{lines, {}} {}
    MissClass reference(u64 b) {
        bool first = seen.insert(b).second;
        bool hit = lru.reference(b);
        return first ? kCompulsory : hit ? kConflict : kCapacity;
    }
};

// Blocks from a few clusters, some near 2^62, so that hashes collide and
// probe runs wrap around the table.
u64 random_block(Rng& r, u64 universe) {
    u64 x = r.below(universe);
    switch (x % 3) {
        case 0: return x;
        case 1: return (1ull << 62) + x * 1024;
        default: return x << 20;
    }
}

TEST(LineMap, MatchesStdMapOnRandomInserts) {
    LineMap m;
    ASSERT_TRUE(m.init(kHeap));
    std::unordered_map<u64, u64> ref;
    Rng r(7);
    for (int i = 0; i < 200000; ++i) {
        u64 b = random_block(r, 30000);
        bool inserted = false;
        u64* v = m.find_or_insert(b, u64(i), &inserted);
        ASSERT_NE(v, nullptr);
        auto it = ref.find(b);
        ASSERT_EQ(inserted, it == ref.end()) << "reference " << i;
        if (it == ref.end()) {
            ref[b] = u64(i);
        } else {
            ASSERT_EQ(*v, it->second);
            *v = it->second = u64(i) * 3;
        }
    }
    EXPECT_EQ(m.size(), ref.size());
    for (auto& kv : ref) ASSERT_EQ(*m.find(kv.first), kv.second);
    EXPECT_EQ(m.find(12345678901ull), nullptr);
    m.destroy();
}

TEST(LruShadow, MatchesListLruOnRandomStreams) {
    for (u64 cap : {1ull, 2ull, 3ull, 8ull, 57ull, 512ull}) {
        for (u64 universe : {cap / 2 + 1, cap + 1, 2 * cap + 3, 8 * cap + 5}) {
            LruShadow s;
            ASSERT_TRUE(s.init(cap, kHeap));
            ListLru ref{size_t(cap), {}};
            Rng r(cap * 1000 + universe);
            for (int i = 0; i < 20000; ++i) {
                u64 b = random_block(r, universe);
                ASSERT_EQ(s.reference(b), ref.reference(b))
                    << "capacity " << cap << " universe " << universe << " reference " << i;
            }
            EXPECT_EQ(s.size(), ref.order.size());
            s.destroy();
        }
    }
}

TEST(LruShadow, RejectsImpossibleCapacities) {
    LruShadow s;
    EXPECT_FALSE(s.init(0, kHeap));
    EXPECT_FALSE(s.init((1ull << 30) + 1, kHeap));
}

TEST(MissClassifier, MatchesBruteForceOnRandomStreams) {
    for (u64 cap : {1ull, 4ull, 33ull, 256ull}) {
        MissClassifier m;
        ASSERT_TRUE(m.init(cap, kHeap));
        Brute3C ref(cap);
        Rng r(cap);
        for (int i = 0; i < 30000; ++i) {
            // Phases of small and large working sets: every class occurs.
            u64 universe = (i / 3000) % 2 ? 4 * cap + 7 : cap / 2 + 1;
            u64 b = random_block(r, universe);
            ASSERT_EQ(m.reference(b), ref.reference(b)) << "capacity " << cap << " reference " << i;
        }
        m.destroy();
    }
}

// ---------------------------------------------------------------- the machine

constexpr u64 kAll = ~0ull;

HierarchyConfig two_level(LevelConfig l1, LevelConfig l2, u32 private_levels = 1) {
    return hierarchy({l1, l2}, private_levels, false, 3);
}

struct Classified {
    CoherentMachine m;
    Classified(const HierarchyConfig& c, u32 cores) {
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(m.init(c, cores, kHeap, err)) << err.text;
        EXPECT_TRUE(m.enable_classification(err)) << err.text;
    }
    ~Classified() { m.destroy(); }
    const u64* classes(u32 core, int level, bool icache_side = false) {
        return m.stats(core, level, icache_side).miss_class;
    }
};

u64 demand_misses(const LevelStats& s) { return s.misses[kFetch] + s.misses[kRead] + s.misses[kWrite]; }

// L1: 4 sets x 2 ways (8 lines), L2: 8 sets x 8 ways (64 lines).
HierarchyConfig small_machine() { return two_level(level(4, 2), level(8, 8)); }

TEST(MachineClassification, TwoWalksThatFitAreCompulsoryOnly) {
    Classified c(small_machine(), 1);
    for (int pass = 0; pass < 2; ++pass)
        for (u64 b = 0; b < 8; ++b) c.m.access(0, kRead, 100 + b, kAll);
    const u64* l1 = c.classes(0, 0);
    // 8 lines in 8 sets' worth of ways: the first pass misses 8 times, the
    // second hits everywhere.
    EXPECT_EQ(l1[kCompulsory], 8u);
    EXPECT_EQ(l1[kCapacity], 0u);
    EXPECT_EQ(l1[kConflict], 0u);
    EXPECT_EQ(c.m.stats(0, 0, false).misses[kRead], 8u);
}

TEST(MachineClassification, TwoWalksLargerThanTheCacheAreCapacityMisses) {
    Classified c(small_machine(), 1);
    // 16 consecutive lines (4 per set, 2 ways) twice: LRU keeps the last 8,
    // so the second pass misses all 16; the shadow of 8 lines too.
    for (int pass = 0; pass < 2; ++pass)
        for (u64 b = 0; b < 16; ++b) c.m.access(0, kRead, 64 + b, kAll);
    const u64* l1 = c.classes(0, 0);
    EXPECT_EQ(l1[kCompulsory], 16u);
    EXPECT_EQ(l1[kCapacity], 16u);
    EXPECT_EQ(l1[kConflict], 0u);
    // L2 (64 lines) holds all 16: its 16 misses are the first references.
    const u64* l2 = c.classes(0, 1);
    EXPECT_EQ(l2[kCompulsory], 16u);
    EXPECT_EQ(l2[kCapacity] + l2[kConflict], 0u);
}

TEST(MachineClassification, OneSetStrideWalkIsConflictMisses) {
    Classified c(small_machine(), 1);
    // 3 lines 4 apart share set 0 of the 2-way L1: A B C A B C ... LRU
    // misses every time; the 8-line shadow holds all 3.
    for (int pass = 0; pass < 3; ++pass)
        for (u64 b = 0; b < 3; ++b) c.m.access(0, kWrite, 400 + 4 * b, kAll);
    const u64* l1 = c.classes(0, 0);
    EXPECT_EQ(l1[kCompulsory], 3u);
    EXPECT_EQ(l1[kConflict], 6u);
    EXPECT_EQ(l1[kCapacity], 0u);
    EXPECT_EQ(c.m.stats(0, 0, false).misses[kWrite], 9u);
}

TEST(MachineClassification, CoherenceMissesTakePrecedenceAtPrivateLevels) {
    // Private L1 and L2 per core; one shared L3.
    HierarchyConfig cfg = two_level(level(4, 2), level(8, 8), 2);
    cfg.levels = 3;
    cfg.level[2] = level(16, 8);
    Classified c(cfg, 2);
    c.m.access(0, kRead, 500, kAll);   // core 0: compulsory at L1, L2, L3
    c.m.access(1, kWrite, 500, kAll);  // core 1 takes the line (core 0 invalidated)
    u32 r = c.m.access(0, kRead, 500, kAll);
    ASSERT_TRUE(r & kCoherenceMiss);
    ASSERT_TRUE(r & kObserved);
    for (int k = 0; k < 2; ++k) {
        const u64* cl = c.classes(0, k);
        EXPECT_EQ(cl[kCompulsory], 1u) << "level " << k + 1;
        EXPECT_EQ(cl[kCoherenceClass], 1u) << "level " << k + 1;
        EXPECT_EQ(cl[kCapacity] + cl[kConflict], 0u);
        EXPECT_EQ(c.m.last_class(k), kCoherenceClass);
    }
    // Core 1's write missed its private levels for the first time.
    EXPECT_EQ(c.classes(1, 0)[kCompulsory], 1u);
    EXPECT_EQ(c.classes(1, 1)[kCompulsory], 1u);
    // The shared L3: core 0's first read missed (compulsory), core 1's
    // write-allocate fetch hit; core 0's re-read came from core 1's cache.
    const LevelStats& l3 = c.m.stats(0, 2, false);
    EXPECT_EQ(demand_misses(l3), 1u);
    EXPECT_EQ(l3.miss_class[kCompulsory], 1u);
}

// Every level's classes add up to its demand misses, on random hierarchies
// of every policy, one and three cores; the results (depths and flags
// but kObserved) are those of an unclassified machine.
TEST(MachineClassification, ClassesPartitionTheMissesOnRandomHierarchies) {
    Rng r(2026);
    for (int trial = 0; trial < 120; ++trial) {
        int levels = 1 + int(r.below(3));
        std::vector<LevelChoice> ch;
        auto l0 = level0_choices();
        auto lo = lower_choices();
        ch.push_back(l0[r.below(l0.size())]);
        for (int k = 1; k < levels; ++k) ch.push_back(lo[r.below(lo.size())]);
        HierarchyConfig cfg = build(r, ch, trial % 2 == 0);
        u32 cores = trial % 3 == 0 ? 3 : 1;
        cfg.private_levels = cores > 1 ? u32(1 + r.below(u64(levels))) : 0;
        if (r.below(4) == 0) {
            cfg.level[0].prefetch.kinds = kPrefetchNextLine;
            cfg.level[0].prefetch.degree = 1;
            cfg.level[0].prefetch.stride_entries = 1;
            cfg.level[0].prefetch.stream_entries = 1;
        }
        Trace t = mixed_trace(r, cfg, 3000);
        for (Ref& x : t) x.core = u32(r.below(cores));
        ErrorText err;
        error_clear(err);
        CoherentMachine plain, classified;
        ASSERT_TRUE(plain.init(cfg, cores, kHeap, err)) << err.text;
        ASSERT_TRUE(classified.init(cfg, cores, kHeap, err)) << err.text;
        ASSERT_TRUE(classified.enable_classification(err));
        for (size_t i = 0; i < t.size(); ++i) {
            u32 a = plain.access(t[i].core, t[i].kind, t[i].block, t[i].bytes, t[i].block * 8);
            u32 b = classified.access(t[i].core, t[i].kind, t[i].block, t[i].bytes, t[i].block * 8);
            ASSERT_TRUE(b & kObserved);
            ASSERT_EQ(a, b & ~kObserved) << describe(cfg, cores) << " access " << i;
        }
        for (u32 core = 0; core < cores; ++core)
            for (int k = 0; k < cfg.levels; ++k)
                for (int side = 0; side < 2; ++side) {
                    if (side == 1 && !(k == 0 && cfg.split_l1)) continue;
                    const LevelStats& s = classified.stats(core, k, side == 1);
                    u64 sum = 0;
                    for (u64 v : s.miss_class) sum += v;
                    ASSERT_EQ(sum, demand_misses(s)) << describe(cfg, cores) << " core " << core << " level " << k + 1;
                    for (int kind = kFetch; kind <= int(kWrite); ++kind) {
                        ASSERT_EQ(s.misses[kind], plain.stats(core, k, side == 1).misses[kind]);
                    }
                    if (cores == 1) {
                        ASSERT_EQ(s.miss_class[kCoherenceClass], 0u);
                    }
                }
        plain.destroy();
        classified.destroy();
    }
}

// One core, reads only: level 1 sees every access, level 2 exactly the
// level-1 misses in order, so a brute-force 3C model of each, fed from the
// returned depths, must give the same classes, whatever the policies.
TEST(MachineClassification, FirstTwoLevelsMatchBruteForce3C) {
    Rng r(99);
    for (int trial = 0; trial < 60; ++trial) {
        std::vector<LevelChoice> ch;
        auto l0 = level0_choices();
        auto lo = lower_choices();
        ch.push_back(l0[r.below(l0.size())]);
        ch.push_back(lo[r.below(lo.size())]);
        HierarchyConfig cfg = build(r, ch, false);
        Classified c(cfg, 1);
        Brute3C b1(cfg.level[0].size / 64), b2(cfg.level[1].size / 64);
        u64 want1[4] = {0, 0, 0, 0}, want2[4] = {0, 0, 0, 0};
        Trace t = mixed_trace(r, cfg, 2000);
        for (const Ref& x : t) {
            u32 d = c.m.access(0, kRead, x.block, kAll) & kDepthMask;
            MissClass k1 = b1.reference(x.block);
            if (d >= 1) {
                want1[k1]++;
                MissClass k2 = b2.reference(x.block);
                if (d >= 2) want2[k2]++;
            }
        }
        for (int k = 0; k < 4; ++k) {
            ASSERT_EQ(c.classes(0, 0)[k], want1[k]) << describe(cfg) << " L1 class " << k;
            ASSERT_EQ(c.classes(0, 1)[k], want2[k]) << describe(cfg) << " L2 class " << k;
        }
    }
}

}  // namespace
