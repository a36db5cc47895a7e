// The region profiler (profilers/RegionProfiler.h) on hand-made event
// sequences: the predecessor lists of the ompP paper's Figures 1 and 4, the
// ompP columns of critical sections, worksharing constructs and parallel
// regions, the OpenMP states, and the sums the document promises.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "RegionProfiler.h"
#include "TrackingAllocator.h"

using namespace ompsim;
using namespace ompsim::regions;

namespace {


// Drives a profiler with one counter word (instructions) per thread.
struct Driver {
    TrackingAllocator heap;  // before p: frees p's tables after p is gone
    RegionProfiler p;
    std::map<u32, u64> instr;
    Driver() { EXPECT_TRUE(p.init(heap.get(), 1)); }
    void ev(u32 thread, RegionEvent e, u64 cycles, u32 region = kNoRegion, RegionType type = kUser, u64 team = 0,
            u32 flag = 0) {
        u64 w = instr[thread] = cycles;  // one instruction per cycle
        Sample s{cycles, &w};
        p.event(thread, e, region, type, team, flag, s);
    }
    void enter(u32 thread, u32 region, RegionType type, u64 cycles) { ev(thread, kEnter, cycles, region, type); }
    void exit(u32 thread, u32 region, RegionType type, u64 cycles) { ev(thread, kExit, cycles, region, type); }
    void finish(u64 cycles) {
        for (u32 t = 0; t < p.threads(); ++t) {
            u64 w = cycles;
            p.finish(t, Sample{cycles, &w});
        }
    }
    // The first node of `region` whose parent is `parent` (any parent if ~0u).
    const Node* find(u32 region, u32 parent = ~0u) const {
        for (u32 i = 1; i < p.node_count(); ++i)
            if (p.node(i)->region == region && (parent == ~0u || p.node(i)->parent->id == parent)) return p.node(i);
        return nullptr;
    }
    static const NodeThread* of(const Node* n, u32 thread) {
        for (const NodeThread* t = n->threads; t; t = t->next)
            if (t->thread == thread) return t;
        return nullptr;
    }
    // "from:count" for each predecessor of `n` on `thread`, in list order.
    static std::string preds(const Node* n, u32 thread) {
        std::string out;
        for (const Pred* q = n->preds; q; q = q->next) {
            if (q->thread != thread) continue;
            if (!out.empty()) out += ",";
            out += std::to_string(q->from) + ":" + std::to_string(q->count);
        }
        return out;
    }
    // The document's sums: per node and thread, the states of the node and
    // its descendants add up to execT; execC equals the predecessor counts.
    u64 subtree_states(const Node* n, u32 thread) const {
        u64 sum = 0;
        if (const NodeThread* t = of(n, thread))
            for (u32 s = 0; s < kStates; ++s) sum += t->states[s];
        for (const Node* c = n->first_child; c; c = c->next_sibling) sum += subtree_states(c, thread);
        return sum;
    }
    void check_sums() const {
        for (u32 i = 0; i < p.node_count(); ++i) {
            const Node* n = p.node(i);
            for (const NodeThread* t = n->threads; t; t = t->next) {
                EXPECT_EQ(subtree_states(n, t->thread), t->col[kExecT]) << "node " << i << " thread " << t->thread;
                if (i == 0) continue;
                u64 preds = 0;
                for (const Pred* q = n->preds; q; q = q->next)
                    if (q->thread == t->thread) preds += q->count;
                EXPECT_EQ(preds, t->col[kExecC]) << "node " << i << " thread " << t->thread;
            }
        }
    }
};

enum : u32 { P = 10, A, B, C, X, Y, Z, MAIN, FOO, BAR };

}  // namespace

