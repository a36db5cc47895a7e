// The single-core hierarchy (core 0 of CoherentMachine, which behaves as
// docs/cache-model.md's hierarchy while no other core has made an access):
// hand-derived multi-level cases, then randomised differential tests against
// the independent model in ReferenceHierarchy.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "CoherentMachine.h"
#include "RandomHierarchies.h"

using namespace ompsim;
using namespace ompsim::test;

namespace {

HierarchyConfig unified(std::vector<LevelConfig> levels) { return hierarchy(levels); }

// Core 0 of a one-core machine, with the single-core interface these cases
// were written against.
struct OneCore {
    CoherentMachine m;
    bool init(const HierarchyConfig& c, const Allocator& a, ErrorText& e) { return m.init(c, 1, a, e); }
    void destroy() { m.destroy(); }
    unsigned access(AccessKind k, u64 block) { return m.access(0, k, block, ~0ull); }
    unsigned line_bits() const { return m.line_bits(); }
    int levels() const { return m.levels(); }
    u64 memory_reads() const { return m.memory_reads(); }
    u64 memory_writes() const { return m.memory_writes(); }
    const LevelStats& stats(int k, bool ic) const { return m.stats(0, k, ic); }
    bool contains(int k, bool ic, u64 block, bool* dirty) const { return m.contains(0, k, ic, block, dirty); }
};

struct H {
    OneCore h;
    explicit H(const HierarchyConfig& c) {
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(h.init(c, kHeap, err)) << err.text;
    }
    ~H() { h.destroy(); }
    bool has(int k, u64 b, bool* d = nullptr, bool ic = false) const { return h.contains(k, ic, b, d); }
    bool dirty(int k, u64 b, bool ic = false) const {
        bool d = false;
        return h.contains(k, ic, b, &d) && d;
    }
    const LevelStats& st(int k, bool ic = false) const { return h.stats(k, ic); }
};

constexpr u64 A = 0, B = 1, C = 2, D = 3;

}  // namespace

TEST(Hierarchy, LineBitsAndLevels) {
    H t(unified({level(2, 2), level(4, 4)}));
    EXPECT_EQ(t.h.line_bits(), 6u);
    EXPECT_EQ(t.h.levels(), 2);
    EXPECT_EQ(t.h.memory_reads(), 0u);
}

TEST(Hierarchy, DepthOfHitsAndMisses) {
    // L1 1 set x 1 way, L2 1x2, L3 1x4, all LRU write-back non-inclusive.
    H t(unified({level(1, 1), level(1, 2), level(1, 4)}));
    EXPECT_EQ(t.h.access(kRead, A), 3u);   // memory
    EXPECT_EQ(t.h.access(kRead, A), 0u);   // L1
    EXPECT_EQ(t.h.access(kRead, B), 3u);   // L1: B (A evicted, clean)
    EXPECT_EQ(t.h.access(kRead, A), 1u);   // L2 had A
    EXPECT_EQ(t.h.access(kRead, C), 3u);   // L2: C A (B evicted), L3: C B A
    EXPECT_EQ(t.h.access(kRead, B), 2u);   // only L3 still has B
    EXPECT_EQ(t.h.memory_reads(), 3u);
    EXPECT_EQ(t.h.memory_writes(), 0u);
    EXPECT_EQ(t.st(0).refs[kRead], 6u);
    EXPECT_EQ(t.st(0).misses[kRead], 5u);
    EXPECT_EQ(t.st(1).refs[kRead], 5u);
    EXPECT_EQ(t.st(1).misses[kRead], 4u);
    EXPECT_EQ(t.st(2).refs[kRead], 4u);
    EXPECT_EQ(t.st(2).misses[kRead], 3u);
}

