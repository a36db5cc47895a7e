// The LRU stack (reuse) distance of every reference of a stream of cache
// lines: the number of distinct other lines referenced since the last
// reference to the same line (Mattson et al. 1970), or "cold" for a first
// reference. A fully associative LRU cache of C lines hits exactly the
// references with distance < C, so one histogram of distances gives the
// miss ratio of every cache size (docs/monitor.md, "Reuse distances").
//
// O(log n) per reference (Bennett and Kruskal's method, as in Olken's
// "Efficient methods for calculating the success function of fixed space
// replacement policies", 1981): every reference gets a time stamp; a
// Fenwick tree over the time stamps holds a 1 at the last reference of
// each line, so the distance is the number of ones after the line's
// previous time stamp. When the time stamps run out, the live ones are
// renumbered 0..lines-1 in order (and the tree doubled if they fill more
// than half of it): O(size) once per size/2 references.
//
// Compiled twice like all of cachesim/ (Types.h). No constructor.
#ifndef OMPSIM_CACHESIM_REUSEDISTANCE_H
#define OMPSIM_CACHESIM_REUSEDISTANCE_H

#include "LineMap.h"

namespace ompsim {

// Bins of a reuse-distance histogram: 0 holds distance 0, bin i >= 1 the
// distances 2^(i-1) .. 2^i - 1; distances are below 2^63.
constexpr u32 kReuseBins = 64;
constexpr u64 kColdDistance = ~0ull;

inline u32 reuse_bin(u64 distance) {
    return distance == 0 ? 0u : u32(64 - __builtin_clzll(distance));
}

class ReuseStack {
public:
    bool init(const Allocator& a);
    void destroy();

    // A reference to `block` (< 2^63): its distance, or kColdDistance for
    // the first reference (also when memory ran out: hosted allocators).
    u64 reference(u64 block);
    // Distinct lines referenced so far.
    u64 lines() const { return last_.size(); }

private:
    bool renumber();
    void tree_add(u64 t, u32 delta);  // delta 1, or ~0u for -1
    u64 tree_prefix(u64 t) const;     // ones at time stamps 0..t

    LineMap last_;  // block -> time stamp of its last reference
    u32* tree_;     // Fenwick tree over [0, cap_)
    u64* owner_;    // block whose last reference has time stamp t, or LineMap::kEmpty
    u64 cap_;
    u64 now_;       // the next time stamp
    Allocator alloc_;
};

}  // namespace ompsim

#endif