// Figure 4: P() { for (i = 0; i < 5; i++) { A(); B(); C(); } }, A() { X(); Y(); },
// C() { Z(); }: A (P:1, C:4), X (A:5), Y (X:5), B (A:5), C (B:5), Z (C:5).
TEST(RegionProfiler, Figure4PredecessorLists) {
    Driver d;
    u64 t = 0;
    d.enter(0, P, kFunction, t++);
    for (int i = 0; i < 5; ++i) {
        d.enter(0, A, kFunction, t++);
        d.enter(0, X, kFunction, t++);
        d.exit(0, X, kFunction, t++);
        d.enter(0, Y, kFunction, t++);
        d.exit(0, Y, kFunction, t++);
        d.exit(0, A, kFunction, t++);
        d.enter(0, B, kFunction, t++);
        d.exit(0, B, kFunction, t++);
        d.enter(0, C, kFunction, t++);
        d.enter(0, Z, kFunction, t++);
        d.exit(0, Z, kFunction, t++);
        d.exit(0, C, kFunction, t++);
    }
    d.exit(0, P, kFunction, t++);
    d.finish(t);
    const Node *p = d.find(P), *a = d.find(A), *b = d.find(B), *c = d.find(C);
    const Node *x = d.find(X), *y = d.find(Y), *z = d.find(Z);
    ASSERT_TRUE(p && a && b && c && x && y && z);
    auto id = [](const Node* n) { return std::to_string(n->id); };
    EXPECT_EQ(Driver::preds(p, 0), "0:1");
    EXPECT_EQ(Driver::preds(a, 0), id(p) + ":1," + id(c) + ":4");
    EXPECT_EQ(Driver::preds(x, 0), id(a) + ":5");
    EXPECT_EQ(Driver::preds(y, 0), id(x) + ":5");
    EXPECT_EQ(Driver::preds(b, 0), id(a) + ":5");
    EXPECT_EQ(Driver::preds(c, 0), id(b) + ":5");
    EXPECT_EQ(Driver::preds(z, 0), id(c) + ":5");
    EXPECT_EQ(a->parent, p);
    EXPECT_EQ(z->parent, c);
    // Each call costs 1 cycle to enter and one to leave: A = 1 + X (1) + 1 + Y (1) + 1 = 5 per call.
    EXPECT_EQ(Driver::of(a, 0)->col[kExecT], 25u);
    EXPECT_EQ(Driver::of(a, 0)->col[kExecC], 5u);
    EXPECT_EQ(Driver::of(a, 0)->counters[0], 25u);
    d.check_sums();
}

// Figure 1: version A calls foo and bar alternately 20 times, version B all
// foos then all bars: A gives bar (foo:20), foo (main:1, bar:19); B gives
// foo (main:1, foo:19), bar (foo:1, bar:19).
TEST(RegionProfiler, Figure1VersionsAAndB) {
    for (int version = 0; version < 2; ++version) {
        Driver d;
        u64 t = 0;
        d.enter(0, MAIN, kFunction, t++);
        for (int i = 0; i < 20; ++i) {
            if (version == 0) {
                d.enter(0, FOO, kFunction, t++);
                d.exit(0, FOO, kFunction, t++);
                d.enter(0, BAR, kFunction, t++);
                d.exit(0, BAR, kFunction, t++);
            } else {
                d.enter(0, FOO, kFunction, t++);
                d.exit(0, FOO, kFunction, t++);
            }
        }
        for (int i = 0; version == 1 && i < 20; ++i) {
            d.enter(0, BAR, kFunction, t++);
            d.exit(0, BAR, kFunction, t++);
        }
        d.exit(0, MAIN, kFunction, t++);
        d.finish(t);
        const Node *m = d.find(MAIN), *foo = d.find(FOO), *bar = d.find(BAR);
        auto id = [](const Node* n) { return std::to_string(n->id); };
        if (version == 0) {
            EXPECT_EQ(Driver::preds(foo, 0), id(m) + ":1," + id(bar) + ":19");
            EXPECT_EQ(Driver::preds(bar, 0), id(foo) + ":20");
        } else {
            EXPECT_EQ(Driver::preds(foo, 0), id(m) + ":1," + id(foo) + ":19");
            EXPECT_EQ(Driver::preds(bar, 0), id(foo) + ":1," + id(bar) + ":19");
        }
        d.check_sums();
    }
}

