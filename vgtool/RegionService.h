// The region profiler in the tool: the replay hands it every kMkRegion
// marker with the replaying slot's clock and counters; the document writer
// reads its call graph (RegionsWriter.h). See profilers/RegionProfiler.h.
#ifndef OMPSIM_VGTOOL_REGIONSERVICE_H
#define OMPSIM_VGTOOL_REGIONSERVICE_H

#include "RegionProfiler.h"
#include "ValgrindApi.h"

namespace ompsim {
namespace regionsvc {

// The marker's payload: a = region id, b = event | type << 8 | flag << 16,
// c = team (a parallel region instance).
inline uptr pack(regions::RegionEvent ev, regions::RegionType type, u32 flag) {
    return uptr(ev) | uptr(type) << 8 | uptr(flag) << 16;
}

// A kMkRegion marker replayed on `slot` (running on `core`).
void marker(u32 slot, u32 core, uptr a, uptr b, uptr c);
// OMPSIM_ZERO_COUNTERS (after the slots' counters were zeroed).
void zero();
// The end of the replay: every slot's regions close at the program's end.
void finish();
// Whether any region event was replayed (the document gets the section).
bool used();
const regions::RegionProfiler& profiler();

}  // namespace regionsvc
}  // namespace ompsim

#endif
