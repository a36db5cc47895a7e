// What the OpenMP intake records and the replay scheduler consumes: logical
// units of work (each with its own event stream), teams, dynamic loops,
// single constructs and the markers that tie them together. The objects are
// created while recording; every field marked "replay" changes only while
// replaying, in the canonical order, so nothing the simulation sees depends
// on which operating-system thread ran what, or when.
#ifndef OMPSIM_VGTOOL_REPLAYMODEL_H
#define OMPSIM_VGTOOL_REPLAYMODEL_H

#include "EventStream.h"

namespace ompsim {

enum class UnitKind : u8 { Serial, Thread, Implicit, Chunk, Single, Task };

// Markers in streams (EventStream.h: kind and a 3-word payload a, b, c).
enum MarkerKind : u32 {
    kMkFork = 1,       // a = Team*: the encountering unit starts the team
    kMkJoin,           // a = Team*: waits for every implicit task of the team
    kMkBarrier,        // team barrier (explicit or implicit)
    kMkLock,           // a = wait id: critical section or lock acquired
    kMkUnlock,         // a = wait id, b = 1 if a nest lock stays held
    kMkDynLoop,        // a = Loop*: take chunks in iteration order until none is left
    kMkSingle,         // a = Single*: the first unit to arrive runs its body
    kMkTask,           // a = Unit* (the task): created here
    kMkTaskwait,       // waits for the children of the current unit
    kMkTaskgroupEnd,   // waits for every descendant of the current unit
    kMkSpawn,          // a = Unit* (a non-OpenMP thread): starts here
    kMkTaskMemory,     // a = descriptor address, b = length (0: forget it): the
                       // next kMkTask's descriptor, or with c = 1 the running
                       // task's own (TaskDescriptors.h)
    kMkRegion,         // a region event for the region profiler (RegionService.h)
    kMkWhatIf,         // a = OSPG site, b = label (0: the end): a what-if annotation (OspgService.h)
};

struct Team;
struct Loop;

struct Dep {
    uptr addr;
    u32 type;  // ompt_dependence_type_t
};

struct Unit {
    UnitKind kind;
    bool undeferred;       // task: runs at once in its creator
    bool scheduled;        // task: some thread started recording its body
    u32 wait_base;         // task: the thread's wait depth when it began (recording)
    Stream* s;
    Team* team;            // team whose members may run it (tasks: the creator's)
    Unit* parent;          // creator (tasks), encountering unit (implicit tasks)
    u32 thread_num;        // implicit tasks: thread number in the team
    // Recording counters of an implicit task: the k-th dynamic loop and the
    // k-th single construct it meets identify the construct team-wide.
    u32 loops_seen, singles_seen;
    u32 works_seen;        // worksharing constructs met (the region profile's identity)
    Loop* loop;            // implicit task: the dynamic loop it is in (recording)
    Long lb, ub;           // chunk bounds (inclusive)
    Dep* deps;
    u32 ndeps;
    u64 raw_id;            // the preload's id (tasks)
    u32 region;            // task: its TASK region; implicit task: the worksharing
                           // construct it is in (RegionTable.h; recording)
    // Where the unit was recorded: the recording thread's stack, the stack
    // pointer where a task's or an implicit task's frames begin (ref_sp, 0
    // until known; unused for chunks and singles) and the implicit task it
    // ran in (home; itself for an implicit task). The replay
    // moves the unit's stack accesses to the stack of the slot that runs it
    // (StackRelocation.h).
    Addr stack_lo, stack_hi;
    Addr ref_sp;
    Unit* home;
    // ---- replay
    bool created;          // task: its kMkTask was replayed
    bool done;
    u32 children_pending;
    u32 descendants_pending;
    u32 deps_pending;
    Unit** succ;           // tasks that depend on this one
    u32 nsucc, succ_cap;
    Unit* next_ready;      // in a member's ready deque, toward the newest
    Unit* prev_ready;      // toward the oldest
    u64 order;             // replay creation order
    Addr canon_sp;         // task: where the replay put its own frames
    // A single body or a chunk: how far the replay moved the frames around
    // it (its creator's, for the tasks it creates; StackRelocation.h).
    Addr frames_delta;
    bool frames_moved;
    // A task's descriptor [desc_lo, desc_lo + desc_len) and where the replay
    // put it; a descriptor the unit allocated and has not handed to its
    // task yet (kMkTaskMemory .. kMkTask) likewise (TaskDescriptors.h).
    Addr desc_lo, desc_len, desc_canon;
    Addr child_lo, child_len, child_canon;
    u32 ospg;              // task, non-OpenMP thread: its P node in the OSPG (OspgService.h;
                           // 0xffffffff until the replay created it)
};

struct Loop {
    Team* team;
    Long lb, ub, st;       // iteration space (inclusive), stride
    u32 sched;             // OMP_SCHED_* << 32 | chunk, as the runtime gave it
    Unit** chunks;         // recorded chunks sorted by lb (in iteration order)
    u32 nchunks, cap;
    // ---- replay
    Long next_lb;
    u32 next_index;
};

struct Single {
    Unit* body;            // null until the executing thread records it
    bool taken;            // replay
};

struct Team {
    u64 raw_id;
    u32 size;              // 0 until a member reports it
    Unit** members;        // members[k] = implicit task of thread k
    Loop** loops;
    u32 nloops, loops_cap;
    Single** singles;
    u32 nsingles, singles_cap;
    const HChar* where;    // source location of the parallel construct
    u32 region;            // its PARALLEL region (RegionTable.h)
    // ---- replay
    bool forked;
    u32 at_barrier;        // members waiting at the current barrier
    u32 ended;             // members whose implicit task finished
    u32 tasks_outstanding; // tasks created and not finished
    u32 barrier_gen;       // barriers completed
    struct Slot** slots;   // slots[k] runs member k (allocated at fork)
    // Ready tasks, one deque per member (allocated at the team's first
    // ready task): the tasks the member's slot created or released,
    // ready[2k] the oldest end, ready[2k+1] the newest.
    Unit** ready;
    u32 ospg;              // the team's handle in the OSPG builder (OspgService.h)
};

}  // namespace ompsim

#endif
