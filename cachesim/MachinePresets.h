// The named machines of --machine=NAME (docs/machines.md gives every number
// and its source). Internal to cachesim/: MachineConfig.cpp starts a
// configuration from one of these; "host" is not here (it is detected at
// run time, vgtool/HostMachine).
#ifndef OMPSIM_CACHESIM_MACHINEPRESETS_H
#define OMPSIM_CACHESIM_MACHINEPRESETS_H

#include "CacheConfig.h"

namespace ompsim {

// A level with LRU replacement, write-back, non-inclusive, no prefetcher.
LevelConfig preset_level(u64 size, u32 assoc, u32 line, u32 latency);
// Everything zero or off: no levels, split L1, icache on, seed 1, CPI 1.00,
// no TLB.
void preset_clear(HierarchyConfig& c);
// The preset `name` (name[0..len)); false if there is none of that name.
bool preset_lookup(const char* name, size_t len, HierarchyConfig& out);
// Every name --machine accepts, "host" included, alphabetical, null-terminated.
const char* const* preset_names();

}  // namespace ompsim

#endif