// L1 1x2 LRU WB, L2 1x2 LRU WB inclusive.
//  write A: misses both, mem read; L2 [A], L1 [A*]          (* = dirty)
//  read  B: misses both, mem read; L2 [B A], L1 [B A*]
//  write A: L1 hit (L2 not told); L1 [A* B], L2 still [B A]
//  read  C: L1 miss, L2 miss, mem read; L2 fills C evicting its LRU A:
//           A is back-invalidated from L1, dirty there, so L2 writes A back
//           to memory; then L1 fills C into the freed way, evicting nothing.
TEST(Hierarchy, InclusiveBackInvalidationOfDirtyLineWritesBackOnce) {
    H t(unified({level(1, 2), level(1, 2, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Inclusive)}));
    EXPECT_EQ(t.h.access(kWrite, A), 2u);
    EXPECT_EQ(t.h.access(kRead, B), 2u);
    EXPECT_EQ(t.h.access(kWrite, A), 0u);
    EXPECT_TRUE(t.dirty(0, A));
    EXPECT_FALSE(t.dirty(1, A));
    EXPECT_EQ(t.h.access(kRead, C), 2u);
    EXPECT_FALSE(t.has(0, A));
    EXPECT_FALSE(t.has(1, A));
    EXPECT_TRUE(t.has(0, B));
    EXPECT_TRUE(t.has(0, C));
    EXPECT_TRUE(t.has(1, B));
    EXPECT_TRUE(t.has(1, C));
    EXPECT_EQ(t.h.memory_reads(), 3u);
    EXPECT_EQ(t.h.memory_writes(), 1u);
    EXPECT_EQ(t.st(0).back_invalidations, 1u);
    EXPECT_EQ(t.st(0).evictions, 0u);
    EXPECT_EQ(t.st(0).writebacks, 0u);
    EXPECT_EQ(t.st(1).evictions, 1u);
    EXPECT_EQ(t.st(1).writebacks, 1u);
    EXPECT_EQ(t.st(1).back_invalidations, 0u);
    EXPECT_EQ(t.st(1).refs[kWrite], 1u);  // the write-allocate fill of the first write
    EXPECT_EQ(t.st(1).refs[kRead], 2u);
}

// A split L1: an inclusive L2 back-invalidates both I1 and D1.
TEST(Hierarchy, InclusiveBackInvalidatesBothL1Halves) {
    HierarchyConfig c = unified({level(1, 2), level(1, 2, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Inclusive)});
    c.split_l1 = true;
    c.i1 = level(1, 2);
    H t(c);
    EXPECT_EQ(t.h.access(kFetch, A), 2u);  // I1 [A], L2 [A]
    EXPECT_EQ(t.h.access(kRead, A), 1u);   // D1 [A], L2 [A]
    EXPECT_TRUE(t.has(0, A, nullptr, true));
    EXPECT_TRUE(t.has(0, A, nullptr, false));
    EXPECT_EQ(t.h.access(kRead, B), 2u);   // L2 [B A]
    EXPECT_EQ(t.h.access(kRead, C), 2u);   // L2 evicts A: gone from I1 and D1
    EXPECT_FALSE(t.has(0, A, nullptr, true));
    EXPECT_FALSE(t.has(0, A, nullptr, false));
    EXPECT_EQ(t.st(0, true).back_invalidations, 1u);
    EXPECT_EQ(t.st(0, false).back_invalidations, 1u);
    EXPECT_EQ(t.st(0, true).refs[kFetch], 1u);
    EXPECT_EQ(t.st(0, false).refs[kFetch], 0u);
    EXPECT_EQ(t.st(1).refs[kFetch], 1u);
    EXPECT_EQ(t.h.memory_writes(), 0u);
}

