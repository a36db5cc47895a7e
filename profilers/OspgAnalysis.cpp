#include "OspgAnalysis.h"

#include "GrowArray.h"

namespace ompsim {
namespace ospg {

namespace {

template <typename T>
T* take(const Allocator& a, u32 n) {
    return static_cast<T*>(a.alloc(a.ctx, (n ? n : 1) * sizeof(T)));
}

template <typename T>
void give(const Allocator& a, T*& p) {
    if (p && a.release) a.release(a.ctx, p);
    p = nullptr;
}

// Work items of the critical-path trace.
enum Op : u32 { kExpand, kChain };
struct Item {
    Op op;
    u32 node;
};

}  // namespace

void Analysis::release() {
    give(a_, sites_);
    give(a_, frags_);
    nsites_ = nfrag_ = frag_cap_ = path_w_ = 0;
    work_ = span_ = bspan_ = 0;
}

void Analysis::add_fragment(const Node& w, double serial, double work) {
    ++path_w_;
    for (u32 i = 0; i < nfrag_; ++i) {
        Fragment& f = frags_[i];
        if (f.from == w.from && f.to == w.to && f.label == w.site) {
            ++f.count;
            f.serial += serial;
            f.work += work;
            return;
        }
    }
    grow_array(a_, frags_, frag_cap_, nfrag_ + 1, 16);
    frags_[nfrag_++] = Fragment{w.from, w.to, w.site, 1, serial, work};
}

bool Analysis::run(const Graph& g, const AnalysisOptions& o, const Allocator& a) {
    release();
    a_ = a;
    const u32 n = g.size();
    if (!n) {
        sites_ = take<SiteFigures>(a, 1);
        if (!sites_) return false;
        sites_[0] = SiteFigures{};
        nsites_ = 1;
        return true;
    }
    double* w = take<double>(a, n);
    double* s = take<double>(a, n);
    double* bs = take<double>(a, n);
    double* fin = take<double>(a, n);
    double* bfin = take<double>(a, n);
    u32* best = take<u32>(a, n);
    u32* via = take<u32>(a, n);
    // Dependence predecessors of each P node (CSR by `to`).
    const u32 nd = g.dependence_count();
    u32* first = take<u32>(a, n + 1);
    u32* pred = take<u32>(a, nd);
    Item* stack = nullptr;
    u32 stack_cap = 0;
    bool ok = w && s && bs && fin && bfin && best && via && first && pred;
    if (ok) {
        for (u32 i = 0; i <= n; ++i) first[i] = 0;
        for (u32 d = 0; d < nd; ++d) {
            const Dependence& e = g.dependence(d);
            if (e.to < n && e.from < e.to) ++first[e.to + 1];
        }
        for (u32 i = 0; i < n; ++i) first[i + 1] += first[i];
        u32* fill = via;  // borrowed as a cursor before the bottom-up pass
        for (u32 i = 0; i < n; ++i) fill[i] = first[i];
        for (u32 d = 0; d < nd; ++d) {
            const Dependence& e = g.dependence(d);
            if (e.to < n && e.from < e.to) pred[fill[e.to]++] = e.from;
        }

        // Bottom-up: children have larger indices than their parent.
        u32 max_site = 0;
        for (u32 i = n; i-- > 0;) {
            const Node& x = g[i];
            best[i] = via[i] = kNone;
            if (x.kind == kW) {
                double work = double(o.instructions ? x.instr : x.cycles);
                double f = o.factor ? o.factor(o.ctx, x) : 1.0;
                if (!(f > 0)) f = 1.0;
                w[i] = work;
                s[i] = bs[i] = work / f;
                continue;
            }
            if (x.site > max_site) max_site = x.site;
            double sum = 0, prefix = 0, bprefix = 0, maxf = -1, bmax = 0;
            u32 best_p = kNone;
            for (u32 c = x.first_child; c != kNone; c = g[c].next_sibling) {
                sum += w[c];
                if (g[c].kind != kP) {
                    prefix += s[c];
                    bprefix += bs[c];
                    continue;
                }
                double start = prefix, bstart = bprefix;
                u32 v = kNone;
                for (u32 k = first[c]; k < first[c + 1]; ++k) {
                    u32 d = pred[k];
                    if (g[d].parent != i) continue;  // only siblings order each other
                    if (fin[d] > start) {
                        start = fin[d];
                        v = d;
                    }
                    if (bfin[d] > bstart) bstart = bfin[d];
                }
                via[c] = v;
                fin[c] = start + s[c];
                bfin[c] = bstart + bs[c] + o.burden;
                if (fin[c] > maxf) {
                    maxf = fin[c];
                    best_p = c;
                }
                if (bfin[c] > bmax) bmax = bfin[c];
            }
            w[i] = sum;
            s[i] = maxf > prefix ? maxf : prefix;
            best[i] = maxf > prefix ? best_p : kNone;
            bs[i] = bmax > bprefix ? bmax : bprefix;
        }
        work_ = w[0];
        span_ = s[0];
        bspan_ = bs[0];

        // Directives: their outermost instances.
        nsites_ = max_site + 1;
        sites_ = take<SiteFigures>(a, nsites_);
        ok = sites_ != nullptr;
        if (ok) {
            for (u32 t = 0; t < nsites_; ++t) sites_[t] = SiteFigures{};
            for (u32 i = 0; i < n; ++i) {
                const Node& x = g[i];
                if (x.kind == kW) continue;
                bool outer = true;
                for (u32 p = x.parent; p != kNone && outer; p = g[p].parent)
                    if (g[p].kind != kW && g[p].site == x.site) outer = false;
                if (!outer) continue;
                SiteFigures& f = sites_[x.site];
                ++f.instances;
                f.work += w[i];
                f.span += s[i];
                f.burdened_span += bs[i];
            }
        }

        // The critical path, traced back from the root.
        u32 depth = 0;
        auto push = [&](Op op, u32 node) {
            grow_array(a, stack, stack_cap, depth + 1, 64);
            stack[depth++] = Item{op, node};
        };
        if (ok) push(kExpand, 0);
        while (ok && depth) {
            Item it = stack[--depth];
            const Node& x = g[it.node];
            if (it.op == kChain) {
                // The chain that ends with the P node: what precedes it, then it.
                push(kExpand, it.node);
                if (via[it.node] != kNone) {
                    push(kChain, via[it.node]);
                } else {
                    for (u32 c = g[x.parent].first_child; c != it.node; c = g[c].next_sibling)
                        if (g[c].kind != kP) push(kExpand, c);
                }
                continue;
            }
            if (x.kind == kW) {
                u32 owner = x.parent == kNone ? kProgramSite : g[x.parent].site;
                if (owner < nsites_) sites_[owner].serial += s[it.node];
                add_fragment(x, s[it.node], w[it.node]);
                continue;
            }
            if (best[it.node] != kNone) {
                push(kChain, best[it.node]);
            } else {
                for (u32 c = x.first_child; c != kNone; c = g[c].next_sibling)
                    if (g[c].kind != kP) push(kExpand, c);
            }
        }
        sort_fragments();
    }
    give(a, w);
    give(a, s);
    give(a, bs);
    give(a, fin);
    give(a, bfin);
    give(a, best);
    give(a, via);
    give(a, first);
    give(a, pred);
    give(a, stack);
    return ok;
}

// Most serial work first; ties by (from, to, label).
void Analysis::sort_fragments() {
    for (u32 i = 1; i < nfrag_; ++i) {
        Fragment f = frags_[i];
        u32 j = i;
        for (; j > 0; --j) {
            const Fragment& e = frags_[j - 1];
            bool before = f.serial > e.serial ||
                          (f.serial == e.serial &&
                           (f.from < e.from || (f.from == e.from && (f.to < e.to || (f.to == e.to && f.label < e.label)))));
            if (!before) break;
            frags_[j] = e;
        }
        frags_[j] = f;
    }
}

void Analysis::fold_unnamed(bool (*named)(void* ctx, u32 site), void* ctx) {
    for (u32 t = 1; t < nsites_; ++t) {
        if (named(ctx, t)) continue;
        sites_[kProgramSite].serial += sites_[t].serial;
        sites_[t] = SiteFigures{};
    }
    u32 m = 0;
    for (u32 i = 0; i < nfrag_; ++i) {
        Fragment f = frags_[i];
        if (f.from != kProgramSite && !named(ctx, f.from)) f.from = kProgramSite;
        if (f.to != kProgramSite && !named(ctx, f.to)) f.to = kProgramSite;
        u32 j = 0;
        while (j < m && !(frags_[j].from == f.from && frags_[j].to == f.to && frags_[j].label == f.label)) ++j;
        if (j < m) {
            frags_[j].count += f.count;
            frags_[j].serial += f.serial;
            frags_[j].work += f.work;
        } else {
            frags_[m++] = f;
        }
    }
    nfrag_ = m;
    sort_fragments();
}

double speedup_upper(const Analysis& a, u32 cores) {
    double p = a.parallelism();
    return p < cores ? p : double(cores);
}

double speedup_lower(const Analysis& a, u32 cores) {
    double t = a.work() / cores + a.burdened_span();
    return t > 0 ? a.work() / t : 1;
}

}  // namespace ospg
}  // namespace ompsim
