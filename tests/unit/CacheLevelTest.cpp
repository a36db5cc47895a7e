// Hand-derived cases for a single CacheLevel: one set of each policy, set
// indexing, dirty bits, invalidation, geometry of large levels.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "CacheLevel.h"
#include "ReferenceHierarchy.h"
#include "TestSupport.h"

using namespace ompsim;

namespace {

struct CountingHeap {
    size_t bytes = 0;
    int live = 0;
    bool fail = false;
};

void* heap_alloc(void* ctx, size_t n) {
    auto* h = static_cast<CountingHeap*>(ctx);
    if (h->fail) return nullptr;
    h->bytes += n;
    h->live++;
    return std::malloc(n);
}
void heap_release(void* ctx, void* p) {
    static_cast<CountingHeap*>(ctx)->live--;
    std::free(p);
}

using test::level;

// A level plus its heap, destroyed at scope exit.
struct Lv {
    CountingHeap heap;
    CacheLevel c;
    explicit Lv(const LevelConfig& cfg, u64 seed = 1) {
        Allocator a{heap_alloc, heap_release, &heap};
        EXPECT_TRUE(c.init(cfg, seed, a));
    }
    ~Lv() {
        c.destroy();
        EXPECT_EQ(heap.live, 0);
    }
    // Inserts a block that must be absent; returns the victim or -1 (none).
    long long ins(u64 b, bool dirty = false, bool* vd = nullptr) {
        u64 v = 0;
        bool d = false;
        EXPECT_EQ(c.find(c.set_of(b), b), -1);
        if (!c.insert(c.set_of(b), b, dirty, &v, &d)) return -1;
        if (vd) *vd = d;
        return (long long)v;
    }
    // A hit: find + touch; returns false if absent.
    bool hit(u64 b) {
        u64 s = c.set_of(b);
        int p = c.find(s, b);
        if (p < 0) return false;
        c.touch(s, p);
        return true;
    }
    bool has(u64 b) const { return c.contains(b, nullptr); }
};

}  // namespace

TEST(CacheLevel, GeometryAndInitialState) {
    Lv l(level(4, 2, Replacement::LRU));
    EXPECT_EQ(l.c.sets(), 4u);
    EXPECT_EQ(l.c.assoc(), 2u);
    EXPECT_EQ(l.c.valid_lines(), 0u);
    EXPECT_EQ(l.c.stats.evictions, 0u);
    EXPECT_EQ(l.c.stats.refs[kRead], 0u);
    EXPECT_TRUE(l.c.ordered());
    EXPECT_TRUE(l.c.write_back());
    EXPECT_FALSE(l.has(0));
}

// 30 MiB, 12 ways, 64 B lines: 40960 sets (not a power of two), 491520 tags,
// 8 bytes each and nothing else for LRU.
TEST(CacheLevel, LargeLevelMemoryIsOneWordPerLine) {
    LevelConfig cfg = level(40960, 12, Replacement::LRU);
    EXPECT_EQ(cfg.size, 30ull << 20);
    Lv l(cfg);
    EXPECT_EQ(l.c.sets(), 40960u);
    EXPECT_EQ(l.heap.bytes, 491520u * 8);
    // Block 40960 + 7 and block 7 share set 7.
    EXPECT_EQ(l.c.set_of(7), 7u);
    EXPECT_EQ(l.c.set_of(40960 + 7), 7u);
    EXPECT_EQ(l.c.set_of(3 * 40960 + 40959), 40959u);
}

TEST(CacheLevel, AllocationFailureIsReported) {
    CountingHeap h;
    h.fail = true;
    Allocator a{heap_alloc, heap_release, &h};
    CacheLevel c;
    EXPECT_FALSE(c.init(level(4, 4, Replacement::PLRU), 1, a));
    c.destroy();
    EXPECT_EQ(h.live, 0);
}

// 4-way LRU set; blocks 0..5 all map to the single set.
TEST(CacheLevel, LruVictimOrder) {
    Lv l(level(1, 4, Replacement::LRU));
    EXPECT_EQ(l.ins(0), -1);  // MRU->LRU: 0
    EXPECT_EQ(l.ins(1), -1);  // 1 0
    EXPECT_EQ(l.ins(2), -1);  // 2 1 0
    EXPECT_EQ(l.ins(3), -1);  // 3 2 1 0
    EXPECT_TRUE(l.hit(0));    // 0 3 2 1
    EXPECT_TRUE(l.hit(2));    // 2 0 3 1
    EXPECT_EQ(l.ins(4), 1);   // 4 2 0 3
    EXPECT_EQ(l.ins(5), 3);   // 5 4 2 0
    EXPECT_TRUE(l.hit(0));    // 0 5 4 2
    EXPECT_EQ(l.ins(6), 2);   // 6 0 5 4
    EXPECT_EQ(l.ins(7), 4);
    EXPECT_EQ(l.ins(8), 5);
    EXPECT_EQ(l.ins(9), 0);
    // Position 0 is the MRU line.
    EXPECT_EQ(l.c.block_at(0, 0), 9u);
    EXPECT_EQ(l.c.block_at(0, 3), 6u);
}

