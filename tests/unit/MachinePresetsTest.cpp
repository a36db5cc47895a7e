// The CPU presets of --machine=NAME (cachesim/MachinePresets.cpp): every
// figure asserted here is the one docs/machines.md gives with its source, so
// the document and the code cannot drift apart.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "MachineConfig.h"
#include "TestSupport.h"

using namespace ompsim;

namespace {

constexpr u64 KiB = 1024;
constexpr u64 MiB = 1024 * 1024;

HierarchyConfig preset(const char* name) {
    HierarchyConfig c{};
    EXPECT_TRUE(machine_preset(name, c)) << name;
    return c;
}

u64 sets(const LevelConfig& l) { return l.size / (u64(l.line) * l.assoc); }

// Geometry, latency and inclusion of one level (always LRU, write-back).
void expect_level(const LevelConfig& l, u64 size, u32 assoc, u64 nsets, u32 latency,
                  Inclusion inclusion, const char* what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(l.size, size);
    EXPECT_EQ(l.assoc, assoc);
    EXPECT_EQ(l.line, 64u);
    EXPECT_EQ(sets(l), nsets);
    EXPECT_EQ(l.size % (u64(l.line) * l.assoc), 0u);
    EXPECT_EQ(l.latency, latency);
    EXPECT_EQ(l.inclusion, inclusion);
    EXPECT_EQ(l.replacement, Replacement::LRU);
    EXPECT_EQ(l.write, WritePolicy::WriteBack);
}

void expect_no_prefetcher(const LevelConfig& l, const char* what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(l.prefetch.kinds, 0u);
}

void expect_prefetcher(const LevelConfig& l, u8 kinds, u32 degree, u32 stride_entries,
                       u32 stream_entries, const char* what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(l.prefetch.kinds, kinds);
    EXPECT_EQ(l.prefetch.degree, degree);
    if (kinds & kPrefetchStride) {
        EXPECT_EQ(l.prefetch.stride_entries, stride_entries);
    }
    if (kinds & kPrefetchStream) {
        EXPECT_EQ(l.prefetch.stream_entries, stream_entries);
    }
}

void expect_tlb(const TlbConfig& t, u32 e1, u32 a1, u32 e2, u32 a2, u32 lat2, u32 walk) {
    EXPECT_EQ(t.levels, 2);
    EXPECT_EQ(t.page_size, 4096u);
    EXPECT_EQ(t.level[0].entries, e1);
    EXPECT_EQ(t.level[0].assoc, a1);
    EXPECT_EQ(t.level[0].latency, 0u);
    EXPECT_EQ(t.level[1].entries, e2);
    EXPECT_EQ(t.level[1].assoc, a2);
    EXPECT_EQ(t.level[1].latency, lat2);
    EXPECT_EQ(t.walk_latency, walk);
}

// Private I1, D1 and L2; shared L3, whose latency is the cache-to-cache one.
void expect_three_levels_shared_l3(const HierarchyConfig& c) {
    EXPECT_FALSE(c.cachegrind);
    EXPECT_EQ(c.levels, 3);
    EXPECT_TRUE(c.split_l1);
    EXPECT_TRUE(c.icache);
    EXPECT_EQ(c.random_seed, 1u);
    EXPECT_EQ(c.cpi_x100, 100u);
    EXPECT_EQ(c.private_levels, 2u);
    EXPECT_EQ(c.c2c_latency, c.level[2].latency);
    EXPECT_EQ(c.upgrade_latency, c.level[2].latency);
}

const char* const kCpuPresets[] = {"golden-cove", "sapphire-rapids", "zen3", "zen4", "zen5"};

}  // namespace

// --- Names and validation --------------------------------------------------

TEST(MachinePresets, NamesAreAlphabeticalAndIncludeHost) {
    std::vector<std::string> names;
    for (const char* const* n = machine_preset_names(); *n; ++n) names.push_back(*n);
    EXPECT_EQ(names, (std::vector<std::string>{"cachegrind", "desktop", "golden-cove", "host",
                                               "sapphire-rapids", "teaching", "zen3", "zen4",
                                               "zen5"}));
    for (size_t i = 1; i < names.size(); ++i) EXPECT_LT(names[i - 1], names[i]);
    HierarchyConfig c;
    EXPECT_FALSE(machine_preset("host", c));  // detected at run time, not a preset
    EXPECT_FALSE(machine_preset("zen", c));
    EXPECT_FALSE(machine_preset("Zen4", c));
    EXPECT_FALSE(machine_preset("golden_cove", c));
}

