// Which core alone has touched each page since coherence started: the
// filter in front of a CoherentMachine's directory (docs/cache-model.md,
// "Performance").
//
// A page is a group of 2^page_shift consecutive blocks. Its owner is the
// one core whose accesses have reached the coherence protocol for any of
// its blocks, or kShared once a second core's have. No other core can hold
// or have lost a line of a page with an owner, so the directory needs no
// entry for it: the owner's state is read off its own caches (see
// CoherentMachine::own_page()). When a second core comes, the owner's lines
// of the page enter the directory and the page is shared from then on
// (pages never go back: the table only grows).
//
// An open-addressing hash table (linear probing, no deletion) of 16-byte
// entries, doubled when three quarters full. It is far smaller than the
// directory (one entry per 64 lines instead of one per line held: omp_loop
// 1024 with 4 threads: its two arrays are 4,096 pages, its directory had
// 131 k entries), so its lookups stay in the host's caches where the
// directory's missed. Freestanding; memory through the Allocator.
#ifndef OMPSIM_CACHESIM_PAGEOWNERS_H
#define OMPSIM_CACHESIM_PAGEOWNERS_H

#include "Types.h"

namespace ompsim {

class PageOwners {
public:
    // Owners are core numbers below kShared.
    static constexpr u32 kShared = ~0u - 1;
    // What touch() returns when the table could not grow.
    static constexpr u32 kFailed = ~0u;

    // `entries`: initial capacity (rounded up to a power of two, at least 64).
    bool init(u64 entries, const Allocator& a);
    void destroy();
    // Makes an unused table (no memory).
    void clear();
    bool ready() const { return t_ != nullptr; }

    // The owner of `page` (kShared if shared); a page nobody touched
    // becomes `core`'s. kFailed only if memory could not be had.
    u32 touch(u64 page, u32 core) {
        u64 i = home(page);
        for (;;) {
            Entry& e = t_[i];
            if (e.page == page) return e.owner;
            if (e.page == kEmpty) break;
            i = (i + 1) & mask_;
        }
        return add(i, page, core);
    }
    // The owner of `page`, kShared if shared, kNone if nobody touched it.
    static constexpr u32 kNone = kFailed;
    u32 owner(u64 page) const {
        u64 i = home(page);
        for (;;) {
            const Entry& e = t_[i];
            if (e.page == page) return e.owner;
            if (e.page == kEmpty) return kNone;
            i = (i + 1) & mask_;
        }
    }
    // `page` (which must have been touched) is shared from now on.
    void share(u64 page);

    u64 pages() const { return count_; }
    u64 shared_pages() const { return shared_; }
    // Calls f(page, owner) for every page with an owner.
    template <class F>
    void for_each_owned(F f) const {
        for (u64 i = 0; i <= mask_; ++i)
            if (t_[i].page != kEmpty && t_[i].owner != kShared) f(t_[i].page, t_[i].owner);
    }

private:
    static constexpr u64 kEmpty = ~0ull;
    struct Entry {
        u64 page;
        u32 owner;
        u32 unused;
    };

    u64 home(u64 page) const { return (page * 0x9E3779B97F4A7C15ull) >> shift_; }
    u32 add(u64 slot, u64 page, u32 core);
    bool grow();

    Entry* t_;
    u64 mask_;    // capacity - 1
    u64 count_;
    u64 shared_;
    u32 shift_;   // 64 - log2(capacity)
    Allocator alloc_;
};

}  // namespace ompsim

#endif