TEST(CacheLevel, FifoIgnoresHits) {
    Lv l(level(1, 4, Replacement::FIFO));
    for (u64 b = 0; b < 4; ++b) EXPECT_EQ(l.ins(b), -1);  // newest->oldest: 3 2 1 0
    EXPECT_TRUE(l.hit(0));
    EXPECT_TRUE(l.hit(0));
    EXPECT_TRUE(l.hit(1));
    EXPECT_EQ(l.ins(4), 0);  // 4 3 2 1
    EXPECT_TRUE(l.hit(1));
    EXPECT_EQ(l.ins(5), 1);  // 5 4 3 2
    EXPECT_EQ(l.ins(6), 2);
    EXPECT_EQ(l.ins(7), 3);
    EXPECT_EQ(l.ins(8), 4);
}

// 4-way tree PLRU. Bits b1 (root), b2 (ways 0/1), b3 (ways 2/3), all 0.
// Touching a way points every node on its path away from it.
//   fill A -> way0 (empty): b1=1 b2=1       bits 1 1 0
//   fill B -> way1 (empty): b1=1 b2=0       bits 1 0 0
//   fill C -> way2 (empty): b1=0 b3=1       bits 0 0 1
//   fill D -> way3 (empty): b1=0 b3=0       bits 0 0 0
//   fill E: b1=0 -> left, b2=0 -> way0: evicts A; touch way0: bits 1 1 0
//   hit  B (way1): b1=1 b2=0                bits 1 0 0
//   fill F: b1=1 -> right, b3=0 -> way2: evicts C; touch: bits 0 0 1
//   fill G: b1=0 -> left, b2=0 -> way0: evicts E; touch: bits 1 1 1
//   fill H: b1=1 -> right, b3=1 -> way3: evicts D; touch: bits 0 1 0
//   fill I: b1=0 -> left, b2=1 -> way1: evicts B.
TEST(CacheLevel, PlruVictimSequence) {
    enum : u64 { A = 10, B, C, D, E, F, G, H, I };
    Lv l(level(1, 4, Replacement::PLRU));
    EXPECT_EQ(l.ins(A), -1);
    EXPECT_EQ(l.ins(B), -1);
    EXPECT_EQ(l.ins(C), -1);
    EXPECT_EQ(l.ins(D), -1);
    EXPECT_EQ(l.c.block_at(0, 0), A);
    EXPECT_EQ(l.c.block_at(0, 3), D);
    EXPECT_EQ(l.ins(E), (long long)A);
    EXPECT_TRUE(l.hit(B));
    EXPECT_EQ(l.ins(F), (long long)C);
    EXPECT_EQ(l.ins(G), (long long)E);
    EXPECT_EQ(l.ins(H), (long long)D);
    EXPECT_EQ(l.ins(I), (long long)B);
    // Way numbers are stable: G way0, I way1, F way2, H way3.
    EXPECT_EQ(l.c.block_at(0, 0), G);
    EXPECT_EQ(l.c.block_at(0, 1), I);
    EXPECT_EQ(l.c.block_at(0, 2), F);
    EXPECT_EQ(l.c.block_at(0, 3), H);
}