// L1 1x1 LRU WB, L2 1x2 LRU WB exclusive (a victim cache).
TEST(Hierarchy, ExclusiveL2MovesLinesUp) {
    H t(unified({level(1, 1), level(1, 2, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Exclusive)}));
    EXPECT_EQ(t.h.access(kRead, A), 2u);  // L2 does not allocate
    EXPECT_FALSE(t.has(1, A));
    EXPECT_EQ(t.h.access(kRead, B), 2u);  // L1 evicts A into L2
    EXPECT_TRUE(t.has(1, A));
    EXPECT_EQ(t.st(1).victims_in, 1u);
    EXPECT_EQ(t.h.access(kRead, A), 1u);  // L2 hit: A moves up, B goes down
    EXPECT_TRUE(t.has(0, A));
    EXPECT_FALSE(t.has(1, A));
    EXPECT_TRUE(t.has(1, B));
    EXPECT_EQ(t.st(1).victims_in, 2u);
    // Dirty lines move down and up with their dirty bit; nothing is written.
    EXPECT_EQ(t.h.access(kWrite, A), 0u);  // A* in L1
    EXPECT_EQ(t.h.access(kRead, B), 1u);   // B up, A* down
    EXPECT_TRUE(t.dirty(1, A));
    EXPECT_EQ(t.h.access(kRead, A), 1u);   // A* up again
    EXPECT_TRUE(t.dirty(0, A));
    EXPECT_FALSE(t.dirty(1, B));
    EXPECT_EQ(t.h.memory_reads(), 2u);
    EXPECT_EQ(t.h.memory_writes(), 0u);
    EXPECT_EQ(t.st(0).writebacks, 0u);
    EXPECT_EQ(t.st(1).writebacks, 0u);
    EXPECT_EQ(t.st(1).refs[kRead], 5u);
    EXPECT_EQ(t.st(1).misses[kRead], 2u);
    // Overflowing the victim cache: C, D push B and then A* out to memory.
    EXPECT_EQ(t.h.access(kRead, C), 2u);  // L1 [C], L2 [A* B]
    EXPECT_EQ(t.h.access(kRead, D), 2u);  // L2 [C A*], B evicted clean
    EXPECT_EQ(t.h.memory_writes(), 0u);
    EXPECT_EQ(t.h.access(kRead, B), 2u);  // L2 [D C], A* written back
    EXPECT_EQ(t.h.memory_writes(), 1u);
    EXPECT_EQ(t.st(1).writebacks, 1u);
    EXPECT_EQ(t.st(1).evictions, 2u);
}

// L1 1x2 LRU write-through (no write-allocate), L2 1x2 LRU write-back.
TEST(Hierarchy, WriteThroughDoesNotAllocate) {
    H t(unified({level(1, 2, Replacement::LRU, WritePolicy::WriteThrough), level(1, 2)}));
    EXPECT_EQ(t.h.access(kWrite, A), 2u);  // L1 miss, L2 write-allocates
    EXPECT_FALSE(t.has(0, A));
    EXPECT_TRUE(t.dirty(1, A));
    EXPECT_EQ(t.h.memory_reads(), 1u);
    EXPECT_EQ(t.h.access(kRead, A), 1u);   // now L1 gets it, clean
    bool d = true;
    EXPECT_TRUE(t.has(0, A, &d));
    EXPECT_FALSE(d);
    EXPECT_EQ(t.h.access(kWrite, A), 0u);  // hit, written through to L2
    EXPECT_FALSE(t.dirty(0, A));
    EXPECT_EQ(t.st(0).refs[kWrite], 2u);
    EXPECT_EQ(t.st(0).misses[kWrite], 1u);
    EXPECT_EQ(t.st(1).refs[kWrite], 2u);
    EXPECT_EQ(t.st(1).misses[kWrite], 1u);
    EXPECT_EQ(t.h.memory_writes(), 0u);
}

// Single write-through level: every write goes to memory, nothing allocated.
TEST(Hierarchy, WriteThroughLastLevelWritesMemory) {
    H t(unified({level(1, 2, Replacement::FIFO, WritePolicy::WriteThrough)}));
    EXPECT_EQ(t.h.access(kWrite, A), 1u);
    EXPECT_EQ(t.h.access(kRead, A), 1u);
    EXPECT_EQ(t.h.access(kWrite, A), 0u);
    EXPECT_EQ(t.h.memory_writes(), 2u);
    EXPECT_EQ(t.h.memory_reads(), 1u);
    EXPECT_FALSE(t.dirty(0, A));
}

