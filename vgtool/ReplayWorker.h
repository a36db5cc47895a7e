// The replay's simulation on a second host thread (--replay-thread).
//
// Once a program has a second thread, the main thread records events into
// streams and the replay (Replay.h) runs them on the simulated cores in
// turns of --quantum instructions. Which events a turn takes depends only
// on the events (their instruction counts and markers), not on what the
// caches do with them; the scheduler reads the simulation (clocks,
// counters) only at markers: barriers, locks, joins, regions, tasks. So the
// main thread plans each batch itself (coresim::run_batch) and hands the
// simulation of it (the machine, the cost centres, the slot's counters and
// its core's clock) to a worker thread through a ring of commands, in replay
// order, and goes back to the client. Before anything reads or changes
// simulated state (coresim::counters(), clock(), wait_until(), a client
// request, a fork, the end) it calls sync(). The simulation is the same,
// event by event: documents are byte-identical with and without the worker.
//
// Only the replay's direct path (coresim::direct_replay()) with the monitor
// off goes to the worker; the rest (Cachegrind mode, TLBs, the monitor)
// runs on the main thread as before. Chunks of events the worker may still
// read are recycled only after it has passed them (EventStream.cpp), and a
// run of certain hits that a turn cuts is rewritten by the worker alone:
// the main thread keeps the rest in the stream (Stream::cut).
#ifndef OMPSIM_VGTOOL_REPLAYWORKER_H
#define OMPSIM_VGTOOL_REPLAYWORKER_H

#include "EventStream.h"
#include "StackRelocation.h"

namespace ompsim {
namespace replayworker {

// --replay-thread=yes|no (yes when not given). Off on a host with one CPU
// for this process. With --replay-perturb's seed (0: off) the worker also
// stops for a random while after some commands, so that the main thread
// meets it at other points (Replay.h, Options::perturb).
void configure(bool on, u32 perturb);

// Whether the next batch goes to the worker: configured, the direct
// replay, the monitor off. When not, whatever was handed over is finished
// first (sync()), so the main thread may simulate at once.
bool use();

// Commands, in replay order (coresim's worker halves run them).
void enter(u32 slot, u32 core);
void relocate(const StackRelocation& r);
// `n` events from `ev` with `quantum` instructions left in the turn; the
// worker runs exactly what the main thread planned (coresim::run_batch).
void batch(const Ev* ev, u32 n, u32 quantum);

// Makes every command pushed so far visible to the worker (they are
// published in groups): the replay calls it when it stops.
void flush();

// Whether the worker thread runs; wakes it if it sleeps, for its idle
// work (EventReserve.h).
bool running();
void nudge();

// Whether the worker has half a ring of commands still to run: the replay
// then pauses (replay::advance()).
bool backlogged();

// Waits until the worker has run every command: after it the main thread
// may read or change any simulated state. Cheap when nothing is pending.
void sync();
// sync(), then the worker thread ends (the end of the run).
void retire();
// fork(): the child has no worker (sync() ran before the fork).
void forked_child();

// Commands handed over so far, and how many the worker has finished: an
// event chunk freed when `handed()` was h may be reused once
// `finished()` >= h.
u64 handed();
u64 finished();

// For -v: batches handed over.
u64 batches();

}  // namespace replayworker
}  // namespace ompsim

#endif
