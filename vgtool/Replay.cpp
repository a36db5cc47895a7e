#include "Replay.h"

#include "CoreSim.h"
#include "OspgService.h"
#include "RegionService.h"
#include "ReplacementPolicy.h"
#include "ReplayWorker.h"
#include "StackRelocation.h"
#include "TaskDescriptors.h"
#include "ToolArray.h"
#include "Warnings.h"

namespace ompsim {

enum class SlotState : u8 { Idle, Joining, Running, Barrier, Join, Lock, Taskwait, Taskgroup, Done };

struct Slot {
    u32 index;
    u32 core;
    SlotState state;
    // Units the slot runs, innermost last: tasks run at task scheduling
    // points nest without bound (a recursive task program reached 64).
    Unit** stack;
    SlotState* saved;     // state to return to when the unit above ends
    u32 depth;
    u32 stack_cap, saved_cap;
    Team* team;           // team of the implicit task the slot runs
    Team* joining;        // Joining: the team whose member `joining_num` it runs
    u32 joining_num;
    Loop* loop;           // in a dynamic loop: next chunk when the current ends
    uptr lock;            // Lock: the wait id
    Team* join_team;      // Join: the team joined
    u32 wait_gen;         // Barrier: team->barrier_gen when it arrived
    u32 quantum_left;
};

namespace replay {

namespace {

constexpr u32 kMaxReasons = 8;

struct Lock {
    uptr id;
    Slot* holder;
    u32 count;
    ULong released_at;
};

Options g_opt;
bool g_active;
bool g_deterministic = true;
bool g_final;
bool g_forced;  // buffer limit reached: stalled slots are skipped
const HChar* g_reasons[kMaxReasons];
u32 g_nreasons;
// Slots are never given back (a spawned thread's slot stays Done), so they
// grow with the OpenMP threads of the run; beyond ospg::Builder::kMaxSlots
// (256) the OSPG leaves them out (docs/limits.md).
Slot** g_slots;
u32 g_nslots, g_slots_cap;
u32 g_rr;      // slot whose turn it is
u64 g_order;   // task creation order
u64 g_progress;
Lock* g_locks;
u32 g_nlocks, g_locks_cap;
bool g_in_advance;
// After a fork or a barrier the round restarts at the team's thread 0
// with a fresh quantum for every member (docs/openmp.md, "Replay").
Slot* g_restart;

// Yield: the turn ends at once (the slot released a barrier; the round
// restarts at the team's thread 0). Pause: the replay worker has enough to
// do; the replay stops where it is (as at a Stall, but with events to
// run) and goes on at the next advance(), so that the main thread goes
// back to the client meanwhile.
enum class Step { Turn, Blocked, Idle, Stall, Yield, Pause };
// advance() may pause (it is called while the client records); catch_up()
// and finish() may not.
bool g_may_pause;
// Pauses only while the streams hold at most g_pause_bytes more than when
// the replay last caught up with the recording (g_pause_base): the worker
// is the slower of the two threads, so without a bound the recording ran
// ahead until --stream-buffer (omp_loop 1024 40 with 4 threads: a peak of
// 588 MiB instead of 129 MiB, and events spilled to a file). Wall time and
// peak for omp_loop with the pause bounded at 16, 32 and 64 MiB of events
// in all: 3.23 s and 131 MiB, 2.95 s and 125 MiB, 2.86 s and 141 MiB;
// unbounded 2.92 s (3.63 s without the worker; medians of 3). A bound on
// all the events stopped the pauses of omp_tasks, whose replay keeps
// hundreds of MiB waiting in any case (its task order): 5.39 s against
// 3.99 s unbounded (5.47 s without the worker; medians of 5). So the bound
// is on what the pauses add: 64 MiB, or a quarter of --stream-buffer if
// that is less.
u64 g_pause_bytes;
u64 g_pause_base;
// A marker reads the simulation (a region's counters, a clock), so the
// main thread waits there for the worker to run everything handed over;
// with more than this many commands waiting, the replay pauses before the
// marker instead (the main thread records meanwhile) and takes it once the
// worker is nearly through them. omp_tasks 1000000 4096 with 4 threads
// (1,566 region markers): 2.99 s without the pause, 2.86, 2.85, 2.80,
// 2.81, 2.84 and 2.86 s at 8, 32, 128, 256, 512 and 1,024 commands
// (medians of 3, 6 at 128); omp_loop 1024 40 unchanged (2.91 s).
constexpr u64 kMarkerBacklog = 128;
// Whether the streams may grow by a pause (within g_pause_bytes of g_pause_base).
bool pause_fits() { return stream::bytes_in_use() < g_pause_base + g_pause_bytes; }

// --replay-perturb: where advance() stops and how many recorded events it
// sees depend on the host's timing (the worker's backlog, when the
// client's threads record); the documents must not. With a seed the
// replay also stops and shortens its view at random points, so that a
// test can try many such timings on one host (a one-byte difference with
// and without the worker, once in CI, was not seen in more than 500 runs
// here).
// Only while it may pause: catch_up() and finish() run as far as they can.
// The draws are the Random replacement policy's xorshift64, whose state
// never becomes 0 once seeded: 0 stays "off".
struct Perturbation {
    u64 state;
    u64 count;
    // True about once in 2^bits calls (never when off).
    bool now(unsigned bits) {
        if (!state) return false;
        bool hit = (repl::xorshift64_next(state) >> (64 - bits)) == 0;
        count += hit;
        return hit;
    }
    // How many of `avail` events to take: sometimes fewer (at least one).
    u32 take(u32 avail) {
        if (avail < 2 || !now(2)) return avail;
        return 1 + u32((state >> 20) % avail);
    }
};
Perturbation g_perturb;

Slot* new_slot() {
    reserve(g_slots, g_slots_cap, g_nslots + 1, 64, "ompsim.replay");
    Slot* s = static_cast<Slot*>(VG_(malloc)("ompsim.replay", sizeof(Slot)));
    VG_(memset)(s, 0, sizeof *s);
    s->index = g_nslots;
    s->core = g_opt.cores ? g_nslots % g_opt.cores : g_nslots;
    if (s->core >= kMaxCores) s->core %= kMaxCores;
    s->state = SlotState::Idle;
    s->quantum_left = g_opt.quantum;
    g_slots[g_nslots++] = s;
    return s;
}

Unit* top(Slot* s) { return s->depth ? s->stack[s->depth - 1] : nullptr; }

void push(Slot* s, Unit* u, SlotState resume) {
    reserve(s->stack, s->stack_cap, s->depth + 1, 16, "ompsim.replay");
    reserve(s->saved, s->saved_cap, s->depth + 1, 16, "ompsim.replay");
    s->saved[s->depth] = resume;
    s->stack[s->depth++] = u;
    s->state = SlotState::Running;
    ++g_progress;
    ospgsvc::unit_begin(s->index, u);
}

Lock* find_lock(uptr id) {
    for (u32 i = 0; i < g_nlocks; ++i)
        if (g_locks[i].id == id) return &g_locks[i];
    reserve(g_locks, g_locks_cap, g_nlocks + 1, 16, "ompsim.replay");
    Lock* l = &g_locks[g_nlocks++];
    VG_(memset)(l, 0, sizeof *l);
    l->id = id;
    return l;
}

ULong clock_of(Slot* s) { return coresim::clock(s->core).clock; }

void restart_round(Team* t) {
    for (u32 k = 0; k < t->size; ++k)
        if (t->slots[k]) t->slots[k]->quantum_left = g_opt.quantum;
    g_restart = t->slots[0];
}

// A barrier completes when every member arrived (or ended) and the team's
// tasks are done; the clocks of the members are set to the latest.
void check_barrier(Team* t) {
    if (!t || !t->forked || !t->at_barrier) return;
    if (t->at_barrier + t->ended < t->size || t->tasks_outstanding) return;
    ULong latest = 0;
    for (u32 k = 0; k < t->size; ++k)
        if (t->slots[k] && clock_of(t->slots[k]) > latest) latest = clock_of(t->slots[k]);
    for (u32 k = 0; k < t->size; ++k)
        if (t->slots[k]) coresim::wait_until(t->slots[k]->core, latest);
    t->at_barrier = 0;
    ++t->barrier_gen;
    ++g_progress;
    restart_round(t);
}

// The member of team t that slot s runs (0 if none: a task released by a
// slot outside the team goes to member 0's deque).
u32 member_of(const Team* t, const Slot* s) {
    for (u32 k = 0; k < t->size; ++k)
        if (t->slots[k] == s) return k;
    return 0;
}

// Ready tasks are scheduled as a work-stealing runtime does (libomp's
// deques): a task goes to the deque of the member whose slot created it
// (or released its last dependence); a slot takes its own newest ready
// task, or else steals the oldest from the next member that has one. The
// real run records tasks in nearly that order (each thread works depth
// first on what it created or stole), so the replay seldom waits for a
// task the real run has not reached: with oldest-first from one queue,
// omp_tasks 300000 4096 peaked at 732 MiB and filled the 512 MiB stream
// buffer (deterministic="false"); with work stealing 523 MiB.
void make_ready(Slot* s, Unit* u) {
    Team* t = u->team;
    if (!t->ready) {  // the team's first ready task (its size is known: it forked)
        SizeT n = 2 * SizeT(t->size ? t->size : 1) * sizeof(Unit*);
        t->ready = static_cast<Unit**>(VG_(malloc)("ompsim.replay", n));
        VG_(memset)(t->ready, 0, n);
    }
    u32 k = member_of(t, s);
    Unit*& oldest = t->ready[2 * k];
    Unit*& newest = t->ready[2 * k + 1];
    u->next_ready = nullptr;
    u->prev_ready = newest;
    if (newest)
        newest->next_ready = u;
    else
        oldest = u;
    newest = u;
}

Unit* take_ready(Team* t, u32 k, bool newest_end) {
    Unit*& oldest = t->ready[2 * k];
    Unit*& newest = t->ready[2 * k + 1];
    Unit* u = newest_end ? newest : oldest;
    if (!u) return nullptr;
    if (u->prev_ready)
        u->prev_ready->next_ready = u->next_ready;
    else
        oldest = u->next_ready;
    if (u->next_ready)
        u->next_ready->prev_ready = u->prev_ready;
    else
        newest = u->prev_ready;
    u->next_ready = u->prev_ready = nullptr;
    return u;
}

// Dependences between sibling tasks (same creator), in creation order:
// an `in` waits for the last earlier `out`/`inout` on the same address; an
// `out`/`inout` also waits for every `in` after that.
enum : u32 { kDepIn = 1, kDepOut = 2, kDepInout = 3, kDepMutexInoutset = 4, kDepInoutset = 7 };

void add_edge(Unit* from, Unit* to) {
    if (from->done) return;
    for (u32 i = 0; i < from->nsucc; ++i)
        if (from->succ[i] == to) return;
    reserve(from->succ, from->succ_cap, from->nsucc + 1, 4, "ompsim.replay");
    from->succ[from->nsucc++] = to;
    ++to->deps_pending;
}

// The creator's earlier children with dependences, newest first.
struct Sibling {
    Unit* parent;
    Unit** list;
    u32 n, cap;
};
Sibling* g_sib;
u32 g_nsib, g_sib_cap;

Sibling& siblings_of(Unit* parent) {
    for (u32 i = 0; i < g_nsib; ++i)
        if (g_sib[i].parent == parent) return g_sib[i];
    reserve(g_sib, g_sib_cap, g_nsib + 1, 16, "ompsim.replay");
    Sibling& s = g_sib[g_nsib++];
    VG_(memset)(&s, 0, sizeof s);
    s.parent = parent;
    return s;
}

bool writes(u32 type) { return type != kDepIn; }

void link_dependences(Unit* u) {
    if (!u->ndeps) return;
    Sibling& sib = siblings_of(u->parent);
    for (u32 d = 0; d < u->ndeps; ++d) {
        uptr addr = u->deps[d].addr;
        bool w = writes(u->deps[d].type);
        for (u32 i = sib.n; i > 0; --i) {
            Unit* prev = sib.list[i - 1];
            bool touches = false, prev_writes = false;
            for (u32 e = 0; e < prev->ndeps; ++e)
                if (prev->deps[e].addr == addr) {
                    touches = true;
                    prev_writes |= writes(prev->deps[e].type);
                }
            if (!touches) continue;
            // The OSPG keeps the edge even when prev already ran: it is the
            // program's order, not the replay's.
            if (prev_writes) {
                ospgsvc::dependence(prev, u);
                add_edge(prev, u);
                break;  // everything earlier is ordered before prev
            }
            if (w) {  // a reader since the last writer
                ospgsvc::dependence(prev, u);
                add_edge(prev, u);
            }
        }
    }
    reserve(sib.list, sib.cap, sib.n + 1, 16, "ompsim.replay");
    sib.list[sib.n++] = u;
}

void task_created(Slot* s, Unit* u) {
    u->created = true;
    u->order = g_order++;
    Unit* parent = u->parent ? u->parent : top(s);
    u->parent = parent;
    if (parent) ++parent->children_pending;
    for (Unit* a = parent; a; a = a->kind == UnitKind::Task ? a->parent : nullptr) ++a->descendants_pending;
    ++u->team->tasks_outstanding;
    link_dependences(u);
}

void task_finished(Slot* s, Unit* u) {
    u->done = true;
    if (u->parent) --u->parent->children_pending;
    for (Unit* a = u->parent; a; a = a->kind == UnitKind::Task ? a->parent : nullptr) --a->descendants_pending;
    for (u32 i = 0; i < u->nsucc; ++i)
        if (--u->succ[i]->deps_pending == 0 && !u->succ[i]->undeferred) make_ready(s, u->succ[i]);
    --u->team->tasks_outstanding;
    check_barrier(u->team);
}

// The unit on top of the slot has been replayed completely.
void finish_unit(Slot* s) {
    ospgsvc::unit_end(s->index, s->stack[s->depth - 1]);
    Unit* u = s->stack[--s->depth];
    SlotState resume = s->saved[s->depth];
    ++g_progress;
    if (u->desc_len) descriptors::give_back(u->desc_canon, u->desc_lo, u->desc_len);
    if (u->child_len) descriptors::give_back(u->child_canon, u->child_lo, u->child_len);
    switch (u->kind) {
        case UnitKind::Task:
            task_finished(s, u);
            break;
        case UnitKind::Implicit:
            ++u->team->ended;
            s->team = s->depth ? s->team : nullptr;
            check_barrier(u->team);
            break;
        default:
            break;
    }
    if (u->kind == UnitKind::Implicit && s->depth) {
        // The master goes back to the encountering unit; its team is the one
        // that unit belongs to.
        Unit* below = top(s);
        s->team = below ? below->team : nullptr;
    }
    stream::destroy(u->s);
    u->s = nullptr;
    s->state = s->depth ? resume : (u->kind == UnitKind::Implicit ? SlotState::Idle : SlotState::Done);
}

// Dynamic loop: the next chunk in iteration order, if recorded.
Step take_chunk(Slot* s) {
    Loop* l = s->loop;
    bool up = l->st > 0;
    Long next = l->next_index ? l->next_lb : l->lb;
    bool exhausted = up ? next > l->ub : next < l->ub;
    if (exhausted) {
        s->loop = nullptr;
        return Step::Turn;
    }
    if (l->next_index < l->nchunks && l->chunks[l->next_index]->lb == next) {
        Unit* c = l->chunks[l->next_index++];
        l->next_lb = c->ub + l->st;
        push(s, c, SlotState::Running);
        return Step::Turn;
    }
    if (g_final) {
        // The program ended without the chunk: the loop was left early
        // (cancellation) or reported inconsistently.
        s->loop = nullptr;
        return Step::Turn;
    }
    return Step::Stall;
}

bool try_take_task(Slot* s, Team* t) {
    if (!t || !t->ready) return false;
    u32 k = member_of(t, s);
    Unit* u = take_ready(t, k, true);
    for (u32 j = 1; !u && j < t->size; ++j) u = take_ready(t, (k + j) % t->size, false);
    if (!u) return false;
    push(s, u, s->state);
    return true;
}

// Whether a blocked slot may go on.
bool unblocked(Slot* s) {
    Unit* u = top(s);
    switch (s->state) {
        case SlotState::Barrier:
            return s->team && s->team->barrier_gen != s->wait_gen;
        case SlotState::Join: {
            Team* t = s->join_team;
            if (t->ended < t->size || t->tasks_outstanding) return false;
            ULong latest = clock_of(s);
            for (u32 k = 0; k < t->size; ++k)
                if (t->slots[k] && clock_of(t->slots[k]) > latest) latest = clock_of(t->slots[k]);
            coresim::wait_until(s->core, latest);
            return true;
        }
        case SlotState::Lock: {
            Lock* l = find_lock(s->lock);
            if (l->holder) return false;
            l->holder = s;
            l->count = 1;
            coresim::wait_until(s->core, l->released_at);
            return true;
        }
        case SlotState::Taskwait:
            return !u || u->children_pending == 0;
        case SlotState::Taskgroup:
            return !u || u->descendants_pending == 0;
        default:
            return true;
    }
}

Team* team_for_tasks(Slot* s) {
    if (s->state == SlotState::Join) return s->join_team;
    Unit* u = top(s);
    return u ? u->team : s->team;
}

// Executes a marker; Stall leaves it unconsumed (to be retried).
Step marker(Slot* s, u32 kind, uptr a, uptr b, uptr c) {
    switch (kind) {
        case kMkFork: {
            Team* t = reinterpret_cast<Team*>(a);
            if (!t->size || !t->members[0]) return g_final ? Step::Turn : Step::Stall;
            t->slots = static_cast<Slot**>(VG_(malloc)("ompsim.replay", t->size * sizeof(Slot*)));
            VG_(memset)(t->slots, 0, t->size * sizeof(Slot*));
            t->slots[0] = s;
            t->forked = true;
            ULong now = clock_of(s);
            u32 next_free = 0;
            for (u32 k = 1; k < t->size; ++k) {
                Slot* w = nullptr;
                for (; next_free < g_nslots; ++next_free)
                    if (g_slots[next_free]->state == SlotState::Idle) {
                        w = g_slots[next_free++];
                        break;
                    }
                if (!w) w = new_slot();
                w->state = SlotState::Joining;
                w->joining = t;
                w->joining_num = k;
                t->slots[k] = w;
                coresim::wait_until(w->core, now);
            }
            s->team = t;
            ospgsvc::fork(s->index, t);
            push(s, t->members[0], SlotState::Running);
            restart_round(t);
            return Step::Turn;
        }
        case kMkJoin: {
            s->join_team = reinterpret_cast<Team*>(a);
            if (!s->join_team->forked) return Step::Turn;
            s->state = SlotState::Join;
            return Step::Blocked;
        }
        case kMkBarrier: {
            if (top(s) && top(s)->kind == UnitKind::Implicit) ospgsvc::barrier(s->index);
            Team* t = s->team;
            if (!t || !t->forked || t->size < 2) return Step::Turn;
            s->wait_gen = t->barrier_gen;
            ++t->at_barrier;
            check_barrier(t);
            if (t->barrier_gen != s->wait_gen) return Step::Yield;
            s->state = SlotState::Barrier;
            return Step::Blocked;
        }
        case kMkLock: {
            Lock* l = find_lock(a);
            if (l->holder == s) {
                ++l->count;
                return Step::Turn;
            }
            if (!l->holder) {
                l->holder = s;
                l->count = 1;
                coresim::wait_until(s->core, l->released_at);
                return Step::Turn;
            }
            s->lock = a;
            s->state = SlotState::Lock;
            return Step::Blocked;
        }
        case kMkUnlock: {
            Lock* l = find_lock(a);
            if (l->holder != s) return Step::Turn;  // released by another owner: ignore
            if (b && l->count > 1) {
                --l->count;
                return Step::Turn;
            }
            l->holder = nullptr;
            l->count = 0;
            l->released_at = clock_of(s);
            return Step::Turn;
        }
        case kMkDynLoop:
            s->loop = reinterpret_cast<Loop*>(a);
            return Step::Turn;
        case kMkSingle: {
            Single* sg = reinterpret_cast<Single*>(a);
            if (sg->taken) return Step::Turn;
            if (!sg->body) return g_final ? Step::Turn : Step::Stall;
            sg->taken = true;
            push(s, sg->body, SlotState::Running);
            return Step::Turn;
        }
        case kMkTaskMemory: {
            Unit* u = top(s);
            if (c == 1) {  // a running task's own block (gcc)
                if (u->desc_len) descriptors::give_back(u->desc_canon, u->desc_lo, u->desc_len);
                u->desc_lo = a;
                u->desc_len = b;
                u->desc_canon = descriptors::take(a, b);
                return Step::Turn;
            }
            if (u->child_len) descriptors::give_back(u->child_canon, u->child_lo, u->child_len);
            u->child_lo = a;
            u->child_len = b;
            if (b) u->child_canon = descriptors::take(a, b);
            return Step::Turn;
        }
        case kMkTask: {
            Unit* u = reinterpret_cast<Unit*>(a);
            Unit* creator = top(s);
            if (creator->child_len) {  // the descriptor the creator just filled in
                u->desc_lo = creator->child_lo;
                u->desc_len = creator->child_len;
                u->desc_canon = creator->child_canon;
                creator->child_len = 0;
            }
            ospgsvc::task_created(s->index, u);
            task_created(s, u);
            if (u->undeferred)
                push(s, u, SlotState::Running);
            else if (u->deps_pending == 0)
                make_ready(s, u);
            return Step::Turn;
        }
        case kMkTaskwait: {
            ospgsvc::taskwait(s->index);
            Unit* u = top(s);
            if (!u || !u->children_pending) return Step::Turn;
            s->state = SlotState::Taskwait;
            return Step::Blocked;
        }
        case kMkTaskgroupEnd: {
            ospgsvc::taskwait(s->index);
            Unit* u = top(s);
            if (!u || !u->descendants_pending) return Step::Turn;
            s->state = SlotState::Taskgroup;
            return Step::Blocked;
        }
        case kMkRegion:
            regionsvc::marker(s->index, s->core, a, b, c);
            return Step::Turn;
        case kMkWhatIf:
            ospgsvc::whatif(s->index, (u32)a, (u32)b);
            return Step::Turn;
        case kMkSpawn: {
            Unit* u = reinterpret_cast<Unit*>(a);
            Slot* w = new_slot();
            push(w, u, SlotState::Running);
            ospgsvc::spawned(s->index, w->index, u);
            coresim::wait_until(w->core, clock_of(s));
            return Step::Turn;
        }
        default:
            return Step::Turn;
    }
}

// The stack relocation of the unit on top of `s` (StackRelocation.h);
// false if an anchor it needs is not recorded yet.
bool relocate_top(Slot* s) {
    Unit* u = top(s);
    const Unit* home = u->kind == UnitKind::Implicit ? u : nullptr;
    u32 open_tasks = 0;
    for (u32 i = s->depth - 1; i > 0; --i) {
        const Unit* below = s->stack[i - 1];
        if (below->kind == UnitKind::Task) ++open_tasks;
        if (below->kind == UnitKind::Implicit && !home) home = below;
    }
    if (!relocation_ready(u, home)) return false;
    coresim::set_stack_relocation(relocation_for(u, home, open_tasks));
    return true;
}

// Runs the slot for the rest of its quantum.
Step run_slot(Slot* s) {
    coresim::enter(s->index, s->core);
    Unit* relocated = nullptr;
    for (;;) {
        switch (s->state) {
            case SlotState::Idle:
            case SlotState::Done:
                return Step::Idle;
            case SlotState::Joining: {
                Team* t = s->joining;
                Unit* m = t->members[s->joining_num];
                if (!m) return g_final ? Step::Idle : Step::Stall;
                s->team = t;
                push(s, m, SlotState::Idle);
                break;
            }
            case SlotState::Running:
                break;
            default:
                if (!unblocked(s)) {
                    if (try_take_task(s, team_for_tasks(s))) break;
                    return Step::Blocked;
                }
                s->state = SlotState::Running;
                ++g_progress;
                break;
        }
        if (s->state != SlotState::Running) continue;
        if (s->loop && top(s) && top(s)->kind != UnitKind::Chunk) {
            Step r = take_chunk(s);
            if (r == Step::Stall) return r;
            continue;
        }
        Unit* u = top(s);
        if (!u) {
            s->state = SlotState::Idle;
            return Step::Idle;
        }
        if (s->quantum_left == 0) return Step::Turn;
        if (g_may_pause && g_perturb.now(6)) return Step::Stall;
        const Ev* next;
        u32 avail = stream::span(u->s, &next);
        if (!avail) {
            if (u->s->closed) {
                finish_unit(s);
                continue;
            }
            return Step::Stall;
        }
        // A cut run's rest is no marker (and the worker may be rewriting
        // the event: Stream::cut).
        if (!u->s->cut.w0 && (next->w0 & kTagMask) == kTagMarker) {
            if (g_may_pause && ((replayworker::handed() - replayworker::finished() > kMarkerBacklog && pause_fits()) ||
                                g_perturb.now(3)))
                return Step::Pause;
            Ev e = *next;
            // The payload was appended with the header: it is there.
            Ev p;
            bool have = stream::peek_second(u->s, p);
            tl_assert(have);
            Step r = marker(s, u32(e.w0 >> 3), e.w1, p.w0, p.w1);
            if (r == Step::Stall) return r;  // retried later, unconsumed
            relocated = nullptr;  // a marker may change the unit's relocation
            stream::consume(u->s);
            stream::peek(u->s, p);
            stream::consume(u->s);
            ++g_progress;
            if (r == Step::Blocked || r == Step::Yield) return r;
            continue;
        }
        if (g_may_pause) {
            if ((replayworker::backlogged() && pause_fits()) || g_perturb.now(6)) return Step::Pause;
            avail = g_perturb.take(avail);
        }
        if (u != relocated) {
            if (!relocate_top(s)) return Step::Stall;
            relocated = u;
        }
        u32 quantum_before = s->quantum_left;
        u32 done = coresim::run_batch(next, avail, &s->quantum_left, &u->s->cut);
        stream::consume_n(u->s, done);
        // A batch may end inside its first event (a run of certain I1 hits
        // cut at the quantum, EventStream.h): instructions ran, nothing was
        // consumed, and that is progress too.
        g_progress += done ? done : quantum_before != s->quantum_left;
    }
}

}  // namespace

void init(const Options& o) {
    g_opt = o;
    if (!g_opt.quantum) g_opt.quantum = 1;
    // A zero state is off; a seed's state is never zero.
    g_perturb.state = o.perturb ? (u64(o.perturb) << 32 | 0x9e3779b9u) : 0;
}

void start(Unit* serial) {
    g_active = true;
    g_pause_bytes = stream::bytes_limit() / 4 < (64ull << 20) ? stream::bytes_limit() / 4 : 64ull << 20;
    Slot* s = new_slot();
    s->team = serial->team;
    serial->team->forked = true;
    serial->team->slots = static_cast<Slot**>(VG_(malloc)("ompsim.replay", sizeof(Slot*)));
    serial->team->slots[0] = s;
    push(s, serial, SlotState::Done);
}

namespace {

// The end of s's turn: a new quantum, and the next slot's turn.
void end_turn(Slot* s) {
    s->quantum_left = g_opt.quantum;
    g_rr = s->index + 1 == g_nslots ? 0 : s->index + 1;
}

// False if it paused.
bool run_rounds() {
    for (;;) {
        // One round: every slot from g_rr on gets the rest of its turn.
        u64 before = g_progress;
        bool stalled = false;
        for (u32 n = 0; n < g_nslots; ++n) {
            Slot* s = g_slots[g_rr];
            Step r = run_slot(s);
            if (r == Step::Pause) return false;
            if (r == Step::Stall) {
                if (!g_forced) {
                    stalled = true;
                    break;
                }
            }
            if (g_restart) {
                // A fork or barrier happened in this turn: the slot that ran
                // it keeps going only if it is thread 0.
                g_rr = g_restart->index;
                g_restart = nullptr;
                // Thread 0 forked and then ran out its new quantum in the
                // same turn (run_slot() returns Turn only at the quantum's
                // end): its turn is over, as after any other. Restarted at
                // it, it got an empty turn, and with no other thread to run
                // that made a round without progress, which reads as "all
                // blocked": finish()'s catch-up stopped there with events
                // left (one thread with the replay worker: omp_loop 512 20
                // lost 4.5 % of its instructions, deterministic="false"),
                // and each advance() moved the pause's base up to where the
                // replay stood (omp_loop 1024 20: a peak of 475 MB, 139 MB
                // now).
                if (r == Step::Turn && g_slots[g_rr] == s) end_turn(s);
                continue;
            }
            end_turn(s);
        }
        if (stalled) {
            // Too much recorded ahead of a slot that has not run yet: give up
            // the canonical order rather than memory.
            if (!g_forced && !stream::spilling() && stream::bytes_in_use() > stream::bytes_limit()) {
                g_forced = true;
                HChar msg[160];
                VG_(snprintf)(msg, sizeof msg,
                              "stream buffer limit of %llu bytes reached (--stream-buffer): "
                              "threads were replayed out of the canonical order",
                              (ULong)stream::bytes_limit());
                not_deterministic(msg);
                warnings::note("stream-buffer", "--stream-buffer", stream::bytes_limit(),
                               "the replay's event buffers filled up: threads were replayed out of the canonical "
                               "order, so the figures depend on timing (deterministic=\"false\")");
                continue;
            }
            break;
        }
        if (g_progress == before) break;  // everything blocked or idle
        if (g_forced && stream::bytes_in_use() < stream::bytes_limit() / 2) g_forced = false;
    }
    return true;
}

void run_replay(bool may_pause) {
    if (!g_active || g_in_advance) return;
    g_in_advance = true;
    g_may_pause = may_pause;
    if (run_rounds()) g_pause_base = stream::bytes_in_use();
    replayworker::flush();
    g_in_advance = false;
}

}  // namespace

void advance() { run_replay(true); }
void catch_up() { run_replay(false); }

void finish() {
    if (!g_active) return;
    g_final = true;
    catch_up();
    for (u32 i = 0; i < g_nslots; ++i) {
        Slot* s = g_slots[i];
        if (s->state != SlotState::Idle && s->state != SlotState::Done) {
            HChar msg[160];
            VG_(snprintf)(msg, sizeof msg,
                          "the replay of thread slot %u could not finish (blocked at the end of the run)",
                          i);
            not_deterministic(msg);
            break;
        }
    }
    regionsvc::finish();
    ospgsvc::finish();
}

void not_deterministic(const HChar* reason) {
    g_deterministic = false;
    for (u32 i = 0; i < g_nreasons; ++i)
        if (VG_(strcmp)(g_reasons[i], reason) == 0) return;
    if (g_nreasons < kMaxReasons) g_reasons[g_nreasons++] = VG_(strdup)("ompsim.replay", reason);
    // The document says it too; the user running the program must not
    // have to look there to learn that the run lost its determinism.
    VG_(umsg)("warning: this run's profile is not deterministic: %s\n", reason);
}

bool deterministic() { return g_deterministic; }
u64 perturbations() { return g_perturb.count; }
u32 reasons(const HChar* const** out) {
    *out = g_reasons;
    return g_nreasons;
}
u32 core_of_slot(u32 slot) { return slot < g_nslots ? g_slots[slot]->core : 0; }
u32 quantum() { return g_opt.quantum; }

}  // namespace replay
}  // namespace ompsim
