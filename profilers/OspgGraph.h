// The OpenMP series-parallel graph (OSPG) of Boushehrinejadmoradi, Yoga and
// Nagarakatte, "A Parallelism Profiler with What-If Analyses for OpenMP
// Programs" (SC 2018), section III: W nodes (fragments of user code without
// OpenMP directives, with their measured work), P nodes (their subtree runs
// in parallel with the siblings to their right) and S nodes (their subtree
// runs in series with the siblings to their right), plus dependence edges
// between sibling P nodes (task depend clauses).
//
// Nodes are stored in creation order: a parent is always created before its
// children and siblings are appended left to right, so a node's index is
// larger than its parent's and a reverse scan is a bottom-up traversal
// (OspgAnalysis relies on both). 48 bytes a node.
//
// Compiled twice like cachesim/: no libc, memory through an Allocator.
#ifndef OMPSIM_PROFILERS_OSPGGRAPH_H
#define OMPSIM_PROFILERS_OSPGGRAPH_H

#include "Types.h"

namespace ompsim {
namespace ospg {

enum Kind : u8 { kW, kP, kS };
constexpr u32 kNone = 0xffffffffu;
// Site 0 is the program itself (the root S node, serial code); the tool
// numbers the other sites (directives and what-if annotations, OspgSites).
constexpr u32 kProgramSite = 0;

struct Node {
    Kind kind;
    u8 reserved[3];
    u32 parent;          // kNone for the root
    u32 first_child, last_child, next_sibling;
    u32 site;            // S, P: the directive that created it; W: the what-if label (0: none)
    u32 from, to;        // W: the sites of the events that opened and closed the fragment
    u64 cycles, instr;   // W: work in simulated cycles and in instructions
};

struct Dependence {
    u32 from, to;        // sibling P nodes: `to` starts after `from` ended
};

class Graph {
public:
    // max_nodes: a bound on memory (48 bytes a node); 0 = none.
    void init(const Allocator& a, u32 max_nodes);
    void release();

    // Appends a node below `parent` (kNone: the root; only once). Returns its
    // index, or kNone when max_nodes is reached (full() is then true).
    u32 add(Kind kind, u32 parent, u32 site);
    void add_dependence(u32 from, u32 to);

    u32 size() const { return n_; }
    Node& operator[](u32 i) { return nodes_[i]; }
    const Node& operator[](u32 i) const { return nodes_[i]; }
    u32 dependence_count() const { return ndeps_; }
    const Dependence& dependence(u32 i) const { return deps_[i]; }
    bool full() const { return full_; }
    // Sets every W node's work to 0 (OMPSIM_ZERO_COUNTERS).
    void zero_work();

private:
    Allocator alloc_{};
    Node* nodes_ = nullptr;
    u32 n_ = 0, cap_ = 0, max_ = 0;
    Dependence* deps_ = nullptr;
    u32 ndeps_ = 0, deps_cap_ = 0;
    bool full_ = false;
};

}  // namespace ospg
}  // namespace ompsim

#endif
