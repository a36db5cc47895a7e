// RangeMonitor: hand-derived cases, then randomised differential tests against
// the independent model in ReferenceMonitor.h, then a speed check.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "RangeMonitor.h"
#include "ReferenceMonitor.h"
#include "TestSupport.h"

using namespace ompsim;

namespace {

using test::kHeap;
using test::ReferenceMonitor;

MonitorConfig config(int levels, u32 lines = 0, u32 bins = 0, u32 slots = 0) {
    MonitorConfig c{};
    c.levels = levels;
    c.line_bits = 6;
    c.histogram_lines = lines;
    c.histogram_bins = bins;
    c.slots = slots;
    return c;
}

struct M {
    RangeMonitor m;
    explicit M(const MonitorConfig& c) {
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(m.init(c, kHeap, err)) << err.text;
    }
    ~M() { m.destroy(); }
    // Per-level figures derived from the depth histogram (kind 0 = read).
    u64 refs(u32 id, int kind, int level) const {
        u64 n = 0;
        for (int d = level; d <= m.levels(); ++d) n += m.served(id, kind, unsigned(d));
        return n;
    }
    u64 hits(u32 id, int kind, int level) const { return m.served(id, kind, unsigned(level)); }
    u64 misses(u32 id, int kind, int level) const { return refs(id, kind, level) - hits(id, kind, level); }
    u64 total(u32 id) const {
        u64 n = 0;
        for (int k = 0; k < 2; ++k)
            for (int d = 0; d <= m.levels(); ++d) n += m.served(id, k, unsigned(d));
        return n;
    }
    u64 bucket_total(u32 id, u32 b) const {
        u64 n = 0;
        for (int k = 0; k < 2; ++k)
            for (int d = 0; d <= m.levels(); ++d) n += m.bucket_served(id, b, k, unsigned(d));
        return n;
    }
};

}  // namespace

// ------------------------------------------------------------ hand-derived

TEST(Monitor, InitValidates) {
    RangeMonitor m;
    ErrorText err;
    const MonitorConfig bad[] = {config(0), config(5), config(2, 3), config(2, 2, 25),
                                 config(2, 0, kMonitorMaxBins + 1)};
    for (const MonitorConfig& c : bad) {
        error_clear(err);
        EXPECT_FALSE(m.init(c, kHeap, err));
        EXPECT_TRUE(err.set);
        m.destroy();
    }
    MonitorConfig c = config(2);
    c.line_bits = 1;
    error_clear(err);
    EXPECT_FALSE(m.init(c, kHeap, err));
    m.destroy();
}

TEST(Monitor, CountsPerLevel) {
    M t(config(3));
    RangeMonitor& m = t.m;
    u32 a = m.add_structure(false);
    EXPECT_EQ(a, 0u);
    ASSERT_TRUE(m.add_range(0x1000, 256, a));
    m.record(0x1000, kRead, 0, 1);   // L1 hit
    m.record(0x1040, kRead, 2, 1);   // missed L1, L2; L3 hit
    m.record(0x1080, kWrite, 3, 1);  // from memory
    m.record(0x10ff, kRead, 1, 1);   // L2 hit (last byte of the range)
    m.record(0x1100, kRead, 0, 1);   // just past the end: not ours
    m.record(0x0fff, kRead, 0, 1);   // just before
    m.record(0x1000, kFetch, 0, 1);  // not a data access: ignored
    m.record(0x1000, kWrite, 9, 1);  // depth beyond memory counts as memory
    EXPECT_EQ(t.refs(a, 0, 0), 3u);
    EXPECT_EQ(t.hits(a, 0, 0), 1u);
    EXPECT_EQ(t.misses(a, 0, 0), 2u);
    EXPECT_EQ(t.refs(a, 0, 1), 2u);
    EXPECT_EQ(t.hits(a, 0, 1), 1u);
    EXPECT_EQ(t.misses(a, 0, 1), 1u);
    EXPECT_EQ(t.refs(a, 0, 2), 1u);
    EXPECT_EQ(t.hits(a, 0, 2), 1u);
    EXPECT_EQ(t.misses(a, 0, 2), 0u);
    EXPECT_EQ(t.refs(a, 1, 0), 2u);
    EXPECT_EQ(t.misses(a, 1, 2), 2u);
    EXPECT_EQ(m.served(a, 1, 3), 2u);
    EXPECT_EQ(m.served(a, 2, 0), 0u);  // bad kind
    EXPECT_EQ(m.served(a, 0, 4), 0u);  // bad depth
    EXPECT_EQ(m.served(7, 0, 0), 0u);  // bad id
    EXPECT_EQ(m.threads_seen(a), 1u);
    EXPECT_EQ(m.thread_at(a, 0), 1u);
    EXPECT_EQ(m.served_thread(a, 0, 0, 0), 1u);
    EXPECT_EQ(m.buckets(a), 0u);  // static mode
}

TEST(Monitor, RejectsBadRanges) {
    M t(config(2));
    RangeMonitor& m = t.m;
    u32 a = m.add_structure(false);
    EXPECT_FALSE(m.add_range(0x1000, 0, a));
    EXPECT_FALSE(m.add_range(0x1000, 16, a + 1));
    EXPECT_FALSE(m.add_range(~u64(0) - 10, 100, a));
    EXPECT_FALSE(m.add_range(0, kMonitorMaxRangeSize, a));
    EXPECT_EQ(m.live_ranges(), 0u);
}

// A user range inside a global wins where they overlap; a newer automatic
// range does not beat it; a newer user range does. Once for a small global
// (page table) and once for a large one (big-range segments).
TEST(Monitor, UserRangePrecedence) {
    for (u64 gsize : {u64(0x1000), u64(0x400000)}) {
        M t(config(1));
        RangeMonitor& m = t.m;
        const u64 G = 0x100000;
        u32 g = m.add_structure(false);
        ASSERT_TRUE(m.add_range(G, gsize, g));
        u32 u = m.add_structure(true);
        ASSERT_TRUE(m.add_range(G + 0x400, 0x100, u));
        u32 a2 = m.add_structure(false);
        ASSERT_TRUE(m.add_range(G + 0x300, 0x300, a2));  // covers U, newer, automatic
        u32 u2 = m.add_structure(true);
        ASSERT_TRUE(m.add_range(G + 0x480, 0x100, u2));  // newer user, overlaps U's end

        auto hit = [&](u64 addr) { m.record(addr, kRead, 0, 1); };
        hit(G);          // g
        hit(G + 0x3ff);  // a2
        hit(G + 0x400);  // u
        hit(G + 0x47f);  // u
        hit(G + 0x480);  // u2
        hit(G + 0x57f);  // u2
        hit(G + 0x580);  // a2
        hit(G + 0x600);  // g
        hit(G + gsize - 1);  // g
        EXPECT_EQ(m.served(g, 0, 0), 3u) << gsize;
        EXPECT_EQ(m.served(a2, 0, 0), 2u) << gsize;
        EXPECT_EQ(m.served(u, 0, 0), 2u) << gsize;
        EXPECT_EQ(m.served(u2, 0, 0), 2u) << gsize;

        EXPECT_EQ(m.remove_range(G + 0x480, kAutomaticRanges), 0u);
        EXPECT_EQ(m.remove_range(G + 0x480, kUserRanges), 1u);
        hit(G + 0x480);  // u again
        hit(G + 0x500);  // a2
        EXPECT_EQ(m.served(u, 0, 0), 3u);
        EXPECT_EQ(m.served(a2, 0, 0), 3u);
        EXPECT_EQ(m.remove_range(G + 0x400), 1u);
        hit(G + 0x400);  // a2
        EXPECT_EQ(m.served(a2, 0, 0), 4u);
        EXPECT_EQ(m.served(u, 0, 0), 3u);
    }
}

