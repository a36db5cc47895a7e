// The document's <region-profile> (docs/output-format.md): the regions the
// run entered, numbered R00001.. in the order it first entered them, and the
// region profiler's call graph with ompP's columns, the OpenMP states and the
// machine's costs per node and thread, and the predecessor lists.
#ifndef OMPSIM_VGTOOL_REGIONSWRITER_H
#define OMPSIM_VGTOOL_REGIONSWRITER_H

#include "CacheConfig.h"
#include "ValgrindApi.h"

namespace ompsim {

// Nothing when no region event was replayed.
void put_region_profile(VgFile* fp, const HierarchyConfig& cfg);

}  // namespace ompsim

#endif