// 8-way PLRU, fill 0..7 then keep filling: with no hits tree PLRU cycles the
// ways in the order 0 4 2 6 1 5 3 7 (bit-reversed counting).
TEST(CacheLevel, PlruEightWaySweep) {
    Lv l(level(1, 8, Replacement::PLRU));
    for (u64 b = 0; b < 8; ++b) EXPECT_EQ(l.ins(b), -1);
    const u64 order[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(l.ins(100 + i), (long long)order[i]) << i;
}

TEST(CacheLevel, RandomIsXorshiftAndReproducible) {
    const u64 seed = 0x123456789ull;
    Lv a(level(1, 4, Replacement::Random), seed);
    Lv b(level(1, 4, Replacement::Random), seed);
    for (u64 x = 0; x < 4; ++x) {
        EXPECT_EQ(a.ins(x), -1);
        EXPECT_EQ(b.ins(x), -1);
    }
    // Filling empty ways draws nothing; ways are filled lowest first.
    EXPECT_EQ(a.c.rng_state(), seed);
    for (u64 w = 0; w < 4; ++w) EXPECT_EQ(a.c.block_at(0, int(w)), w);
    u64 x = seed;
    u64 content[4] = {0, 1, 2, 3};
    for (u64 n = 10; n < 60; ++n) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        u64 way = x % 4;
        long long va = a.ins(n);
        EXPECT_EQ(va, (long long)content[way]);
        EXPECT_EQ(b.ins(n), va);
        content[way] = n;
        EXPECT_EQ(a.c.rng_state(), x);
    }
    // A different seed gives a different sequence (overwhelmingly likely).
    Lv c(level(1, 4, Replacement::Random), seed + 1);
    for (u64 x2 = 0; x2 < 4; ++x2) c.ins(x2);
    int differ = 0;
    Lv d(level(1, 4, Replacement::Random), seed);
    for (u64 x2 = 0; x2 < 4; ++x2) d.ins(x2);
    for (u64 n = 10; n < 40; ++n) differ += c.ins(n) != d.ins(n);
    EXPECT_GT(differ, 0);
}

TEST(CacheLevel, ZeroSeedBecomesOne) {
    Lv l(level(1, 2, Replacement::Random), 0);
    EXPECT_EQ(l.c.rng_state(), 1u);
}

// 3 sets of 2 ways: set = block % 3.
TEST(CacheLevel, NonPowerOfTwoSetsIndexByModulo) {
    Lv l(level(3, 2, Replacement::LRU));
    EXPECT_EQ(l.c.sets(), 3u);
    EXPECT_EQ(l.c.set_of(0), 0u);
    EXPECT_EQ(l.c.set_of(4), 1u);
    EXPECT_EQ(l.c.set_of(8), 2u);
    EXPECT_EQ(l.c.set_of(9), 0u);
    EXPECT_EQ(l.ins(0), -1);
    EXPECT_EQ(l.ins(3), -1);
    EXPECT_EQ(l.ins(1), -1);  // set 1
    EXPECT_EQ(l.ins(4), -1);  // set 1
    EXPECT_EQ(l.ins(2), -1);  // set 2
    EXPECT_EQ(l.ins(6), 0);   // set 0 full: evicts 0
    EXPECT_EQ(l.ins(9), 3);
    EXPECT_TRUE(l.has(1));
    EXPECT_TRUE(l.has(4));
    EXPECT_TRUE(l.has(2));
    EXPECT_FALSE(l.has(0));
    EXPECT_EQ(l.c.valid_lines(), 5u);
}

// set_of() divides by multiplication when the set count is not a power of
// two; checked against the % operator on every such count up to 300 and on
// large L3s (the desktop's 40960 sets, 1.5 Mi sets), over small blocks,
// random blocks below 2^62 (the largest a key holds), and the blocks next
// to multiples of the count, where a quotient one too small would show.
TEST(CacheLevel, ModuloByMultiplicationIsExact) {
    std::vector<u64> counts;
    for (u64 n = 3; n <= 300; ++n)
        if (n & (n - 1)) counts.push_back(n);
    for (u64 n : {40960ull, 49152ull, 163840ull, 1572864ull + 3}) counts.push_back(n);
    u64 x = 88172645463325252ull;
    for (u64 n : counts) {
        Lv l(level(n, 1));
        ASSERT_EQ(l.c.sets(), n);
        ASSERT_FALSE(l.c.sets_pow2());
        for (u64 b = 0; b < 3 * n && b < 100000; ++b) ASSERT_EQ(l.c.set_of(b), b % n) << n << " " << b;
        for (int i = 0; i < 500; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            u64 b = x >> 2;
            u64 m = (b / n) * n;
            for (u64 c : {b, m - 1, m, m + 1, m + n - 1}) ASSERT_EQ(l.c.set_of(c), c % n) << n << " " << c;
        }
        for (u64 b : {(1ull << 62) - 1, (1ull << 62) - n, (1ull << 61) + 12345}) ASSERT_EQ(l.c.set_of(b), b % n);
    }
}

