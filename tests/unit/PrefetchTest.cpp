// Hardware prefetchers (cachesim/Prefetcher.h) alone and inside the
// CoherentMachine. Every expected count is derived by hand in the comment
// above it; 64 B lines, so a 4 KiB page holds 64 lines (blocks 64p .. 64p+63).
#include <gtest/gtest.h>

#include <vector>

#include "CoherentMachine.h"
#include "MachineConfig.h"
#include "Prefetcher.h"
#include "BuilderSupport.h"
#include "TestSupport.h"

using namespace ompsim;
using namespace ompsim::test;

namespace {

constexpr u64 kAll = ~0ull;
constexpr u64 kPc = 0x401000;

PrefetchConfig pf(u8 kinds, u32 degree = 1, u32 table = 256, u32 streams = 16) {
    return PrefetchConfig{kinds, degree, table, streams};
}

// L1 (unified, `l1_sets` x `l1_ways`) with the prefetcher under test, L2
// 4096 x 16 (4 MiB) without one: every line the tests touch stays in L2.
HierarchyConfig two_levels(PrefetchConfig p, u64 l1_sets = 64, u32 l1_ways = 8) {
    LevelConfig l1 = level(l1_sets, l1_ways);
    l1.prefetch = p;
    return hierarchy({l1, level(4096, 16)}, 1, false, 1);
}

struct M {
    CoherentMachine m;
    explicit M(const HierarchyConfig& c, u32 cores = 1) {
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(validate(c, err)) << err.text;
        EXPECT_TRUE(m.init(c, cores, kHeap, err)) << err.text;
    }
    ~M() { m.destroy(); }
    u32 read(u64 block, u64 pc = kPc, u32 core = 0) { return m.access(core, kRead, block, kAll, pc); }
    const LevelStats& l1(u32 core = 0) const { return m.stats(core, 0, false); }
    LevelStats l2() const { return m.total_stats(1, false); }
};

u64 misses(const LevelStats& s) { return s.misses[kRead] + s.misses[kWrite] + s.misses[kFetch]; }

// Reads every 8-byte word of blocks first, first+step, ... (count blocks):
// one line reference per word, as the tool makes for 8-byte loads.
void sweep(M& m, u64 first, int64_t step, u64 count) {
    for (u64 i = 0; i < count; ++i)
        for (int w = 0; w < 8; ++w) m.read(first + u64(int64_t(i) * step));
}

}  // namespace

// ---------------------------------------------------------------------------
// The prefetcher alone

// Tagged next-line of degree 3 proposes b+1..b+3, never past the page.
TEST(Prefetch, NextLineStaysInsideThePage) {
    Prefetcher p;
    p.clear();
    ASSERT_TRUE(p.init(pf(kPrefetchNextLine, 3), 6, kHeap));
    u64 out[kMaxPrefetchProposals];
    ASSERT_EQ(p.train(kPc, 64 * 5 + 10, out), 3u);
    EXPECT_EQ(out[0], 64u * 5 + 11);
    EXPECT_EQ(out[2], 64u * 5 + 13);
    ASSERT_EQ(p.train(kPc, 64 * 5 + 62, out), 1u);  // 63 only; 64 is the next page
    EXPECT_EQ(out[0], 64u * 5 + 63);
    EXPECT_EQ(p.train(kPc, 64 * 5 + 63, out), 0u);
    p.destroy();
}

// The stride table learns per PC: a second PC with another stride does not
// disturb the first; the stride is confirmed by the third event.
TEST(Prefetch, StrideTableIsPerPc) {
    Prefetcher p;
    p.clear();
    ASSERT_TRUE(p.init(pf(kPrefetchStride, 2), 6, kHeap));
    u64 out[kMaxPrefetchProposals];
    const u64 a = 0x1000, b = 0x2000;
    EXPECT_EQ(p.train(a, 1000, out), 0u);  // allocate
    EXPECT_EQ(p.train(b, 5000, out), 0u);
    EXPECT_EQ(p.train(a, 1003, out), 0u);  // stride 3 learnt
    EXPECT_EQ(p.train(b, 4999, out), 0u);  // stride -1 learnt
    ASSERT_EQ(p.train(a, 1006, out), 2u);  // confirmed: 1009, 1012
    EXPECT_EQ(out[0], 1009u);
    EXPECT_EQ(out[1], 1012u);
    ASSERT_EQ(p.train(b, 4998, out), 2u);  // 4997, 4996
    EXPECT_EQ(out[0], 4997u);
    EXPECT_EQ(out[1], 4996u);
    EXPECT_EQ(p.train(a, 1010, out), 0u);  // stride changes to 4: relearn
    p.destroy();
}

