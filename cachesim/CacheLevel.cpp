#include "CacheLevel.h"

namespace ompsim {

namespace {
const LevelStats kNoStats = {};  // every counter zero (new counters too)
}  // namespace

void CacheLevel::clear() {
    keys_ = nullptr;
    plru_ = nullptr;
    plru_masks_ = nullptr;
    sets_ = 0;
    set_mask_ = 0;
    mod_magic_ = 0;
    rng_ = 1;
    assoc_ = 0;
    log2_assoc_ = 0;
    plru_words_ = 0;
    sets_pow2_ = false;
    ordered_ = false;
    first_hit_free_ = false;
    repl_ = Replacement::LRU;
    write_ = WritePolicy::WriteBack;
    incl_ = Inclusion::NonInclusive;
    alloc_.alloc = nullptr;
    alloc_.release = nullptr;
    alloc_.ctx = nullptr;
    stats = kNoStats;
}

bool CacheLevel::init(const LevelConfig& cfg, u64 seed, const Allocator& a) {
    clear();
    alloc_ = a;
    assoc_ = cfg.assoc;
    sets_ = cfg.size / (u64(cfg.line) * cfg.assoc);
    sets_pow2_ = is_pow2(sets_);
    set_mask_ = sets_ - 1;
    mod_magic_ = sets_ ? ~0ull / sets_ : 0;
    repl_ = cfg.replacement;
    write_ = cfg.write;
    incl_ = cfg.inclusion;
    ordered_ = repl_ == Replacement::LRU || repl_ == Replacement::FIFO;
    first_hit_free_ = repl_ != Replacement::PLRU;
    rng_ = seed ? seed : 1;

    u64 nkeys = sets_ * assoc_;
    keys_ = static_cast<u64*>(a.alloc(a.ctx, nkeys * sizeof(u64)));
    if (!keys_) return false;
    for (u64 i = 0; i < nkeys; ++i) keys_[i] = repl::kInvalidKey;

    if (repl_ == Replacement::PLRU) {
        int l = log2_exact(assoc_);
        log2_assoc_ = l < 0 ? 0 : u32(l);  // validation guarantees a power of two
        plru_words_ = (assoc_ + 63) / 64;  // nodes 1..assoc-1 (bit 0 unused)
        u64 nwords = sets_ * plru_words_;
        plru_ = static_cast<u64*>(a.alloc(a.ctx, nwords * sizeof(u64)));
        if (!plru_) {
            destroy();
            return false;
        }
        for (u64 i = 0; i < nwords; ++i) plru_[i] = 0;
        if (assoc_ <= 64) {
            // Precompute, for each way, the node bits a touch sets (the path
            // goes left there) and clears (it goes right): see plru_touch.
            plru_masks_ = static_cast<u64*>(a.alloc(a.ctx, 2 * u64(assoc_) * sizeof(u64)));
            if (!plru_masks_) {
                destroy();
                return false;
            }
            for (u32 w = 0; w < assoc_; ++w) {
                u64 on = 0, off = 0;
                u32 node = 1;
                for (u32 d = log2_assoc_; d > 0; --d) {
                    u32 right = (w >> (d - 1)) & 1;
                    if (right)
                        off |= 1ull << node;
                    else
                        on |= 1ull << node;
                    node = 2 * node + right;
                }
                plru_masks_[2 * w] = on;
                plru_masks_[2 * w + 1] = off;
            }
        }
    }
    return true;
}

void CacheLevel::destroy() {
    if (keys_ && alloc_.release) alloc_.release(alloc_.ctx, keys_);
    if (plru_ && alloc_.release) alloc_.release(alloc_.ctx, plru_);
    if (plru_masks_ && alloc_.release) alloc_.release(alloc_.ctx, plru_masks_);
    keys_ = nullptr;
    plru_ = nullptr;
    plru_masks_ = nullptr;
    sets_ = 0;
    assoc_ = 0;
}

bool CacheLevel::remove_at(u64 set, int pos) {
    u64* k = set_keys(set);
    bool dirty = repl::key_dirty(k[pos]);
    if (ordered_)
        repl::order_remove(k, assoc_, u32(pos));
    else
        k[pos] = repl::kInvalidKey;
    return dirty;
}

bool CacheLevel::insert(u64 set, u64 block, bool dirty, u64* victim, bool* victim_dirty) {
    u64* k = set_keys(set);
    u64 key = repl::make_key(block, dirty);
    if (ordered_) {
        // Empty entries sit at the end: the one that falls off is empty
        // unless the set was full, in which case it is the LRU/oldest line.
        u64 dropped = repl::order_push_front(k, assoc_, key);
        if (dropped == repl::kInvalidKey) return false;
        if (repl::key_prefetched(dropped)) stats.prefetches_polluting++;
        *victim = repl::key_block(dropped);
        *victim_dirty = repl::key_dirty(dropped);
        return true;
    }
    u32 way = assoc_;
    for (u32 i = 0; i < assoc_; ++i) {
        if (k[i] == repl::kInvalidKey) {
            way = i;
            break;
        }
    }
    bool evicted = false;
    if (way == assoc_) {
        way = repl_ == Replacement::PLRU ? repl::plru_victim(plru_bits(set), log2_assoc_)
                                         : repl::random_victim(rng_, assoc_);
        if (repl::key_prefetched(k[way])) stats.prefetches_polluting++;
        *victim = repl::key_block(k[way]);
        *victim_dirty = repl::key_dirty(k[way]);
        evicted = true;
    }
    k[way] = key;
    if (repl_ == Replacement::PLRU) repl::plru_touch(plru_bits(set), log2_assoc_, way);
    return evicted;
}

bool CacheLevel::contains(u64 block, bool* dirty) const {
    if (!keys_) return false;
    u64 s = set_of(block);
    int p = find(s, block);
    if (p < 0) return false;
    if (dirty) *dirty = is_dirty(s, p);
    return true;
}

bool CacheLevel::invalidate(u64 block, bool* dirty) {
    if (!keys_) return false;
    u64 s = set_of(block);
    int p = find(s, block);
    if (p < 0) return false;
    bool d = remove_at(s, p);
    if (dirty) *dirty = d;
    return true;
}

u64 CacheLevel::valid_lines() const {
    u64 n = 0;
    for (u64 i = 0; i < sets_ * assoc_; ++i)
        if (keys_[i] != repl::kInvalidKey) ++n;
    return n;
}

}  // namespace ompsim