TEST(CacheLevel, DirtyBitsTravelWithTheVictim) {
    Lv l(level(1, 2, Replacement::LRU));
    l.ins(1, true);
    l.ins(2, false);
    bool d = false;
    EXPECT_TRUE(l.c.contains(1, &d));
    EXPECT_TRUE(d);
    EXPECT_TRUE(l.c.contains(2, &d));
    EXPECT_FALSE(d);
    bool vd = false;
    EXPECT_EQ(l.ins(3, false, &vd), 1);
    EXPECT_TRUE(vd);
    // mark_dirty on 2 (now LRU at position 1).
    u64 s = l.c.set_of(2);
    int p = l.c.find(s, 2);
    ASSERT_EQ(p, 1);
    EXPECT_FALSE(l.c.is_dirty(s, p));
    l.c.mark_dirty(s, p);
    EXPECT_TRUE(l.c.is_dirty(s, p));
    EXPECT_EQ(l.ins(4, false, &vd), 2);
    EXPECT_TRUE(vd);
}

// Invalidation frees a way: the next fill takes it without evicting.
TEST(CacheLevel, InvalidateLruRemovesFromOrder) {
    Lv l(level(1, 4, Replacement::LRU));
    for (u64 b = 0; b < 4; ++b) l.ins(b);  // 3 2 1 0
    bool d = true;
    EXPECT_TRUE(l.c.invalidate(2, &d));    // 3 1 0 -
    EXPECT_FALSE(d);
    EXPECT_FALSE(l.c.invalidate(2, &d));
    EXPECT_EQ(l.c.valid_lines(), 3u);
    EXPECT_EQ(l.ins(5), -1);               // 5 3 1 0
    EXPECT_EQ(l.ins(6), 0);                // 6 5 3 1
    EXPECT_EQ(l.ins(7), 1);
}

TEST(CacheLevel, InvalidateFifoRemovesFromOrder) {
    Lv l(level(1, 3, Replacement::FIFO));
    for (u64 b = 0; b < 3; ++b) l.ins(b);  // 2 1 0
    EXPECT_TRUE(l.c.invalidate(0, nullptr));
    EXPECT_EQ(l.ins(3), -1);               // 3 2 1
    EXPECT_EQ(l.ins(4), 1);
}

// PLRU: invalidating leaves the tree alone; the freed (lowest empty) way is
// filled next, then the tree decides again.
TEST(CacheLevel, InvalidatePlruKeepsTree) {
    Lv l(level(1, 4, Replacement::PLRU));
    for (u64 b = 0; b < 4; ++b) l.ins(b);  // bits 0 0 0 (see above)
    EXPECT_TRUE(l.c.invalidate(2, nullptr));
    EXPECT_TRUE(l.c.invalidate(1, nullptr));
    EXPECT_EQ(l.ins(7), -1);               // way1 (lowest empty): b1=1 b2=0
    EXPECT_EQ(l.c.block_at(0, 1), 7u);
    EXPECT_EQ(l.ins(8), -1);               // way2: b1=0 b3=1
    EXPECT_EQ(l.c.block_at(0, 2), 8u);
    EXPECT_EQ(l.ins(9), 0);                // b1=0 -> b2=0 -> way0
}

TEST(CacheLevel, InvalidateRandomFillsLowestEmptyWay) {
    Lv l(level(1, 4, Replacement::Random), 99);
    for (u64 b = 0; b < 4; ++b) l.ins(b);
    EXPECT_TRUE(l.c.invalidate(3, nullptr));
    EXPECT_TRUE(l.c.invalidate(1, nullptr));
    u64 st = l.c.rng_state();
    EXPECT_EQ(l.ins(10), -1);
    EXPECT_EQ(l.c.block_at(0, 1), 10u);
    EXPECT_EQ(l.ins(11), -1);
    EXPECT_EQ(l.c.block_at(0, 3), 11u);
    EXPECT_EQ(l.c.rng_state(), st);
}

TEST(CacheLevel, FullyAssociativeManyWays) {
    for (Replacement r : {Replacement::LRU, Replacement::FIFO, Replacement::PLRU, Replacement::Random}) {
        Lv l(level(1, 512, r), 5);
        for (u64 b = 0; b < 512; ++b) ASSERT_EQ(l.ins(b * 7919), -1);
        EXPECT_EQ(l.c.valid_lines(), 512u);
        for (u64 b = 0; b < 512; ++b) ASSERT_TRUE(l.has(b * 7919));
        long long v = l.ins(1);
        EXPECT_GE(v, 0);
        if (r != Replacement::Random) {
            EXPECT_EQ(v, 0);  // the first fill is LRU, oldest, and PLRU's first pick
        }
        EXPECT_EQ(l.c.valid_lines(), 512u);
    }
}