// ---------------------------------------------------------------------------
// Unit stride

// 16 pages read line by line (1024 blocks from block 64 x 100). Without a
// prefetcher every block misses L1 once: 1024. Tagged next-line: the first
// block of each page misses and proposes the next; every later block of
// the page is a prefetch hit that proposes the following one, up to block
// 63 of the page: 16 misses, 16 x 63 = 1008 prefetches issued, all useful.
TEST(Prefetch, UnitStrideNextLineMissesOncePerPage) {
    M off(two_levels(pf(0)));
    sweep(off, 6400, 1, 1024);
    EXPECT_EQ(misses(off.l1()), 1024u);

    M on(two_levels(pf(kPrefetchNextLine)));
    sweep(on, 6400, 1, 1024);
    EXPECT_EQ(misses(on.l1()), 16u);
    EXPECT_EQ(on.l1().prefetches_issued, 1008u);
    EXPECT_EQ(on.l1().prefetches_useful, 1008u);
    EXPECT_EQ(on.l1().prefetches_polluting, 0u);
    // Demand references are unchanged: 8 per block.
    EXPECT_EQ(on.l1().refs[kRead], 8u * 1024);
    // The prefetches reached L2 as prefetch requests, all missing there
    // (cold), and the demand misses as reads.
    EXPECT_EQ(on.l2().refs[kPrefetch], 1008u);
    EXPECT_EQ(on.l2().misses[kPrefetch], 1008u);
    EXPECT_EQ(on.l2().refs[kRead], 16u);
    EXPECT_EQ(on.m.memory_reads(), 1024u);
}

// The stream prefetcher needs two events in a page: the first allocates
// the page, the second sets the direction and proposes: 2 misses per page,
// 62 issued per page. Descending sweeps are detected the same way.
TEST(Prefetch, StreamTwoMissesPerPageBothDirections) {
    M up(two_levels(pf(kPrefetchStream)));
    sweep(up, 6400, 1, 1024);
    EXPECT_EQ(misses(up.l1()), 32u);
    EXPECT_EQ(up.l1().prefetches_issued, 16u * 62);
    EXPECT_EQ(up.l1().prefetches_useful, 16u * 62);

    M down(two_levels(pf(kPrefetchStream)));
    sweep(down, 6400 + 1023, -1, 1024);
    EXPECT_EQ(misses(down.l1()), 32u);
    EXPECT_EQ(down.l1().prefetches_useful, 16u * 62);
}

// The stride prefetcher on a unit-stride sweep: the first page needs three
// misses (allocate, learn, confirm: blocks 0, 1, 2), each later page one
// (its first block: the stride is already known, the proposal past the
// page end was suppressed). 3 + 15 = 18 misses; issued 61 + 15 x 63.
TEST(Prefetch, UnitStrideStrideAcrossPages) {
    M m(two_levels(pf(kPrefetchStride)));
    sweep(m, 6400, 1, 1024);
    EXPECT_EQ(misses(m.l1()), 18u);
    EXPECT_EQ(m.l1().prefetches_issued, 61u + 15 * 63);
    EXPECT_EQ(m.l1().prefetches_useful, 61u + 15 * 63);
}

// ---------------------------------------------------------------------------
// Constant stride of 2 lines (every other block): 32 references per page.

// Stride prefetcher: first page 3 misses (blocks 0, 2, 4), then the
// proposal 6, 8 ... 62 are all used (29 issued); each later page misses at
// its first block and prefetches its other 31. 8 pages: 3 + 7 = 10 misses,
// 29 + 7 x 31 = 246 issued and used.
TEST(Prefetch, ConstantStrideStridePrefetcher) {
    M m(two_levels(pf(kPrefetchStride)));
    sweep(m, 6400, 2, 8 * 32);
    EXPECT_EQ(misses(m.l1()), 10u);
    EXPECT_EQ(m.l1().prefetches_issued, 246u);
    EXPECT_EQ(m.l1().prefetches_useful, 246u);
}

