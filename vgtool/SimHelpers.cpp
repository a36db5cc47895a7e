#include "SimHelpers.h"

#include "DataStructures.h"
#include "EventStream.h"
#include "MissWorker.h"
#include "Replay.h"

namespace ompsim {
namespace sim {

HierarchyConfig g_config;
CachegrindModel g_cg;
CoherentMachine g_machine;
bool g_icache;
bool g_tlb_on;

namespace {

Tlb g_tlbs[kMaxTlbCores];
bool g_tlb_ready[kMaxTlbCores];

void* tlb_alloc(void*, size_t n) { return VG_(malloc)("ompsim.tlb", n); }
void tlb_free(void*, void* p) { VG_(free)(p); }

}  // namespace

Tlb& tlb(u32 core) {
    if (core >= kMaxTlbCores) core = kMaxTlbCores - 1;
    if (__builtin_expect(!g_tlb_ready[core], 0)) {
        g_tlbs[core].init(g_config.tlb, Allocator{tlb_alloc, tlb_free, nullptr});
        g_tlb_ready[core] = true;
    }
    return g_tlbs[core];
}

TlbStats tlb_totals(int k) {
    TlbStats t{0, 0};
    for (u32 c = 0; c < kMaxTlbCores; ++c) {
        if (!g_tlb_ready[c]) continue;
        t.refs += g_tlbs[c].stats(k).refs;
        t.misses += g_tlbs[c].stats(k).misses;
    }
    return t;
}

void reset_tlb_stats() {
    for (u32 c = 0; c < kMaxTlbCores; ++c)
        if (g_tlb_ready[c]) g_tlbs[c].reset_stats();
}

namespace {

// Cycles of a translation served at `depth` (0 DTLB1, 1 DTLB2, levels = walk).
inline ULong tlb_cycles(u32 depth) {
    const TlbConfig& t = g_config.tlb;
    return depth < u32(t.levels) ? t.level[depth].latency : t.walk_latency;
}

inline ULong translate_one(Tlb& t, ULong* counts, Addr a) {
    u32 d = t.lookup(a);
    counts[0]++;
    if (d) {
        counts[1]++;
        if (d > 1) counts[2]++;
        ds::record_tlb(a, d);
    }
    return tlb_cycles(d);
}

}  // namespace

ULong translate(u32 core, ULong* counts, Addr a, UWord size) {
    Tlb& t = tlb(core);
    ULong cycles = translate_one(t, counts, a);
    Addr last = a + size - 1;
    if ((last >> t.page_bits()) != (a >> t.page_bits()))
        cycles += translate_one(t, counts, last & ~((Addr(1) << t.page_bits()) - 1));
    return cycles;
}

namespace {

// ------------------------------------------------------------ Cachegrind mode
// Depth d (0 = L1 hit, 1 = LL hit, 2 = LL miss) is recorded in served[d];
// Cachegrind's m1 = served[1] + served[2] and mL = served[2]. Hits are not
// recorded (served[0] stays 0): the extra store on every access cost 4-6 %
// on the stencil and matmul benchmarks (bench/cachegrind_mode.sh).

inline void count(ULong* served, unsigned d) {
    if (d) served[d]++;
}
inline void cg_fetch1(InstrInfo* n) {
    LineCC* cc = n->cc;
    cc->ir++;
    count(cc->ir_served, g_cg.fetch_single_line(n->addr));
}
// The monitor sees one reference per access here, at its address, served
// at the depth Cachegrind's rules give the whole access.
inline void cg_read(InstrInfo* n, Addr a, UWord size) {
    LineCC* cc = n->cc;
    cc->dr++;
    unsigned d = g_cg.data(a, size);
    count(cc->dr_served, d);
    ds::record(a, kRead, d);
}
inline void cg_write(InstrInfo* n, Addr a, UWord size) {
    LineCC* cc = n->cc;
    cc->dw++;
    unsigned d = g_cg.data(a, size);
    count(cc->dw_served, d);
    ds::record(a, kWrite, d);
}

VG_REGPARM(1) void cg_ir1(InstrInfo* n) { cg_fetch1(n); }
VG_REGPARM(2) void cg_ir2(InstrInfo* n, InstrInfo* n2) {
    cg_fetch1(n);
    cg_fetch1(n2);
}
VG_REGPARM(3) void cg_ir3(InstrInfo* n, InstrInfo* n2, InstrInfo* n3) {
    cg_fetch1(n);
    cg_fetch1(n2);
    cg_fetch1(n3);
}
VG_REGPARM(1) void cg_ir_gen(InstrInfo* n) {
    LineCC* cc = n->cc;
    cc->ir++;
    count(cc->ir_served, g_cg.fetch(n->addr, n->len));
}
// A read-modify-write counts as one read in Cachegrind.
VG_REGPARM(3) void cg_ir_dr(InstrInfo* n, Addr a, UWord size) {
    cg_fetch1(n);
    cg_read(n, a, size);
}
VG_REGPARM(3) void cg_ir_dw(InstrInfo* n, Addr a, UWord size) {
    cg_fetch1(n);
    cg_write(n, a, size);
}
VG_REGPARM(3) void cg_dr(InstrInfo* n, Addr a, UWord size) { cg_read(n, a, size); }
VG_REGPARM(3) void cg_dw(InstrInfo* n, Addr a, UWord size) { cg_write(n, a, size); }

// ------------------------------------------------------------ general hierarchy
// Every cache line an access touches is one reference; served[d] counts
// line references by the depth that served them.

// The PC goes to the machine for its stride prefetchers; the flags of the
// result (a prefetch hit) to the monitor.
inline void hier_lines(AccessKind kind, ULong* served, Addr a, UWord size, Addr pc) {
    unsigned bits = g_machine.line_bits();
    u64 first = a >> bits;
    u64 last = (a + size - 1) >> bits;
    u32 r = g_machine.access(0, kind, first, ~0ull, pc);
    count(served, r & kDepthMask);
    if (kind != kFetch) ds::record_flags(a, kind, r);
    for (u64 b = first + 1; b <= last; ++b) {
        r = g_machine.access(0, kind, b, ~0ull, pc);
        count(served, r & kDepthMask);
        if (kind != kFetch) ds::record_flags(b << bits, kind, r);
    }
}
// The fetch of line `b` for the instruction at `pc`, counted in cc.
inline void hier_fetch_line(LineCC* cc, u64 b, Addr pc) {
    count(cc->ir_served, g_machine.access(0, kFetch, b, ~0ull, pc) & kDepthMask);
}
inline void hier_fetch1(InstrInfo* n) {
    LineCC* cc = n->cc;
    cc->ir++;
    if (g_icache) hier_fetch_line(cc, n->addr >> g_machine.line_bits(), n->addr);
}

VG_REGPARM(1) void hier_ir1(InstrInfo* n) { hier_fetch1(n); }
VG_REGPARM(2) void hier_ir2(InstrInfo* n, InstrInfo* n2) {
    hier_fetch1(n);
    hier_fetch1(n2);
}
VG_REGPARM(3) void hier_ir3(InstrInfo* n, InstrInfo* n2, InstrInfo* n3) {
    hier_fetch1(n);
    hier_fetch1(n2);
    hier_fetch1(n3);
}
VG_REGPARM(1) void hier_ir_gen(InstrInfo* n) {
    LineCC* cc = n->cc;
    cc->ir++;
    if (g_icache) hier_lines(kFetch, cc->ir_served, n->addr, n->len, n->addr);
}
// The last line of a two-line instruction; its first line and its Ir were
// counted as a certain hit (HelperTable::ir_last).
VG_REGPARM(1) void hier_ir_last(InstrInfo* n) {
    hier_fetch_line(n->cc, (n->addr + n->len - 1) >> g_machine.line_bits(), n->addr);
}
// The translations' cycles are derived from LineCC::tlb at the end
// (cycles_of), like the caches' from the served counts.
VG_REGPARM(3) void hier_dr(InstrInfo* n, Addr a, UWord size) {
    n->cc->dr++;
    if (g_tlb_on) translate(0, n->cc->tlb, a, size);
    hier_lines(kRead, n->cc->dr_served, a, size, n->addr);
}
VG_REGPARM(3) void hier_dw(InstrInfo* n, Addr a, UWord size) {
    n->cc->dw++;
    if (g_tlb_on) translate(0, n->cc->tlb, a, size);
    hier_lines(kWrite, n->cc->dw_served, a, size, n->addr);
}
// A read-modify-write is what the hardware does: a read, then a write of the
// same bytes (which marks the line dirty in a write-back cache).
VG_REGPARM(3) void hier_dm(InstrInfo* n, Addr a, UWord size) {
    hier_dr(n, a, size);
    hier_dw(n, a, size);
}
VG_REGPARM(3) void hier_ir_dr(InstrInfo* n, Addr a, UWord size) {
    hier_fetch1(n);
    hier_dr(n, a, size);
}
VG_REGPARM(3) void hier_ir_dw(InstrInfo* n, Addr a, UWord size) {
    hier_fetch1(n);
    hier_dw(n, a, size);
}
VG_REGPARM(3) void hier_ir_dm(InstrInfo* n, Addr a, UWord size) {
    hier_fetch1(n);
    hier_dm(n, a, size);
}

// ------------------------------------------------------------ fast (one core)
// Copies of core 0's L1 geometry: one load each instead of the chain of
// checks of CoherentMachine::access() (core in range, split, policy, power
// of two sets). A hit on the MRU way is what access()'s inline path counts;
// everything else goes to access() itself.

CoherentMachine::L1View g_fi, g_fd;  // I1 (or the unified L1) and D1
unsigned g_lb;                       // line bits
bool g_fd_second;                    // D1 is LRU with two ways or more: see fast_data()
bool g_fd_four;                      // ... and four or more

inline u64* mru_key(const CoherentMachine::L1View& l, u64 block) {
    return l.keys + (block & l.set_mask) * l.assoc;
}

// The MRU test failed for one line: an LRU hit on another way of the set
// is moved to the front here (what CoherentMachine::access_slow() does
// first, without the two calls on the way there: stencil, whose three rows
// share their sets, spent 28 % of its samples on that path); anything else
// goes to the machine. Returns depth | flags, but kHandedOver for a miss
// handed to the miss worker (MissWorker.h), which counts the depth in
// `served` (and, after push_counters(), in the monitor's counters).
constexpr u32 kHandedOver = 1u << 30;
// Skip: ways 0 to Skip - 1 of the set were compared inline (fast_data()
// and the fetch's MRU test) and are not compared again.
template <u32 Skip>
__attribute__((always_inline)) inline u32 fast_rest_body(const CoherentMachine::L1View& l, AccessKind kind, u64 b,
                                                         Addr pc, ULong* served) {
    if (l.lru && (kind != kWrite || l.write_back)) {
        if (g_machine.simple_misses()) {
            // The worker's test first, each branch with its own copy of the
            // search: one search followed by the test made memcopy 200
            // 4.14 s instead of 3.84 s with the worker in use.
            u64 victim;
            if (missworker::g_async) {
                if (g_machine.view_rest_l1<Skip>(l, kind, b, &victim)) return 0;
                u32 d;
                if (missworker::g_below_l2) {
                    bool front = g_machine.l2_front_hit(kind, b);
                    if (front && victim == CoherentMachine::kNoVictim) return missworker::note_l2_hit();
                    CoherentMachine::LowerWork w;
                    d = g_machine.l2_part(kind, b, front, victim, &w);
                    d = missworker::push_below_l2(kind, w, d, served);
                } else {
                    d = missworker::push(kind, b, victim, served);
                }
                return d == missworker::kPushed ? kHandedOver : d;
            }
            u32 r = g_machine.view_rest_shifting<Skip>(l, kind, b);
            if (r) missworker::note_miss_here(r);
            return r;
        }
        // Below, the machine's own entries: never with the miss worker in
        // use, which needs the short path, and that ends only when a second
        // core starts (start_streaming() retires the worker first).
        u64* keys = mru_key(l, b);
        for (u32 i = 1; i < l.assoc; ++i) {
            u64 k = keys[i];
            if (!repl::key_matches(k, b)) continue;
            if (kind == kWrite) k |= 1;
            for (u32 j = i; j > 0; --j) keys[j] = keys[j - 1];
            keys[0] = k;
            l.refs[kind]++;
            return 0;
        }
        // Searched every way: memcopy spent 16 % of its samples searching
        // missed sets, up to three times each.
        return g_machine.access_demand(0, kind, b, ~0ull, pc);
    }
    return g_machine.access(0, kind, b, ~0ull, pc);
}
// Out of line for the fetches and the accesses that straddle lines; a D1
// miss after fast_data()'s four ways has it inline in data_miss() (below).
template <u32 Skip>
__attribute__((noinline)) u32 fast_rest(const CoherentMachine::L1View& l, AccessKind kind, u64 b, Addr pc,
                                        ULong* served) {
    return fast_rest_body<Skip>(l, kind, b, pc, served);
}

// A fetch of line `b` that hits I1's MRU way, counted; false otherwise.
inline bool fetch_mru_hit(u64 b) {
    if (!__builtin_expect(repl::key_matches(*mru_key(g_fi, b), b), 1)) return false;
    g_fi.refs[kFetch]++;
    return true;
}
// The rest of a fetch that missed the MRU way, served in cc.
inline void fetch_rest(LineCC* cc, u64 b, Addr pc) {
    count(cc->ir_served, fast_rest<1>(g_fi, kFetch, b, pc, cc->ir_served) & kDepthMask);
}
// The fetch of line `b` for the instruction at `pc`, counted in cc: the
// MRU way inline, the rest in fast_rest().
inline void fast_fetch_line(LineCC* cc, u64 b, Addr pc) {
    if (!fetch_mru_hit(b)) fetch_rest(cc, b, pc);
}
inline void fast_fetch1(InstrInfo* n) {
    LineCC* cc = n->cc;
    cc->ir++;
    fast_fetch_line(cc, n->addr >> g_lb, n->addr);
}
// The monitor's record of a reference at `a` that L1 missed: at once, or,
// for a miss handed to the miss worker, its counters, to which the worker
// adds the depth.
inline void record_miss(Addr a, AccessKind kind, u32 r) {
    if (!(r & kHandedOver)) {
        ds::record_flags(a, kind, r);
        return;
    }
    ULong *row, *hist;
    if (ds::locate(a, kind, &row, &hist)) missworker::push_counters(row, hist);
}

// Line `b` of a data access (its reference at `at`) that missed the ways
// tested inline: fast_rest(), the depth counted in `served`, and with the
// monitor the reference recorded.
// With Skip 4 (from data_miss(), itself out of line) the rest of the miss
// is inline: a call and its saved registers fewer for each of matmul 400's
// 62 M D1 misses, 1.53 s -> 1.46 s (11 of 11 pairs faster); with the
// monitor 1.67 s -> 1.65 s (6 of 9); memcopy, stencil and containers level.
template <AccessKind K, bool Mon, u32 Skip = 1>
inline void data_rest(ULong* served, Addr at, u64 b, Addr pc) {
    u32 r = Skip == 4 ? fast_rest_body<Skip>(g_fd, K, b, pc, served) : fast_rest<Skip>(g_fd, K, b, pc, served);
    count(served, r & kDepthMask);
    if (Mon) record_miss(at, K, r);
}

// Lines of a data access of kind K at `a` while the miss worker is on (an
// LRU write-back D1, so every line may take fast_rest()). Mon: recorded
// line by line as hier_lines() does (the first at `a`).
template <AccessKind K, bool Mon>
__attribute__((noinline)) void fast_lines(ULong* served, Addr a, UWord size, Addr pc) {
    u64 first = a >> g_lb, last = (a + size - 1) >> g_lb;
    for (u64 b = first; b <= last; ++b) {
        Addr at = b == first ? a : b << g_lb;
        u64* k = mru_key(g_fd, b);
        if (repl::key_matches(*k, b)) {
            if (K == kWrite) *k |= 1;
            g_fd.refs[K]++;
            if (Mon) ds::record_on(at, K, 0);
            continue;
        }
        data_rest<K, Mon>(served, at, b, pc);
    }
}

// The rest of a data access that missed the ways fast_data() tests: out of
// line and reached by a tail call, so that a hit saves no register (with
// the count after the call inline, every call of fast_dr() pushed and
// popped one).
// With four ways or more fast_data() compared the first four (matmul
// 400's 62 M D1 misses compared them twice).
template <AccessKind K, bool Mon>
__attribute__((noinline)) void data_miss(InstrInfo* n, Addr a, u64 b) {
    LineCC* cc = n->cc;
    ULong* served = K == kRead ? cc->dr_served : cc->dw_served;
    if (g_fd_four)
        data_rest<K, Mon, 4>(served, a, b, n->addr);
    else
        data_rest<K, Mon, 1>(served, a, b, n->addr);
}

// One data access of kind K (kRead or kWrite). A write hit on the MRU way
// only marks the line dirty when D1 is write-back (a write-through D1 goes
// to the machine). Mon: the monitor records every reference at the depth
// that served it (ds::record_flags(), as hier_lines() does): an MRU hit is
// depth 0 with no flags (a prefetched line's key fails the test and takes
// fast_rest()).
template <AccessKind K, bool Mon>
inline void fast_data(InstrInfo* n, Addr a, UWord size) {
    LineCC* cc = n->cc;
    ULong& accesses = K == kRead ? cc->dr : cc->dw;
    ULong* served = K == kRead ? cc->dr_served : cc->dw_served;
    accesses++;
    u64 b = a >> g_lb;
    if (__builtin_expect(((a + size - 1) >> g_lb) != b, 0)) {
        // With the miss worker on, the machine's own entry (hier_lines)
        // would need it idle first; each line takes the path of a
        // single-line access instead (the same simulation on this
        // configuration: CoherentSingleCore.ShiftingViewSearchMatchesAccess).
        if (missworker::g_async) {
            fast_lines<K, Mon>(served, a, size, n->addr);
            return;
        }
        hier_lines(K, served, a, size, n->addr);
        return;
    }
    u64* k = mru_key(g_fd, b);
    if (__builtin_expect(repl::key_matches(*k, b) && (K == kRead || g_fd.write_back), 1)) {
        if (K == kWrite) *k |= 1;  // dirty
        g_fd.refs[K]++;
        if (Mon) ds::record_on(a, K, 0);
        return;
    }
    // An LRU hit on the second way swaps the two: two lines that alternate
    // in one set, as memcpy's source and destination do when they lie a
    // multiple of the set span apart (memcopy spent 24 % of its samples in
    // fast_rest(), nearly all such hits). Hits on ways 2 and 3 rotate in
    // too: stencil's four rows share their sets, and three of its six
    // accesses an iteration hit there (stencil 1024 40: 1.95 s -> 1.64 s).
    if (g_fd_second && (K == kRead || g_fd.write_back)) {
        // The hit line `key` goes in front, the ways before it having
        // moved down one place.
        auto hit = [&](u64 key) {
            k[0] = K == kWrite ? key | 1 : key;
            g_fd.refs[K]++;
            if (Mon) ds::record_on(a, K, 0);
        };
        u64 k1 = k[1];
        if (repl::key_matches(k1, b)) {
            k[1] = k[0];
            return hit(k1);
        }
        if (g_fd_four) {
            u64 k2 = k[2], k3 = k[3];
            if (repl::key_matches(k2, b)) {
                k[2] = k1;
                k[1] = k[0];
                return hit(k2);
            }
            if (repl::key_matches(k3, b)) {
                k[3] = k2;
                k[2] = k1;
                k[1] = k[0];
                return hit(k3);
            }
        }
    }
    return data_miss<K, Mon>(n, a, b);
}
template <bool Mon>
inline void fast_read(InstrInfo* n, Addr a, UWord size) { fast_data<kRead, Mon>(n, a, size); }
template <bool Mon>
inline void fast_write(InstrInfo* n, Addr a, UWord size) { fast_data<kWrite, Mon>(n, a, size); }

// An instruction that straddles two lines (or more, for long lines of
// 16 B and 15-byte instructions): each line tested like a single one. In
// the matrix multiply benchmark these were 10 % of the tool's samples
// through hier_lines().
VG_REGPARM(1) void fast_ir_gen(InstrInfo* n) {
    LineCC* cc = n->cc;
    cc->ir++;
    u64 last = (n->addr + n->len - 1) >> g_lb;
    for (u64 b = n->addr >> g_lb; b <= last; ++b) fast_fetch_line(cc, b, n->addr);
}
VG_REGPARM(1) void fast_ir_last(InstrInfo* n) { fast_fetch_line(n->cc, (n->addr + n->len - 1) >> g_lb, n->addr); }
VG_REGPARM(1) void fast_ir1(InstrInfo* n) { fast_fetch1(n); }
VG_REGPARM(2) void fast_ir2(InstrInfo* n, InstrInfo* n2) {
    fast_fetch1(n);
    fast_fetch1(n2);
}
VG_REGPARM(3) void fast_ir3(InstrInfo* n, InstrInfo* n2, InstrInfo* n3) {
    fast_fetch1(n);
    fast_fetch1(n2);
    fast_fetch1(n3);
}
template <bool Mon>
VG_REGPARM(3) void fast_dr(InstrInfo* n, Addr a, UWord size) { fast_read<Mon>(n, a, size); }
template <bool Mon>
VG_REGPARM(3) void fast_dw(InstrInfo* n, Addr a, UWord size) { fast_write<Mon>(n, a, size); }
template <bool Mon>
VG_REGPARM(3) void fast_dm(InstrInfo* n, Addr a, UWord size) {
    fast_read<Mon>(n, a, size);
    fast_write<Mon>(n, a, size);
}
// An instruction's fetch that missed the MRU way of its line, then its
// data access of kind K: out of line, and reached by a tail call. With the
// miss's call inside fast_ir_dr(), which needs the arguments after it, GCC
// saved and restored four registers on every call, a hit too: 13 of the
// 26 instructions of a hit (matmul 200: 8 M calls).
template <AccessKind K, bool Mon>
__attribute__((noinline)) void fetch_miss_then(InstrInfo* n, Addr a, UWord size, u64 b) {
    fetch_rest(n->cc, b, n->addr);
    fast_data<K, Mon>(n, a, size);
}
// fast_fetch1(), then the data access, each path ending in a tail call.
template <AccessKind K, bool Mon>
inline void fast_ir_data(InstrInfo* n, Addr a, UWord size) {
    n->cc->ir++;
    u64 b = n->addr >> g_lb;
    if (!fetch_mru_hit(b)) return fetch_miss_then<K, Mon>(n, a, size, b);
    fast_data<K, Mon>(n, a, size);
}
template <bool Mon>
VG_REGPARM(3) void fast_ir_dr(InstrInfo* n, Addr a, UWord size) {
    fast_ir_data<kRead, Mon>(n, a, size);
}
template <bool Mon>
VG_REGPARM(3) void fast_ir_dw(InstrInfo* n, Addr a, UWord size) {
    fast_ir_data<kWrite, Mon>(n, a, size);
}
template <bool Mon>
VG_REGPARM(3) void fast_ir_dm(InstrInfo* n, Addr a, UWord size) {
    fast_fetch1(n);
    fast_read<Mon>(n, a, size);
    fast_write<Mon>(n, a, size);
}

// ------------------------------------------------------------ streaming
// One 16-byte event per call (EventStream.h); when the chunk is full the
// stream gets a new one and the replay catches up.

inline void put(uptr w0, uptr w1) {
    Ev* p = stream::g_pos;
    p->w0 = w0;
    p->w1 = w1;
    stream::g_pos = ++p;
    if (__builtin_expect(p == stream::g_end, 0)) stream_chunk_filled();
}
inline uptr ii(InstrInfo* n, EvTag tag) { return reinterpret_cast<uptr>(n) | tag; }

VG_REGPARM(1) void st_ir1(InstrInfo* n) { put(ii(n, kTagFetch1), 0); }
VG_REGPARM(2) void st_ir2(InstrInfo* n, InstrInfo* n2) { put(ii(n, kTagFetch2), reinterpret_cast<uptr>(n2)); }
VG_REGPARM(3) void st_ir3(InstrInfo* n, InstrInfo* n2, InstrInfo* n3) {
    put(ii(n, kTagFetch2), reinterpret_cast<uptr>(n2));
    put(ii(n3, kTagFetch1), 0);
}
VG_REGPARM(1) void st_ir_gen(InstrInfo* n) { put(ii(n, kTagFetchGen), 0); }
VG_REGPARM(3) void st_ir_dr(InstrInfo* n, Addr a, UWord size) { put(ii(n, kTagRead), data_word(a, size, kWithFetch)); }
VG_REGPARM(3) void st_ir_dw(InstrInfo* n, Addr a, UWord size) { put(ii(n, kTagWrite), data_word(a, size, kWithFetch)); }
VG_REGPARM(3) void st_ir_dm(InstrInfo* n, Addr a, UWord size) { put(ii(n, kTagModify), data_word(a, size, kWithFetch)); }
VG_REGPARM(3) void st_dr(InstrInfo* n, Addr a, UWord size) { put(ii(n, kTagRead), data_word(a, size, 0)); }
VG_REGPARM(3) void st_dw(InstrInfo* n, Addr a, UWord size) { put(ii(n, kTagWrite), data_word(a, size, 0)); }
VG_REGPARM(3) void st_dm(InstrInfo* n, Addr a, UWord size) { put(ii(n, kTagModify), data_word(a, size, 0)); }
// Certain I1 hits (EventStream.h): one event for a fetch and the hits that
// follow it, or for a run of hits. (Data events are appended in IR then.)
VG_REGPARM(2) void st_ir1k(InstrInfo* n, UWord k) { put(ii(n, kTagFetch1), k); }
// A run of hits right after the event recorded before it continues that
// event's run (EventStream.h, continue_run()): a flush piece of the
// instrumentation ends at each side exit of a superblock, so a run after
// one started an event of its own: 14.9 M of omp_tasks 1000000 4096's
// events, after a store in merge()'s loop. The event before must be whole:
// a marker's payload, which follows its header, is never taken for one.
VG_REGPARM(2) void st_hits(InstrInfo* n, UWord k) {
    Ev* p = stream::g_pos;
    if (p - 2 >= stream::g_end - kChunkEvents && (p[-2].w0 & kTagMask) != kTagMarker && continue_run(p[-1], n, k))
        return;
    put(ii(n, kTagFetchHits), k);
}
VG_REGPARM(2) void st_ir_gen_k(InstrInfo* n, UWord k) { put(ii(n, kTagFetchGen), k); }

template <typename F>
void* fn(F f) {
    return reinterpret_cast<void*>(f);
}

}  // namespace

// Built on request rather than as statics: the tool runs no static
// initialisers, and this is called once per run.
HelperTable cachegrind_helpers() {
    HelperTable t = {
        fn(cg_ir1), fn(cg_ir2), fn(cg_ir3), fn(cg_ir_gen), fn(cg_ir_dr), fn(cg_ir_dw),
        fn(cg_ir_dr), fn(cg_dr), fn(cg_dw), fn(cg_dr), nullptr, nullptr, nullptr, nullptr,
        {"cg_ir1", "cg_ir2", "cg_ir3", "cg_ir_gen", "cg_ir_dr", "cg_ir_dw", "cg_ir_dm", "cg_dr",
         "cg_dw", "cg_dm", ""}};
    return t;
}

HelperTable hierarchy_helpers() {
    HelperTable t = {
        fn(hier_ir1), fn(hier_ir2), fn(hier_ir3), fn(hier_ir_gen), fn(hier_ir_dr),
        fn(hier_ir_dw), fn(hier_ir_dm), fn(hier_dr), fn(hier_dw), fn(hier_dm), fn(hier_ir_last),
        nullptr, nullptr, nullptr,
        {"hier_ir1", "hier_ir2", "hier_ir3", "hier_ir_gen", "hier_ir_dr", "hier_ir_dw",
         "hier_ir_dm", "hier_dr", "hier_dw", "hier_dm", "hier_ir_last"}};
    return t;
}

bool fast_helpers_ready() {
    g_lb = g_machine.line_bits();
    bool ok = g_icache && g_machine.l1_view(true, &g_fi) && g_machine.l1_view(false, &g_fd);
    g_fd_second = ok && g_fd.lru && g_fd.assoc > 1;
    g_fd_four = g_fd_second && g_fd.assoc >= 4;
    return ok;
}

bool fast_helpers_may_hand_misses() {
    return g_machine.simple_misses() && g_fi.lru && g_fd.lru && g_fd.write_back;
}

HelperTable fast_helpers(bool monitor) {
    if (monitor) {
        HelperTable t = {
            fn(fast_ir1), fn(fast_ir2), fn(fast_ir3), fn(fast_ir_gen), fn(fast_ir_dr<true>),
            fn(fast_ir_dw<true>), fn(fast_ir_dm<true>), fn(fast_dr<true>), fn(fast_dw<true>), fn(fast_dm<true>),
            fn(fast_ir_last), nullptr, nullptr, nullptr,
            {"fast_ir1", "fast_ir2", "fast_ir3", "fast_ir_gen", "fastm_ir_dr", "fastm_ir_dw",
             "fastm_ir_dm", "fastm_dr", "fastm_dw", "fastm_dm", "fast_ir_last"}};
        return t;
    }
    HelperTable t = {
        fn(fast_ir1), fn(fast_ir2), fn(fast_ir3), fn(fast_ir_gen), fn(fast_ir_dr<false>),
        fn(fast_ir_dw<false>), fn(fast_ir_dm<false>), fn(fast_dr<false>), fn(fast_dw<false>), fn(fast_dm<false>),
        fn(fast_ir_last), nullptr, nullptr, nullptr,
        {"fast_ir1", "fast_ir2", "fast_ir3", "fast_ir_gen", "fast_ir_dr", "fast_ir_dw",
         "fast_ir_dm", "fast_dr", "fast_dw", "fast_dm", "fast_ir_last"}};
    return t;
}

VG_REGPARM(0) void stream_chunk_filled() {
    stream::chunk_full();
    replay::advance();
}

HelperTable stream_helpers() {
    HelperTable t = {
        fn(st_ir1), fn(st_ir2), fn(st_ir3), fn(st_ir_gen), fn(st_ir_dr), fn(st_ir_dw),
        fn(st_ir_dm), fn(st_dr), fn(st_dw), fn(st_dm), nullptr,
        fn(st_ir1k), fn(st_hits), fn(st_ir_gen_k),
        {"st_ir1", "st_ir2", "st_ir3", "st_ir_gen", "st_ir_dr", "st_ir_dw", "st_ir_dm", "st_dr",
         "st_dw", "st_dm", "", "st_ir1k", "st_hits", "st_ir_gen_k"}};
    return t;
}

}  // namespace sim
}  // namespace ompsim
