// The region profiler in the tool: the replay hands it every kMkRegion
// marker with the replaying slot's clock and counters; the document writer
// reads its call graph (RegionsWriter.h). Region entries and point events
// also feed the event flow graph (profilers/EventFlow.h). See profilers/RegionProfiler.h.
#ifndef OMPSIM_VGTOOL_REGIONSERVICE_H
#define OMPSIM_VGTOOL_REGIONSERVICE_H

#include "EventFlow.h"
#include "RegionProfiler.h"
#include "ValgrindApi.h"

namespace ompsim {
namespace regionsvc {

// The marker's payload: a = region id, b = event | type << 8 | flag << 16,
// c = team (a parallel region instance).
inline uptr pack(regions::RegionEvent ev, regions::RegionType type, u32 flag) {
    return uptr(ev) | uptr(type) << 8 | uptr(flag) << 16;
}

// A point event's payload: a = its site (EventSites.h), b = kPoint with the
// partner in the upper 32 bits and flag 1 when it has one, c = its size.
inline uptr pack_point(bool has_partner, Int partner) {
    return pack(regions::kPoint, regions::kRegionTypes, has_partner ? 1 : 0) | (uptr)(u32)partner << 32;
}

// --event-flow (a component mask, 0 = no) and the process's rank (-1: unknown).
void configure_flow(u32 components, Long rank);

// A kMkRegion marker replayed on `slot` (running on `core`).
void marker(u32 slot, u32 core, uptr a, uptr b, uptr c);
// OMPSIM_ZERO_COUNTERS (after the slots' counters were zeroed).
void zero();
// The end of the replay: every slot's regions close at the program's end.
void finish();
// Whether any region event was replayed (the document gets the section).
bool used();
const regions::RegionProfiler& profiler();
// The event flow graph, when --event-flow is not no (else null).
const flow::EventFlow* event_flow();
Long rank();

}  // namespace regionsvc
}  // namespace ompsim

#endif
