// Data TLBs (cachesim/Tlb.h): page-stride sweeps with counts derived by
// hand, and the configuration rules.
#include <gtest/gtest.h>

#include "CacheConfig.h"
#include "MachineConfig.h"
#include "BuilderSupport.h"
#include "TestSupport.h"
#include "Tlb.h"

using namespace ompsim;
using namespace ompsim::test;

namespace {

constexpr u64 kPage = 4096;

// DTLB1 64 entries 4-way (16 sets), DTLB2 1536 entries 12-way (128 sets).
TlbConfig two_level(u64 page = kPage) {
    TlbConfig t{};
    t.levels = 2;
    t.page_size = page;
    t.level[0] = TlbLevelConfig{64, 4, 0};
    t.level[1] = TlbLevelConfig{1536, 12, 7};
    t.walk_latency = 30;
    return t;
}

struct T {
    Tlb tlb;
    explicit T(const TlbConfig& c) {
        tlb.clear();
        EXPECT_TRUE(tlb.init(c, kHeap));
    }
    ~T() { tlb.destroy(); }
    // `passes` sweeps over `pages` pages, one access per page (page stride).
    void sweep(u64 pages, int passes, u64 stride = kPage) {
        for (int p = 0; p < passes; ++p)
            for (u64 i = 0; i < pages; ++i) tlb.lookup(0x10000000 + i * stride + 8);
    }
};

}  // namespace

// 64 consecutive pages fill the 16 sets of DTLB1 with 4 pages each: the
// first pass misses every page in both levels (64 walks), the next three
// passes hit DTLB1 every time.
TEST(Tlb, SweepThatFitsTheFirstLevel) {
    T t(two_level());
    t.sweep(64, 4);
    EXPECT_EQ(t.tlb.stats(0).refs, 256u);
    EXPECT_EQ(t.tlb.stats(0).misses, 64u);
    EXPECT_EQ(t.tlb.stats(1).refs, 64u);
    EXPECT_EQ(t.tlb.stats(1).misses, 64u);
}

// 128 pages: 8 per DTLB1 set cycle through 4 ways, so LRU misses every
// DTLB1 lookup (4 x 128 = 512); DTLB2 (128 sets x 12 ways) holds them all:
// 128 walks in the first pass, none later.
TEST(Tlb, SweepThatFitsOnlyTheSecondLevel) {
    T t(two_level());
    t.sweep(128, 4);
    EXPECT_EQ(t.tlb.stats(0).misses, 512u);
    EXPECT_EQ(t.tlb.stats(1).refs, 512u);
    EXPECT_EQ(t.tlb.stats(1).misses, 128u);
}

// 2048 pages exceed DTLB2 (16 per set of 12 ways): every lookup of every
// pass walks.
TEST(Tlb, SweepLargerThanBothLevels) {
    T t(two_level());
    t.sweep(2048, 2);
    EXPECT_EQ(t.tlb.stats(0).misses, 4096u);
    EXPECT_EQ(t.tlb.stats(1).misses, 4096u);
}

// With 2 MiB pages the same 2048 x 4 KiB sweep (8 MiB) touches 4 pages:
// 4 walks, everything else hits DTLB1.
TEST(Tlb, HugePages) {
    T t(two_level(2ull << 20));
    t.sweep(2048, 2);
    EXPECT_EQ(t.tlb.stats(0).refs, 4096u);
    EXPECT_EQ(t.tlb.stats(0).misses, 4u);
    EXPECT_EQ(t.tlb.stats(1).misses, 4u);
}

// The depth lookup() returns: 2 for a walk, 1 for a DTLB2 hit, 0 for DTLB1.
TEST(Tlb, LookupDepth) {
    TlbConfig c = two_level();
    c.level[0] = TlbLevelConfig{1, 1, 0};  // one entry
    T t(c);
    EXPECT_EQ(t.tlb.lookup(0x1000), 2u);
    EXPECT_EQ(t.tlb.lookup(0x1008), 0u);
    EXPECT_EQ(t.tlb.lookup(0x2000), 2u);
    EXPECT_EQ(t.tlb.lookup(0x1000), 1u);  // evicted from DTLB1, still in DTLB2
    TlbConfig one = two_level();
    one.levels = 1;
    T u(one);
    EXPECT_EQ(u.tlb.lookup(0x5000), 1u);
    EXPECT_EQ(u.tlb.lookup(0x5000), 0u);
}

