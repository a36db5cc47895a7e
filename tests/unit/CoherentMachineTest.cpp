// CoherentMachine: hand-derived multi-core cases, the one-core differential
// test against ReferenceHierarchy.h, and randomised multi-core differential tests
// against the independent model in ReferenceCoherent.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "CoherentMachine.h"
#include "MachineConfig.h"
#include "ReferenceCoherent.h"
#include "RandomHierarchies.h"

using namespace ompsim;
using namespace ompsim::test;

namespace {

constexpr u64 kAll = ~0ull;

HierarchyConfig machine(std::vector<LevelConfig> levels, u32 private_levels, bool split = false) {
    return hierarchy(levels, private_levels, split);
}

struct M {
    CoherentMachine m;
    M(const HierarchyConfig& c, u32 cores) {
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(m.init(c, cores, kHeap, err)) << err.text;
    }
    ~M() { m.destroy(); }
    u32 a(u32 core, AccessKind k, u64 b, u64 bytes = kAll) { return m.access(core, k, b, bytes); }
    const CoherenceStats& cs(u32 core) const { return m.coherence(core, m.private_levels() - 1); }
};

// Byte masks of a 64-byte line.
u64 bytes(unsigned off, unsigned len) { return (len >= 64 ? kAll : ((1ull << len) - 1)) << off; }

u32 depth(u32 r) { return r & kDepthMask; }
u32 flags(u32 r) { return r & ~kDepthMask; }

// The two-core teaching-like machine of the hand-derived cases: private
// D1 2x2 and L2 4x4, shared L3 16x8, all LRU write-back non-inclusive.
HierarchyConfig small3(Inclusion l3 = Inclusion::NonInclusive) {
    return machine({level(2, 2), level(4, 4), level(16, 8, Replacement::LRU, WritePolicy::WriteBack, l3)}, 2);
}

constexpr u64 X = 100, Y = 101;

}  // namespace

// ---------------------------------------------------------------------------
// Hand-derived cases
// ---------------------------------------------------------------------------

TEST(CoherentMachine, InitAndGeometry) {
    M t(small3(), 4);
    EXPECT_EQ(t.m.line_bits(), 6u);
    EXPECT_EQ(t.m.levels(), 3);
    EXPECT_EQ(t.m.private_levels(), 2);
    EXPECT_EQ(t.m.cores_used(), 1u);
    t.a(2, kRead, X);
    EXPECT_EQ(t.m.cores_used(), 3u);  // 1 + the highest core that ran
    EXPECT_EQ(t.m.stats(1, 0, false).refs[kRead], 0u);
    EXPECT_EQ(t.m.stats(2, 0, false).refs[kRead], 1u);
}

TEST(CoherentMachine, DefaultPrivateLevels) {
    M t(machine({level(2, 2), level(4, 4), level(16, 8)}, 0), 2);
    EXPECT_EQ(t.m.private_levels(), 2);
    M u(machine({level(2, 2)}, 0), 2);
    EXPECT_EQ(u.m.private_levels(), 1);
}

TEST(CoherentMachine, InitRejectsBadConfigurations) {
    CoherentMachine m;
    ErrorText err;
    error_clear(err);
    EXPECT_FALSE(m.init(machine({level(2, 2), level(4, 4)}, 3), 2, kHeap, err));
    EXPECT_STREQ(err.text, "private levels: 3 is not between 1 and the number of levels (2)");
    HierarchyConfig cg = machine({level(2, 2), level(4, 4)}, 1, true);
    cg.cachegrind = true;
    EXPECT_FALSE(m.init(cg, 2, kHeap, err));
    EXPECT_NE(std::string(err.text).find("Cachegrind"), std::string::npos);
    EXPECT_FALSE(m.init(small3(), 0, kHeap, err));
}

namespace {
void* failing_alloc(void*, size_t) { return nullptr; }
}  // namespace

TEST(CoherentMachine, InitReportsAllocationFailure) {
    Allocator bad{failing_alloc, heap_release, nullptr};
    CoherentMachine m;
    ErrorText err;
    error_clear(err);
    EXPECT_FALSE(m.init(small3(), 2, bad, err));
    EXPECT_NE(std::string(err.text).find("memory"), std::string::npos);
    m.destroy();
}

TEST(CoherentMachine, CoresOutOfRangeAreIgnored) {
    M t(small3(), 2);
    EXPECT_EQ(t.a(2, kRead, X), 3u);
    EXPECT_EQ(t.m.cores_used(), 1u);
    EXPECT_EQ(t.m.memory_reads(), 0u);
}

// Read sharing: E, then S in both, no invalidation, no transfer.
TEST(CoherentMachine, ReadSharingInvalidatesNothing) {
    M t(small3(), 2);
    EXPECT_EQ(t.a(0, kRead, X), 3u);     // memory
    EXPECT_EQ(t.m.state(0, X), 'E');
    EXPECT_EQ(t.a(1, kRead, X), 2u);     // core 0 is clean: L3 serves
    EXPECT_EQ(t.m.state(0, X), 'S');
    EXPECT_EQ(t.m.state(1, X), 'S');
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(t.a(0, kRead, X), 0u);
        EXPECT_EQ(t.a(1, kRead, X), 0u);
    }
    for (u32 c = 0; c < 2; ++c) {
        EXPECT_EQ(t.cs(c).invalidations_received, 0u);
        EXPECT_EQ(t.cs(c).invalidations_sent, 0u);
        EXPECT_EQ(t.cs(c).c2c_in + t.cs(c).c2c_out, 0u);
        EXPECT_EQ(t.cs(c).coherence_misses, 0u);
    }
    EXPECT_EQ(t.m.memory_reads(), 1u);
}

// Two cores writing one line in turn: after each core's first access every
// write misses privately (a coherence miss) and comes from the other core.
TEST(CoherentMachine, WritePingPong) {
    M t(small3(), 2);
    EXPECT_EQ(t.a(0, kWrite, X), 3u);  // first: from memory, M in core 0
    EXPECT_EQ(t.m.state(0, X), 'M');
    u32 r = t.a(1, kWrite, X);         // first of core 1: c2c, not a coherence miss
    EXPECT_EQ(r, 2u | kCacheToCache | kInvalidatedOthers);
    EXPECT_EQ(t.m.state(0, X), 'I');
    EXPECT_EQ(t.m.state(1, X), 'M');
    const int rounds = 20;
    for (int i = 0; i < rounds; ++i) {
        for (u32 c = 0; c < 2; ++c) {
            r = t.a(c, kWrite, X);
            EXPECT_EQ(depth(r), 2u);  // the first shared level's depth
            EXPECT_EQ(flags(r), kCoherenceMiss | kCacheToCache | kInvalidatedOthers) << i << " " << c;
        }
    }
    // Every transfer: owner's copy dropped, no write-back, nothing from L3.
    EXPECT_EQ(t.m.memory_reads(), 1u);
    EXPECT_EQ(t.m.stats(0, 2, false).refs[kRead] + t.m.stats(0, 2, false).refs[kWrite], 1u);
    EXPECT_EQ(t.cs(0).coherence_misses, u64(rounds));
    EXPECT_EQ(t.cs(1).coherence_misses, u64(rounds));
    EXPECT_EQ(t.cs(0).false_sharing_misses, 0u);  // same bytes: true sharing
    EXPECT_EQ(t.cs(0).c2c_in + t.cs(1).c2c_in, u64(2 * rounds + 1));
    EXPECT_EQ(t.cs(0).c2c_out + t.cs(1).c2c_out, u64(2 * rounds + 1));
    EXPECT_EQ(t.cs(0).invalidations_sent, t.cs(1).invalidations_received);
    EXPECT_EQ(t.cs(1).invalidations_sent, t.cs(0).invalidations_received);
    // Misses at every private level of the writer.
    EXPECT_EQ(t.m.stats(0, 0, false).misses[kWrite], u64(rounds + 1));
    EXPECT_EQ(t.m.stats(0, 1, false).misses[kWrite], u64(rounds + 1));
    // The counters of the other private level stay zero.
    EXPECT_EQ(t.m.coherence(0, 0).coherence_misses, 0u);
    EXPECT_EQ(t.m.total_stats(0, false).refs[kWrite], u64(2 * rounds + 2));
}

// Reads of a line another core keeps writing: the writer holds it Modified,
// the reader's copy is invalidated by each write and the next read is a
// coherence miss served cache to cache; the writer's dirty data goes to L3.
TEST(CoherentMachine, ProducerConsumer) {
    M t(small3(), 2);
    t.a(0, kWrite, X, bytes(0, 8));
    u32 r = t.a(1, kRead, X, bytes(0, 8));
    EXPECT_EQ(r, 2u | kCacheToCache);
    EXPECT_EQ(t.m.state(0, X), 'S');
    EXPECT_EQ(t.m.state(1, X), 'S');
    bool dirty = true;
    EXPECT_TRUE(t.m.contains(0, 0, false, X, &dirty));
    EXPECT_FALSE(dirty);                   // cleaned: written back to L3
    EXPECT_TRUE(t.m.contains(0, 2, false, X, &dirty));
    EXPECT_TRUE(dirty);
    EXPECT_EQ(t.m.stats(0, 1, false).writebacks, 1u);
    EXPECT_EQ(t.m.stats(0, 2, false).refs[kWriteback], 1u);
    r = t.a(0, kWrite, X, bytes(8, 8));    // upgrade: core 1 invalidated
    EXPECT_EQ(r, 0u | kUpgrade | kInvalidatedOthers);
    EXPECT_EQ(t.cs(0).upgrades, 1u);
    u64 w = 0;
    EXPECT_TRUE(t.m.loss_record(1, X, &w));
    EXPECT_EQ(w, bytes(8, 8));
    t.a(0, kWrite, X, bytes(16, 8));       // silent (M) but recorded for core 1
    EXPECT_TRUE(t.m.loss_record(1, X, &w));
    EXPECT_EQ(w, bytes(8, 16));
    r = t.a(1, kRead, X, bytes(16, 8));    // reads what core 0 wrote: true sharing
    EXPECT_EQ(r, 2u | kCoherenceMiss | kCacheToCache);
    EXPECT_FALSE(t.m.loss_record(1, X, &w));
    EXPECT_EQ(t.cs(1).coherence_misses, 1u);
    EXPECT_EQ(t.cs(1).false_sharing_misses, 0u);
}

// Two cores writing disjoint bytes of one line: false sharing.
TEST(CoherentMachine, FalseSharingDisjointBytes) {
    M t(small3(), 2);
    const int rounds = 10;
    for (int i = 0; i < rounds; ++i) {
        u32 r0 = t.a(0, kWrite, X, bytes(0, 8));
        u32 r1 = t.a(1, kWrite, X, bytes(8, 8));
        if (i > 0) {
            EXPECT_EQ(flags(r0), kCoherenceMiss | kFalseSharing | kCacheToCache | kInvalidatedOthers);
            EXPECT_EQ(flags(r1), kCoherenceMiss | kFalseSharing | kCacheToCache | kInvalidatedOthers);
        }
    }
    EXPECT_EQ(t.cs(0).false_sharing_misses, u64(rounds - 1));
    EXPECT_EQ(t.cs(1).false_sharing_misses, u64(rounds - 1));
    EXPECT_EQ(t.cs(1).coherence_misses, u64(rounds - 1));
}