// free() then a new block of another site at the same address: each access
// counted once, for whoever owns the address at the time.
TEST(Monitor, FreeAndReuseNotDoubleCounted) {
    M t(config(2, 1));
    RangeMonitor& m = t.m;
    const u64 X = 0x5000040;
    u32 h1 = m.add_structure(false), h2 = m.add_structure(false);
    ASSERT_TRUE(m.add_range(X, 64, h1));
    m.record(X + 8, kRead, 1, 1);
    EXPECT_EQ(m.remove_range(X, kAutomaticRanges), 1u);
    m.record(X + 8, kRead, 1, 1);  // freed: nobody's
    ASSERT_TRUE(m.add_range(X, 128, h2));
    m.record(X + 8, kRead, 1, 1);
    m.record(X + 100, kWrite, 0, 1);
    EXPECT_EQ(t.total(h1), 1u);
    EXPECT_EQ(t.total(h2), 2u);
    EXPECT_EQ(m.served(h1, 0, 1), 1u);
    EXPECT_EQ(m.served(h2, 0, 1), 1u);
    EXPECT_EQ(m.served(h2, 1, 0), 1u);
    EXPECT_EQ(m.remove_range(X), 1u);
    EXPECT_EQ(m.remove_range(X), 0u);
    EXPECT_EQ(m.live_ranges(), 0u);
}

// The ranges starting at an address, by class, in a page where others
// start before it, at the same offset and after it: what free() removes and
// what a heap block's resolution request finds (no table of blocks beside
// the monitor's own).
TEST(Monitor, RangesStartingAt) {
    M t(config(1));
    RangeMonitor& m = t.m;
    const u64 P = 0x11000;  // a page
    u32 a = m.add_structure(false), b = m.add_structure(false), c = m.add_structure(true);
    u32 d = m.add_structure(false), e = m.add_structure(false);
    ASSERT_TRUE(m.add_range(P - 0x80, 0x100, a));  // from the page before
    ASSERT_TRUE(m.add_range(P, 0x40, b));
    ASSERT_TRUE(m.add_range(P, 0x20, c));          // user, same start
    ASSERT_TRUE(m.add_range(P + 0x40, 0x40, d));
    ASSERT_TRUE(m.add_range(P + 0x40, 0x10, e));   // later, same start
    EXPECT_EQ(m.structure_starting_at(P - 0x80, kAutomaticRanges), a);
    EXPECT_EQ(m.structure_starting_at(P, kAutomaticRanges), b);
    EXPECT_EQ(m.structure_starting_at(P, kUserRanges), c);
    EXPECT_EQ(m.structure_starting_at(P, kAllRanges), c);  // a user range wins
    EXPECT_EQ(m.structure_starting_at(P + 0x40, kAutomaticRanges), e);  // the most recent
    EXPECT_EQ(m.structure_starting_at(P + 0x10, kAllRanges), kMonitorNoStructure);
    EXPECT_EQ(m.structure_starting_at(P + 0x1000, kAllRanges), kMonitorNoStructure);
    EXPECT_EQ(m.remove_range(P, kAutomaticRanges), 1u);
    EXPECT_EQ(m.structure_starting_at(P, kAutomaticRanges), kMonitorNoStructure);
    EXPECT_EQ(m.structure_starting_at(P, kAllRanges), c);
    EXPECT_EQ(m.remove_range(P + 0x40, kAutomaticRanges), 2u);
    EXPECT_EQ(m.remove_range(P - 0x80, kUserRanges), 0u);
    EXPECT_EQ(m.remove_range(P - 0x80), 1u);
    EXPECT_EQ(m.live_ranges(), 1u);
}

// An allocation site with 1000 live blocks is one structure; the histogram
// is over the offset inside each block.
TEST(Monitor, HeapSiteWithManyBlocksIsOneStructure) {
    M t(config(2, 1));  // buckets of one 64-byte line
    RangeMonitor& m = t.m;
    u32 site = m.add_structure(false);
    const u64 base = 0x20000000;
    for (u64 i = 0; i < 1000; ++i) ASSERT_TRUE(m.add_range(base + i * 272, 256, site));
    EXPECT_EQ(m.structures(), 1u);
    EXPECT_EQ(m.live_ranges(), 1000u);
    for (u64 i = 0; i < 1000; ++i) {
        m.record(base + i * 272, kRead, 1, 1);        // offset 0 -> bucket 0
        m.record(base + i * 272 + 200, kWrite, 0, 1);  // offset 200 -> bucket 3
        m.record(base + i * 272 + 260, kRead, 0, 1);   // the gap: nobody's
    }
    EXPECT_EQ(m.served(site, 0, 1), 1000u);
    EXPECT_EQ(m.served(site, 1, 0), 1000u);
    EXPECT_EQ(t.total(site), 2000u);
    EXPECT_EQ(m.buckets(site), 4u);
    EXPECT_EQ(m.bucket_bytes(site), 64u);
    EXPECT_EQ(m.bucket_served(site, 0, 0, 1), 1000u);
    EXPECT_EQ(m.bucket_served(site, 3, 1, 0), 1000u);
    EXPECT_EQ(t.bucket_total(site, 1) + t.bucket_total(site, 2), 0u);
    for (u64 i = 0; i < 1000; ++i) EXPECT_EQ(m.remove_range(base + i * 272), 1u);
    EXPECT_EQ(m.live_ranges(), 0u);
    m.record(base, kRead, 0, 1);
    EXPECT_EQ(t.total(site), 2000u);
}

