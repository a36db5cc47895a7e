// A map from cache lines (block numbers) to one 64-bit value that only
// grows: open addressing with linear probing, doubled at half load. The
// miss classifier's set of lines seen (MissClassifier.h) and the reuse-
// distance stack's last-reference times (ReuseDistance.h) are such maps:
// neither ever forgets a line.
//
// Compiled twice like all of cachesim/ (Types.h): no libc, memory from the
// Allocator. No constructor: init() before use.
#ifndef OMPSIM_CACHESIM_LINEMAP_H
#define OMPSIM_CACHESIM_LINEMAP_H

#include "Types.h"

namespace ompsim {

class LineMap {
public:
    // Blocks must be below 2^63 (CacheLevel.h); this one marks empty slots.
    static constexpr u64 kEmpty = ~0ull;

    bool init(const Allocator& a);
    void destroy();

    // The value of `block`; inserted with value `fresh` (and *inserted set)
    // when absent. Null only when the table had to grow and the allocator
    // failed (hosted callers).
    u64* find_or_insert(u64 block, u64 fresh, bool* inserted);
    // The value of `block`, or null.
    u64* find(u64 block);
    u64 size() const { return used_; }

private:
    struct Entry {
        u64 block;
        u64 value;
    };
    u64 home(u64 block) const { return (block * 0x9E3779B97F4A7C15ull) >> (64 - bits_); }
    bool grow();

    Entry* slots_;
    u64 used_;
    u64 mask_;
    u32 bits_;
    Allocator alloc_;
};

}  // namespace ompsim

#endif