TEST(CacheLevel, TouchReturnsNewPosition) {
    Lv l(level(1, 4, Replacement::LRU));
    for (u64 b = 0; b < 4; ++b) l.ins(b);  // 3 2 1 0
    EXPECT_EQ(l.c.touch(0, 3), 0);
    EXPECT_EQ(l.c.block_at(0, 0), 0u);
    Lv f(level(1, 4, Replacement::FIFO));
    for (u64 b = 0; b < 4; ++b) f.ins(b);
    EXPECT_EQ(f.c.touch(0, 3), 3);
    EXPECT_EQ(f.c.block_at(0, 3), 0u);
}

// One level against the reference model's level (ReferenceHierarchy.h) on
// random hit/fill/invalidate sequences, for every policy and associativities
// on both sides of 64 ways (PLRU switches representation there).

TEST(CacheLevel, MatchesReferenceLevel) {
    u64 x = 12345;
    auto rnd = [&](u64 n) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return (x >> 33) % n;
    };
    for (Replacement r : {Replacement::LRU, Replacement::FIFO, Replacement::PLRU, Replacement::Random}) {
        for (u32 assoc : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u}) {
            for (u64 sets : {1ull, 3ull, 4ull}) {
                LevelConfig cfg = level(sets, assoc, r);
                const u64 seed = 777 + assoc;
                Lv l(cfg, seed);
                reference::Level ref(cfg, seed);
                const u64 universe = sets * assoc + sets * assoc / 2 + 3;
                for (int i = 0; i < 4000; ++i) {
                    u64 b = rnd(universe);
                    u64 op = rnd(10);
                    bool in_ref = ref.find(b) != nullptr;
                    ASSERT_EQ(l.has(b), in_ref) << i;
                    if (op == 0) {
                        bool d1 = false;
                        bool p1 = l.c.invalidate(b, &d1);
                        auto p2 = ref.remove(b);
                        ASSERT_EQ(p1, p2.has_value());
                        if (p1) {
                            ASSERT_EQ(d1, p2->dirty);
                        }
                    } else if (in_ref) {
                        ASSERT_TRUE(l.hit(b));
                        ref.touch(b);
                    } else {
                        bool dirty = op == 1;
                        bool vd = false;
                        long long v = l.ins(b, dirty, &vd);
                        auto rv = ref.fill(b, dirty);
                        ASSERT_EQ(v >= 0, rv.has_value()) << "assoc " << assoc << " op " << i;
                        if (rv) {
                            ASSERT_EQ(u64(v), rv->block) << "assoc " << assoc << " op " << i;
                            ASSERT_EQ(vd, rv->dirty);
                        }
                    }
                }
                ASSERT_EQ(l.c.valid_lines(), ref.lines().size());
            }
        }
    }
}

// The unrolled search of an LRU set (repl::order_find_shifting_n, the
// default machine's 12-way D1 and 8-way L1s; with and without the
// prefetched flag's mask) against the loop: for a hit at
// every position, clean and dirty, a miss in a full set and one in a set
// with empty ways at the end, the same position, the same order afterwards
// (the hit at the front, the others shifted down past it) and the same
// dropped entry.
template <u32 N>
void expect_unrolled_search_matches_loop() {
    for (u32 filled = 1; filled <= N; ++filled) {
        for (u32 target = 0; target <= filled; ++target) {  // target == filled: a miss
            for (u64 dirty = 0; dirty < 2; ++dirty) {
                std::vector<u64> a(N, repl::kInvalidKey), b;
                for (u32 w = 0; w < filled; ++w) a[w] = repl::make_key(100 + 7 * w, (w + dirty) % 2 == 1);
                b = a;
                std::vector<u64> c = a;
                u64 block = 100 + 7 * target;
                u64 da = 12345, db = 12345, dc = 12345;
                int pa = repl::order_find_shifting(a.data(), N, block, &da);
                int pb = repl::order_find_shifting_n<N>(b.data(), block, &db);
                int pc = repl::order_find_shifting_n<N, false>(c.data(), block, &dc);  // no flagged keys here
                ASSERT_EQ(pa, target < filled ? int(target) : -1) << N << " " << filled << " " << target;
                EXPECT_EQ(pa, pb) << N << " " << filled << " " << target;
                EXPECT_EQ(a, b) << N << " " << filled << " " << target;
                EXPECT_EQ(da, db) << N << " " << filled << " " << target;
                EXPECT_EQ(pa, pc) << N << " " << filled << " " << target;
                EXPECT_EQ(a, c) << N << " " << filled << " " << target;
                EXPECT_EQ(da, dc) << N << " " << filled << " " << target;
                if (pa < 0) {
                    EXPECT_EQ(da, filled == N ? repl::make_key(100 + 7 * (N - 1), (N - 1 + dirty) % 2 == 1)
                                              : repl::kInvalidKey);
                }
            }
        }
    }
}