TEST(Tlb, ValidationRules) {
    HierarchyConfig c;
    ASSERT_TRUE(machine_preset("desktop", c));
    ErrorText err;
    error_clear(err);
    c.tlb = two_level();
    EXPECT_TRUE(validate(c, err)) << err.text;
    c.tlb.level[1].entries = 1000;
    EXPECT_FALSE(validate(c, err));
    EXPECT_STREQ(err.text, "DTLB2: 1000 entries are not a multiple of the associativity 12");
    c.tlb = two_level(3000);
    EXPECT_FALSE(validate(c, err));
    EXPECT_STREQ(err.text, "TLB page size 3000 B is not a power of two between 4 KiB and 1 GiB");
    c.tlb = two_level();
    c.tlb.level[0].assoc = 0;
    EXPECT_FALSE(validate(c, err));
    EXPECT_STREQ(err.text, "DTLB1: associativity must be at least 1");
    HierarchyConfig cg;
    ASSERT_TRUE(machine_preset("cachegrind", cg));
    cg.tlb = two_level();
    EXPECT_FALSE(validate(cg, err));
    EXPECT_STREQ(err.text, "Cachegrind's model has no TLB; DTLB levels are not available with --machine=cachegrind");
}

// ---------------------------------------------------------------------------
// Options (docs/cache-config.md, "Prefetchers and TLBs")

TEST(TlbOptions, AddSetRemove) {
    HierarchyConfig c = ok({});
    EXPECT_EQ(c.tlb.levels, 0);
    c = ok({"--DTLB1=64,4", "--DTLB2=2048, 16", "--tlb-page=2M", "--page-walk-latency=40"});
    EXPECT_EQ(c.tlb.levels, 2);
    EXPECT_EQ(c.tlb.level[0].entries, 64u);
    EXPECT_EQ(c.tlb.level[0].assoc, 4u);
    EXPECT_EQ(c.tlb.level[0].latency, 0u);
    EXPECT_EQ(c.tlb.level[1].entries, 2048u);
    EXPECT_EQ(c.tlb.level[1].latency, 7u);
    EXPECT_EQ(c.tlb.page_size, 2ull << 20);
    EXPECT_EQ(c.tlb.walk_latency, 40u);
    c = ok({"--DTLB1=72,full", "--DTLB1-latency=1"});
    EXPECT_EQ(c.tlb.levels, 1);
    EXPECT_EQ(c.tlb.level[0].assoc, 72u);
    EXPECT_EQ(c.tlb.level[0].latency, 1u);
    EXPECT_EQ(c.tlb.walk_latency, 30u);  // default
    c = ok({"--DTLB1=64,4", "--DTLB2=1536,12", "--DTLB2=none"});
    EXPECT_EQ(c.tlb.levels, 1);
    c = ok({"--DTLB1=64,4", "--DTLB2=1536,12", "--DTLB1=none"});
    EXPECT_EQ(c.tlb.levels, 0);
    c = ok({}, "DTLB1 = 64,4\ntlb-page = 4KiB\n");
    EXPECT_EQ(c.tlb.levels, 1);
    EXPECT_EQ(c.tlb.page_size, 4096u);
}

TEST(TlbOptions, Errors) {
    EXPECT_EQ(option_error("--DTLB1=64"), "--DTLB1: '64' is not ENTRIES,ASSOC (e.g. 64,4 or 72,full) or none");
    EXPECT_EQ(option_error("--DTLB1=0,1"), "--DTLB1: '0,1' is not ENTRIES,ASSOC (e.g. 64,4 or 72,full) or none");
    EXPECT_EQ(option_error("--DTLB2=64,4,1"), "--DTLB2: '64,4,1' is not ENTRIES,ASSOC (e.g. 64,4 or 72,full) or none");
    EXPECT_EQ(option_error("--tlb-page=3K"),
              "--tlb-page: '3K' is not a page size (a power of two from 4K to 1G, e.g. 4K, 2M)");
    EXPECT_EQ(option_error("--tlb-page=2G"),
              "--tlb-page: '2G' is not a page size (a power of two from 4K to 1G, e.g. 4K, 2M)");
    EXPECT_EQ(option_error("--page-walk-latency=x"),
              "--page-walk-latency: 'x' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(fails({"--DTLB2=1536,12"}), "--DTLB2: cannot add DTLB2: there is no DTLB1");
    EXPECT_EQ(fails({"--DTLB2-latency=9"}), "--DTLB2-latency: there is no DTLB2 (the TLB has 0 levels)");
    EXPECT_EQ(fails({"--DTLB1=64,3"}), "DTLB1: 64 entries are not a multiple of the associativity 3");
    EXPECT_EQ(fails({"--DTLB1=64,0"}), "DTLB1: associativity must be at least 1");
    // At most 2^20 entries per level (kMaxTlbEntries).
    EXPECT_EQ(ok({"--DTLB1=1048576,16"}).tlb.level[0].entries, 1048576u);
    EXPECT_EQ(fails({"--DTLB1=1048592,16"}),
              "DTLB1: 1048592 entries are more than the 1048576 a TLB level may hold");
    EXPECT_EQ(fails({"--DTLB1=4294967295,full"}),
              "DTLB1: 4294967295 entries are more than the 1048576 a TLB level may hold");
    EXPECT_EQ(fails({"--machine=cachegrind", "--DTLB1=64,4"}),
              "Cachegrind's model has no TLB; DTLB levels are not available with --machine=cachegrind");
}