// The paper's figure 3: a 100x100 REAL array in 25 equal portions, against
// buckets of 2 lines.
TEST(Monitor, BinsVersusLinesBuckets) {
    const u64 A = 0x600010;  // not line-aligned: offsets are from the start of A
    const u64 size = 100 * 100 * 4;
    {
        M t(config(1, 0, 25));
        RangeMonitor& m = t.m;
        u32 a = m.add_structure(true);
        ASSERT_TRUE(m.add_range(A, size, a));
        EXPECT_EQ(m.buckets(a), 25u);
        EXPECT_EQ(m.bins(a), 25u);
        EXPECT_EQ(m.bucket_bytes(a), 0u);
        m.record(A + 0, kRead, 1, 1);
        m.record(A + 1599, kRead, 1, 1);  // 1599 * 25 / 40000 = 0
        m.record(A + 1600, kRead, 1, 1);  // portion 1
        m.record(A + 20000, kWrite, 0, 1);  // portion 12
        m.record(A + 39999, kWrite, 1, 1);  // portion 24
        EXPECT_EQ(m.bucket_served(a, 0, 0, 1), 2u);
        EXPECT_EQ(m.bucket_served(a, 1, 0, 1), 1u);
        EXPECT_EQ(m.bucket_served(a, 12, 1, 0), 1u);
        EXPECT_EQ(m.bucket_served(a, 24, 1, 1), 1u);
        EXPECT_EQ(m.bucket_served(a, 25, 1, 1), 0u);
    }
    {
        M t(config(1, 2));  // 2 lines = 128 bytes
        RangeMonitor& m = t.m;
        u32 a = m.add_structure(true);
        ASSERT_TRUE(m.add_range(A, size, a));
        EXPECT_EQ(m.buckets(a), 313u);  // ceil(40000 / 128)
        EXPECT_EQ(m.bucket_bytes(a), 128u);
        EXPECT_EQ(m.bins(a), 0u);
        m.record(A + 1599, kRead, 1, 1);   // 1599 / 128 = 12
        m.record(A + 1600, kRead, 1, 1);   // 12
        m.record(A + 39999, kRead, 1, 1);  // 312
        EXPECT_EQ(m.bucket_served(a, 12, 0, 1), 2u);
        EXPECT_EQ(m.bucket_served(a, 312, 0, 1), 1u);
    }
    {
        // Bins of a heap site: each block is cut into N portions of its own.
        M t(config(1, 0, 10));
        RangeMonitor& m = t.m;
        u32 s = m.add_structure(false);
        ASSERT_TRUE(m.add_range(0x10000, 100, s));
        ASSERT_TRUE(m.add_range(0x20000, 1000, s));
        m.record(0x10000 + 50, kRead, 0, 1);  // 50 * 10 / 100 = 5
        m.record(0x20000 + 50, kRead, 0, 1);  // 50 * 10 / 1000 = 0
        EXPECT_EQ(m.bucket_served(s, 5, 0, 0), 1u);
        EXPECT_EQ(m.bucket_served(s, 0, 0, 0), 1u);
    }
}

// Bins of a range too big for 32-bit bin arithmetic ((size + 1) * N >= 2^32,
// narrow_to_bin()'s 64-bit path) and of one just inside it: bin b holds the
// offsets ceil(b * size / N) to ceil((b + 1) * size / N) - 1, so each bin's
// first and last byte count there and nowhere else.
TEST(Monitor, BinBoundsOfHugeAndLargeRanges) {
    for (u64 size : {(3ull << 30) + 7, (4ull << 30) / 26}) {
        const u64 n = 25, A = 0x100000000ull;
        M t(config(1, 0, u32(n)));
        RangeMonitor& m = t.m;
        u32 a = m.add_structure(true);
        ASSERT_TRUE(m.add_range(A, size, a));
        for (u64 b = 0; b < n; ++b) {
            u64 first = (b * size + n - 1) / n, end = ((b + 1) * size + n - 1) / n;
            m.record(A + first, kRead, 1, 1);
            m.record(A + end - 1, kRead, 1, 1);
            if (b > 0) m.record(A + first - 1, kWrite, 0, 1);  // the bin before's last byte
        }
        for (u32 b = 0; b < n; ++b) {
            EXPECT_EQ(m.bucket_served(a, b, 0, 1), 2u) << size << " bin " << b;
            EXPECT_EQ(m.bucket_served(a, b, 1, 0), b + 1 < n ? 1u : 0u) << size << " bin " << b;
        }
    }
}

// Ranges below 64 KiB find their bin at each access with a multiplication
// (RangeMonitor.cpp, bins_multiplier); larger ones cut the entry to a bin.
// Every offset of ranges on both sides of the boundary, for bin counts up
// to more bins than bytes, against floor(off * n / size).
TEST(Monitor, SmallRangeBinsAtEveryOffset) {
    for (u64 n : {1ull, 3ull, 25ull, 64ull, 1000ull, 65536ull}) {
        M t(config(1, 0, u32(n)));
        RangeMonitor& m = t.m;
        u64 at = 0x100000000ull;
        for (u64 size : {1ull, 2ull, 3ull, 48ull, 4095ull, 4097ull, 65535ull, 65536ull, 65537ull}) {
            u32 s = m.add_structure(true);
            ASSERT_TRUE(m.add_range(at, size, s));
            std::vector<u64> want(n, 0);
            for (u64 off = 0; off < size; ++off) {
                m.record(at + off, kRead, 0, 1);
                want[off * n / size]++;
            }
            for (u32 b = 0; b < n; ++b)
                ASSERT_EQ(m.bucket_served(s, b, 0, 0), want[b]) << "size " << size << " bins " << n << " bin " << b;
            at += (size + 0xffff) & ~0xffffull;
        }
    }
}

// Lines mode: the histogram grows with the largest block, and when a block
// needs more than kMonitorMaxBuckets buckets the bucket doubles and adjacent
// buckets fold.
TEST(Monitor, HistogramGrowsAndCoarsens) {
    M t(config(1, 1));
    RangeMonitor& m = t.m;
    u32 s = m.add_structure(false);
    ASSERT_TRUE(m.add_range(0x10000, 128, s));
    EXPECT_EQ(m.buckets(s), 2u);
    m.record(0x10000 + 64, kRead, 0, 1);
    ASSERT_TRUE(m.add_range(0x20000, 1024, s));
    EXPECT_EQ(m.buckets(s), 16u);
    EXPECT_EQ(m.bucket_served(s, 1, 0, 0), 1u);
    m.record(0x20000 + 1000, kRead, 0, 1);
    EXPECT_EQ(m.bucket_served(s, 15, 0, 0), 1u);
    // 2^16 lines fit exactly; one byte more doubles the bucket.
    const u64 big = u64(kMonitorMaxBuckets) * 64;
    ASSERT_TRUE(m.add_range(0x10000000, big, s));
    EXPECT_EQ(m.buckets(s), kMonitorMaxBuckets);
    EXPECT_EQ(m.bucket_bytes(s), 64u);
    m.record(0x10000000 + big - 1, kRead, 0, 1);
    ASSERT_TRUE(m.add_range(0x20000000, big + 1, s));
    EXPECT_EQ(m.bucket_bytes(s), 128u);
    EXPECT_EQ(m.buckets(s), kMonitorMaxBuckets / 2 + 1);
    EXPECT_EQ(m.bucket_served(s, 0, 0, 0), 1u);   // was bucket 1
    EXPECT_EQ(m.bucket_served(s, 7, 0, 0), 1u);   // was bucket 15
    EXPECT_EQ(m.bucket_served(s, kMonitorMaxBuckets / 2 - 1, 0, 0), 1u);
    u64 sum = 0;
    for (u32 b = 0; b < m.buckets(s); ++b) sum += t.bucket_total(s, b);
    EXPECT_EQ(sum, t.total(s));
    // A new resolution restarts the histogram (counters stay).
    EXPECT_FALSE(m.set_resolution(s, 3, 0));
    EXPECT_FALSE(m.set_resolution(s, 2, 2));
    ASSERT_TRUE(m.set_resolution(s, 0, 4));
    EXPECT_EQ(m.buckets(s), 4u);
    EXPECT_EQ(t.bucket_total(s, 0), 0u);
    EXPECT_EQ(t.total(s), 3u);
    ASSERT_TRUE(m.set_resolution(s, 0, 0));
    EXPECT_EQ(m.buckets(s), 0u);
}

