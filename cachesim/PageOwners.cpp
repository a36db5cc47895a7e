#include "PageOwners.h"

namespace ompsim {

void PageOwners::clear() {
    t_ = nullptr;
    mask_ = 0;
    count_ = 0;
    shared_ = 0;
    shift_ = 64;
    alloc_ = kNoAllocator;
}

bool PageOwners::init(u64 entries, const Allocator& a) {
    clear();
    alloc_ = a;
    u32 lg = table_log2(entries);
    u64 cap = 1ull << lg;
    t_ = static_cast<Entry*>(a.alloc(a.ctx, cap * sizeof(Entry)));
    if (!t_) return false;
    mask_ = cap - 1;
    shift_ = 64 - lg;
    for (u64 i = 0; i < cap; ++i) t_[i].page = kEmpty;
    return true;
}

void PageOwners::destroy() {
    if (alloc_.release && t_) alloc_.release(alloc_.ctx, t_);
    Allocator a = alloc_;
    clear();
    alloc_ = a;
}

u32 PageOwners::add(u64 slot, u64 page, u32 core) {
    if (4 * (count_ + 1) > 3 * (mask_ + 1)) {
        if (!grow()) return kFailed;
        slot = home(page);
        while (t_[slot].page != kEmpty) slot = (slot + 1) & mask_;
    }
    t_[slot].page = page;
    t_[slot].owner = core;
    t_[slot].unused = 0;
    ++count_;
    return core;
}

void PageOwners::share(u64 page) {
    u64 i = home(page);
    while (t_[i].page != page) {
        if (t_[i].page == kEmpty) return;
        i = (i + 1) & mask_;
    }
    if (t_[i].owner != kShared) ++shared_;
    t_[i].owner = kShared;
}

bool PageOwners::grow() {
    u64 old_cap = mask_ + 1;
    Entry* old = t_;
    u64 cap = old_cap * 2;
    Entry* t = static_cast<Entry*>(alloc_.alloc(alloc_.ctx, cap * sizeof(Entry)));
    if (!t) return false;
    t_ = t;
    mask_ = cap - 1;
    shift_ -= 1;
    for (u64 i = 0; i < cap; ++i) t_[i].page = kEmpty;
    for (u64 j = 0; j < old_cap; ++j) {
        if (old[j].page == kEmpty) continue;
        u64 i = home(old[j].page);
        while (t_[i].page != kEmpty) i = (i + 1) & mask_;
        t_[i] = old[j];
    }
    alloc_.release(alloc_.ctx, old);
    return true;
}

}  // namespace ompsim
