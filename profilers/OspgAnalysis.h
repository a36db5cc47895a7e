// The parallelism profile of an OSPG (OspgGraph.h): section IV of the
// OMP-WHIP paper, used by the tool at the end of the run (the document's
// <parallelism>) and by ompsim-report on an OSPG log (parallelism, whatif).
//
// Bottom-up, every node gets its work w (the sum of its W nodes' work), its
// span s (the serial work of its critical path) and its burdened span. A
// node's children run in series, except that each P child starts a chain
// that runs in parallel with the siblings to its right (Figure 5). A P
// child's chain starts after the serial work of the W and S siblings to its
// left, or, with dependence edges, after the latest-finishing predecessor
// chain, whichever is later: the longest path of the DAG. (Figure 5 adds the
// left siblings' serial work and the dependence chain's: that counts the
// creator's work between two dependent tasks twice; docs/parallelism.md.)
//
// What-if (Figure 4): the W nodes a factor applies to contribute work / f to
// spans while every w stays as measured.
//
// Burdened span (Cilkview's): each P node on a chain adds `burden` cycles,
// the cost of handing a chunk, a team member or a task to another core.
//
// Per static directive (section IV-B): the work and span of a directive are
// summed over its outermost dynamic instances (an instance inside another of
// the same directive, as in recursive tasks, is part of that one). The
// critical path is traced back from the root to its W nodes; each W node's
// serial work is the exclusive share of the directive whose node holds it
// (its parent's site; the root's site is the program).
//
// Compiled twice like cachesim/: no libc, memory through an Allocator.
#ifndef OMPSIM_PROFILERS_OSPGANALYSIS_H
#define OMPSIM_PROFILERS_OSPGANALYSIS_H

#include "OspgGraph.h"

namespace ompsim {
namespace ospg {

struct AnalysisOptions {
    bool instructions = false;  // work in instructions (else cycles)
    double burden = 0;          // per P node on a chain (in the work's unit)
    // What-if: the factor by which a W node's serial work is divided (1: none);
    // null = no what-if.
    double (*factor)(void* ctx, const Node& w) = nullptr;
    void* ctx = nullptr;
};

struct SiteFigures {
    u32 instances;   // outermost dynamic instances (0: the site made no node)
    double work, span, burdened_span;
    double serial;   // critical-path serial work of the W nodes it holds
};

// Critical-path W nodes with the same boundaries and what-if label.
struct Fragment {
    u32 from, to, label;
    u32 count;       // W nodes
    double serial;   // their serial work (after what-if factors)
    double work;     // their work as measured
};

class Analysis {
public:
    // False if memory ran out (hosted allocators may return null).
    bool run(const Graph& g, const AnalysisOptions& o, const Allocator& a);
    void release();

    // The program (the root).
    double work() const { return work_; }
    double span() const { return span_; }
    double burdened_span() const { return bspan_; }
    double parallelism() const { return span_ > 0 ? work_ / span_ : 1; }
    double burdened_parallelism() const { return bspan_ > 0 ? work_ / bspan_ : 1; }

    // Per site id (0 = the program), for ids below site_count().
    u32 site_count() const { return nsites_; }
    const SiteFigures& site(u32 id) const { return sites_[id]; }

    // The critical path's fragments, most serial work first (ties: from, to, label).
    u32 fragment_count() const { return nfrag_; }
    const Fragment& fragment(u32 i) const { return frags_[i]; }
    u32 critical_w_nodes() const { return path_w_; }

    // Sites an output cannot name (a region with no node in the region
    // profile) become the program: their serial work is the program's,
    // their figures are dropped, and fragments bounded by them are bounded
    // by the program's start or end (merged with those that already were).
    // The shares still add up to the span.
    void fold_unnamed(bool (*named)(void* ctx, u32 site), void* ctx);

private:
    Allocator a_{};
    double work_ = 0, span_ = 0, bspan_ = 0;
    SiteFigures* sites_ = nullptr;
    u32 nsites_ = 0;
    Fragment* frags_ = nullptr;
    u32 nfrag_ = 0, frag_cap_ = 0;
    u32 path_w_ = 0;
    void add_fragment(const Node& w, double serial, double work);
    void sort_fragments();
};

// Speedup bounds on `cores` cores: upper min(cores, parallelism); lower
// work / (work / cores + burdened span) (Brent's bound on the burdened DAG,
// Cilkview's estimate).
double speedup_upper(const Analysis& a, u32 cores);
double speedup_lower(const Analysis& a, u32 cores);

}  // namespace ospg
}  // namespace ompsim

#endif
