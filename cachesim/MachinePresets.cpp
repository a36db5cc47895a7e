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

struct Preset {
    const char* name;
    void (*make)(HierarchyConfig&);
};

const Preset kPresets[] = {
    {"cachegrind", preset_cachegrind},
    {"desktop", preset_desktop},
    {"teaching", preset_teaching},
};

const char* const kNames[] = {"cachegrind", "desktop", "host", "teaching", nullptr};

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
    c.tlb.walk_latency = 0;
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
