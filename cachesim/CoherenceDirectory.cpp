#include "CoherenceDirectory.h"

namespace ompsim {

void CoherenceDirectory::clear() {
    t_ = nullptr;
    recs_ = nullptr;
    mask_ = 0;
    count_ = 0;
    shift_ = 64;
    max_cores_ = 0;
    words_ = 1;
    stride_ = 3;
    nrecs_ = 0;
    free_rec_ = 0;
    alloc_ = kNoAllocator;
}

bool CoherenceDirectory::init(u32 max_cores, u64 entries, const Allocator& a) {
    clear();
    alloc_ = a;
    if (max_cores < 1 || max_cores > kMaxCores) return false;
    max_cores_ = max_cores;
    words_ = 1;
    stride_ = 3;
    u32 lg = table_log2(entries);
    u64 cap = 1ull << lg;
    t_ = static_cast<u64*>(a.alloc(a.ctx, cap * stride_ * sizeof(u64)));
    if (!t_) return false;
    mask_ = cap - 1;
    shift_ = 64 - lg;
    for (u64 i = 0; i < cap; ++i) t_[i * stride_] = kEmpty;
    return true;
}

void CoherenceDirectory::destroy() {
    if (alloc_.release) {
        if (t_) alloc_.release(alloc_.ctx, t_);
        if (recs_) alloc_.release(alloc_.ctx, recs_);
    }
    Allocator a = alloc_;
    clear();
    alloc_ = a;
}

bool CoherenceDirectory::grow() {
    u64 old_cap = mask_ + 1;
    u64* old = t_;
    u64 cap = old_cap * 2;
    u64* t = static_cast<u64*>(alloc_.alloc(alloc_.ctx, cap * stride_ * sizeof(u64)));
    if (!t) return false;
    t_ = t;
    mask_ = cap - 1;
    shift_ -= 1;
    for (u64 i = 0; i < cap; ++i) t_[i * stride_] = kEmpty;
    for (u64 j = 0; j < old_cap; ++j) {
        const u64* e = old + j * stride_;
        if (e[0] == kEmpty) continue;
        u64 i = home(e[0]);
        while (t_[i * stride_] != kEmpty) i = (i + 1) & mask_;
        copy_entry(t_ + i * stride_, e);
    }
    alloc_.release(alloc_.ctx, old);
    return true;
}

bool CoherenceDirectory::reserve_cores(u32 n) {
    if (!t_ || n > max_cores_) return false;
    u32 words = (n + 63) / 64;
    if (words <= words_) return true;
    u32 stride = 2 + words;
    u64 cap = mask_ + 1;
    u64* t = static_cast<u64*>(alloc_.alloc(alloc_.ctx, cap * stride * sizeof(u64)));
    if (!t) return false;
    // Same capacity and hash: every entry keeps its slot.
    for (u64 i = 0; i < cap; ++i) {
        const u64* from = t_ + i * stride_;
        u64* to = t + i * stride;
        for (u32 w = 0; w < stride; ++w) to[w] = w < stride_ ? from[w] : 0;
    }
    alloc_.release(alloc_.ctx, t_);
    t_ = t;
    words_ = words;
    stride_ = stride;
    return true;
}

u32 CoherenceDirectory::insert(u64 block) {
    u32 s = find(block);
    if (s != kNone) return s;
    if (!t_) return kNone;
    if ((count_ + 1) * 4 > (mask_ + 1) * 3 && !grow()) {
        // Could not grow: use the table while it has room at all.
        if (count_ + 1 >= mask_ + 1) return kNone;
    }
    u64 i = home(block);
    while (t_[i * stride_] != kEmpty) i = (i + 1) & mask_;
    u64* e = t_ + i * stride_;
    e[0] = block;
    e[1] = u64(u8('I')) << kStateShift;
    for (u32 w = 0; w < words_; ++w) e[2 + w] = 0;
    ++count_;
    return u32(i);
}

void CoherenceDirectory::erase_if_unused(u32 slot) {
    if (slot == kNone) return;
    if (rec(slot) != 0 || watch(slot) != 0) return;
    const u64* h = holder_words(slot);
    for (u32 w = 0; w < words_; ++w)
        if (h[w]) return;
    // Backward-shift deletion: move later entries of the probe run into the
    // hole when their home position allows it.
    u64 i = slot;
    u64 j = slot;
    for (;;) {
        j = (j + 1) & mask_;
        u64 b = t_[j * stride_];
        if (b == kEmpty) break;
        u64 k = home(b);
        // The entry at j stays if its home is in (i, j] cyclically.
        bool stays = (i <= j) ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        copy_entry(t_ + i * stride_, t_ + j * stride_);
        i = j;
    }
    t_[i * stride_] = kEmpty;
    --count_;
}

u32 CoherenceDirectory::next_holder(u32 slot, u32 from) const {
    const u64* h = holder_words(slot);
    for (u32 w = from >> 6; w < words_; ++w) {
        u64 bits = h[w];
        if (w == (from >> 6)) bits &= ~0ull << (from & 63);
        if (bits) return w * 64 + u32(__builtin_ctzll(bits));
    }
    return kNone;
}

bool CoherenceDirectory::grow_records() {
    u32 n = nrecs_ ? nrecs_ * 2 : 64;
    Record* r = static_cast<Record*>(alloc_.alloc(alloc_.ctx, u64(n) * sizeof(Record)));
    if (!r) return false;
    for (u32 i = 0; i < nrecs_; ++i) r[i] = recs_[i];
    // The new records form the free list (it was empty).
    for (u32 i = nrecs_; i < n; ++i) {
        r[i].mask = 0;
        r[i].core = 0;
        r[i].next = i + 1 < n ? i + 2 : 0;
    }
    free_rec_ = nrecs_ + 1;
    if (recs_) alloc_.release(alloc_.ctx, recs_);
    recs_ = r;
    nrecs_ = n;
    return true;
}

bool CoherenceDirectory::record_mask(u32 slot, u32 core, u64* mask) const {
    for (u32 r = rec(slot); r; r = recs_[r - 1].next)
        if (recs_[r - 1].core == core) {
            *mask = recs_[r - 1].mask;
            return true;
        }
    return false;
}

bool CoherenceDirectory::add_record(u32 slot, u32 core, u64 mask) {
    if (!free_rec_ && !grow_records()) return false;
    u32 r = free_rec_;
    free_rec_ = recs_[r - 1].next;
    recs_[r - 1].mask = mask;
    recs_[r - 1].core = core;
    recs_[r - 1].next = rec(slot);
    set_rec(slot, r);
    return true;
}

bool CoherenceDirectory::take_record(u32 slot, u32 core, u64* mask) {
    u32 prev = 0;
    for (u32 r = rec(slot); r; prev = r, r = recs_[r - 1].next) {
        Record& x = recs_[r - 1];
        if (x.core != core) continue;
        *mask = x.mask;
        if (prev)
            recs_[prev - 1].next = x.next;
        else
            set_rec(slot, x.next);
        x.next = free_rec_;
        free_rec_ = r;
        return true;
    }
    return false;
}

void CoherenceDirectory::or_records(u32 slot, u64 bytes) {
    for (u32 r = rec(slot); r; r = recs_[r - 1].next) recs_[r - 1].mask |= bytes;
}

}  // namespace ompsim
