// Stack addresses in a stream are those of the thread that recorded it. An
// implicit task is replayed on the slot of its own thread number, but a
// dynamic chunk, a single body or a task goes to whichever slot the replay
// gives it (Replay.h), and which thread recorded it depended on timing. So
// that the simulated addresses do not, the replay moves the unit's stack
// accesses onto the stack of the slot that runs it (docs/openmp.md,
// "Stacks"):
//  - frames outside the unit (the outlined function's locals a chunk reads,
//    the loop bounds a GOMP loop keeps there): by the distance between the
//    two threads' implicit-task anchors, so they land on the same frame of
//    the running slot;
//  - a task's own frames, which lie as deep as the place the thread picked
//    the task up (a barrier, a taskwait, another task): at a fixed depth
//    below the slot's implicit task, one kTaskFrames deeper per task already
//    open on the slot;
//  - its parent task's frames (shared variables of the creator): where the
//    replay put that task's frames; for a task created in a single body or
//    a chunk, the frames around that unit, as far as the replay moved them.
// Task descriptors move too: the unit's own (a task's) and the one it has
// allocated for a child and not yet handed over, to where the replay put
// them (TaskDescriptors.h). Other addresses are left alone.
#ifndef OMPSIM_VGTOOL_STACKRELOCATION_H
#define OMPSIM_VGTOOL_STACKRELOCATION_H

#include "ReplayModel.h"

namespace ompsim {

// 4 KiB per open task: the frames of the task bodies in the examples (a
// recursive fib, a block update) take under 300 bytes; a task with deeper
// frames overlaps the next one's in the simulated addresses only.
constexpr Addr kTaskFrames = 4096;

struct StackRange {
    Addr lo, span, delta;  // [lo, lo + span) moves by delta
};

// Fixed places, an unused range having span 0: the descriptors the unit
// moves (heap blocks, disjoint from every stack; at most two), then its
// frames (at most three, tested in order: the first that holds an address
// moves it), all inside [frames_lo, frames_lo + frames_span). Most of a
// task's accesses are to its heap data, which the envelope sends past every
// frame: walking all the ranges held 12 % of run_batch_direct()'s samples
// on omp_tasks 1000000 4096 with 4 threads. Plain words, no padding: the
// replay compares two with memcmp.
struct StackRelocation {
    StackRange desc[2];
    StackRange frames[3];
    Addr frames_lo, frames_span;
    // Whether any address moves (most units move none: the serial part,
    // an implicit task).
    bool moves() const { return (desc[0].span | desc[1].span | frames_span) != 0; }
    // The replayed address of `a`. The replay's batch keeps a copy in its
    // locals (CoreSim.cpp): read through the global, every field was loaded
    // again at every access, since the cost-centre stores in between might
    // have changed it.
    Addr apply(Addr a) const {
        if (a - desc[0].lo < desc[0].span) return a + desc[0].delta;
        if (a - desc[1].lo < desc[1].span) return a + desc[1].delta;
        if (__builtin_expect(a - frames_lo >= frames_span, 1)) return a;
        for (const StackRange& r : frames)
            if (a - r.lo < r.span) return a + r.delta;
        return a;
    }
    // apply() for a batch that keeps the gap of its last address: the
    // widest interval [*gap_lo, *gap_lo + *gap_span) around `a` that no
    // range meets, when no range holds `a` (the gap is then set), else the
    // moved address (the gap left as it was). A task's heap accesses fall in
    // one gap for a whole batch, so the batch tests them with one compare
    // instead of apply()'s three: 13 of the 128 instructions an event took
    // on omp_tasks 200000 4096 (4 threads). Nothing moves: the gap is
    // every address.
    Addr apply_or_gap(Addr a, Addr* gap_lo, Addr* gap_span) const {
        Addr lo = 0, hi = ~Addr(0);
        auto near = [&](const StackRange& r) {
            if (!r.span) return false;
            if (a - r.lo < r.span) return true;
            Addr end = r.lo + r.span;
            if (end <= a && end > lo) lo = end;
            if (r.lo > a && r.lo < hi) hi = r.lo;
            return false;
        };
        for (const StackRange& r : desc)
            if (near(r)) return a + r.delta;
        for (const StackRange& r : frames)
            if (near(r)) return a + r.delta;
        *gap_lo = lo;
        *gap_span = hi - lo;
        return a;
    }
};

// Whether the anchors the relocation of `u` on a slot whose implicit task
// is `home` needs are recorded (or will never be: their units ended).
// An implicit task's anchor comes with its first program instruction, which
// may follow markers the replay acts on (GOMP_parallel_loop_* starts the
// loop before the outlined function runs).
bool relocation_ready(const Unit* u, const Unit* home);
// The relocation for the events of `u` replayed on a slot whose implicit
// task is `home` (null: none), with `open_tasks` other tasks open on the
// slot below it. Sets u->canon_sp (a task's own frames) on first use.
StackRelocation relocation_for(Unit* u, const Unit* home, u32 open_tasks);

}  // namespace ompsim

#endif