TEST(MachinePresets, EveryPresetBuildsAndValidates) {
    int built = 0;
    for (const char* const* n = machine_preset_names(); *n; ++n) {
        if (std::string(*n) == "host") continue;
        HierarchyConfig c;
        ASSERT_TRUE(machine_preset(*n, c)) << *n;
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(validate(c, err)) << *n << ": " << err.text;
        ++built;
    }
    EXPECT_EQ(built, 8);
}

TEST(MachinePresets, CpuPresetsModelPrefetchersAndTlbs) {
    for (const char* name : kCpuPresets) {
        SCOPED_TRACE(name);
        HierarchyConfig c = preset(name);
        EXPECT_NE(c.level[0].prefetch.kinds, 0u);
        EXPECT_NE(c.level[1].prefetch.kinds, 0u);
        EXPECT_EQ(c.level[2].prefetch.kinds, 0u);  // no L3 prefetcher documented / allowed
        EXPECT_EQ(c.i1.prefetch.kinds, 0u);
        EXPECT_EQ(c.tlb.levels, 2);
        // Latencies grow level by level, and memory is the slowest.
        EXPECT_LT(c.level[0].latency, c.level[1].latency);
        EXPECT_LT(c.level[1].latency, c.level[2].latency);
        EXPECT_LT(c.level[2].latency, c.memory_latency);
    }
}

// --- The original presets are pinned ----------------------------------------

TEST(MachinePresets, DesktopTeachingCachegrindUnchanged) {
    HierarchyConfig d = preset("desktop");
    expect_three_levels_shared_l3(d);
    expect_level(d.i1, 32 * KiB, 8, 64, 5, Inclusion::NonInclusive, "desktop I1");
    expect_level(d.level[0], 48 * KiB, 12, 64, 5, Inclusion::NonInclusive, "desktop D1");
    expect_level(d.level[1], 1280 * KiB, 10, 2048, 15, Inclusion::NonInclusive, "desktop L2");
    expect_level(d.level[2], 30 * MiB, 12, 40960, 65, Inclusion::NonInclusive, "desktop L3");
    EXPECT_EQ(d.memory_latency, 250u);
    EXPECT_EQ(d.c2c_latency, 65u);
    // No prefetcher and no TLB by design: results can be reasoned about by hand.
    expect_no_prefetcher(d.i1, "desktop I1");
    for (int k = 0; k < 3; ++k) expect_no_prefetcher(d.level[k], "desktop level");
    EXPECT_EQ(d.tlb.levels, 0);

    HierarchyConfig t = preset("teaching");
    EXPECT_FALSE(t.cachegrind);
    EXPECT_EQ(t.levels, 2);
    expect_level(t.i1, 4 * KiB, 2, 32, 4, Inclusion::NonInclusive, "teaching I1");
    expect_level(t.level[0], 4 * KiB, 2, 32, 4, Inclusion::NonInclusive, "teaching D1");
    expect_level(t.level[1], 64 * KiB, 8, 128, 12, Inclusion::NonInclusive, "teaching L2");
    EXPECT_EQ(t.memory_latency, 100u);
    EXPECT_EQ(t.private_levels, 1u);
    EXPECT_EQ(t.c2c_latency, 12u);
    EXPECT_EQ(t.upgrade_latency, 12u);
    expect_no_prefetcher(t.level[0], "teaching D1");
    expect_no_prefetcher(t.level[1], "teaching L2");
    EXPECT_EQ(t.tlb.levels, 0);

    HierarchyConfig g = preset("cachegrind");
    EXPECT_TRUE(g.cachegrind);
    EXPECT_EQ(g.levels, 2);
    expect_level(g.i1, 32 * KiB, 8, 64, 1, Inclusion::NonInclusive, "cachegrind I1");
    expect_level(g.level[0], 32 * KiB, 8, 64, 1, Inclusion::NonInclusive, "cachegrind D1");
    expect_level(g.level[1], 8 * MiB, 16, 8192, 10, Inclusion::NonInclusive, "cachegrind LL");
    EXPECT_EQ(g.memory_latency, 100u);
    EXPECT_EQ(g.private_levels, 1u);
    EXPECT_EQ(g.c2c_latency, 10u);
    expect_no_prefetcher(g.level[0], "cachegrind D1");
    expect_no_prefetcher(g.level[1], "cachegrind LL");
    EXPECT_EQ(g.tlb.levels, 0);
}

