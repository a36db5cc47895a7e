// PageOwners: the page table in front of the coherence directory.
#include <gtest/gtest.h>

#include "PageOwners.h"
#include "TestSupport.h"

using namespace ompsim;
using namespace ompsim::test;

TEST(PageOwners, FirstTouchOwnsSecondCoreShares) {
    PageOwners p;
    ASSERT_TRUE(p.init(1, kHeap));
    EXPECT_EQ(p.owner(7), PageOwners::kNone);
    EXPECT_EQ(p.touch(7, 3), 3u);   // untouched: now core 3's
    EXPECT_EQ(p.touch(7, 5), 3u);   // another core learns the owner
    EXPECT_EQ(p.owner(7), 3u);
    p.share(7);
    EXPECT_EQ(p.touch(7, 3), PageOwners::kShared);
    EXPECT_EQ(p.owner(7), PageOwners::kShared);
    p.share(8);                      // never touched: nothing
    EXPECT_EQ(p.owner(8), PageOwners::kNone);
    EXPECT_EQ(p.pages(), 1u);
    EXPECT_EQ(p.shared_pages(), 1u);
    p.destroy();
}

// The table doubles at three quarters: 10,000 pages from 64 slots keep
// their owners and shared marks, and for_each_owned visits the owned ones.
TEST(PageOwners, GrowthKeepsOwners) {
    PageOwners p;
    ASSERT_TRUE(p.init(0, kHeap));
    for (u64 i = 0; i < 10000; ++i) ASSERT_EQ(p.touch(i * 977, u32(i % 13)), u32(i % 13));
    for (u64 i = 0; i < 10000; i += 3) p.share(i * 977);
    EXPECT_EQ(p.pages(), 10000u);
    EXPECT_EQ(p.shared_pages(), 3334u);
    for (u64 i = 0; i < 10000; ++i) ASSERT_EQ(p.owner(i * 977), i % 3 == 0 ? PageOwners::kShared : u32(i % 13));
    u64 owned = 0;
    p.for_each_owned([&](u64 page, u32 owner) {
        ++owned;
        EXPECT_EQ(page % 977, 0u);
        EXPECT_EQ(owner, u32((page / 977) % 13));
    });
    EXPECT_EQ(owned, 10000u - 3334u);
    p.destroy();
}

namespace {
// Grants the first `left` allocations.
struct Budget {
    int left;
};
void* budget_alloc(void* ctx, size_t n) {
    Budget* b = static_cast<Budget*>(ctx);
    return b->left-- > 0 ? heap_alloc(nullptr, n) : nullptr;
}
}  // namespace

// Without memory to grow, touch() of a new page says so (the machine then
// stops filtering); known pages still answer.
TEST(PageOwners, FailedGrowthIsReported) {
    Budget b{1};
    PageOwners p;
    ASSERT_TRUE(p.init(64, Allocator{budget_alloc, heap_release, &b}));
    for (u64 i = 0; i < 48; ++i) ASSERT_EQ(p.touch(i, 0), 0u);
    EXPECT_EQ(p.touch(1000, 1), PageOwners::kFailed);
    EXPECT_EQ(p.owner(1000), PageOwners::kNone);
    EXPECT_EQ(p.touch(5, 1), 0u);
    p.destroy();
}