TEST(Monitor, HistogramBucketsSumToTotals) {
    for (int mode = 0; mode < 2; ++mode) {
        M t(mode ? config(3, 0, 25) : config(3, 4));
        RangeMonitor& m = t.m;
        u32 g = m.add_structure(false), h = m.add_structure(false);
        ASSERT_TRUE(m.add_range(0x400000, 300000, g));  // big
        for (u64 i = 0; i < 50; ++i) ASSERT_TRUE(m.add_range(0x1000000 + i * 5000, 100 + i * 90, h));
        std::mt19937_64 rng(7);
        for (int i = 0; i < 200000; ++i) {
            u64 addr = (rng() & 1) ? 0x400000 + rng() % 300000 : 0x1000000 + rng() % 250000;
            m.record(addr, (rng() & 1) ? kWrite : kRead, unsigned(rng() % 4), u32(1 + rng() % 3));
        }
        for (u32 id : {g, h}) {
            for (int k = 0; k < 2; ++k) {
                for (unsigned d = 0; d <= 3; ++d) {
                    u64 sum = 0, th = 0;
                    for (u32 b = 0; b < m.buckets(id); ++b) sum += m.bucket_served(id, b, k, d);
                    for (u32 i = 0; i < m.threads_seen(id); ++i) th += m.served_thread(id, i, k, d);
                    EXPECT_EQ(sum, m.served(id, k, d)) << mode << " " << id;
                    EXPECT_EQ(th, m.served(id, k, d)) << mode << " " << id;
                    EXPECT_GT(sum, 0u);
                }
            }
        }
    }
}

// slots = 2: first come first served, but user-named structures rank before
// automatic ones, taking the slot of the newest counted automatic structure.
TEST(Monitor, Slots) {
    M t(config(1, 1, 0, 2));
    RangeMonitor& m = t.m;
    u32 a = m.add_structure(false), b = m.add_structure(false), c = m.add_structure(false);
    EXPECT_TRUE(m.counted(a));
    EXPECT_TRUE(m.counted(b));
    EXPECT_FALSE(m.counted(c));
    ASSERT_TRUE(m.add_range(0x1000, 64, a));
    ASSERT_TRUE(m.add_range(0x2000, 64, b));
    ASSERT_TRUE(m.add_range(0x3000, 64, c));
    for (u64 x : {0x1000, 0x2000, 0x3000}) m.record(x, kRead, 0, 1);
    EXPECT_EQ(t.total(a), 1u);
    EXPECT_EQ(t.total(b), 1u);
    EXPECT_EQ(t.total(c), 0u);
    EXPECT_EQ(m.buckets(c), 0u);
    u32 u = m.add_structure(true);  // takes b's slot; b's counts are dropped
    EXPECT_TRUE(m.counted(u));
    EXPECT_FALSE(m.counted(b));
    EXPECT_EQ(t.total(b), 0u);
    EXPECT_EQ(m.buckets(b), 0u);
    EXPECT_EQ(m.threads_seen(b), 0u);
    // An uncounted structure still owns its addresses (u's range under c's
    // does not get c's accesses: c wins there but is not counted).
    ASSERT_TRUE(m.add_range(0x2000, 64, u));
    m.record(0x2000, kRead, 0, 1);
    EXPECT_EQ(t.total(u), 1u);
    u32 v = m.add_structure(true);  // takes a's
    EXPECT_FALSE(m.counted(a));
    u32 w = m.add_structure(true);  // nothing left to take
    EXPECT_FALSE(m.counted(w));
    EXPECT_TRUE(m.counted(u));
    EXPECT_TRUE(m.counted(v));
    u32 d = m.add_structure(false);
    EXPECT_FALSE(m.counted(d));
    m.record(0x1000, kRead, 0, 1);
    EXPECT_EQ(t.total(a), 0u);
}

TEST(Monitor, PerThreadRows) {
    M t(config(2));
    RangeMonitor& m = t.m;
    u32 s = m.add_structure(false);
    ASSERT_TRUE(m.add_range(0x1000, 4096, s));
    m.prepare_thread(7);
    m.record(0x1000, kRead, 0, 7);
    m.prepare_thread(3);
    m.record(0x1000, kRead, 1, 3);
    m.record(0x1040, kRead, 1, 3);
    m.prepare_thread(7);
    m.record(0x1000, kWrite, 2, 7);
    ASSERT_EQ(m.threads_seen(s), 2u);
    EXPECT_EQ(m.thread_at(s, 0), 3u);
    EXPECT_EQ(m.thread_at(s, 1), 7u);
    EXPECT_EQ(m.served_thread(s, 0, 0, 1), 2u);
    EXPECT_EQ(m.served_thread(s, 1, 0, 0), 1u);
    EXPECT_EQ(m.served_thread(s, 1, 1, 2), 1u);
    EXPECT_EQ(m.thread_at(s, 2), kMonitorNoThread);
    EXPECT_FALSE(m.rows_starved());
    m.zero();
    EXPECT_EQ(m.threads_seen(s), 0u);
    EXPECT_EQ(t.total(s), 0u);
    m.record(0x1000, kRead, 0, 3);  // ranges survive zero()
    EXPECT_EQ(t.total(s), 1u);
}

// A thread switch empties every page slot the last thread filled, not only
// the one the new thread looks up first: the cache's entries carry the
// thread's row. Two pages 64 KiB apart (different slots), filled by thread
// 1; thread 2 then reads the second page first. Of its two references, none
// may land in thread 1's row.
TEST(Monitor, ThreadSwitchEmptiesEverySlot) {
    M t(config(1));
    RangeMonitor& m = t.m;
    u32 s = m.add_structure(false);
    ASSERT_TRUE(m.add_range(0x100000, 64, s));
    ASSERT_TRUE(m.add_range(0x110000, 64, s));
    m.prepare_thread(1);
    m.record(0x100000, kRead, 0, 1);
    m.record(0x110000, kRead, 0, 1);
    m.prepare_thread(2);
    m.record(0x110000, kRead, 1, 2);
    m.record(0x100000, kRead, 1, 2);
    ASSERT_EQ(m.threads_seen(s), 2u);
    EXPECT_EQ(m.served_thread(s, 0, 0, 0), 2u);  // thread 1: its two hits
    EXPECT_EQ(m.served_thread(s, 0, 0, 1), 0u);
    EXPECT_EQ(m.served_thread(s, 1, 0, 1), 2u);  // thread 2: both of its own
}

// A wide entry that covers an address its page's slot does not also goes
// into that slot (RangeMonitor::lookup()), once per page of a walk; the
// slot must then be emptied by a thread switch and by the range's removal,
// as the slots the slow path fills are.
TEST(Monitor, WideHitFillsSlotThatLeavesWithThreadAndRange) {
    M t(config(1));
    RangeMonitor& m = t.m;
    u32 s = m.add_structure(false);
    ASSERT_TRUE(m.add_range(0x100000, 1 << 20, s));  // 256 pages: big, one wide entry
    m.prepare_thread(1);
    m.set_current_thread(1);
    m.record_current(0x100000, kRead, 0);  // resolved: the wide entry
    m.record_current(0x105000, kRead, 0);  // page 5: its slot empty, the wide entry hits and fills it
    m.record_current(0x105008, kRead, 0);  // the slot hits
    m.prepare_thread(2);
    m.set_current_thread(2);
    m.record_current(0x105010, kRead, 1);  // thread 2's own row, not thread 1's entry in the slot
    ASSERT_EQ(m.threads_seen(s), 2u);
    EXPECT_EQ(m.served_thread(s, 0, 0, 0), 3u);
    EXPECT_EQ(m.served_thread(s, 0, 0, 1), 0u);
    EXPECT_EQ(m.served_thread(s, 1, 0, 1), 1u);
    EXPECT_EQ(m.remove_range(0x100000), 1u);
    m.record_current(0x105018, kRead, 1);  // no range there any more
    EXPECT_EQ(m.served(s, 0, 1), 1u);
}