// A parallel region of 2 threads below main, with a critical section whose
// body takes 100 cycles: the second thread waits exactly one body (enterT),
// as in ompP's Figure 2.
TEST(RegionProfiler, CriticalEnterWaitIsTheOtherThreadsBody) {
    Driver d;
    const u64 team = 0x77;
    const u32 PAR = 1, CRIT = 2;
    d.enter(0, MAIN, kFunction, 0);
    d.ev(0, kEnter, 10, PAR, kParallel, team);
    d.ev(0, kTeamBegin, 10, PAR, kParallel, team);
    d.ev(1, kTeamBegin, 10, PAR, kParallel, team);
    // Thread 0 gets the lock at 20 and holds it 100 cycles; thread 1 asks at 20.
    d.enter(0, CRIT, kCritical, 20);
    d.ev(0, kBodyBegin, 20);
    d.enter(1, CRIT, kCritical, 20);
    d.ev(0, kBodyEnd, 120);
    d.exit(0, CRIT, kCritical, 120);
    d.ev(1, kBodyBegin, 120);
    d.ev(1, kBodyEnd, 220);
    d.exit(1, CRIT, kCritical, 220);
    // The end-of-region barrier: thread 0 waits for thread 1 (100 cycles).
    d.ev(0, kBarrierBegin, 120, 3, kBarrier, 0, 1);
    d.ev(1, kBarrierBegin, 220, 3, kBarrier, 0, 1);
    d.ev(0, kBarrierEnd, 220, 3, kBarrier, 0, 1);
    d.ev(1, kBarrierEnd, 220, 3, kBarrier, 0, 1);
    d.ev(1, kTeamEnd, 220, PAR, kParallel, team);
    d.ev(0, kTeamEnd, 220, PAR, kParallel, team);
    d.exit(0, PAR, kParallel, 225);
    d.exit(0, MAIN, kFunction, 230);
    d.finish(240);

    const Node* m = d.find(MAIN);
    const Node* par = d.find(PAR);
    const Node* crit = d.find(CRIT);
    ASSERT_TRUE(m && par && crit);
    // The worker's parallel region hangs below main too (the user-model call stack).
    EXPECT_EQ(par->parent, m);
    EXPECT_EQ(Driver::preds(par, 1), std::to_string(m->id) + ":1");
    const NodeThread *c0 = Driver::of(crit, 0), *c1 = Driver::of(crit, 1);
    EXPECT_EQ(c0->col[kEnterT], 0u);
    EXPECT_EQ(c1->col[kEnterT], 100u);
    EXPECT_EQ(c0->col[kBodyT], 100u);
    EXPECT_EQ(c1->col[kBodyT], 100u);
    EXPECT_EQ(c1->col[kExecT], 200u);
    EXPECT_EQ(c1->states[kCriticalWait], 100u);
    const NodeThread *p0 = Driver::of(par, 0), *p1 = Driver::of(par, 1);
    EXPECT_EQ(p0->col[kExecT], 215u);
    EXPECT_EQ(p0->col[kBodyT], 110u);
    EXPECT_EQ(p0->col[kExitBarT], 100u);
    EXPECT_EQ(p0->col[kShutdownT], 5u);
    EXPECT_EQ(p0->states[kImplicitBarrierWait], 100u);
    EXPECT_EQ(p0->states[kOverhead], 5u);
    EXPECT_EQ(p1->col[kExecT], 210u);
    EXPECT_EQ(p1->col[kExitBarT], 0u);
    // The worker is idle before the fork and after its implicit task.
    const NodeThread* r1 = Driver::of(d.p.node(0), 1);
    EXPECT_EQ(r1->states[kIdle], 10u + 20u);
    EXPECT_EQ(r1->col[kExecT], 240u);
    d.check_sums();
}

// A loop whose implicit barrier waits for the slower thread: exitBarT is the
// difference of the iteration costs; a nowait loop ends where its work ends,
// and what follows it is its parent's.
TEST(RegionProfiler, LoopImbalanceAndNowait) {
    Driver d;
    const u64 team = 5;
    const u32 PAR = 1, LOOP = 2, LOOP2 = 4, BAR_IMPL = 3;
    for (u32 th = 0; th < 2; ++th) {
        if (th == 0) d.ev(0, kEnter, 0, PAR, kParallel, team);
        d.ev(th, kTeamBegin, 0, PAR, kParallel, team);
        d.enter(th, LOOP, kLoop, 0);
    }
    d.ev(0, kWorkEnd, 300, LOOP, kLoop);
    d.ev(1, kWorkEnd, 100, LOOP, kLoop);
    d.ev(1, kBarrierBegin, 100, BAR_IMPL, kBarrier, 0, 1);
    d.ev(0, kBarrierBegin, 300, BAR_IMPL, kBarrier, 0, 1);
    d.ev(0, kBarrierEnd, 300, BAR_IMPL, kBarrier, 0, 1);
    d.ev(1, kBarrierEnd, 300, BAR_IMPL, kBarrier, 0, 1);
    // A nowait loop: 50 cycles of work, then 30 cycles in the parallel body.
    for (u32 th = 0; th < 2; ++th) {
        d.enter(th, LOOP2, kLoop, 300);
        d.ev(th, kWorkEnd, 350, LOOP2, kLoop);
    }
    for (u32 th = 0; th < 2; ++th) d.ev(th, kTeamEnd, 380, PAR, kParallel, team);
    d.exit(0, PAR, kParallel, 380);
    d.finish(400);
    const Node* loop = d.find(LOOP);
    const Node* loop2 = d.find(LOOP2);
    const Node* par = d.find(PAR);
    EXPECT_EQ(Driver::of(loop, 1)->col[kExitBarT], 200u);
    EXPECT_EQ(Driver::of(loop, 1)->col[kBodyT], 100u);
    EXPECT_EQ(Driver::of(loop, 0)->col[kExitBarT], 0u);
    EXPECT_EQ(Driver::of(loop, 1)->states[kImplicitBarrierWait], 200u);
    EXPECT_EQ(Driver::of(loop2, 0)->col[kExecT], 50u);
    EXPECT_EQ(Driver::of(loop2, 0)->col[kExitBarT], 0u);
    EXPECT_EQ(Driver::of(par, 0)->states[kWork], 30u);
    EXPECT_EQ(Driver::preds(loop2, 1), std::to_string(loop->id) + ":1");
    // No barrier node: the loop owns its implicit barrier.
    EXPECT_EQ(d.find(BAR_IMPL), nullptr);
    d.check_sums();
}

