// The OSPG builder and its analysis on event sequences whose work, span and
// critical path follow by hand (profilers/OspgBuilder.h, OspgAnalysis.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "OspgAnalysis.h"
#include "OspgBuilder.h"

using namespace ompsim;
using namespace ompsim::ospg;

namespace {

void* heap_alloc(void*, size_t n) { return std::malloc(n); }
void heap_free(void*, void* p) { std::free(p); }
const Allocator kHeap{heap_alloc, heap_free, nullptr};

// Sites of the tests.
enum : u32 { kPar = 1, kLoop = 2, kTask = 3, kTaskwait = 4, kCrit = 5, kWhatIf = 6, kBar = 7 };

// Slots whose counters advance by hand: one instruction per cycle.
struct SimRun {
    Builder b;
    u64 clock[8] = {};
    SimRun(u32 max_nodes = 0) { b.init(kHeap, max_nodes); }
    ~SimRun() { b.release(); }
    Sample at(u32 slot) { return Sample{clock[slot], clock[slot]}; }
    void work(u32 slot, u64 c) { clock[slot] += c; }
    void finish() {
        Sample s[8];
        for (u32 i = 0; i < 8; ++i) s[i] = at(i);
        b.finish(s, 8);
    }
    Analysis analyse(const AnalysisOptions& o = AnalysisOptions{}) {
        Analysis a;
        EXPECT_TRUE(a.run(b.graph(), o, kHeap));
        return a;
    }
};

u32 count(const Graph& g, Kind k) {
    u32 n = 0;
    for (u32 i = 0; i < g.size(); ++i) n += g[i].kind == k;
    return n;
}

TEST(Ospg, SerialProgramIsOneWNode) {
    SimRun r;
    r.work(0, 40);  // before begin: the program's first instructions count too
    r.b.begin(r.at(0));
    r.work(0, 60);
    r.finish();
    EXPECT_EQ(r.b.graph().size(), 2u);
    Analysis a = r.analyse();
    EXPECT_EQ(a.work(), 100);
    EXPECT_EQ(a.span(), 100);
    EXPECT_EQ(a.parallelism(), 1);
    EXPECT_EQ(a.site(kProgramSite).serial, 100);
    a.release();
}

// serial prefix p, then a parallel loop of N chunks of c cycles each on
// `threads` members (chunks dealt round-robin), then a serial suffix q:
// work p + N c + q, span p + c + q whatever the number of threads.
void loop_program(SimRun& r, u32 threads, u32 chunks, u64 c, bool dynamic) {
    r.b.begin(r.at(0));
    r.work(0, 1000);
    u32 team = r.b.fork(0, threads, kPar, r.at(0));
    for (u32 k = 1; k < threads; ++k) r.b.member_begin(k, team, k, r.at(k));
    for (u32 k = 0; k < threads; ++k) r.b.share_begin(k, kLoop, r.at(k));
    for (u32 j = 0; j < chunks; ++j) {
        u32 k = j % threads;
        if (dynamic) r.b.chunk_begin(k, kLoop, r.at(k));
        r.work(k, c);
        if (dynamic) r.b.end(k, kLoop, r.at(k));
    }
    for (u32 k = 0; k < threads; ++k) {
        r.b.share_end(k, r.at(k));
        r.b.barrier(k, kLoop, r.at(k));
    }
    for (u32 k = 0; k < threads; ++k) r.b.barrier(k, kPar, r.at(k));  // the region's end
    for (u32 k = threads; k-- > 0;) r.b.end(k, kPar, r.at(k));
    r.work(0, 500);
    r.finish();
}

TEST(Ospg, DynamicLoopSpanIsOneChunkWhateverTheThreads) {
    for (u32 threads : {1u, 2u, 4u}) {
        SimRun r;
        loop_program(r, threads, 20, 300, true);
        Analysis a = r.analyse();
        EXPECT_EQ(a.work(), 1000 + 20 * 300 + 500) << threads;
        EXPECT_EQ(a.span(), 1000 + 300 + 500) << threads;
        // The loop's segment S node ends at the loop's barrier: the directive
        // has work 6000, span 300.
        EXPECT_EQ(a.site(kLoop).work, 6000) << threads;
        EXPECT_EQ(a.site(kLoop).span, 300) << threads;
        EXPECT_EQ(a.site(kLoop).serial, 300) << threads;
        EXPECT_EQ(a.site(kProgramSite).serial, 1500) << threads;
        // No empty segment after the region's end barrier, no empty W node.
        EXPECT_EQ(count(r.b.graph(), kW), 2u + 20u) << threads;
        a.release();
    }
}

TEST(Ospg, StaticShareIsOneChunkPerThread) {
    SimRun r;
    loop_program(r, 4, 20, 300, false);
    Analysis a = r.analyse();
    EXPECT_EQ(a.span(), 1000 + 5 * 300 + 500);
    a.release();
}

TEST(Ospg, BurdenAddsOnePerChunkOnTheChain) {
    SimRun r;
    loop_program(r, 2, 10, 300, true);
    AnalysisOptions o;
    o.burden = 50;
    Analysis a = r.analyse(o);
    // Root -> region S -> segment S -> P_k (+50) -> share P (+50) -> chunk P (+50).
    EXPECT_EQ(a.burdened_span(), 1000 + 300 + 150 + 500);
    EXPECT_EQ(a.span(), 1000 + 300 + 500);
    EXPECT_DOUBLE_EQ(speedup_upper(a, 2), 2);
    EXPECT_DOUBLE_EQ(speedup_upper(a, 64), 4500.0 / 1800.0);
    EXPECT_DOUBLE_EQ(speedup_lower(a, 4), 4500.0 / (4500.0 / 4 + 1950));
    a.release();
}

// Tasks: fib-like binary tree of depth d, each node: `pre` cycles, two tasks,
// taskwait, `post` cycles; leaves `leaf` cycles.
void fib(SimRun& r, u32 slot, u32 d, u64 pre, u64 post, u64 leaf) {
    if (!d) {
        r.work(slot, leaf);
        return;
    }
    r.work(slot, pre);
    u32 p1 = r.b.task_create(slot, kTask, r.at(slot));
    u32 p2 = r.b.task_create(slot, kTask, r.at(slot));
    // Both run at once on the same slot (undeferred), in creation order.
    r.b.task_begin(slot, p1, r.at(slot));
    fib(r, slot, d - 1, pre, post, leaf);
    r.b.end(slot, kTask, r.at(slot));
    r.b.task_begin(slot, p2, r.at(slot));
    fib(r, slot, d - 1, pre, post, leaf);
    r.b.end(slot, kTask, r.at(slot));
    r.b.taskwait(slot, kTaskwait, r.at(slot));
    r.work(slot, post);
}

TEST(Ospg, TaskTreeSpanFollowsFromItsDepth) {
    const u32 d = 5;
    SimRun r;
    r.b.begin(r.at(0));
    fib(r, 0, d, 10, 7, 100);
    r.finish();
    Analysis a = r.analyse();
    double inner = (1u << d) - 1, leaves = 1u << d;
    EXPECT_EQ(a.work(), inner * 17 + leaves * 100);
    EXPECT_EQ(a.span(), d * 17 + 100);
    // The outermost task instances: the two root-level tasks.
    EXPECT_EQ(a.site(kTask).instances, 1u);  // the first task's S node holds everything
    a.release();
}

TEST(Ospg, DependenceChainSerializesSiblings) {
    SimRun r;
    r.b.begin(r.at(0));
    std::vector<u32> ps;
    for (int i = 0; i < 4; ++i) ps.push_back(r.b.task_create(0, kTask, r.at(0)));
    for (int i = 1; i < 4; ++i) r.b.dependence(ps[i - 1], ps[i]);
    for (int i = 0; i < 4; ++i) {
        r.b.task_begin(0, ps[i], r.at(0));
        r.work(0, 100 * (i + 1));
        r.b.end(0, kTask, r.at(0));
    }
    r.b.taskwait(0, kTaskwait, r.at(0));
    r.finish();
    Analysis a = r.analyse();
    EXPECT_EQ(a.work(), 1000);
    EXPECT_EQ(a.span(), 1000);
    EXPECT_EQ(a.critical_w_nodes(), 4u);
    a.release();
    // Without the edges the tasks are parallel: the span is the longest task.
    SimRun q;
    q.b.begin(q.at(0));
    ps.clear();
    for (int i = 0; i < 4; ++i) ps.push_back(q.b.task_create(0, kTask, q.at(0)));
    for (int i = 0; i < 4; ++i) {
        q.b.task_begin(0, ps[i], q.at(0));
        q.work(0, 100 * (i + 1));
        q.b.end(0, kTask, q.at(0));
    }
    q.b.taskwait(0, kTaskwait, q.at(0));
    q.finish();
    Analysis b = q.analyse();
    EXPECT_EQ(b.span(), 400);
    b.release();
}

// The creator's work between two dependent tasks is not counted twice: the
// continuation W runs beside task A; B starts when both are done.
TEST(Ospg, DependenceChainStartsAfterTheLaterOfPrefixAndPredecessor) {
    SimRun r;
    r.b.begin(r.at(0));
    u32 pa = r.b.task_create(0, kTask, r.at(0));
    r.work(0, 100);  // continuation
    u32 pb = r.b.task_create(0, kTask, r.at(0));
    r.b.dependence(pa, pb);
    r.b.task_begin(0, pa, r.at(0));
    r.work(0, 100);
    r.b.end(0, kTask, r.at(0));
    r.b.task_begin(0, pb, r.at(0));
    r.work(0, 100);
    r.b.end(0, kTask, r.at(0));
    r.b.taskwait(0, kTaskwait, r.at(0));
    r.finish();
    Analysis a = r.analyse();
    EXPECT_EQ(a.work(), 300);
    EXPECT_EQ(a.span(), 200);  // Figure 5's sum would say 300
    a.release();
}

// Critical sections split the W nodes; waits are not work (the builder only
// sees the counters, which do not run while a slot waits).
TEST(Ospg, CriticalSectionsAreTheirOwnWNodes) {
    SimRun r;
    r.b.begin(r.at(0));
    u32 team = r.b.fork(0, 2, kPar, r.at(0));
    r.b.member_begin(1, team, 1, r.at(1));
    for (u32 k = 0; k < 2; ++k) {
        r.work(k, 100);
        r.b.split(k, kCrit, r.at(k));
        r.work(k, 30);
        r.b.split(k, kCrit, r.at(k));
        r.work(k, 50);
        r.b.barrier(k, kPar, r.at(k));
    }
    r.b.end(1, kPar, r.at(1));
    r.b.end(0, kPar, r.at(0));
    r.finish();
    Analysis a = r.analyse();
    EXPECT_EQ(a.work(), 360);
    EXPECT_EQ(a.span(), 180);
    EXPECT_EQ(count(r.b.graph(), kW), 6u);
    // The critical path: one member's three fragments.
    ASSERT_EQ(a.fragment_count(), 3u);
    EXPECT_EQ(a.fragment(0).serial, 100);
    EXPECT_EQ(a.fragment(0).from, kPar);
    EXPECT_EQ(a.fragment(0).to, kCrit);
    EXPECT_EQ(a.fragment(2).serial, 30);
    EXPECT_EQ(a.site(kPar).serial, 180);
    a.release();
}

double quarter_labelled(void*, const Node& w) { return w.site == 1 ? 4.0 : 1.0; }

// What-if (Figure 4): a labelled region's serial work shrinks by the factor,
// the total work stays as measured.
TEST(Ospg, WhatIfDividesTheLabelledSerialWork) {
    SimRun r;
    r.b.begin(r.at(0));
    r.work(0, 200);
    r.b.label(0, 1, kWhatIf, r.at(0));
    r.work(0, 800);
    r.b.label(0, 0, kWhatIf, r.at(0));
    u32 team = r.b.fork(0, 2, kPar, r.at(0));
    r.b.member_begin(1, team, 1, r.at(1));
    for (u32 k = 0; k < 2; ++k) {
        r.b.share_begin(k, kLoop, r.at(k));
        r.work(k, 500);
        r.b.share_end(k, r.at(k));
        r.b.barrier(k, kLoop, r.at(k));
    }
    r.b.end(1, kPar, r.at(1));
    r.b.end(0, kPar, r.at(0));
    r.finish();
    Analysis base = r.analyse();
    EXPECT_EQ(base.work(), 2000);
    EXPECT_EQ(base.span(), 1500);
    AnalysisOptions o;
    o.factor = quarter_labelled;
    Analysis wi = r.analyse(o);
    EXPECT_EQ(wi.work(), 2000);
    EXPECT_EQ(wi.span(), 200 + 200 + 500);
    base.release();
    wi.release();
}

TEST(Ospg, NestedParallelRegionsNest) {
    SimRun r;
    r.b.begin(r.at(0));
    u32 outer = r.b.fork(0, 2, kPar, r.at(0));
    r.b.member_begin(1, outer, 1, r.at(1));
    for (u32 k = 0; k < 2; ++k) {
        // Each outer member forks an inner team of 2 on slots k and k + 2.
        u32 inner = r.b.fork(k, 2, kPar + 10, r.at(k));
        r.b.member_begin(k + 2, inner, 1, r.at(k + 2));
        r.work(k, 100);
        r.work(k + 2, 100);
        r.b.end(k + 2, kPar + 10, r.at(k + 2));
        r.b.end(k, kPar + 10, r.at(k));
        r.work(k, 10);
        r.b.end(k, kPar, r.at(k));
    }
    r.finish();
    Analysis a = r.analyse();
    EXPECT_EQ(a.work(), 420);
    EXPECT_EQ(a.span(), 110);
    EXPECT_EQ(a.site(kPar + 10).instances, 2u);
    EXPECT_EQ(a.site(kPar + 10).work, 400);
    EXPECT_EQ(a.site(kPar + 10).span, 200);
    a.release();
}

TEST(Ospg, FullGraphLosesWorkVisibly) {
    SimRun r(4);
    r.b.begin(r.at(0));
    u32 team = r.b.fork(0, 2, kPar, r.at(0));  // root, region S, segment S: 3 nodes, P_0 the 4th
    r.b.member_begin(1, team, 1, r.at(1));
    r.work(0, 10);
    r.work(1, 20);
    r.b.end(1, kPar, r.at(1));
    r.b.end(0, kPar, r.at(0));
    r.finish();
    EXPECT_TRUE(r.b.graph().full());
    EXPECT_EQ(r.b.lost_cycles(), 30u);
}

}  // namespace
