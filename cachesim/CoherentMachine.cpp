// The multi-core protocol of CoherentMachine (docs/cache-model.md, "Multi-
// core machine and coherence", is the specification; tests/unit/
// ReferenceCoherent.h is an independent model of it).
//
// The level-by-level code follows the single-core rules of docs/cache-
// model.md, with the levels of the core in progress (cur_) above
// private_levels and the shared levels below. While a single core has run,
// nothing else happens. Once a second core runs (multi_), coherence hooks act:
//  - begin_write(): before a write that is not a hit on a dirty L1 line:
//    consumes the core's loss record, upgrades a Shared line, invalidates
//    every other copy (read-for-ownership);
//  - read_crossing(): when a fetch or read leaves the last private level:
//    consumes the loss record, downgrades an exclusive owner to Shared (a
//    dirty owner writes the line back and supplies it: cache to cache);
//  - fetch_below()/write_below() at the crossing: the cache-to-cache
//    transfer, or the write-back of an invalidated owner's dirty data;
//  - evict() of a private line and shared back-invalidations keep the
//    directory's holder sets exact;
//  - finish(): the requesting core's new state.
// Reads reach read_crossing() only after the private levels above have
// missed, which changes nothing but counters: the result is the same as if
// the coherence actions came first, as the specification says.
#include "CoherentMachine.h"