// --- Intel ------------------------------------------------------------------

TEST(MachinePresets, GoldenCove) {
    HierarchyConfig c = preset("golden-cove");
    expect_three_levels_shared_l3(c);
    // desktop's geometry: D1 64 sets x 12 ways; L2 1.25 MiB 10-way =
    // 1310720 / (64 x 10) = 2048 sets; L3 30 MiB 12-way = 40960 sets.
    expect_level(c.i1, 32 * KiB, 8, 64, 5, Inclusion::NonInclusive, "I1");
    expect_level(c.level[0], 48 * KiB, 12, 64, 5, Inclusion::NonInclusive, "D1");
    EXPECT_EQ(c.level[1].size, 1310720u);
    expect_level(c.level[1], 1280 * KiB, 10, 2048, 15, Inclusion::NonInclusive, "L2");
    expect_level(c.level[2], 30 * MiB, 12, 40960, 76, Inclusion::NonInclusive, "L3");
    EXPECT_EQ(c.memory_latency, 450u);
    EXPECT_EQ(c.c2c_latency, 76u);
    // Same caches as desktop, level by level.
    HierarchyConfig d = preset("desktop");
    EXPECT_EQ(c.i1.size, d.i1.size);
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(c.level[k].size, d.level[k].size) << k;
        EXPECT_EQ(c.level[k].assoc, d.level[k].assoc) << k;
    }
    // DCU next-line + IP stride on D1; the L2 streamer (2 per lookup, 32 streams).
    expect_no_prefetcher(c.i1, "I1");
    expect_prefetcher(c.level[0], kPrefetchNextLine | kPrefetchStride, 1, 256, 0, "D1");
    expect_prefetcher(c.level[1], kPrefetchStream, 2, 0, 32, "L2");
    expect_no_prefetcher(c.level[2], "L3");
    // 96-entry 6-way load DTLB (16 sets), 2048-entry 16-way STLB.
    expect_tlb(c.tlb, 96, 6, 2048, 16, 7, 30);
    EXPECT_EQ(c.tlb.level[0].entries / c.tlb.level[0].assoc, 16u);
}

TEST(MachinePresets, SapphireRapids) {
    HierarchyConfig c = preset("sapphire-rapids");
    expect_three_levels_shared_l3(c);
    expect_level(c.i1, 32 * KiB, 8, 64, 5, Inclusion::NonInclusive, "I1");
    expect_level(c.level[0], 48 * KiB, 12, 64, 5, Inclusion::NonInclusive, "D1");
    // 2 MiB 16-way: 2048 sets.
    expect_level(c.level[1], 2 * MiB, 16, 2048, 16, Inclusion::NonInclusive, "L2");
    // Xeon Platinum 8480+: 56 slices of 1.875 MiB, 15-way (2048 sets per
    // slice) = 105 MiB, 114688 sets (not a power of two: indexed by modulo).
    EXPECT_EQ(56 * (1875 * MiB / 1000), 105 * MiB);
    EXPECT_EQ(1875 * MiB / 1000 / (64 * 15), 2048u);
    expect_level(c.level[2], 105 * MiB, 15, 114688, 125, Inclusion::NonInclusive, "L3");
    EXPECT_EQ(c.memory_latency, 420u);
    expect_no_prefetcher(c.i1, "I1");
    expect_prefetcher(c.level[0], kPrefetchNextLine | kPrefetchStride, 1, 256, 0, "D1");
    expect_prefetcher(c.level[1], kPrefetchStream, 2, 0, 32, "L2");
    expect_no_prefetcher(c.level[2], "L3");
    expect_tlb(c.tlb, 96, 6, 2048, 16, 7, 30);
}

// --- AMD --------------------------------------------------------------------

