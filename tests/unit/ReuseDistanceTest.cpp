// The reuse-distance stack (cachesim/ReuseDistance.h): closed forms (a
// cyclic walk over N lines re-references every line at distance N - 1) and
// exact equality with a brute-force LRU stack on random streams long
// enough to renumber the time stamps and grow the tree several times.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "RandomHierarchies.h"
#include "ReuseDistance.h"

using namespace ompsim;
using namespace ompsim::test;

namespace {

// Brute force: the LRU stack as a vector, most recent last; the distance is
// the number of lines above the referenced one.
struct VectorStack {
    std::vector<u64> stack;
    u64 reference(u64 b) {
        auto it = std::find(stack.rbegin(), stack.rend(), b);
        u64 d = kColdDistance;
        if (it != stack.rend()) {
            d = u64(it - stack.rbegin());
            stack.erase(std::next(it).base());
        }
        stack.push_back(b);
        return d;
    }
};

TEST(ReuseDistance, Bins) {
    EXPECT_EQ(reuse_bin(0), 0u);
    EXPECT_EQ(reuse_bin(1), 1u);
    EXPECT_EQ(reuse_bin(2), 2u);
    EXPECT_EQ(reuse_bin(3), 2u);
    EXPECT_EQ(reuse_bin(4), 3u);
    EXPECT_EQ(reuse_bin(7), 3u);
    EXPECT_EQ(reuse_bin(8), 4u);
    EXPECT_EQ(reuse_bin((1ull << 62) + 5), 63u);
}

TEST(ReuseDistance, CyclicWalkReReferencesAtNMinusOne) {
    // 100000 lines: the live time stamps exceed half the initial tree
    // (2^16), so it grows; five passes renumber it several times.
    for (u64 n : {1ull, 2ull, 64ull, 100000ull}) {
        ReuseStack s;
        ASSERT_TRUE(s.init(kHeap));
        for (int pass = 0; pass < 5; ++pass)
            for (u64 b = 0; b < n; ++b) {
                u64 d = s.reference(b * 64 + 7);
                ASSERT_EQ(d, pass == 0 ? kColdDistance : n - 1) << "n " << n << " pass " << pass << " line " << b;
            }
        EXPECT_EQ(s.lines(), n);
        s.destroy();
    }
}

TEST(ReuseDistance, RepeatedLineIsDistanceZero) {
    ReuseStack s;
    ASSERT_TRUE(s.init(kHeap));
    EXPECT_EQ(s.reference(5), kColdDistance);
    for (int i = 0; i < 200000; ++i) ASSERT_EQ(s.reference(5), 0u);
    EXPECT_EQ(s.reference(6), kColdDistance);
    EXPECT_EQ(s.reference(5), 1u);
    s.destroy();
}

TEST(ReuseDistance, MatchesBruteForceOnRandomStreams) {
    Rng r(11);
    ReuseStack s;
    ASSERT_TRUE(s.init(kHeap));
    VectorStack ref;
    // Phases of small and large working sets, and a hot line: 250000
    // references (the 2^16 time stamps renumber three times at least).
    for (int i = 0; i < 250000; ++i) {
        int phase = (i / 20000) % 3;
        u64 b = phase == 0 ? r.below(40) : phase == 1 ? r.below(1500) + 1000 : (r.below(4) ? 3 : r.below(3000));
        ASSERT_EQ(s.reference(b), ref.reference(b)) << "reference " << i;
    }
    EXPECT_EQ(s.lines(), ref.stack.size());
    s.destroy();
}

}  // namespace