namespace ompsim {

namespace {

constexpr u64 kGolden = 0x9E3779B97F4A7C15ull;
constexpr u64 kI1SeedSalt = 0xD1B54A32D192ED03ull;
constexpr u64 kCoreSalt = 0xBF58476D1CE4E5B9ull;

inline u64 nonzero(u64 s) { return s ? s : 1; }

// CacheLevel::contains without the dirty bit, inline (levels of active cores).
inline bool has(const CacheLevel& l, u64 block) { return l.find(l.set_of(block), block) >= 0; }

// A reference of `kind` to level c on the short miss path: counted, *set is
// the block's set, and the result is its way, or -1 (counted as a miss).
inline int reference(CacheLevel& c, AccessKind kind, u64 block, u64* set) {
    c.stats.refs[kind]++;
    *set = c.set_of(block);
    int p = c.find(*set, block);
    if (p < 0) c.stats.misses[kind]++;
    return p;
}

const LevelStats kZeroStats = {};
const CoherenceStats kZeroCoherence = {};

void add_stats(LevelStats& to, const LevelStats& s) {
    for (u32 i = 0; i < kNumKinds; ++i) {
        to.refs[i] += s.refs[i];
        to.misses[i] += s.misses[i];
    }
    to.evictions += s.evictions;
    to.writebacks += s.writebacks;
    to.back_invalidations += s.back_invalidations;
    to.victims_in += s.victims_in;
    to.prefetches_issued += s.prefetches_issued;
    to.prefetches_useful += s.prefetches_useful;
    to.prefetches_polluting += s.prefetches_polluting;
    for (u32 i = 0; i < kNumMissClasses; ++i) to.miss_class[i] += s.miss_class[i];
}

}  // namespace

// ---------------------------------------------------------------------------
// Set-up

bool CoherentMachine::init(const HierarchyConfig& cfg, u32 max_cores, const Allocator& a,
                           ErrorText& err) {
    cores_ = nullptr;
    cur_ = nullptr;
    for (int k = 0; k < kMaxLevels; ++k) {
        shared_[k].clear();
        shared_pf_[k].clear();
        pf_on_[k] = k < cfg.levels && cfg.level[k].prefetch.kinds != 0;
    }
    pf_i1_on_ = cfg.split_l1 && cfg.i1.prefetch.kinds != 0;
    pf_count_ = 0;
    pf_flags_ = 0;
    dir_.clear();
    pages_.clear();
    cfg_ = cfg;
    alloc_ = a;
    mem_reads_ = 0;
    mem_writes_ = 0;
    private_lines_ = 0;
    ncores_ = 0;
    cores_used_ = 0;
    levels_ = cfg.levels;
    split_ = cfg.split_l1;
    multi_ = false;
    classify_ = false;
    observe_ = false;
    simple_ = false;
    l2_ = nullptr;
    l2_second_ = false;
    plain_ = false;
    allow_simple_ = true;
    wide_search_ = false;
    allow_filter_ = true;
    filtering_ = false;
    page_shift_ = 6;
    miss_levels_ = 0;
    for (int k = 0; k < kMaxLevels; ++k) {
        shared_cls_[k].clear();
        final_cls_[k] = 0;
    }
    int lb = log2_exact(cfg.level[0].line);
    line_bits_ = lb < 0 ? 0 : unsigned(lb);

    if (cfg.cachegrind) {
        error_clear(err);
        error_append(err, "the multi-core machine has no Cachegrind mode (--machine=cachegrind"
                          " uses one shared Cachegrind model)");
        return false;
    }
    if (levels_ < 1 || levels_ > kMaxLevels) {
        error_clear(err);
        error_append(err, "the hierarchy must have 1 to 4 levels");
        levels_ = 0;
        return false;
    }
    plevels_ = int(cfg.private_levels ? cfg.private_levels : default_private_levels(levels_));
    if (plevels_ > levels_) {
        error_clear(err);
        error_append(err, "private levels: ");
        error_append_u64(err, u64(plevels_));
        error_append(err, " is not between 1 and the number of levels (");
        error_append_u64(err, u64(levels_));
        error_append(err, ")");
        return false;
    }
    if (max_cores < 1 || max_cores > CoherenceDirectory::kMaxCores) {
        error_clear(err);
        error_append(err, "the multi-core machine needs 1 to 65535 cores, not ");
        error_append_u64(err, max_cores);
        return false;
    }
    cores_ = static_cast<Core*>(a.alloc(a.ctx, u64(max_cores) * sizeof(Core)));
    if (!cores_) {
        error_clear(err);
        error_append(err, "cache simulator: out of memory for the cores");
        return false;
    }
    ncores_ = max_cores;
    for (u32 i = 0; i < ncores_; ++i) {
        Core& c = cores_[i];
        c.i1.clear();
        for (int k = 0; k < kMaxLevels; ++k) c.lv[k].clear();
        c.pf_i1.clear();
        for (int k = 0; k < kMaxLevels; ++k) c.pf[k].clear();
        for (u32 w = 0; w < kWatchSlots; ++w) c.watch[w] = 0;
        for (u32 w = 0; w < kOwnedSlots; ++w) c.owned_pages[w] = kNoPage;
        for (int k = 0; k < kMaxLevels; ++k) c.cs[k] = kZeroCoherence;
        c.cls_i1.clear();
        for (int k = 0; k < kMaxLevels; ++k) c.cls[k].clear();
        c.clean_writes_free = false;
        c.active = false;
    }
    bool ok = true;
    for (int k = plevels_; ok && k < levels_; ++k) {
        ok = shared_[k].init(cfg.level[k], nonzero(cfg.random_seed + u64(k + 1) * kGolden), a) &&
             shared_pf_[k].init(cfg.level[k].prefetch, line_bits_, a);
        if (!ok) {
            error_clear(err);
            error_append(err, "cache simulator: out of memory for the tags of level ");
            error_append_u64(err, u64(k + 1));
        }
    }
    wb_private_ = true;
    for (int k = 0; k < plevels_; ++k) {
        private_lines_ += cfg.level[k].size / cfg.level[k].line;
        wb_private_ = wb_private_ && cfg.level[k].write == WritePolicy::WriteBack;
    }
    if (split_) private_lines_ += cfg.i1.size / cfg.i1.line;
    if (ok && !activate(0)) {
        ok = false;
        error_clear(err);
        error_append(err, "cache simulator: out of memory for the private levels of core 0");
    }
    if (!ok) {
        destroy();
        return false;
    }
    update_simple();
    return true;
}

void CoherentMachine::destroy() {
    if (cores_) {
        for (u32 i = 0; i < ncores_; ++i) {
            cores_[i].i1.destroy();
            for (int k = 0; k < kMaxLevels; ++k) cores_[i].lv[k].destroy();
            cores_[i].pf_i1.destroy();
            for (int k = 0; k < kMaxLevels; ++k) cores_[i].pf[k].destroy();
            cores_[i].cls_i1.destroy();
            for (int k = 0; k < kMaxLevels; ++k) cores_[i].cls[k].destroy();
        }
        if (alloc_.release) alloc_.release(alloc_.ctx, cores_);
    }
    cores_ = nullptr;
    cur_ = nullptr;
    ncores_ = 0;
    cores_used_ = 0;
    for (int k = 0; k < kMaxLevels; ++k) {
        shared_[k].destroy();
        shared_pf_[k].destroy();
        shared_cls_[k].destroy();
    }
    dir_.destroy();
    pages_.destroy();
    filtering_ = false;
    multi_ = false;
    simple_ = false;
    l2_ = nullptr;
    l2_second_ = false;
    plain_ = false;
}

// Allocates the private levels of `core` (its first access). Core c's
// Random levels: seed + (k+1) x golden ratio per level (I1 its own salt), plus c * kCoreSalt.
bool CoherentMachine::activate(u32 core) {
    Core& c = cores_[core];
    u64 salt = u64(core) * kCoreSalt;
    bool ok = true;
    for (int k = 0; ok && k < plevels_; ++k) {
        LevelConfig lc = cfg_.level[k];
        if (k == 0) lc.inclusion = Inclusion::NonInclusive;  // level 1 has nothing above it
        ok = c.lv[k].init(lc, nonzero(cfg_.random_seed + u64(k + 1) * kGolden + salt), alloc_) &&
             c.pf[k].init(lc.prefetch, line_bits_, alloc_);
    }
    if (ok && split_) {
        LevelConfig lc = cfg_.i1;
        lc.inclusion = Inclusion::NonInclusive;
        ok = c.i1.init(lc, nonzero(cfg_.random_seed + kI1SeedSalt + salt), alloc_) &&
             c.pf_i1.init(lc.prefetch, line_bits_, alloc_);
    }
    if (ok && classify_) ok = classify_core(c);
    if (ok && observe_) observe_core(c);
    if (!ok) {
        c.i1.destroy();
        for (int k = 0; k < kMaxLevels; ++k) c.lv[k].destroy();
        c.pf_i1.destroy();
        for (int k = 0; k < kMaxLevels; ++k) c.pf[k].destroy();
        c.cls_i1.destroy();
        for (int k = 0; k < kMaxLevels; ++k) c.cls[k].destroy();
        c.i1.clear();
        for (int k = 0; k < kMaxLevels; ++k) c.lv[k].clear();
        return false;
    }
    c.active = true;
    c.clean_writes_free = !multi_ && core == 0;
    if (core + 1 > cores_used_) cores_used_ = core + 1;
    if (core != 0 && !multi_) enter_multicore();
    // The directory's holder sets grow with the highest active core; without
    // the memory to widen them it cannot track this core: no tracking at all.
    if (multi_ && dir_.ready() && !dir_.reserve_cores(cores_used_)) {
        dir_.destroy();
        pages_.destroy();
        filtering_ = false;
        forget_owned_pages();
    }
    return true;
}

bool CoherentMachine::certain_refetch() const {
    if (ncores_ == 0 || !split_ || pf_i1_on_ || classify_) return false;
    for (int k = 1; k < levels_; ++k)
        if (cfg_.level[k].inclusion == Inclusion::Inclusive) return false;
    return true;
}

bool CoherentMachine::l1_view(bool icache_side, L1View* v) {
    if (ncores_ == 0 || multi_ || !cores_[0].active) return false;
    Core& cr = cores_[0];
    CacheLevel& c = (icache_side && split_) ? cr.i1 : cr.lv[0];
    // The inline path of access() is the rule: first_hit_free() levels only.
    if (!c.first_hit_free() || !c.sets_pow2()) return false;
    v->keys = c.set_keys(0);
    v->set_mask = c.set_mask();
    v->assoc = c.assoc();
    v->refs = c.stats.refs;
    v->write_back = c.write_back() && cr.clean_writes_free;
    v->lru = c.lru();
    return true;
}

bool CoherentMachine::core_l1_view(u32 core, bool icache_side, CoreL1View* v) {
    if (core >= ncores_ || !cores_[core].active) return false;
    Core& cr = cores_[core];
    CacheLevel& c = (icache_side && split_) ? cr.i1 : cr.lv[0];
    if (!c.first_hit_free() || !c.sets_pow2()) return false;
    v->l.keys = c.set_keys(0);
    v->l.set_mask = c.set_mask();
    v->l.assoc = c.assoc();
    v->l.refs = c.stats.refs;
    v->l.write_back = c.write_back();
    v->l.lru = c.lru();
    v->clean_free = cr.clean_writes_free;
    v->watch = cr.watch;
    v->owned = cr.owned_pages;
    v->page_shift = page_shift_;
    v->ways4 = v->l.lru && v->l.assoc >= 4;
    return true;
}

// A second core starts: from now on coherence is kept. Core 0's lines enter
// the directory, Modified if a private copy is dirty, else Exclusive; with
// the page filter their pages become core 0's instead.
void CoherentMachine::enter_multicore() {
    multi_ = true;
    update_simple();
    cores_[0].clean_writes_free = false;
    if (!dir_.init(ncores_, 2 * private_lines_, alloc_)) return;  // no tracking without memory
    Core& c = cores_[0];
    filtering_ = allow_filter_ && wb_private_ && pages_.init(2 * (private_lines_ >> page_shift_), alloc_);
    for (int k = -1; filtering_ && k < plevels_; ++k) {
        if (k < 0 && !split_) continue;
        const CacheLevel& l = k < 0 ? c.i1 : c.lv[k];
        for (u64 s = 0; filtering_ && s < l.sets(); ++s)
            for (u32 p = 0; p < l.assoc(); ++p)
                if (l.valid_at(s, int(p)) && pages_.touch(l.block_at(s, int(p)) >> page_shift_, 0) == PageOwners::kFailed) {
                    stop_filtering();
                    break;
                }
    }
    if (filtering_) return;
    for (int k = -1; k < plevels_; ++k) {
        if (k < 0 && !split_) continue;
        const CacheLevel& l = k < 0 ? c.i1 : c.lv[k];
        for (u64 s = 0; s < l.sets(); ++s)
            for (u32 p = 0; p < l.assoc(); ++p) {
                if (!l.valid_at(s, int(p))) continue;
                u32 e = dir_.insert(l.block_at(s, int(p)));
                if (e == CoherenceDirectory::kNone) return;
                dir_.add_holder(e, 0);
                bool m = l.is_dirty(s, int(p)) || dir_.state(e) == 'M';
                dir_.set_state(e, m ? 'M' : 'E');
            }
    }
}

// ---------------------------------------------------------------------------
// Miss classification and observation

// The shadows of a core's private caches, one per cache, as many lines as it.
bool CoherentMachine::classify_core(Core& c) {
    bool ok = true;
    for (int k = 0; ok && k < plevels_; ++k)
        ok = c.cls[k].init(cfg_.level[k].size / cfg_.level[k].line, alloc_);
    if (ok && split_) ok = c.cls_i1.init(cfg_.i1.size / cfg_.i1.line, alloc_);
    return ok;
}

// Observation watches data references; classification every reference.
void CoherentMachine::observe_core(Core& c) {
    c.lv[0].no_free_hits();
    if (split_ && classify_) c.i1.no_free_hits();
}

bool CoherentMachine::enable_classification(ErrorText& err) {
    bool ok = true;
    for (int k = plevels_; ok && k < levels_; ++k)
        ok = shared_cls_[k].init(cfg_.level[k].size / cfg_.level[k].line, alloc_);
    for (u32 i = 0; ok && i < ncores_; ++i)
        if (cores_[i].active) ok = classify_core(cores_[i]);
    if (!ok) {
        error_clear(err);
        error_append(err, "cache simulator: out of memory for the miss classification");
        return false;
    }
    classify_ = true;
    enable_observation();
    return true;
}

void CoherentMachine::enable_observation() {
    observe_ = true;
    update_simple();
    for (u32 i = 0; i < ncores_; ++i)
        if (cores_[i].active) observe_core(cores_[i]);
}

void CoherentMachine::classify_ref(int k, bool icache_side, u64 block) {
    MissClassifier& m = k < plevels_ ? (icache_side ? cur_->cls_i1 : cur_->cls[k]) : shared_cls_[k];
    cls_[class_slot(k, icache_side)] = u8(m.reference(block));
}

// The end of an observed access (r: what demand() returned): each missed
// level counts its class. A coherence miss missed every private level of
// its side for that reason alone, so there the class is coherence.
u32 CoherentMachine::observed(u32 r) {
    if (miss_levels_) {
        bool coherence = (r & kCoherenceMiss) != 0;
        for (int k = 0; k < levels_; ++k) {
            for (int side = 0; side < 2; ++side) {
                bool icache_side = side == 1;
                if (icache_side && k != 0) continue;
                u32 slot = class_slot(k, icache_side);
                if (!(miss_levels_ & (1u << slot))) continue;
                MissClass c = coherence && k < plevels_ ? kCoherenceClass : MissClass(cls_[slot]);
                lvl(k, icache_side).stats.miss_class[c]++;
                if (!icache_side) final_cls_[k] = u8(c);
            }
        }
        miss_levels_ = 0;
    }
    return r | kObserved;
}

// ---------------------------------------------------------------------------
// Access

// The demand access of access_slow(), inlined into it (one call fewer on
// every slow-path access).
inline __attribute__((always_inline)) u32 CoherentMachine::demand(u32 core, AccessKind kind, u64 block, u64 bytes) {
    if (core >= ncores_) return u32(levels_);
    Core& cr = cores_[core];
    if (!cr.active && !activate(core)) return u32(levels_);
    cur_ = &cr;
    bool icache_side = kind == kFetch && split_;
    CacheLevel& c = icache_side ? cr.i1 : cr.lv[0];

    if (!multi_) {
        // One core so far: the single-core protocol, no coherence. write()
        // and fetch() at level 0 handle the hit as well (level 1 is never
        // exclusive), so the set is searched once here, not twice.
        (void)c;
        if (kind == kWrite) return write(0, block);
        bool dirty_up = false;
        return fetch(0, block, kind, icache_side, &dirty_up);
    }

    begin_context(core, kind, block, bytes);

    unsigned depth;
    if (kind != kWrite) {
        // A private hit needs no coherence action.
        u64 s = c.set_of(block);
        int p = c.find(s, block);
        if (p >= 0) {
            c.stats.refs[kind]++;
            if (classify_) classify_ref(0, icache_side, block);
            demand_hit(c, 0, icache_side, s, p, block);
            c.touch(s, p);
            return 0;
        }
        bool dirty_up = false;
        depth = fetch(0, block, kind, icache_side, &dirty_up);
    } else {
        // (On the short path's machines access_demand() has tried it.)
        if (!plain_ && c.write_back() && modified_write(c, block, bytes)) return 0;
        begin_write();
        depth = unsigned(-1);
        if (c.write_back()) {
            u64 s = c.set_of(block);
            int p = c.find(s, block);
            if (p >= 0) {
                c.stats.refs[kWrite]++;
                if (classify_) classify_ref(0, false, block);
                demand_hit(c, 0, false, s, p, block);
                p = c.touch(s, p);
                c.mark_dirty(s, p);
                depth = 0;
            }
        }
        if (depth == unsigned(-1)) depth = write(0, block);
    }
    if (ctx_.dir) finish();
    return depth | ctx_.flags;
}

u32 CoherentMachine::access_slow(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc) {
    if (core < ncores_) {
        // An LRU hit on another way of L1 (the inline path checked the
        // first): moved to the front here, under the inline path's
        // conditions for writes, without the slow path's set-up. Stencil
        // spent 22 % of its time in the slow path before, much of it on
        // such hits; inlining this loop into every helper measured slower
        // (matmul 400: median 7.07 s against 6.7 s), the code being larger.
        Core& cr = cores_[core];
        CacheLevel& c = (kind == kFetch && split_) ? cr.i1 : cr.lv[0];
        if (c.first_hit_free() && c.lru() && other_way_hit(cr, c, c.set_keys(c.set_of(block)), kind, block))
            return 0;
    }
    return access_demand(core, kind, block, bytes, pc);
}

u32 CoherentMachine::access_demand(u32 core, AccessKind kind, u64 block, u64 bytes, u64 pc) {
    if (simple_ && core == 0) {
        cur_ = &cores_[0];
        return miss_simple<false>(kind, block);
    }
    if (plain_ && core < ncores_ && cores_[core].active) {
        // A write to a Modified line before the page filter's lookup, which
        // it does not need (the short path's levels are write-back); demand()
        // does not try it again.
        if (multi_ && kind == kWrite) {
            cur_ = &cores_[core];
            if (modified_write(cur_->lv[0], block, bytes)) return 0;
        }
        if (filtering_) {
            u32 r = miss_owned(core, kind, block);
            if (r != kNotOwned) return r;
        }
    }
    pf_count_ = 0;
    pf_flags_ = 0;
    u32 r = demand(core, kind, block, bytes);
    if (observe_) r = observed(r);  // before the prefetches, which are not classified
    if (pf_count_) run_prefetchers(kind == kFetch ? block : pc);
    return r | pf_flags_;
}

// ---------------------------------------------------------------------------
// The short miss path
//
// What demand() -> fetch()/write() -> allocate() -> evict() -> writeback()
// do for core 0 alone when every level is LRU, write-back and non-
// inclusive and nothing watches: the same counters and the same contents,
// in the same order (the lowest level that missed fills first, each
// victim's write-back finishes before the level above fills), without the
// policy, inclusion, coherence, prefetch and classification tests at every
// step and without the recursion. matmul 400 (68 M D1 misses in 130 M
// data references) ran in 5.6 s with the general path, 3.7 s with this one
// (Cachegrind: 2.6 s); CoherentMachine::fetch() alone had been 28 % of the
// samples.

void CoherentMachine::update_simple() {
    bool ok = allow_simple_ && ncores_ > 0 && !classify_ && !observe_ && !pf_i1_on_;
    auto plain = [](const CacheLevel& c) { return c.lru() && c.write_back() && !c.exclusive() && !c.inclusive(); };
    for (int k = 0; ok && k < levels_; ++k) ok = !pf_on_[k] && plain(k < plevels_ ? cores_[0].lv[k] : shared_[k]);
    if (ok && split_) ok = plain(cores_[0].i1);
    plain_ = ok;
    simple_ = ok && !multi_;
    l2_ = simple_ && levels_ >= 2 ? (plevels_ > 1 ? &cores_[0].lv[1] : &shared_[1]) : nullptr;
    l2_second_ = l2_ && l2_->assoc() >= 2;
    if (!plain_) forget_owned_pages();  // miss_owned() runs only on the short path
}

// `block` is in none of the ways of cur_'s L1 set for `kind` (the caller
// searched it: access_slow(), access_lru() or an L1View user).
template <bool Multi>
u32 CoherentMachine::miss_simple(AccessKind kind, u64 block) {
    CacheLevel& top = lvl(0, kind == kFetch);
    top.stats.refs[kind]++;
    top.stats.misses[kind]++;
    int k = below_simple<Multi>(kind, block);
    fill_simple<Multi>(0, top, block, kind == kWrite);
    return u32(k);
}

u32 CoherentMachine::miss_lower_half(AccessKind kind, u64 block) {
    // Written only when it changes: with the misses on another host thread,
    // a store here at every miss took the host cache line of the fields the
    // main thread reads at every access (simple_) to the other core.
    if (cur_ != &cores_[0]) cur_ = &cores_[0];
    return u32(below_simple<false>(kind, block));
}

void CoherentMachine::writeback_l1_victim(u64 block) { writeback_simple<false>(1, block); }

// The levels below L1 of a short-path miss: the first that holds the
// block moves it to the front, the ones above it fill from the lowest up.
// Returns the depth that served the block.
//
// One core: each level's set is searched and shifted in one pass
// (search_plain()); the fills then only write way 0 and deal
// with the victims, in the order fill_simple() would. memcopy 200 (32 M
// misses that reach L3, 21 M that leave it): 5.50 s -> 5.15 s. Not with
// several cores: left_private() asks whether a victim is still in the
// core's other private levels, whose sets must not be half updated then.
template <bool Multi>
int CoherentMachine::below_simple(AccessKind kind, u64 block) {
    if (Multi) {
        int k = 1;
        for (; k < levels_; ++k) {
            CacheLevel& c = lvl(k, false);
            u64 s;
            int p = reference(c, kind, block, &s);
            if (p >= 0) {
                c.touch(s, p);
                break;
            }
        }
        if (k == levels_) ++mem_reads_;
        for (int j = k - 1; j >= 1; --j) fill_simple<Multi>(j, lvl(j, false), block, false);
        return k;
    }
    return below_plain<1>(kind, block);
}

// below_simple() for one core from level First down (First 2: below_l2(),
// whose L2 part l2_part() ran).
template <int First>
int CoherentMachine::below_plain(AccessKind kind, u64 block) {
    u64* keys[kMaxLevels];
    u64 dropped[kMaxLevels];
    int k = First;
    for (; k < levels_; ++k) {
        CacheLevel& c = lvl(k, false);
        c.stats.refs[kind]++;
        keys[k] = c.set_keys(c.set_of(block));
        if (search_plain(keys[k], c.assoc(), block, &dropped[k]) >= 0) break;
        c.stats.misses[kind]++;
    }
    if (k == levels_) ++mem_reads_;
    for (int j = k - 1; j >= First; --j) {
        keys[j][0] = repl::make_key(block, false);
        dropped_simple<false>(j, lvl(j, false), dropped[j]);
    }
    return k;
}

// What below_simple() and writeback_l1_victim() do at L2, with every
// write-back into L3 left in `w` in the order they would make it: the
// reference's L3 part (below_plain<2>()) comes before L2 drops its victim,
// as there; L1's victim is written back after both.
u32 CoherentMachine::l2_part(AccessKind kind, u64 block, bool front, u64 l1_victim, LowerWork* w) {
    w->n = 0;
    if (cur_ != &cores_[0]) cur_ = &cores_[0];
    CacheLevel& c = *l2_;
    u32 depth = 1;
    if (!front) {
        c.stats.refs[kind]++;
        u64* keys = c.set_keys(c.set_of(block));
        u64 dropped = repl::kInvalidKey;
        // The last two ways first: a cycle over as many blocks as the set
        // has ways hits the least recent one every time. matmul 400's L2
        // sets cycle through B's lines this way (7.5 M hits on ways 8 and
        // 9); each went through the vector search and its call. matmul
        // 1.48 s -> 1.46 s (6 of 11 pairs faster), stencil 1024 40 1.33 s
        // -> 1.27 s (5 of 5).
        // (A direct-mapped L2 has one way, already tested.)
        u32 last = c.assoc() - 1;
        if (last && repl::key_holds(keys[last], block)) {
            repl::order_to_front(keys, last);
        } else if (last > 1 && repl::key_holds(keys[last - 1], block)) {
            repl::order_to_front(keys, last - 1);
        } else if (search_plain(keys, c.assoc(), block, &dropped) < 0) {
            c.stats.misses[kind]++;
            w->op[w->n++] = LowerWork::kReference | block;
            keys[0] = repl::make_key(block, false);
            l2_dropped(c, dropped, w);
            depth = kBelowL2;
        }
    }
    if (l1_victim != kNoVictim) {
        u64 s;
        int p = reference(c, kWriteback, l1_victim, &s);
        if (p >= 0)
            c.mark_dirty(s, p);
        else
            l2_dropped(c, repl::order_push_front(c.set_keys(s), c.assoc(), repl::make_key(l1_victim, true)), w);
    }
    return depth;
}

// dropped_simple() at L2 with the write-back into L3 left in `w`.
void CoherentMachine::l2_dropped(CacheLevel& c, u64 dropped, LowerWork* w) {
    if (dropped == repl::kInvalidKey) return;
    c.stats.evictions++;
    if (!repl::key_dirty(dropped)) return;
    c.stats.writebacks++;
    w->op[w->n++] = repl::key_block(dropped);
}

u32 CoherentMachine::below_l2(AccessKind kind, u64 block) {
    if (cur_ != &cores_[0]) cur_ = &cores_[0];
    return u32(below_plain<2>(kind, block));
}

void CoherentMachine::writeback_below_l2(u64 block) {
    if (cur_ != &cores_[0]) cur_ = &cores_[0];
    writeback_simple<false>(2, block);
}

u32 CoherentMachine::run_below_l2(AccessKind kind, const LowerWork& w, u32 depth) {
    for (u32 i = 0; i < w.n; ++i) {
        if (w.op[i] & LowerWork::kReference)
            depth = below_l2(kind, w.op[i] & ~LowerWork::kReference);
        else
            writeback_below_l2(w.op[i]);
    }
    return depth;
}

// A write of the current core that hits a dirty line of its L1 (c, write-
// back): the line is Modified, the core its only holder, and the write
// changes no state. It is silent, except that the loss records of cores
// that lost the line (if the write filter's slot says there may be some)
// get the bytes written: begin_write() and finish() did nothing else.
// omp_tasks 1000000 4096 with 4 threads made 14.6 M such writes, 13.1 M to
// lines with records (the merge writes lines another core had): 3.48 s ->
// 3.13 s, and 3.01 s with access_demand() calling it before the page
// filter (medians of 5).
bool CoherentMachine::modified_write(CacheLevel& c, u64 block, u64 bytes) {
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p < 0 || !c.is_dirty(s, p)) return false;
    if (cur_->watch[block % kWatchSlots] != 0) write_records(block, bytes);
    c.stats.refs[kWrite]++;
    if (classify_) classify_ref(0, false, block);
    demand_hit(c, 0, false, s, p, block);
    c.touch(s, p);
    return true;
}

