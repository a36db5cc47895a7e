// --machine=host: the host's cache hierarchy from the text of Linux's sysfs
// cache descriptions or from CPUID registers, turned into a HierarchyConfig.
// Freestanding like the rest of cachesim/ (the tool reads the files and
// executes CPUID, vgtool/HostMachine; the unit tests feed recorded trees).
// (Being written: see issue 11.)
#ifndef OMPSIM_CACHESIM_HOSTCACHES_H
#define OMPSIM_CACHESIM_HOSTCACHES_H

#include "CacheConfig.h"

namespace ompsim {
}  // namespace ompsim

#endif
