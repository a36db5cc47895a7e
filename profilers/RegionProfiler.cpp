#include "RegionProfiler.h"

#include "GrowArray.h"

namespace ompsim {
namespace regions {

namespace {

const char* const kTypeNames[kRegionTypes] = {"PARALLEL", "LOOP",     "SECTIONS",  "SINGLE",  "MASTER",
                                               "CRITICAL", "LOCK",     "BARRIER",   "TASK",    "TASKWAIT",
                                               "TASKGROUP", "ORDERED", "REDUCTION", "REGION",  "FUNCTION"};
const char* const kStateNames[kStates] = {"work",      "serial",   "reduction", "implicit-barrier",
                                          "explicit-barrier", "taskwait", "lock-wait", "critical-wait",
                                          "ordered-wait", "overhead", "idle"};
const char* const kColumnNames[kColumns] = {"execT", "execC",    "bodyT",     "bodyC",    "enterT",
                                            "exitT", "exitBarT", "startupT", "shutdwnT", "taskT"};

bool same(const char* a, const char* b) {
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
}

void copy_words(u64* to, const u64* from, u32 n) {
    for (u32 i = 0; i < n; ++i) to[i] = from[i];
}

bool worksharing(RegionType t) { return t == kLoop || t == kSections || t == kSingle; }

}  // namespace

const char* type_name(RegionType t) { return t < kRegionTypes ? kTypeNames[t] : "?"; }
const char* state_name(State s) { return s < kStates ? kStateNames[s] : "?"; }
const char* column_name(Column c) { return c < kColumns ? kColumnNames[c] : "?"; }

RegionType type_from_name(const char* name) {
    for (u32 i = 0; i < kRegionTypes; ++i)
        if (same(name, kTypeNames[i])) return RegionType(i);
    return kRegionTypes;
}

// The phases of an open construct on one thread.
enum Phase : u8 { kEntering, kInBody, kWorkDone, kInBarrier, kAfterBody, kShutdown };

struct RegionProfiler::Frame {
    Node* node;
    NodeThread* st;
    u64 enter_cycles;
    u64 mark;          // start of the current phase
    u64 work_end;      // kWorkDone: where a nowait construct ends
    u64* enter_counters;
    u64* end_counters; // counters at work_end
    Phase phase;
    State saved;       // the thread's state before the construct
    bool barrier_node; // an implicit barrier no construct owns
};

struct RegionProfiler::ThreadRec {
    Frame* frames;
    u64* snapshots;    // 2 * words per frame
    u32 depth, cap;
    Node* context;     // the node the thread is in when no frame is open
    Node* prev;        // the node the thread left last (ompP's "previous")
    State state;
    u64 last;          // cycles charged up to here
    u64 base;          // where the figures start (0, or the last OMPSIM_ZERO_COUNTERS)
};

void* RegionProfiler::mem(size_t bytes) {
    void* p = alloc_.alloc(alloc_.ctx, bytes);
    u8* b = static_cast<u8*>(p);
    for (size_t i = 0; i < bytes; ++i) b[i] = 0;
    return p;
}


bool RegionProfiler::init(const Allocator& a, u32 words) {
    if (words > kMaxCounterWords) return false;
    alloc_ = a;
    words_ = words;
    new_node(nullptr, kNoRegion, kRegionTypes);
    return true;
}

Node* RegionProfiler::new_node(Node* parent, u32 region, RegionType type) {
    grow_array(alloc_, nodes_, nodes_cap_, nnodes_ + 1, 64);
    Node* n = static_cast<Node*>(mem(sizeof(Node)));
    n->id = nnodes_;
    n->region = region;
    n->type = type;
    n->parent = parent;
    if (parent) {
        if (parent->last_child)
            parent->last_child->next_sibling = n;
        else
            parent->first_child = n;
        parent->last_child = n;
    }
    nodes_[nnodes_++] = n;
    return n;
}

Node* RegionProfiler::child(Node* parent, u32 region, RegionType type) {
    for (Node* c = parent->first_child; c; c = c->next_sibling)
        if (c->region == region) return c;
    return new_node(parent, region, type);
}

NodeThread* RegionProfiler::stats(Node* n, u32 thread) {
    NodeThread** link = &n->threads;
    while (*link && (*link)->thread < thread) link = &(*link)->next;
    if (*link && (*link)->thread == thread) return *link;
    NodeThread* s = static_cast<NodeThread*>(mem(sizeof(NodeThread)));
    s->thread = thread;
    s->counters = static_cast<u64*>(mem(sizeof(u64) * (words_ ? words_ : 1)));
    s->next = *link;
    *link = s;
    return s;
}

RegionProfiler::ThreadRec& RegionProfiler::rec(u32 thread) {
    if (thread >= nthreads_) {
        grow_array(alloc_, threads_, threads_cap_, thread + 1, 8);
        for (u32 i = nthreads_; i <= thread; ++i) {
            ThreadRec* t = static_cast<ThreadRec*>(mem(sizeof(ThreadRec)));
            t->context = nodes_[kRootNode];
            // The initial thread runs the serial part; the others wait for
            // work until a team takes them.
            t->state = i == 0 ? kSerial : kIdle;
            threads_[i] = t;
        }
        nthreads_ = thread + 1;
    }
    return *threads_[thread];
}

Node* RegionProfiler::current(const ThreadRec& t) const {
    return t.depth ? t.frames[t.depth - 1].node : t.context;
}

// Cycles up to `cycles` go to the thread's current state in its current node
// (idle time to the root: a waiting worker is in no construct).
void RegionProfiler::charge(ThreadRec& t, u32 thread, u64 cycles) {
    if (cycles <= t.last) return;
    Node* n = t.state == kIdle ? nodes_[kRootNode] : current(t);
    stats(n, thread)->states[t.state] += cycles - t.last;
    t.last = cycles;
}

RegionProfiler::Frame& RegionProfiler::push(ThreadRec& t, u32 thread, Node* parent, u32 region,
                                            RegionType type, const Sample& now) {
    Node* n = child(parent, region, type);
    // The predecessor: the sibling left last, else the parent (Figure 4).
    Node* from = t.prev && t.prev->parent == parent ? t.prev : parent;
    Pred** link = &n->preds;
    while (*link && ((*link)->from < from->id || ((*link)->from == from->id && (*link)->thread < thread)))
        link = &(*link)->next;
    if (*link && (*link)->from == from->id && (*link)->thread == thread) {
        ++(*link)->count;
    } else {
        Pred* p = static_cast<Pred*>(mem(sizeof(Pred)));
        p->from = from->id;
        p->thread = thread;
        p->count = 1;
        p->next = *link;
        *link = p;
    }
    if (t.depth == t.cap) {
        u32 old = t.cap;
        u32 cap = t.cap ? 2 * t.cap : 16;
        Frame* frames = static_cast<Frame*>(mem(cap * sizeof(Frame)));
        u64* snaps = static_cast<u64*>(mem(sizeof(u64) * 2 * (words_ ? words_ : 1) * cap));
        for (u32 i = 0; i < old; ++i) {
            frames[i] = t.frames[i];
            frames[i].enter_counters = snaps + 2 * words_ * i;
            frames[i].end_counters = frames[i].enter_counters + words_;
            copy_words(frames[i].enter_counters, t.frames[i].enter_counters, 2 * words_);
        }
        for (u32 i = old; i < cap; ++i) {
            frames[i].enter_counters = snaps + 2 * words_ * i;
            frames[i].end_counters = frames[i].enter_counters + words_;
        }
        if (alloc_.release && t.frames) {
            alloc_.release(alloc_.ctx, t.frames);
            alloc_.release(alloc_.ctx, t.snapshots);
        }
        t.frames = frames;
        t.snapshots = snaps;
        t.cap = cap;
    }
    entered_ = n;
    Frame& f = t.frames[t.depth++];
    u64* ec = f.enter_counters;
    u64* xc = f.end_counters;
    f = Frame{};
    f.enter_counters = ec;
    f.end_counters = xc;
    f.node = n;
    f.st = stats(n, thread);
    f.enter_cycles = f.mark = now.cycles;
    f.saved = t.state;
    copy_words(f.enter_counters, now.counters, words_);
    f.st->col[kExecC]++;
    return f;
}

// Closes the innermost frame at `cycles` with `counters`.
void RegionProfiler::pop(ThreadRec& t, u32 thread, u64 cycles, const u64* counters) {
    Frame& f = t.frames[--t.depth];
    NodeThread* s = f.st;
    u64 exec = cycles > f.enter_cycles ? cycles - f.enter_cycles : 0;
    s->col[kExecT] += exec;
    for (u32 i = 0; i < words_; ++i) s->counters[i] += counters[i] - f.enter_counters[i];
    switch (f.node->type) {
        case kCritical:
        case kOrdered:
            if (f.phase == kAfterBody) s->col[kExitT] += cycles - f.mark;
            break;
        case kLock:
            s->col[kEnterT] += exec;
            break;
        case kTask:
            if (t.depth) t.frames[t.depth - 1].st->col[kTaskT] += exec;
            break;
        default:
            break;
    }
    t.state = f.saved;
    t.prev = f.node;
    if (!t.depth) t.context = f.node->parent;
}

// A loop, sections or single whose work ended and that no implicit barrier
// followed: it ends where its work ended (nowait).
void RegionProfiler::resolve_pending(ThreadRec& t, u32 thread) {
    if (!t.depth) return;
    Frame& f = t.frames[t.depth - 1];
    if (f.phase != kWorkDone) return;
    pop(t, thread, f.work_end, f.end_counters);
}

void RegionProfiler::event(u32 thread, RegionEvent ev, u32 region, RegionType type, u64 team, u32 flag,
                           const Sample& now) {
    entered_ = nullptr;
    ThreadRec& t = rec(thread);
    Frame* top = t.depth ? &t.frames[t.depth - 1] : nullptr;
    bool owned_barrier = flag && top &&
                         ((ev == kBarrierBegin && (top->phase == kWorkDone ||
                                                   (top->node->type == kParallel && top->phase == kInBody))) ||
                          (ev == kBarrierEnd && top->phase == kInBarrier && !top->barrier_node));
    if (!owned_barrier) {
        resolve_pending(t, thread);
        top = t.depth ? &t.frames[t.depth - 1] : nullptr;
    }
    charge(t, thread, now.cycles);
    switch (ev) {
        case kEnter: {
            Frame& f = push(t, thread, current(t), region, type, now);
            // A thread outside any team that enters a region is not an
            // OpenMP worker waiting for work: a program's own thread.
            if (t.state == kIdle) t.state = kWork;
            switch (type) {
                case kParallel:
                    grow_array(alloc_, teams_, teams_cap_, nteams_ + 1, 8);
                    teams_[nteams_++] = TeamRec{team, f.node};
                    t.state = kOverhead;
                    break;
                case kCritical:
                    t.state = kCriticalWait;
                    break;
                case kOrdered:
                    t.state = kOrderedWait;
                    break;
                case kLock:
                    t.state = kLockWait;
                    break;
                case kTaskwait:
                case kTaskgroup:
                    t.state = kTaskwaitWait;
                    break;
                case kReduction:
                    t.state = kReductionState;
                    break;
                case kTask:
                    t.state = kWork;
                    break;
                default:
                    break;
            }
            break;
        }
        case kTeamBegin: {
            if (top && top->node->type == kParallel && top->phase == kEntering) {
                // The thread that forked the team: its startup ends.
                top->st->col[kStartupT] += now.cycles - top->mark;
                top->phase = kInBody;
                top->mark = now.cycles;
                t.state = kWork;
                break;
            }
            // A worker: the parallel region hangs below the forking thread's node.
            Node* parallel = nullptr;
            for (u32 i = nteams_; i > 0; --i)
                if (teams_[i - 1].key == team) {
                    parallel = teams_[i - 1].node;
                    break;
                }
            Node* parent = parallel ? parallel->parent : current(t);
            while (t.depth) pop(t, thread, now.cycles, now.counters);  // nothing is open in a waiting worker
            Frame& f = push(t, thread, parent, region, kParallel, now);
            f.phase = kInBody;
            f.saved = kIdle;
            t.state = kWork;
            break;
        }
        case kTeamEnd: {
            // Whatever the thread left open in its implicit task ends with it.
            while (t.depth && t.frames[t.depth - 1].node->type != kParallel) pop(t, thread, now.cycles, now.counters);
            if (!t.depth) break;
            Frame& f = t.frames[t.depth - 1];
            if (f.phase == kInBody) f.st->col[kBodyT] += now.cycles - f.mark;
            if (f.saved == kIdle) {
                pop(t, thread, now.cycles, now.counters);  // a worker leaves the region here
                break;
            }
            f.phase = kShutdown;
            f.mark = now.cycles;
            t.state = kOverhead;
            break;
        }
        case kBodyBegin:
            if (!top) break;
            if (top->node->type == kSingle) {
                top->st->col[kBodyC]++;
            } else {
                top->st->col[kEnterT] += now.cycles - top->mark;
                t.state = top->saved;
            }
            top->phase = kInBody;
            top->mark = now.cycles;
            break;
        case kBodyEnd:
            if (!top || top->phase != kInBody) break;
            top->st->col[kBodyT] += now.cycles - top->mark;
            top->phase = kAfterBody;
            top->mark = now.cycles;
            break;
        case kWorkEnd:
            if (!top || !worksharing(top->node->type)) break;
            if (top->node->type != kSingle) top->st->col[kBodyT] += now.cycles - top->enter_cycles;
            top->phase = kWorkDone;
            top->work_end = now.cycles;
            copy_words(top->end_counters, now.counters, words_);
            break;
        case kBarrierBegin:
            if (owned_barrier) {
                if (top->node->type == kParallel) top->st->col[kBodyT] += now.cycles - top->mark;
                top->phase = kInBarrier;
                top->mark = now.cycles;
                t.state = kImplicitBarrierWait;
                break;
            } else {
                Frame& f = push(t, thread, current(t), region, kBarrier, now);
                f.phase = kInBarrier;
                f.barrier_node = flag != 0;
                t.state = flag ? kImplicitBarrierWait : kExplicitBarrierWait;
            }
            break;
        case kBarrierEnd:
            if (!top || top->phase != kInBarrier) break;
            if (owned_barrier) {
                top->st->col[kExitBarT] += now.cycles - top->mark;
                if (top->node->type == kParallel) {
                    top->phase = kAfterBody;
                    top->mark = now.cycles;
                    t.state = kWork;
                } else {
                    pop(t, thread, now.cycles, now.counters);
                }
            } else {
                pop(t, thread, now.cycles, now.counters);
            }
            break;
        case kExit: {
            if (!top) break;
            u32 k = t.depth;
            if (type == kUser || type == kFunction) {
                // The named one (a region left without its end closes too).
                while (k > 0 && t.frames[k - 1].node->region != region) --k;
                if (!k) break;
            }
            while (t.depth >= k && t.depth) {
                Frame& f = t.frames[t.depth - 1];
                if (f.node->type == kParallel) {
                    if (f.phase == kShutdown) f.st->col[kShutdownT] += now.cycles - f.mark;
                    for (u32 i = nteams_; i > 0; --i)
                        if (teams_[i - 1].node == f.node) {
                            teams_[i - 1] = teams_[--nteams_];
                            break;
                        }
                }
                pop(t, thread, now.cycles, now.counters);
            }
            break;
        }
        default:
            break;
    }
}

const Node* RegionProfiler::node_of(u32 thread) {
    const ThreadRec& t = rec(thread);
    if (t.depth && t.frames[t.depth - 1].phase == kWorkDone) return t.frames[t.depth - 1].node->parent;
    return current(t);
}

void RegionProfiler::finish(u32 thread, const Sample& now) {
    ThreadRec& t = rec(thread);
    resolve_pending(t, thread);
    charge(t, thread, now.cycles);
    while (t.depth) pop(t, thread, now.cycles, now.counters);
    // The root: the thread's whole run.
    NodeThread* root = stats(nodes_[kRootNode], thread);
    root->col[kExecT] = now.cycles - t.base;
    root->col[kExecC] = 1;
    copy_words(root->counters, now.counters, words_);
}

void RegionProfiler::zero(u32 thread, const Sample& now) {
    if (thread == 0) {
        for (u32 i = 0; i < nnodes_; ++i) {
            for (NodeThread* s = nodes_[i]->threads; s; s = s->next) {
                for (u32 c = 0; c < kColumns; ++c) s->col[c] = 0;
                for (u32 c = 0; c < kStates; ++c) s->states[c] = 0;
                for (u32 c = 0; c < words_; ++c) s->counters[c] = 0;
            }
            for (Pred* p = nodes_[i]->preds; p; p = p->next) p->count = 0;
        }
    }
    ThreadRec& t = rec(thread);
    t.last = t.base = now.cycles;
    for (u32 i = 0; i < t.depth; ++i) {
        Frame& f = t.frames[i];
        f.enter_cycles = f.mark = f.work_end = now.cycles;
        copy_words(f.enter_counters, now.counters, words_);
        copy_words(f.end_counters, now.counters, words_);
    }
}

}  // namespace regions
}  // namespace ompsim
