// Counters kept by every cache level of the machine.
#ifndef OMPSIM_CACHESIM_LEVELSTATS_H
#define OMPSIM_CACHESIM_LEVELSTATS_H

#include "Types.h"

namespace ompsim {

// What a reference to a level is. Fetch, Read and Write are demand accesses
// of the program (a Write arriving at level k >= 2 is a write-through or the
// fill of a write-allocate miss above); Writeback is a dirty line evicted
// from the level above; Prefetch is a request a prefetcher at this level or
// above sent (never a demand access).
enum AccessKind : u32 { kFetch = 0, kRead = 1, kWrite = 2, kWriteback = 3, kPrefetch = 4, kNumKinds = 5 };

// The four classes of a demand miss (--classify-misses, MissClassifier.h;
// docs/cache-model.md, "Miss classes (3C)"), in document order.
enum MissClass : u32 { kCompulsory = 0, kCapacity = 1, kConflict = 2, kCoherenceClass = 3, kNumMissClasses = 4 };

struct LevelStats {
    u64 refs[kNumKinds];    // line references of each kind
    u64 misses[kNumKinds];  // of which missed
    u64 evictions;          // valid lines displaced to make room
    u64 writebacks;         // dirty lines sent down (to the next level or memory)
    u64 back_invalidations; // lines removed because an inclusive level below evicted them
    u64 victims_in;         // lines inserted as victims (exclusive levels only)
    // This level's own prefetcher (Prefetcher.h): lines it filled, lines a
    // demand access then used, lines evicted before any use.
    u64 prefetches_issued;
    u64 prefetches_useful;
    u64 prefetches_polluting;
    // Demand misses (fetch, read, write) by class; zero unless the machine
    // classifies (CoherentMachine::enable_classification). They add up to
    // misses[kFetch] + misses[kRead] + misses[kWrite].
    u64 miss_class[kNumMissClasses];
};

}  // namespace ompsim

#endif