// The tool's lookups in heap pages read the pages' shadows (mon::kGranules):
// a block that crosses into the next page is told there from its own start
// (its histogram's bin), a block's end inside a granule leaves the rest of
// the granule to nothing, and a block that overlaps another takes the
// shadow away for good, so that its removal cannot leave the other's
// granules empty.
TEST(Monitor, HeapPageShadowsTellCrossingBlocksEndsAndOverlaps) {
    M t(config(1, 0, 4));  // 4 bins: a 64-byte block's bin is its offset / 16
    RangeMonitor& m = t.m;
    const u64 p = 0x200000, q = p + 0x1000;
    u32 other = m.add_structure(false), cross = m.add_structure(false);
    for (u64 i = 1; i <= 4; ++i) {  // four entries each: the pages' lists go to heap blocks
        ASSERT_TRUE(m.add_range(p + 0x100 * i, 48, other));
        ASSERT_TRUE(m.add_range(q + 0x100 * i, i == 1 ? 40 : 48, other));
    }
    ASSERT_TRUE(m.add_range(q - 16, 64, cross));  // [q - 16, q + 48): 16 bytes in p's page, 48 in q's
    m.prepare_thread(1);
    m.set_current_thread(1);
    m.record_current(q + 0x200, kRead, 0);  // resolved the general way: q's page gets its hint
    m.record_current(q + 0x20, kRead, 0);   // offset 48 in the crossing block: bin 3
    EXPECT_EQ(m.bucket_served(cross, 3, 0, 0), 1u);
    EXPECT_EQ(m.bucket_served(cross, 2, 0, 0), 0u);
    m.record_current(q + 0x128, kRead, 0);  // just past the 40-byte block at q + 0x100: nothing
    m.record_current(q + 0x110, kRead, 0);  // inside it
    EXPECT_EQ(m.served(other, 0, 0), 2u);
    // An overlap inside the 40-byte block, then gone again.
    ASSERT_TRUE(m.add_range(q + 0x110, 16, cross));
    EXPECT_EQ(m.remove_range(q + 0x110), 1u);
    m.record_current(q + 0x118, kRead, 0);  // the 40-byte block's, as before
    EXPECT_EQ(m.served(other, 0, 0), 3u);
    EXPECT_EQ(m.served(cross, 0, 0), 1u);
}

// Three structures for the hot-path comparisons below: a big range, a
// small one, and a user range inside the big one.
static void add_three(RangeMonitor& m, u32 ids[3]) {
    ids[0] = m.add_structure(false);
    ids[1] = m.add_structure(false);
    ids[2] = m.add_structure(true);
    ASSERT_TRUE(m.add_range(0x100000, 1 << 20, ids[0]));   // big
    ASSERT_TRUE(m.add_range(0x300040, 4000, ids[1]));       // small
    ASSERT_TRUE(m.add_range(0x180000, 100000, ids[2]));     // user, inside the big one
}

// Reference i of the comparisons' stream: random in the big range, random
// around the small one, and a strided walk.
static u64 mixed_address(int i, std::mt19937_64& rng) {
    return i % 3 == 0 ? 0x100000 + rng() % (1 << 20)
         : i % 3 == 1 ? 0x300000 + rng() % 8192
                      : 0x100000 + (u64(i) * 72) % (1 << 20);
}

// Every count, per-thread row and histogram bucket of the three structures
// of `a` and `b` are equal.
static void expect_same_counts(const M& a, const u32 x3[3], const M& b, const u32 y3[3]) {
    for (int j = 0; j < 3; ++j) {
        u32 x = x3[j], y = y3[j];
        EXPECT_GT(a.total(x), 0u);
        ASSERT_EQ(a.m.buckets(x), b.m.buckets(y));
        for (int k = 0; k < 2; ++k)
            for (unsigned d = 0; d <= 2; ++d) {
                EXPECT_EQ(a.m.served(x, k, d), b.m.served(y, k, d));
                for (u32 t = 0; t < a.m.threads_seen(x); ++t)
                    EXPECT_EQ(a.m.served_thread(x, t, k, d), b.m.served_thread(y, t, k, d));
                for (u32 bk = 0; bk < a.m.buckets(x); ++bk)
                    EXPECT_EQ(a.m.bucket_served(x, bk, k, d), b.m.bucket_served(y, bk, k, d));
            }
    }
}

// The tool's hot path: record_current() after set_current_thread() counts
// exactly what record() with that thread counts, across thread changes,
// big and small ranges, and a 25-bin histogram.
TEST(Monitor, RecordCurrentEqualsRecord) {
    M a(config(2, 0, 25)), b(config(2, 0, 25));
    u32 ids[2][3];
    add_three(a.m, ids[0]);
    add_three(b.m, ids[1]);
    std::mt19937_64 rng(7);
    u32 thread = 1;
    b.m.set_current_thread(thread);
    for (int i = 0; i < 200000; ++i) {
        if (i % 5000 == 0) {
            thread = 1 + u32(rng() % 3);
            a.m.prepare_thread(thread);
            b.m.prepare_thread(thread);
            b.m.set_current_thread(thread);
        }
        u64 addr = mixed_address(i, rng);
        AccessKind kind = rng() & 1 ? kRead : kWrite;
        unsigned depth = unsigned(rng() % 3);
        a.m.record(addr, kind, depth, thread);
        b.m.record_current(addr, kind, depth);
    }
    expect_same_counts(a, ids[0], b, ids[1]);
    for (u32 x : ids[0]) EXPECT_EQ(a.m.buckets(x), 25u);
}

// The miss worker's way (vgtool/MissWorker.h): locate_current() names the
// counters of a reference whose depth comes later, and the depth's counter
// is incremented up to 300 references afterwards (the worker lags). Counts
// equal record_current()'s, with a 25-bin histogram, in lines mode, and
// across thread changes (each of which waits for the lagging increments, as
// the tool's sync() does before the thread changes).
static void locate_matches_record(const MonitorConfig& cfg) {
    M a(cfg), b(cfg);
    u32 ids[2][3];
    add_three(a.m, ids[0]);
    add_three(b.m, ids[1]);
    struct Late {
        u64* row;
        u64* hist;
        unsigned depth;
    };
    std::vector<Late> late;
    auto drain = [&](size_t keep) {
        while (late.size() > keep) {
            Late l = late.front();
            late.erase(late.begin());
            ++l.row[l.depth];
            if (l.hist) ++l.hist[l.depth];
        }
    };
    std::mt19937_64 rng(11);
    u32 thread = 1;
    a.m.set_current_thread(thread);
    b.m.set_current_thread(thread);
    size_t lag = 0;
    u64 located = 0;
    for (int i = 0; i < 200000; ++i) {
        if (i % 5000 == 0) {
            drain(0);
            thread = 1 + u32(rng() % 3);
            for (M* x : {&a, &b}) {
                x->m.prepare_thread(thread);
                x->m.set_current_thread(thread);
            }
            lag = rng() % 301;
        }
        u64 addr = mixed_address(i, rng);
        AccessKind kind = rng() & 1 ? kRead : kWrite;
        unsigned depth = unsigned(rng() % 3);
        a.m.record_current(addr, kind, depth);
        u64 *row = nullptr, *hist = nullptr;
        if (b.m.locate_current(addr, kind, &row, &hist)) {
            late.push_back(Late{row, hist, depth});
            ++located;
        }
        drain(lag);
    }
    drain(0);
    EXPECT_GT(located, 100000u);
    expect_same_counts(a, ids[0], b, ids[1]);
}

