// One set-associative cache level: geometry, tag store with dirty bits and
// replacement state (see ReplacementPolicy.h and docs/cache-model.md).
//
// CacheLevel knows nothing about other levels: CoherentMachine drives it through the
// primitives below and keeps `stats` up to date. It has no constructor (it may
// live in static storage inside the tool); call init() before use and
// destroy() to give the memory back. After init() it never allocates.
//
// Lines are addressed by block number (address >> line bits). A set is
// identified by its index (set_of(block)); a line inside a set by its
// position, which for LRU/FIFO is its place in the recency/age order (0 = MRU
// or newest) and for PLRU/Random its way number. Blocks must be below
// 2^63 - 1 (one bit of the 64-bit key holds the dirty flag).
#ifndef OMPSIM_CACHESIM_CACHELEVEL_H
#define OMPSIM_CACHESIM_CACHELEVEL_H

#include "CacheConfig.h"
#include "LevelStats.h"
#include "ReplacementPolicy.h"
#include "Types.h"

namespace ompsim {

class CacheLevel {
public:
    // Allocates the tag store (sets x assoc keys, plus the PLRU tree bits)
    // for a level that validate() accepted; every line starts invalid, every
    // counter at zero, PLRU bits at 0. `seed` is the Random policy's xorshift
    // state (0 is replaced by 1). Returns false if the allocator failed.
    bool init(const LevelConfig& cfg, u64 seed, const Allocator& a);
    // Releases the memory (safe on a level that was only clear()ed).
    void destroy();
    // Makes an unused level: no memory, zero geometry, zero counters.
    void clear();

    // ---- Geometry and policies -------------------------------------------
    u64 sets() const { return sets_; }
    u32 assoc() const { return assoc_; }
    Replacement replacement() const { return repl_; }
    WritePolicy write_policy() const { return write_; }
    Inclusion inclusion() const { return incl_; }
    bool write_back() const { return write_ == WritePolicy::WriteBack; }
    bool exclusive() const { return incl_ == Inclusion::Exclusive; }
    bool inclusive() const { return incl_ == Inclusion::Inclusive; }
    // LRU or FIFO: lines are kept in recency/age order, position 0 first.
    bool ordered() const { return ordered_; }
    // A hit at position 0 needs no replacement update: true for LRU (the MRU
    // line), FIFO and Random (hits never update); false for PLRU. The
    // CoherentMachine's fast path relies on this.
    bool first_hit_free() const { return first_hit_free_; }
    // Sends every hit of this level to the CoherentMachine's slow path
    // (first_hit_free() false): miss classification must see each reference.
    void no_free_hits() { first_hit_free_ = false; }
    // LRU: a hit anywhere in the set is a move to the front (the
    // CoherentMachine's inline path handles every L1 hit of such a level).
    bool lru() const { return repl_ == Replacement::LRU; }
    // Current xorshift64 state of the Random policy.
    u64 rng_state() const { return rng_; }

    // Set index of a block: block % sets (a mask when sets is a power of two).
    u64 set_of(u64 block) const { return sets_pow2_ ? (block & set_mask_) : mod_sets(block); }
    // block % sets_ by a multiplication: the desktop L3's 40960 sets made
    // every L3 reference a 64-bit division (tens of cycles). With m =
    // floor((2^64-1) / sets) (= floor(2^64 / sets), sets not a power of
    // two), q = block * m >> 64 is the quotient or one less, so one
    // conditional subtraction corrects the remainder.
    u64 mod_sets(u64 block) const {
#ifdef __SIZEOF_INT128__
        u64 q = u64((static_cast<unsigned __int128>(block) * mod_magic_) >> 64);
        u64 r = block - q * sets_;
        return r >= sets_ ? r - sets_ : r;
#else
        return block % sets_;
#endif
    }
    bool sets_pow2() const { return sets_pow2_; }
    u64 set_mask() const { return set_mask_; }
    // The `assoc` keys of a set (key = block << 1 | dirty, ~0 = empty).
    u64* set_keys(u64 set) { return keys_ + set * assoc_; }
    const u64* set_keys(u64 set) const { return keys_ + set * assoc_; }

