// Replacement-policy primitives used by CacheLevel (see docs/cache-model.md).
//
// A set is an array of `assoc` keys, one per way; key = block << 1 | dirty,
// plus kPrefetchedBit while a line a prefetch brought in has not been used;
// kInvalidKey marks an empty way. How the array is interpreted depends on the
// policy:
//  - LRU and FIFO keep the array *ordered*: entry 0 is the most recently used
//    (LRU) or most recently filled (FIFO) line, the last valid entry is the
//    victim, and empty entries always sit at the end. Both use the same
//    insert/remove primitives; only LRU moves a line on a hit.
//  - PLRU and Random index the array by way number; PLRU keeps assoc-1 tree
//    bits per set in heap order (node 1 is the root, node i has children 2i
//    and 2i+1, way w is leaf assoc+w).
//
// Everything here is freestanding and header-only: no libc, no allocation.
#ifndef OMPSIM_CACHESIM_REPLACEMENTPOLICY_H
#define OMPSIM_CACHESIM_REPLACEMENTPOLICY_H

#include "Types.h"

namespace ompsim {
namespace repl {

constexpr u64 kInvalidKey = ~0ull;

// Set on a line a prefetcher filled until a demand access uses it. A
// flagged line fails key_matches(), so the machine's inline hit path
// leaves such lines to the slow path, which counts the useful prefetch.
constexpr u64 kPrefetchedBit = 1ull << 63;

inline u64 make_key(u64 block, bool dirty) { return (block << 1) | (dirty ? 1u : 0u); }
inline u64 key_block(u64 key) { return (key & ~kPrefetchedBit) >> 1; }
inline bool key_dirty(u64 key) { return (key & 1) != 0; }
inline bool key_prefetched(u64 key) { return key != kInvalidKey && (key & kPrefetchedBit) != 0; }
// True if `key` holds `block` (either dirty state) and is not flagged as
// prefetched. An empty way never matches a block below 2^62 - 1.
inline bool key_matches(u64 key, u64 block) { return (key | 1) == ((block << 1) | 1); }
// True if `key` holds `block`, flagged or not.
inline bool key_holds(u64 key, u64 block) {
    return ((key & ~kPrefetchedBit) | 1) == ((block << 1) | 1);
}

// ---- Ordered sets (LRU, FIFO) ----------------------------------------------

// Moves the entry at `pos` to the front (MRU), shifting entries 0..pos-1 down.
inline void order_to_front(u64* keys, u32 pos) {
    u64 k = keys[pos];
    for (u32 i = pos; i > 0; --i) keys[i] = keys[i - 1];
    keys[0] = k;
}

// Puts `key` at the front, shifting everything down by one; returns the entry
// that fell off the end (kInvalidKey if the set was not full, since empty
// entries are always at the end).
inline u64 order_push_front(u64* keys, u32 assoc, u64 key) {
    u64 dropped = keys[assoc - 1];
    for (u32 i = assoc - 1; i > 0; --i) keys[i] = keys[i - 1];
    keys[0] = key;
    return dropped;
}

// Searches an LRU set for `block` (key_holds()) and moves every entry it
// passes down one place as it goes: a hit ends at the front (the move to
// MRU, done in the same pass) and returns its old position; a miss returns
// -1 with `*dropped` the entry that fell off the end (kInvalidKey if the
// set was not full) and entry 0 left for the caller to fill, which then
// needs no second pass over the set either.
//
// One step: entry i takes `prev` (the entry above it) and, if it held the
// block, goes to the front; else it becomes the next step's `prev`.
// Flagged false: no key of the set can carry kPrefetchedBit (a level no
// prefetcher fills), so the test needs no mask.
template <bool Flagged = true>
inline bool shift_step(u64* keys, u32 i, u64& prev, u64 block) {
    u64 k = keys[i];
    keys[i] = prev;
    if (Flagged ? key_holds(k, block) : key_matches(k, block)) {
        keys[0] = k;
        return true;
    }
    prev = k;
    return false;
}
inline int order_find_shifting(u64* keys, u32 assoc, u64 block, u64* dropped) {
    u64 prev = keys[0];
    if (key_holds(prev, block)) return 0;
    for (u32 i = 1; i < assoc; ++i)
        if (shift_step(keys, i, prev, block)) return int(i);
    *dropped = prev;
    return -1;
}
// The same for a set of N ways, N known when compiling: every step
// unrolled, with no loop counter.
template <u32 N, bool Flagged = true>
inline int order_find_shifting_n(u64* keys, u64 block, u64* dropped) {
    u64 prev = keys[0];
    if (key_holds(prev, block)) return 0;
#pragma GCC unroll 32
    for (u32 i = 1; i < N; ++i)
        if (shift_step<Flagged>(keys, i, prev, block)) return int(i);
    *dropped = prev;
    return -1;
}

// order_find_shifting_n<N, false>() where the caller already compared
// ways 0 to S - 1 (S <= N): they only move down.
template <u32 N, u32 S>
inline int order_find_shifting_skip(u64* keys, u64 block, u64* dropped) {
    static_assert(S <= N, "skips at most every way");
    if constexpr (S == 0) return order_find_shifting_n<N, false>(keys, block, dropped);
    u64 prev = keys[0];
#pragma GCC unroll 32
    for (u32 i = 1; i < S; ++i) {
        u64 k = keys[i];
        keys[i] = prev;
        prev = k;
    }
#pragma GCC unroll 32
    for (u32 i = S; i < N; ++i)
        if (shift_step<false>(keys, i, prev, block)) return int(i);
    *dropped = prev;
    return -1;
}

// order_find_shifting() for a set whose keys carry no kPrefetchedBit,
// unrolled for the default machine's 12 ways and for 8; with Skip, ways 0
// to Skip - 1 are known not to hold the block.
template <u32 Skip = 0>
inline int order_find_shifting_plain(u64* keys, u32 assoc, u64 block, u64* dropped) {
    return assoc == 12  ? order_find_shifting_skip<12, Skip>(keys, block, dropped)
           : assoc == 8 ? order_find_shifting_skip<8, Skip>(keys, block, dropped)
                        : order_find_shifting(keys, assoc, block, dropped);
}

// order_find_shifting_n<N, false>() with the set compared two ways per
// SSE4.1 instruction, for an even N up to 16: the same result and the same
// set afterwards. The step-by-step search is a load, a store, a compare
// and a branch per way, searched to the end on a miss: 79 instructions a
// miss in matmul 400's 12-way D1 sets, 22 % of the tool's instructions.
// Here a miss is six compares and the set moved down one place by pairs;
// a hit moves the ways before it as before. No key may carry
// kPrefetchedBit (as for Flagged false). Four ways a compare (AVX2)
// measured the same as two. Used for the short path's L2 and L3
// (CoherentMachine::search_plain()) on a host with SSE4.1; not inlined
// into callers built without it.
#if defined(__x86_64__)
typedef u64 KeyPair __attribute__((vector_size(16), aligned(8)));
typedef double KeyMaskPair __attribute__((vector_size(16)));

template <u32 N>
__attribute__((target("sse4.1"), noinline)) int order_find_shifting_wide(u64* keys, u64 block, u64* dropped) {
    static_assert(N % 2 == 0 && N >= 2 && N <= 16, "two keys a vector");
    constexpr u32 V = N / 2;
    const u64 want = (block << 1) | 1;
    KeyPair v[V];
    u32 mask = 0;
#pragma GCC unroll 8
    for (u32 j = 0; j < V; ++j) {
        v[j] = *reinterpret_cast<const KeyPair*>(keys + 2 * j);
        KeyPair eq = (v[j] | 1) == want;
        mask |= u32(__builtin_ia32_movmskpd(reinterpret_cast<KeyMaskPair>(eq))) << (2 * j);
    }
    if (mask) {
        u32 pos = u32(__builtin_ctz(mask));
        if (pos) {
            u64 k = keys[pos];
            for (u32 i = pos; i > 0; --i) keys[i] = keys[i - 1];
            keys[0] = k;
        }
        return int(pos);
    }
    // Every way down one place, the last falling off, from what was loaded
    // above (entry 0 is the caller's to fill).
    *dropped = v[V - 1][1];
    keys[N - 1] = v[V - 1][0];
#pragma GCC unroll 8
    for (u32 j = 0; j + 1 < V; ++j) *reinterpret_cast<KeyPair*>(keys + 1 + 2 * j) = v[j];
    return -1;
}
#endif

// Removes the entry at `pos`, closing the gap; the last entry becomes empty.
inline void order_remove(u64* keys, u32 assoc, u32 pos) {
    for (u32 i = pos; i + 1 < assoc; ++i) keys[i] = keys[i + 1];
    keys[assoc - 1] = kInvalidKey;
}

// ---- Tree pseudo-LRU ---------------------------------------------------------

inline bool plru_bit(const u64* bits, u32 node) { return (bits[node >> 6] >> (node & 63)) & 1; }
inline void plru_set(u64* bits, u32 node, bool v) {
    u64 m = 1ull << (node & 63);
    if (v) bits[node >> 6] |= m; else bits[node >> 6] &= ~m;
}

// Touch way `way` of a set with 2^log2_assoc ways: every node on the path from
// the root to the leaf is made to point away from the path (1 = "the victim
// is on the right", set when the path goes left; 0 when it goes right).
inline void plru_touch(u64* bits, u32 log2_assoc, u32 way) {
    u32 node = 1;
    for (u32 d = log2_assoc; d > 0; --d) {
        u32 right = (way >> (d - 1)) & 1;
        plru_set(bits, node, right == 0);
        node = 2 * node + right;
    }
}

// The way the tree points at: from the root, bit 0 -> left, 1 -> right.
inline u32 plru_victim(const u64* bits, u32 log2_assoc) {
    u32 node = 1;
    for (u32 d = 0; d < log2_assoc; ++d) node = 2 * node + (plru_bit(bits, node) ? 1 : 0);
    return node - (1u << log2_assoc);
}

// ---- Random ------------------------------------------------------------------

// xorshift64 (Marsaglia, shifts 13/7/17); returns the new state as the draw.
inline u64 xorshift64_next(u64& x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

inline u32 random_victim(u64& state, u32 assoc) { return u32(xorshift64_next(state) % assoc); }

}  // namespace repl
}  // namespace ompsim

#endif