TEST(Monitor, LocateThenCountLaterEqualsRecord) {
    locate_matches_record(config(2, 0, 25));
    locate_matches_record(config(2, 4, 0));
}

// add_moves_counters() says beforehand when add_range() moves a
// structure's counters (the tool then waits for the miss worker): in lines
// mode a histogram grows with bigger blocks, by doubling and by coarser
// buckets; bins mode and static mode never move them.
TEST(Monitor, AddMovesCountersPredictsMoves) {
    for (int mode = 0; mode < 3; ++mode) {
        M m(mode == 0 ? config(2, 1, 0) : mode == 1 ? config(2, 0, 25) : config(2));
        u32 id = m.m.add_structure(false);
        ASSERT_TRUE(m.m.add_range(0x1000000, 256, id));
        m.m.set_current_thread(1);
        std::mt19937_64 rng(3);
        u32 moves = 0;
        u64 lo = 0x2000000;
        for (int i = 0; i < 300; ++i) {
            u64 size = 64 + rng() % (u64(64) << (i / 20));  // blocks growing over time
            u64 *row0, *hist0, *row1, *hist1;
            ASSERT_TRUE(m.m.locate_current(0x1000000 + 64, kRead, &row0, &hist0));
            bool predicted = m.m.add_moves_counters(id, size);
            ASSERT_TRUE(m.m.add_range(lo, size, id));
            lo += size + 4096;
            ASSERT_TRUE(m.m.locate_current(0x1000000 + 64, kRead, &row1, &hist1));
            EXPECT_EQ(row0, row1);
            EXPECT_EQ(predicted, hist0 != hist1) << "mode " << mode << " block " << i << " of " << size;
            moves += predicted;
        }
        if (mode == 0)
            EXPECT_GT(moves, 3u);
        else
            EXPECT_EQ(moves, 0u);
    }
}

// Without prepare_thread() between threads the pool can run dry: the
// accesses then go to the kMonitorNoThread row, and totals stay exact.
TEST(Monitor, RowPoolStarvation) {
    M t(config(1));
    RangeMonitor& m = t.m;
    u32 s = m.add_structure(false);
    ASSERT_TRUE(m.add_range(0x1000, 64, s));
    for (u32 th = 1; th <= 500; ++th) m.record(0x1000, kRead, 0, th);
    EXPECT_TRUE(m.rows_starved());
    u32 n = m.threads_seen(s);
    ASSERT_GT(n, 1u);
    EXPECT_LT(n, 501u);
    EXPECT_EQ(m.thread_at(s, n - 1), kMonitorNoThread);
    u64 sum = 0;
    for (u32 i = 0; i < n; ++i) sum += m.served_thread(s, i, 0, 0);
    EXPECT_EQ(sum, 500u);
    EXPECT_EQ(m.served(s, 0, 0), 500u);
    // Refilled: the next new thread gets its own row again.
    m.prepare_thread(501);
    m.record(0x1000, kRead, 0, 501);
    EXPECT_EQ(m.threads_seen(s), n + 1);
    EXPECT_EQ(m.thread_at(s, n - 1), 501u);
}

TEST(Monitor, RemoveRangesIn) {
    M t(config(1));
    RangeMonitor& m = t.m;
    u32 s = m.add_structure(false), u = m.add_structure(true);
    ASSERT_TRUE(m.add_range(0x10000, 100, s));
    ASSERT_TRUE(m.add_range(0x10f00, 0x200, s));   // straddles the start of the unmapped region
    ASSERT_TRUE(m.add_range(0x11800, 0x10, u));
    ASSERT_TRUE(m.add_range(0x100000, 0x200000, s));  // big, overlaps the end
    ASSERT_TRUE(m.add_range(0x400000, 0x10, s));
    EXPECT_EQ(m.remove_ranges_in(0x11000, 0x100000 - 0x11000 + 1), 3u);
    EXPECT_EQ(m.live_ranges(), 2u);
    m.record(0x10000, kRead, 0, 1);
    m.record(0x10f00, kRead, 0, 1);
    m.record(0x100000, kRead, 0, 1);
    m.record(0x400000, kRead, 0, 1);
    EXPECT_EQ(t.total(s), 2u);
    // A region larger than the page table: scanned by slot.
    EXPECT_EQ(m.remove_ranges_in(0, u64(1) << 40), 2u);
    EXPECT_EQ(m.live_ranges(), 0u);
}

// Big ranges (more than 16 pages) with every kind of overlap.
TEST(Monitor, OverlappingBigRanges) {
    M t(config(1));
    RangeMonitor& m = t.m;
    u32 a = m.add_structure(false), b = m.add_structure(false), u = m.add_structure(true);
    ASSERT_TRUE(m.add_range(0x1000000, 0x100000, a));
    ASSERT_TRUE(m.add_range(0x1080000, 0x100000, b));  // newer: wins on the overlap
    ASSERT_TRUE(m.add_range(0x0f00000, 0x400000, u));  // user: covers both
    m.record(0x1000000, kRead, 0, 1);
    EXPECT_EQ(t.total(u), 1u);
    EXPECT_EQ(m.remove_range(0x0f00000), 1u);
    m.record(0x1000000, kRead, 0, 1);
    m.record(0x1080000, kRead, 0, 1);
    m.record(0x10fffff, kRead, 0, 1);
    m.record(0x1100000, kRead, 0, 1);
    EXPECT_EQ(t.total(a), 1u);
    EXPECT_EQ(t.total(b), 3u);
    EXPECT_EQ(m.remove_range(0x1080000), 1u);
    m.record(0x10fffff, kRead, 0, 1);
    m.record(0x1100000, kRead, 0, 1);
    EXPECT_EQ(t.total(a), 2u);
    EXPECT_EQ(t.total(b), 3u);
}

// ------------------------------------------------------------ differential

