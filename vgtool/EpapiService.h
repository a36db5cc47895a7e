// The tool's side of ePAPI (include/epapi.h) and of the simulated PAPI in
// the preload library. Event sets live in the client (monitor/epapi/); the
// tool answers four questions about counts and keeps them monotonic across
// OMPSIM_ZERO_COUNTERS, so a running event set never sees a count go back.
//
// Client requests (include/ompsim.h), arguments args[1..]:
//   EPAPI_PROBE                         -> OMPSIM_EPAPI_MAGIC
//   UNSIMULATED_CODE(lo, hi)            the code in [lo, hi) is not simulated
//                                       (the event-set bookkeeping itself), so
//                                       a read measures exactly what the
//                                       program did between two calls
//   EPAPI_RANGE(addr, len)              -> handle >= 1 of the structure that is
//                                          [addr, addr+len), or an error < 0
//   EPAPI_QUERY(handle, code)           -> 0 or an EPAPI error
//   EPAPI_READ(handle, codes, n, out)   out[i] = count of codes[i] so far
//   EPAPI_HISTOGRAM(handle, code, out, n) -> buckets; out[b] filled if n >= it
//   EPAPI_RESOLUTION(handle, lines, bins) -> buckets of the restarted histogram
// Handle 0 is the whole program.
#ifndef OMPSIM_VGTOOL_EPAPISERVICE_H
#define OMPSIM_VGTOOL_EPAPISERVICE_H

#include "CacheConfig.h"
#include "ValgrindApi.h"

namespace ompsim {
namespace epapi {

void init(const HierarchyConfig& cfg, bool fetches_simulated);

// Handles one of the requests above; false if `args[0]` is not one of them.
bool handle_request(UWord* args, UWord* ret);

// Whether the instruction at `a` is in code registered as unsimulated
// (asked at translation time).
bool unsimulated(Addr a);

// Called just before OMPSIM_ZERO_COUNTERS clears the counters.
void before_zero();

}  // namespace epapi
}  // namespace ompsim

#endif
