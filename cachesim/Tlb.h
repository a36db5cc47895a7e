// Data TLBs (being written).
#ifndef OMPSIM_CACHESIM_TLB_H
#define OMPSIM_CACHESIM_TLB_H
#include "CacheConfig.h"
#endif