// Next-line on the same trace proposes the odd block after every even
// one: nothing is saved (256 misses, as without a prefetcher) and none of
// the 256 prefetches is used. The L1 (64 sets x 8 ways = 512 lines) holds
// all 512 blocks, so none is evicted either.
TEST(Prefetch, ConstantStrideNextLineSavesNothing) {
    M m(two_levels(pf(kPrefetchNextLine)));
    sweep(m, 6400, 2, 8 * 32);
    EXPECT_EQ(misses(m.l1()), 256u);
    EXPECT_EQ(m.l1().prefetches_issued, 256u);
    EXPECT_EQ(m.l1().prefetches_useful, 0u);
    EXPECT_EQ(m.l1().prefetches_polluting, 0u);
}

// ---------------------------------------------------------------------------
// A random pointer chase: 400 nodes, each on an even block of a 1 MiB
// region (a random permutation), visited twice by one load instruction.
// Next-line proposes the odd neighbour of every node, which the chase never
// reads: 400 issued, none useful, and as many misses as without a
// prefetcher (400, the compulsory ones: L1 has 2048 sets of 8 ways, so the
// 800 lines never crowd a set).
TEST(Prefetch, RandomChaseSavesNothing) {
    std::vector<u64> nodes;
    u64 x = 88172645463325252ull;
    std::vector<bool> used(8192, false);
    while (nodes.size() < 400) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        u64 slot = x % 8192;
        if (used[slot]) continue;
        used[slot] = true;
        nodes.push_back(100000 + 2 * slot);
    }
    auto run = [&](u8 kinds) {
        M m(two_levels(pf(kinds), 2048, 8));
        for (int pass = 0; pass < 2; ++pass)
            for (u64 b : nodes) m.read(b, 0x400500);  // one load instruction
        return std::vector<u64>{misses(m.l1()), m.l1().prefetches_issued, m.l1().prefetches_useful};
    };
    std::vector<u64> off = run(0), next = run(kPrefetchNextLine);
    EXPECT_EQ(off[0], 400u);
    EXPECT_EQ(next[0], 400u);
    EXPECT_EQ(next[1], 400u);  // each miss proposes its odd neighbour
    EXPECT_EQ(next[2], 0u);
}

// ---------------------------------------------------------------------------
// Pollution: a fully associative 2-line L1 with next-line.
//  read 0:  miss, fill 0; prefetch 1 (MRU)          L1 = [1* 0]
//  read 10: miss, evict 0; prefetch 11 evicts 1*    L1 = [11* 10]  polluting 1
//  read 20: miss, evict 10; prefetch 21 evicts 11*  L1 = [21* 20]  polluting 2
//  read 21: prefetch hit (useful 1); prefetch 22 evicts 20   L1 = [22* 21]
TEST(Prefetch, UnusedPrefetchesEvictedArePolluting) {
    M m(two_levels(pf(kPrefetchNextLine), 1, 2));
    EXPECT_EQ(m.read(0) & kDepthMask, 2u);  // from memory
    EXPECT_EQ(m.read(10) & kDepthMask, 2u);
    EXPECT_EQ(m.read(20) & kDepthMask, 2u);
    EXPECT_EQ(m.l1().prefetches_polluting, 2u);
    u32 r = m.read(21);
    EXPECT_EQ(r & kDepthMask, 0u);
    EXPECT_TRUE(r & kPrefetchHit);
    EXPECT_EQ(m.l1().prefetches_issued, 4u);
    EXPECT_EQ(m.l1().prefetches_useful, 1u);
    EXPECT_EQ(m.l1().prefetches_polluting, 2u);
    // A second read of 21 is an ordinary hit.
    r = m.read(21);
    EXPECT_EQ(r, 0u);
    EXPECT_TRUE(m.m.contains(0, 0, false, 22, nullptr));
}