void CoherentMachine::write_records(u64 block, u64 bytes) {
    u32 d = dir_.find(block);
    if (d != CoherenceDirectory::kNone) dir_.or_records(d, bytes);
}

// allocate() + evict() of level k: the new line goes in front, the LRU
// line that falls off is written back if dirty. (CacheLevel::insert() does
// the same for an LRU set, out of line and after a policy test.)
template <bool Multi>
void CoherentMachine::fill_simple(int k, CacheLevel& c, u64 block, bool dirty) {
    u64* keys = c.set_keys(c.set_of(block));
    dropped_simple<Multi>(k, c, repl::order_push_front(keys, c.assoc(), repl::make_key(block, dirty)));
}

// The line `dropped` fell off level k's set (kInvalidKey: none): written
// back if dirty.
template <bool Multi>
void CoherentMachine::dropped_simple(int k, CacheLevel& c, u64 dropped) {
    if (dropped == repl::kInvalidKey) return;
    c.stats.evictions++;
    bool victim_dirty = repl::key_dirty(dropped);
    if (victim_dirty) {
        c.stats.writebacks++;
        writeback_simple<Multi>(k + 1, repl::key_block(dropped));
    }
    if (Multi && k < plevels_) left_private(k, &c == &cur_->i1, repl::key_block(dropped), victim_dirty);
}