namespace {

// L1 stream + stride on D1, L2 stream + up/down (next-line) on L2, no
// prefetcher on the victim L3.
void expect_zen_prefetchers(const HierarchyConfig& c) {
    expect_no_prefetcher(c.i1, "I1");
    expect_prefetcher(c.level[0], kPrefetchStream | kPrefetchStride, 1, 256, 16, "D1");
    expect_prefetcher(c.level[1], kPrefetchStream | kPrefetchNextLine, 1, 0, 16, "L2");
    expect_no_prefetcher(c.level[2], "L3");
}

}  // namespace

TEST(MachinePresets, Zen3) {
    HierarchyConfig c = preset("zen3");
    expect_three_levels_shared_l3(c);
    expect_level(c.i1, 32 * KiB, 8, 64, 4, Inclusion::NonInclusive, "I1");
    expect_level(c.level[0], 32 * KiB, 8, 64, 4, Inclusion::NonInclusive, "D1");
    expect_level(c.level[1], 512 * KiB, 8, 1024, 12, Inclusion::Inclusive, "L2");
    expect_level(c.level[2], 32 * MiB, 16, 32768, 46, Inclusion::Exclusive, "L3");
    EXPECT_EQ(c.memory_latency, 390u);
    expect_zen_prefetchers(c);
    // 64-entry fully associative DTLB, 2048-entry 16-way L2 DTLB.
    expect_tlb(c.tlb, 64, 64, 2048, 16, 7, 30);
}

TEST(MachinePresets, Zen4) {
    HierarchyConfig c = preset("zen4");
    expect_three_levels_shared_l3(c);
    expect_level(c.i1, 32 * KiB, 8, 64, 4, Inclusion::NonInclusive, "I1");
    expect_level(c.level[0], 32 * KiB, 8, 64, 4, Inclusion::NonInclusive, "D1");
    expect_level(c.level[1], 1 * MiB, 8, 2048, 14, Inclusion::Inclusive, "L2");
    expect_level(c.level[2], 32 * MiB, 16, 32768, 50, Inclusion::Exclusive, "L3");
    EXPECT_EQ(c.memory_latency, 430u);
    expect_zen_prefetchers(c);
    // 72-entry fully associative DTLB, 3072-entry 24-way L2 DTLB (128 sets).
    expect_tlb(c.tlb, 72, 72, 3072, 24, 7, 30);
    EXPECT_EQ(c.tlb.level[1].entries / c.tlb.level[1].assoc, 128u);
}

TEST(MachinePresets, Zen5) {
    HierarchyConfig c = preset("zen5");
    expect_three_levels_shared_l3(c);
    expect_level(c.i1, 32 * KiB, 8, 64, 4, Inclusion::NonInclusive, "I1");
    expect_level(c.level[0], 48 * KiB, 12, 64, 4, Inclusion::NonInclusive, "D1");
    expect_level(c.level[1], 1 * MiB, 16, 1024, 14, Inclusion::Inclusive, "L2");
    expect_level(c.level[2], 32 * MiB, 16, 32768, 50, Inclusion::Exclusive, "L3");
    EXPECT_EQ(c.memory_latency, 430u);
    expect_zen_prefetchers(c);
    // 96-entry fully associative DTLB, 4096-entry L2 DTLB.
    expect_tlb(c.tlb, 96, 96, 4096, 16, 7, 30);
}

// --- Through the option builder ------------------------------------------------

TEST(MachinePresets, SelectableWithMachineOptionAndOverridable) {
    static MachineBuilder b;
    for (const char* name : kCpuPresets) {
        SCOPED_TRACE(name);
        builder_reset(b);
        ErrorText err;
        error_clear(err);
        std::string arg = std::string("--machine=") + name;
        ASSERT_EQ(builder_option(b, arg.c_str(), err), OptResult::Ok) << err.text;
        ASSERT_EQ(builder_option(b, "--L3-latency=99", err), OptResult::Ok) << err.text;
        HierarchyConfig c;
        ASSERT_TRUE(builder_finish(b, c, err)) << err.text;
        EXPECT_STREQ(builder_machine_name(b), name);
        EXPECT_EQ(c.level[2].latency, 99u);
        EXPECT_EQ(c.c2c_latency, 99u);  // the default follows the final L3 latency
        EXPECT_EQ(c.tlb.levels, 2);
    }
}
