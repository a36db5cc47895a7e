// The ePAPI preset events (include/epapi.h) as functions of the simulated
// hierarchy's counts. Freestanding like the rest of monitor/: the tool
// answers ePAPI reads with it, and the unit tests check every event against
// hand-made counts.
#ifndef OMPSIM_MONITOR_EPAPIEVENTS_H
#define OMPSIM_MONITOR_EPAPIEVENTS_H

#include "Types.h"

namespace ompsim {

constexpr int kEpapiMaxLevels = 4;

// What one interval of a run (or one data structure) counted. served[k][d]:
// references of kind k (0 fetch, 1 read, 2 write) that depth d served
// (d = 0 level-1 hit .. levels = memory); only d >= 1 is needed, because
// refs[k] gives the hits.
struct EpapiCounts {
    int levels;              // 1..kEpapiMaxLevels
    bool whole_program;      // false: one address range (data events only)
    bool fetches_simulated;  // instruction fetches go through the hierarchy
    u64 refs[3];
    u64 served[3][kEpapiMaxLevels + 1];
    u64 cycles;
};

// The value of a preset event, or a negative ePAPI error code:
// EPAPI_ENOTPRESET for an unknown code, EPAPI_ENOEVNT for a level the
// machine lacks (or instruction events without an instruction cache),
// EPAPI_ECNFLCT for an event a range cannot count.
int epapi_value(const EpapiCounts& c, int code, u64* out);

// Whether the event exists on a machine with `levels` levels; the same
// errors as epapi_value.
int epapi_check(int code, int levels, bool whole_program, bool fetches_simulated);

}  // namespace ompsim

#endif
