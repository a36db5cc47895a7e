// ompP's view of a run (Fürlinger and Moore, "Capturing and Analyzing the
// Execution Control Flow of OpenMP Applications", IJPP 2009), in simulated
// cycles: the call graph of regions (OpenMP constructs, user regions,
// functions) with ompP's columns and the machine's counters per node and
// thread, the predecessor list of every node (the control-flow graph), and
// the OpenMP state of every thread's every cycle (the collector API's
// states), charged to the node the thread was in. docs/regions.md has the
// rules; the important ones:
//  - a node is a region in the context of its parent node: the same
//    construct reached through two call paths gives two nodes;
//  - the predecessor of a node entered from `cur` is the sibling the thread
//    left last (a child of `cur`), else `cur` itself (the paper's Figure 4);
//  - a worker's parallel region hangs below the node the initial thread was
//    in when it forked the team (the user-model call stack);
//  - loops, sections and singles own the implicit barrier that follows them
//    (exitBarT); without one they end where their work ended (nowait).
//
// Events arrive per thread in replay order (RegionTypes.h). Times are the
// thread's core clock; counters are the thread's raw machine counters (the
// tool decides what they are, `words` of them), subtracted at exit, so a
// node's counters are inclusive.
//
// Compiled twice like cachesim/: no libc, memory through an Allocator.
#ifndef OMPSIM_PROFILERS_REGIONPROFILER_H
#define OMPSIM_PROFILERS_REGIONPROFILER_H

#include "RegionTypes.h"

namespace ompsim {
namespace regions {

constexpr u32 kMaxCounterWords = 32;
constexpr u32 kRootNode = 0;

// A thread's clock and counters at an event.
struct Sample {
    u64 cycles;
    const u64* counters;  // `words` values (RegionProfiler::init)
};

struct NodeThread {
    u32 thread;
    NodeThread* next;           // ascending thread
    u64 col[kColumns];
    u64 states[kStates];        // exclusive cycles in the node, per state
    u64* counters;              // inclusive, `words` values
};

struct Pred {
    u32 from;                   // node id (the parent, or a sibling)
    u32 thread;
    u64 count;
    Pred* next;                 // ascending (from, thread)
};

struct Node {
    u32 id;                     // creation order; 0 = the root (the program)
    u32 region;                 // the tool's region id (kNoRegion for the root)
    RegionType type;
    Node* parent;
    Node* first_child;          // creation order
    Node* last_child;
    Node* next_sibling;
    NodeThread* threads;
    Pred* preds;
};

class RegionProfiler {
public:
    bool init(const Allocator& a, u32 words);

    // One event of `thread` (RegionTypes.h). `region` and `type` name the
    // construct for kEnter, kTeamBegin (the parallel) and kBarrierBegin
    // (the barrier); `team` identifies a team instance (kEnter of a
    // parallel, kTeamBegin, kTeamEnd); `flag` is 1 for an implicit barrier.
    void event(u32 thread, RegionEvent ev, u32 region, RegionType type, u64 team, u32 flag, const Sample& now);
    // End of the run at `now` (every thread's last cycle is the program's):
    // closes what is open and charges the time left.
    void finish(u32 thread, const Sample& now);
    // OMPSIM_ZERO_COUNTERS: forgets every figure; open regions restart at `now`.
    void zero(u32 thread, const Sample& now);

    // The node the last event() entered (a region entry for the event flow
    // graph), or null.
    const Node* entered() const { return entered_; }
    // The node `thread` is in now (a loop whose work ended without a barrier
    // counts as left: the thread is in its parent).
    const Node* node_of(u32 thread);

    u32 node_count() const { return nnodes_; }
    const Node* node(u32 id) const { return nodes_[id]; }
    u32 words() const { return words_; }
    u32 threads() const { return nthreads_; }

private:
    struct Frame;
    struct ThreadRec;
    struct TeamRec {
        u64 key;
        Node* node;
    };

    void* mem(size_t bytes);
    Node* new_node(Node* parent, u32 region, RegionType type);
    Node* child(Node* parent, u32 region, RegionType type);
    NodeThread* stats(Node* n, u32 thread);
    ThreadRec& rec(u32 thread);
    void charge(ThreadRec& t, u32 thread, u64 cycles);
    Frame& push(ThreadRec& t, u32 thread, Node* parent, u32 region, RegionType type, const Sample& now);
    void pop(ThreadRec& t, u32 thread, u64 cycles, const u64* counters);
    void resolve_pending(ThreadRec& t, u32 thread);
    Node* current(const ThreadRec& t) const;

    Allocator alloc_{};
    u32 words_ = 0;
    Node** nodes_ = nullptr;
    u32 nnodes_ = 0, nodes_cap_ = 0;
    ThreadRec** threads_ = nullptr;
    u32 nthreads_ = 0, threads_cap_ = 0;
    const Node* entered_ = nullptr;
    TeamRec* teams_ = nullptr;
    u32 nteams_ = 0, teams_cap_ = 0;
};

}  // namespace regions
}  // namespace ompsim

#endif