// An L2 prefetcher is trained by L1's misses (which are L2's demand
// references): an L2 stream prefetcher leaves L1's misses alone (1024) and
// cuts L2's to 2 per page.
TEST(Prefetch, SecondLevelStreamPrefetcher) {
    HierarchyConfig c = two_levels(pf(0));
    c.levels = 3;
    c.level[1] = level(1024, 16);
    c.level[1].prefetch = pf(kPrefetchStream, 4);
    c.level[2] = level(8192, 16);
    c.private_levels = 2;
    M m(c);
    sweep(m, 6400, 1, 1024);
    EXPECT_EQ(misses(m.l1()), 1024u);
    const LevelStats& l2 = m.m.stats(0, 1, false);
    EXPECT_EQ(l2.misses[kRead], 32u);
    EXPECT_EQ(l2.prefetches_useful, 16u * 62);
    // Degree 4: every prefetch hit proposes 4 blocks ahead, of which the
    // first three are present; all 62 other blocks of a page get fetched.
    EXPECT_EQ(l2.prefetches_issued, 16u * 62);
    LevelStats l3 = m.m.total_stats(2, false);
    EXPECT_EQ(l3.refs[kPrefetch], 16u * 62);
    EXPECT_EQ(l3.refs[kRead], 32u);
}

// Writes train too (a write-allocate miss), and a prefetched line written
// first is a useful prefetch that becomes dirty.
TEST(Prefetch, WritesTrainAndUsePrefetchedLines) {
    M m(two_levels(pf(kPrefetchNextLine)));
    EXPECT_EQ(m.m.access(0, kWrite, 500, kAll, kPc) & kDepthMask, 2u);
    u32 r = m.m.access(0, kWrite, 501, kAll, kPc);
    EXPECT_EQ(r & kDepthMask, 0u);
    EXPECT_TRUE(r & kPrefetchHit);
    bool dirty = false;
    EXPECT_TRUE(m.m.contains(0, 0, false, 501, &dirty));
    EXPECT_TRUE(dirty);
    EXPECT_TRUE(m.m.contains(0, 0, false, 502, &dirty));
    EXPECT_FALSE(dirty);
}

// Two cores: core 0 writes block 1 (Modified). Core 1's read of block 0
// misses and its next-line prefetcher fetches block 1 through the protocol:
// a cache-to-cache transfer that leaves both copies Shared. Core 1's read
// of block 1 is then a private hit on a prefetched line.
TEST(Prefetch, PrefetchesTakePartInCoherence) {
    HierarchyConfig c = two_levels(pf(kPrefetchNextLine));
    M m(c, 2);
    m.m.access(0, kWrite, 1, kAll, kPc);
    EXPECT_EQ(m.m.state(0, 1), 'M');
    m.m.access(1, kRead, 0, kAll, kPc);
    EXPECT_EQ(m.m.state(0, 1), 'S');
    EXPECT_EQ(m.m.state(1, 1), 'S');
    EXPECT_EQ(m.m.coherence(1, 0).c2c_in, 1u);
    u32 r = m.m.access(1, kRead, 1, kAll, kPc);
    EXPECT_EQ(r & kDepthMask, 0u);
    EXPECT_TRUE(r & kPrefetchHit);
    // Core 0 writing block 1 again invalidates core 1's copy as usual.
    m.m.access(0, kWrite, 1, kAll, kPc);
    EXPECT_EQ(m.m.state(1, 1), 'I');
}

// Instruction fetches: an I1 next-line prefetcher on a straight-line run
// of code behaves as on data.
TEST(Prefetch, InstructionSide) {
    HierarchyConfig c = two_levels(pf(0));
    c.split_l1 = true;
    c.i1 = level(64, 8);
    c.i1.prefetch = pf(kPrefetchNextLine);
    M m(c);
    for (u64 b = 6400; b < 6400 + 128; ++b) m.m.access(0, kFetch, b, kAll, b << 6);
    EXPECT_EQ(m.m.stats(0, 0, true).misses[kFetch], 2u);
    EXPECT_EQ(m.m.stats(0, 0, true).prefetches_useful, 126u);
}

// ---------------------------------------------------------------------------
// Configuration

