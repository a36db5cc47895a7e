#include "LruShadow.h"

namespace ompsim {

bool LruShadow::init(u64 lines, const Allocator& a) {
    alloc_ = a;
    nodes_ = nullptr;
    slots_ = nullptr;
    cap_ = used_ = 0;
    head_ = tail_ = kNil;
    if (lines < 1 || lines > (1ull << 30)) return false;
    cap_ = u32(lines);
    // At least twice as many slots as lines: probes stay short.
    bits_ = 1;
    while ((1ull << bits_) < 2 * lines) ++bits_;
    mask_ = (1ull << bits_) - 1;
    nodes_ = static_cast<Node*>(a.alloc(a.ctx, sizeof(Node) * lines));
    slots_ = static_cast<u32*>(a.alloc(a.ctx, sizeof(u32) << bits_));
    if (!nodes_ || !slots_) {
        destroy();
        return false;
    }
    for (u64 i = 0; i <= mask_; ++i) slots_[i] = kNil;
    return true;
}

void LruShadow::destroy() {
    if (alloc_.release) {
        if (nodes_) alloc_.release(alloc_.ctx, nodes_);
        if (slots_) alloc_.release(alloc_.ctx, slots_);
    }
    nodes_ = nullptr;
    slots_ = nullptr;
    cap_ = used_ = 0;
}

u64 LruShadow::slot_of(u64 block) const {
    for (u64 i = home(block);; i = (i + 1) & mask_) {
        u32 n = slots_[i];
        if (n == kNil) return mask_ + 1;
        if (nodes_[n].block == block) return i;
    }
}

void LruShadow::unlink(u32 n) {
    Node& x = nodes_[n];
    if (x.prev != kNil) nodes_[x.prev].next = x.next; else head_ = x.next;
    if (x.next != kNil) nodes_[x.next].prev = x.prev; else tail_ = x.prev;
}

void LruShadow::push_front(u32 n) {
    Node& x = nodes_[n];
    x.prev = kNil;
    x.next = head_;
    if (head_ != kNil) nodes_[head_].prev = n; else tail_ = n;
    head_ = n;
}

// Empties `slot` and moves later entries of its probe run back into the
// hole when their home allows it (Knuth's algorithm R).
void LruShadow::erase_slot(u64 slot) {
    u64 i = slot;
    for (u64 j = (i + 1) & mask_; slots_[j] != kNil; j = (j + 1) & mask_) {
        u64 k = home(nodes_[slots_[j]].block);
        // The entry at j may move to i unless its home lies cyclically in (i, j].
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        slots_[i] = slots_[j];
        i = j;
    }
    slots_[i] = kNil;
}

bool LruShadow::reference(u64 block) {
    if (!cap_) return false;
    u64 s = slot_of(block);
    if (s <= mask_) {
        u32 n = slots_[s];
        if (n != head_) {
            unlink(n);
            push_front(n);
        }
        return true;
    }
    u32 n;
    if (used_ < cap_) {
        n = used_++;
    } else {
        n = tail_;
        erase_slot(slot_of(nodes_[n].block));
        unlink(n);
    }
    nodes_[n].block = block;
    push_front(n);
    u64 i = home(block);
    while (slots_[i] != kNil) i = (i + 1) & mask_;
    slots_[i] = n;
    return false;
}

}  // namespace ompsim
