#include "OmpIntake.h"

#include "OspgService.h"

#include "EventSites.h"
#include "HeapWrapping.h"
#include "IdMap.h"
#include "OmpEvents.h"
#include "RegionService.h"
#include "RegionTable.h"
#include "Replay.h"
#include "RuntimeRegistration.h"
#include "ToolArray.h"

namespace ompsim {
namespace omp {

namespace {

// RuntimeRegistration.h; -v says when there was one.
void drop_dead_registration() {
    if (forget_dead_registration() && VG_(clo_verbosity) > 1)
        VG_(dmsg)("removed a dead OpenMP runtime's registration for this process from /dev/shm\n");
}

// OMPT constants used here (omp-tools.h, OpenMP 5.1).
enum : UWord {
    kThreadWorker = 2,
    kTaskInitial = 0x1,
    kTaskExplicit = 0x4,
    kTaskUndeferred = 0x08000000,
    kTaskMerged = 0x80000000,
    kWorkSingleExecutor = 3,
    kWorkSingleOther = 4,
    kSyncBarrier = 1,
    kSyncBarrierImplicit = 2,
    kSyncBarrierExplicit = 3,
    kSyncBarrierImplementation = 4,
    kSyncTaskwait = 5,
    kSyncTaskgroup = 6,
    kSyncReduction = 7,
    kSyncBarrierImplicitWorkshare = 8,
    kSyncBarrierImplicitParallel = 9,
    kSyncBarrierTeams = 10,
    kWorkLoop = 1,
    kWorkSections = 2,
    kWorkWorkshare = 5,
    kWorkTaskloop = 7,
    kMutexLock = 1,
    kMutexNestLock = 3,
    kMutexCritical = 5,
    kMutexOrdered = 7,
    kTaskComplete = 1,
    kTaskCancel = 3,
    kTaskDetach = 4,
};

constexpr u32 kMaxDepth = 64;

struct ThreadRec {
    bool seen;
    bool worker;        // an OpenMP worker: records only inside implicit tasks
    Unit* base;         // serial or non-OpenMP thread unit (null: none)
    // Open units, innermost last; tasks run at task scheduling points nest
    // without bound (a recursive merge sort with 4 threads passed 64).
    Unit** stack;
    u32* wait_at;       // wait depth when the unit was pushed
    u32 depth;
    u32 stack_cap, wait_cap;
    u32 wait;           // nested waits (barrier, lock acquisition, taskwait)
    bool acquiring;     // between mutex_acquire and mutex_acquired
    u32 acquiring_kind; // its ompt_mutex_t
    u32 mutex_region[kMaxDepth];   // critical/ordered regions held (innermost last)
    u32 nmutex;
    u32 masked_region[kMaxDepth];  // masked/master regions open
    u32 nmasked;
    bool in_runtime;    // the runtime called the code running now
    // A task created with dependences: its kMkTask waits for them
    // (OMP_EV_TASK_DEPENDENCES follows TASK_CREATE in the same thread).
    Unit* pending_task;
};

Options g_opt;
bool g_streaming;
bool g_openmp;
bool g_gomp;        // a gcc-built program (libgomp calls forwarded to libomp)
ThreadRec* g_threads;
u32 g_nthreads;
IdMap g_teams;   // parallel id -> Team*
IdMap g_tasks;   // task id -> Unit*
Team* g_team0;   // the initial thread's implicit team of one

// Runtime code ranges (text of libomp / libgomp), cached per object.
struct Range {
    Addr lo, hi;
};
Range g_runtime[8];
u32 g_nruntime;

template <typename T>
T* zalloc(SizeT n = 1) {
    T* p = static_cast<T*>(VG_(malloc)("ompsim.omp", n * sizeof(T)));
    VG_(memset)(p, 0, n * sizeof(T));
    return p;
}

Unit* new_unit(UnitKind kind, Team* team) {
    Unit* u = zalloc<Unit>();
    u->ospg = 0xffffffffu;
    u->kind = kind;
    u->team = team;
    u->s = stream::create(u);
    return u;
}

ThreadRec& rec(ThreadId tid) {
    tl_assert(tid < g_nthreads);
    return g_threads[tid];
}

// The stream the thread records into now.
Stream* recording_stream(const ThreadRec& t) {
    if (t.in_runtime) return nullptr;
    Stream* s;
    if (t.depth)
        s = t.wait_at[t.depth - 1] == t.wait ? t.stack[t.depth - 1]->s : nullptr;
    else
        s = t.wait || !t.base ? nullptr : t.base->s;
    return s && !s->closed ? s : nullptr;
}

ThreadId g_running;

void refresh(ThreadId tid) {
    if (tid == g_running) stream::set_current(recording_stream(rec(tid)));
}

Unit* top(ThreadRec& t) { return t.depth ? t.stack[t.depth - 1] : t.base; }

Unit* implicit_of(ThreadRec& t);

// A unit's stack anchors (ReplayModel.h): the stack and the implicit task
// when its recording starts; ref_sp, for a task's body or an implicit
// task's outlined function, at the first instruction of the program it runs
// (enter_owner), where the runtime called it. The runtime's frames above
// that differ between the initial thread and the workers (by 64 bytes in
// libomp 14), so the callback's stack pointer would not do.
bool anchored_at_entry(const Unit* u) { return u->kind == UnitKind::Task || u->kind == UnitKind::Implicit; }

// The program's call site on tid's stack (an address inside the call
// instruction, as OMPT's code pointers less one): the first frame below the
// preload's OMPT callback and the runtime's frames in the program's code; 0
// if none is within 8 frames.
Addr program_call_site(ThreadId tid) {
    Addr ips[8];
    UInt n = VG_(get_StackTrace)(tid, ips, 8, nullptr, nullptr, 0);
    for (UInt i = 1; i < n; ++i)
        if (owner_of(ips[i]) == kOwnerProgram) return ips[i];
    return 0;
}

void anchor(ThreadId tid, ThreadRec& t, Unit* u) {
    if (u->stack_hi) return;  // a task resumed after a task switch keeps its first
    Addr max = VG_(thread_get_stack_max)(tid);
    u->stack_hi = max + 1;
    u->stack_lo = u->stack_hi - VG_(thread_get_stack_size)(tid);
    u->home = u->kind == UnitKind::Implicit ? u : implicit_of(t);
}

void push(ThreadId tid, Unit* u) {
    ThreadRec& t = rec(tid);
    reserve(t.stack, t.stack_cap, t.depth + 1, 16, "ompsim.omp");
    reserve(t.wait_at, t.wait_cap, t.depth + 1, 16, "ompsim.omp");
    anchor(tid, t, u);
    t.stack[t.depth] = u;
    t.wait_at[t.depth] = t.wait;
    ++t.depth;
    refresh(tid);
}

Unit* pop(ThreadId tid, bool close) {
    ThreadRec& t = rec(tid);
    if (!t.depth) return nullptr;
    Unit* u = t.stack[--t.depth];
    if (close) stream::close(u->s);
    refresh(tid);
    return u;
}

// The innermost implicit task of the thread (or the initial thread's
// serial unit, a member of the implicit team of one).
Unit* implicit_of(ThreadRec& t) {
    for (u32 i = t.depth; i > 0; --i)
        if (t.stack[i - 1]->kind == UnitKind::Implicit) return t.stack[i - 1];
    return t.base && t.base->kind == UnitKind::Serial ? t.base : nullptr;
}

Team* team_of(ThreadRec& t) {
    Unit* iu = implicit_of(t);
    return iu ? iu->team : nullptr;
}

void emit(ThreadId tid, u32 kind, uptr a, uptr b = 0, uptr c = 0) {
    Unit* u = top(rec(tid));
    if (u && !u->s->closed) stream::append_marker(u->s, kind, a, b, c);
}

// Region events (RegionService.h), in the stream the thread records into, or
// in `u`'s.
void emit_region(ThreadId tid, regions::RegionEvent ev, u32 region, regions::RegionType type, u64 team = 0,
                 u32 flag = 0) {
    emit(tid, kMkRegion, region, regionsvc::pack(ev, type, flag), team);
}
void emit_region_in(Unit* u, regions::RegionEvent ev, u32 region, regions::RegionType type) {
    if (u && !u->s->closed) stream::append_marker(u->s, kMkRegion, region, regionsvc::pack(ev, type, 0), 0);
}

regions::RegionType work_region_type(UWord work) {
    switch (work) {
        case kWorkSections:
            return regions::kSections;
        case kWorkSingleExecutor:
        case kWorkSingleOther:
            return regions::kSingle;
        default:
            return regions::kLoop;
    }
}

bool mutex_region(UWord kind, regions::RegionType& type) {
    switch (kind) {
        case kMutexCritical:
            type = regions::kCritical;
            return true;
        case kMutexOrdered:
            type = regions::kOrdered;
            return true;
        case kMutexLock:
        case kMutexNestLock:
            type = regions::kLock;
            return true;
        default:
            return false;  // test locks (no wait), atomics
    }
}


Loop* team_loop(Team* team, u32 k, const UWord* args) {
    reserve(team->loops, team->loops_cap, k + 1, 8, "ompsim.omp");
    if (k >= team->nloops) team->nloops = k + 1;
    Loop*& l = team->loops[k];
    if (!l) {
        l = zalloc<Loop>();
        l->team = team;
        l->lb = (Long)args[2];
        l->ub = (Long)args[3];
        l->st = (Long)args[4] ? (Long)args[4] : 1;
        l->sched = (u32)(args[5] >> 32);
    }
    return l;
}

Single* team_single(Team* team, u32 k) {
    reserve(team->singles, team->singles_cap, k + 1, 8, "ompsim.omp");
    if (k >= team->nsingles) team->nsingles = k + 1;
    Single*& s = team->singles[k];
    if (!s) s = zalloc<Single>();
    return s;
}

// Chunks are kept in iteration order; they arrive almost sorted (the order
// threads reported them after taking them).
void add_chunk(Loop* l, Unit* c) {
    reserve(l->chunks, l->cap, l->nchunks + 1, 8, "ompsim.omp");
    u32 i = l->nchunks++;
    bool up = l->st > 0;
    while (i > 0 && (up ? l->chunks[i - 1]->lb > c->lb : l->chunks[i - 1]->lb < c->lb)) {
        l->chunks[i] = l->chunks[i - 1];
        --i;
    }
    l->chunks[i] = c;
}

void pop_chunk(ThreadId tid) {
    ThreadRec& t = rec(tid);
    if (t.depth && t.stack[t.depth - 1]->kind == UnitKind::Chunk) pop(tid, true);
}

const HChar* const kNames[] = {"?",           "tool-init",    "thread-begin", "thread-end",
                               "parallel-begin", "parallel-end", "implicit-begin", "implicit-end",
                               "work-begin",  "work-end",     "loop-init",    "chunk",
                               "loop-done",   "sync-begin",   "sync-end",     "sync-wait-begin",
                               "sync-wait-end", "mutex-acquire", "mutex-acquired", "mutex-released",
                               "masked-begin", "masked-end",  "task-create",  "task-dependences",
                               "task-dependence", "task-schedule", "callback-unavailable", "task-alloc",
                               "func-enter",  "func-exit",    "runtime-start"};

void copy_deps(Unit* u, Addr array, UWord n) {
    if (!u || !n || n > 4096) return;
    // ompt_dependence_t: { ompt_data_t variable; ompt_dependence_type_t type; }
    struct Raw {
        uptr var;
        UInt type;
        UInt pad;
    };
    const Raw* raw = reinterpret_cast<const Raw*>(array);
    u->deps = zalloc<Dep>(n);
    u->ndeps = (u32)n;
    for (UWord i = 0; i < n; ++i) {
        u->deps[i].addr = raw[i].var;
        u->deps[i].type = raw[i].type;
    }
}

}  // namespace

void init(const Options& o) {
    g_opt = o;
    // Valgrind's thread ids are below VG_N_THREADS (--max-threads, 500 by
    // default), final once the options are read.
    g_nthreads = VG_N_THREADS;
    g_threads = zalloc<ThreadRec>(g_nthreads);
    g_teams.init(tool_allocator());
    g_tasks.init(tool_allocator());
    g_running = 1;
}

const Options& options() { return g_opt; }

bool streaming() { return g_streaming; }

bool start_streaming() {
    if (g_streaming) return false;
    g_streaming = true;
    cost::defer_discards(true);
    g_team0 = zalloc<Team>();
    g_team0->size = 1;
    g_team0->members = zalloc<Unit*>(1);
    Unit* serial = new_unit(UnitKind::Serial, g_team0);
    g_team0->members[0] = serial;
    ThreadRec& t = rec(1);  // Valgrind's initial thread
    t.seen = true;
    t.base = serial;
    replay::start(serial);
    refresh(1);
    if (g_running != 1) stream::set_current(recording_stream(rec(g_running)));
    return true;
}

UInt g_owner;

void enter_owner(UInt owner) {
    g_owner = owner;
    ThreadRec& t = rec(g_running);
    t.in_runtime = owner == kOwnerRuntime;
    if (!t.in_runtime && t.depth) {
        Unit* u = t.stack[t.depth - 1];
        if (!u->ref_sp && anchored_at_entry(u)) {
            // The return address the entry was called with is its frames' top.
            u->ref_sp = VG_(get_SP)(g_running) + sizeof(Addr);
        }
    }
    refresh(g_running);
}

void thread_running(ThreadId tid) {
    g_running = tid;
    g_owner = rec(tid).in_runtime ? kOwnerRuntime : kOwnerProgram;
    if (g_streaming) stream::set_current(recording_stream(rec(tid)));
}

void forked_child() {
    // libomp's fork handler makes the child initialize again at its next
    // OpenMP call, which registers under the child's pid, without asking
    // the tool to start (requests_fork's child left such a file at its
    // _exit).
    if (g_openmp) drop_dead_registration();
}

void thread_created(ThreadId parent, ThreadId child) {
    ThreadRec& c = rec(child);
    VG_(memset)(&c, 0, sizeof c);
    c.seen = true;
    if (g_openmp) {
        // The runtime's workers: nothing to record until an implicit task.
        c.worker = true;
        return;
    }
    // A thread of a program without an OpenMP runtime (or started before
    // it): its own unit, started in the replay where its parent created it.
    c.base = new_unit(UnitKind::Thread, nullptr);
    emit(parent, kMkSpawn, reinterpret_cast<uptr>(c.base));
}

void thread_exiting(ThreadId tid) {
    ThreadRec& t = rec(tid);
    while (t.depth) pop(tid, true);
    if (t.base) stream::close(t.base->s);
    refresh(tid);
}

void close_all() {
    if (!g_streaming) return;
    for (u32 i = 0; i < g_nthreads; ++i) {
        ThreadRec& t = g_threads[i];
        if (!t.seen) continue;
        while (t.depth) stream::close(t.stack[--t.depth]->s);
        if (t.base) stream::close(t.base->s);
    }
    stream::set_current(nullptr);
}

void handle_event(ThreadId tid, const UWord* args) {
    UWord kind = args[1];
    if (g_opt.trace) {
        const HChar* name = kind < sizeof kNames / sizeof kNames[0] ? kNames[kind] : "?";
        VG_(umsg)("omp: T%u %s %lx %lx %lx %lx\n", tid, name, args[2], args[3], args[4], args[5]);
    }
    if (kind == OMP_EV_RUNTIME_START) {
        g_openmp = true;
        heapwrap::runtime_started();
        drop_dead_registration();  // before the runtime registers itself
        return;  // the tool switches to streaming (ToolMain.cpp)
    }
    if (kind == OMP_EV_TOOL_INIT) {
        g_openmp = true;
        g_gomp = args[3] == 2;
        return;  // the tool switches to streaming (ToolMain.cpp)
    }
    if (!g_streaming) return;
    ThreadRec& t = rec(tid);
    t.seen = true;
    // The replay must see a task's dependences when it replays the task's
    // creation, or whether they order it would depend on how far the replay
    // had got: the marker goes into the stream once they are known (at the
    // latest with the thread's next event).
    if (t.pending_task && kind != OMP_EV_TASK_DEPENDENCES && kind != OMP_EV_TASK_DEPENDENCE) {
        emit(tid, kMkTask, reinterpret_cast<uptr>(t.pending_task));
        t.pending_task = nullptr;
    }
    switch (kind) {
        case OMP_EV_THREAD_BEGIN:
            if (args[2] == kThreadWorker && !t.worker) {
                // Started before the runtime registered: drop its unit.
                t.worker = true;
                if (t.base) stream::close(t.base->s);
                t.base = nullptr;
                refresh(tid);
            }
            break;
        case OMP_EV_THREAD_END:
            break;
        case OMP_EV_PARALLEL_BEGIN: {
            Team* team = zalloc<Team>();
            team->raw_id = args[2];
            u32 known = regiontab::count();
            team->region = regiontab::construct(regions::kParallel, args[5]);
            // For -v: once in CI (omp_nested, 1 run in hundreds) the master's
            // inner fork came with a code pointer that has no source line,
            // and the inner region was counted twice; its value will say
            // whose code it was.
            if (VG_(clo_verbosity) > 1 && team->region >= known && !regiontab::get(team->region).file[0])
                VG_(dmsg)("a parallel region began at code pointer %#lx, which has no source line\n", args[5]);
            g_teams.put(args[2], team);
            emit_region(tid, regions::kEnter, team->region, regions::kParallel, reinterpret_cast<uptr>(team));
            emit(tid, kMkFork, reinterpret_cast<uptr>(team));
            break;
        }
        case OMP_EV_PARALLEL_END: {
            Team* team = static_cast<Team*>(g_teams.get(args[2]));
            if (team) {
                emit(tid, kMkJoin, reinterpret_cast<uptr>(team));
                emit_region(tid, regions::kExit, team->region, regions::kParallel, reinterpret_cast<uptr>(team));
            }
            break;
        }
        case OMP_EV_IMPLICIT_TASK_BEGIN: {
            if ((args[5] & 0xf) & kTaskInitial) break;
            Team* team = static_cast<Team*>(g_teams.get(args[2]));
            if (!team) break;
            u32 size = (u32)args[3], num = (u32)args[4];
            if (!team->size) {
                team->size = size;
                team->members = zalloc<Unit*>(size);
            }
            if (num >= team->size || team->members[num]) break;
            Unit* u = new_unit(UnitKind::Implicit, team);
            u->thread_num = num;
            team->members[num] = u;
            g_tasks.put(args[5] >> 4, u);
            push(tid, u);
            emit_region(tid, regions::kTeamBegin, team->region, regions::kParallel, reinterpret_cast<uptr>(team));
            break;
        }
        case OMP_EV_IMPLICIT_TASK_END: {
            if ((args[5] & 0xf) & kTaskInitial) break;
            // Whatever is still open above the implicit task ends with it.
            while (t.depth && top(t)->kind != UnitKind::Implicit) pop(tid, true);
            if (!t.depth) break;
            Unit* iu = top(t);
            emit_region(tid, regions::kTeamEnd, iu->team->region, regions::kParallel, reinterpret_cast<uptr>(iu->team));
            pop(tid, true);
            break;
        }
        case OMP_EV_WORK_BEGIN:
        case OMP_EV_WORK_END: {
            bool single = args[2] == kWorkSingleExecutor || args[2] == kWorkSingleOther;
            bool shared = single || args[2] == kWorkLoop || args[2] == kWorkSections ||
                          args[2] == kWorkWorkshare || args[2] == kWorkTaskloop;
            if (!shared) break;
            regions::RegionType rt = work_region_type(args[2]);
            Unit* iu = implicit_of(t);
            u32 region;
            if (kind == OMP_EV_WORK_BEGIN) {
                // A worksharing construct is the k-th of its parallel region
                // (every thread of a team meets the same ones in the same
                // order): gcc-built programs give workers no code pointer.
                Team* team = iu ? iu->team : nullptr;
                if (team && team != g_team0)
                    region = regiontab::construct_keyed(rt, Addr(1) << 63 | Addr(team->region) << 32 | iu->works_seen++,
                                                        args[4]);
                else
                    region = regiontab::construct(rt, args[4]);
                if (iu) iu->region = region;
            } else {
                // The line range: from its begin to its end, as thread 0 of
                // a libomp program says (gcc-built programs' end code
                // pointers point into the runtime, or wherever timing left them).
                region = iu ? iu->region : regions::kNoRegion;
                if (!g_gomp && iu && iu->thread_num == 0) regiontab::widen(region, args[4]);
            }
            if (kind == OMP_EV_WORK_END) {
                if (args[2] == kWorkSingleExecutor && t.depth && top(t)->kind == UnitKind::Single) {
                    emit_region(tid, regions::kBodyEnd, region, rt);
                    pop(tid, true);
                } else if (!single) {
                    pop_chunk(tid);  // the last chunk ended in the dispatch call that reports the end
                }
                emit_region(tid, regions::kWorkEnd, region, rt);
                break;
            }
            emit_region(tid, regions::kEnter, region, rt);
            if (!single || !iu) break;
            Single* s = team_single(iu->team, iu->singles_seen++);
            emit(tid, kMkSingle, reinterpret_cast<uptr>(s));
            if (args[2] == kWorkSingleExecutor && !s->body) {
                s->body = new_unit(UnitKind::Single, iu->team);
                push(tid, s->body);
                emit_region(tid, regions::kBodyBegin, region, rt);
            }
            break;
        }
        case OMP_EV_LOOP_INIT: {
            Unit* iu = implicit_of(t);
            if (!iu) break;
            pop_chunk(tid);
            iu->loop = team_loop(iu->team, iu->loops_seen++, args);
            emit(tid, kMkDynLoop, reinterpret_cast<uptr>(iu->loop));
            break;
        }
        case OMP_EV_CHUNK: {
            // Loop state belongs to the implicit task: a region nested in a
            // chunk runs its own loops, then the outer chunks resume.
            pop_chunk(tid);
            Unit* iu = implicit_of(t);
            if (!iu || !iu->loop) break;
            Unit* c = new_unit(UnitKind::Chunk, iu->loop->team);
            c->lb = (Long)args[2];
            c->ub = (Long)args[3];
            add_chunk(iu->loop, c);
            push(tid, c);
            break;
        }
        case OMP_EV_LOOP_DONE: {
            pop_chunk(tid);
            Unit* iu = implicit_of(t);
            if (iu) iu->loop = nullptr;
            break;
        }
        case OMP_EV_SYNC_BEGIN:
        case OMP_EV_SYNC_END: {
            bool begin = kind == OMP_EV_SYNC_BEGIN;
            switch (args[2]) {
                case kSyncBarrier:
                case kSyncBarrierImplicit:
                case kSyncBarrierExplicit:
                case kSyncBarrierImplementation:
                case kSyncBarrierImplicitWorkshare:
                case kSyncBarrierImplicitParallel: {
                    // The region profiler gives an implicit barrier to the
                    // construct it ends; an explicit one is a BARRIER region.
                    u32 implicit = args[2] != kSyncBarrierExplicit && args[2] != kSyncBarrier;
                    u32 region = regiontab::construct(regions::kBarrier, args[3]);
                    if (begin) {
                        pop_chunk(tid);
                        emit_region(tid, regions::kBarrierBegin, region, regions::kBarrier, 0, implicit);
                        emit(tid, kMkBarrier, 0);
                    } else {
                        emit_region(tid, regions::kBarrierEnd, region, regions::kBarrier, 0, implicit);
                    }
                    break;
                }
                case kSyncTaskwait:
                case kSyncTaskgroup:
                case kSyncReduction: {
                    regions::RegionType rt = args[2] == kSyncTaskwait    ? regions::kTaskwait
                                             : args[2] == kSyncTaskgroup ? regions::kTaskgroup
                                                                         : regions::kReduction;
                    u32 region = regiontab::construct(rt, args[3]);
                    if (!begin) {
                        emit_region(tid, regions::kExit, region, rt);
                        break;
                    }
                    emit_region(tid, regions::kEnter, region, rt);
                    if (rt == regions::kTaskwait) emit(tid, kMkTaskwait, 0);
                    if (rt == regions::kTaskgroup) emit(tid, kMkTaskgroupEnd, 0);
                    break;
                }
                default:
                    break;
            }
            break;
        }
        case OMP_EV_SYNC_WAIT_BEGIN:
            ++t.wait;
            refresh(tid);
            break;
        case OMP_EV_SYNC_WAIT_END:
            if (t.wait) --t.wait;
            refresh(tid);
            break;
        case OMP_EV_MUTEX_ACQUIRE: {
            if (t.acquiring) break;
            t.acquiring = true;
            t.acquiring_kind = (u32)args[2];
            regions::RegionType rt;
            if (mutex_region(args[2], rt)) {
                u32 region = regiontab::construct(rt, args[4]);
                emit_region(tid, regions::kEnter, region, rt);
                if (rt != regions::kLock && t.nmutex < kMaxDepth) t.mutex_region[t.nmutex++] = region;
            }
            ++t.wait;
            refresh(tid);
            break;
        }
        case OMP_EV_MUTEX_ACQUIRED: {
            bool was = t.acquiring;
            if (t.acquiring) {
                t.acquiring = false;
                if (t.wait) --t.wait;
                refresh(tid);
            }
            emit(tid, kMkLock, args[3], args[5]);
            regions::RegionType rt;
            if (was && mutex_region(t.acquiring_kind, rt))
                // A lock's region is its acquisition; a critical's or an
                // ordered's body follows.
                emit_region(tid, rt == regions::kLock ? regions::kExit : regions::kBodyBegin, 0, rt);
            break;
        }
        case OMP_EV_MUTEX_RELEASED: {
            regions::RegionType rt;
            bool body = mutex_region(args[2], rt) && rt != regions::kLock && t.nmutex;
            if (body) emit_region(tid, regions::kBodyEnd, 0, rt);
            emit(tid, kMkUnlock, args[3], args[5]);
            if (body) {
                u32 region = t.mutex_region[--t.nmutex];
                // libomp 14's release code pointers read thread 0's saved
                // return address (OmpEvents.h), which another thread's
                // release may have taken first: thread 0's own was 0 in one
                // run of tour in eleven under load (last line 28, not 29).
                // So the end is the call site on the releasing thread's
                // stack, whichever thread releases first.
                if (!regiontab::end_located(region)) regiontab::widen_to_end(region, program_call_site(tid));
                emit_region(tid, regions::kExit, region, rt);
            }
            break;
        }
        case OMP_EV_MASKED_BEGIN: {
            u32 region = regiontab::construct(regions::kMaster, args[2]);
            if (t.nmasked < kMaxDepth) t.masked_region[t.nmasked++] = region;
            emit_region(tid, regions::kEnter, region, regions::kMaster);
            break;
        }
        case OMP_EV_MASKED_END:
            if (t.nmasked) {
                u32 region = t.masked_region[--t.nmasked];
                regiontab::widen(region, args[2]);
                emit_region(tid, regions::kExit, region, regions::kMaster);
            }
            break;
        case OMP_EV_TASK_CREATE: {
            if (!(args[3] & kTaskExplicit)) break;
            Unit* creator = top(t);
            Team* team = team_of(t);
            Unit* u = new_unit(UnitKind::Task, team ? team : g_team0);
            u->raw_id = args[2];
            u->parent = creator;
            u->undeferred = (args[3] & (kTaskUndeferred | kTaskMerged)) != 0;
            u->region = regiontab::construct(regions::kTask, args[5]);
            g_tasks.put(args[2], u);
            if (args[4])
                t.pending_task = u;
            else
                emit(tid, kMkTask, reinterpret_cast<uptr>(u));
            break;
        }
        case OMP_EV_FUNC_ENTER:
            emit_region(tid, regions::kEnter, regiontab::function(args[2]), regions::kFunction);
            break;
        case OMP_EV_FUNC_EXIT: {
            u32 region = regiontab::function(args[2]);
            regiontab::widen(region, args[3]);
            emit_region(tid, regions::kExit, region, regions::kFunction);
            break;
        }
        case OMP_EV_TASK_ALLOC:
            emit(tid, kMkTaskMemory, args[2], args[3], args[4]);
            break;
        case OMP_EV_TASK_DEPENDENCES: {
            Unit* u = static_cast<Unit*>(g_tasks.get(args[2]));
            copy_deps(u, (Addr)args[3], args[4]);
            if (u && u == t.pending_task) {
                emit(tid, kMkTask, reinterpret_cast<uptr>(u));
                t.pending_task = nullptr;
            }
            break;
        }
        case OMP_EV_TASK_DEPENDENCE:
            // The runtime reports a pair only if the source had not ended
            // yet: timing. The replay and the OSPG match addresses instead.
            break;
        case OMP_EV_TASK_SCHEDULE: {
            Unit* prior = static_cast<Unit*>(g_tasks.get(args[2]));
            Unit* next = static_cast<Unit*>(g_tasks.get(args[4]));
            if (prior && prior->kind == UnitKind::Task) {
                bool done = args[3] == kTaskComplete || args[3] == kTaskCancel || args[3] == kTaskDetach;
                // Pop down to the prior task (a chunk left open above it ends too).
                for (u32 i = t.depth; i > 0; --i) {
                    if (t.stack[i - 1] != prior) continue;
                    while (t.depth >= i) {
                        Unit* u = pop(tid, false);
                        if (u == prior && done) emit_region_in(u, regions::kExit, u->region, regions::kTask);
                        if (u != prior || done) stream::close(u->s);
                    }
                    break;
                }
            }
            if (next && next->kind == UnitKind::Task && !next->s->closed) {
                // A task resumed after a switch (back from a child it ran in
                // its taskwait) records again when the thread's wait depth is
                // back to where the task began, not where the switch left it
                // (inside the taskwait's wait): else everything after a
                // taskwait whose children ran on this thread was lost.
                bool resumed = next->scheduled;
                next->scheduled = true;
                push(tid, next);
                if (!resumed) emit_region_in(next, regions::kEnter, next->region, regions::kTask);
                if (resumed)
                    t.wait_at[t.depth - 1] = next->wait_base;
                else
                    next->wait_base = t.wait;
                refresh(tid);
            }
            break;
        }
        default:
            break;
    }
    replay::advance();
}

void user_region(ThreadId tid, bool begin, const HChar* name, Addr where) {
    if (!g_streaming) return;
    u32 region = begin ? regiontab::user(name, where) : regiontab::find_user(name);
    if (region == regions::kNoRegion) {
        static bool warned;
        if (!warned)
            VG_(umsg)("warning: OMPSIM_REGION_END(\"%s\") without an OMPSIM_REGION_BEGIN of that name: ignored "
                      "(further ones are not reported)\n", name);
        warned = true;
        return;
    }
    if (!begin) regiontab::widen(region, where);
    emit_region(tid, begin ? regions::kEnter : regions::kExit, region, regions::kUser);
    replay::advance();
}

void point_event(ThreadId tid, const HChar* name, ULong size, Long partner, Addr where) {
    if (!g_streaming) return;
    emit(tid, kMkRegion, eventsites::site(name, where), regionsvc::pack_point(partner >= 0, (Int)partner), size);
    replay::advance();
}

void whatif(ThreadId tid, bool begin, const HChar* label, Addr where) {
    if (!g_streaming || !ospgsvc::enabled()) return;
    u32 id = ospgsvc::label_id(label);
    emit(tid, kMkWhatIf, ospgsvc::whatif_site(id, begin, where), begin ? id : 0);
    replay::advance();
}

bool runtime_code(Addr a) { return !g_opt.simulate_runtime && owner_of(a) == kOwnerRuntime; }

namespace {
Range g_neutral[16];
u32 g_nneutral;
Range g_program_cache;
}  // namespace

// The object `a` lies in decides, whichever of its sections (a PLT stub of
// libomp is the runtime's too).
CodeOwner owner_of(Addr a) {
    for (u32 i = 0; i < g_nruntime; ++i)
        if (a >= g_runtime[i].lo && a < g_runtime[i].hi) return kOwnerRuntime;
    for (u32 i = 0; i < g_nneutral; ++i)
        if (a >= g_neutral[i].lo && a < g_neutral[i].hi) return kOwnerNeutral;
    if (a >= g_program_cache.lo && a < g_program_cache.hi) return kOwnerProgram;
    DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
    if (!di) return kOwnerNeutral;  // no object (the vDSO, generated code): the caller's
    Addr lo = VG_(DebugInfo_get_text_avma)(di);
    Addr hi = lo + VG_(DebugInfo_get_text_size)(di);
    bool in_text = a >= lo && a < hi;
    const HChar* so = VG_(DebugInfo_get_soname)(di);
    // Objects without DT_SONAME (the program, Valgrind's and ompsim's
    // preloads) are reported as "NONE": name those by their file instead,
    // or the preload's malloc wrapper counts as the program's code whoever
    // calls it.
    if (!so || VG_(strcmp)(so, "NONE") == 0) {
        const HChar* file = VG_(DebugInfo_get_filename)(di);
        so = file ? VG_(basename)(file) : "";
    }
    if (has_prefix(so, "libomp.so") || has_prefix(so, "libgomp.so") || has_prefix(so, "libiomp5.so")) {
        if (in_text && g_nruntime < 8) g_runtime[g_nruntime++] = Range{lo, hi};
        return kOwnerRuntime;
    }
    static const HChar* const kNeutral[] = {"libc.so", "ld-linux", "libpthread.so", "libdl.so", "librt.so",
                                            "libm.so", "libgcc_s.so", "libstdc++.so", "vgpreload_", "linux-vdso"};
    for (const HChar* p : kNeutral)
        if (has_prefix(so, p)) {
            if (in_text && g_nneutral < 16) g_neutral[g_nneutral++] = Range{lo, hi};
            return kOwnerNeutral;
        }
    if (in_text) g_program_cache = Range{lo, hi};
    return kOwnerProgram;
}

namespace {

// Functions of an object that are not recorded once threads run, found
// from its symbol table once per object: its IFUNC resolvers (glibc's
// memcpy, memcmp, strlen ...: the dynamic linker calls them when it binds
// such a symbol, so they run on its behalf although they lie in the C
// library; a few hundred in libc) and, in the C library, its
// synchronisation (kLibcWaits below).
struct UnrecordedObject {
    Addr text_lo;
    u32 first, n;  // their ranges in g_unrec
};
// Every object asked about has an entry (most with no resolvers), so the
// list grows with the objects of the run: a fixed size would have left the
// resolvers of a large program's later objects recorded.
UnrecordedObject* g_unrec_objects;
u32 g_nunrec_objects, g_unrec_objects_cap;
Range* g_unrec;
u32 g_nunrec, g_unrec_cap;

// The C library's synchronisation (glibc 2.36): how often a wait loops,
// whether a join or an unlock takes its slow path, and which thread takes
// the last arriver's path through a barrier depend on timing.
// tests/progs/many_threads (200 threads, a barrier, 200 joins) gave 4
// different documents in 10 runs side by side, all deterministic="true":
// main's pthread_join went to sleep, or did not, on a thread still running
// (__pthread_clockjoin_ex, the futex wait, the asynchronous-cancellation
// switch around it: 94 instructions), and the threads that came last to
// the barrier swapped their costs. As the OpenMP runtime's are, these
// functions are not recorded once threads run (names as Valgrind gives
// them, the version after '@' left out; any alias matches).
const HChar* const kLibcWaits[] = {
    "pthread_join", "__pthread_clockjoin_ex", "pthread_clockjoin_np", "pthread_timedjoin_np",
    "__futex_abstimed_wait_common", "__futex_abstimed_wait_cancelable64", "__futex_abstimed_wait64",
    "__pthread_enable_asynccancel", "__pthread_disable_asynccancel", "__lll_lock_wait",
    "__lll_lock_wait_private", "__lll_lock_wake", "__lll_lock_wake_private", "pthread_barrier_wait",
    "pthread_mutex_lock", "__pthread_mutex_lock_full", "pthread_mutex_trylock", "pthread_mutex_timedlock",
    "pthread_mutex_clocklock", "pthread_mutex_unlock", "__pthread_mutex_unlock_usercnt",
    "__pthread_mutex_unlock_full", "pthread_cond_wait", "pthread_cond_timedwait", "pthread_cond_clockwait",
    "__pthread_cond_wait_common", "pthread_cond_signal", "pthread_cond_broadcast",
    "__condvar_quiesce_and_switch_g1", "__condvar_dec_grefs", "__condvar_confirm_wakeup",
    "__condvar_cancel_waiting", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_rwlock_unlock",
    "pthread_spin_lock", "__pthread_spin_lock", "sem_wait", "__new_sem_wait", "__new_sem_wait_slow64",
    "sem_timedwait", "sem_clockwait", "sem_post", "__new_sem_post", "__pthread_once_slow",
};

// `name` without its version ("pthread_mutex_lock@@GLIBC_2.2.5"), or with
// glibc's internal prefixes ("___pthread_barrier_wait", "__GI_..."), is
// one of kLibcWaits.
bool libc_wait(const HChar* name) {
    if (!name) return false;
    if (VG_(strncmp)(name, "__GI_", 5) == 0) name += 5;
    for (int pass = 0; pass < 2; ++pass) {
        SizeT n = 0;
        while (name[n] && name[n] != '@') ++n;
        for (const HChar* w : kLibcWaits)
            if (VG_(strlen)(w) == n && VG_(strncmp)(name, w, n) == 0) return true;
        // "___pthread_barrier_wait", "__pthread_mutex_lock": the public name
        // with glibc's underscores.
        while (*name == '_') ++name;
    }
    return false;
}

bool libc_wait_symbol(const HChar* pri, const HChar** sec) {
    if (libc_wait(pri)) return true;
    for (; sec && *sec; ++sec)
        if (libc_wait(*sec)) return true;
    return false;
}

const UnrecordedObject* unrecorded_functions(const DebugInfo* di) {
    Addr text = VG_(DebugInfo_get_text_avma)(di);
    for (u32 i = 0; i < g_nunrec_objects; ++i)
        if (g_unrec_objects[i].text_lo == text) return &g_unrec_objects[i];
    reserve(g_unrec_objects, g_unrec_objects_cap, g_nunrec_objects + 1, 16, "ompsim.unrec");
    UnrecordedObject& o = g_unrec_objects[g_nunrec_objects++];
    o.text_lo = text;
    o.first = g_nunrec;
    const HChar* so = VG_(DebugInfo_get_soname)(di);
    bool libc = so && has_prefix(so, "libc.so");
    Int n = vgPlain_DebugInfo_syms_howmany(di);
    for (Int i = 0; i < n; ++i) {
        SymbolEntry e = symbol_entry(di, i);
        if (e.size == 0 || !(e.is_ifunc || (libc && e.is_text && libc_wait_symbol(e.name, e.aliases)))) continue;
        reserve(g_unrec, g_unrec_cap, g_nunrec + 1, 64, "ompsim.unrec");
        g_unrec[g_nunrec++] = Range{e.avma, e.avma + e.size};
    }
    o.n = g_nunrec - o.first;
    return &o;
}

}  // namespace

// Lazy binding: which thread calls a PLT stub first, and so runs the dynamic
// linker's resolver and the stub's slow path, depends on timing. Once
// threads run, neither PLT stubs (code outside an object's .text), nor the
// dynamic linker, nor the IFUNC resolvers it calls are recorded; the
// function a stub leads to is. (The resolvers of memcpy and memcmp ran in
// whichever task of bench/kernels/omp_tasks called them first: 23
// instructions and their misses moved between threads in 3 runs of 8.)
// Nor is the C library's synchronisation (kLibcWaits).
bool unrecorded_code(Addr a) {
    if (!g_streaming || g_opt.simulate_runtime) return false;
    DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
    if (!di) {
        // find_DebugInfo knows only .text: look for a PLT holding `a`.
        for (const DebugInfo* d = VG_(next_DebugInfo)(nullptr); d; d = VG_(next_DebugInfo)(d)) {
            Addr plt = VG_(DebugInfo_get_plt_avma)(d);
            if (a >= plt && a < plt + VG_(DebugInfo_get_plt_size)(d)) return true;
        }
        return false;
    }
    const HChar* so = VG_(DebugInfo_get_soname)(di);
    if (so && has_prefix(so, "ld-linux")) return true;
    const UnrecordedObject* o = unrecorded_functions(di);
    for (u32 i = o->first; i < o->first + o->n; ++i)
        if (a >= g_unrec[i].lo && a < g_unrec[i].hi) return true;
    return false;
}


}  // namespace omp
}  // namespace ompsim
