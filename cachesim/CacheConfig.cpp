// Names and validation of a HierarchyConfig. Freestanding: no libc calls.
// Every message produced here is listed in docs/cache-config.md; keep both in
// sync (tests/unit/CacheConfigTest.cpp checks the exact texts).
#include "CacheConfig.h"

namespace ompsim {

const char* replacement_name(Replacement r) {
    switch (r) {
    case Replacement::LRU: return "lru";
    case Replacement::FIFO: return "fifo";
    case Replacement::PLRU: return "plru";
    case Replacement::Random: return "random";
    }
    return "?";
}

const char* write_policy_name(WritePolicy w) {
    switch (w) {
    case WritePolicy::WriteBack: return "write-back";
    case WritePolicy::WriteThrough: return "write-through";
    }
    return "?";
}

const char* inclusion_name(Inclusion i) {
    switch (i) {
    case Inclusion::NonInclusive: return "non-inclusive";
    case Inclusion::Inclusive: return "inclusive";
    case Inclusion::Exclusive: return "exclusive";
    }
    return "?";
}

const char* level_name(const HierarchyConfig& c, int level_index, bool icache_side) {
    if (level_index == 0) {
        if (c.cachegrind || c.split_l1) return icache_side ? "I1" : "D1";
        return "L1";
    }
    if (c.cachegrind) return level_index == 1 ? "LL" : "L?";
    switch (level_index) {
    case 1: return "L2";
    case 2: return "L3";
    case 3: return "L4";
    }
    return "L?";
}

namespace {

// Starts a message "NAME: " (error_append overwrites a message that is not
// set, so the caller's err needs no clearing).
void start(ErrorText& err, const char* name) {
    err.set = false;
    error_append(err, name);
    error_append(err, ": ");
}

void append_int(ErrorText& err, int v) {
    if (v < 0) {
        error_append(err, "-");
        error_append_u64(err, u64(-int64_t(v)));
        return;
    }
    error_append_u64(err, u64(v));
}

// "NAME: associativity A exceeds the N lines of the cache (size / line)"
bool fail_assoc_too_high(ErrorText& err, const char* n, const LevelConfig& l) {
    start(err, n);
    error_append(err, "associativity ");
    error_append_u64(err, l.assoc);
    error_append(err, " exceeds the ");
    error_append_u64(err, l.size / l.line);
    error_append(err, " lines of the cache (size / line)");
    return false;
}

// "NAME: S B is not a multiple of line size x associativity (L x A)"
bool fail_not_multiple(ErrorText& err, const char* n, const LevelConfig& l) {
    start(err, n);
    error_append_u64(err, l.size);
    error_append(err, " B is not a multiple of line size x associativity (");
    error_append_u64(err, l.line);
    error_append(err, " x ");
    error_append_u64(err, l.assoc);
    error_append(err, ")");
    return false;
}

bool fail_assoc_zero(ErrorText& err, const char* n) {
    start(err, n);
    error_append(err, "associativity must be at least 1");
    return false;
}

// A prefetcher fills the level it belongs to, so the level must be one
// that demand misses fill (an exclusive level is filled only by victims);
// the numbers are checked here too for configurations built in code.
bool check_prefetch(const LevelConfig& l, const char* n, ErrorText& err) {
    const PrefetchConfig& p = l.prefetch;
    if (p.kinds == 0) return true;
    if (p.kinds & ~u8(kPrefetchNextLine | kPrefetchStride | kPrefetchStream)) {
        start(err, n);
        error_append(err, "unknown prefetcher kind");
        return false;
    }
    if (l.inclusion == Inclusion::Exclusive) {
        start(err, n);
        error_append(err, "a prefetcher needs a level that demand misses fill, not an exclusive (victim) level");
        return false;
    }
    if (p.degree < 1 || p.degree > 64) {
        start(err, n);
        error_append(err, "prefetch degree ");
        error_append_u64(err, p.degree);
        error_append(err, " is not between 1 and 64");
        return false;
    }
    if ((p.kinds & kPrefetchStride) && (p.stride_entries < 1 || p.stride_entries > 65536)) {
        start(err, n);
        error_append(err, "stride prefetch table of ");
        error_append_u64(err, p.stride_entries);
        error_append(err, " entries is not between 1 and 65536");
        return false;
    }
    if ((p.kinds & kPrefetchStream) && (p.stream_entries < 1 || p.stream_entries > 1024)) {
        start(err, n);
        error_append(err, "stream prefetcher with ");
        error_append_u64(err, p.stream_entries);
        error_append(err, " streams is not between 1 and 1024");
        return false;
    }
    return true;
}

bool check_tlb(const TlbConfig& t, ErrorText& err) {
    if (t.levels == 0) return true;
    if (t.levels < 0 || t.levels > kMaxTlbLevels) {
        err.set = false;
        error_append(err, "the data TLB must have 0 to 2 levels, not ");
        append_int(err, t.levels);
        return false;
    }
    if (!is_pow2(t.page_size) || t.page_size < 4096 || t.page_size > (1ull << 30)) {
        err.set = false;
        error_append(err, "TLB page size ");
        error_append_u64(err, t.page_size);
        error_append(err, " B is not a power of two between 4 KiB and 1 GiB");
        return false;
    }
    for (int k = 0; k < t.levels; ++k) {
        const TlbLevelConfig& l = t.level[k];
        const char* n = k == 0 ? "DTLB1: " : "DTLB2: ";
        err.set = false;
        err.text[0] = 0;
        if (l.entries == 0) {
            error_append(err, n);
            error_append(err, "entries must not be 0");
            return false;
        }
        if (l.entries > kMaxTlbEntries) {
            error_append(err, n);
            error_append_u64(err, l.entries);
            error_append(err, " entries are more than the ");
            error_append_u64(err, kMaxTlbEntries);
            error_append(err, " a TLB level may hold");
            return false;
        }
        if (l.assoc == 0) {
            error_append(err, n);
            error_append(err, "associativity must be at least 1");
            return false;
        }
        if (l.assoc > l.entries || l.entries % l.assoc != 0) {
            error_append(err, n);
            error_append_u64(err, l.entries);
            error_append(err, " entries are not a multiple of the associativity ");
            error_append_u64(err, l.assoc);
            return false;
        }
        error_clear(err);
    }
    return true;
}

// The rules of a level in a general hierarchy (everything but the rules
// that relate levels to each other).
bool check_general_level(const LevelConfig& l, const char* n, bool level1,
                         ErrorText& err) {
    if (!is_pow2(l.line) || l.line < 16 || l.line > 4096) {
        start(err, n);
        error_append(err, "line size ");
        error_append_u64(err, l.line);
        error_append(err, " B is not a power of two between 16 and 4096");
        return false;
    }
    if (l.size == 0) {
        start(err, n);
        error_append(err, "size must not be 0");
        return false;
    }
    if (l.size / l.line > kMaxLevelLines) {
        start(err, n);
        error_append(err, "size ");
        error_append_u64(err, l.size);
        error_append(err, " B is ");
        error_append_u64(err, l.size / l.line);
        error_append(err, " lines, more than the ");
        error_append_u64(err, kMaxLevelLines);
        error_append(err, " a level may hold");
        return false;
    }
    if (l.assoc == 0) return fail_assoc_zero(err, n);
    if (l.assoc > l.size / l.line) return fail_assoc_too_high(err, n, l);
    if (l.size % (u64(l.line) * l.assoc) != 0) return fail_not_multiple(err, n, l);
    if (l.replacement == Replacement::PLRU && !is_pow2(l.assoc)) {
        start(err, n);
        error_append(err, "plru replacement needs a power-of-two associativity, not ");
        error_append_u64(err, l.assoc);
        return false;
    }
    if (level1 && l.inclusion != Inclusion::NonInclusive) {
        start(err, n);
        error_append(err, "level 1 must be non-inclusive, not ");
        error_append(err, inclusion_name(l.inclusion));
        return false;
    }
    if (l.inclusion == Inclusion::Exclusive && l.write != WritePolicy::WriteBack) {
        start(err, n);
        error_append(err, "an exclusive level must be write-back, not ");
        error_append(err, write_policy_name(l.write));
        return false;
    }
    return check_prefetch(l, n, err);
}

// Cachegrind 3.19's check_cache() rules (cg_arch.c), in an order that gives
// the most useful message first, plus its fixed policies and the limit of
// its Int-sized fields.
bool check_cachegrind_level(const LevelConfig& l, const char* n, ErrorText& err) {
    if (!is_pow2(l.line)) {
        start(err, n);
        error_append(err, "line size ");
        error_append_u64(err, l.line);
        error_append(err, " B is not a power of two");
        return false;
    }
    if (l.line < 16) {
        start(err, n);
        error_append(err, "line size ");
        error_append_u64(err, l.line);
        error_append(err, " B is smaller than 16 B");
        return false;
    }
    if (l.size <= l.line) {
        start(err, n);
        error_append(err, "size ");
        error_append_u64(err, l.size);
        error_append(err, " B must be larger than the line size (");
        error_append_u64(err, l.line);
        error_append(err, " B)");
        return false;
    }
    if (l.size > 2147483647u) {
        start(err, n);
        error_append(err, "size ");
        error_append_u64(err, l.size);
        error_append(err, " B exceeds Cachegrind's limit of 2147483647 B");
        return false;
    }
    if (l.assoc == 0) return fail_assoc_zero(err, n);
    if (l.assoc > l.size / l.line) return fail_assoc_too_high(err, n, l);
    if (l.size % (u64(l.line) * l.assoc) != 0) return fail_not_multiple(err, n, l);
    u64 sets = l.size / (u64(l.line) * l.assoc);
    if (!is_pow2(sets)) {
        start(err, n);
        error_append(err, "the set count ");
        error_append_u64(err, sets);
        error_append(err, " is not a power of two (Cachegrind requires one)");
        return false;
    }
    const char* what = nullptr;
    const char* value = nullptr;
    if (l.replacement != Replacement::LRU) {
        what = " replacement";
        value = replacement_name(l.replacement);
    } else if (l.write != WritePolicy::WriteBack) {
        what = "";
        value = write_policy_name(l.write);
    } else if (l.inclusion != Inclusion::NonInclusive) {
        what = "";
        value = inclusion_name(l.inclusion);
    }
    if (value) {
        start(err, n);
        error_append(err, "Cachegrind's model is fixed (lru, write-back, non-inclusive); ");
        error_append(err, value);
        error_append(err, what);
        error_append(err, " is not available with --machine=cachegrind");
        return false;
    }
    return true;
}

bool validate_cachegrind(const HierarchyConfig& c, ErrorText& err) {
    const LevelConfig* lv[3] = {&c.i1, &c.level[0], &c.level[1]};
    for (int i = 0; i < 3; ++i) {
        if (lv[i]->prefetch.kinds == 0) continue;
        start(err, level_name(c, i == 2 ? 1 : 0, i == 0));
        error_append(err, "Cachegrind's model has no prefetcher; prefetching is not available"
                          " with --machine=cachegrind");
        return false;
    }
    if (c.tlb.levels != 0) {
        err.set = false;
        err.text[0] = 0;
        error_append(err, "Cachegrind's model has no TLB; DTLB levels are not available"
                          " with --machine=cachegrind");
        return false;
    }
    if (c.levels != 2) {
        err.set = false;
        error_append(err, "cachegrind mode needs exactly 2 levels (I1/D1 and LL), not ");
        append_int(err, c.levels);
        return false;
    }
    if (!c.split_l1) {
        err.set = false;
        error_append(err, "cachegrind mode needs a split level 1 (I1 and D1), not a unified L1");
        return false;
    }
    return check_cachegrind_level(c.i1, level_name(c, 0, true), err) &&
           check_cachegrind_level(c.level[0], level_name(c, 0, false), err) &&
           check_cachegrind_level(c.level[1], level_name(c, 1, false), err);
}

bool check_same_line(const HierarchyConfig& c, const LevelConfig& l, const char* n,
                     ErrorText& err) {
    const LevelConfig& first = c.split_l1 ? c.i1 : c.level[0];
    if (l.line == first.line) return true;
    start(err, n);
    error_append(err, "line size ");
    error_append_u64(err, l.line);
    error_append(err, " B differs from the ");
    error_append_u64(err, first.line);
    error_append(err, " B of ");
    error_append(err, level_name(c, 0, c.split_l1));
    error_append(err, "; general hierarchies need one line size at every level;"
                      " use --machine=cachegrind for Cachegrind's mixed sizes");
    return false;
}

}  // namespace

u32 default_private_levels(int levels) { return levels >= 2 ? u32(levels - 1) : 1u; }

u32 first_shared_latency(const HierarchyConfig& c) {
    u32 p = c.private_levels ? c.private_levels : default_private_levels(c.levels);
    if (c.levels >= 1 && p < u32(c.levels) && p < u32(kMaxLevels)) return c.level[p].latency;
    return c.memory_latency;
}

void set_coherence_defaults(HierarchyConfig& c) {
    c.private_levels = default_private_levels(c.levels);
    c.c2c_latency = first_shared_latency(c);
    c.upgrade_latency = c.c2c_latency;
}

bool validate(const HierarchyConfig& c, ErrorText& err) {
    if (c.cachegrind) return validate_cachegrind(c, err);
    if (c.levels < 1 || c.levels > kMaxLevels) {
        err.set = false;
        error_append(err, "the hierarchy must have 1 to 4 levels, not ");
        append_int(err, c.levels);
        return false;
    }
    // Level by level from the top; the first broken rule is reported.
    if (c.split_l1) {
        const char* n = level_name(c, 0, true);
        if (!check_general_level(c.i1, n, true, err)) return false;
    }
    for (int k = 0; k < c.levels; ++k) {
        const char* n = level_name(c, k, false);
        if (!check_general_level(c.level[k], n, k == 0, err)) return false;
        if (!check_same_line(c, c.level[k], n, err)) return false;
    }
    // 0 stands for the default (levels-1, or 1).
    if (c.private_levels > u32(c.levels)) {
        err.set = false;
        error_append(err, "private levels: ");
        error_append_u64(err, c.private_levels);
        error_append(err, " is not between 1 and the number of levels (");
        append_int(err, c.levels);
        error_append(err, ")");
        return false;
    }
    return check_tlb(c.tlb, err);
}

bool has_prefetchers(const HierarchyConfig& c) {
    if (c.split_l1 && c.i1.prefetch.kinds) return true;
    for (int k = 0; k < c.levels && k < kMaxLevels; ++k)
        if (c.level[k].prefetch.kinds) return true;
    return false;
}

void prefetch_kinds_text(u8 kinds, char out[32]) {
    static const char* const kNames[3] = {"next-line", "stride", "stream"};
    size_t n = 0;
    for (int i = 0; i < 3; ++i) {
        if (!(kinds & (1u << i))) continue;
        if (n) out[n++] = ',';
        for (const char* p = kNames[i]; *p; ++p) out[n++] = *p;
    }
    if (n == 0)
        for (const char* p = "none"; *p; ++p) out[n++] = *p;
    out[n] = 0;
}

}  // namespace ompsim