TEST(Prefetch, ValidationRules) {
    HierarchyConfig c = two_levels(pf(kPrefetchNextLine));
    ErrorText err;
    error_clear(err);
    EXPECT_TRUE(validate(c, err)) << err.text;
    c.level[1].inclusion = Inclusion::Exclusive;
    c.level[1].prefetch = pf(kPrefetchStream);
    EXPECT_FALSE(validate(c, err));
    EXPECT_STREQ(err.text, "L2: a prefetcher needs a level that demand misses fill, not an exclusive (victim) level");
    c = two_levels(pf(kPrefetchNextLine, 65));
    EXPECT_FALSE(validate(c, err));
    EXPECT_STREQ(err.text, "L1: prefetch degree 65 is not between 1 and 64");
    c = two_levels(pf(kPrefetchStride, 1, 0));
    EXPECT_FALSE(validate(c, err));
    EXPECT_STREQ(err.text, "L1: stride prefetch table of 0 entries is not between 1 and 65536");
    HierarchyConfig cg;
    ASSERT_TRUE(machine_preset("cachegrind", cg));
    cg.level[0].prefetch = pf(kPrefetchNextLine);
    EXPECT_FALSE(validate(cg, err));
    EXPECT_STREQ(err.text, "D1: Cachegrind's model has no prefetcher; prefetching is not available with --machine=cachegrind");
}

// ---------------------------------------------------------------------------
// Options (docs/cache-config.md, "Prefetchers and TLBs")

TEST(PrefetchOptions, SetPerLevel) {
    HierarchyConfig c = ok({"--D1-prefetch=next-line,stride", "--L2-prefetch=Stream",
                            "--L2-prefetch-degree=4", "--D1-prefetch-table=64",
                            "--L2-prefetch-streams=32"});
    EXPECT_EQ(c.level[0].prefetch.kinds, kPrefetchNextLine | kPrefetchStride);
    EXPECT_EQ(c.level[0].prefetch.stride_entries, 64u);
    EXPECT_EQ(c.level[0].prefetch.degree, 1u);  // default
    EXPECT_EQ(c.i1.prefetch.kinds, 0u);
    EXPECT_EQ(c.level[1].prefetch.kinds, kPrefetchStream);
    EXPECT_EQ(c.level[1].prefetch.degree, 4u);
    EXPECT_EQ(c.level[1].prefetch.stream_entries, 32u);
    EXPECT_EQ(c.level[2].prefetch.kinds, 0u);
    // L1 on a split level addresses I1 and D1; none switches off.
    c = ok({"--L1-prefetch=next-line", "--D1-prefetch=none"});
    EXPECT_EQ(c.i1.prefetch.kinds, kPrefetchNextLine);
    EXPECT_EQ(c.level[0].prefetch.kinds, 0u);
    // From a configuration file.
    c = ok({}, "L3-prefetch = stride, stream\nL3-prefetch-table = 1024\n");
    EXPECT_EQ(c.level[2].prefetch.kinds, kPrefetchStride | kPrefetchStream);
    EXPECT_EQ(c.level[2].prefetch.stride_entries, 1024u);
}

TEST(PrefetchOptions, Errors) {
    EXPECT_EQ(option_error("--D1-prefetch=nextline"),
              "--D1-prefetch: 'nextline' is not none or a comma list of next-line, stride, stream");
    EXPECT_EQ(option_error("--D1-prefetch="),
              "--D1-prefetch: '' is not none or a comma list of next-line, stride, stream");
    EXPECT_EQ(option_error("--L2-prefetch-degree=0"),
              "--L2-prefetch-degree: '0' is not a prefetch degree (1 to 64 lines)");
    EXPECT_EQ(option_error("--L2-prefetch-degree=65"),
              "--L2-prefetch-degree: '65' is not a prefetch degree (1 to 64 lines)");
    EXPECT_EQ(option_error("--L2-prefetch-table=65537"),
              "--L2-prefetch-table: '65537' is not a number of stride table entries (1 to 65536)");
    EXPECT_EQ(option_error("--L2-prefetch-streams=-1"),
              "--L2-prefetch-streams: '-1' is not a number of streams (1 to 1024)");
    EXPECT_EQ(fails({"--L4-prefetch=stream"}), "--L4-prefetch: there is no L4 (the hierarchy has 3 levels)");
    EXPECT_EQ(fails({"--L3-inclusion=exclusive", "--L3-prefetch=stream"}),
              "L3: a prefetcher needs a level that demand misses fill, not an exclusive (victim) level");
    EXPECT_EQ(fails({"--machine=cachegrind", "--LL-prefetch=next-line"}),
              "LL: Cachegrind's model has no prefetcher; prefetching is not available with --machine=cachegrind");
}