TEST(ReplacementPolicy, UnrolledShiftingSearchMatchesLoop) {
    expect_unrolled_search_matches_loop<8>();
    expect_unrolled_search_matches_loop<12>();
    expect_unrolled_search_matches_loop<2>();
}

// `search`, a variant of the shifting search of a set of N ways, against
// the loop (repl::order_find_shifting), case by case: sets of `filled`
// blocks (clean and dirty in turn) from first_filled to N, the wanted block
// at each position from first_target on, or past them (a miss). The same
// result, set and dropped entry.
template <u32 N, class Search>
void expect_cases_match_loop(u32 first_filled, u32 first_target, Search search) {
    for (u32 filled = first_filled; filled <= N; ++filled) {
        for (u32 target = first_target; target <= filled; ++target) {
            for (u64 dirty = 0; dirty < 2; ++dirty) {
                std::vector<u64> a(N, repl::kInvalidKey);
                for (u32 w = 0; w < filled; ++w) a[w] = repl::make_key(100 + 7 * w, (w + dirty) % 2 == 1);
                std::vector<u64> b = a;
                u64 block = 100 + 7 * target;
                u64 da = 12345, db = 12345;
                int pa = repl::order_find_shifting(a.data(), N, block, &da);
                int pb = search(b.data(), block, &db);
                ASSERT_EQ(pa, pb) << N << " " << filled << " " << target;
                EXPECT_EQ(a, b) << N << " " << filled << " " << target;
                EXPECT_EQ(da, db) << N << " " << filled << " " << target;
            }
        }
    }
}

// The search that skips the comparison of ways 0 to S - 1 (the one-core
// helpers compared them inline), for every position of the block from S
// on and for misses in part-full and full sets. A skip that left a way
// unmoved, or moved one twice, fails on the set.
template <u32 N, u32 S>
void expect_skipping_search_matches_loop() {
    expect_cases_match_loop<N>(S, S, repl::order_find_shifting_skip<N, S>);
}

TEST(ReplacementPolicy, SkippingShiftingSearchMatchesLoop) {
    expect_skipping_search_matches_loop<12, 4>();
    expect_skipping_search_matches_loop<12, 1>();
    expect_skipping_search_matches_loop<8, 4>();
    expect_skipping_search_matches_loop<8, 1>();
    expect_skipping_search_matches_loop<12, 0>();
}

// The vector search (repl::order_find_shifting_wide, SSE4.1 hosts only)
// against the loop, case by case as above, and on sets of random keys
// where some ways hold blocks that differ from the wanted one in one bit
// (a compare of the wrong width or lane would take them).
template <u32 N>
void expect_wide_search_matches_loop() {
    expect_cases_match_loop<N>(1, 0, repl::order_find_shifting_wide<N>);
    std::mt19937_64 rng(N);
    for (int round = 0; round < 20000; ++round) {
        u64 block = rng() >> 8;
        std::vector<u64> a(N);
        for (u32 w = 0; w < N; ++w) {
            u64 other = block ^ (1ull << (rng() % 56));
            a[w] = repl::make_key(rng() % 3 ? other : rng() >> 8, rng() & 1);
        }
        if (rng() % 2) a[rng() % N] = repl::make_key(block, rng() & 1);
        std::vector<u64> b = a;
        u64 da = 1, db = 2;
        int pa = repl::order_find_shifting(a.data(), N, block, &da);
        int pb = repl::order_find_shifting_wide<N>(b.data(), block, &db);
        ASSERT_EQ(pa, pb) << round;
        ASSERT_EQ(a, b) << round;
        if (pa < 0) {
            ASSERT_EQ(da, db) << round;
        }
    }
}

TEST(ReplacementPolicy, WideShiftingSearchMatchesLoop) {
    if (!__builtin_cpu_supports("sse4.1")) GTEST_SKIP() << "the host has no SSE4.1";
    expect_wide_search_matches_loop<8>();
    expect_wide_search_matches_loop<10>();
    expect_wide_search_matches_loop<12>();
    expect_wide_search_matches_loop<16>();
}