// The same data padded onto two lines: no coherence traffic at all.
TEST(CoherentMachine, PaddingRemovesFalseSharing) {
    M t(small3(), 2);
    for (int i = 0; i < 10; ++i) {
        u32 r0 = t.a(0, kWrite, X, bytes(0, 8));
        u32 r1 = t.a(1, kWrite, Y, bytes(0, 8));
        EXPECT_EQ(flags(r0), 0u);
        EXPECT_EQ(flags(r1), 0u);
        if (i > 0) {
            EXPECT_EQ(r0, 0u);
            EXPECT_EQ(r1, 0u);
        }
    }
    for (u32 c = 0; c < 2; ++c) {
        EXPECT_EQ(t.cs(c).coherence_misses, 0u);
        EXPECT_EQ(t.cs(c).invalidations_sent + t.cs(c).invalidations_received, 0u);
        EXPECT_EQ(t.cs(c).c2c_in + t.cs(c).c2c_out, 0u);
    }
}

// A read of other bytes than the writer wrote is false sharing too, and
// bytes written after the invalidation count.
TEST(CoherentMachine, FalseSharingReadAfterWrites) {
    M t(small3(), 2);
    t.a(0, kRead, X);
    t.a(1, kRead, X);
    EXPECT_EQ(t.a(1, kWrite, X, bytes(0, 4)), 0u | kUpgrade | kInvalidatedOthers);
    u32 r = t.a(0, kRead, X, bytes(32, 4));
    EXPECT_EQ(r, 2u | kCoherenceMiss | kFalseSharing | kCacheToCache);
    EXPECT_EQ(t.m.state(0, X), 'S');
    EXPECT_EQ(t.m.state(1, X), 'S');
}

// Upgrades: a write to a Shared line invalidates every other copy; a write
// to an Exclusive line is silent; a Shared line whose other copies are gone
// still upgrades (MESI does not know) but invalidates nobody.
TEST(CoherentMachine, UpgradeCounting) {
    M t(small3(), 4);
    for (u32 c = 0; c < 4; ++c) t.a(c, kRead, X);
    for (u32 c = 0; c < 4; ++c) EXPECT_EQ(t.m.state(c, X), 'S');
    EXPECT_EQ(t.a(2, kWrite, X), 0u | kUpgrade | kInvalidatedOthers);
    EXPECT_EQ(t.cs(2).upgrades, 1u);
    EXPECT_EQ(t.cs(2).invalidations_sent, 3u);
    for (u32 c : {0u, 1u, 3u}) {
        EXPECT_EQ(t.cs(c).invalidations_received, 1u);
        EXPECT_EQ(t.m.state(c, X), 'I');
    }
    EXPECT_EQ(t.m.state(2, X), 'M');
    EXPECT_EQ(t.a(2, kWrite, X), 0u);  // silent
    // E -> M silently.
    EXPECT_EQ(t.a(3, kRead, Y), 3u);
    EXPECT_EQ(t.m.state(3, Y), 'E');
    EXPECT_EQ(t.a(3, kWrite, Y), 0u);
    EXPECT_EQ(t.m.state(3, Y), 'M');
    EXPECT_EQ(t.cs(3).upgrades, 0u);
    // S with no other copy left: upgrade without invalidation.
    const u64 Z = 200;
    t.a(0, kRead, Z);
    t.a(1, kRead, Z);
    // Core 1 loses Z by eviction: fill its D1 set (2 ways) and L2 set (4 ways).
    for (u64 i = 1; i <= 4; ++i) t.a(1, kRead, Z + 4 * i);
    EXPECT_EQ(t.m.state(1, Z), 'I');
    EXPECT_EQ(t.m.state(0, Z), 'S');
    EXPECT_EQ(t.a(0, kWrite, Z), 0u | kUpgrade);
    EXPECT_EQ(t.cs(0).upgrades, 1u);
    EXPECT_EQ(t.cs(0).invalidations_sent, 0u);
}

// The replay's inline write (CoreL1View::try_hit()) of a clean line in a
// page only its core has touched: E -> M as the short path does it, with no
// directory (Core::owned_pages). Once another core touches the page, its
// lines are the directory's and so is the write.
TEST(CoherentMachine, InlineCleanWriteInOwnPage) {
    M t(small3(), 2);
    // Pages of 64 blocks: A and A2 in page 5, B in page 7.
    const u64 A = 64 * 5 + 2, A2 = 64 * 5 + 4, A3 = 64 * 5 + 6, B = 64 * 7 + 2;
    EXPECT_EQ(t.a(0, kRead, B), 3u);  // page 7 is core 0's when core 1 starts
    EXPECT_EQ(t.a(1, kRead, A), 3u);  // page 5 is core 1's
    EXPECT_EQ(t.m.state(1, A), 'E');
    CoherentMachine::CoreL1View v;
    ASSERT_TRUE(t.m.core_l1_view(1, false, &v));
    EXPECT_FALSE(v.clean_free);
    EXPECT_TRUE(v.try_hit<kWrite>(A));
    EXPECT_EQ(t.m.state(1, A), 'M');
    // A line of core 0's page: shared, the write is an upgrade.
    EXPECT_EQ(t.a(1, kRead, B), 2u);  // from L3
    EXPECT_EQ(t.m.state(0, B), 'S');
    EXPECT_FALSE(v.try_hit<kWrite>(B));
    EXPECT_EQ(t.a(1, kWrite, B), 0u | kUpgrade | kInvalidatedOthers);
    // Core 0 touches page 5: core 1's next clean line there is Exclusive in
    // the directory, and its write goes through it.
    EXPECT_EQ(t.a(1, kRead, A3), 3u);
    EXPECT_EQ(t.a(0, kRead, A2), 3u);
    EXPECT_FALSE(v.try_hit<kWrite>(A3));
    EXPECT_EQ(t.m.state(1, A3), 'E');
    EXPECT_EQ(t.a(1, kWrite, A3), 0u);
    EXPECT_EQ(t.m.state(1, A3), 'M');
    EXPECT_EQ(t.cs(1).upgrades, 1u);
}

// An inclusive shared L3 evicting a line removes it from every core.
// L3 here: 1 set x 2 ways (inclusive); private D1 1x2, L2 1x4.
TEST(CoherentMachine, InclusiveL3BackInvalidatesAllCores) {
    HierarchyConfig c = machine({level(1, 2), level(1, 4),
                                 level(1, 2, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Inclusive)}, 2);
    M t(c, 3);
    t.a(0, kRead, X);
    t.a(1, kWrite, X);  // core 1 M (core 0 invalidated)
    t.a(2, kRead, X);   // core 1 -> S, c2c; L3 [X*]
    EXPECT_EQ(t.m.state(1, X), 'S');
    EXPECT_EQ(t.m.state(2, X), 'S');
    t.a(0, kRead, Y);   // L3 [Y X*]
    const u64 Z = 7;
    u64 wb_before = t.m.memory_writes();
    t.a(0, kRead, Z);   // L3 evicts X (LRU): gone from cores 1 and 2
    EXPECT_EQ(t.m.state(1, X), 'I');
    EXPECT_EQ(t.m.state(2, X), 'I');
    for (u32 core = 1; core < 3; ++core) {
        EXPECT_FALSE(t.m.contains(core, 0, false, X, nullptr));
        EXPECT_FALSE(t.m.contains(core, 1, false, X, nullptr));
        EXPECT_EQ(t.m.stats(core, 0, false).back_invalidations, 1u);
        EXPECT_EQ(t.m.stats(core, 1, false).back_invalidations, 1u);
    }
    EXPECT_EQ(t.m.memory_writes(), wb_before + 1);  // X was dirty in L3
    // A back-invalidation is not a coherence loss: the next read is a plain miss.
    EXPECT_EQ(t.a(1, kRead, X), 3u);
    EXPECT_EQ(t.cs(1).invalidations_received, 0u);
}

// A Modified line back-invalidated by the inclusive L3: its dirty data is
// written to memory, not lost.
TEST(CoherentMachine, InclusiveL3KeepsDirtyPrivateData) {
    HierarchyConfig c = machine({level(1, 2), level(1, 4),
                                 level(1, 2, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Inclusive)}, 2);
    M t(c, 2);
    t.a(1, kWrite, X);  // core 1: M, dirty in D1 only
    t.a(0, kRead, Y);
    t.a(0, kRead, Y + 1);  // L3 evicts X
    EXPECT_EQ(t.m.state(1, X), 'I');
    EXPECT_EQ(t.m.memory_writes(), 1u);
    EXPECT_EQ(t.m.stats(0, 2, false).writebacks, 1u);
}

// A write-through private L1 over a private write-back L2.
TEST(CoherentMachine, WriteThroughPrivateL1) {
    HierarchyConfig c = machine({level(2, 2, Replacement::LRU, WritePolicy::WriteThrough), level(4, 4), level(16, 8)}, 2);
    M t(c, 2);
    t.a(0, kRead, X);
    t.a(1, kRead, X);
    u32 r = t.a(0, kWrite, X);  // L1 hit (written through to L2)
    EXPECT_EQ(r, 0u | kUpgrade | kInvalidatedOthers);
    EXPECT_EQ(t.m.state(0, X), 'M');
    bool d = false;
    EXPECT_TRUE(t.m.contains(0, 1, false, X, &d));
    EXPECT_TRUE(d);
    EXPECT_EQ(t.a(1, kRead, X), 2u | kCoherenceMiss | kCacheToCache);
}

// All private levels write-through: a write by a core holding nothing does
// not allocate; an invalidated owner's dirty data is written back first.
TEST(CoherentMachine, WriteThroughOnlyInvalidatesAndWritesBackOwner) {
    HierarchyConfig c = machine({level(2, 2, Replacement::LRU, WritePolicy::WriteThrough), level(16, 8)}, 1);
    c.level[0].write = WritePolicy::WriteThrough;
    M t(c, 2);
    t.a(1, kRead, Y);  // two cores have run: states are kept
    t.a(0, kRead, X);
    EXPECT_EQ(t.m.state(0, X), 'E');
    EXPECT_EQ(t.a(0, kWrite, X), 0u);  // E -> M, written through, clean
    EXPECT_EQ(t.m.state(0, X), 'M');
    // Core 1 reads: core 0 is M but clean: L2 serves, no c2c.
    EXPECT_EQ(t.a(1, kRead, X), 1u);
    EXPECT_EQ(t.a(1, kWrite, X), 0u | kUpgrade | kInvalidatedOthers);
    // Core 0 writes without a copy: passes through, invalidates core 1.
    EXPECT_EQ(t.a(0, kWrite, X, bytes(0, 1)), 1u | kCoherenceMiss | kInvalidatedOthers);
    EXPECT_EQ(t.m.state(0, X), 'I');
    EXPECT_EQ(t.m.state(1, X), 'I');
}

