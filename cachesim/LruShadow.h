// A fully associative LRU cache of N lines with O(1) references: the shadow
// against which the miss classifier (MissClassifier.h) tells capacity from
// conflict misses. Tags only (no dirty bits, no data): a hash table
// (open addressing, linear probing, deletion by backward shift, so no
// tombstones) from block to node, and the nodes in an intrusive doubly
// linked list in recency order.
//
// Compiled twice like all of cachesim/ (Types.h). No constructor: init()
// before use; it allocates everything, references never allocate.
#ifndef OMPSIM_CACHESIM_LRUSHADOW_H
#define OMPSIM_CACHESIM_LRUSHADOW_H

#include "Types.h"

namespace ompsim {

class LruShadow {
public:
    // Lines: 1 .. 2^30. False if the allocator failed.
    bool init(u64 lines, const Allocator& a);
    void destroy();

    // A reference to `block` (< 2^63): true if it was among the `lines`
    // most recently referenced distinct blocks (a hit). The block becomes
    // the most recent; on a miss with every line taken the least recent
    // one leaves.
    bool reference(u64 block);

    u64 capacity() const { return cap_; }
    u64 size() const { return used_; }

private:
    static constexpr u32 kNil = 0xffffffffu;
    struct Node {
        u64 block;
        u32 prev, next;  // towards the most / least recent; kNil at the ends
    };
    u64 home(u64 block) const { return (block * 0x9E3779B97F4A7C15ull) >> (64 - bits_); }
    u64 slot_of(u64 block) const;  // the slot holding block's node, or mask_+1
    void unlink(u32 n);
    void push_front(u32 n);
    void erase_slot(u64 slot);

    Node* nodes_;
    u32* slots_;  // node index per slot, kNil = empty
    u64 mask_;
    u32 bits_;
    u32 cap_;
    u32 used_;
    u32 head_, tail_;  // most and least recent
    Allocator alloc_;
};

}  // namespace ompsim

#endif