namespace {

struct Trace {
    u64 seed;
    int levels;
    u32 lines, bins, slots;
    bool heap = false;  // small disjoint blocks packed into 4 pages, as a heap
    // Reads and writes through record_current() or locate_current() (the
    // tool's ways, with their page-list shortcuts) instead of record().
    bool current = false;
    // Heap: 1 in this many blocks starts inside a granule (0: none), and
    // 1 in this many that would overlap another is added all the same (0:
    // none). Either takes the page's shadow away (mon::kGranules).
    u32 odd_start = 30;
    u32 overlap = 0;
};

void compare(const RangeMonitor& m, const ReferenceMonitor& r, const char* when) {
    ASSERT_EQ(m.structures(), r.structures()) << when;
    ASSERT_EQ(m.live_ranges(), r.live_ranges()) << when;
    int L = m.levels();
    for (u32 id = 0; id < r.structures(); ++id) {
        ASSERT_EQ(m.counted(id), r.counted(id)) << when << " id " << id;
        for (int k = 0; k < 2; ++k)
            for (int d = 0; d <= L; ++d)
                ASSERT_EQ(m.served(id, k, unsigned(d)), r.served(id, k, unsigned(d)))
                    << when << " id " << id << " kind " << k << " depth " << d;
        std::vector<u32> th = r.threads(id);
        ASSERT_EQ(m.threads_seen(id), th.size()) << when << " id " << id;
        for (u32 i = 0; i < th.size(); ++i) {
            ASSERT_EQ(m.thread_at(id, i), th[i]) << when;
            for (int k = 0; k < 2; ++k)
                for (int d = 0; d <= L; ++d)
                    ASSERT_EQ(m.served_thread(id, i, k, unsigned(d)),
                              r.served_thread(id, th[i], k, unsigned(d)))
                        << when << " id " << id << " thread " << th[i];
        }
        ASSERT_EQ(m.buckets(id), r.buckets(id)) << when << " id " << id;
        ASSERT_EQ(m.bucket_bytes(id), r.bucket_bytes(id)) << when << " id " << id;
        std::vector<u64> h = r.histogram(id);
        size_t i = 0;
        for (u32 b = 0; b < r.buckets(id); ++b)
            for (int k = 0; k < 2; ++k)
                for (int d = 0; d <= L; ++d, ++i)
                    if (m.bucket_served(id, b, k, unsigned(d)) != h[i]) {
                        ASSERT_EQ(m.bucket_served(id, b, k, unsigned(d)), h[i])
                            << when << " id " << id << " bucket " << b;
                    }
        // Spot-check the one-at-a-time reference query too.
        if (r.buckets(id)) {
            u32 b = r.buckets(id) / 2;
            ASSERT_EQ(m.bucket_served(id, b, 0, 0), r.bucket_served(id, b, 0, 0)) << when;
        }
    }
}

void run_trace(const Trace& tr, int ops) {
    std::mt19937_64 rng(tr.seed);
    auto below = [&](u64 n) { return n ? rng() % n : 0; };
    MonitorConfig c = config(tr.levels, tr.lines, tr.bins, tr.slots);
    M t(c);
    RangeMonitor& m = t.m;
    if (tr.current) m.set_current_thread(1);
    ReferenceMonitor ref(tr.levels, c.line_bits, tr.lines, tr.bins, tr.slots);
    const u64 arena = 0x40000000, span = 8ull << 20;
    u32 thread = 1;
    for (int i = 0; i < 4; ++i) {
        bool user = below(4) == 0;
        ASSERT_EQ(m.add_structure(user), ref.add_structure(user));
    }
    for (int op = 0; op < ops; ++op) {
        u64 dice = below(1000);
        if (dice < 15) {
            bool user = below(3) == 0;
            ASSERT_EQ(m.add_structure(user), ref.add_structure(user));
        } else if (dice < 20) {
            u32 id = u32(below(ref.structures()));
            u32 lines = 0, bins = 0;
            switch (below(4)) {
                case 0: lines = 1u << below(4); break;
                case 1: bins = u32(1 + below(40)); break;
                case 2: break;
                default: lines = 3; bins = 0; break;  // rejected
            }
            ASSERT_EQ(m.set_resolution(id, lines, bins), ref.set_resolution(id, lines, bins));
        } else if (dice < 150) {
            u32 id = u32(below(ref.structures()));
            if (tr.heap) {
                // Now and then a big range over the 4 pages and beyond, which
                // the small blocks' pages must then not take as free of big
                // ranges (RangeMonitor::fill_in_page()).
                if (below(40) == 0) {
                    u64 lo = arena - 4096 * below(8) - below(4096), size = (80 << 10) + below(64 << 10);
                    ASSERT_EQ(m.add_range(lo, size, id), ref.add_range(lo, size, id));
                    continue;
                }
                // 16-byte granules over 4 pages, blocks of 1 to 64 bytes
                // that never overlap: the pages hold dozens of ranges each
                // and are searched by start offset (Page::inl_off/heap).
                // Half end inside a granule, and 1 in 30 starts inside one,
                // which takes the page's shadow away (mon::kGranules).
                u64 lo = arena + 16 * below(1024), size = 16 * (1 + below(4));
                if (below(2)) size -= below(16);
                if (tr.odd_start && below(tr.odd_start) == 0) lo += 1 + below(15);
                bool clash = false;
                for (auto& l : ref.live())
                    clash = clash || (l.second - l.first < 4096 && lo < l.second && l.first < lo + size);
                if (clash && tr.overlap && below(tr.overlap) == 0) clash = false;
                if (!clash) {
                    ASSERT_EQ(m.add_range(lo, size, id), ref.add_range(lo, size, id));
                }
                continue;
            }
            u64 size;
            u64 kind = below(100);
            if (kind < 70) size = 1 + below(4096);
            else if (kind < 90) size = 1 + below(80 << 10);
            else if (kind < 98) size = (64 << 10) + below(2 << 20);
            else size = (4 << 20) + below(4 << 20);  // > 2^16 lines: coarser buckets
            u64 lo;
            auto live = ref.live();
            if (!live.empty() && below(5) == 0) {
                auto& l = live[below(live.size())];
                lo = below(2) ? l.first : l.first + below(l.second - l.first);  // same start / inside
            } else {
                lo = arena + below(span);
            }
            ASSERT_EQ(m.add_range(lo, size, id), ref.add_range(lo, size, id));
        } else if (dice < 230) {
            auto live = ref.live();
            u64 lo = live.empty() || below(10) == 0 ? arena + below(span) : live[below(live.size())].first;
            MonitorRangeClass which = MonitorRangeClass(1 + below(3));
            ASSERT_EQ(m.remove_range(lo, which), ref.remove_range(lo, which));
        } else if (dice < 240) {
            u64 lo = arena + below(span), size = below(4) ? 1 + below(64 << 10) : below(4 << 20);
            ASSERT_EQ(m.remove_ranges_in(lo, size), ref.remove_ranges_in(lo, size));
        } else if (dice < 243) {
            m.zero();
            ref.zero();
        } else if (dice < 246) {
            compare(m, ref, "mid");
            if (::testing::Test::HasFatalFailure()) return;
        } else {
            // A burst of accesses: a scan through one range, or random
            // addresses near ranges, or anywhere, or two ranges walked side
            // by side up to and past their ends (memcpy's source and
            // destination: the last-hit cache's wide entries alternate).
            if (below(8) == 0) {
                thread = u32(1 + below(6));
                m.prepare_thread(thread);
                if (tr.current) m.set_current_thread(thread);
            }
            auto live = ref.live();
            int n = int(1 + below(64));
            u64 pos = arena + below(span);
            u64 style = below(4);
            if (!live.empty() && style != 2) {
                auto& l = live[below(live.size())];
                pos = l.first - below(64) + below(l.second - l.first + 64);
            }
            u64 pos2 = pos, step = 1 + below(128);
            if (style == 3 && !live.empty()) {
                auto& l = live[below(live.size())];
                u64 len = l.second - l.first;
                pos2 = l.first + (below(2) ? below(len) : len - (len < 4096 ? len : below(4096)));
                n = int(32 + below(224));
            }
            for (int i = 0; i < n; ++i) {
                u64 addr;
                if (style == 0) addr = pos + u64(i) * (1 + below(128));
                else if (style == 3) addr = (i & 1 ? pos2 : pos) + u64(i / 2) * step;
                else if (style == 1 && !live.empty()) {
                    auto& l = live[below(live.size())];
                    addr = l.first - below(16) + below(l.second - l.first + 16);
                } else addr = arena + below(span);
                AccessKind k = below(20) == 0 ? kFetch : (below(3) == 0 ? kWrite : kRead);
                unsigned d = unsigned(below(u64(tr.levels) + 2));  // levels+1 is clamped
                if (tr.current && k != kFetch) {
                    if (d > unsigned(tr.levels)) d = unsigned(tr.levels);
                    u64 *row = nullptr, *hist = nullptr;
                    if (below(2)) {
                        m.record_current(addr, k, d);
                    } else if (m.locate_current(addr, k, &row, &hist)) {  // the miss worker's way
                        ++row[d];
                        if (hist) ++hist[d];
                    }
                } else {
                    m.record(addr, k, d, thread);
                }
                ref.record(addr, k, d, thread);
            }
        }
    }
    compare(m, ref, "end");
    EXPECT_FALSE(m.rows_starved());
}

}  // namespace