// The short miss path on a multi-core machine, for a block of a page that
// only `core` has touched (an untouched page becomes its own here, as at
// the crossing of the general path): no other core holds the line or has a
// record for it, so the access is the single-core one plus the directory
// upkeep of the core's private victims (left_private()). A write may find
// the line in L1 (clean, or its write-filter slot in use): a hit that
// dirties it. kNotOwned for any other page. omp_loop 1024 40 with 4
// threads (10.8 M D1 misses, nearly all in pages of one thread's rows):
// 4.98 s -> 4.46 s.
u32 CoherentMachine::miss_owned(u32 core, AccessKind kind, u64 block) {
    u64 page = block >> page_shift_;
    u32 o = pages_.touch(page, core);
    if (o != core) {
        if (o == PageOwners::kFailed) stop_filtering();
        return kNotOwned;
    }
    cur_ = &cores_[core];
    cur_->owned_pages[page % kOwnedSlots] = page;
    if (kind == kWrite) {
        CacheLevel& c = cur_->lv[0];
        u64 s = c.set_of(block);
        int p = c.find(s, block);
        if (p >= 0) {
            c.stats.refs[kWrite]++;
            c.mark_dirty(s, c.touch(s, p));
            return 0;
        }
    }
    return miss_simple<true>(kind, block);
}

