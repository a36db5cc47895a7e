// The functions the instrumented code calls, one per batch of events of one
// or a few guest instructions. Two families:
//  - cg_*:  Cachegrind mode (CachegrindModel), Cachegrind's counting rules;
//  - hier_*: the general model (CoherentMachine, core 0), one reference per
//    cache line;
//  - st_*:  streaming, once the program has threads: one event appended to
//    the running thread's stream per call (replayed by Replay.h).
// Each family has the same shapes, so the Instrumenter picks a table.
#ifndef OMPSIM_VGTOOL_SIMHELPERS_H
#define OMPSIM_VGTOOL_SIMHELPERS_H

#include "CachegrindModel.h"
#include "CoherentMachine.h"
#include "CostCentres.h"
#include "Tlb.h"

namespace ompsim {

struct HelperTable {
    // Instruction fetch of 1, 2 or 3 consecutive instructions that each lie
    // within one cache line ("single-line" fetches).
    void* ir1;
    void* ir2;
    void* ir3;
    // Fetch of an instruction that may straddle lines.
    void* ir_gen;
    // A single-line fetch followed by the instruction's data access.
    void* ir_dr;
    void* ir_dw;
    void* ir_dm;
    // A data access alone (InstrInfo*, address, size).
    void* dr;
    void* dw;
    void* dm;
    // The last line of a two-line instruction whose first line is a
    // certain I1 hit (InstrumentConfig::i1_fetch_refs counts that line and
    // the instruction's Ir): only the general machine's one-core helpers
    // have it, null elsewhere.
    void* ir_last;
    // Streaming with certain I1 hits (EventStream.h; null elsewhere): a
    // single-line fetch followed by `k` certain hits (InstrInfo*, k); `k`
    // certain hits alone (first InstrInfo*, k). Data events are appended
    // in IR then (Instrumenter.cpp, append_inline()).
    void* ir1k;
    void* hits;
    // The same for a fetch that may straddle lines, followed by `k`
    // certain hits (InstrInfo*, k).
    void* ir_gen_k;
    const char* names[14];
};

namespace sim {

extern HierarchyConfig g_config;
extern CachegrindModel g_cg;
// The general model; before the program has a second thread every access
// is core 0's, simulated at once by the hier_* helpers.
extern CoherentMachine g_machine;
extern bool g_icache;  // simulate instruction fetches (general mode)
extern bool g_tlb_on;  // data TLBs configured (general mode)

// The data TLBs of `core` (< kMaxTlbCores; built on first use).
constexpr u32 kMaxTlbCores = 256;
Tlb& tlb(u32 core);
// Sum over the cores of TLB level k's counters; zeroing them.
TlbStats tlb_totals(int k);
void reset_tlb_stats();

// One data access of `size` bytes at `a` by `core`: a translation for its
// first page and one more if it crosses into the next. Counts in
// tlb[0..2] (LineCC::tlb), tells the monitor about misses, and returns
// the cycles the translations cost (latency of the level that served
// each, or the walk).
ULong translate(u32 core, ULong* tlb, Addr a, UWord size);

HelperTable cachegrind_helpers();
HelperTable hierarchy_helpers();
// The general model while core 0 runs alone, with no TLB, no miss
// classification and no reuse distances: each line reference tests L1's
// most recently used way first, from a copy of its geometry
// (CoherentMachine::l1_view), and calls the machine only when that fails.
// Counts are those of hierarchy_helpers(). With `monitor` the data helpers
// also record each reference for the monitored structures, as the hier_*
// ones do. fast_helpers_ready() takes the copy; false when L1 does not
// qualify.
bool fast_helpers_ready();
HelperTable fast_helpers(bool monitor);
// After fast_helpers_ready(): whether the fast helpers without the monitor
// may hand L1 misses to the miss worker (MissWorker.h): the short miss
// path, LRU L1s and a write-back D1.
bool fast_helpers_may_hand_misses();
// Streaming (EventStream.h): the helpers append events; the replay
// simulates them (either model).
HelperTable stream_helpers();
// The running thread's stream chunk is full (stream::g_pos reached g_end):
// a new chunk, and the replay catches up. Called by the streaming helpers
// and by the data events the instrumenter appends in IR.
VG_REGPARM(0) void stream_chunk_filled();

}  // namespace sim
}  // namespace ompsim

#endif