TEST(CoherentMachine, ReinitStartsFromScratch) {
    CoherentMachine m;
    ErrorText err;
    error_clear(err);
    ASSERT_TRUE(m.init(small3(), 2, kHeap, err));
    m.access(0, kWrite, X, kAll);
    m.access(1, kWrite, X, kAll);
    m.destroy();
    ASSERT_TRUE(m.init(small3(), 2, kHeap, err));
    EXPECT_EQ(m.cores_used(), 1u);
    EXPECT_EQ(m.state(1, X), 'I');
    EXPECT_FALSE(m.contains(0, 2, false, X, nullptr));
    EXPECT_EQ(m.directory_entries(), 0u);
    EXPECT_EQ(m.access(1, kRead, X, kAll), 3u);
    m.destroy();
}

TEST(CoherentMachine, ResetStatsKeepsContentsAndRecords) {
    M t(small3(), 2);
    t.a(0, kWrite, X);
    t.a(1, kWrite, X);
    t.m.reset_stats();
    EXPECT_EQ(t.cs(1).c2c_in, 0u);
    EXPECT_EQ(t.m.memory_reads(), 0u);
    EXPECT_EQ(t.m.stats(1, 0, false).refs[kWrite], 0u);
    EXPECT_EQ(t.m.state(1, X), 'M');
    EXPECT_EQ(flags(t.a(0, kRead, X)), kCoherenceMiss | kCacheToCache);
}

// The directory empties again when nobody holds or lost anything.
TEST(CoherentMachine, DirectoryShrinksBack) {
    HierarchyConfig c = machine({level(1, 1), level(1, 2)}, 1);
    M t(c, 2);
    t.a(1, kRead, 1);
    for (u64 b = 10; b < 200; ++b) t.a(b % 2, kRead, b);
    // Each core holds at most 1 line privately.
    EXPECT_LE(t.m.directory_entries(), 2u);
}

// The holder sets start one word wide and widen when a core >= 64 first
// accesses: what cores 0 and 1 hold, and the loss record of core 1, come
// through the widening intact.
TEST(CoherentMachine, DirectoryWidensForHigherCores) {
    M t(small3(), 256);
    t.a(0, kRead, X);
    t.a(1, kRead, X);                            // X: S in cores 0 and 1
    t.a(1, kWrite, Y);                           // Y: M in core 1
    t.a(0, kWrite, Y);                           // Y: M in core 0, core 1 lost it
    EXPECT_EQ(t.m.state(1, Y), 'I');
    EXPECT_EQ(t.a(200, kRead, Y), 2u | kCacheToCache);  // widened: core 0 supplies
    EXPECT_EQ(t.m.state(0, Y), 'S');
    EXPECT_EQ(t.m.state(200, Y), 'S');
    EXPECT_EQ(t.m.state(0, X), 'S');
    EXPECT_EQ(t.m.state(1, X), 'S');
    u32 r = t.a(130, kWrite, X);                  // invalidates 0 and 1
    EXPECT_EQ(flags(r) & kInvalidatedOthers, kInvalidatedOthers);
    EXPECT_EQ(t.cs(130).invalidations_sent, 2u);
    EXPECT_EQ(t.m.state(130, X), 'M');
    EXPECT_EQ(t.m.state(0, X), 'I');
    EXPECT_EQ(t.m.state(1, X), 'I');
    // Core 1's record for Y survived: its next read is a coherence miss.
    EXPECT_EQ(flags(t.a(1, kRead, Y)) & kCoherenceMiss, kCoherenceMiss);
    EXPECT_EQ(t.m.state(1, Y), 'S');
}

// certain_refetch(): a fetch of the line the core fetched last is a hit that
// only counts, with its own data accesses in between, unless an inclusive
// level's eviction can take the line out of I1 (the tool's streaming and
// one-core instrumenters count such fetches without simulating them).
TEST(CoherentMachine, CertainRefetchConditions) {
    auto cfg = [](Inclusion l2) {
        HierarchyConfig c = machine({level(1, 1), level(1, 2, Replacement::LRU, WritePolicy::WriteBack, l2),
                                     level(4, 4)}, 2, true);
        c.i1 = level(1, 2);
        return c;
    };
    const u64 C = 7, A = 8, B = 9;  // one code line, two data lines, one L2 set
    for (Inclusion l2 : {Inclusion::NonInclusive, Inclusion::Inclusive}) {
        M t(cfg(l2), 2);
        EXPECT_EQ(t.m.certain_refetch(), l2 != Inclusion::Inclusive);
        t.a(0, kFetch, C);   // I1 and L2 hold C
        t.a(0, kRead, A);    // L2: A, C
        t.a(0, kRead, B);    // L2 evicts C, the LRU line
        bool dirty = false;
        // Inclusive: C left I1 with it, and the refetch misses.
        EXPECT_EQ(t.m.contains(0, 0, true, C, &dirty), l2 != Inclusion::Inclusive);
        EXPECT_EQ(depth(t.a(0, kFetch, C)) == 0, l2 != Inclusion::Inclusive);
    }
    HierarchyConfig unified = cfg(Inclusion::NonInclusive);
    unified.split_l1 = false;
    EXPECT_FALSE(M(unified, 2).m.certain_refetch());
    HierarchyConfig pf = cfg(Inclusion::NonInclusive);
    pf.i1.prefetch.kinds = kPrefetchNextLine;
    pf.i1.prefetch.degree = 1;
    EXPECT_FALSE(M(pf, 2).m.certain_refetch());
    HierarchyConfig exclusive = cfg(Inclusion::Exclusive);
    EXPECT_TRUE(M(exclusive, 2).m.certain_refetch());
}

// ---------------------------------------------------------------------------
// --private-levels, --c2c-latency, --upgrade-latency (docs/cache-config.md)
// ---------------------------------------------------------------------------
namespace {

struct Built {
    bool ok;
    std::string err;
    HierarchyConfig cfg;
};

Built build_machine(const std::vector<const char*>& args, const char* file = nullptr) {
    static MachineBuilder b;
    builder_reset(b);
    Built r{};
    ErrorText err;
    error_clear(err);
    for (const char* a : args) {
        OptResult res = builder_option(b, a, err);
        if (res != OptResult::Ok) {
            r.err = res == OptResult::NotMine ? std::string("NotMine: ") + a : err.text;
            return r;
        }
    }
    if (file && !builder_config_text(b, "test.cfg", file, std::strlen(file), err)) {
        r.err = err.text;
        return r;
    }
    r.ok = builder_finish(b, r.cfg, err);
    if (!r.ok) r.err = err.text;
    return r;
}

}  // namespace

TEST(CoherenceOptions, PresetDefaults) {
    struct Case {
        const char* machine;
        u32 private_levels, latency;
    } cases[] = {{"desktop", 2, 65}, {"teaching", 1, 12}, {"cachegrind", 1, 10}};
    for (const Case& c : cases) {
        HierarchyConfig p;
        ASSERT_TRUE(machine_preset(c.machine, p));
        EXPECT_EQ(p.private_levels, c.private_levels) << c.machine;
        EXPECT_EQ(p.c2c_latency, c.latency) << c.machine;
        EXPECT_EQ(p.upgrade_latency, c.latency) << c.machine;
        std::string arg = std::string("--machine=") + c.machine;
        Built b = build_machine({arg.c_str()});
        ASSERT_TRUE(b.ok) << b.err;
        EXPECT_EQ(b.cfg.private_levels, c.private_levels);
        EXPECT_EQ(b.cfg.c2c_latency, c.latency);
    }
}

