// --machine=host in the tool: reads cpu0's cache descriptions from sysfs
// (or executes CPUID when sysfs has none) and prints what was detected and
// how. The parsing and the mapping are cachesim/HostCaches (freestanding,
// unit-tested); docs/host-detection.md documents both.
#ifndef OMPSIM_VGTOOL_HOSTMACHINE_H
#define OMPSIM_VGTOOL_HOSTMACHINE_H

#include "HostCaches.h"

namespace ompsim {

// Detects the host's hierarchy into `out` (sysfs under
// /sys/devices/system/cpu/cpu0, or under $OMPSIM_HOST_SYSFS when that is
// set; CPUID when that directory has no cache descriptions). False with a
// one-line err (starting "--machine=host: ").
bool host_machine_detect(HierarchyConfig& out, ErrorText& err);

// Prints the detection of the last successful host_machine_detect() as
// "ompsim: ..." lines (VG_(umsg): silenced by -q like Valgrind's own).
void host_machine_print(const HierarchyConfig& detected);

// Whether the host runs SSE4.1 (CPUID, as host detection asks it), for the
// cache model's vector set searches (CoherentMachine::set_wide_search()).
bool host_has_sse41();

}  // namespace ompsim

#endif
