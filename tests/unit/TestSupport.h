// Helpers shared by the cachesim/ unit tests.
#ifndef OMPSIM_TESTS_TESTSUPPORT_H
#define OMPSIM_TESTS_TESTSUPPORT_H

#include <cstdlib>

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

}  // namespace test
}  // namespace ompsim

#endif
