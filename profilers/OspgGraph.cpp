#include "OspgGraph.h"

#include "GrowArray.h"

namespace ompsim {
namespace ospg {

void Graph::init(const Allocator& a, u32 max_nodes) {
    alloc_ = a;
    max_ = max_nodes;
}

void Graph::release() {
    if (alloc_.release) {
        if (nodes_) alloc_.release(alloc_.ctx, nodes_);
        if (deps_) alloc_.release(alloc_.ctx, deps_);
    }
    nodes_ = nullptr;
    deps_ = nullptr;
    n_ = cap_ = ndeps_ = deps_cap_ = 0;
    full_ = false;
}

u32 Graph::add(Kind kind, u32 parent, u32 site) {
    if ((max_ && n_ >= max_) || n_ == kNone - 1) {
        full_ = true;
        return kNone;
    }
    grow_array(alloc_, nodes_, cap_, n_ + 1, 1024);
    u32 i = n_++;
    Node& x = nodes_[i];
    x = Node{};
    x.kind = kind;
    x.parent = parent;
    x.first_child = x.last_child = x.next_sibling = kNone;
    x.site = site;
    x.from = x.to = kProgramSite;
    if (parent != kNone) {
        Node& p = nodes_[parent];
        if (p.last_child == kNone)
            p.first_child = i;
        else
            nodes_[p.last_child].next_sibling = i;
        p.last_child = i;
    }
    return i;
}

void Graph::add_dependence(u32 from, u32 to) {
    if (from == kNone || to == kNone) return;
    grow_array(alloc_, deps_, deps_cap_, ndeps_ + 1, 64);
    deps_[ndeps_++] = Dependence{from, to};
}

void Graph::zero_work() {
    for (u32 i = 0; i < n_; ++i) nodes_[i].cycles = nodes_[i].instr = 0;
}

}  // namespace ospg
}  // namespace ompsim
