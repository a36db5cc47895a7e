// Simulation of replayed events on one simulated core: the machine model
// (CoherentMachine, or CachegrindModel shared by every core in Cachegrind
// mode), the source-line costs, the data-structure monitor, and the core's
// clock in simulated cycles (ARCHITECTURE.md, "Simulated time").
#ifndef OMPSIM_VGTOOL_CORESIM_H
#define OMPSIM_VGTOOL_CORESIM_H

#include "StackRelocation.h"

namespace ompsim {

constexpr u32 kMaxCores = 256;

// Every function below that reads or changes simulated state waits for the
// replay worker first (replayworker::sync()).
//
// Per-thread (replay slot) figures for the document's <threads> section, and
// per-core clocks for <cores>. A slot runs on one core; with --cores=N
// several slots may share a core, its caches and its clock.
struct CoreCounters {
    ULong ir, dr, dw;
    ULong ir_served[kMaxLevels + 1];
    ULong dr_served[kMaxLevels + 1];
    ULong dw_served[kMaxLevels + 1];
    ULong tlb[3];       // as LineCC::tlb
    // Times in 1/100 cycles (a CPI like 0.75 adds up exactly); the document
    // shows whole cycles.
    ULong busy;         // instructions x CPI + access latencies
    ULong coherence_cycles;  // part of busy: cache-to-cache and upgrade penalties
    bool used;
};

struct CoreClock {
    ULong clock;        // busy + wait of the slots on the core
    ULong busy;
    ULong wait;         // blocked (barriers, locks, joins) or idle before a fork
    bool used;
};

namespace coresim {

// Runs events (not markers) of the slot last entered from `ev`, at most
// `n`, until a marker comes or `*quantum` (instructions left in the turn,
// > 0) reaches 0; returns how many ran. One call per piece of a chunk
// rather than per event: the replay's per-event calls (peek, consume, run)
// were 14 % of omp_loop's samples.
//
// With the replay worker (ReplayWorker.h) this only plans the batch (which
// events it takes, the quantum left) and hands its simulation over. A run
// of certain hits cut at the quantum is then rewritten by the worker; the
// rest is kept in *cut, the stream's (Stream::cut), and the next batch of
// the stream reads it there instead of in the event.
u32 run_batch(const Ev* ev, u32 n, u32* quantum, Ev* cut);
// Whether run_batch() takes its direct path (the general model with
// simulated fetches and no TLBs), the only one that reads certain-hit
// events (EventStream.h).
bool direct_replay();
// A slot's counters as a cost centre (the document's cost vector of a
// thread; the region profile's per-node counters are CoreCounters' first
// kCounterWords words, RegionService.h).
LineCC as_line(const CoreCounters& c);
constexpr u32 kCounterWords = 3 + 3 * (kMaxLevels + 1) + 3;
static_assert(offsetof(CoreCounters, busy) == kCounterWords * sizeof(ULong),
              "the counted events are CoreCounters' first words");

// The events that follow are `slot`'s, on `core` (the monitor's thread row
// is the slot's).
void enter(u32 slot, u32 core);
CoreCounters& counters(u32 slot);
CoreClock& clock(u32 core);
u32 cores_used();
u32 slots_used();
// Stack addresses of the events that follow move as `r` says
// (StackRelocation.h).
void set_stack_relocation(const StackRelocation& r);
// The replay worker's halves of enter(), set_stack_relocation() and
// run_batch() (ReplayWorker.cpp).
void enter_core(u32 slot, u32 core);
void apply_relocation(const StackRelocation& r);
void simulate_batch(const Ev* ev, u32 n, u32 quantum);
// Moves the clock of `core` forward to `t` (waiting).
void wait_until(u32 core, ULong t);
// OMPSIM_ZERO_COUNTERS: every slot's counters (clocks go on).
void zero_counters();
// When streaming starts: what the initial thread did so far (all of it
// simulated at once on core 0) becomes core 0's.
void adopt_serial_part();

}  // namespace coresim
}  // namespace ompsim

#endif
