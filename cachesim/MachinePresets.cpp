// The preset machines (docs/machines.md: sources for every number).
#include "MachinePresets.h"

namespace ompsim {

namespace {

constexpr u64 KiB = 1024;
constexpr u64 MiB = 1024 * 1024;

// Intel Golden Cove (Alder Lake P-core) desktop part.
void preset_desktop(HierarchyConfig& c) {
    preset_clear(c);
    c.levels = 3;
    c.i1 = preset_level(32 * KiB, 8, 64, 5);
    c.level[0] = preset_level(48 * KiB, 12, 64, 5);
    c.level[1] = preset_level(1280 * KiB, 10, 64, 15);
    c.level[2] = preset_level(30 * MiB, 12, 64, 65);
    c.memory_latency = 250;
    set_coherence_defaults(c);
}

// Cachegrind-compatible; the latencies are the weights of Cachegrind's
// documented cycle estimate Ir + 10*L1m + 100*LLm.
void preset_cachegrind(HierarchyConfig& c) {
    preset_clear(c);
    c.cachegrind = true;
    c.levels = 2;
    c.i1 = preset_level(32 * KiB, 8, 64, 1);
    c.level[0] = preset_level(32 * KiB, 8, 64, 1);
    c.level[1] = preset_level(8 * MiB, 16, 64, 10);
    c.memory_latency = 100;
    set_coherence_defaults(c);
}

// Small caches whose effects show on small arrays.
void preset_teaching(HierarchyConfig& c) {
    preset_clear(c);
    c.levels = 2;
    c.i1 = preset_level(4 * KiB, 2, 64, 4);
    c.level[0] = preset_level(4 * KiB, 2, 64, 4);
    c.level[1] = preset_level(64 * KiB, 8, 64, 12);
    c.memory_latency = 100;
    set_coherence_defaults(c);
}

// --- Helpers for the CPU presets ------------------------------------------

PrefetchConfig prefetcher(u8 kinds, u32 degree, u32 stride_entries, u32 stream_entries) {
    PrefetchConfig p;
    p.kinds = kinds;
    p.degree = degree;
    p.stride_entries = stride_entries;
    p.stream_entries = stream_entries;
    return p;
}

// A two-level data TLB for 4 KiB pages: DTLB1 adds nothing, DTLB2 adds
// `l2_latency` cycles, a page walk `walk` cycles.
void two_level_tlb(HierarchyConfig& c, u32 l1_entries, u32 l1_assoc, u32 l2_entries,
                   u32 l2_assoc, u32 l2_latency, u32 walk) {
    c.tlb.levels = 2;
    c.tlb.page_size = 4096;
    c.tlb.level[0] = TlbLevelConfig{l1_entries, l1_assoc, 0};
    c.tlb.level[1] = TlbLevelConfig{l2_entries, l2_assoc, l2_latency};
    c.tlb.walk_latency = walk;
}

// TLB latencies the vendors do not document (docs/machines.md, "TLBs"):
// the same modelling choice for every CPU preset.
constexpr u32 kTlb2Latency = 7;
constexpr u32 kWalkLatency = 30;

// Intel Golden Cove core (Alder Lake P-core, Sapphire Rapids): the DCU
// next-line and IP-stride prefetchers on D1, the streamer on L2 (two
// prefetches per L2 lookup, 32 streams), the load DTLB and the STLB.
void golden_cove_core(HierarchyConfig& c) {
    c.level[0].prefetch = prefetcher(kPrefetchNextLine | kPrefetchStride, 1,
                                     kDefaultStrideEntries, kDefaultStreamEntries);
    c.level[1].prefetch = prefetcher(kPrefetchStream, 2, kDefaultStrideEntries, 32);
    two_level_tlb(c, 96, 6, 2048, 16, kTlb2Latency, kWalkLatency);
}

// AMD Zen (3, 4, 5): L1 stream + stride prefetchers on D1, L2 stream and
// up/down (modelled as next-line) on L2; L2 inclusive of L1, L3 a victim
// cache of L2 (no prefetcher there: it is exclusive).
void zen_core(HierarchyConfig& c) {
    c.level[0].prefetch = prefetcher(kPrefetchStream | kPrefetchStride, 1,
                                     kDefaultStrideEntries, kDefaultStreamEntries);
    c.level[1].inclusion = Inclusion::Inclusive;
    c.level[1].prefetch = prefetcher(kPrefetchStream | kPrefetchNextLine, 1,
                                     kDefaultStrideEntries, kDefaultStreamEntries);
    c.level[2].inclusion = Inclusion::Exclusive;
}

// --- CPU presets (docs/machines.md gives every number and its source) -----

// Intel Core i9-12900K P-core (Golden Cove): desktop's geometry, measured
// latencies, the core's prefetchers and data TLBs.
void preset_golden_cove(HierarchyConfig& c) {
    preset_clear(c);
    c.levels = 3;
    c.i1 = preset_level(32 * KiB, 8, 64, 5);
    c.level[0] = preset_level(48 * KiB, 12, 64, 5);
    c.level[1] = preset_level(1280 * KiB, 10, 64, 15);
    c.level[2] = preset_level(30 * MiB, 12, 64, 76);
    c.memory_latency = 450;
    golden_cove_core(c);
    set_coherence_defaults(c);
}

// Intel Xeon Platinum 8480+ (Sapphire Rapids, 56 Golden Cove cores): 2 MiB
// L2, 56 x 1.875 MiB = 105 MiB of 15-way L3 slices, non-inclusive.
void preset_sapphire_rapids(HierarchyConfig& c) {
    preset_clear(c);
    c.levels = 3;
    c.i1 = preset_level(32 * KiB, 8, 64, 5);
    c.level[0] = preset_level(48 * KiB, 12, 64, 5);
    c.level[1] = preset_level(2 * MiB, 16, 64, 16);
    c.level[2] = preset_level(105 * MiB, 15, 64, 125);
    c.memory_latency = 420;
    golden_cove_core(c);
    set_coherence_defaults(c);
}

// AMD Ryzen 9 5950X (Zen 3): one CCD's 32 MiB victim L3.
void preset_zen3(HierarchyConfig& c) {
    preset_clear(c);
    c.levels = 3;
    c.i1 = preset_level(32 * KiB, 8, 64, 4);
    c.level[0] = preset_level(32 * KiB, 8, 64, 4);
    c.level[1] = preset_level(512 * KiB, 8, 64, 12);
    c.level[2] = preset_level(32 * MiB, 16, 64, 46);
    c.memory_latency = 390;
    zen_core(c);
    two_level_tlb(c, 64, 64, 2048, 16, kTlb2Latency, kWalkLatency);
    set_coherence_defaults(c);
}

// AMD Ryzen 9 7950X (Zen 4): 1 MiB L2, one CCD's 32 MiB victim L3.
void preset_zen4(HierarchyConfig& c) {
    preset_clear(c);
    c.levels = 3;
    c.i1 = preset_level(32 * KiB, 8, 64, 4);
    c.level[0] = preset_level(32 * KiB, 8, 64, 4);
    c.level[1] = preset_level(1 * MiB, 8, 64, 14);
    c.level[2] = preset_level(32 * MiB, 16, 64, 50);
    c.memory_latency = 430;
    zen_core(c);
    two_level_tlb(c, 72, 72, 3072, 24, kTlb2Latency, kWalkLatency);
    set_coherence_defaults(c);
}

// AMD Ryzen 9 9950X (Zen 5): 48 KiB 12-way D1, 1 MiB 16-way L2, one CCD's
// 32 MiB victim L3.
void preset_zen5(HierarchyConfig& c) {
    preset_clear(c);
    c.levels = 3;
    c.i1 = preset_level(32 * KiB, 8, 64, 4);
    c.level[0] = preset_level(48 * KiB, 12, 64, 4);
    c.level[1] = preset_level(1 * MiB, 16, 64, 14);
    c.level[2] = preset_level(32 * MiB, 16, 64, 50);
    c.memory_latency = 430;
    zen_core(c);
    two_level_tlb(c, 96, 96, 4096, 16, kTlb2Latency, kWalkLatency);
    set_coherence_defaults(c);
}

struct Preset {
    const char* name;
    void (*make)(HierarchyConfig&);
};

const Preset kPresets[] = {
    {"cachegrind", preset_cachegrind},
    {"desktop", preset_desktop},
    {"golden-cove", preset_golden_cove},
    {"sapphire-rapids", preset_sapphire_rapids},
    {"teaching", preset_teaching},
    {"zen3", preset_zen3},
    {"zen4", preset_zen4},
    {"zen5", preset_zen5},
};

// Alphabetical; "host" is detected at run time (MachineConfig.cpp).
const char* const kNames[] = {"cachegrind", "desktop",  "golden-cove", "host", "sapphire-rapids",
                              "teaching",   "zen3",     "zen4",        "zen5", nullptr};

}  // namespace

LevelConfig preset_level(u64 size, u32 assoc, u32 line, u32 latency) {
    LevelConfig l;
    l.size = size;
    l.assoc = assoc;
    l.line = line;
    l.replacement = Replacement::LRU;
    l.write = WritePolicy::WriteBack;
    l.inclusion = Inclusion::NonInclusive;
    l.latency = latency;
    l.prefetch.kinds = 0;
    l.prefetch.degree = kDefaultPrefetchDegree;
    l.prefetch.stride_entries = kDefaultStrideEntries;
    l.prefetch.stream_entries = kDefaultStreamEntries;
    return l;
}

void preset_clear(HierarchyConfig& c) {
    LevelConfig z = preset_level(0, 0, 0, 0);
    c.levels = 0;
    c.split_l1 = true;
    c.i1 = z;
    for (int k = 0; k < kMaxLevels; ++k) c.level[k] = z;
    c.icache = true;
    c.cachegrind = false;
    c.random_seed = 1;
    c.memory_latency = 0;
    c.cpi_x100 = 100;
    c.private_levels = 0;
    c.c2c_latency = 0;
    c.upgrade_latency = 0;
    c.tlb.levels = 0;
    c.tlb.page_size = 4096;
    for (int k = 0; k < kMaxTlbLevels; ++k) c.tlb.level[k] = TlbLevelConfig{0, 0, 0};
    c.tlb.walk_latency = 30;  // the default of a TLB added by --DTLB1=
}

bool preset_lookup(const char* name, size_t len, HierarchyConfig& out) {
    for (const Preset& p : kPresets) {
        size_t n = 0;
        while (p.name[n]) ++n;
        if (n != len) continue;
        bool same = true;
        for (size_t i = 0; i < n && same; ++i) same = p.name[i] == name[i];
        if (!same) continue;
        p.make(out);
        return true;
    }
    return false;
}

const char* const* preset_names() { return kNames; }

}  // namespace ompsim