// L1 1x1 LRU WB, L2 1x1 LRU WB non-inclusive.
//  write A: mem read; L2 [A], L1 [A*]
//  read  B: mem read; L2 evicts A (clean): [B]; L1 evicts A* -> writeback to
//           L2, which misses and allocates A dirty, evicting B (clean).
TEST(Hierarchy, WritebackMissAllocatesDirty) {
    H t(unified({level(1, 1), level(1, 1)}));
    EXPECT_EQ(t.h.access(kWrite, A), 2u);
    EXPECT_EQ(t.h.access(kRead, B), 2u);
    EXPECT_TRUE(t.has(0, B));
    EXPECT_TRUE(t.dirty(1, A));
    EXPECT_FALSE(t.has(1, B));
    EXPECT_EQ(t.st(0).writebacks, 1u);
    EXPECT_EQ(t.st(0).evictions, 1u);
    EXPECT_EQ(t.st(1).refs[kWriteback], 1u);
    EXPECT_EQ(t.st(1).misses[kWriteback], 1u);
    EXPECT_EQ(t.st(1).evictions, 2u);
    EXPECT_EQ(t.st(1).writebacks, 0u);
    EXPECT_EQ(t.h.memory_reads(), 2u);
    EXPECT_EQ(t.h.memory_writes(), 0u);
}

// A writeback hit marks the line dirty but does not refresh its LRU age.
// L1 1x1, L2 1x2 LRU WB.
//  write A: L2 [A], L1 [A*];  read B: L2 [B A], L1 [B], A* written back: hit.
//  read C: L2 evicts its LRU, which is still A (now dirty): one memory write.
TEST(Hierarchy, WritebackHitDoesNotUpdateReplacement) {
    H t(unified({level(1, 1), level(1, 2)}));
    t.h.access(kWrite, A);
    t.h.access(kRead, B);
    EXPECT_TRUE(t.dirty(1, A));
    EXPECT_EQ(t.st(1).refs[kWriteback], 1u);
    EXPECT_EQ(t.st(1).misses[kWriteback], 0u);
    EXPECT_EQ(t.h.access(kRead, C), 2u);
    EXPECT_FALSE(t.has(1, A));
    EXPECT_TRUE(t.has(1, B));
    EXPECT_EQ(t.h.memory_writes(), 1u);
    EXPECT_EQ(t.st(1).writebacks, 1u);
}

TEST(Hierarchy, SplitL1RoutesFetchesToI1) {
    HierarchyConfig c = unified({level(2, 2), level(4, 4)});
    c.split_l1 = true;
    c.i1 = level(1, 1, Replacement::FIFO);
    H t(c);
    EXPECT_EQ(t.h.access(kFetch, A), 2u);
    EXPECT_EQ(t.h.access(kFetch, A), 0u);
    EXPECT_EQ(t.h.access(kRead, A), 1u);
    EXPECT_TRUE(t.has(0, A, nullptr, true));
    EXPECT_TRUE(t.has(0, A, nullptr, false));
    EXPECT_EQ(t.h.access(kFetch, B), 2u);  // I1 has one way: A evicted from I1 only
    EXPECT_FALSE(t.has(0, A, nullptr, true));
    EXPECT_TRUE(t.has(0, A, nullptr, false));
    EXPECT_EQ(t.st(0, true).refs[kFetch], 3u);
    EXPECT_EQ(t.st(0, true).misses[kFetch], 2u);
    EXPECT_EQ(t.st(0, true).evictions, 1u);
    EXPECT_EQ(t.st(0, false).refs[kRead], 1u);
    EXPECT_EQ(t.st(1).refs[kFetch], 2u);
    EXPECT_EQ(t.st(1).refs[kRead], 1u);
}