// writeback() at level k: a present line becomes dirty (no replacement
// update), a missing one is allocated dirty.
// Out of line, as the compiler left it before fill_simple() became a
// template: inlined into it, matmul 400 took 1.94 s instead of 1.81 s.
template <bool Multi>
__attribute__((noinline)) void CoherentMachine::writeback_simple(int k, u64 block) {
    if (k >= levels_) {
        ++mem_writes_;
        return;
    }
    CacheLevel& c = lvl(k, false);
    u64 s;
    int p = reference(c, kWriteback, block, &s);
    if (p >= 0) {
        c.mark_dirty(s, p);
        return;
    }
    fill_simple<Multi>(k, c, block, true);
}

// What a multi-core access (demand or prefetch) starts knowing.
void CoherentMachine::begin_context(u32 core, AccessKind kind, u64 block, u64 bytes) {
    ctx_.core = core;
    ctx_.kind = kind;
    ctx_.block = block;
    ctx_.bytes = bytes;
    ctx_.flags = 0;
    ctx_.prev = 'I';
    ctx_.dir = false;
    ctx_.crossed = false;
    ctx_.others_hold = false;
    ctx_.c2c = false;
    ctx_.came_dirty = false;
    ctx_.pending = false;
    ctx_.in_own_page = false;
    ctx_.supplier = 0;
    ctx_.pending_owner = 0;
}

// ---------------------------------------------------------------------------
// Prefetching

void CoherentMachine::train_later(int k, bool icache_side, u64 block) {
    if (pf_count_ < kMaxLevels + 1) pf_events_[pf_count_++] = PfEvent{k, icache_side, block};
}

void CoherentMachine::used_prefetch(CacheLevel& c, int k, bool icache_side, u64 set, int pos,
                                    u64 block) {
    c.clear_prefetched(set, pos);
    c.stats.prefetches_useful++;
    pf_flags_ |= kPrefetchHit;
    if (has_prefetcher(k, icache_side)) train_later(k, icache_side, block);
}

// The demand access is complete (its coherence actions finished): each
// training event asks its level's prefetcher for blocks.
void CoherentMachine::run_prefetchers(u64 pc) {
    u32 events = pf_count_;
    for (u32 i = 0; i < events; ++i) {
        PfEvent e = pf_events_[i];
        u32 n = prefetcher(e.k, e.icache_side).train(pc, e.block, pf_proposals_);
        for (u32 j = 0; j < n; ++j) prefetch_into(e.k, e.icache_side, pf_proposals_[j]);
    }
    pf_count_ = 0;
}

// Fetches `block` into level k of the current core (or shared level k) for
// its prefetcher, unless the level has it. The request travels like a
// read: below level k it counts as a kPrefetch reference and, at the
// crossing into the shared levels, takes part in the coherence protocol
// (a prefetch of a line another core holds Modified is a cache-to-cache
// transfer that leaves both copies Shared).
void CoherentMachine::prefetch_into(int k, bool icache_side, u64 block) {
    CacheLevel& c = lvl(k, icache_side);
    if (has(c, block)) return;
    c.stats.prefetches_issued++;
    bool dirty_up = false;
    if (multi_) begin_context(u32(cur_ - cores_), kPrefetch, block, 0);
    fetch(k, block, kPrefetch, icache_side, &dirty_up);
    if (multi_ && ctx_.dir) finish();
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) c.mark_prefetched(s, p);
}

