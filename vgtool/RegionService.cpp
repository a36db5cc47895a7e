#include "RegionService.h"

#include "CoreSim.h"
#include "EventSites.h"
#include "OspgService.h"
#include "Replay.h"

namespace ompsim {
namespace regionsvc {

namespace {

regions::RegionProfiler g_prof;
bool g_init, g_used;
flow::EventFlow g_flow;
u32 g_flow_components = flow::kDefaultComponents;
Long g_rank = -1;

void* prof_alloc(void*, size_t n) { return VG_(malloc)("ompsim.regions.prof", n); }
void prof_free(void*, void* p) { VG_(free)(p); }

regions::RegionProfiler& prof() {
    if (!g_init) {
        g_init = true;
        g_prof.init(Allocator{prof_alloc, prof_free, nullptr}, coresim::kCounterWords);
        if (g_flow_components) g_flow.init(Allocator{prof_alloc, prof_free, nullptr}, g_flow_components);
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

void configure_flow(u32 components, Long rank) {
    g_flow_components = components;
    g_rank = rank;
}

void marker(u32 slot, u32 core, uptr a, uptr b, uptr c) {
    g_used = true;
    regions::RegionEvent ev = regions::RegionEvent(b & 0xff);
    regions::Sample now = sample(slot, coresim::clock(core).clock);
    if (ev == regions::kPoint) {
        if (!g_flow_components) return;
        const eventsites::Site& site = eventsites::get((u32)a);
        bool has_partner = ((b >> 16) & 0xffff) != 0;
        flow::Event e{site.name, true, has_partner, prof().node_of(slot)->id, (u32)a, (u64)c,
                      (int64_t)(Int)(u32)(b >> 32)};
        g_flow.event(slot, e, now.cycles);
        return;
    }
    prof().event(slot, ev, (u32)a, regions::RegionType((b >> 8) & 0xff), (u64)c, (u32)((b >> 16) & 0xffff), now);
    if (ospgsvc::enabled()) {
        // The construct an implicit barrier belongs to: the one the profiler gave it.
        const regions::Node* at = ev == regions::kBarrierBegin ? prof().node_of(slot) : nullptr;
        ospgsvc::region(slot, ev, (u32)a, regions::RegionType((b >> 8) & 0xff), (u32)((b >> 16) & 0xffff),
                        at ? at->region : regions::kNoRegion);
    }
    const regions::Node* in = prof().entered();
    if (in && g_flow_components) g_flow.event(slot, flow::Event{in->region, false, false, in->id, flow::kNoSite, 0, 0}, now.cycles);
}

void zero() {
    if (!g_used) return;
    for (u32 s = 0; s < prof().threads(); ++s) {
        regions::Sample now = sample(s, coresim::clock(replay::core_of_slot(s)).clock);
        prof().zero(s, now);
        if (g_flow_components) g_flow.zero(s, now.cycles);
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
const flow::EventFlow* event_flow() { return g_flow_components ? &g_flow : nullptr; }
Long rank() { return g_rank; }
const regions::RegionProfiler& profiler() { return prof(); }

}  // namespace regionsvc
}  // namespace ompsim