TEST(Hierarchy, UnifiedL1ServesFetches) {
    H t(unified({level(1, 2)}));
    EXPECT_EQ(t.h.access(kFetch, A), 1u);
    EXPECT_EQ(t.h.access(kRead, A), 0u);
    EXPECT_EQ(t.h.access(kFetch, A), 0u);
    EXPECT_EQ(t.st(0, true).refs[kFetch], 2u);  // icache_side selects the same level
    EXPECT_EQ(t.st(0).refs[kRead], 1u);
}

// Write arriving at an exclusive level from a write-through level above.
// L1 1x1 WT, L2 1x2 WB exclusive.
TEST(Hierarchy, WriteThroughIntoExclusiveLevel) {
    H t(unified({level(1, 1, Replacement::LRU, WritePolicy::WriteThrough),
                 level(1, 2, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Exclusive)}));
    EXPECT_EQ(t.h.access(kWrite, A), 2u);  // misses both, written to memory
    EXPECT_EQ(t.h.memory_writes(), 1u);
    EXPECT_EQ(t.h.memory_reads(), 0u);
    EXPECT_FALSE(t.has(1, A));
    t.h.access(kRead, A);                  // L1 [A]
    t.h.access(kRead, B);                  // L1 [B], L2 [A]
    EXPECT_EQ(t.h.access(kWrite, A), 1u);  // L2 hit: dirty, stays
    EXPECT_TRUE(t.dirty(1, A));
    EXPECT_EQ(t.h.access(kRead, A), 1u);   // A* moves up into the write-through L1
    EXPECT_TRUE(t.dirty(0, A));            // it keeps its dirty bit there
    EXPECT_EQ(t.h.access(kRead, C), 2u);   // A* goes back down as a dirty victim
    EXPECT_TRUE(t.dirty(1, A));
    EXPECT_EQ(t.h.memory_writes(), 1u);
}

TEST(Hierarchy, RandomSeedsPerLevel) {
    // Same config twice: identical; different seed: (almost surely) different.
    HierarchyConfig c = unified({level(1, 4, Replacement::Random), level(1, 8, Replacement::Random)});
    HierarchyConfig c2 = c;
    c2.random_seed = 43;
    H a(c), b(c), d(c2);
    int differ = 0;
    u64 x = 7;
    for (int i = 0; i < 2000; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        u64 blk = (x >> 33) % 24;
        unsigned ra = a.h.access(kRead, blk);
        EXPECT_EQ(ra, b.h.access(kRead, blk));
        differ += ra != d.h.access(kRead, blk);
    }
    EXPECT_GT(differ, 0);
}

TEST(Hierarchy, ReinitStartsFromScratch) {
    HierarchyConfig c = unified({level(1, 2), level(2, 2)});
    OneCore h;
    ErrorText err;
    error_clear(err);
    ASSERT_TRUE(h.init(c, kHeap, err));
    h.access(kWrite, 5);
    h.destroy();
    ASSERT_TRUE(h.init(c, kHeap, err));
    EXPECT_FALSE(h.contains(0, false, 5, nullptr));
    EXPECT_EQ(h.stats(0, false).refs[kWrite], 0u);
    EXPECT_EQ(h.memory_reads(), 0u);
    h.destroy();
}

namespace {
void* failing_alloc(void*, size_t) { return nullptr; }
}  // namespace

TEST(Hierarchy, InitReportsAllocationFailure) {
    Allocator bad{failing_alloc, heap_release, nullptr};
    OneCore h;
    ErrorText err;
    error_clear(err);
    EXPECT_FALSE(h.init(unified({level(1, 2), level(2, 2)}), bad, err));
    EXPECT_TRUE(err.set);
    EXPECT_NE(std::string(err.text).find("memory"), std::string::npos);
    h.destroy();
}

// ---------------------------------------------------------------------------
// Differential tests against ReferenceHierarchy.
// ---------------------------------------------------------------------------