// The paper's Figure 8: a master construct after each loop diverges thread
// 0's flow; the other threads go from loop to loop.
TEST(RegionProfiler, MasterDivergesTheFlowOfThread0) {
    Driver d;
    const u64 team = 9;
    const u32 PAR = 1, L1 = 2, L2 = 3, MASTER = 4, IB = 5;
    u64 t = 0;
    d.ev(0, kEnter, t, PAR, kParallel, team);
    for (u32 th = 0; th < 4; ++th) d.ev(th, kTeamBegin, t, PAR, kParallel, team);
    for (u32 loop : {L1, L2}) {
        t += 10;
        for (u32 th = 0; th < 4; ++th) {
            d.enter(th, loop, kLoop, t);
            d.ev(th, kWorkEnd, t + 5, loop, kLoop);
            d.ev(th, kBarrierBegin, t + 5, IB, kBarrier, 0, 1);
        }
        t += 5;
        for (u32 th = 0; th < 4; ++th) d.ev(th, kBarrierEnd, t, IB, kBarrier, 0, 1);
        d.enter(0, MASTER, kMaster, t);
        d.exit(0, MASTER, kMaster, t + 2);
    }
    t += 10;
    for (u32 th = 0; th < 4; ++th) d.ev(th, kTeamEnd, t, PAR, kParallel, team);
    d.exit(0, PAR, kParallel, t);
    d.finish(t);
    const Node *l1 = d.find(L1), *l2 = d.find(L2), *ms = d.find(MASTER), *par = d.find(PAR);
    auto id = [](const Node* n) { return std::to_string(n->id); };
    EXPECT_EQ(Driver::preds(l2, 0), id(ms) + ":1");
    for (u32 th = 1; th < 4; ++th) EXPECT_EQ(Driver::preds(l2, th), id(l1) + ":1");
    EXPECT_EQ(Driver::preds(ms, 0), id(l1) + ":1," + id(l2) + ":1");
    EXPECT_EQ(Driver::preds(l1, 3), id(par) + ":1");
    EXPECT_EQ(Driver::of(ms, 0)->col[kExecC], 2u);
    EXPECT_EQ(Driver::of(ms, 1), nullptr);
    d.check_sums();
}

// OMPSIM_ZERO_COUNTERS: everything before is forgotten, open regions restart.
TEST(RegionProfiler, ZeroForgetsAndRestartsOpenRegions) {
    Driver d;
    d.enter(0, MAIN, kFunction, 0);
    d.enter(0, FOO, kFunction, 10);
    d.exit(0, FOO, kFunction, 20);
    u64 w = 0;
    d.p.zero(0, Sample{50, &w});
    d.instr[0] = 0;
    d.enter(0, BAR, kFunction, 60);
    d.exit(0, BAR, kFunction, 70);
    d.exit(0, MAIN, kFunction, 80);
    d.finish(100);
    EXPECT_EQ(Driver::of(d.find(FOO), 0)->col[kExecC], 0u);
    EXPECT_EQ(Driver::of(d.find(MAIN), 0)->col[kExecT], 30u);
    EXPECT_EQ(Driver::of(d.p.node(0), 0)->col[kExecT], 50u);
    d.check_sums();
}

// A thread of the program's own (no OpenMP team) works in its regions and
// is idle only outside them.
TEST(RegionProfiler, NonOpenMPThreadWorksInItsRegions) {
    Driver d;
    d.enter(0, MAIN, kFunction, 0);
    d.enter(1, FOO, kFunction, 10);
    d.exit(1, FOO, kFunction, 30);
    d.exit(0, MAIN, kFunction, 40);
    d.finish(50);
    EXPECT_EQ(Driver::of(d.find(FOO), 1)->states[kWork], 20u);
    EXPECT_EQ(Driver::of(d.p.node(0), 1)->states[kIdle], 10u + 20u);
    EXPECT_EQ(Driver::of(d.p.node(0), 0)->states[kSerial], 10u);
    d.check_sums();
}
