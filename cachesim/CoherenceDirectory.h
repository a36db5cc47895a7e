// The coherence directory of a CoherentMachine (docs/cache-model.md,
// "Multi-core machine and coherence"): for every line that some core holds
// in its private levels, or that some core lost to another core's write and
// has not accessed since, one entry with
//   - the set of cores holding it (a bit set of max_cores bits),
//   - the MESI state of the holders ('S' for all of them when there are
//     several; 'E', 'M' or 'S' for a single holder),
//   - the loss records: per core that lost the line to an invalidation, the
//     mask of the bytes other cores have written to it since,
//   - which core's write filter counts the entry (see CoherentMachine).
//
// An open-addressing hash table (linear probing, backward-shift deletion)
// keyed by block number, each entry 2 + ceil(cores / 64) words with the
// holder bits inline, plus a pool of loss records. `cores` is what
// reserve_cores() was last asked for, not the machine's maximum: the
// table is read at random on every private miss and eviction, so its size
// is host-cache misses. Freestanding; memory through the Allocator. The
// table doubles when it is three quarters full, the record pool when it is
// full: this allocates, but only on the slow paths of the machine (private
// misses and coherence actions), and the sizes only double.
//
// Measured on omp_loop 1024 40 with 4 threads (the desktop machine: 85 k
// private lines, 24 B entries instead of 48 B for 256 cores, 131 k
// entries instead of 262 k): user time 9.8 s -> 7.7 s, the same results.
//
// Slots (entry indices) stay valid until the next insert() or erase(); the
// machine re-finds entries after anything that may have changed the table.
#ifndef OMPSIM_CACHESIM_COHERENCEDIRECTORY_H
#define OMPSIM_CACHESIM_COHERENCEDIRECTORY_H

#include "Types.h"

namespace ompsim {

class CoherenceDirectory {
public:
    static constexpr u32 kNone = ~0u;
    static constexpr u64 kEmpty = ~0ull;
    // Cores a directory can track (the write-filter field is 16 bits).
    static constexpr u32 kMaxCores = 65535;

    // Cores 0..max_cores-1 (max_cores in 1..kMaxCores) may become holders,
    // those below 64 at once, the others after reserve_cores(); `entries`
    // is the initial capacity (rounded up to a power of two, at least 64).
    bool init(u32 max_cores, u64 entries, const Allocator& a);
    // Makes cores 0..n-1 possible holders (widens every entry when needed;
    // slots stay valid). False if n > max_cores or memory could not be had.
    bool reserve_cores(u32 n);
    void destroy();
    // Makes an unused directory (no memory).
    void clear();
    bool ready() const { return t_ != nullptr; }

    // The slot of `block`, or kNone.
    u32 find(u64 block) const {
        if (!t_) return kNone;
        u64 i = home(block);
        for (;;) {
            u64 b = t_[i * stride_];
            if (b == block) return u32(i);
            if (b == kEmpty) return kNone;
            i = (i + 1) & mask_;
        }
    }
    // The slot of `block`, created (no holders, no records) if absent.
    // kNone only if memory could not be had.
    u32 insert(u64 block);
    // Removes the entry if it has neither holders nor records (its write
    // filter must have been released: watch == 0).
    void erase_if_unused(u32 slot);

    u64 block(u32 slot) const { return t_[u64(slot) * stride_]; }
    // The number of holders, up to 2 (2 means "2 or more").
    u32 holders(u32 slot) const {
        const u64* h = holder_words(slot);
        u32 n = 0;
        for (u32 w = 0; w < words_ && n < 2; ++w)
            if (h[w]) n += (h[w] & (h[w] - 1)) ? 2 : 1;
        return n < 2 ? n : 2;
    }
    bool holder(u32 slot, u32 core) const { return (holder_words(slot)[core >> 6] >> (core & 63)) & 1; }
    void add_holder(u32 slot, u32 core) { holder_words(slot)[core >> 6] |= 1ull << (core & 63); }
    void remove_holder(u32 slot, u32 core) { holder_words(slot)[core >> 6] &= ~(1ull << (core & 63)); }
    void clear_holders(u32 slot) {
        u64* h = holder_words(slot);
        for (u32 w = 0; w < words_; ++w) h[w] = 0;
    }
    // The first holder >= `from`, or kNone.
    u32 next_holder(u32 slot, u32 from) const;
    char state(u32 slot) const { return char((meta(slot) >> kStateShift) & 0xff); }
    void set_state(u32 slot, char s) {
        u64& m = meta(slot);
        m = (m & ~(0xffull << kStateShift)) | (u64(u8(s)) << kStateShift);
    }
    // Core + 1 whose write filter counts the entry, 0 = none.
    u32 watch(u32 slot) const { return u32((meta(slot) >> kWatchShift) & 0xffff); }
    void set_watch(u32 slot, u32 w) {
        u64& m = meta(slot);
        m = (m & ~(0xffffull << kWatchShift)) | (u64(w & 0xffff) << kWatchShift);
    }

    // Loss records (at most one per core and line).
    bool has_records(u32 slot) const { return rec(slot) != 0; }
    // Adds a record for `core` with `mask`; false if memory could not be had.
    bool add_record(u32 slot, u32 core, u64 mask);
    // Removes the record of `core`, if any, returning its mask.
    bool take_record(u32 slot, u32 core, u64* mask);
    // ORs `bytes` into every record of the entry.
    void or_records(u32 slot, u64 bytes);
    // The record mask of `core`, for tests.
    bool record_mask(u32 slot, u32 core, u64* mask) const;

    u64 entries() const { return count_; }
    u64 capacity() const { return mask_ + 1; }

private:
    // An entry is `stride_` words: the block (kEmpty = free slot), the
    // metadata word (first loss record + 1 in bits 0-31, 0 = none; write
    // filter in bits 32-47; state in bits 48-55), then the holder bits.
    static constexpr unsigned kWatchShift = 32;
    static constexpr unsigned kStateShift = 48;

    struct Record {
        u64 mask;
        u32 core;
        u32 next;      // next record + 1 (of the entry, or on the free list)
    };

    u64 home(u64 block) const { return (block * 0x9E3779B97F4A7C15ull) >> shift_; }
    u64& meta(u32 slot) { return t_[u64(slot) * stride_ + 1]; }
    const u64& meta(u32 slot) const { return t_[u64(slot) * stride_ + 1]; }
    u64* holder_words(u32 slot) { return t_ + u64(slot) * stride_ + 2; }
    const u64* holder_words(u32 slot) const { return t_ + u64(slot) * stride_ + 2; }
    u32 rec(u32 slot) const { return u32(meta(slot)); }
    void set_rec(u32 slot, u32 r) {
        u64& m = meta(slot);
        m = (m & ~0xffffffffull) | r;
    }
    bool grow();
    bool grow_records();
    void copy_entry(u64* to, const u64* from) const {
        for (u32 w = 0; w < stride_; ++w) to[w] = from[w];
    }

    u64* t_;           // capacity * stride_ words
    Record* recs_;
    u64 mask_;         // capacity - 1
    u64 count_;
    u32 max_cores_;
    u32 shift_;        // 64 - log2(capacity)
    u32 words_;        // holder words per entry
    u32 stride_;       // words per entry (2 + words_)
    u32 nrecs_;        // records allocated
    u32 free_rec_;     // free list head + 1
    Allocator alloc_;
};

}  // namespace ompsim

#endif