TEST(HierarchyDifferential, OneLevelAllPolicies) {
    Rng r(1);
    for (const LevelChoice& l0 : level0_choices())
        for (bool split : {false, true})
            for (int rep = 0; rep < 8; ++rep) {
                HierarchyConfig c = build(r, {l0}, split);
                ASSERT_TRUE(single_core_differential(c, 1, mixed_trace(r, c, 600), 50));
            }
}

TEST(HierarchyDifferential, TwoLevelsAllCombinations) {
    Rng r(2);
    for (const LevelChoice& l0 : level0_choices())
        for (const LevelChoice& l1 : lower_choices())
            for (bool split : {false, true})
                for (int rep = 0; rep < 4; ++rep) {
                    HierarchyConfig c = build(r, {l0, l1}, split);
                    ASSERT_TRUE(single_core_differential(c, 1, mixed_trace(r, c, 400), 40));
                }
}

TEST(HierarchyDifferential, ThreeLevelsAllCombinations) {
    Rng r(3);
    auto lower = lower_choices();
    for (const LevelChoice& l0 : level0_choices())
        for (const LevelChoice& l1 : lower)
            for (const LevelChoice& l2 : lower)
                for (bool split : {false, true}) {
                    HierarchyConfig c = build(r, {l0, l1, l2}, split);
                    ASSERT_TRUE(single_core_differential(c, 1, mixed_trace(r, c, 240)));
                }
}

// Four levels: every (write policy, inclusion) of L2..L4 with every level-1
// choice, with the replacement of L2..L4 rotated so that each level sees all
// four policies with each of its write/inclusion pairs.
TEST(HierarchyDifferential, FourLevelsAllCombinations) {
    Rng r(4);
    for (const LevelChoice& l0 : level0_choices())
        for (auto& p1 : kLowerPolicies)
            for (auto& p2 : kLowerPolicies)
                for (auto& p3 : kLowerPolicies)
                    for (int rot = 0; rot < 4; ++rot)
                        for (bool split : {false, true}) {
                            std::vector<LevelChoice> ch = {
                                l0,
                                {kRepls[rot], p1.first, p1.second},
                                {kRepls[(rot + 1 + split) % 4], p2.first, p2.second},
                                {kRepls[(rot + 3) % 4], p3.first, p3.second},
                            };
                            HierarchyConfig c = build(r, ch, split);
                            ASSERT_TRUE(single_core_differential(c, 1, mixed_trace(r, c, 200)));
                        }
}

// Adversarial geometries: fully associative levels with many ways, non-power-
// of-two set counts, strides equal to the set span, cyclic sweeps of assoc+1.
TEST(HierarchyDifferential, AdversarialGeometries) {
    Rng r(5);
    struct Geo {
        u64 sets;
        u32 assoc;
    };
    const std::vector<std::vector<Geo>> shapes = {
        {{1, 64}, {1, 128}},            // fully associative L1 and L2
        {{3, 4}, {5, 4}, {7, 8}},       // non-power-of-two sets everywhere
        {{1, 32}, {3, 16}, {1, 256}},   // big fully associative L3
        {{4, 2}, {12, 4}, {6, 8}, {1, 64}},
        {{2, 1}, {2, 1}, {2, 2}, {4, 2}},  // direct-mapped upper levels
    };
    for (const auto& shape : shapes) {
        for (int trial = 0; trial < 40; ++trial) {
            std::vector<LevelChoice> ch;
            ch.push_back(level0_choices()[r.below(8)]);
            auto lower = lower_choices();
            for (size_t k = 1; k < shape.size(); ++k) ch.push_back(lower[r.below(lower.size())]);
            HierarchyConfig c = build(r, ch, trial % 2 == 1);
            u64 period = 1;
            for (size_t k = 0; k < shape.size(); ++k) {
                u32 a = shape[k].assoc;
                c.level[k] = level(shape[k].sets, a, ch[k].r, ch[k].w, ch[k].i);
                period = lcm(period, shape[k].sets);
            }
            c.i1 = level(shape[0].sets, shape[0].assoc, kRepls[trial % 4]);
            Trace t;
            for (size_t k = 0; k < shape.size(); ++k) {
                Trace s = sweep_trace(r, 300, shape[k].assoc + 1, shape[k].sets);  // stride = set span
                t.insert(t.end(), s.begin(), s.end());
                s = sweep_trace(r, 200, shape[k].assoc + 1, period);
                t.insert(t.end(), s.begin(), s.end());
            }
            Trace rnd = random_trace(r, 400, 600);
            t.insert(t.end(), rnd.begin(), rnd.end());
            ASSERT_TRUE(single_core_differential(c, 1, t, 250));
        }
    }
}