// A demand fetch (kFetch, kRead, or the fill of a write-allocate miss above:
// kWrite) of `block` into level k. *dirty_up tells the requester that the
// line comes from an exclusive level with its dirty bit set.
unsigned CoherentMachine::fetch(int k, u64 block, AccessKind kind, bool icache_side, bool* dirty_up) {
    CacheLevel& c = lvl(k, icache_side);
    c.stats.refs[kind]++;
    bool classified = classify_ && kind != kPrefetch;
    if (classified) classify_ref(k, icache_side, block);
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) {
        if (kind != kPrefetch) demand_hit(c, k, icache_side, s, p, block);
        p = c.touch(s, p);
        if (!c.exclusive()) {
            *dirty_up = false;
        } else if (multi_ && k >= plevels_ && ctx_.others_hold) {
            // A shared exclusive level copies a line other cores hold up
            // (clean) instead of moving it.
            *dirty_up = false;
        } else {
            *dirty_up = c.remove_at(s, p);
        }
        return unsigned(k);
    }
    c.stats.misses[kind]++;
    if (classified) classify_miss(k, icache_side);
    if (kind != kPrefetch && has_prefetcher(k, icache_side)) train_later(k, icache_side, block);
    bool below_dirty = false;
    unsigned depth = fetch_below(k, block, kind, &below_dirty);
    if (c.exclusive()) {
        *dirty_up = below_dirty;
        return depth;
    }
    *dirty_up = false;
    allocate(k, icache_side, block, below_dirty);
    return depth;
}

// The fetch of level k's miss from below: the next level, memory, or (at
// the crossing from the last private level) another core's cache.
unsigned CoherentMachine::fetch_below(int k, u64 block, AccessKind kind, bool* dirty_up) {
    if (multi_ && k + 1 == plevels_) {
        if (ctx_.kind != kWrite && !ctx_.crossed) read_crossing();
        ctx_.crossed = true;
        if (ctx_.c2c) {
            ctx_.c2c = false;
            ctx_.pending = false;  // the owner's dirty data comes with the line
            ctx_.flags |= kCacheToCache;
            cstats(ctx_.core).c2c_in++;
            cstats(ctx_.supplier).c2c_out++;
            *dirty_up = false;
            return unsigned(plevels_);
        }
    }
    if (k + 1 < levels_) {
        unsigned depth = fetch(k + 1, block, kind, false, dirty_up);
        if (multi_ && k + 1 == plevels_ && *dirty_up) ctx_.came_dirty = true;
        return depth;
    }
    ++mem_reads_;
    return unsigned(levels_);
}

// A demand write of `block` at level k (level 0 = D1 / unified L1).
unsigned CoherentMachine::write(int k, u64 block) {
    CacheLevel& c = lvl(k, false);
    c.stats.refs[kWrite]++;
    if (classify_) classify_ref(k, false, block);
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) {
        demand_hit(c, k, false, s, p, block);
        p = c.touch(s, p);
        if (c.write_back())
            c.mark_dirty(s, p);
        else
            write_below(k, block);
        return unsigned(k);
    }
    c.stats.misses[kWrite]++;
    if (classify_) classify_miss(k, false);
    if (has_prefetcher(k, false)) train_later(k, false, block);
    if (c.write_back() && !c.exclusive()) {
        // Write-allocate: fetch the line, install it dirty.
        bool below_dirty = false;
        unsigned depth = fetch_below(k, block, kWrite, &below_dirty);
        allocate(k, false, block, true);
        return depth;
    }
    // Write-through no-allocate, or an exclusive level (never filled by
    // demand): pass the write on.
    return write_below(k, block);
}

// A write passed on from level k to the next level or memory. At the
// crossing, dirty data of an owner this write invalidated goes first.
unsigned CoherentMachine::write_below(int k, u64 block) {
    if (multi_ && k + 1 == plevels_ && ctx_.pending) {
        ctx_.pending = false;
        ctx_.c2c = false;
        flush_to_shared(ctx_.pending_owner, block);
    }
    if (k + 1 >= levels_) {
        ++mem_writes_;
        return unsigned(levels_);
    }
    return write(k + 1, block);
}

// A dirty line written back from the level above into level k.
void CoherentMachine::writeback(int k, u64 block) {
    CacheLevel& c = lvl(k, false);
    c.stats.refs[kWriteback]++;
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) {
        if (c.write_back()) {
            c.mark_dirty(s, p);  // no replacement update
            return;
        }
    } else {
        c.stats.misses[kWriteback]++;
        if (c.write_back() && !c.exclusive()) {
            allocate(k, false, block, true);
            return;
        }
    }
    if (k + 1 < levels_)
        writeback(k + 1, block);
    else
        ++mem_writes_;
}

// A line evicted from level k-1 into exclusive level k.
void CoherentMachine::victim_insert(int k, u64 block, bool dirty) {
    CacheLevel& c = lvl(k, false);
    c.stats.victims_in++;
    u64 s = c.set_of(block);
    int p = c.find(s, block);
    if (p >= 0) {
        p = c.touch(s, p);
        if (dirty) c.mark_dirty(s, p);
        return;
    }
    allocate(k, false, block, dirty);
}

void CoherentMachine::allocate(int k, bool icache_side, u64 block, bool dirty) {
    CacheLevel& c = lvl(k, icache_side);
    u64 victim;
    bool victim_dirty;
    if (c.insert(c.set_of(block), block, dirty, &victim, &victim_dirty))
        evict(k, icache_side, victim, victim_dirty);
}

void CoherentMachine::evict(int k, bool icache_side, u64 victim, bool dirty) {
    CacheLevel& c = lvl(k, icache_side);
    c.stats.evictions++;
    if (c.inclusive()) {
        // Back-invalidate every copy above (for a shared level: in every
        // core); a dirty copy makes the victim dirty.
        for (int j = 0; j < k; ++j) {
            bool d = false;
            if (j >= plevels_) {
                if (shared_[j].invalidate(victim, &d)) {
                    shared_[j].stats.back_invalidations++;
                    dirty |= d;
                }
                continue;
            }
            u32 first = k < plevels_ ? u32(cur_ - cores_) : 0;
            u32 last = k < plevels_ ? first + 1 : cores_used_;
            for (u32 i = first; i < last; ++i) {
                Core& o = cores_[i];
                if (!o.active) continue;
                d = false;
                if (j == 0 && split_ && o.i1.invalidate(victim, &d)) {
                    o.i1.stats.back_invalidations++;
                    dirty |= d;
                }
                d = false;
                if (o.lv[j].invalidate(victim, &d)) {
                    o.lv[j].stats.back_invalidations++;
                    dirty |= d;
                }
            }
        }
        if (multi_ && k >= plevels_) drop_all_holders(victim);
    }
    if (k + 1 < levels_ && lvl(k + 1, false).exclusive()) {
        victim_insert(k + 1, victim, dirty);
    } else if (dirty) {
        c.stats.writebacks++;
        if (k + 1 < levels_)
            writeback(k + 1, victim);
        else
            ++mem_writes_;
    }
    if (multi_ && k < plevels_) left_private(k, icache_side, victim, dirty);
}

// The directory after private level k of the current core evicted
// `victim` (written back first if dirty): the core is no longer a holder
// if no other private level has it; Modified becomes Exclusive if its
// dirty data left the last private level. A victim in a page only this
// core has touched has no entry (the page table is looked up first: it is
// smaller than the private levels' tag stores present() searches; omp_loop
// 1024 40 with 4 threads 5.31 s -> 5.04 s).
void CoherentMachine::left_private(int k, bool icache_side, u64 victim, bool dirty) {
    if (!tracked(victim)) return;
    if (!present(*cur_, victim, k + 1 < plevels_ ? k + 1 : 0, k, icache_side))
        drop_holder(u32(cur_ - cores_), victim);
    else if (dirty && k + 1 == plevels_ && wb_private_)
        dirty_data_left(u32(cur_ - cores_), victim);
}

// ---------------------------------------------------------------------------
// Coherence

