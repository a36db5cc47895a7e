// Builds the OSPG (OspgGraph.h) on the fly from the replayed OpenMP events,
// as section III-B of the OMP-WHIP paper does from OMPT callbacks, with the
// replay's slots in place of threads. Each slot has a stack of frames, one
// per logical unit it runs (the serial program, an implicit task, a loop
// share, a dynamic chunk, an explicit task); a frame's open W node measures
// the slot's counters from the event that opened it to the one that closes it.
//
// Construction (docs/parallelism.md has the figures):
// - program start: the root S node; the serial code's W nodes below it;
// - parallel: an S node for the region, below it an S node per barrier
//   segment, below that one P node per team member (P_k); a member's W
//   nodes hang below its P_k; a barrier moves every member to the next
//   segment (created when a member first does work there);
// - a loop's (or sections') share of a thread: a P node below the thread's
//   node; a dynamic or guided chunk: a P node below the share;
// - task: the first task since the creator's last taskwait adds an S node
//   below the creator; each task a P node below that S node, the creator's
//   continuation W nodes go below the S node too; taskwait (and the end of a
//   taskgroup) closes the S node; depend clauses add dependence edges
//   between the sibling P nodes;
// - critical, locks, master, single, ordered, user regions, what-if
//   annotations: the W node is split (the W node of a critical section is
//   its own, so no wait is ever measured: waits are not work);
// - nested parallel regions nest like any other (OMP-WHIP had none).
// A W node with no work (no cycle and no instruction) is not created.
//
// Compiled twice like cachesim/: no libc, memory through an Allocator.
#ifndef OMPSIM_PROFILERS_OSPGBUILDER_H
#define OMPSIM_PROFILERS_OSPGBUILDER_H

#include "OspgGraph.h"

namespace ompsim {
namespace ospg {

// A slot's counters when an event happens.
struct Sample {
    u64 cycles, instr;
};

class Builder {
public:
    static constexpr u32 kMaxSlots = 256;
    static constexpr u32 kMaxDepth = 64;

    // max_nodes: Graph::init's bound.
    void init(const Allocator& a, u32 max_nodes);
    void release();
    Graph& graph() { return g_; }
    const Graph& graph() const { return g_; }

    // The program starts on slot 0 (its counters start at `now`).
    void begin(Sample now);

    // A team of `size` members forks on `slot` (the encountering frame);
    // its member 0 starts on the same slot. Returns the team's handle.
    u32 fork(u32 slot, u32 size, u32 site, Sample now);
    // Member k (k > 0) of `team` starts on `slot`.
    void member_begin(u32 slot, u32 team, u32 k, Sample now);
    // The member frame on top of `slot` reached a barrier ended by the
    // construct `site` (the loop, single or sections it ends, the parallel
    // region, or an explicit barrier).
    void barrier(u32 slot, u32 site, Sample now);
    // A loop's or sections' share of the member on top of `slot` begins / ends.
    void share_begin(u32 slot, u32 site, Sample now);
    void share_end(u32 slot, Sample now);
    // A dynamic chunk begins on `slot` (below the frame on top).
    void chunk_begin(u32 slot, u32 site, Sample now);
    // A task is created by the frame on top of `slot`: returns its P node.
    u32 task_create(u32 slot, u32 site, Sample now);
    // The task whose P node is `p` starts on `slot`.
    void task_begin(u32 slot, u32 p, Sample now);
    // The frame on top of `slot` waits for its tasks (taskwait, end of a taskgroup).
    void taskwait(u32 slot, u32 site, Sample now);
    // The unit on top of `slot` ends (member, chunk, task): its frame is popped.
    void end(u32 slot, u32 site, Sample now);
    // A directive that only splits the W node (critical, lock, master...).
    void split(u32 slot, u32 site, Sample now);
    // A what-if annotation: the W nodes that follow on this frame carry
    // `label` (0: none), split at `site`.
    void label(u32 slot, u32 label, u32 site, Sample now);
    // `to` depends on `from` (two tasks' P nodes).
    void dependence(u32 from, u32 to) { g_.add_dependence(from, to); }
    // The end of the run: every open W node closes at `now` of its slot.
    void finish(const Sample* now_of_slot, u32 nslots);
    // OMPSIM_ZERO_COUNTERS: the work so far is dropped; the slots'
    // counters restart (at `now_of_slot`).
    void zero(const Sample* now_of_slot, u32 nslots);

    // Work that could not be given a W node because the graph was full.
    u64 lost_cycles() const { return lost_cycles_; }
    u64 lost_instr() const { return lost_instr_; }
    // Events that did not fit the model (a barrier outside a team, more
    // than kMaxDepth nested units...): counted, never fatal.
    u32 anomalies() const { return anomalies_; }

private:
    struct Frame {
        u32 type;       // what the frame runs (OspgBuilder.cpp: FrameType)
        u32 node;       // container (P or S); kNone: a member's segment not created yet
        u32 tasks;      // the S node of the tasks created since the last taskwait
        u32 team, member, gen;  // member frames (team kNone otherwise)
        u32 label;
        u32 from;       // the site the open W node starts at
        Sample start;   // the counters when it opened
    };
    struct Team {
        u32 s_par;
        u32 size;
        u32 label;      // the forking frame's what-if label (its members inherit it)
        u32* seg;       // the segment S node of each barrier generation (kNone: not created)
        u32* seg_site;  // the construct whose barrier ends it (kNone: not known yet)
        u32 nseg, cap;
    };
    struct Slot {
        Frame frames[kMaxDepth];
        u32 depth;
    };

    Frame* top(u32 slot);
    Frame* push(u32 slot, u32 type, u32 node, u32 from, Sample now);
    void unwind_to_member(u32 slot, u32 site, Sample now);
    void close_w(Frame& f, u32 to, Sample now);
    Frame* close_top(u32 slot, u32 site, Sample now);
    void open_part(u32 slot, u32 site, Sample now, u32 type);
    u32 container(Frame& f);
    u32 segment_member(Team& t, u32 gen, u32 k);
    void grow_team(Team& t, u32 gen);
    Team& team(u32 i) { return teams_[i]; }

    Graph g_;
    Allocator alloc_{};
    Slot* slots_[kMaxSlots] = {};
    Team* teams_ = nullptr;
    u32 nteams_ = 0, teams_cap_ = 0;
    u64 lost_cycles_ = 0, lost_instr_ = 0;
    u32 anomalies_ = 0;
};

}  // namespace ospg
}  // namespace ompsim

#endif