// Larger caches and a long trace: the reference and the simulator stay in
// lock-step over many fills and evictions.
TEST(HierarchyDifferential, LongTraceRealisticShapes) {
    Rng r(6);
    for (int trial = 0; trial < 24; ++trial) {
        std::vector<LevelChoice> ch = {level0_choices()[trial % 8], lower_choices()[r.below(20)],
                                       lower_choices()[r.below(20)]};
        HierarchyConfig c = realistic_config(r, ch, trial);
        ASSERT_TRUE(single_core_differential(c, 1, realistic_trace(r, false), 2000));
    }
}

// Throughput sanity check of the inline L1-hit path (not a benchmark).
TEST(HierarchyPerf, L1HitsAreCheap) {
    HierarchyConfig c = unified({level(64, 8), level(1024, 16), level(40960, 12)});
    c.split_l1 = true;
    c.i1 = level(64, 8);
    H t(c);
    auto t0 = std::chrono::steady_clock::now();
    u64 sum = 0;
    for (int rep = 0; rep < 2000; ++rep)
        for (u64 b = 0; b < 256; ++b) {
            sum += t.h.access(kFetch, b);
            sum += t.h.access(b & 1 ? kWrite : kRead, b + 100000);
        }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 2.0);
    EXPECT_EQ(t.st(0, true).refs[kFetch], 512000u);
    EXPECT_GT(sum, 0u);
}

// Issue 11's geometries, which are not powers of two: a 48 KiB 12-way D1
// (64 sets), a 1.25 MiB L2 both 10-way (2048 sets) and 16-way (1280 sets,
// indexed by block % 1280), and a 24 MiB 12-way L3 (32768 sets) or 3 MiB
// 12-way slice (4096 sets) — against the brute-force reference, whose sets
// are always found with %. Nothing is rounded: the set counts are exact.
TEST(HierarchyDifferential, IssueElevenGeometries) {
    Rng r(11);
    struct Shape {
        u64 l2_sets;
        u32 l2_ways;
        u64 l3_sets;
    };
    const Shape shapes[] = {{2048, 10, 32768}, {1280, 16, 32768}, {1280, 16, 4096}, {2048, 10, 40960}};
    for (const Shape& s : shapes) {
        HierarchyConfig c = unified({level(64, 12), level(s.l2_sets, s.l2_ways), level(s.l3_sets, 12)});
        c.split_l1 = true;
        c.i1 = level(64, 8);
        CacheLevel l2;
        l2.init(c.level[1], 1, kHeap);
        EXPECT_EQ(l2.sets(), s.l2_sets);
        EXPECT_EQ(c.level[1].size, s.l2_sets * s.l2_ways * 64);
        l2.destroy();
        // Conflicts one L2 set span apart, sweeps of ways + 1 lines, random.
        Trace t = sweep_trace(r, 3000, s.l2_ways + 1, s.l2_sets);
        Trace u = sweep_trace(r, 3000, 13, 64);
        t.insert(t.end(), u.begin(), u.end());
        Trace rnd = random_trace(r, 4000, 3 * s.l2_sets * s.l2_ways);
        t.insert(t.end(), rnd.begin(), rnd.end());
        ASSERT_TRUE(single_core_differential(c, 1, t, 1000));
    }
}
