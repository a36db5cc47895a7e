#include "LineMap.h"

namespace ompsim {

namespace {
// 1024 slots (16 KiB) to start: a classifier per private level of every
// core should not cost much before the program has touched many lines.
constexpr u32 kInitialBits = 10;
}  // namespace

bool LineMap::init(const Allocator& a) {
    alloc_ = a;
    used_ = 0;
    bits_ = kInitialBits;
    mask_ = (1ull << bits_) - 1;
    slots_ = static_cast<Entry*>(a.alloc(a.ctx, sizeof(Entry) << bits_));
    if (!slots_) return false;
    for (u64 i = 0; i <= mask_; ++i) slots_[i].block = kEmpty;
    return true;
}

void LineMap::destroy() {
    if (slots_ && alloc_.release) alloc_.release(alloc_.ctx, slots_);
    slots_ = nullptr;
    used_ = 0;
}

u64* LineMap::find(u64 block) {
    if (!slots_) return nullptr;
    for (u64 i = home(block);; i = (i + 1) & mask_) {
        Entry& e = slots_[i];
        if (e.block == block) return &e.value;
        if (e.block == kEmpty) return nullptr;
    }
}

u64* LineMap::find_or_insert(u64 block, u64 fresh, bool* inserted) {
    *inserted = false;
    if (!slots_) return nullptr;
    // At most half full: probes stay short and an empty slot always exists.
    if ((used_ + 1) * 2 > mask_ + 1 && !grow()) return nullptr;
    for (u64 i = home(block);; i = (i + 1) & mask_) {
        Entry& e = slots_[i];
        if (e.block == block) return &e.value;
        if (e.block == kEmpty) {
            e.block = block;
            e.value = fresh;
            ++used_;
            *inserted = true;
            return &e.value;
        }
    }
}

bool LineMap::grow() {
    u32 bits = bits_ + 1;
    Entry* fresh = static_cast<Entry*>(alloc_.alloc(alloc_.ctx, sizeof(Entry) << bits));
    if (!fresh) return false;
    Entry* old = slots_;
    u64 old_slots = mask_ + 1;
    slots_ = fresh;
    bits_ = bits;
    mask_ = (1ull << bits) - 1;
    for (u64 i = 0; i <= mask_; ++i) slots_[i].block = kEmpty;
    for (u64 j = 0; j < old_slots; ++j) {
        if (old[j].block == kEmpty) continue;
        u64 i = home(old[j].block);
        while (slots_[i].block != kEmpty) i = (i + 1) & mask_;
        slots_[i] = old[j];
    }
    if (alloc_.release) alloc_.release(alloc_.ctx, old);
    return true;
}

}  // namespace ompsim
