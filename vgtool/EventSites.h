// The point events of a run (OMPSIM_EVENT, the MPI calls the preload
// reports) for the event flow graph: each distinct name gets a name id (the
// signature's region component) and each (name, code address) a site id
// (with the call path, its callsite component), located once in the debug
// information. Looked up once per point event, never per memory access.
#ifndef OMPSIM_VGTOOL_EVENTSITES_H
#define OMPSIM_VGTOOL_EVENTSITES_H

#include "ValgrindApi.h"

namespace ompsim {
namespace eventsites {

struct Site {
    u32 name;           // name id
    Addr where;
    const HChar* file;  // "" when unknown
    const HChar* fn;    // "" when unknown
    UInt line;          // 0 when unknown
};

// The site of the event `name` (a string in the client) at code address `where`.
u32 site(const HChar* name, Addr where);
const Site& get(u32 site);
const HChar* name(u32 name_id);

}  // namespace eventsites
}  // namespace ompsim

#endif
