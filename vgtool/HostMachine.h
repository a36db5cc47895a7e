// --machine=host in the tool: reads sysfs (or CPUID) and prints what was
// detected. (Being written: see issue 11.)
#ifndef OMPSIM_VGTOOL_HOSTMACHINE_H
#define OMPSIM_VGTOOL_HOSTMACHINE_H

#include "HostCaches.h"

#endif
