// The levels below L1 on a second host thread (--miss-thread).
//
// While one core runs alone on the short miss path (one core, LRU
// write-back L1, no prefetcher, TLB or miss classification), an L1 miss of
// the one-core helpers (SimHelpers.cpp) needs nothing from the levels below
// it to go on: L1 fills the line and picks its victim itself. So the main
// thread hands the rest of the miss (the search of L2 and L3, their fills
// and write-backs, L1's dirty victim, the served count of the cost centre,
// and with the monitor the counters of the structure the reference falls
// in) to a worker thread through a ring, in program order, and carries on.
// The worker runs only cachesim code on machine state the main thread does
// not touch meanwhile, and keeps the counts it finds apart until sync();
// before the main thread reads or changes any of it (a client request, a
// mapping coming or going, a heap block that moves the monitor's counters,
// another thread, the end) it calls sync(). The simulation is the same,
// reference by reference: documents are byte-identical with and without
// the worker.
//
// Handing a miss over costs the main thread a few nanoseconds (the ring's
// lines move between the host's cores), as much as an L2 hit costs to
// simulate, so it pays only when most misses go further: chase and
// containers (nearly every L1 miss reaches L3 or memory) run 1.4x faster,
// matmul (L2 hits) 1.3x slower. With --miss-thread=auto the main thread
// counts, window by window, how many misses go beyond L2, and hands the
// worker whole misses only while at least half of them do
// (docs/performance.md).
//
// Below L2: with three levels or more, while most misses end in L2 (matmul:
// 61.9 M of its 62.1 M D1 misses), auto mode hands over only what the
// levels below L2 do (CoherentMachine::l2_part()): the main thread runs L2
// itself, and the worker takes the references that go further and the
// dirty lines L2 evicts, whose sets in L3 miss the host's caches (matmul
// 400: 0.58 M of them, about 0.1 s of its 1.8 s; 1.73 s -> 1.65 s). It
// switches to whole misses when at least half of a window's misses go
// beyond L2, and back when fewer than a quarter do. Without a third level
// the main thread keeps the misses while they end in L2, as before.
//
// The worker is a HostThread (HostThread.h): it never runs Valgrind code.
#ifndef OMPSIM_VGTOOL_MISSWORKER_H
#define OMPSIM_VGTOOL_MISSWORKER_H

#include "CoherentMachine.h"
#include "LevelStats.h"
#include "Types.h"
#include "ValgrindApi.h"

namespace ompsim {
namespace missworker {

enum class Mode { Off, On, Auto };

// --miss-thread=no|yes|auto (auto when not given). Off on a host with one
// CPU for this process.
void configure(Mode m);

// Whether the helpers may hand misses over at all: the one-core fast
// helpers on the short miss path (sim::fast_helpers_may_hand_misses()).
// Called once, when post_clo_init() chooses the helpers; retire() ends it.
void set_eligible(bool on);

// True while L1 misses go to the worker (read by the helpers on every miss).
extern bool g_async;
// ... and of those only the levels below L2 (push_below_l2()).
extern bool g_below_l2;
// Auto mode, the worker not in use: the main thread's misses are counted.
extern bool g_watching;

// The rest of an L1 miss of `kind` on `block` (L1 already filled), with
// L1's dirty victim `dirty_victim` (CoherentMachine::kNoVictim: none) to
// write back after it (CoherentMachine::finish_miss()); the depth that
// serves it is counted in served[depth].
// Returns kPushed, or the depth when the worker thread could not be
// started and the main thread finished the miss itself (it goes on without
// the worker).
constexpr u32 kPushed = ~0u;
u32 push(AccessKind kind, u64 block, u64 dirty_victim, ULong* served);

// While g_below_l2: the entries `w` of CoherentMachine::l2_part(), which
// returned `depth` for a miss of `kind`. Returns `depth`, or kPushed when
// the reference itself went (its depth counted in served[depth] by the
// worker, as for push()).
u32 push_below_l2(AccessKind kind, const CoherentMachine::LowerWork& w, u32 depth, ULong* served);

// With the monitor, right after push() (or a push_below_l2() that
// returned kPushed) for a reference in a counted structure: its counters
// for the reference's kind (RangeMonitor::locate_current()), to which the
// worker adds the depth found.
void push_counters(ULong* row, ULong* hist);

// Auto mode: the share of misses beyond L2 over windows of kWindow misses;
// the main thread's count of this window's misses (and, while it watches,
// of the deep ones).
constexpr u64 kWindow = 1u << 16;
extern u64 g_window_misses, g_window_deep;
void watch_window_end();
// While g_below_l2, at the end of a window: back to whole misses when at
// least half of its misses went beyond L2.
void below_l2_window_end();
// While g_below_l2: a miss that hit L2's front ways and left no dirty
// victim, which the main thread finished (auto mode's count); returns its
// depth, 1.
inline u32 note_l2_hit() {
    if (++g_window_misses == kWindow) below_l2_window_end();
    return 1;
}
// A miss the main thread finished itself, served at `depth`: auto mode's
// count, inline (matmul's 62 M misses each made a call here: 150 of its
// 8,500 samples).
inline void note_miss_here(u32 depth) {
    if (g_watching) {
        g_window_deep += depth >= 2;
        if (++g_window_misses == kWindow) watch_window_end();
    }
}

// Waits until the worker has done everything pushed, and adds the served
// counts it still holds: after it the main thread may read or change any
// level and any counter. Cheap when nothing was pushed since the last call.
void sync();

// sync(), then no more misses go to the worker (another thread starts,
// the monitor comes on, the end of the run).
void retire();

// fork(): the child has no worker (sync() ran before the fork).
void forked_child();

// Entries handed to the worker so far (misses and L1's dirty victims),
// of them below L2, and auto mode's switches between handing over the
// levels below L2 and the whole lower half (for -v).
u64 pushed();
u64 pushed_below_l2();
u64 switches();

}  // namespace missworker
}  // namespace ompsim

#endif
