#include "CoreSim.h"

#include "DataStructures.h"
#include "ProfileWriter.h"
#include "ReplayWorker.h"
#include "SimHelpers.h"
#include "StackRelocation.h"
#include "ToolArray.h"

namespace ompsim {
namespace coresim {

namespace {

// One per replay slot (OpenMP thread), grown as slots appear: a run may
// have more threads than simulated cores (docs/limits.md).
CoreCounters* g_slots;
u32 g_slots_cap;
CoreClock g_clocks[kMaxCores];
u32 g_used;          // 1 + highest core that ran something
u32 g_slots_used;
u32 g_slot;          // slot whose events run now
u32 g_core;          // its core
u32 g_monitor_row = ~0u;

inline void count(ULong* served, unsigned d) {
    if (d) served[d]++;
}

// Clocks are kept in 1/100 cycles so that a fractional CPI adds up exactly.
inline ULong latency_x100(unsigned depth) {
    const HierarchyConfig& cfg = sim::g_config;
    if (depth == 0) return 0;
    return 100ull * (depth < (unsigned)cfg.levels ? cfg.level[depth].latency : cfg.memory_latency);
}

// A line another core's cache supplied costs --c2c-latency instead of the
// latency of the depth it is reported at (the first shared level); a write
// that invalidates other copies adds --upgrade-latency.
inline void charge(CoreCounters& c, u32 r) {
    if (!r) return;  // a level-1 hit costs nothing beyond the CPI
    CoreClock& k = g_clocks[g_core];
    const HierarchyConfig& cfg = sim::g_config;
    ULong coh = 0;
    ULong t;
    if (r & kCacheToCache) {
        t = 100ull * cfg.c2c_latency;
        coh += t;
    } else {
        t = latency_x100(r & kDepthMask);
    }
    if (r & kUpgrade) {
        coh += 100ull * cfg.upgrade_latency;
        t += 100ull * cfg.upgrade_latency;
    }
    c.busy += t;
    k.busy += t;
    k.clock += t;
    c.coherence_cycles += coh;
}

// n instructions at the CPI. run_batch() charges a batch's instructions
// once at its end: nothing inside a batch reads the clocks (the scheduler
// does, between batches), and the sums are the same. Per instruction this
// was three read-modify-writes plus c.ir, in the function that was 16 % of
// omp_loop's samples.
inline void tick_n(CoreCounters& c, ULong n) {
    ULong t = n * sim::g_config.cpi_x100;
    CoreClock& k = g_clocks[g_core];
    c.ir += n;
    c.busy += t;
    k.busy += t;
    k.clock += t;
}

// Mask of the bytes [off, off+len) of a line, one bit per byte for lines up
// to 64 bytes, one bit per line/64 bytes beyond.
inline u64 byte_mask(u64 off, u64 len, unsigned line_bits) {
    if (line_bits > 6) {
        unsigned shift = line_bits - 6;
        u64 first = off >> shift, last = (off + len - 1) >> shift;
        return (last - first >= 63 ? ~0ull : ((2ull << (last - first)) - 1)) << first;
    }
    return (len >= 64 ? ~0ull : ((1ull << len) - 1)) << off;
}

// ------------------------------------------------------------ general model
// Everything a level-1 first-way hit does not need (the served counts, the
// latency) is out of line, and the hit itself is CoherentMachine's inline
// path. omp_loop 1024 40 with one thread spent 71 % of its samples in the
// replay's per-event wrappers and the machine's slow path before
// (run_batch_direct below; run() uses the same pieces with TLBs).

__attribute__((noinline)) void line_served(CoreCounters& c, ULong* served, ULong* core_served, u32 r) {
    unsigned d = r & kDepthMask;
    count(served, d);
    count(core_served, d);
    charge(c, r);
}

inline void fetch_line(CoherentMachine& m, u32 core, CoreCounters& c, LineCC* cc, u64 b, Addr pc) {
    u32 r = m.access_lru(core, kFetch, b, ~0ull, pc);
    if (r) line_served(c, cc->ir_served, c.ir_served, r);
}

inline void fetch_direct(CoherentMachine& m, u32 core, CoreCounters& c, const InstrInfo* n, unsigned bits) {
    LineCC* cc = n->cc;
    cc->ir++;
    u64 first = n->addr >> bits, last = (n->addr + n->len - 1) >> bits;
    fetch_line(m, core, c, cc, first, n->addr);
    for (u64 b = first + 1; __builtin_expect(b <= last, 0); ++b) fetch_line(m, core, c, cc, b, n->addr);
}

// A certain I1 hit (EventStream.h) whose previous fetch ran in an earlier
// batch: simulated like any single-line fetch (its caller counts its Ir).
__attribute__((noinline)) void refetch(CoherentMachine& m, u32 core, CoreCounters& c, const InstrInfo* n,
                                       unsigned bits) {
    fetch_line(m, core, c, n->cc, n->addr >> bits, n->addr);
}

// The Ir of `run` certain hits from `n` on (consecutive InstrInfos of a
// superblock) that cross cost centres: added once per cost centre
// (InstrInfo::same_cc_next). Most runs stay in one, which the batch loop
// adds itself.
__attribute__((noinline)) void run_ir_by_cc(const InstrInfo* n, u64 run) {
    for (const InstrInfo* p = n; p < n + run;) {
        u64 left = u64(n + run - p), same = u64(p->same_cc_next) + 1;
        u64 seg = same < left ? same : left;
        p->cc->ir += seg;
        p += seg;
    }
}

template <AccessKind K>
inline void count_access(LineCC* cc, CoreCounters& c) {
    if (K == kRead) {
        cc->dr++;
        c.dr++;
    } else {
        cc->dw++;
        c.dw++;
    }
}

// The lines of an access after the first (an access that crosses lines).
template <bool Mon>
__attribute__((noinline)) void data_rest(CoherentMachine& m, u32 core, CoreCounters& c, const InstrInfo* n,
                                         AccessKind kind, u64 a, u64 size, unsigned bits) {
    LineCC* cc = n->cc;
    ULong* served = kind == kRead ? cc->dr_served : cc->dw_served;
    ULong* core_served = kind == kRead ? c.dr_served : c.dw_served;
    u64 line = 1ull << bits;
    u64 first = a >> bits, last = (a + size - 1) >> bits;
    for (u64 b = first + 1; b <= last; ++b) {
        u64 hi = b == last ? ((a + size - 1) & (line - 1)) + 1 : line;
        u32 r = m.access(core, kind, b, byte_mask(0, hi, bits), n->addr);
        if (r) line_served(c, served, core_served, r);
        if (Mon) ds::record_multicore(b << bits, kind, r & kDepthMask, r);
    }
}

// The line references of a data access of kind K: each line once, its
// bytes in the mask, told to the monitor (Mon) with the machine's flags.
template <AccessKind K, bool Mon>
inline void data_lines(CoherentMachine& m, u32 core, CoreCounters& c, const InstrInfo* n, u64 a, u64 size,
                       unsigned bits) {
    LineCC* cc = n->cc;
    u64 line = 1ull << bits;
    u64 first = a >> bits;
    bool crosses = ((a + size - 1) >> bits) != first;
    u64 lo = a & (line - 1);
    u64 len = crosses ? line - lo : size;
    u32 r = m.access_lru(core, K, first, byte_mask(lo, len, bits), n->addr);
    if (r) line_served(c, K == kRead ? cc->dr_served : cc->dw_served, K == kRead ? c.dr_served : c.dw_served, r);
    if (Mon) ds::record_multicore(a, K, r & kDepthMask, r);
    if (__builtin_expect(crosses, 0)) data_rest<Mon>(m, core, c, n, K, a, size, bits);
}

// run()'s fetch and data access: the same, and the translations of the
// data TLBs; without simulated fetches only the Ir.
inline void fetch(u32 core, CoreCounters& c, const InstrInfo* n) {
    if (sim::g_icache)
        fetch_direct(sim::g_machine, core, c, n, sim::g_machine.line_bits());
    else
        n->cc->ir++;
}

template <AccessKind K>
inline void data(u32 core, CoreCounters& c, const InstrInfo* n, u64 a, u64 size) {
    LineCC* cc = n->cc;
    count_access<K>(cc, c);
    if (sim::g_tlb_on) {
        ULong t[3] = {0, 0, 0};
        ULong cycles = 100 * sim::translate(core, t, a, size);
        for (int i = 0; i < 3; ++i) {
            cc->tlb[i] += t[i];
            c.tlb[i] += t[i];
        }
        CoreClock& k = g_clocks[g_core];
        c.busy += cycles;
        k.busy += cycles;
        k.clock += cycles;
    }
    data_lines<K, true>(sim::g_machine, core, c, n, a, size, sim::g_machine.line_bits());
}

// ------------------------------------------------------------ Cachegrind mode
// One model shared by every core: Cachegrind's counting, no coherence.
inline void cg_fetch(CoreCounters& c, const InstrInfo* n, bool single_line) {
    LineCC* cc = n->cc;
    cc->ir++;
    unsigned d = single_line ? sim::g_cg.fetch_single_line(n->addr) : sim::g_cg.fetch(n->addr, n->len);
    count(cc->ir_served, d);
    count(c.ir_served, d);
    charge(c, d);
}

inline void cg_data(CoreCounters& c, const InstrInfo* n, AccessKind kind, u64 a, u64 size) {
    LineCC* cc = n->cc;
    unsigned d = sim::g_cg.data(a, size);
    if (kind == kRead) {
        cc->dr++;
        c.dr++;
        count(cc->dr_served, d);
        count(c.dr_served, d);
    } else {
        cc->dw++;
        c.dw++;
        count(cc->dw_served, d);
        count(c.dw_served, d);
    }
    charge(c, d);
    ds::record(a, kind, d);
}

// Where the stack accesses of the unit being replayed go (the worker's,
// when there is one), and the main thread's latest: most turns keep their
// unit's, and the worker is told only of changes (a command at every turn:
// omp_loop 1024 40 with 4 threads 3.14 s -> 3.22 s, medians of 5).
StackRelocation g_relocation;
StackRelocation g_relocation_asked;

}  // namespace

void set_stack_relocation(const StackRelocation& r) {
    bool same = VG_(memcmp)(&r, &g_relocation_asked, sizeof r) == 0;
    g_relocation_asked = r;
    if (replayworker::use()) {
        if (!same) replayworker::relocate(r);
    } else {
        g_relocation = r;
    }
}

void apply_relocation(const StackRelocation& r) { g_relocation = r; }

namespace {

inline u32 run(const Ev& e) {
    u32 core = g_core;
    CoreCounters& c = g_slots[g_slot];
    const InstrInfo* n = reinterpret_cast<const InstrInfo*>(e.w0 & kInfoMask);
    uptr tag = e.w0 & kTagMask;
    bool cg = sim::g_config.cachegrind;
    switch (tag) {
        case kTagFetch1:
            if (cg) cg_fetch(c, n, true); else fetch(core, c, n);
            return 1;
        case kTagFetch2:
            if (cg) {
                cg_fetch(c, n, true);
                cg_fetch(c, reinterpret_cast<const InstrInfo*>(e.w1), true);
            } else {
                fetch(core, c, n);
                fetch(core, c, reinterpret_cast<const InstrInfo*>(e.w1));
            }
            return 2;
        case kTagFetchGen:
            if (cg) cg_fetch(c, n, false); else fetch(core, c, n);
            return 1;
        case kTagFetchHits:
            // Recorded only for run_batch_direct() (ToolMain.cpp, stream_certain).
            VG_(tool_panic)((HChar*)"ompsim: certain-hit event outside the direct replay");
        default: {
            u32 instrs = 0;
            if (e.w1 & kWithFetch) {
                if (cg) cg_fetch(c, n, true); else fetch(core, c, n);
                instrs = 1;
            }
            u64 a = g_relocation.apply(e.w1 & kAddrMask);
            u64 size = (e.w1 >> kSizeShift) & kSizeMask;
            if (cg) {
                // Cachegrind counts a read-modify-write as one read.
                cg_data(c, n, tag == kTagWrite ? kWrite : kRead, a, size);
            } else {
                if (tag != kTagWrite) data<kRead>(core, c, n, a, size);
                if (tag != kTagRead) data<kWrite>(core, c, n, a, size);
            }
            return instrs;
        }
    }
}

// ------------------------------------------------------------ the replay's L1 hits
// run_batch_direct() tests level-1 hits itself on a copy of the running
// core's L1 geometry, taken once per batch (CoherentMachine::core_l1_view):
// through access_lru() every event re-derived the core, its level, the
// policy and the set from the machine, whose fields the compiler reloaded
// after each counter increment. Everything else (a miss, a hit the inline
// rule does not cover, an access that crosses lines) is out of line, the
// same calls as before. omp_loop 1024 40, user-time medians of 3: 4.64 s ->
// 4.18 s with 4 threads, 3.72 s -> 3.16 s with one.
struct ReplayL1 {
    CoherentMachine::CoreL1View v;
    bool ok;  // false: no inline tests (a core not yet active, PLRU, sets not a power of two)
    ULong hits[3] = {0, 0, 0};  // inline hits by AccessKind, added to v.l.refs at the batch's end
    template <AccessKind K>
    __attribute__((always_inline)) bool hit(u64 b) {
        if (!v.try_hit<K>(b)) return false;
        ++hits[K];
        return true;
    }
    void count() {
        if (!ok) return;
        for (int k = 0; k < 3; ++k) v.l.refs[k] += hits[k];
    }
};

__attribute__((noinline)) void fetch_slow(CoherentMachine& m, u32 core, CoreCounters& c, const InstrInfo* n,
                                          unsigned bits, ReplayL1* i1) {
    LineCC* cc = n->cc;
    u64 first = n->addr >> bits, last = (n->addr + n->len - 1) >> bits;
    // The first line of an instruction that straddles two was not tested
    // inline (fetch_replayed() tests single lines): omp_tasks's merge()
    // loop has one, 8.2 M fetches, each a call into the machine for a line
    // its previous instruction had just fetched. A single line's failed
    // test is not repeated.
    for (u64 b = first; b <= last; ++b) {
        if ((b != first || last != first) && i1->ok && i1->hit<kFetch>(b)) continue;
        fetch_line(m, core, c, cc, b, n->addr);
    }
    if (!i1->ok) i1->ok = m.core_l1_view(core, true, &i1->v);
}

// fetch_direct() with the first line's hit inline. This, data_replayed()
// and ReplayL1::hit() are forced inline: GCC had put the write's copy and
// its L1 test out of line, a call per write (see run_batch_loop()).
__attribute__((always_inline)) inline void fetch_replayed(CoherentMachine& m, u32 core, CoreCounters& c,
                                                          const InstrInfo* n, unsigned bits, ReplayL1* i1) {
    n->cc->ir++;
    u64 b = n->addr >> bits;
    if (__builtin_expect(i1->ok && ((n->addr + n->len - 1) >> bits) == b && i1->hit<kFetch>(b), 1)) return;
    fetch_slow(m, core, c, n, bits, i1);
}

template <AccessKind K, bool Mon>
__attribute__((noinline)) void data_slow(CoherentMachine& m, u32 core, CoreCounters& c, const InstrInfo* n, u64 a,
                                         u64 size, unsigned bits, ReplayL1* d1) {
    data_lines<K, Mon>(m, core, c, n, a, size, bits);
    if (!d1->ok) d1->ok = m.core_l1_view(core, false, &d1->v);
}

// A data access with a single line's hit inline; the slot's Dr and Dw are
// counted by the caller.
template <AccessKind K, bool Mon>
__attribute__((always_inline)) inline void data_replayed(CoherentMachine& m, u32 core, CoreCounters& c,
                                                          const InstrInfo* n, u64 a, u64 size, unsigned bits,
                                                          ReplayL1* d1) {
    LineCC* cc = n->cc;
    if (K == kRead) cc->dr++; else cc->dw++;
    u64 b = a >> bits;
    bool inline_test = d1->ok && ((a + size - 1) >> bits) == b;  // one line
    if (__builtin_expect(inline_test && d1->hit<K>(b), 1)) {
        if (Mon) ds::record_multicore(a, K, 0, 0);
        return;
    }
    // A write to a dirty line whose slot says other cores may have loss
    // records for it: still a hit, and the records get the bytes.
    // omp_tasks 1000000 4096 (4 threads) made 13 M such writes (merge()
    // writes lines another core had), each through data_slow(),
    // access_demand() and modified_write(), 12 % of the replay worker's
    // samples.
    if (K == kWrite && inline_test && d1->v.dirty_watched_hit(b)) {
        ++d1->hits[kWrite];
        m.write_records(b, byte_mask(a & ((1ull << bits) - 1), size, bits));
        if (Mon) ds::record_multicore(a, K, 0, 0);
        return;
    }
    data_slow<K, Mon>(m, core, c, n, a, size, bits, d1);
}

// The replay's batch loop, one copy per case: Mon (the monitor is on),
// Moved (the unit's addresses are relocated, StackRelocation.h) and Line64
// (64-byte lines: the shifts by a constant). Counted by Callgrind on the
// inner tool (bench/self_profile.sh, --replay-thread=no), instructions in
// the loop and its callees, omp_loop 256 10 / omp_tasks 50000 1024 with 4
// threads:
//   one loop for all cases, the flags tested per event    643.4 M / 939.2 M
//   Moved and Line64 as template arguments, a pointer
//   walk, the quantum as one signed count                  594.8 M / 891.8 M
//   the L1 tests and the write path forced inline          580.2 M / 840.8 M
//   CoreL1View::ways4 instead of lru and assoc >= 4        568.8 M / 821.3 M
//   a run's certain hits counted here (run_ir_by_cc())     559.2 M / 801.2 M
// Wall time, medians of 7 alternating runs, after the first three rows:
// omp_loop 1024 40 2.93 s -> 2.67 s, omp_tasks 1000000 4096 2.33 s ->
// 2.05 s (7 of 7 pairs faster); the last row within the noise.
template <bool Mon, bool Moved, bool Line64>
u32 run_batch_loop(const Ev* ev, u32 n, u32* quantum) {
    CoherentMachine& m = sim::g_machine;
    const u32 core = g_core;
    CoreCounters& c = g_slots[g_slot];
    const unsigned bits = Line64 ? 6 : m.line_bits();
    ReplayL1 i1, d1;
    i1.ok = m.core_l1_view(core, true, &i1.v);
    d1.ok = m.core_l1_view(core, false, &d1.v);
    u64* const fetch_refs = m.fetch_refs_counter(core);
    const StackRelocation rel = g_relocation;
    // No address moves inside [gap_lo, gap_lo + gap_span); empty at first
    // (StackRelocation::apply_or_gap()). Units that move nothing (omp_loop's
    // implicit tasks) run the loop without the test (Moved false).
    Addr gap_lo = 0, gap_span = 0;
    // The quantum left, signed: the batch's instructions are what it went
    // down by (a double fetch may take it below zero).
    const Long q0 = *quantum;
    Long left = q0;
    const Ev* e = ev;
    const Ev* const end = ev + n;
    ULong reads = 0, writes = 0, certain = 0;
    bool warm = false;  // the slot fetched in this batch: certain hits are certain
    while (e < end && left > 0) {
        // The events were recorded long before (a slot waits for the others'
        // streams), so they come from memory: 1 KiB ahead, omp_loop 1024 40
        // with 4 threads 6.68 s -> 6.45 s (24 events ahead: 6.58 s).
        __builtin_prefetch(e + 64);
        uptr w0 = e->w0, w1 = e->w1;
        uptr tag = w0 & kTagMask;
        if (tag == kTagMarker) break;
        const InstrInfo* in = reinterpret_cast<const InstrInfo*>(w0 & kInfoMask);
        u64 instrs = 1;
        const InstrInfo* hits = nullptr;  // a run of certain hits: its first and its length
        u64 nhits = 0;
        if (tag >= kTagRead && tag <= kTagModify) {
            instrs = 0;
            if (w1 & kWithFetch) {
                fetch_replayed(m, core, c, in, bits, &i1);
                warm = true;
                instrs = 1;
            } else if (w1 & kCertainFetch) {
                in->cc->ir++;
                if (warm)
                    ++certain;
                else
                    refetch(m, core, c, in, bits);
                warm = true;
                instrs = 1;
            }
            u64 a = w1 & kAddrMask;
            if (Moved && a - gap_lo >= gap_span) a = rel.apply_or_gap(a, &gap_lo, &gap_span);
            u64 size = (w1 >> kSizeShift) & kSizeMask;
            if (tag != kTagWrite) {
                data_replayed<kRead, Mon>(m, core, c, in, a, size, bits, &d1);
                ++reads;
            }
            if (tag != kTagRead) {
                data_replayed<kWrite, Mon>(m, core, c, in, a, size, bits, &d1);
                ++writes;
            }
            hits = in + 1;
            nhits = w0 >> kRunShift;  // the certain hits after the instruction (Instrumenter.cpp emit_data)
        } else if (tag == kTagFetch1 || tag == kTagFetchGen) {
            fetch_replayed(m, core, c, in, bits, &i1);
            warm = true;
            hits = in + 1;
            nhits = w1;  // the certain hits recorded with the fetch (st_ir1k), or 0
        } else if (tag == kTagFetchHits) {
            instrs = 0;
            hits = in;
            nhits = w1;
        } else {  // kTagFetch2
            fetch_replayed(m, core, c, in, bits, &i1);
            fetch_replayed(m, core, c, reinterpret_cast<const InstrInfo*>(w1), bits, &i1);
            warm = true;
            instrs = 2;
        }
        if (nhits) {
            // Those beyond the quantum stay in the stream, the event rewritten
            // as a run of hits for the slot's next turn.
            // A run's hits are certain once the slot fetched in this batch;
            // the first is simulated otherwise (another slot may have used
            // the core in between). Each counts one I1 reference.
            u64 room = u64(left) - instrs;
            u64 ran = nhits < room ? nhits : room;
            if (__builtin_expect(u64(hits->same_cc_next) + 1 >= ran, 1))
                hits->cc->ir += ran;
            else
                run_ir_by_cc(hits, ran);
            certain += ran;
            if (__builtin_expect(!warm, 0) && ran) {
                refetch(m, core, c, hits, bits);
                warm = true;
                --certain;
            }
            instrs += ran;
            if (ran < nhits) {
                Ev& rest = const_cast<Ev&>(*e);
                rest.w0 = reinterpret_cast<uptr>(hits + ran) | kTagFetchHits;
                rest.w1 = nhits - ran;
                left = 0;  // the run took the rest of the quantum
                break;
            }
        }
        ++e;
        left -= Long(instrs);
    }
    i1.count();
    d1.count();
    c.dr += reads;
    c.dw += writes;
    *fetch_refs += certain;
    if (q0 != left) tick_n(c, ULong(q0 - left));
    *quantum = left > 0 ? u32(left) : 0;
    return u32(e - ev);
}

template <bool Mon>
u32 run_batch_direct(const Ev* ev, u32 n, u32* quantum) {
    const bool line64 = sim::g_machine.line_bits() == 6;
    if (g_relocation.moves())
        return line64 ? run_batch_loop<Mon, true, true>(ev, n, quantum)
                      : run_batch_loop<Mon, true, false>(ev, n, quantum);
    return line64 ? run_batch_loop<Mon, false, true>(ev, n, quantum)
                  : run_batch_loop<Mon, false, false>(ev, n, quantum);
}

}  // namespace

bool direct_replay() { return !sim::g_config.cachegrind && !sim::g_tlb_on && sim::g_icache; }

namespace {

// Instructions of an event that is not a marker, its run of certain hits
// included: what plan_batch()'s exact walk below counts for an event the
// quantum does not end in, without a branch on the kind.
inline u64 event_instrs(uptr w0, uptr w1) {
    // By tag: the fetches before the run, and whether w1 is the run's length.
    static const u8 kBase[8] = {1, 2, 1, 0, 0, 0, 0, 0};
    static const u8 kRunInW1[8] = {1, 0, 1, 0, 0, 0, 1, 0};
    uptr tag = w0 & kTagMask;
    u64 data = ((w1 & (kWithFetch | kCertainFetch)) != 0) + (w0 >> kRunShift);
    u64 other = kBase[tag] + (w1 & (u64(0) - kRunInW1[tag]));
    return tag - kTagRead <= kTagModify - kTagRead ? data : other;
}

// The leading events of `ev` that end before the quantum does: how many,
// *q less their instructions. plan_batch() spent 14 % of the samples of
// omp_tasks 1000000 4096 on one thread walking them with its exact step.
inline u32 whole_events(const Ev* ev, u32 n, u32* q) {
    u32 left = *q;
    u32 i = 0;
    for (; i < n; ++i) {
        __builtin_prefetch(ev + i + 64);
        uptr w0 = ev[i].w0;
        if ((w0 & kTagMask) == kTagMarker) break;
        u64 instrs = event_instrs(w0, ev[i].w1);
        if (instrs >= left) break;
        left -= u32(instrs);
    }
    *q = left;
    return i;
}

// run_batch_direct()'s walk without the simulation: how many events it
// takes from `ev` with *quantum instructions left, and the quantum after.
// A run of certain hits cut at the quantum leaves its rest in *cut (the
// worker rewrites the event itself, and may be doing so now: the next plan
// of the stream reads *cut instead). It reads the events first, so it
// prefetches as run_batch_direct() does. (Counting the cost centres' Ir,
// Dr and Dw here instead of on the worker, the served counts then kept
// apart for the worker, changed nothing: omp_loop 1024 40 2.87 s either
// way, medians of 5.)
u32 plan_batch(const Ev* ev, u32 n, u32* quantum, Ev* cut) {
    u32 q = *quantum;
    u32 i = 0;
    // The exact step takes the cut event first (the rest of a run of
    // certain hits the last turn cut, EventStream.h), then the event the
    // quantum ends in (or a marker). The events between are whole_events()'s:
    // walked by the exact step after a cut, as they once were, they took 8 %
    // of the main thread's samples on omp_tasks 1000000 4096 (4 threads),
    // where most turns end inside a run.
    bool whole = !cut->w0;
    while (i < n && q > 0) {
        if (whole) {
            i += whole_events(ev + i, n - i, &q);
            whole = false;
            if (i >= n) break;
        }
        __builtin_prefetch(ev + i + 64);
        Ev e = i == 0 && cut->w0 ? *cut : ev[i];
        uptr tag = e.w0 & kTagMask;
        if (tag == kTagMarker) break;
        const InstrInfo* in = reinterpret_cast<const InstrInfo*>(e.w0 & kInfoMask);
        u64 instrs = 1;
        const InstrInfo* hits = nullptr;
        u64 nhits = 0;
        if (tag >= kTagRead && tag <= kTagModify) {
            instrs = e.w1 & (kWithFetch | kCertainFetch) ? 1 : 0;
            hits = in + 1;
            nhits = e.w0 >> kRunShift;
        } else if (tag == kTagFetch1 || tag == kTagFetchGen) {
            hits = in + 1;
            nhits = e.w1;
        } else if (tag == kTagFetchHits) {
            instrs = 0;
            hits = in;
            nhits = e.w1;
        } else {
            instrs = 2;
        }
        if (nhits) {
            u64 room = q - instrs;
            u64 ran = nhits < room ? nhits : room;
            if (ran < nhits) {
                cut->w0 = reinterpret_cast<uptr>(hits + ran) | kTagFetchHits;
                cut->w1 = nhits - ran;
                *quantum = 0;
                return i;
            }
            instrs += ran;
        }
        whole = i == 0 && cut->w0;  // the cut event is done: whole events may follow
        ++i;
        q = instrs >= q ? 0 : u32(q - instrs);
    }
    cut->w0 = 0;
    *quantum = q;
    return i;
}

}  // namespace

// Aligned to a host cache line so that the replay's loop (inlined here)
// keeps its place relative to the host's 32- and 64-byte fetch blocks
// whatever code comes before it: a 96-byte shift from an unrelated change
// in the monitor made omp_loop 1024 40 (4 threads) 3.80 s -> 3.94 s, and
// padding it back restored 3.79 s (medians of 5).
__attribute__((aligned(64))) u32 run_batch(const Ev* ev, u32 n, u32* quantum, Ev* cut) {
    if (replayworker::use()) {
        u32 q = *quantum;
        u32 done = plan_batch(ev, n, quantum, cut);
        // The worker stops where the plan did: at the quantum (inside event
        // `done` if it cut a run there) or at a marker.
        replayworker::batch(ev, done < n ? done + 1 : n, q);
        return done;
    }
    cut->w0 = 0;  // the worker, if it ran the stream, rewrote the event
    if (direct_replay())
        return ds::g_on ? run_batch_direct<true>(ev, n, quantum) : run_batch_direct<false>(ev, n, quantum);
    u32 q = *quantum;
    u32 i = 0;
    ULong total = 0;
    while (i < n && q > 0 && (ev[i].w0 & kTagMask) != kTagMarker) {
        u32 instrs = run(ev[i++]);
        total += instrs;
        q = instrs >= q ? 0 : q - instrs;
    }
    if (total) tick_n(g_slots[g_slot], total);
    *quantum = q;
    return i;
}

// Aligned for the reason run_batch() is: the replay's loop is inlined here.
__attribute__((aligned(64))) void simulate_batch(const Ev* ev, u32 n, u32 quantum) {
    run_batch_direct<false>(ev, n, &quantum);
}

void enter(u32 slot, u32 core) {
    if (core + 1 > g_used) g_used = core + 1;
    if (slot + 1 > g_slots_used) g_slots_used = slot + 1;
    if (slot + 1 > g_slots_cap) {
        replayworker::sync();  // the worker may be counting in g_slots
        reserve(g_slots, g_slots_cap, slot + 1, 16, "ompsim.coresim");
    }
    g_slots[slot].used = true;
    g_clocks[core].used = true;
    if (replayworker::use())
        replayworker::enter(slot, core);
    else
        enter_core(slot, core);
}

void enter_core(u32 slot, u32 core) {
    g_slot = slot;
    g_core = core;
    ds::set_core(core);
    if (slot != g_monitor_row) {
        g_monitor_row = slot;
        ds::set_replay_thread(slot);
    }
}

CoreCounters& counters(u32 slot) {
    replayworker::sync();
    reserve(g_slots, g_slots_cap, slot + 1, 16, "ompsim.coresim");
    return g_slots[slot];
}

LineCC as_line(const CoreCounters& c) {
    LineCC cc;
    VG_(memset)(&cc, 0, sizeof cc);
    cc.ir = c.ir;
    cc.dr = c.dr;
    cc.dw = c.dw;
    for (int d = 0; d <= kMaxLevels; ++d) {
        cc.ir_served[d] = c.ir_served[d];
        cc.dr_served[d] = c.dr_served[d];
        cc.dw_served[d] = c.dw_served[d];
    }
    for (int i = 0; i < 3; ++i) cc.tlb[i] = c.tlb[i];
    return cc;
}
CoreClock& clock(u32 core) {
    replayworker::sync();
    return g_clocks[core];
}
u32 cores_used() { return g_used ? g_used : 1; }
u32 slots_used() { return g_slots_used ? g_slots_used : 1; }

void wait_until(u32 core, ULong t) {
    replayworker::sync();
    CoreClock& k = g_clocks[core];
    if (t > k.clock) {
        k.wait += t - k.clock;
        k.clock = t;
    }
}

namespace {
void add_line(const LineCC& cc, void* ctx) {
    CoreCounters& c = *static_cast<CoreCounters*>(ctx);
    c.ir += cc.ir;
    c.dr += cc.dr;
    c.dw += cc.dw;
    for (int d = 0; d <= kMaxLevels; ++d) {
        c.ir_served[d] += cc.ir_served[d];
        c.dr_served[d] += cc.dr_served[d];
        c.dw_served[d] += cc.dw_served[d];
    }
    for (int i = 0; i < 3; ++i) c.tlb[i] += cc.tlb[i];
    c.busy += 100 * cycles_of(cc, sim::g_config);
}
}  // namespace

void zero_counters() {
    replayworker::sync();
    for (u32 i = 0; i < g_slots_cap; ++i) {
        bool used = g_slots[i].used;
        VG_(memset)(&g_slots[i], 0, sizeof g_slots[i]);
        g_slots[i].used = used;
    }
}

void adopt_serial_part() {
    reserve(g_slots, g_slots_cap, 1, 16, "ompsim.coresim");
    CoreCounters& c = g_slots[0];
    cost::for_each(add_line, &c);
    c.used = true;
    g_clocks[0].busy = g_clocks[0].clock = c.busy;
    g_clocks[0].used = true;
    if (g_used < 1) g_used = 1;
    if (g_slots_used < 1) g_slots_used = 1;
}

}  // namespace coresim
}  // namespace ompsim
