// The deterministic scheduler (ARCHITECTURE.md, "Determinism"): replays the
// recorded streams on simulated cores in a canonical interleaving.
//
// The rule (docs/openmp.md, "Replay"): execution slots (the initial thread,
// then one per implicit task of a team, reused in index order) take turns in
// slot order; a turn lasts --quantum instructions or until the slot blocks.
// A slot blocks at a barrier until every team member arrived and the team's
// tasks are done, at a join until every implicit task ended, at a lock held
// by another slot until it is released (lock order = replay order), at a
// taskwait/taskgroup until the children/descendants are done. Blocked slots
// run ready tasks (oldest first). Dynamic chunks go, in iteration order, to
// the slot that asks first; a single's body runs on the first slot to reach
// it. When a slot needs events its thread has not recorded yet, the replay
// stops and resumes when they arrive: the order never depends on timing.
// Barriers set the team's clocks to their maximum; a lock's next holder
// starts no earlier than its release.
#ifndef OMPSIM_VGTOOL_REPLAY_H
#define OMPSIM_VGTOOL_REPLAY_H

#include "ReplayModel.h"

namespace ompsim {
namespace replay {

struct Options {
    u32 quantum;  // --quantum: instructions per turn
    u32 cores;    // --cores: 0 = one per slot
    // --replay-perturb=SEED (a debugging option; 0 = off): advance() pauses
    // and stalls at random, and takes fewer of a stream's recorded events
    // than it could, as a slower or faster host would make it. Documents
    // must not change (tests/integration/replay_perturbed.sh).
    u32 perturb;
};

void init(const Options& o);
// The serial stream of the initial thread (slot 0) from now on.
void start(Unit* serial);
// Replays as far as the recorded events allow; with the replay worker it
// may stop earlier, when the worker has enough to do (called while the
// client records: chunk_full(), OpenMP events).
void advance();
// Replays as far as the recorded events allow (before the main thread
// reads what the replay computed).
void catch_up();
// After omp::close_all(): replays everything left.
void finish();
// Marks the profile non-deterministic, with a one-line reason (kept once).
void not_deterministic(const HChar* reason);

bool deterministic();
// For -v with --replay-perturb: how many times the replay was perturbed.
u64 perturbations();
u32 reasons(const HChar* const** out);
u32 core_of_slot(u32 slot);
u32 quantum();

}  // namespace replay
}  // namespace ompsim

#endif