TEST(MonitorDifferential, StaticUnlimited) {
    for (u64 s = 1; s <= 6; ++s) {
        run_trace(Trace{s, int(1 + s % 4), 0, 0, 0}, 4000);
        if (HasFatalFailure()) return;
    }
}

TEST(MonitorDifferential, Lines) {
    for (u64 s = 11; s <= 16; ++s) {
        run_trace(Trace{s, int(1 + s % 4), u32(1) << (s % 3), 0, 0}, 4000);
        if (HasFatalFailure()) return;
    }
}

TEST(MonitorDifferential, Bins) {
    for (u64 s = 21; s <= 26; ++s) {
        run_trace(Trace{s, int(1 + s % 4), 0, s % 2 ? 25u : 7u, 0}, 4000);
        if (HasFatalFailure()) return;
    }
}

// A heap's pages: up to 256 blocks per page, added and freed in random
// order, so pages move between the inline and the heap id lists.
TEST(MonitorDifferential, DenseSmallBlocks) {
    for (u64 s = 41; s <= 46; ++s) {
        Trace tr{s, int(1 + s % 4), 0, s % 3 == 0 ? 25u : 0u, 0};
        tr.heap = true;
        run_trace(tr, 20000);
        if (HasFatalFailure()) return;
    }
}

// The tool's way of counting, record_current(), on both kinds of trace.
TEST(MonitorDifferential, CurrentThread) {
    for (u64 s = 51; s <= 56; ++s) {
        Trace tr{s, int(1 + s % 4), s % 3 == 1 ? 4u : 0u, s % 3 == 2 ? 25u : 0u, 0};
        tr.current = true;
        tr.heap = s % 2 == 0;
        run_trace(tr, tr.heap ? 20000 : 4000);
        if (HasFatalFailure()) return;
    }
}

// The tool's way on heap pages only: the pages' shadows (granule by
// granule, blocks crossing into the next page, ends inside a granule) and
// the lists where a shadow was dropped: with no block that takes it away,
// with rare ones starting inside a granule, with rare overlaps.
TEST(MonitorDifferential, CurrentThreadHeapPages) {
    for (u64 s = 61; s <= 69; ++s) {
        Trace tr{s, int(1 + s % 4), s % 3 == 1 ? 1u : 0u, s % 3 == 2 ? 25u : 0u, 0};
        tr.current = true;
        tr.heap = true;
        tr.odd_start = s <= 63 ? 0 : s <= 66 ? 400 : 0;
        tr.overlap = s >= 67 ? 200 : 0;
        run_trace(tr, 20000);
        if (HasFatalFailure()) return;
    }
}

TEST(MonitorDifferential, Slots) {
    for (u64 s = 31; s <= 36; ++s) {
        run_trace(Trace{s, 2, s % 2 ? 2u : 0u, 0, u32(2 + s % 5)}, 4000);
        if (HasFatalFailure()) return;
    }
}

// ------------------------------------------------------------ speed

namespace {

template <class F>
double ns_per(u64 n, F f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n);
}

}  // namespace

// record() must stay a few ns for unmonitored memory and last-hit-cache hits.
// The bounds are loose (slow CI machines, sanitizers); the figures are
// printed for docs/monitor.md.
TEST(Monitor, Speed) {
    M t(config(3, 0, 0));
    RangeMonitor& m = t.m;
    // A realistic population: 200 globals, one big array, 20000 heap blocks.
    u32 g = m.add_structure(false);
    for (u64 i = 0; i < 200; ++i) m.add_range(0x600000 + i * 256, 200, g);
    u32 arr = m.add_structure(false);
    m.add_range(0x10000000, 64 << 20, arr);
    u32 h = m.add_structure(false);
    for (u64 i = 0; i < 20000; ++i) m.add_range(0x40000000 + i * 96, 80, h);
    m.prepare_thread(1);

    const u64 N = 20000000;
    // Unmonitored (a stack page), hitting the last-hit cache.
    double unmon = ns_per(N, [&] {
        for (u64 i = 0; i < N; ++i) m.record(0x7ff000000 + ((i * 8) & 4095), kRead, 0, 1);
    });
    // Unmonitored, a new page every access (always the slow lookup).
    double unmon_far = ns_per(N / 10, [&] {
        for (u64 i = 0; i < N / 10; ++i) m.record(0x200000000 + (i << 12), kRead, 0, 1);
    });
    // Monitored, hitting the last-hit cache (static and lines mode).
    double hit = ns_per(N, [&] {
        for (u64 i = 0; i < N; ++i) m.record(0x10000000 + ((i * 8) & 4095), kRead, i & 3, 1);
    });
    ASSERT_TRUE(m.set_resolution(arr, 1, 0));
    double hit_hist = ns_per(N, [&] {
        for (u64 i = 0; i < N; ++i) m.record(0x10000000 + ((i * 8) & 4095), kRead, i & 3, 1);
    });
    // Monitored, other: every access a different heap block (never cached).
    double other = ns_per(N / 10, [&] {
        for (u64 i = 0; i < N / 10; ++i)
            m.record(0x40000000 + ((i * 7919) % 20000) * 96 + 8, kWrite, 1, 1);
    });
    // Monitored, streaming through the big array: a lookup per 4 KiB page.
    double stream = ns_per(N, [&] {
        for (u64 i = 0; i < N; ++i) m.record(0x10000000 + ((i * 64) & ((64 << 20) - 1)), kRead, 1, 1);
    });
    std::printf("record(): unmonitored cached %.2f ns, unmonitored new page %.2f ns, "
                "monitored cached %.2f ns (histogram %.2f ns), monitored other %.2f ns, "
                "streaming %.2f ns\n",
                unmon, unmon_far, hit, hit_hist, other, stream);
    EXPECT_EQ(t.total(arr), 3 * N);
    EXPECT_EQ(t.total(h), N / 10);
    EXPECT_LT(unmon, 15.0);
    EXPECT_LT(hit, 15.0);
    EXPECT_LT(hit_hist, 20.0);
    EXPECT_LT(other, 400.0);
}