bool CoherentMachine::holds_privately(const Core& c, u64 block, bool* dirty) const {
    bool found = false;
    bool d = false;
    if (split_ && c.i1.contains(block, &d)) {
        found = true;
        *dirty |= d;
    }
    for (int k = 0; k < plevels_; ++k) {
        d = false;
        if (c.lv[k].contains(block, &d)) {
            found = true;
            *dirty |= d;
        }
    }
    return found;
}

// Whether `c` holds `block` in a private level, looking at level `first`
// first (where it is most likely), then the others; level `skip` (I1 if
// skip_i1, D1 / L1 otherwise, when skip is 0) is known not to hold it.
bool CoherentMachine::present(const Core& c, u64 block, int first, int skip, bool skip_i1) const {
    bool skip_d = skip >= 0 && !(skip == 0 && skip_i1);
    if (!(skip_d && first == skip) && has(c.lv[first], block)) return true;
    for (int k = 0; k < plevels_; ++k)
        if (k != first && !(skip_d && k == skip) && has(c.lv[k], block)) return true;
    return split_ && !(skip == 0 && skip_i1) && has(c.i1, block);
}

// Removes every private copy of `block` from `core` (another core's write);
// returns whether one was dirty.
bool CoherentMachine::invalidate_core(u32 core, u64 block) {
    Core& c = cores_[core];
    bool dirty = false;
    bool d = false;
    if (split_ && c.i1.invalidate(block, &d)) dirty |= d;
    for (int k = 0; k < plevels_; ++k) {
        d = false;
        if (c.lv[k].invalidate(block, &d)) dirty |= d;
    }
    cstats(core).invalidations_received++;
    return dirty;
}

// Clears the dirty bits of `core`'s private copies of `block` (no
// replacement update); returns whether one was dirty.
bool CoherentMachine::clean_core(u32 core, u64 block) {
    Core& c = cores_[core];
    bool dirty = false;
    for (int k = -1; k < plevels_; ++k) {
        if (k < 0 && !split_) continue;
        CacheLevel& l = k < 0 ? c.i1 : c.lv[k];
        u64 s = l.set_of(block);
        int p = l.find(s, block);
        if (p >= 0 && l.is_dirty(s, p)) {
            l.set_keys(s)[p] &= ~1ull;
            dirty = true;
        }
    }
    return dirty;
}

// The dirty data of `owner`'s private levels goes to the first shared level
// (or memory): a write-back counted on the owner's last private level.
void CoherentMachine::flush_to_shared(u32 owner, u64 block) {
    cores_[owner].lv[plevels_ - 1].stats.writebacks++;
    if (plevels_ < levels_)
        writeback(plevels_, block);
    else
        ++mem_writes_;
}

void CoherentMachine::consume_record(u32 slot) {
    u64 mask;
    if (!dir_.take_record(slot, ctx_.core, &mask)) return;
    CoherenceStats& cs = cstats(ctx_.core);
    ctx_.flags |= kCoherenceMiss;
    cs.coherence_misses++;
    if ((mask & ctx_.bytes) == 0) {
        ctx_.flags |= kFalseSharing;
        cs.false_sharing_misses++;
    }
}

// The directory entry of the accessed block (kNone: no core holds it or
// lost it): its loss record is consumed and ctx_.prev set to the
// requesting core's state there ('I' if it holds no copy).
u32 CoherentMachine::enter_directory() {
    u32 s = dir_.find(ctx_.block);
    if (s == CoherenceDirectory::kNone) return s;
    consume_record(s);
    ctx_.prev = dir_.holder(s, ctx_.core) ? dir_.state(s) : 'I';
    return s;
}

// Before a write that is not a silent hit on a Modified line.
void CoherentMachine::begin_write() {
    ctx_.dir = true;
    if (own_page()) return;  // no other holder, no records; finish() has nothing to do
    u32 s = enter_directory();
    if (s == CoherenceDirectory::kNone) return;
    u32 core = ctx_.core;
    bool self = dir_.holder(s, core);
    if (self && ctx_.prev == 'S') {
        ctx_.flags |= kUpgrade;
        cstats(core).upgrades++;
    }
    u32 n = 0;
    for (u32 o = dir_.next_holder(s, 0); o != CoherenceDirectory::kNone; o = dir_.next_holder(s, o + 1)) {
        if (o == core) continue;
        bool dirty = invalidate_core(o, ctx_.block);
        dir_.remove_holder(s, o);
        dir_.add_record(s, o, 0);
        ++n;
        if (dirty) {
            // Only an owner (the single other holder) can be dirty.
            ctx_.pending = true;
            ctx_.pending_owner = o;
            ctx_.c2c = true;
            ctx_.supplier = o;
        }
    }
    if (n) {
        ctx_.flags |= kInvalidatedOthers;
        cstats(core).invalidations_sent += n;
    }
    dir_.or_records(s, ctx_.bytes);
    sync_watch(s);
    dir_.erase_if_unused(s);
}

// A fetch or read leaves the core's last private level.
void CoherentMachine::read_crossing() {
    ctx_.crossed = true;
    ctx_.dir = true;
    if (own_page()) return;  // no other holder, no records; finish() has nothing to do
    u32 s = enter_directory();
    if (s == CoherenceDirectory::kNone) return;
    bool self = dir_.holder(s, ctx_.core);
    u32 owner = CoherenceDirectory::kNone;
    if (!self && dir_.holders(s) > 0) {
        if (dir_.holders(s) == 1 && dir_.state(s) != 'S') owner = dir_.next_holder(s, 0);
        dir_.set_state(s, 'S');
    }
    ctx_.others_hold = dir_.holders(s) > (self ? 1u : 0u);
    sync_watch(s);
    dir_.erase_if_unused(s);
    if (owner != CoherenceDirectory::kNone && clean_core(owner, ctx_.block)) {
        ctx_.c2c = true;
        ctx_.supplier = owner;
        flush_to_shared(owner, ctx_.block);
    }
}

// The requesting core's state after the access.
void CoherentMachine::finish() {
    if (ctx_.in_own_page) return;
    // A read by a core holding no dirty copy (state I or E) can only have
    // got one from the crossing (an exclusive shared level's dirty line).
    bool dirty = false;
    bool held;
    if (ctx_.kind != kWrite && ctx_.came_dirty) {
        held = holds_privately(*cur_, ctx_.block, &dirty);
    } else if (ctx_.kind == kFetch && split_ && has(cur_->i1, ctx_.block)) {
        held = true;
    } else {
        held = present(*cur_, ctx_.block, 0, -1, false);
    }
    u32 s = held ? dir_.insert(ctx_.block) : dir_.find(ctx_.block);
    if (held) {
        if (s == CoherenceDirectory::kNone) return;
        dir_.add_holder(s, ctx_.core);
        bool others = dir_.holders(s) > 1;
        char st;
        if (ctx_.kind == kWrite)
            st = 'M';
        else if (ctx_.prev == 'I')
            st = others ? 'S' : (dirty ? 'M' : 'E');
        else
            st = (ctx_.prev == 'E' && dirty) ? 'M' : ctx_.prev;
        dir_.set_state(s, st);
        sync_watch(s);
        return;
    }
    if (s == CoherenceDirectory::kNone) return;
    dir_.remove_holder(s, ctx_.core);
    sync_watch(s);
    dir_.erase_if_unused(s);
}

