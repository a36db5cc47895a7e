// Helpers shared by the cachesim/ unit tests.
#ifndef OMPSIM_TESTS_TESTSUPPORT_H
#define OMPSIM_TESTS_TESTSUPPORT_H

#include <cstdlib>
#include <vector>

#include "CacheConfig.h"

namespace ompsim {
namespace test {

inline void* heap_alloc(void*, size_t n) { return std::malloc(n); }
inline void heap_release(void*, void* p) { std::free(p); }
// cachesim/'s Allocator on the C heap.
inline const Allocator kHeap{heap_alloc, heap_release, nullptr};

// A level of `sets` x `assoc` lines of 64 B.
inline LevelConfig level(u64 sets, u32 assoc, Replacement r = Replacement::LRU,
                         WritePolicy w = WritePolicy::WriteBack,
                         Inclusion i = Inclusion::NonInclusive) {
    LevelConfig c{};
    c.line = 64;
    c.assoc = assoc;
    c.size = sets * assoc * 64;
    c.replacement = r;
    c.write = w;
    c.inclusion = i;
    c.latency = 1;
    return c;
}

// A machine of `levels` (level 0 is the unified L1, and I1's geometry when
// `split`), instruction fetches simulated, memory at 100 cycles, CPI 1.
// private_levels 0: the default (CacheConfig.h); the seed drives Random
// replacement only.
inline HierarchyConfig hierarchy(const std::vector<LevelConfig>& levels, u32 private_levels = 0,
                                 bool split = false, u64 seed = 42) {
    HierarchyConfig c{};
    c.levels = int(levels.size());
    c.split_l1 = split;
    for (size_t k = 0; k < levels.size(); ++k) c.level[k] = levels[k];
    c.i1 = levels[0];
    c.icache = true;
    c.random_seed = seed;
    c.memory_latency = 100;
    c.cpi_x100 = 100;
    c.private_levels = private_levels;
    return c;
}

}  // namespace test
}  // namespace ompsim

#endif
