// Randomised differential testing of the cache model, shared by
// HierarchyTest.cpp (one core against ReferenceHierarchy.h, every policy
// combination) and CoherentMachineTest.cpp (the same with more cores
// allowed and several private levels): random small geometries, traces
// that provoke conflicts, sweeps and evictions at every level, and the
// runner that compares every returned depth and, periodically, every
// counter and the contents of every level.
#ifndef OMPSIM_TESTS_RANDOMHIERARCHIES_H
#define OMPSIM_TESTS_RANDOMHIERARCHIES_H

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "CoherentMachine.h"
#include "ReferenceHierarchy.h"
#include "TestSupport.h"

namespace ompsim {
namespace test {

struct Rng {
    u64 s;
    explicit Rng(u64 seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    u64 next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return s >> 17;
    }
    u64 below(u64 n) { return next() % n; }
};

// One access of a trace: `bytes` is the mask of the line's bytes it touches
// (one bit per byte of a 64-byte line), for the false-sharing rules.
struct Ref {
    u32 core;
    AccessKind kind;
    u64 block;
    u64 bytes;
};
using Trace = std::vector<Ref>;

constexpr u64 kAllBytes = ~0ull;
inline u64 line_bytes(unsigned off, unsigned len) { return (len >= 64 ? kAllBytes : ((1ull << len) - 1)) << off; }

inline const char* rname(Replacement r) {
    switch (r) {
    case Replacement::LRU: return "LRU";
    case Replacement::FIFO: return "FIFO";
    case Replacement::PLRU: return "PLRU";
    case Replacement::Random: return "Random";
    }
    return "?";
}

inline std::string describe_level(const LevelConfig& l) {
    std::ostringstream o;
    o << (l.size / (64ull * l.assoc)) << "x" << l.assoc << " " << rname(l.replacement) << " "
      << (l.write == WritePolicy::WriteBack ? "WB" : "WT") << " "
      << (l.inclusion == Inclusion::NonInclusive ? "NI" : l.inclusion == Inclusion::Inclusive ? "Inc" : "Exc");
    return o.str();
}

// The configuration in failure messages (cores = 0: not a multi-core run).
inline std::string describe(const HierarchyConfig& c, u32 cores = 0) {
    std::ostringstream o;
    if (c.split_l1) o << "I1[" << describe_level(c.i1) << "] ";
    for (int k = 0; k < c.levels; ++k) o << "L" << k + 1 << "[" << describe_level(c.level[k]) << "] ";
    if (cores) o << "private " << c.private_levels << " cores " << cores << " ";
    o << "seed " << c.random_seed;
    return o.str();
}

inline const char* kname(AccessKind k) { return k == kFetch ? "F" : k == kRead ? "R" : "W"; }

// The counters that differ, as " name a vs b", or "".
inline std::string diff_stats(const LevelStats& a, const LevelStats& b) {
    std::ostringstream o;
    const char* names[] = {"fetch", "read", "write", "writeback"};
    for (u32 i = 0; i < kNumKinds; ++i) {
        if (a.refs[i] != b.refs[i]) o << " refs[" << names[i] << "] " << a.refs[i] << " vs " << b.refs[i];
        if (a.misses[i] != b.misses[i]) o << " misses[" << names[i] << "] " << a.misses[i] << " vs " << b.misses[i];
    }
    if (a.evictions != b.evictions) o << " evictions " << a.evictions << " vs " << b.evictions;
    if (a.writebacks != b.writebacks) o << " writebacks " << a.writebacks << " vs " << b.writebacks;
    if (a.back_invalidations != b.back_invalidations)
        o << " back_invalidations " << a.back_invalidations << " vs " << b.back_invalidations;
    if (a.victims_in != b.victims_in) o << " victims_in " << a.victims_in << " vs " << b.victims_in;
    return o.str();
}

// The memory traffic of the machine against a reference model's, as text
// for a failure message (empty when they agree).
template <typename Model, typename Reference>
std::string diff_memory(const Model& m, const Reference& ref) {
    std::ostringstream o;
    if (m.memory_reads() != ref.memory_reads()) o << " memory_reads " << m.memory_reads() << " vs " << ref.memory_reads();
    if (m.memory_writes() != ref.memory_writes())
        o << " memory_writes " << m.memory_writes() << " vs " << ref.memory_writes();
    return o.str();
}

inline std::vector<u64> universe_of(const Trace& t) {
    std::vector<u64> u;
    for (const Ref& r : t) u.push_back(r.block);
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    return u;
}

inline AccessKind random_kind(Rng& r, bool with_fetch = true) {
    u64 x = r.below(10);
    if (with_fetch && x < 3) return kFetch;
    return x < 7 ? kRead : kWrite;
}

inline u64 random_bytes(Rng& r) {
    unsigned off = unsigned(r.below(64));
    unsigned len = 1 + unsigned(r.below(std::min<u64>(16, 64 - off)));
    return line_bytes(off, len);
}

// Uniformly random blocks over `universe` distinct ones.
inline Trace random_trace(Rng& r, size_t n, u64 universe) {
    Trace t;
    for (size_t i = 0; i < n; ++i) t.push_back({0, random_kind(r), r.below(universe) + 1000, random_bytes(r)});
    return t;
}

// Heavy conflict: blocks congruent modulo `period` (a common multiple of all
// set counts) land in the same set at every level; only `nsets` such sets.
inline Trace conflict_trace(Rng& r, size_t n, u64 period, u64 nsets, u64 per_set) {
    Trace t;
    for (size_t i = 0; i < n; ++i) {
        u64 s = r.below(nsets), j = r.below(per_set);
        t.push_back({0, random_kind(r), 7 + s + j * period, random_bytes(r)});
    }
    return t;
}

// Cyclic sweeps of `lines` lines spaced `stride` apart, with random kinds and
// an occasional interloper.
inline Trace sweep_trace(Rng& r, size_t n, u64 lines, u64 stride) {
    Trace t;
    for (size_t i = 0; i < n; ++i) {
        u64 b = (i % lines) * stride + 3;
        if (r.below(16) == 0) b = r.below(64) + 5000;
        t.push_back({0, random_kind(r), b, random_bytes(r)});
    }
    return t;
}

inline u64 gcd(u64 a, u64 b) { return b ? gcd(b, a % b) : a; }
inline u64 lcm(u64 a, u64 b) { return a / gcd(a, b) * b; }
inline u64 sets_of(const LevelConfig& l) { return l.size / (u64(l.line) * l.assoc); }

// A random small geometry; PLRU needs a power-of-two associativity.
inline LevelConfig random_geometry(Rng& r, Replacement rep, WritePolicy w, Inclusion inc) {
    static const u64 kSets[] = {1, 2, 3, 4, 5, 8};
    static const u32 kAssocAny[] = {1, 2, 3, 4, 6, 8};
    static const u32 kAssocPow2[] = {1, 2, 4, 8};
    u64 sets = kSets[r.below(6)];
    u32 assoc = rep == Replacement::PLRU ? kAssocPow2[r.below(4)] : kAssocAny[r.below(6)];
    if (r.below(12) == 0) {  // fully associative, more ways
        sets = 1;
        assoc = rep == Replacement::PLRU ? 16 : u32(10 + r.below(8));
    }
    return level(sets, assoc, rep, w, inc);
}

struct LevelChoice {
    Replacement r;
    WritePolicy w;
    Inclusion i;
};

inline const Replacement kRepls[] = {Replacement::LRU, Replacement::FIFO, Replacement::PLRU, Replacement::Random};

// The valid (write policy, inclusion) pairs of a level below level 1.
inline const std::pair<WritePolicy, Inclusion> kLowerPolicies[] = {
    {WritePolicy::WriteBack, Inclusion::NonInclusive},  {WritePolicy::WriteBack, Inclusion::Inclusive},
    {WritePolicy::WriteBack, Inclusion::Exclusive},     {WritePolicy::WriteThrough, Inclusion::NonInclusive},
    {WritePolicy::WriteThrough, Inclusion::Inclusive},
};

inline std::vector<LevelChoice> level0_choices() {
    std::vector<LevelChoice> v;
    for (Replacement r : kRepls)
        for (WritePolicy w : {WritePolicy::WriteBack, WritePolicy::WriteThrough})
            v.push_back({r, w, Inclusion::NonInclusive});
    return v;
}
inline std::vector<LevelChoice> lower_choices() {
    std::vector<LevelChoice> v;
    for (Replacement r : kRepls)
        for (auto& p : kLowerPolicies) v.push_back({r, p.first, p.second});
    return v;
}

inline HierarchyConfig build(Rng& r, const std::vector<LevelChoice>& ch, bool split) {
    HierarchyConfig c{};
    c.levels = int(ch.size());
    c.split_l1 = split;
    for (size_t k = 0; k < ch.size(); ++k) c.level[k] = random_geometry(r, ch[k].r, ch[k].w, ch[k].i);
    c.i1 = random_geometry(r, kRepls[r.below(4)], WritePolicy::WriteBack, Inclusion::NonInclusive);
    c.icache = true;
    c.random_seed = r.next();
    c.memory_latency = 100;
    return c;
}

// One mixed trace exercising the configuration: random accesses over a
// universe a little larger than the whole hierarchy, conflicts in one or two
// sets everywhere, and sweeps of assoc+1 lines of some level's set.
inline Trace mixed_trace(Rng& r, const HierarchyConfig& c, size_t n) {
    u64 period = 1, capacity = 0;
    for (int k = 0; k < c.levels; ++k) {
        period = lcm(period, sets_of(c.level[k]));
        capacity += c.level[k].size / 64;
    }
    if (c.split_l1) period = lcm(period, sets_of(c.i1));
    int k = int(r.below(u64(c.levels)));
    Trace t;
    auto append = [&](const Trace& part) { t.insert(t.end(), part.begin(), part.end()); };
    append(random_trace(r, n / 3, capacity + 2 + r.below(capacity + 8)));
    append(conflict_trace(r, n / 3, period, 1 + r.below(2), 2 + r.below(10)));
    append(sweep_trace(r, n - 2 * (n / 3), c.level[k].assoc + 1, period));
    return t;
}

// The long-trace tests' shapes: the policies of the three levels `ch`
// chose, I1 and L1 16 sets of 4 ways, L2 48 x 8, L3 128 x 16, I1's
// replacement and the split by trial number.
inline HierarchyConfig realistic_config(Rng& r, const std::vector<LevelChoice>& ch, int trial) {
    HierarchyConfig c = build(r, ch, trial % 3 != 0);
    c.i1 = level(16, 4, kRepls[trial % 4]);
    c.level[0] = level(16, 4, ch[0].r, ch[0].w, ch[0].i);
    c.level[1] = level(48, 8, ch[1].r, ch[1].w, ch[1].i);
    c.level[2] = level(128, 16, ch[2].r, ch[2].w, ch[2].i);
    return c;
}

// 20,000 accesses mixing streaming (4 in 10), a hot working set of 300
// lines (4 in 10) and random far accesses; whole lines, or random byte
// masks with `partial`.
inline Trace realistic_trace(Rng& r, bool partial) {
    Trace t;
    u64 x = 0;
    for (int i = 0; i < 20000; ++i) {
        u64 sel = r.below(10);
        u64 b = sel < 4 ? (x++ % 5000) : sel < 8 ? r.below(300) : r.below(100000);
        AccessKind k = random_kind(r);
        t.push_back({0, k, b, partial ? random_bytes(r) : kAllBytes});
    }
    return t;
}

// Core 0 of a CoherentMachine allowed `max_cores` cores against the
// independent single-core model: every returned value (depth, no flags),
// and (every `check_every` accesses and at the end) memory traffic, every
// counter of core 0 and the totals, the contents and dirty bits of every
// level over the blocks used, and no coherence state at all.
inline ::testing::AssertionResult single_core_differential(const HierarchyConfig& cfg, u32 max_cores,
                                                           const Trace& trace, size_t check_every = 0) {
    CoherentMachine m;
    ErrorText err;
    error_clear(err);
    if (!m.init(cfg, max_cores, kHeap, err)) return ::testing::AssertionFailure() << "init failed: " << err.text;
    reference::Hierarchy ref(cfg);
    std::vector<u64> universe = universe_of(trace);
    auto fail = [&](size_t i, const std::string& what) {
        m.destroy();
        std::ostringstream o;
        o << describe(cfg, max_cores) << ": after access #" << i;
        if (i < trace.size()) o << " (" << kname(trace[i].kind) << " " << trace[i].block << ")";
        return ::testing::AssertionFailure() << o.str() << ": " << what;
    };
    auto compare = [&]() {
        std::ostringstream o;
        o << diff_memory(m, ref);
        for (int k = 0; k < cfg.levels; ++k)
            for (int side = 0; side < ((k == 0 && cfg.split_l1) ? 2 : 1); ++side) {
                bool ic = side == 1;
                std::string d = diff_stats(m.stats(0, k, ic), ref.stats(k, ic));
                if (!d.empty()) o << " L" << k + 1 << (ic ? "I" : "") << " stats:" << d;
                d = diff_stats(m.total_stats(k, ic), ref.stats(k, ic));
                if (!d.empty()) o << " total L" << k + 1 << (ic ? "I" : "") << ":" << d;
                size_t present = 0;
                for (u64 b : universe) {
                    bool d1 = false, d2 = false;
                    bool p1 = m.contains(0, k, ic, b, &d1), p2 = ref.contains(k, ic, b, &d2);
                    present += p2;
                    if (p1 != p2 || (p1 && d1 != d2))
                        o << " L" << k + 1 << (ic ? "I" : "") << " block " << b << " present " << p1 << "/" << p2
                          << " dirty " << d1 << "/" << d2;
                }
                if (present != ref.lines(k, ic).size()) o << " reference holds blocks outside the trace";
            }
        if (m.directory_entries() != 0) o << " a directory with one core";
        return o.str();
    };
    for (size_t i = 0; i < trace.size(); ++i) {
        u32 r1 = m.access(0, trace[i].kind, trace[i].block, trace[i].bytes);
        u32 r2 = ref.access(trace[i].kind, trace[i].block);
        if (r1 != r2) return fail(i, "returned " + std::to_string(r1) + ", reference depth " + std::to_string(r2));
        if (check_every && (i + 1) % check_every == 0) {
            std::string s = compare();
            if (!s.empty()) return fail(i, s);
        }
    }
    std::string s = compare();
    if (!s.empty()) return fail(trace.size(), "final state:" + s);
    m.destroy();
    return ::testing::AssertionSuccess();
}

}  // namespace test
}  // namespace ompsim

#endif
