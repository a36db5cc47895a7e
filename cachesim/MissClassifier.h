// The 3C classification (Hill, "Aspects of cache memory and instruction
// buffer performance", 1987) of the demand misses of one cache instance: a
// miss is *compulsory* when it is the first demand reference of the line to
// this cache, *capacity* when a fully associative LRU cache of as many lines,
// fed with the same demand references, misses as well, *conflict* when that
// cache hits. (The multi-core machine adds a fourth class, coherence, which
// takes precedence: CoherentMachine.h.) docs/cache-model.md, "Miss classes
// (3C)", is the specification.
//
// Every demand reference of the cache must go through reference(), hits
// included: the shadow's recency order is that of all of them. Costs per
// reference: one probe of the lines-seen map and one of the shadow, O(1).
// Memory: 24 B per line of the cache (shadow) and 16 to 32 B per distinct
// line ever referenced (lines seen).
//
// Compiled twice like all of cachesim/ (Types.h). No constructor.
#ifndef OMPSIM_CACHESIM_MISSCLASSIFIER_H
#define OMPSIM_CACHESIM_MISSCLASSIFIER_H

#include "LevelStats.h"
#include "LineMap.h"
#include "LruShadow.h"

namespace ompsim {

class MissClassifier {
public:
    // For a cache of `lines` lines (1 .. 2^30). False if memory could not
    // be had (then destroy() is safe).
    bool init(u64 lines, const Allocator& a);
    void destroy();
    // An unused classifier (no memory; active() false).
    void clear();
    bool active() const { return active_; }

    // A demand reference of `block` to the cache: the class the reference
    // has if the cache missed it (kCompulsory, kCapacity or kConflict);
    // the caller ignores it on a hit.
    MissClass reference(u64 block) {
        bool first = false;
        seen_.find_or_insert(block, 0, &first);
        bool shadow_hit = shadow_.reference(block);
        return first ? kCompulsory : shadow_hit ? kConflict : kCapacity;
    }

private:
    LineMap seen_;
    LruShadow shadow_;
    bool active_;
};

}  // namespace ompsim

#endif