void CoherentMachine::drop_holder(u32 core, u64 block) {
    u32 s = dir_.find(block);
    if (s == CoherenceDirectory::kNone || !dir_.holder(s, core)) return;
    dir_.remove_holder(s, core);
    sync_watch(s);
    dir_.erase_if_unused(s);
}

void CoherentMachine::drop_all_holders(u64 block) {
    if (!tracked(block)) return;
    u32 s = dir_.find(block);
    if (s == CoherenceDirectory::kNone) return;
    dir_.clear_holders(s);
    sync_watch(s);
    dir_.erase_if_unused(s);
}

// With write-back private levels a line is Modified exactly when one of the
// holder's copies is dirty: when the dirty data leaves its last private
// level while a clean copy stays (an I1 copy of a written line), Modified
// becomes Exclusive. (A filtered page's state is read off the dirty bits.)
void CoherentMachine::dirty_data_left(u32 core, u64 block) {
    u32 s = dir_.find(block);
    if (s == CoherenceDirectory::kNone || !dir_.holder(s, core) || dir_.state(s) != 'M') return;
    bool dirty = false;
    if (!holds_privately(cores_[core], block, &dirty) || !dirty) dir_.set_state(s, 'E');
}

// Whether the block of the access in progress lies in a page that only its
// core has touched (an untouched page becomes the core's): then no other
// core holds the line or has a record for it, and the directory is not
// needed. A page that was another core's becomes shared first, its lines
// in that core entering the directory.
bool CoherentMachine::own_page() {
    if (!filtering_) return false;
    u64 page = ctx_.block >> page_shift_;
    u32 o = pages_.touch(page, ctx_.core);
    if (o == ctx_.core) {
        ctx_.in_own_page = true;
        if (plain_) cores_[o].owned_pages[page % kOwnedSlots] = page;  // as miss_owned()
        return true;
    }
    if (o == PageOwners::kFailed) {
        stop_filtering();
    } else if (o != PageOwners::kShared) {
        enter_page(page, o);
        pages_.share(page);
        u64& memo = cores_[o].owned_pages[page % kOwnedSlots];
        if (memo == page) memo = kNoPage;
    }
    return false;
}

// The lines of `page` that `owner` holds enter the directory: Modified if a
// copy is dirty, else Exclusive (no other core touched the page: no records).
void CoherentMachine::enter_page(u64 page, u32 owner) {
    u64 first = page << page_shift_;
    for (u64 b = first; b < first + (1ull << page_shift_); ++b) {
        bool dirty = false;
        if (!holds_privately(cores_[owner], b, &dirty)) continue;
        u32 s = dir_.insert(b);
        if (s == CoherenceDirectory::kNone) return;
        dir_.add_holder(s, owner);
        dir_.set_state(s, dirty ? 'M' : 'E');
    }
}

void CoherentMachine::set_page_filter(bool on, unsigned page_shift) {
    allow_filter_ = on;
    if (!on && filtering_) stop_filtering();
    if (!multi_) page_shift_ = page_shift < 32 ? page_shift : 32;
}

// Without memory for the filter: every page with an owner enters the
// directory, which tracks every line from now on.
void CoherentMachine::stop_filtering() {
    filtering_ = false;
    forget_owned_pages();
    pages_.for_each_owned([this](u64 page, u32 owner) { enter_page(page, owner); });
    pages_.destroy();
}

void CoherentMachine::forget_owned_pages() {
    for (u32 i = 0; i < ncores_; ++i)
        for (u32 w = 0; w < kOwnedSlots; ++w) cores_[i].owned_pages[w] = kNoPage;
}

// Keeps the write filters exact: an entry with loss records whose single
// holder has it exclusively is counted in that core's filter.
void CoherentMachine::sync_watch(u32 slot) {
    if (!dir_.has_records(slot) && dir_.watch(slot) == 0) return;  // the common case
    u32 want = 0;
    if (dir_.holders(slot) == 1 && dir_.state(slot) != 'S' && dir_.has_records(slot))
        want = dir_.next_holder(slot, 0) + 1;
    u32 have = dir_.watch(slot);
    if (want == have) return;
    u64 w = dir_.block(slot) % kWatchSlots;
    if (have) cores_[have - 1].watch[w]--;
    if (want) cores_[want - 1].watch[w]++;
    dir_.set_watch(slot, want);
}

// ---------------------------------------------------------------------------
// Counters and queries

const LevelStats& CoherentMachine::stats(u32 core, int index, bool icache_side) const {
    if (index < 0 || index >= levels_) return kZeroStats;
    if (index >= plevels_) return shared_[index].stats;
    if (core >= ncores_ || !cores_[core].active) return kZeroStats;
    const Core& c = cores_[core];
    return (index == 0 && icache_side && split_) ? c.i1.stats : c.lv[index].stats;
}

const CoherenceStats& CoherentMachine::coherence(u32 core, int index) const {
    if (index < 0 || index >= plevels_ || core >= ncores_) return kZeroCoherence;
    return cores_[core].cs[index];
}

LevelStats CoherentMachine::total_stats(int index, bool icache_side) const {
    LevelStats t = kZeroStats;
    if (index < 0 || index >= levels_) return t;
    if (index >= plevels_) return shared_[index].stats;
    for (u32 i = 0; i < ncores_; ++i)
        if (cores_[i].active) add_stats(t, stats(i, index, icache_side));
    return t;
}

void CoherentMachine::reset_stats() {
    for (u32 i = 0; i < ncores_; ++i) {
        Core& c = cores_[i];
        c.i1.stats = kZeroStats;
        for (int k = 0; k < kMaxLevels; ++k) {
            c.lv[k].stats = kZeroStats;
            c.cs[k] = kZeroCoherence;
        }
    }
    for (int k = 0; k < kMaxLevels; ++k) shared_[k].stats = kZeroStats;
    mem_reads_ = 0;
    mem_writes_ = 0;
}

bool CoherentMachine::contains(u32 core, int index, bool icache_side, u64 block, bool* dirty) const {
    if (index < 0 || index >= levels_) return false;
    if (index >= plevels_) return shared_[index].contains(block, dirty);
    if (core >= ncores_ || !cores_[core].active) return false;
    const Core& c = cores_[core];
    const CacheLevel& l = (index == 0 && icache_side && split_) ? c.i1 : c.lv[index];
    return l.contains(block, dirty);
}

char CoherentMachine::state(u32 core, u64 block) const {
    if (core >= ncores_ || !cores_[core].active) return 'I';
    if (!multi_) {
        bool dirty = false;
        if (!holds_privately(cores_[core], block, &dirty)) return 'I';
        return dirty ? 'M' : 'E';
    }
    if (!tracked(block)) {
        bool dirty = false;
        if (pages_.owner(block >> page_shift_) != core || !holds_privately(cores_[core], block, &dirty)) return 'I';
        return dirty ? 'M' : 'E';
    }
    u32 s = dir_.find(block);
    if (s == CoherenceDirectory::kNone || !dir_.holder(s, core)) return 'I';
    return dir_.state(s);
}

bool CoherentMachine::loss_record(u32 core, u64 block, u64* written) const {
    if (!tracked(block)) return false;
    u32 s = dir_.find(block);
    if (s == CoherenceDirectory::kNone) return false;
    u64 m = 0;
    if (!dir_.record_mask(s, core, &m)) return false;
    if (written) *written = m;
    return true;
}

}  // namespace ompsim
