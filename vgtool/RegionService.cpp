#include "RegionService.h"

#include "CoreSim.h"
#include "Replay.h"

namespace ompsim {
namespace regionsvc {

namespace {

regions::RegionProfiler g_prof;
bool g_init, g_used;

void* prof_alloc(void*, size_t n) { return VG_(malloc)("ompsim.regions.prof", n); }
void prof_free(void*, void* p) { VG_(free)(p); }

regions::RegionProfiler& prof() {
    if (!g_init) {
        g_init = true;
        g_prof.init(Allocator{prof_alloc, prof_free, nullptr}, kWords);
    }
    return g_prof;
}

struct Now {
    u64 words[kWords];
    regions::Sample sample;
};

void sample(u32 slot, u32 core, Now& n) {
    counters_of(slot, n.words);
    // Whole cycles (the clocks count 1/100 cycles): every figure is then a
    // difference of whole-cycle time stamps, and the document's sums hold.
    n.sample.cycles = coresim::clock(core).clock / 100;
    n.sample.counters = n.words;
}

}  // namespace

void counters_of(u32 slot, u64* w) {
    const CoreCounters& c = coresim::counters(slot);
    w[0] = c.ir;
    w[1] = c.dr;
    w[2] = c.dw;
    for (int d = 0; d <= kMaxLevels; ++d) {
        w[3 + d] = c.ir_served[d];
        w[3 + (kMaxLevels + 1) + d] = c.dr_served[d];
        w[3 + 2 * (kMaxLevels + 1) + d] = c.dw_served[d];
    }
}

void marker(u32 slot, u32 core, uptr a, uptr b, uptr c) {
    g_used = true;
    Now n;
    sample(slot, core, n);
    prof().event(slot, regions::RegionEvent(b & 0xff), (u32)a, regions::RegionType((b >> 8) & 0xff),
                 (u64)c, (u32)(b >> 16), n.sample);
}

void zero() {
    if (!g_used) return;
    for (u32 s = 0; s < prof().threads(); ++s) {
        Now n;
        sample(s, replay::core_of_slot(s), n);
        prof().zero(s, n.sample);
    }
}

void finish() {
    if (!g_used) return;
    // Every thread lasts until the program ends: the latest core clock.
    ULong end = 0;
    for (u32 k = 0; k < coresim::cores_used(); ++k)
        if (coresim::clock(k).clock > end) end = coresim::clock(k).clock;
    for (u32 s = 0; s < coresim::slots_used(); ++s) {
        Now n;
        sample(s, 0, n);
        n.sample.cycles = end / 100;
        prof().finish(s, n.sample);
    }
}

bool used() { return g_used; }
const regions::RegionProfiler& profiler() { return prof(); }

}  // namespace regionsvc
}  // namespace ompsim
