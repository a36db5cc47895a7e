#include "ReuseDistance.h"

namespace ompsim {

namespace {
// 2^16 time stamps to start (768 KiB with the owners); doubled as needed.
constexpr u64 kInitialCap = 1ull << 16;
}  // namespace

bool ReuseStack::init(const Allocator& a) {
    alloc_ = a;
    cap_ = kInitialCap;
    now_ = 0;
    tree_ = static_cast<u32*>(a.alloc(a.ctx, sizeof(u32) * cap_));
    owner_ = static_cast<u64*>(a.alloc(a.ctx, sizeof(u64) * cap_));
    bool ok = last_.init(a);
    if (!tree_ || !owner_ || !ok) {
        destroy();
        return false;
    }
    for (u64 t = 0; t < cap_; ++t) {
        tree_[t] = 0;
        owner_[t] = LineMap::kEmpty;
    }
    return true;
}

void ReuseStack::destroy() {
    if (alloc_.release) {
        if (tree_) alloc_.release(alloc_.ctx, tree_);
        if (owner_) alloc_.release(alloc_.ctx, owner_);
    }
    tree_ = nullptr;
    owner_ = nullptr;
    last_.destroy();
    cap_ = now_ = 0;
}

void ReuseStack::tree_add(u64 t, u32 delta) {
    for (u64 i = t; i < cap_; i |= i + 1) tree_[i] += delta;
}

u64 ReuseStack::tree_prefix(u64 t) const {
    u64 sum = 0;
    for (u64 i = t + 1; i > 0; i &= i - 1) sum += tree_[i - 1];
    return sum;
}

// Gives the live time stamps the numbers 0..lines-1 in their order, so that
// distances (counts of live stamps in between) do not change.
bool ReuseStack::renumber() {
    u64 live = last_.size();
    u64 cap = cap_;
    while (live * 2 > cap) cap *= 2;
    u64* owner = owner_;
    u32* tree = tree_;
    if (cap != cap_) {
        owner = static_cast<u64*>(alloc_.alloc(alloc_.ctx, sizeof(u64) * cap));
        tree = static_cast<u32*>(alloc_.alloc(alloc_.ctx, sizeof(u32) * cap));
        if (!owner || !tree) {
            if (alloc_.release) {
                if (owner) alloc_.release(alloc_.ctx, owner);
                if (tree) alloc_.release(alloc_.ctx, tree);
            }
            return false;
        }
    }
    // In place when the size stays: k <= t, so owner[k] is written only
    // after owner_[k] was read.
    u64 k = 0;
    for (u64 t = 0; t < now_; ++t) {
        u64 b = owner_[t];
        if (b == LineMap::kEmpty) continue;
        *last_.find(b) = k;
        owner[k++] = b;
    }
    for (u64 t = k; t < cap; ++t) owner[t] = LineMap::kEmpty;
    if (owner != owner_) {
        if (alloc_.release) {
            alloc_.release(alloc_.ctx, owner_);
            alloc_.release(alloc_.ctx, tree_);
        }
        owner_ = owner;
        tree_ = tree;
        cap_ = cap;
    }
    // The tree of ones at 0..k-1, built in O(cap).
    for (u64 t = 0; t < cap_; ++t) tree_[t] = t < k ? 1 : 0;
    for (u64 t = 0; t < cap_; ++t) {
        u64 up = t | (t + 1);
        if (up < cap_) tree_[up] += tree_[t];
    }
    now_ = k;
    return true;
}

u64 ReuseStack::reference(u64 block) {
    if (!tree_) return kColdDistance;
    if (now_ == cap_ && !renumber()) return kColdDistance;
    bool first = false;
    u64* last = last_.find_or_insert(block, now_, &first);
    if (!last) return kColdDistance;
    u64 distance = kColdDistance;
    if (!first) {
        u64 prev = *last;
        // Live stamps after prev: every line has one stamp, all before now_.
        distance = last_.size() - tree_prefix(prev);
        tree_add(prev, ~0u);
        owner_[prev] = LineMap::kEmpty;
        *last = now_;
    }
    tree_add(now_, 1);
    owner_[now_] = block;
    ++now_;
    return distance;
}

}  // namespace ompsim
