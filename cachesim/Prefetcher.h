// Hardware prefetchers of one cache level (being written).
#ifndef OMPSIM_CACHESIM_PREFETCHER_H
#define OMPSIM_CACHESIM_PREFETCHER_H
#include "CacheConfig.h"
#endif