TEST(CoherenceOptions, DefaultsFollowTheFinalHierarchy) {
    Built b = build_machine({"--L3=none"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 1u);  // two levels: L1 private, L2 shared
    EXPECT_EQ(b.cfg.c2c_latency, 15u);
    EXPECT_EQ(b.cfg.upgrade_latency, 15u);
    b = build_machine({"--L2=none"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 1u);  // one level, private: memory's latency
    EXPECT_EQ(b.cfg.c2c_latency, 250u);
    b = build_machine({"--private-levels=3"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 3u);
    EXPECT_EQ(b.cfg.c2c_latency, 250u);
    b = build_machine({"--private-levels=1", "--L2-latency=20"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.c2c_latency, 20u);
    b = build_machine({"--machine=teaching", "--L3=1M,16,64", "--L3-latency=44"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 2u);
    EXPECT_EQ(b.cfg.c2c_latency, 44u);
}

TEST(CoherenceOptions, ExplicitValues) {
    Built b = build_machine({"--c2c-latency=7", "--upgrade-latency=9", "--private-levels=1", "--L3=none"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 1u);
    EXPECT_EQ(b.cfg.c2c_latency, 7u);
    EXPECT_EQ(b.cfg.upgrade_latency, 9u);
    b = build_machine({"--c2c-latency=0"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.c2c_latency, 0u);
    EXPECT_EQ(b.cfg.upgrade_latency, 65u);
}

TEST(CoherenceOptions, ConfigFile) {
    const char* file = "machine = desktop\nprivate-levels = 1\nc2c-latency = 30\nupgrade-latency = 31\n";
    Built b = build_machine({}, file);
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 1u);
    EXPECT_EQ(b.cfg.c2c_latency, 30u);
    EXPECT_EQ(b.cfg.upgrade_latency, 31u);
    b = build_machine({"--private-levels=3"}, file);  // the command line comes last
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 3u);
    b = build_machine({}, "private-levels = five\n");
    EXPECT_EQ(b.err, "test.cfg:1: private-levels: 'five' is not a number of private levels (1 to 4)");
    b = build_machine({}, "L3 = none\nprivate-levels = 3\n");
    EXPECT_EQ(b.err, "--private-levels: 3 is not between 1 and the number of levels (2)");
}

// The example of docs/cache-config.md, "Cores and coherence".
TEST(CoherenceOptions, DocExample) {
    Built b = build_machine({}, "machine = desktop\nprivate-levels = 1        # private I1 and D1; L2 and L3 shared\n"
                                "c2c-latency = 40\n");
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 1u);
    EXPECT_EQ(b.cfg.c2c_latency, 40u);
    EXPECT_EQ(b.cfg.upgrade_latency, 15u);  // L2, the first shared level
    b = build_machine({"--L3-latency=50"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.c2c_latency, 50u);
    EXPECT_EQ(b.cfg.upgrade_latency, 50u);
    b = build_machine({"--machine=cachegrind", "--private-levels=2"});
    ASSERT_TRUE(b.ok) << b.err;
    EXPECT_EQ(b.cfg.private_levels, 2u);
    EXPECT_EQ(build_machine({"--machine=cachegrind", "--private-levels=3"}).err,
              "--private-levels: 3 is not between 1 and the number of levels (2)");
}

TEST(CoherenceOptions, Errors) {
    EXPECT_EQ(build_machine({"--private-levels=0"}).err,
              "--private-levels: '0' is not a number of private levels (1 to 4)");
    EXPECT_EQ(build_machine({"--private-levels=5"}).err,
              "--private-levels: '5' is not a number of private levels (1 to 4)");
    EXPECT_EQ(build_machine({"--private-levels=4"}).err,
              "--private-levels: 4 is not between 1 and the number of levels (3)");
    EXPECT_EQ(build_machine({"--private-levels=3", "--L3=none"}).err,
              "--private-levels: 3 is not between 1 and the number of levels (2)");
    EXPECT_EQ(build_machine({"--c2c-latency=-1"}).err,
              "--c2c-latency: '-1' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(build_machine({"--upgrade-latency=x"}).err,
              "--upgrade-latency: 'x' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(build_machine({"--private-levels"}).err, "--private-levels: needs a value (--private-levels=...)");
    // validate() on a hand-made configuration (0 = the default is accepted).
    HierarchyConfig c = machine({level(2, 2), level(4, 4)}, 0);
    ErrorText err;
    error_clear(err);
    EXPECT_TRUE(validate(c, err)) << err.text;
    c.private_levels = 3;
    EXPECT_FALSE(validate(c, err));
    EXPECT_STREQ(err.text, "private levels: 3 is not between 1 and the number of levels (2)");
}

// ---------------------------------------------------------------------------
// One core: identical to the single-core model (ReferenceHierarchy.h)
// ---------------------------------------------------------------------------
namespace {

// The multi-core runs also vary the number of private levels.
HierarchyConfig build_multi(Rng& r, const std::vector<LevelChoice>& ch, bool split) {
    HierarchyConfig c = build(r, ch, split);
    c.private_levels = u32(1 + r.below(u64(c.levels)));
    return c;
}

}  // namespace

TEST(CoherentSingleCore, OneAndTwoLevelsAllCombinations) {
    Rng r(11);
    int configs = 0;
    for (const LevelChoice& l0 : level0_choices())
        for (bool split : {false, true}) {
            for (int rep = 0; rep < 4; ++rep) {
                HierarchyConfig c = build_multi(r, {l0}, split);
                ASSERT_TRUE(single_core_differential(c, 1 + u32(rep % 2) * 3, mixed_trace(r, c, 600), 50));
                ++configs;
            }
            for (const LevelChoice& l1 : lower_choices())
                for (int rep = 0; rep < 2; ++rep) {
                    HierarchyConfig c = build_multi(r, {l0, l1}, split);
                    c.private_levels = u32(1 + rep);
                    ASSERT_TRUE(single_core_differential(c, 1, mixed_trace(r, c, 400), 40));
                    ++configs;
                }
        }
    EXPECT_EQ(configs, 16 * 4 + 16 * 20 * 2);
}

TEST(CoherentSingleCore, ThreeLevelsAllCombinations) {
    Rng r(12);
    auto lower = lower_choices();
    for (const LevelChoice& l0 : level0_choices())
        for (const LevelChoice& l1 : lower)
            for (const LevelChoice& l2 : lower) {
                bool split = r.below(2) == 1;
                HierarchyConfig c = build_multi(r, {l0, l1, l2}, split);
                ASSERT_TRUE(single_core_differential(c, 1 + u32(r.below(3)), mixed_trace(r, c, 200)));
            }
}

TEST(CoherentSingleCore, FourLevels) {
    Rng r(13);
    for (const LevelChoice& l0 : level0_choices())
        for (auto& p1 : kLowerPolicies)
            for (auto& p2 : kLowerPolicies)
                for (auto& p3 : kLowerPolicies) {
                    int rot = int(r.below(4));
                    std::vector<LevelChoice> ch = {
                        l0,
                        {kRepls[rot], p1.first, p1.second},
                        {kRepls[(rot + 1) % 4], p2.first, p2.second},
                        {kRepls[(rot + 3) % 4], p3.first, p3.second},
                    };
                    HierarchyConfig c = build_multi(r, ch, r.below(2) == 1);
                    ASSERT_TRUE(single_core_differential(c, 1, mixed_trace(r, c, 160)));
                }
}

TEST(CoherentSingleCore, LongTraceRealisticShapes) {
    Rng r(14);
    for (int trial = 0; trial < 16; ++trial) {
        std::vector<LevelChoice> ch = {level0_choices()[trial % 8], lower_choices()[r.below(20)],
                                       lower_choices()[r.below(20)]};
        HierarchyConfig c = realistic_config(r, ch, trial);
        c.private_levels = u32(1 + trial % 3);
        ASSERT_TRUE(single_core_differential(c, 8, realistic_trace(r, true), 2000));
    }
}

// The short miss path (CoherentMachine::miss_simple): taken when every level
// is LRU, write-back and non-inclusive and core 0 runs alone with nothing
// watching; against the reference on the long traces, with a non-power-of-
// two L2 (48 sets) and L3 (40 sets), split and unified L1, 1 to 3 private
// levels, and 2 to 4 levels.
TEST(CoherentSingleCore, ShortMissPathAgainstReference) {
    Rng r(15);
    const LevelChoice plain = {Replacement::LRU, WritePolicy::WriteBack, Inclusion::NonInclusive};
    for (int trial = 0; trial < 12; ++trial) {
        HierarchyConfig c = realistic_config(r, {plain, plain, plain}, trial);
        c.i1 = level(16, 4);
        c.level[2] = level(40, 16);
        c.levels = 2 + trial % 3;
        if (c.levels == 4) c.level[3] = level(96, 12);
        c.private_levels = u32(1 + trial % c.levels);
        CoherentMachine m;
        ErrorText err;
        error_clear(err);
        ASSERT_TRUE(m.init(c, 4, kHeap, err));
        EXPECT_TRUE(m.simple_misses());
        m.destroy();
        ASSERT_TRUE(single_core_differential(c, 4, realistic_trace(r, true), 1000));
    }
}

// Which machines take it, and when they stop: any level that is not LRU,
// write-back and non-inclusive, a prefetcher, miss classification,
// observation and a second core send every miss through the general path;
// there the results are the same with the short path forbidden.
TEST(CoherentSingleCore, ShortMissPathConditions) {
    const LevelConfig lru = level(8, 4);
    auto takes = [](HierarchyConfig c) {
        CoherentMachine m;
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(m.init(c, 2, kHeap, err));
        bool s = m.simple_misses();
        m.destroy();
        return s;
    };
    EXPECT_TRUE(takes(hierarchy({lru, level(16, 8), level(40, 12)}, 0, true)));
    EXPECT_TRUE(takes(hierarchy({lru})));
    EXPECT_FALSE(takes(hierarchy({lru, level(16, 8, Replacement::FIFO)})));
    EXPECT_FALSE(takes(hierarchy({lru, level(16, 8, Replacement::LRU, WritePolicy::WriteThrough)})));
    EXPECT_FALSE(takes(hierarchy({lru, level(16, 8, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Inclusive)})));
    EXPECT_FALSE(takes(hierarchy({lru, level(16, 8, Replacement::LRU, WritePolicy::WriteBack, Inclusion::Exclusive)})));
    EXPECT_FALSE(takes(hierarchy({level(8, 4, Replacement::PLRU), level(16, 8)})));
    HierarchyConfig i1_random = hierarchy({lru, level(16, 8)}, 0, true);
    i1_random.i1 = level(8, 4, Replacement::Random);
    EXPECT_FALSE(takes(i1_random));
    HierarchyConfig pf = hierarchy({lru, level(16, 8)});
    pf.level[1].prefetch.kinds = kPrefetchNextLine;
    pf.level[1].prefetch.degree = 1;
    EXPECT_FALSE(takes(pf));

    CoherentMachine m;
    ErrorText err;
    error_clear(err);
    ASSERT_TRUE(m.init(hierarchy({lru, level(16, 8)}), 2, kHeap, err));
    EXPECT_TRUE(m.simple_misses());
    m.allow_simple_misses(false);
    EXPECT_FALSE(m.simple_misses());
    m.allow_simple_misses(true);
    EXPECT_TRUE(m.simple_misses());
    m.access(1, kRead, 7, kAllBytes);  // a second core
    EXPECT_FALSE(m.simple_misses());
    m.allow_simple_misses(true);       // stays off once several cores ran
    EXPECT_FALSE(m.simple_misses());
    m.destroy();
    ASSERT_TRUE(m.init(hierarchy({lru, level(16, 8)}), 2, kHeap, err));
    m.enable_observation();
    EXPECT_FALSE(m.simple_misses());
    m.destroy();
    ASSERT_TRUE(m.init(hierarchy({lru, level(16, 8)}), 2, kHeap, err));
    ASSERT_TRUE(m.enable_classification(err));
    EXPECT_FALSE(m.simple_misses());
    m.destroy();
}

namespace {

// A desktop-shaped one-core machine: split L1 (16 x 12 D1, 16 x 8 I1),
// 32 x 10 L2, a non-power-of-two 80 x 12 L3.
HierarchyConfig desktop_shape() {
    HierarchyConfig c = hierarchy({level(16, 12), level(32, 10), level(80, 12)}, 0, true);
    c.i1 = level(16, 8);
    return c;
}

void init_both(CoherentMachine& a, CoherentMachine& b, const HierarchyConfig& c) {
    ErrorText err;
    error_clear(err);
    ASSERT_TRUE(a.init(c, 1, kHeap, err)) << err.text;
    ASSERT_TRUE(b.init(c, 1, kHeap, err)) << err.text;
}

// init_both(), with `view` on the short miss path and its D1 view in *vd.
void init_with_d1_view(CoherentMachine& view, CoherentMachine& plain, const HierarchyConfig& c,
                       CoherentMachine::L1View* vd) {
    ASSERT_NO_FATAL_FAILURE(init_both(view, plain, c));
    ASSERT_TRUE(view.simple_misses());
    ASSERT_TRUE(view.l1_view(false, vd));
}

// Two one-core machines of configuration `c` that ran trace `t` agree on
// every counter of core 0, on the contents and dirty bits of every level
// over the trace's blocks and on the memory traffic; and the trace reached
// L3's misses and L2's write-backs.
void expect_same_state(CoherentMachine& a, CoherentMachine& b, const HierarchyConfig& c, const Trace& t) {
    for (int k = 0; k < c.levels; ++k)
        for (bool ic : {false, true}) {
            if (ic && k) continue;
            EXPECT_EQ(diff_stats(a.stats(0, k, ic), b.stats(0, k, ic)), "") << k << ic;
            for (const Ref& x : t) {
                bool d1 = false, d2 = false;
                ASSERT_EQ(a.contains(0, k, ic, x.block, &d1), b.contains(0, k, ic, x.block, &d2));
                ASSERT_EQ(d1, d2);
            }
        }
    EXPECT_EQ(a.memory_reads(), b.memory_reads());
    EXPECT_EQ(a.memory_writes(), b.memory_writes());
    EXPECT_GT(a.stats(0, 2, false).misses[kRead], 0u);
    EXPECT_GT(a.stats(0, 1, false).refs[kWriteback], 0u);
}

// Two one-core desktop-shaped machines, a realistic_trace() and the first
// machine's L1 views as the one-core helpers take them (an LRU, write-back
// D1 on the short miss path): set_up() fills them.
struct OneCoreViews {
    HierarchyConfig c = desktop_shape();
    CoherentMachine view, plain;
    Trace t;
    CoherentMachine::L1View vi, vd;
    void set_up(u64 seed) {
        Rng r(seed);
        ASSERT_NO_FATAL_FAILURE(init_both(view, plain, c));
        t = realistic_trace(r, false);
        ASSERT_TRUE(view.simple_misses());
        ASSERT_TRUE(view.l1_view(true, &vi));
        ASSERT_TRUE(view.l1_view(false, &vd));
        ASSERT_TRUE(vd.lru && vd.write_back);
    }
    ~OneCoreViews() {
        view.destroy();
        plain.destroy();
    }
    // The trace through the L1 views as the one-core helpers take it
    // (view_rest_l1()), each reference's depth on the general path `plain`
    // kept in plain_depths: a hit ends there, a miss goes on to
    // on_miss(i, depth on the general path, L1's dirty victim), which
    // queues the work below, and run_lower(keep) then runs the queue down
    // to `keep` entries (0 to 300, changing as the trace goes; 0 at every
    // 4th thousand references and at the end).
    template <class OnMiss, class RunLower>
    void lag_lower_halves(std::vector<u32>& plain_depths, OnMiss on_miss, RunLower run_lower) {
        for (size_t i = 0; i < t.size(); ++i) {
            const CoherentMachine::L1View& l = t[i].kind == kFetch ? vi : vd;
            u32 want = plain.access(0, t[i].kind, t[i].block, kAllBytes);
            if (want) plain_depths.push_back(want);
            u64 victim;
            if (view.view_rest_l1(l, t[i].kind, t[i].block, &victim)) {
                ASSERT_EQ(want, 0u) << i;
                continue;
            }
            ASSERT_NE(want, 0u) << i;
            on_miss(i, want, victim);
            if (::testing::Test::HasFatalFailure()) return;
            run_lower((i / 1000) % 4 == 3 ? 0 : 300 - (i % 300));
        }
        run_lower(0);
    }
};

}  // namespace

// The short path and the general one give the same counters, contents and
// results access by access on a desktop-shaped machine (split L1, a
// non-power-of-two L3) over a long mixed trace.
// With `wide`, the short path searches L2 (10 ways) and L3 (12) two ways
// at a time (SSE4.1 hosts).
void expect_short_path_matches_general(bool wide) {
    Rng r(16);
    HierarchyConfig c = desktop_shape();
    CoherentMachine fast, general;
    ASSERT_NO_FATAL_FAILURE(init_both(fast, general, c));
    general.allow_simple_misses(false);
    fast.set_wide_search(wide);
    ASSERT_TRUE(fast.simple_misses());
    Trace t = realistic_trace(r, false);
    for (size_t i = 0; i < t.size(); ++i)
        ASSERT_EQ(fast.access(0, t[i].kind, t[i].block, kAllBytes), general.access(0, t[i].kind, t[i].block, kAllBytes)) << i;
    expect_same_state(fast, general, c, t);
    fast.destroy();
    general.destroy();
}

TEST(CoherentSingleCore, ShortMissPathMatchesGeneralPath) { expect_short_path_matches_general(false); }

TEST(CoherentSingleCore, WideShortMissPathMatchesGeneralPath) {
    if (!__builtin_cpu_supports("sse4.1")) GTEST_SKIP() << "the host has no SSE4.1";
    expect_short_path_matches_general(true);
}

// The one-core helpers' path (vgtool/SimHelpers.cpp: the MRU way of an
// L1View, then view_rest_shifting(), which moves the ways down while it
// compares them and hands a miss to finish_miss()) leaves the same
// counters, contents and results as access(), reference by reference.
// With `wide`, the searches of L2 (10 ways) and L3 (12) below the views
// compare two ways at a time (SSE4.1 hosts).
void expect_shifting_view_matches_access(bool wide) {
    OneCoreViews v;
    ASSERT_NO_FATAL_FAILURE(v.set_up(23));
    v.view.set_wide_search(wide);
    ASSERT_EQ(v.view.access(0, v.t[0].kind, v.t[0].block, kAllBytes), v.plain.access(0, v.t[0].kind, v.t[0].block, kAllBytes));
    u64 shifted_hits = 0;
    for (size_t i = 1; i < v.t.size(); ++i) {
        const CoherentMachine::L1View& l = v.t[i].kind == kFetch ? v.vi : v.vd;
        u64* k = l.keys + (v.t[i].block & l.set_mask) * l.assoc;
        u32 got;
        if (repl::key_matches(*k, v.t[i].block)) {
            if (v.t[i].kind == kWrite) *k |= 1;
            l.refs[v.t[i].kind]++;
            got = 0;
        } else {
            got = v.view.view_rest_shifting(l, v.t[i].kind, v.t[i].block);
            shifted_hits += got == 0;
        }
        ASSERT_EQ(got, v.plain.access(0, v.t[i].kind, v.t[i].block, kAllBytes)) << i;
    }
    // Hits off the MRU way, the path under test: an LRU model of these
    // 16 x 12 D1 and 16 x 8 I1 sets over traces of realistic_trace()'s mix
    // (a brute force in Python, with another random generator) finds
    // 1,700 to 1,800 of them in 20,000 references, nearly all in the
    // 300-line hot set; 1,000 is the floor.
    EXPECT_GT(shifted_hits, 1000u);
    expect_same_state(v.view, v.plain, v.c, v.t);
}

TEST(CoherentSingleCore, ShiftingViewSearchMatchesAccess) { expect_shifting_view_matches_access(false); }

// view_rest_shifting() takes a hit on L2's way 1 itself, swapping the two
// front ways (matmul's column of B). Blocks 0 and 32 share D1's set 0 and
// L2's set 0 of desktop_shape(); twelve blocks of D1's set 0 and L2's set
// 16 then push both out of D1 only, so block 0, read again, misses D1 and
// finds itself on L2's way 1 (depth 1). Nine more blocks of L2's set 0
// then evict its least recent line, 32 if the hit moved 0 to the front:
// the counters and contents (dirty bits included) must be the general
// path's, access by access.
TEST(CoherentSingleCore, ViewTakesL2SecondWayHit) {
    HierarchyConfig c = desktop_shape();
    CoherentMachine view, plain;
    CoherentMachine::L1View vd;
    ASSERT_NO_FATAL_FAILURE(init_with_d1_view(view, plain, c, &vd));
    Trace t;
    auto ref = [&](AccessKind k, u64 b) { t.push_back(Ref{0, k, b, kAllBytes}); };
    ref(kWrite, 0);
    ref(kRead, 32);
    for (u64 m = 0; m < 12; ++m) ref(kRead, 16 * (2 * m + 1));
    ref(kRead, 0);  // L2 way 1, behind 32
    for (u64 m = 0; m < 9; ++m) ref(kRead, 32 * (m + 2));
    ref(kWrite, 32);  // gone from L2: L3
    std::vector<u32> depths;
    for (const Ref& x : t) {
        u64* k = vd.keys + (x.block & vd.set_mask) * vd.assoc;
        u32 got;
        if (repl::key_matches(*k, x.block)) {
            if (x.kind == kWrite) *k |= 1;
            vd.refs[x.kind]++;
            got = 0;
        } else {
            got = view.view_rest_shifting(vd, x.kind, x.block);
        }
        ASSERT_EQ(got, plain.access(0, x.kind, x.block, kAllBytes)) << depths.size();
        depths.push_back(got);
    }
    EXPECT_EQ(depths[14], 1u);
    EXPECT_EQ(depths.back(), 2u);
    expect_same_state(view, plain, c, t);
    view.destroy();
    plain.destroy();
}

TEST(CoherentSingleCore, WideViewSearchMatchesAccess) {
    if (!__builtin_cpu_supports("sse4.1")) GTEST_SKIP() << "the host has no SSE4.1";
    expect_shifting_view_matches_access(true);
}

// What the miss worker (vgtool/MissWorker.h) relies on: on the short path,
// L1's half of a miss and the levels below it share no state, so the lower
// halves (and L1's dirty victims' write-backs) may run any number of misses
// later, in order, while L1 goes on. Here they lag by 0 to 300 misses
// (changing as the trace goes, and flushed at the end): every miss's depth,
// in order, and the final counters, contents and traffic are those of
// access() reference by reference. A lower half run before its miss's L1
// half, or victims written back out of order, fail it.
TEST(CoherentSingleCore, LowerHalvesMayLagBehindL1) {
    OneCoreViews v;
    ASSERT_NO_FATAL_FAILURE(v.set_up(29));
    struct Pending {
        AccessKind kind;
        u64 block, victim;
    };
    std::deque<Pending> queue;
    std::vector<u32> lagged_depths, plain_depths;
    auto run_lower = [&](size_t keep) {
        while (queue.size() > keep) {
            Pending p = queue.front();
            queue.pop_front();
            lagged_depths.push_back(v.view.miss_lower_half(p.kind, p.block));
            if (p.victim != CoherentMachine::kNoVictim) v.view.writeback_l1_victim(p.victim);
        }
    };
    u64 victims = 0;
    ASSERT_NO_FATAL_FAILURE(v.lag_lower_halves(
        plain_depths,
        [&](size_t i, u32, u64 victim) {
            victims += victim != CoherentMachine::kNoVictim;
            queue.push_back({v.t[i].kind, v.t[i].block, victim});
        },
        run_lower));
    EXPECT_EQ(lagged_depths, plain_depths);
    EXPECT_GT(victims, 100u);
    // Every dirty victim handed over is one of L1's write-backs on the
    // general path (I1 has none).
    EXPECT_EQ(victims, v.plain.stats(0, 0, false).writebacks);
    expect_same_state(v.view, v.plain, v.c, v.t);
}

// The split of a miss's lower half at L2 (l2_part(), then below_l2() and
// writeback_below_l2()): L2 runs with L1, the levels below it lag by 0 to
// 300 misses' entries (flushed at every 4th thousand references and at the
// end). Every miss's depth, in order, and the final counters, contents and
// traffic must be access()'s. An entry run before the L2 part that made
// it, L2's victim written back before the reference's L3 part, or L1's
// victim's write-back taken into L2 before the reference, fail it.
TEST(CoherentSingleCore, LevelsBelowL2MayLag) {
    OneCoreViews v;
    ASSERT_NO_FATAL_FAILURE(v.set_up(31));
    ASSERT_TRUE(v.view.splits_below_l2());
    struct Entry {
        AccessKind kind;
        u64 op;
        size_t miss;  // the depth's index, for a reference
    };
    std::deque<Entry> queue;
    std::vector<u32> depths, plain_depths;
    u64 references = 0, writebacks = 0;
    auto run_lower = [&](size_t keep) {
        while (queue.size() > keep) {
            Entry e = queue.front();
            queue.pop_front();
            if (e.op & CoherentMachine::LowerWork::kReference)
                depths[e.miss] = v.view.below_l2(e.kind, e.op & ~CoherentMachine::LowerWork::kReference);
            else
                v.view.writeback_below_l2(e.op);
        }
    };
    ASSERT_NO_FATAL_FAILURE(v.lag_lower_halves(
        plain_depths,
        [&](size_t i, u32 want, u64 victim) {
            CoherentMachine::LowerWork w;
            bool front = v.view.l2_front_hit(v.t[i].kind, v.t[i].block);
            u32 d = v.view.l2_part(v.t[i].kind, v.t[i].block, front, victim, &w);
            depths.push_back(d);
            ASSERT_EQ(d == CoherentMachine::kBelowL2, want >= 2) << i;
            for (u32 j = 0; j < w.n; ++j) {
                bool ref = w.op[j] & CoherentMachine::LowerWork::kReference;
                ASSERT_EQ(ref, j == 0 && d == CoherentMachine::kBelowL2) << i;
                references += ref;
                writebacks += !ref;
                queue.push_back({v.t[i].kind, w.op[j], depths.size() - 1});
            }
        },
        run_lower));
    EXPECT_EQ(depths, plain_depths);
    // Every miss of L2 on the general path went below L2 here, and every
    // dirty line L2 evicted: realistic_trace()'s 20,000 references have
    // about 2,000 random ones over 100,000 blocks and 8,000 that stream
    // over 5,000, against desktop_shape()'s 320-line L2, with 3 in 10
    // writes. So thousands of each; 100 and 50 only say the path ran.
    EXPECT_EQ(references, v.plain.stats(0, 1, false).misses[kRead] + v.plain.stats(0, 1, false).misses[kWrite] +
                              v.plain.stats(0, 1, false).misses[kFetch]);
    EXPECT_GT(references, 100u);
    EXPECT_EQ(writebacks, v.plain.stats(0, 1, false).writebacks);
    EXPECT_GT(writebacks, 50u);
    expect_same_state(v.view, v.plain, v.c, v.t);
}

// l2_part() tests L2's last two ways before searching the set: a cycle
// over exactly as many blocks as a set has ways hits the least recent one
// every time. Blocks 0, 32, ..., 288 fill L2's set 0 of desktop_shape()
// (10 ways); with 16, 48 and 80 (L2's set 16) the thirteen of them share
// D1's set 0 (12 ways), so that, cycled, every one misses D1. From the
// second round on each of the ten hits L2 on its last way; L1's dirty
// victims (every other block is written) land on the last ways too. The
// depths, counters and sets must be the general path's.
TEST(CoherentSingleCore, L2PartTakesLastWayHits) {
    HierarchyConfig c = desktop_shape();
    CoherentMachine view, plain;
    CoherentMachine::L1View vd;
    ASSERT_NO_FATAL_FAILURE(init_with_d1_view(view, plain, c, &vd));
    ASSERT_TRUE(view.splits_below_l2());
    Trace t;
    for (int round = 0; round < 4; ++round) {
        for (u64 m = 0; m < 10; ++m) t.push_back(Ref{0, m % 2 ? kWrite : kRead, 32 * m, kAllBytes});
        for (u64 b : {16, 48, 80}) t.push_back(Ref{0, kRead, b, kAllBytes});
    }
    // An eleventh block of the set evicts its least recent line (0, if
    // the hits moved their lines to the front); the ten read again show
    // which one went.
    t.push_back(Ref{0, kRead, 320, kAllBytes});
    for (u64 m = 0; m < 10; ++m) t.push_back(Ref{0, kRead, 32 * m, kAllBytes});
    u32 l2_hits = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        u32 want = plain.access(0, t[i].kind, t[i].block, kAllBytes);
        u64 victim;
        ASSERT_FALSE(view.view_rest_l1(vd, t[i].kind, t[i].block, &victim)) << i;
        CoherentMachine::LowerWork w;
        bool front = view.l2_front_hit(t[i].kind, t[i].block);
        u32 d = view.l2_part(t[i].kind, t[i].block, front, victim, &w);
        d = view.run_below_l2(t[i].kind, w, d);
        ASSERT_EQ(d, want) << i;
        l2_hits += i >= 13 && i < 52 && d == 1 && !front;
    }
    EXPECT_EQ(l2_hits, 3u * 13u);
    expect_same_state(view, plain, c, t);
    view.destroy();
    plain.destroy();
}

// ---------------------------------------------------------------------------
// Several cores: against ReferenceCoherent
// ---------------------------------------------------------------------------
namespace {

std::string flag_text(u32 r) {
    std::ostringstream o;
    o << "depth " << (r & 0xff);
    if (r & kCoherenceMiss) o << " CM";
    if (r & kFalseSharing) o << " FS";
    if (r & kCacheToCache) o << " C2C";
    if (r & kUpgrade) o << " UP";
    if (r & kInvalidatedOthers) o << " INV";
    return o.str();
}

std::string diff_coherence(const CoherenceStats& a, const reference::CoherenceCounters& b) {
    std::ostringstream o;
#define OMPSIM_CMP(f) \
    if (a.f != b.f) o << " " #f " " << a.f << " vs " << b.f;
    OMPSIM_CMP(coherence_misses)
    OMPSIM_CMP(false_sharing_misses)
    OMPSIM_CMP(invalidations_received)
    OMPSIM_CMP(invalidations_sent)
    OMPSIM_CMP(c2c_in)
    OMPSIM_CMP(c2c_out)
    OMPSIM_CMP(upgrades)
#undef OMPSIM_CMP
    return o.str();
}

struct MultiResult {
    u64 accesses = 0, coherence = 0, false_sharing = 0, c2c = 0, upgrades = 0, invalidating = 0;
};

// The page filter of the machine: its default, off, or on with pages of
// 2^shift lines.
struct PageFilter {
    bool set = false;
    bool on = true;
    unsigned shift = 6;
    size_t stop_at = ~size_t(0);  // turned off before this access
};

::testing::AssertionResult run_multi(const HierarchyConfig& cfg, u32 cores, const Trace& trace, size_t check_every,
                                     MultiResult* totals = nullptr, PageFilter filter = PageFilter{},
                                     u64* private_pages = nullptr) {
    CoherentMachine m;
    ErrorText err;
    error_clear(err);
    if (!m.init(cfg, cores, kHeap, err)) return ::testing::AssertionFailure() << "init: " << err.text;
    if (filter.set) m.set_page_filter(filter.on, filter.shift);
    reference::Coherent ref(cfg, cores);
    std::vector<u64> universe = universe_of(trace);
    int P = m.private_levels();
    auto compare = [&]() {
        std::ostringstream o;
        o << diff_memory(m, ref);
        if (m.cores_used() != ref.cores_used()) o << " cores_used " << m.cores_used() << " vs " << ref.cores_used();
        for (u32 c = 0; c < cores; ++c) {
            for (int k = 0; k < cfg.levels; ++k) {
                if (k >= P && c > 0) break;
                for (int side = 0; side < ((k == 0 && cfg.split_l1) ? 2 : 1); ++side) {
                    bool ic = side == 1;
                    std::string d = diff_stats(m.stats(c, k, ic), ref.stats(c, k, ic));
                    if (!d.empty()) o << " core " << c << " L" << k + 1 << (ic ? "I" : "") << ":" << d;
                    for (u64 b : universe) {
                        bool d1 = false, d2 = false;
                        bool p1 = m.contains(c, k, ic, b, &d1), p2 = ref.contains(c, k, ic, b, &d2);
                        if (p1 != p2 || (p1 && d1 != d2))
                            o << " core " << c << " L" << k + 1 << (ic ? "I" : "") << " block " << b << " present "
                              << p1 << "/" << p2 << " dirty " << d1 << "/" << d2;
                    }
                }
            }
            std::string d = diff_coherence(m.coherence(c, P - 1), ref.coherence(c));
            if (!d.empty()) o << " core " << c << " coherence:" << d;
            for (int k = 0; k < P - 1; ++k) {
                reference::CoherenceCounters zero;
                d = diff_coherence(m.coherence(c, k), zero);
                if (!d.empty()) o << " core " << c << " level " << k << " coherence not zero:" << d;
            }
            for (u64 b : universe) {
                char s1 = m.state(c, b), s2 = ref.state(c, b);
                if (s1 != s2) o << " core " << c << " block " << b << " state " << s1 << " vs " << s2;
                u64 w1 = 0, w2 = 0;
                bool l1 = m.loss_record(c, b, &w1), l2 = ref.loss_record(c, b, &w2);
                if (l1 != l2 || (l1 && w1 != w2))
                    o << " core " << c << " block " << b << " loss record " << l1 << "/" << l2 << " mask " << std::hex
                      << w1 << "/" << w2 << std::dec;
            }
        }
        return o.str();
    };
    auto fail = [&](size_t i, const std::string& what) {
        m.destroy();
        std::ostringstream o;
        o << describe(cfg, cores) << ": access #" << i;
        if (i < trace.size())
            o << " (core " << trace[i].core << " " << kname(trace[i].kind) << " " << trace[i].block << ")";
        return ::testing::AssertionFailure() << o.str() << ": " << what;
    };
    for (size_t i = 0; i < trace.size(); ++i) {
        const Ref& a = trace[i];
        if (i == filter.stop_at) {
            if (!m.page_filter()) return fail(i, "the page filter did not run");
            m.set_page_filter(false, 0);
        }
        u32 r1 = m.access(a.core, a.kind, a.block, a.bytes);
        u32 r2 = ref.access(a.core, a.kind, a.block, a.bytes);
        if (r1 != r2) return fail(i, flag_text(r1) + " vs reference " + flag_text(r2));
        if (totals) {
            totals->accesses++;
            totals->coherence += (r1 & kCoherenceMiss) != 0;
            totals->false_sharing += (r1 & kFalseSharing) != 0;
            totals->c2c += (r1 & kCacheToCache) != 0;
            totals->upgrades += (r1 & kUpgrade) != 0;
            totals->invalidating += (r1 & kInvalidatedOthers) != 0;
        }
        if (check_every && (i + 1) % check_every == 0) {
            std::string s = compare();
            if (!s.empty()) return fail(i, s);
        }
    }
    std::string s = compare();
    if (!s.empty()) return fail(trace.size(), "final:" + s);
    // Conservation: every transfer and invalidation has two ends.
    u64 in = 0, out = 0, sent = 0, received = 0;
    for (u32 c = 0; c < cores; ++c) {
        in += m.coherence(c, P - 1).c2c_in;
        out += m.coherence(c, P - 1).c2c_out;
        sent += m.coherence(c, P - 1).invalidations_sent;
        received += m.coherence(c, P - 1).invalidations_received;
    }
    if (in != out || sent != received) return fail(trace.size(), "unbalanced c2c or invalidations");
    if (private_pages) *private_pages += m.filter_pages() - m.filter_shared_pages();
    m.destroy();
    return ::testing::AssertionSuccess();
}

// A multi-core trace: each core works on private blocks, on blocks shared
// by all (read mostly or written), and on false-shared lines, in bursts of
// random length; all blocks fall into a few sets so that lines are evicted.
Trace multicore_trace(Rng& r, u32 cores, size_t n, u64 period, u64 spread) {
    Trace t;
    u32 core = 0;
    for (size_t i = 0; i < n; ++i) {
        if (r.below(4) == 0) core = u32(r.below(cores));
        u64 sel = r.below(10);
        u64 b;
        AccessKind kind = random_kind(r);
        u64 by = random_bytes(r);
        if (sel < 3) {
            b = 3 + core * 7 + r.below(spread) * period;  // mostly this core's
        } else if (sel < 7) {
            b = 1 + r.below(spread) * period;            // shared by all
        } else {
            b = 2 + r.below(2) * period;                 // false shared: 8 bytes per core
            by = bytes(unsigned(core % 8) * 8, 8);
            if (kind == kFetch) kind = kWrite;
        }
        t.push_back({core, kind, b, by});
    }
    return t;
}

HierarchyConfig random_multicore_config(Rng& r, int levels) {
    std::vector<LevelChoice> ch;
    ch.push_back(level0_choices()[r.below(8)]);
    auto lower = lower_choices();
    for (int k = 1; k < levels; ++k) ch.push_back(lower[r.below(lower.size())]);
    HierarchyConfig c = build_multi(r, ch, r.below(2) == 1);
    // Small caches: evictions everywhere.
    static const u64 kSets[] = {1, 2, 4};
    static const u32 kAssoc[] = {1, 2, 4};
    for (int k = 0; k < levels; ++k) {
        u64 sets = kSets[r.below(3)];
        u32 assoc = kAssoc[r.below(3)] * u32(1 + k);
        if (ch[k].r == Replacement::PLRU) assoc = u32(1) << r.below(4);
        c.level[k] = level(sets, assoc, ch[k].r, ch[k].w, ch[k].i);
    }
    c.i1 = level(kSets[r.below(3)], 2, kRepls[r.below(4)]);
    return c;
}

}  // namespace

TEST(CoherentDifferential, AllPolicyCombinations) {
    Rng r(21);
    MultiResult tot;
    int configs = 0;
    for (int levels = 1; levels <= 4; ++levels)
        for (int trial = 0; trial < 120; ++trial) {
            HierarchyConfig c = random_multicore_config(r, levels);
            u32 cores = u32(2 + r.below(7));
            Trace t = multicore_trace(r, cores, 500, 4, 6);
            ASSERT_TRUE(run_multi(c, cores, t, 25, &tot));
            ++configs;
        }
    // The traces exercise every kind of event.
    EXPECT_GT(tot.coherence, 1000u);
    EXPECT_GT(tot.false_sharing, 100u);
    EXPECT_GT(tot.c2c, 1000u);
    EXPECT_GT(tot.upgrades, 100u);
    EXPECT_GT(tot.invalidating, 1000u);
    std::printf("[          ] %d configurations, %llu accesses: %llu coherence misses (%llu false sharing), "
                "%llu c2c, %llu upgrades, %llu invalidating\n",
                configs, (unsigned long long)tot.accesses, (unsigned long long)tot.coherence,
                (unsigned long long)tot.false_sharing, (unsigned long long)tot.c2c, (unsigned long long)tot.upgrades,
                (unsigned long long)tot.invalidating);
}

// Every shared-level inclusion and write policy directly below the private
// levels, with every private-level policy, and 2 to 8 cores.
TEST(CoherentDifferential, SharedLevelPolicies) {
    Rng r(22);
    for (const LevelChoice& l0 : level0_choices())
        for (auto& p : kLowerPolicies)
            for (Replacement rep : kRepls)
                for (u32 plevels : {1u, 2u}) {
                    HierarchyConfig c = random_multicore_config(r, 3);
                    c.level[0].replacement = l0.r;
                    c.level[0].write = l0.w;
                    if (l0.r == Replacement::PLRU) c.level[0].assoc = 2, c.level[0].size = 2 * 2 * 64;
                    c.level[plevels].write = p.first;
                    c.level[plevels].inclusion = p.second;
                    c.level[plevels].replacement = rep;
                    if (rep == Replacement::PLRU) c.level[plevels].assoc = 4, c.level[plevels].size = 2 * 4 * 64;
                    c.private_levels = plevels;
                    u32 cores = u32(2 + r.below(7));
                    ASSERT_TRUE(run_multi(c, cores, multicore_trace(r, cores, 400, 2, 8), 40));
                }
}

// Everything private (no shared level): transfers at memory's depth.
TEST(CoherentDifferential, AllLevelsPrivate) {
    Rng r(23);
    for (int levels = 1; levels <= 3; ++levels)
        for (int trial = 0; trial < 30; ++trial) {
            HierarchyConfig c = random_multicore_config(r, levels);
            c.private_levels = u32(levels);
            u32 cores = u32(2 + r.below(3));
            ASSERT_TRUE(run_multi(c, cores, multicore_trace(r, cores, 400, 4, 5), 50));
        }
}

// The page filter (PageOwners.h) changes nothing: every result, counter,
// content, state and loss record is the reference's with the filter off,
// with pages of one line (each core's own blocks stay private, the others
// are shared at once), of 2 and 8 lines (pages shared by a neighbour's
// block), and with pages of one line until the filter stops halfway (what
// happens when its table cannot grow: every owned page enters the
// directory). The machines are write-back (the filter runs only then) with
// any replacement and inclusion.
TEST(CoherentDifferential, PageFilterChangesNothing) {
    Rng r(28);
    u64 private_pages[5] = {0, 0, 0, 0, 0};
    for (int trial = 0; trial < 80; ++trial) {
        HierarchyConfig c = random_multicore_config(r, 1 + trial % 4);
        for (int k = 0; k < c.levels; ++k) c.level[k].write = WritePolicy::WriteBack;
        c.private_levels = u32(1 + r.below(u64(c.levels)));
        u32 cores = u32(2 + r.below(5));
        Trace t = multicore_trace(r, cores, 500, 4, 6);
        const PageFilter filters[] = {{true, false, 0}, {true, true, 0}, {true, true, 1}, {true, true, 3},
                                      {true, true, 0, 250}};
        for (int f = 0; f < 5; ++f)
            ASSERT_TRUE(run_multi(c, cores, t, 20, nullptr, filters[f], &private_pages[f])) << "filter " << f;
    }
    // The filter ran, and pages stayed private to one core to the end. With
    // pages of one line, core c's six own blocks 3 + 7c + 4k (k < 6) are
    // touched by it alone (no other core's own blocks meet them, and of the
    // shared blocks 1 + 4k and 2, 6 only 17 and 21 of core 2's do): 6 x
    // cores - 2 pages a trial, about 22 on average over 2 to 6 cores, some
    // 1,700 in 80 trials; 1,000 leaves room for blocks a 500-access trace
    // never touched. Pages of two lines pair a block with a neighbour's (all
    // six of core 0's do), so fewer stay private: 200 is a loose floor.
    EXPECT_EQ(private_pages[0], 0u);
    EXPECT_EQ(private_pages[4], 0u);
    EXPECT_GT(private_pages[1], 1000u);
    EXPECT_GT(private_pages[2], 200u);
    std::printf("[          ] pages private at the end: %llu (1 line), %llu (2 lines), %llu (8 lines)\n",
                (unsigned long long)private_pages[1], (unsigned long long)private_pages[2],
                (unsigned long long)private_pages[3]);
}

// The short miss path for pages one core has to itself (miss_owned()): on
// LRU, write-back, non-inclusive machines of 1 to 4 levels, with pages of
// 1 and 2 lines and the default 64, against the reference.
TEST(CoherentDifferential, ShortMissPathOnOwnedPages) {
    Rng r(29);
    u64 private_pages = 0;
    for (int trial = 0; trial < 60; ++trial) {
        HierarchyConfig c = random_multicore_config(r, 1 + trial % 4);
        for (int k = 0; k < c.levels; ++k) {
            c.level[k].replacement = Replacement::LRU;
            c.level[k].write = WritePolicy::WriteBack;
            c.level[k].inclusion = Inclusion::NonInclusive;
            c.level[k].prefetch = PrefetchConfig{};
        }
        c.i1.replacement = Replacement::LRU;
        c.private_levels = u32(1 + r.below(u64(c.levels)));
        u32 cores = u32(2 + r.below(5));
        {
            CoherentMachine m;
            ErrorText err;
            error_clear(err);
            ASSERT_TRUE(m.init(c, cores, kHeap, err)) << err.text;
            m.access(1, kRead, 1, kAllBytes);
            ASSERT_TRUE(m.owned_misses()) << describe(c, cores);
            m.destroy();
        }
        Trace t = multicore_trace(r, cores, 500, 4, 6);
        for (unsigned shift : {0u, 1u, 6u})
            ASSERT_TRUE(run_multi(c, cores, t, 20, nullptr, PageFilter{true, true, shift}, &private_pages))
                << "pages of " << (1u << shift) << " lines";
    }
    // Pages of one line alone leave about 22 private pages a trial (see
    // PageFilterChangesNothing): some 1,300 in 60 trials.
    EXPECT_GT(private_pages, 1000u);
}

// Core numbers spread over several 64-bit words of the holder sets (and
// the first access of the machine by a core other than 0).
TEST(CoherentDifferential, ManyCoreNumbers) {
    Rng r(25);
    const u32 ids[] = {0, 63, 64, 130, 255};
    for (int trial = 0; trial < 24; ++trial) {
        HierarchyConfig c = random_multicore_config(r, 1 + trial % 3);
        Trace t = multicore_trace(r, 5, 600, 4, 5);
        for (Ref& a : t) a.core = ids[(a.core + u32(trial)) % 5];
        ASSERT_TRUE(run_multi(c, 256, t, 100));
    }
}

// Every core's level counters and coherence figures of two machines that
// ran the same trace.
void expect_same_figures(const CoherentMachine& a, const CoherentMachine& b, const HierarchyConfig& c, u32 cores,
                         int trial) {
    for (u32 core = 0; core < cores; ++core) {
        for (int k = 0; k < c.levels; ++k)
            for (bool ic : {false, true}) {
                if (ic && k) continue;
                EXPECT_EQ(diff_stats(a.stats(core, k, ic), b.stats(core, k, ic)), "") << trial << " " << k;
            }
        const CoherenceStats& x = a.coherence(core, a.private_levels() - 1);
        const CoherenceStats& y = b.coherence(core, b.private_levels() - 1);
        EXPECT_EQ(x.coherence_misses, y.coherence_misses);
        EXPECT_EQ(x.invalidations_sent, y.invalidations_sent);
        EXPECT_EQ(x.c2c_in, y.c2c_in);
        EXPECT_EQ(x.upgrades, y.upgrades);
    }
}

// `trials` random multi-core machines (1 to 4 levels, split L1 on even
// trials, 1 to 6 cores, every policy), each built twice: one runs a trace
// of `n` references through access(), the other through the driver
// make(machine) returns (called with each reference, it returns the
// result). The results agree reference by reference, then the counters and
// coherence figures.
template <typename MakeDriver>
void differential_trials(u64 seed, int trials, size_t n, MakeDriver make) {
    Rng r(seed);
    for (int trial = 0; trial < trials; ++trial) {
        HierarchyConfig c = random_multicore_config(r, 1 + trial % 4);
        c.split_l1 = trial % 2 == 0;
        u32 cores = u32(1 + r.below(6));
        Trace t = multicore_trace(r, cores, n, 4, 6);
        CoherentMachine a, b;
        ErrorText err;
        error_clear(err);
        ASSERT_TRUE(a.init(c, cores, kHeap, err)) << err.text;
        ASSERT_TRUE(b.init(c, cores, kHeap, err)) << err.text;
        auto drive = make(b);
        for (size_t i = 0; i < t.size(); ++i)
            ASSERT_EQ(a.access(t[i].core, t[i].kind, t[i].block, t[i].bytes), drive(t[i]))
                << "trial " << trial << " access " << i;
        expect_same_figures(a, b, c, cores, trial);
        a.destroy();
        b.destroy();
    }
}

// access_lru() (the replay's entry, the LRU search inline) and access().
TEST(CoherentDifferential, AccessLruMatchesAccess) {
    differential_trials(27, 120, 600, [](CoherentMachine& b) {
        return [&b](const Ref& x) { return b.access_lru(x.core, x.kind, x.block, x.bytes, 0); };
    });
}

// The replay's own L1 hit test (vgtool/CoreSim.cpp): a view of the running
// core's L1 taken when the core changes (a batch runs one core's events)
// and after a slow access while it had none, try_hit() first, then for a
// write dirty_watched_hit() with write_records(), access_lru() when both
// decline. A write rule that ignored the watch slots, or a clean write
// that did not check clean_free, fails here, and so does a watched write
// whose bytes miss the loss records (write_records() left out).
TEST(CoherentDifferential, CoreViewHitsMatchAccess) {
    u64 inline_hits = 0, watched_hits = 0, accesses = 0;
    differential_trials(31, 160, 800, [&](CoherentMachine& b) {
        struct Views {
            CoherentMachine::CoreL1View i, d;
            bool ok_i = false, ok_d = false;
            u32 running = ~0u;
        };
        return [&b, &inline_hits, &watched_hits, &accesses, v = Views()](const Ref& x) mutable -> u32 {
            ++accesses;
            if (x.core != v.running) {
                v.running = x.core;
                v.ok_i = b.core_l1_view(v.running, true, &v.i);
                v.ok_d = b.core_l1_view(v.running, false, &v.d);
            }
            bool fetch = x.kind == kFetch;
            const CoherentMachine::CoreL1View& view = fetch ? v.i : v.d;
            if ((fetch ? v.ok_i : v.ok_d) && (x.kind == kRead    ? view.try_hit<kRead>(x.block)
                                              : x.kind == kWrite ? view.try_hit<kWrite>(x.block)
                                                                 : view.try_hit<kFetch>(x.block))) {
                ++inline_hits;
                ++view.l.refs[x.kind];
                return 0;
            }
            if (x.kind == kWrite && v.ok_d && v.d.dirty_watched_hit(x.block)) {
                ++watched_hits;
                ++v.d.l.refs[kWrite];
                b.write_records(x.block, x.bytes);
                return 0;
            }
            u32 r = b.access_lru(x.core, x.kind, x.block, x.bytes, 0);
            if (!v.ok_i) v.ok_i = b.core_l1_view(v.running, true, &v.i);
            if (!v.ok_d) v.ok_d = b.core_l1_view(v.running, false, &v.d);
            return r;
        };
    });
    // The views took part: 8,540 of the 128,000 accesses are inline hits.
    // The traces are mostly coherence traffic, on small caches, and PLRU
    // levels and sets that are not a power of two get no view.
    EXPECT_GT(inline_hits, accesses / 20);
    EXPECT_GT(watched_hits, 0u);
}

// Larger caches, longer traces, the single-core start (core 0 alone for a
// while, as the tool runs the serial part) and cores joining later.
TEST(CoherentDifferential, LongTracesWithSerialStart) {
    Rng r(24);
    for (int trial = 0; trial < 12; ++trial) {
        HierarchyConfig c = build_multi(r, {level0_choices()[trial % 8], lower_choices()[r.below(20)], lower_choices()[r.below(20)]},
                                  trial % 2 == 0);
        c.i1 = level(8, 2, kRepls[trial % 4]);
        c.level[0] = level(8, 2, c.level[0].replacement, c.level[0].write, Inclusion::NonInclusive);
        c.level[1] = level(16, 4, c.level[1].replacement, c.level[1].write, c.level[1].inclusion);
        c.level[2] = level(32, 8, c.level[2].replacement, c.level[2].write, c.level[2].inclusion);
        c.private_levels = u32(1 + trial % 2);
        u32 cores = 8;
        Trace t;
        for (int i = 0; i < 2000; ++i) t.push_back({0, random_kind(r), r.below(600), random_bytes(r)});
        Trace par = multicore_trace(r, cores, 12000, 1, 400);
        t.insert(t.end(), par.begin(), par.end());
        ASSERT_TRUE(run_multi(c, cores, t, 1000));
    }
}

// ---------------------------------------------------------------------------
// Speed (a sanity check, not a benchmark; numbers are printed)
// ---------------------------------------------------------------------------
namespace {

HierarchyConfig desktop_like() {
    HierarchyConfig c = machine({level(64, 12), level(2048, 10), level(40960, 12)}, 2, true);
    c.i1 = level(64, 8);
    return c;
}

template <class F>
double ns_per_access(F&& body, u64 accesses) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return s * 1e9 / double(accesses);
}

}  // namespace

// Two patterns, all hits: "mru" touches each line 4 times in a row (the
// inline path), "lru" cycles through 4 lines per set (a non-MRU hit: the
// out-of-line path). Half the data accesses are writes.
TEST(CoherentPerf, L1HitsCostTheSameWithMoreCores) {
    HierarchyConfig c = desktop_like();
    M one(c, 1), four(c, 4);
    // Four cores active, each on its own lines.
    for (u32 core = 1; core < 4; ++core) four.a(core, kRead, 1u << 20);
    const int reps = 2000;
    volatile u64 sink = 0;
    struct Pattern {
        const char* name;
        int repeat;
    };
    for (Pattern pat : {Pattern{"mru", 4}, Pattern{"lru", 1}}) {
        const int repeat = pat.repeat;
        const u64 n = u64(reps) * 256 * 2 * u64(repeat);
        auto run_m = [&](M& t, u32 cores) {
            return [&t, cores, &sink, repeat] {
                u64 s = 0;
                for (int rep = 0; rep < reps; ++rep)
                    for (u64 b = 0; b < 256; ++b) {
                        u32 core = u32(b % cores);
                        for (int i = 0; i < repeat; ++i) {
                            s += t.m.access(core, kFetch, b, kAll);
                            s += t.m.access(core, b & 1 ? kWrite : kRead, b + 100000 + core * 1000000, kAll);
                        }
                    }
                sink = sink + s;
            };
        };
        run_m(one, 1)();  // warm up: all hits afterwards
        run_m(four, 4)();
        double best_1 = 1e9, best_4 = 1e9;
        for (int round = 0; round < 5; ++round) {
            best_1 = std::min(best_1, ns_per_access(run_m(one, 1), n));
            best_4 = std::min(best_4, ns_per_access(run_m(four, 4), n));
        }
        std::printf("[          ] L1 hits (%s): 1 core %.2f ns, 4 cores %.2f ns\n", pat.name, best_1, best_4);
        EXPECT_LT(best_4, 3 * best_1 + 2.0);
    }
    EXPECT_EQ(one.m.stats(0, 0, true).misses[kFetch], 256u);
    EXPECT_EQ(four.m.directory_entries() > 0, true);
}

// The cost of the coherence machinery on private misses (docs/cache-model.md
// quotes these numbers): streams of 8-byte elements over 4 MiB per core (one
// L1 miss per 8 accesses, L2 misses, L3 hits after the first pass), by one
// core, by 4 and 8 cores on their own
// arrays (every private miss and eviction updates the directory), 4 cores
// reading one shared array, 4 cores writing their own arrays, and 2 cores
// writing disjoint bytes of one line (every access a coherence miss).
TEST(CoherentPerf, MissPaths) {
    HierarchyConfig c = desktop_like();
    const u64 lines = 65536, passes = 3;
    auto stream = [&](auto&& access, u32 cores, bool shared, AccessKind kind) {
        u64 s = 0;
        for (u64 pass = 0; pass < passes; ++pass)
            for (u64 chunk = 0; chunk < lines; chunk += 16)
                for (u32 core = 0; core < cores; ++core)
                    for (u64 l = chunk; l < chunk + 16; ++l) {
                        u64 b = (shared ? 0 : (u64(core) << 24)) + (1u << 20) + l;
                        for (unsigned e = 0; e < 8; ++e) s += access(core, kind, b, bytes(e * 8, 8));
                    }
        return s;
    };
    volatile u64 sink = 0;
    auto time_it = [&](const char* what, u32 cores, bool shared, AccessKind kind) {
        double best = 1e9;
        u64 n = passes * lines * 8 * cores;
        for (int round = 0; round < 2; ++round) {
            M t(c, 16);
            best = std::min(best, ns_per_access([&] {
                sink = sink + stream([&](u32 core, AccessKind k, u64 b, u64 by) { return t.m.access(core, k, b, by); },
                                     cores, shared, kind);
            }, n));
        }
        std::printf("[          ] %-44s %6.2f ns/access\n", what, best);
        return best;
    };
    double h1 = time_it("1 core, read stream", 1, false, kRead);
    double m4 = time_it("4 cores, own arrays, read", 4, false, kRead);
    double m8 = time_it("8 cores, own arrays, read", 8, false, kRead);
    double s4 = time_it("4 cores, one shared array, read", 4, true, kRead);
    double w4 = time_it("4 cores, own arrays, write", 4, false, kWrite);
    M fs(c, 2);
    const u64 n = 2000000;
    double f2 = ns_per_access([&] {
        u64 s = 0;
        for (u64 i = 0; i < n / 2; ++i) {
            s += fs.a(0, kWrite, 77, bytes(0, 8));
            s += fs.a(1, kWrite, 77, bytes(8, 8));
        }
        sink = sink + s;
    }, n);
    std::printf("[          ] %-44s %6.2f ns/access\n", "CoherentMachine, 2 cores, false sharing", f2);
    EXPECT_EQ(fs.cs(1).false_sharing_misses, n / 2 - 1);  // its first write lost nothing
    EXPECT_LT(m4, 6 * h1 + 20);
    EXPECT_LT(m8, 6 * h1 + 20);
    EXPECT_LT(s4, 6 * h1 + 20);
    EXPECT_LT(w4, 6 * h1 + 20);
    EXPECT_LT(f2, 2000.0);
}
