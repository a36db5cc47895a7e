// Hand-derived cases for the Cachegrind-compatible model. The full check
// against Cachegrind itself is tests/integration/cg_parity.sh.
#include <gtest/gtest.h>

#include <cstdlib>

#include "CachegrindModel.h"
#include "TestSupport.h"

using namespace ompsim;

namespace {

using test::kHeap;

LevelConfig level(u64 size, u32 assoc, u32 line) {
    LevelConfig l{};
    l.size = size;
    l.assoc = assoc;
    l.line = line;
    return l;
}

struct Model {
    CachegrindModel m;
    explicit Model(LevelConfig i1, LevelConfig d1, LevelConfig ll) {
        HierarchyConfig c{};
        c.levels = 2;
        c.split_l1 = true;
        c.cachegrind = true;
        c.i1 = i1;
        c.level[0] = d1;
        c.level[1] = ll;
        ErrorText e;
        error_clear(e);
        EXPECT_TRUE(m.init(c, kHeap, e));
    }
    ~Model() { m.destroy(kHeap); }
};

}  // namespace

// D1: 2 sets x 2 ways x 64 B = 256 B; LL: 4 sets x 4 ways x 64 B = 1 KiB.
TEST(CachegrindModel, ColdMissThenHit) {
    Model t(level(256, 2, 64), level(256, 2, 64), level(1024, 4, 64));
    EXPECT_EQ(2u, t.m.data(0x1000, 8));  // cold: misses D1 and LL
    EXPECT_EQ(0u, t.m.data(0x1008, 8));  // same line
    EXPECT_EQ(2u, t.m.data(0x1040, 4));  // next line, other set
}

// Tags start at zero, so line 0 (addresses 0..63) is present everywhere.
TEST(CachegrindModel, ZeroTagIsInitiallyPresent) {
    Model t(level(256, 2, 64), level(256, 2, 64), level(1024, 4, 64));
    EXPECT_EQ(0u, t.m.data(0x10, 4));
    EXPECT_EQ(0u, t.m.fetch_single_line(0x20));
}

// LRU within a 2-way set: lines A, B, C all map to set 0 (stride 128 B).
TEST(CachegrindModel, LruEvictsLeastRecentlyUsed) {
    Model t(level(256, 2, 64), level(256, 2, 64), level(4096, 16, 64));
    const u64 A = 0x10000, B = A + 128, C = A + 256;
    t.m.data(A, 8);                       // D1 set0: A
    t.m.data(B, 8);                       // B A
    EXPECT_EQ(0u, t.m.data(A, 8));        // A B (A becomes MRU)
    EXPECT_EQ(2u, t.m.data(C, 8));        // C A: B evicted; C is cold in LL too
    EXPECT_EQ(1u, t.m.data(B, 8));        // B C: misses D1, still in LL
    EXPECT_EQ(1u, t.m.data(A, 8));        // A B: A was evicted by B
}

// An access straddling two lines counts once, as one miss if either misses,
// and then references LL with both lines.
TEST(CachegrindModel, StraddleCountsOnceAndTouchesBothLines) {
    Model t(level(256, 2, 64), level(256, 2, 64), level(1024, 4, 64));
    EXPECT_EQ(2u, t.m.data(0x2000 + 60, 8));  // lines 0x2000 and 0x2040, both cold
    EXPECT_EQ(0u, t.m.data(0x2000, 4));       // first line now in D1
    EXPECT_EQ(0u, t.m.data(0x2040, 4));       // second too
}

// When only the second line misses D1 but it is in LL, the depth is 1.
TEST(CachegrindModel, StraddleServedByLL) {
    Model t(level(256, 2, 64), level(128, 1, 64), level(1024, 4, 64));
    // D1 is direct-mapped with 2 sets: 0x3040 (set 1) is evicted by 0x30c0.
    t.m.data(0x3000, 4);
    t.m.data(0x3040, 4);
    t.m.data(0x30c0, 4);                       // evicts 0x3040 from D1, LL keeps it
    EXPECT_EQ(1u, t.m.data(0x3000 + 60, 8));   // first line hits D1, second misses D1, hits LL
}

TEST(CachegrindModel, SingleLineFetchNeedsEqualLineSizes) {
    Model same(level(256, 2, 64), level(256, 2, 64), level(1024, 4, 64));
    EXPECT_TRUE(same.m.fetch_is_single_line(0x400000, 15));
    EXPECT_FALSE(same.m.fetch_is_single_line(0x400000 + 60, 8));
    Model mixed(level(256, 2, 64), level(256, 2, 64), level(2048, 4, 128));
    EXPECT_FALSE(mixed.m.fetch_is_single_line(0x400000, 4));
    EXPECT_EQ(64u, mixed.m.min_line_size());
}