    // ---- Per-set primitives (no counters are touched) ---------------------
    // Position of `block` in `set`, or -1.
    int find(u64 set, u64 block) const {
        const u64* k = set_keys(set);
        for (u32 i = 0; i < assoc_; ++i)
            if (repl::key_holds(k[i], block)) return int(i);
        return -1;
    }
    // Replacement update of a hit at `pos`: LRU moves the line to MRU, PLRU
    // updates the tree, FIFO and Random do nothing. Returns the line's new
    // position.
    int touch(u64 set, int pos) {
        if (repl_ == Replacement::LRU) {
            if (pos != 0) repl::order_to_front(set_keys(set), u32(pos));
            return 0;
        }
        if (repl_ == Replacement::PLRU) {
            if (plru_masks_) {
                // assoc <= 64: one tree word per set, precomputed path masks.
                u64* bits = plru_ + set;
                *bits = (*bits | plru_masks_[2 * pos]) & ~plru_masks_[2 * pos + 1];
            } else {
                repl::plru_touch(plru_bits(set), log2_assoc_, u32(pos));
            }
        }
        return pos;  // FIFO and Random: a hit changes nothing
    }
    void mark_dirty(u64 set, int pos) { set_keys(set)[pos] |= 1; }
    // The line at `pos` was filled by a prefetch and not used since.
    bool prefetched_at(u64 set, int pos) const { return repl::key_prefetched(set_keys(set)[pos]); }
    void mark_prefetched(u64 set, int pos) { set_keys(set)[pos] |= repl::kPrefetchedBit; }
    void clear_prefetched(u64 set, int pos) { set_keys(set)[pos] &= ~repl::kPrefetchedBit; }
    bool is_dirty(u64 set, int pos) const { return repl::key_dirty(set_keys(set)[pos]); }
    u64 block_at(u64 set, int pos) const { return repl::key_block(set_keys(set)[pos]); }
    bool valid_at(u64 set, int pos) const { return set_keys(set)[pos] != repl::kInvalidKey; }
    // Empties the way at `pos` (LRU/FIFO: removes it from the order; PLRU:
    // tree bits unchanged). Returns the line's dirty bit.
    bool remove_at(u64 set, int pos);
    // Fills `block` (which must not be present) into `set`. If the set has
    // an empty way it is used (LRU/FIFO: the fill becomes MRU/newest; PLRU/
    // Random: the lowest-numbered empty way) and nothing is evicted; otherwise
    // the policy picks a victim (Random: one PRNG draw). The filled way is
    // touched. Returns true and the victim's block and dirty bit if a valid
    // line was displaced (an unused prefetched victim counts in
    // stats.prefetches_polluting).
    bool insert(u64 set, u64 block, bool dirty, u64* victim, bool* victim_dirty);

    // ---- By block -----------------------------------------------------------
    bool contains(u64 block, bool* dirty) const;
    // Removes `block` if present (see remove_at); returns whether it was.
    bool invalidate(u64 block, bool* dirty);
    // Number of valid lines (walks the whole store; for tests).
    u64 valid_lines() const;

    LevelStats stats;

private:
    u64* plru_bits(u64 set) { return plru_ + set * plru_words_; }

    u64* keys_;        // sets_ * assoc_ keys
    u64* plru_;        // sets_ * plru_words_ tree-bit words (PLRU only)
    u64* plru_masks_;  // PLRU with assoc <= 64: per way the bits a touch sets
                       // and the bits it clears (2 * assoc_ words)
    u64 sets_;
    u64 set_mask_;     // sets_ - 1 when sets_ is a power of two
    u64 mod_magic_;    // floor((2^64-1) / sets_), for mod_sets()
    u64 rng_;
    u32 assoc_;
    u32 log2_assoc_;   // PLRU only
    u32 plru_words_;
    bool sets_pow2_;
    bool ordered_;
    bool first_hit_free_;
    Replacement repl_;
    WritePolicy write_;
    Inclusion incl_;
    Allocator alloc_;
};

}  // namespace ompsim

#endif
