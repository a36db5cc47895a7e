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

struct StackRelocation {
    StackRange r[5];  // checked in order; the first with span 0 ends the list
    // The ranges from r[first_stack] on are frames (the descriptors before
    // them are heap blocks), all inside [stack_lo, stack_lo + stack_span):
    // most accesses of a task are to its heap data, which one compare then
    // sends past every frame range. relocate()'s walk of every range held
    // 12 % of run_batch_direct()'s samples on omp_tasks 1000000 4096 with
    // 4 threads.
    Addr stack_lo, stack_span;
    u64 first_stack;
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

// What a batch of the replay keeps in registers (CoreSim.cpp): the global
// StackRelocation's fields were loaded again for every access, since the
// stores to the cost centres in between might have changed them, and
// relocate()'s lines held 10 % of run_batch_direct()'s samples on
// omp_tasks 1000000 4096 (4 threads). Fixed places: the descriptors (at
// most two), the frames' envelope, the frames (at most three, in order:
// relocation_for()); an unused range has span 0.
struct BatchRelocation {
    Addr d0_lo = 0, d0_span = 0, d0_delta = 0, d1_lo = 0, d1_span = 0, d1_delta = 0;
    Addr env_lo, env_span;
    Addr f0_lo = 0, f0_span = 0, f0_delta = 0, f1_lo = 0, f1_span = 0, f1_delta = 0;
    Addr f2_lo = 0, f2_span = 0, f2_delta = 0;
    explicit BatchRelocation(const StackRelocation& rel) : env_lo(rel.stack_lo), env_span(rel.stack_span) {
        const StackRange* r = rel.r;
        u64 nd = rel.first_stack;
        if (nd > 0) d0_lo = r[0].lo, d0_span = r[0].span, d0_delta = r[0].delta;
        if (nd > 1) d1_lo = r[1].lo, d1_span = r[1].span, d1_delta = r[1].delta;
        const StackRange* f = r + nd;
        u64 nf = 5 - nd;
        if (nf > 0) f0_lo = f[0].lo, f0_span = f[0].span, f0_delta = f[0].delta;
        if (nf > 1) f1_lo = f[1].lo, f1_span = f[1].span, f1_delta = f[1].delta;
        if (nf > 2) f2_lo = f[2].lo, f2_span = f[2].span, f2_delta = f[2].delta;
    }
    // relocate(rel, a).
    Addr apply(Addr a) const {
        if (a - d0_lo < d0_span) return a + d0_delta;
        if (a - d1_lo < d1_span) return a + d1_delta;
        if (__builtin_expect(a - env_lo >= env_span, 1)) return a;
        if (a - f0_lo < f0_span) return a + f0_delta;
        if (a - f1_lo < f1_span) return a + f1_delta;
        if (a - f2_lo < f2_span) return a + f2_delta;
        return a;
    }
};

// On every replayed data access: a unit that is not moved (the serial
// part, an implicit task: most events) costs one compare.
inline Addr relocate(const StackRelocation& rel, Addr a) {
    u64 i = 0;
    for (; i < rel.first_stack; ++i)
        if (a - rel.r[i].lo < rel.r[i].span) return a + rel.r[i].delta;
    if (a - rel.stack_lo >= rel.stack_span) return a;
    for (; i < 5; ++i) {
        const StackRange& r = rel.r[i];
        if (!r.span) break;
        if (a - r.lo < r.span) return a + r.delta;
    }
    return a;
}

}  // namespace ompsim

#endif
