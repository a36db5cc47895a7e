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
        g_prof.init(Allocator{prof_alloc, prof_free, nullptr}, coresim::kCounterWords);
    }
    return g_prof;
}

// The profiler's counters are the slot's counted events: the first
// kCounterWords words of its CoreCounters (CoreSim.h), read in place.
// Whole cycles (the clocks count 1/100 cycles): every figure is then a
// difference of whole-cycle time stamps, and the document's sums hold.
regions::Sample sample(u32 slot, ULong clock) {
    return regions::Sample{clock / 100, reinterpret_cast<const u64*>(&coresim::counters(slot).ir)};
}

}  // namespace

void marker(u32 slot, u32 core, uptr a, uptr b, uptr c) {
    g_used = true;
    prof().event(slot, regions::RegionEvent(b & 0xff), (u32)a, regions::RegionType((b >> 8) & 0xff),
                 (u64)c, (u32)(b >> 16), sample(slot, coresim::clock(core).clock));
}

void zero() {
    if (!g_used) return;
    for (u32 s = 0; s < prof().threads(); ++s) {
        prof().zero(s, sample(s, coresim::clock(replay::core_of_slot(s)).clock));
    }
}

void finish() {
    if (!g_used) return;
    // Every thread lasts until the program ends: the latest core clock.
    ULong end = 0;
    for (u32 k = 0; k < coresim::cores_used(); ++k)
        if (coresim::clock(k).clock > end) end = coresim::clock(k).clock;
    for (u32 s = 0; s < coresim::slots_used(); ++s) {
        prof().finish(s, sample(s, end));
    }
}

bool used() { return g_used; }
const regions::RegionProfiler& profiler() { return prof(); }

}  // namespace regionsvc
}  // namespace ompsim
