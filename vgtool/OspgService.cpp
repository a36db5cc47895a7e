#include "OspgService.h"

#include "CoreSim.h"
#include "OspgAnalysis.h"
#include "OspgBuilder.h"
#include "OutputFiles.h"
#include "ProfileWriter.h"
#include "RegionTable.h"
#include "ToolArray.h"
#include "Warnings.h"

namespace ompsim {
namespace ospgsvc {

namespace {

using ospg::kNone;

struct Site {
    u32 region;   // regions::kNoRegion for a what-if site
    u32 label;    // what-if sites
    bool begin;
    Addr where;
};

struct Label {
    const HChar* name;
};

Options g_opt;
ospg::Builder g_b;
bool g_started, g_finished;
Site* g_sites;            // [0] is the program
u32 g_nsites, g_sites_cap;
u32* g_site_of_region;    // region id -> site (0: none yet)
u32 g_region_cap;
Label* g_labels;          // [0] unused
u32 g_nlabels, g_labels_cap;
// Per slot: the construct the next kMkBarrier's barrier belongs to, the
// loop whose chunks follow, the taskwait or taskgroup the next wait marker is.
u32 g_barrier_site[ospg::Builder::kMaxSlots];
u32 g_loop_site[ospg::Builder::kMaxSlots];
u32 g_wait_site[ospg::Builder::kMaxSlots];

void* alloc(void*, size_t n) { return VG_(malloc)("ompsim.ospg", n); }
void release(void*, void* p) { VG_(free)(p); }
const Allocator kAlloc{alloc, release, nullptr};

ospg::Sample sample(u32 slot) {
    const CoreCounters& c = coresim::counters(slot);
    return ospg::Sample{c.busy / 100, c.ir};
}

u32 new_site(const Site& s) {
    if (!g_nsites) {
        reserve(g_sites, g_sites_cap, 1, 32, "ompsim.ospg");
        g_sites[g_nsites++] = Site{regions::kNoRegion, 0, false, 0};
    }
    reserve(g_sites, g_sites_cap, g_nsites + 1, 32, "ompsim.ospg");
    g_sites[g_nsites] = s;
    return g_nsites++;
}

u32 site_of_region(u32 region) {
    if (region == regions::kNoRegion) return ospg::kProgramSite;
    if (region >= g_region_cap) {
        u32 old = g_region_cap;
        reserve(g_site_of_region, g_region_cap, region + 1, 64, "ompsim.ospg");
        for (u32 i = old; i < g_region_cap; ++i) g_site_of_region[i] = 0;
    }
    if (!g_site_of_region[region]) g_site_of_region[region] = new_site(Site{region, 0, false, 0});
    return g_site_of_region[region];
}

bool active() { return g_opt.enabled && g_started; }

bool splits(regions::RegionType t) {
    return t == regions::kCritical || t == regions::kLock || t == regions::kOrdered || t == regions::kMaster ||
           t == regions::kSingle || t == regions::kUser;
}

bool shares(regions::RegionType t) { return t == regions::kLoop || t == regions::kSections; }

}  // namespace

void configure(const Options& o) {
    g_opt = o;
    if (g_opt.enabled) g_b.init(kAlloc, g_opt.max_nodes);
}

bool enabled() { return g_opt.enabled; }

void unit_begin(u32 slot, Unit* u) {
    if (!g_opt.enabled || slot >= ospg::Builder::kMaxSlots) return;
    switch (u->kind) {
        case UnitKind::Serial:
            if (!g_started) {
                g_started = true;
                g_b.begin(sample(slot));
            }
            break;
        case UnitKind::Implicit:
            if (active() && u->thread_num > 0 && u->team && u->team->ospg != kNone)
                g_b.member_begin(slot, u->team->ospg, u->thread_num, sample(slot));
            break;
        case UnitKind::Chunk:
            if (active()) g_b.chunk_begin(slot, g_loop_site[slot], sample(slot));
            break;
        case UnitKind::Task:
            if (active()) g_b.task_begin(slot, u->ospg, sample(slot));
            break;
        case UnitKind::Single:
            if (active()) g_b.split(slot, g_loop_site[slot], sample(slot));
            break;
        case UnitKind::Thread:
            break;  // spawned()
    }
}

void unit_end(u32 slot, Unit* u) {
    if (!active() || slot >= ospg::Builder::kMaxSlots) return;
    switch (u->kind) {
        case UnitKind::Implicit:
            if (u->team && u->team->ospg != kNone) g_b.end(slot, site_of_region(u->team->region), sample(slot));
            break;
        case UnitKind::Chunk:
            g_b.end(slot, g_loop_site[slot], sample(slot));
            break;
        case UnitKind::Task:
            g_b.end(slot, u->ospg != kNone ? g_b.graph()[u->ospg].site : 0, sample(slot));
            break;
        case UnitKind::Thread:
            g_b.end(slot, ospg::kProgramSite, sample(slot));
            break;
        case UnitKind::Single:
            g_b.split(slot, g_loop_site[slot], sample(slot));
            break;
        case UnitKind::Serial:
            break;  // finish()
    }
}

void fork(u32 slot, Team* t) {
    t->ospg = kNone;
    if (!active()) return;
    t->ospg = g_b.fork(slot, t->size, site_of_region(t->region), sample(slot));
}

void barrier(u32 slot) {
    if (!active()) return;
    g_b.barrier(slot, g_barrier_site[slot], sample(slot));
}

void task_created(u32 slot, Unit* task) {
    task->ospg = kNone;
    if (!active()) return;
    task->ospg = g_b.task_create(slot, site_of_region(task->region), sample(slot));
}

void spawned(u32 slot, u32 new_slot, Unit* thread) {
    thread->ospg = kNone;
    if (!active()) return;
    thread->ospg = g_b.task_create(slot, ospg::kProgramSite, sample(slot));
    g_b.task_begin(new_slot, thread->ospg, sample(new_slot));
}

void dependence(Unit* from, Unit* to) {
    if (!active()) return;
    g_b.dependence(from->ospg, to->ospg);
}

void taskwait(u32 slot) {
    if (!active()) return;
    g_b.taskwait(slot, g_wait_site[slot], sample(slot));
}

void whatif(u32 slot, u32 site, u32 label) {
    if (!active()) return;
    g_b.label(slot, label, site, sample(slot));
}

void region(u32 slot, regions::RegionEvent ev, u32 region, regions::RegionType type, u32 flag, u32 owner) {
    if (!active() || slot >= ospg::Builder::kMaxSlots) return;
    switch (ev) {
        case regions::kEnter:
            if (shares(type)) {
                g_loop_site[slot] = site_of_region(region);
                g_b.share_begin(slot, g_loop_site[slot], sample(slot));
            } else if (type == regions::kSingle) {
                g_loop_site[slot] = site_of_region(region);
                g_b.split(slot, g_loop_site[slot], sample(slot));
            } else if (splits(type)) {
                g_b.split(slot, site_of_region(region), sample(slot));
            } else if (type == regions::kTaskwait || type == regions::kTaskgroup) {
                g_wait_site[slot] = site_of_region(region);
            }
            break;
        case regions::kWorkEnd:
            if (shares(type)) g_b.share_end(slot, sample(slot));
            break;
        case regions::kBodyBegin:
        case regions::kBodyEnd:
        case regions::kExit:
            if (splits(type)) g_b.split(slot, site_of_region(region), sample(slot));
            break;
        case regions::kBarrierBegin:
            g_barrier_site[slot] = site_of_region(flag ? owner : region);
            break;
        default:
            break;
    }
}

u32 label_id(const HChar* name) {
    for (u32 i = 1; i <= g_nlabels; ++i)
        if (VG_(strcmp)(g_labels[i].name, name) == 0) return i;
    reserve(g_labels, g_labels_cap, g_nlabels + 2, 8, "ompsim.ospg");
    g_labels[++g_nlabels] = Label{VG_(strdup)("ompsim.ospg", name)};
    return g_nlabels;
}

u32 whatif_site(u32 label, bool begin, Addr where) {
    for (u32 i = 1; i < g_nsites; ++i) {
        const Site& s = g_sites[i];
        if (s.region == regions::kNoRegion && s.label == label && s.begin == begin && s.where == where) return i;
    }
    return new_site(Site{regions::kNoRegion, label, begin, where});
}

void zero() {
    if (!active()) return;
    ospg::Sample now[ospg::Builder::kMaxSlots];
    u32 n = coresim::slots_used();
    if (n > ospg::Builder::kMaxSlots) n = ospg::Builder::kMaxSlots;
    for (u32 s = 0; s < n; ++s) now[s] = sample(s);
    g_b.zero(now, n);
}

void finish() {
    if (!active() || g_finished) return;
    g_finished = true;
    ospg::Sample now[ospg::Builder::kMaxSlots];
    u32 n = coresim::slots_used();
    if (n > ospg::Builder::kMaxSlots) n = ospg::Builder::kMaxSlots;
    for (u32 s = 0; s < n; ++s) now[s] = sample(s);
    g_b.finish(now, n);
    if (g_b.anomalies()) {
        VG_(umsg)("warning: the OSPG met %u OpenMP events it could not place (a barrier outside a team, "
                  "units nested deeper than %u...); its figures may be off\n",
                  g_b.anomalies(), ospg::Builder::kMaxDepth);
        warnings::note("ospg-anomalies", nullptr, ospg::Builder::kMaxDepth,
                       "the OSPG met OpenMP events it could not place (a barrier outside a team, units nested "
                       "deeper than the limit...): the <parallelism> figures may be off");
    }
    if (coresim::slots_used() > ospg::Builder::kMaxSlots) {
        VG_(umsg)("warning: the OSPG follows %u OpenMP threads; the work of the %u others is not in it\n",
                  ospg::Builder::kMaxSlots, coresim::slots_used() - ospg::Builder::kMaxSlots);
        warnings::note("ospg-thread-slots", nullptr, ospg::Builder::kMaxSlots,
                       "more OpenMP threads than the OSPG follows: the work of the threads beyond the limit is "
                       "not in the <parallelism> figures");
    }
    if (g_b.graph().full()) {
        VG_(umsg)("warning: the OSPG reached --ospg-max-nodes=%u: later work is counted as lost\n", g_opt.max_nodes);
        warnings::note("ospg-max-nodes", "--ospg-max-nodes", g_opt.max_nodes,
                       "the OSPG reached its node limit: later work got no W node and is counted as lost-work "
                       "in <parallelism complete=\"false\">");
    }
}

namespace {

ULong whole(double v) { return (ULong)(v + 0.5); }

// A site the document can name: a what-if annotation, or a region of the
// region profile. Others (a region the profiler never entered) are the program.
u32 named(u32 site, const u32* number) {
    if (site >= g_nsites || site == 0) return 0;
    const Site& s = g_sites[site];
    if (s.region == regions::kNoRegion) return site;
    return s.region < regiontab::count() && number[s.region] ? site : 0;
}

bool named_site(void* number, u32 site) { return named(site, static_cast<const u32*>(number)) != 0; }

void put_attr(VgFile* fp, const HChar* attr, const HChar* v) {
    VG_(fprintf)(fp, " %s=\"", attr);
    put_xml_escaped(fp, v);
    VG_(fprintf)(fp, "\"");
}

void write_log(const ospg::Graph& g, const u32* number) {
    outfiles::Output out;  // whole or not at all (vgtool/OutputFiles.h)
    if (!outfiles::open(out, "--ospg-log", g_opt.log)) return;
    VgFile* fp = out.fp;
    VG_(fprintf)(fp, "ompsim-ospg 1\nprogram %s\nmeasure %s\nburden %llu\ncomplete %s %llu %llu\n",
                 VG_(args_the_exename) ? VG_(args_the_exename) : "", g_opt.instructions ? "instructions" : "cycles",
                 g_opt.burden, g.full() ? "no" : "yes", g_b.lost_cycles(), g_b.lost_instr());
    for (u32 i = 1; i < g_nsites; ++i) {
        const Site& s = g_sites[i];
        if (s.region != regions::kNoRegion) {
            const regiontab::Region& r = regiontab::get(s.region);
            u32 num = s.region < regiontab::count() ? number[s.region] : 0;
            if (num)
                VG_(fprintf)(fp, "site %u region R%05u %s %u %u %s\n", i, num, regions::type_name(r.type), r.first,
                             r.last, r.file);
            else  // not in the region profile: still a site of the graph
                VG_(fprintf)(fp, "site %u region - %s %u %u %s\n", i, regions::type_name(r.type), r.first, r.last,
                             r.file);
        } else {
            const HChar *file, *fn;
            UInt line;
            regiontab::locate(s.where, &file, &fn, &line);
            VG_(fprintf)(fp, "site %u whatif %u %s %u %s\n", i, s.label, s.begin ? "begin" : "end", line, file);
        }
    }
    for (u32 i = 1; i <= g_nlabels; ++i) VG_(fprintf)(fp, "label %u %s\n", i, g_labels[i].name);
    VG_(fprintf)(fp, "nodes %u %u\n", g.size(), g.dependence_count());
    for (u32 i = 0; i < g.size(); ++i) {
        const ospg::Node& x = g[i];
        if (x.kind == ospg::kW) {
            VG_(fprintf)(fp, "W %u %llu %llu %u %u %u\n", x.parent, x.cycles, x.instr, x.site, x.from, x.to);
        } else if (x.parent == kNone) {
            VG_(fprintf)(fp, "%c - %u\n", x.kind == ospg::kS ? 'S' : 'P', x.site);
        } else {
            VG_(fprintf)(fp, "%c %u %u\n", x.kind == ospg::kS ? 'S' : 'P', x.parent, x.site);
        }
    }
    for (u32 d = 0; d < g.dependence_count(); ++d)
        VG_(fprintf)(fp, "D %u %u\n", g.dependence(d).from, g.dependence(d).to);
    VG_(fprintf)(fp, "end\n");
    outfiles::commit(out, "end");
}

}  // namespace

void put_parallelism(VgFile* fp, const u32* number) {
    if (!active()) return;
    const ospg::Graph& g = g_b.graph();
    ospg::AnalysisOptions o;
    o.instructions = g_opt.instructions;
    o.burden = (double)g_opt.burden;
    ospg::Analysis a;
    if (!a.run(g, o, kAlloc)) return;
    // An empty name: a forked process whose log name (without %p) is its parent's.
    bool write_the_log = g_opt.log && g_opt.log[0] && g_finished;
    u32 wnodes = 0;
    for (u32 i = 0; i < g.size(); ++i) wnodes += g[i].kind == ospg::kW;
    VG_(fprintf)(fp,
                 "  <parallelism measure=\"%s\" burden=\"%llu\" nodes=\"%u\" w-nodes=\"%u\" dependences=\"%u\" "
                 "complete=\"%s\" lost-work=\"%llu\"",
                 g_opt.instructions ? "instructions" : "cycles", g_opt.burden, g.size(), wnodes,
                 g.dependence_count(), g.full() ? "false" : "true",
                 g_opt.instructions ? g_b.lost_instr() : g_b.lost_cycles());
    if (write_the_log) put_attr(fp, "log", g_opt.log);
    VG_(fprintf)(fp, ">\n");
    a.fold_unnamed(named_site, const_cast<u32*>(number));
    VG_(fprintf)(fp, "    <program work=\"%llu\" span=\"%llu\" burdened-span=\"%llu\" serial=\"%llu\"/>\n",
                 whole(a.work()), whole(a.span()), whole(a.burdened_span()), whole(a.site(0).serial));
    for (u32 i = 1; i < g_nsites; ++i) {
        if (!named(i, number)) continue;
        const Site& s = g_sites[i];
        if (s.region != regions::kNoRegion) {
            VG_(fprintf)(fp, "    <site id=\"%u\" region=\"R%05u\"/>\n", i, number[s.region]);
            continue;
        }
        const HChar *file, *fn;
        UInt line;
        regiontab::locate(s.where, &file, &fn, &line);
        VG_(fprintf)(fp, "    <site id=\"%u\" label=\"%u\" edge=\"%s\"", i, s.label, s.begin ? "begin" : "end");
        put_attr(fp, "file", file);
        VG_(fprintf)(fp, " line=\"%u\"/>\n", line);
    }
    for (u32 i = 1; i <= g_nlabels; ++i) {
        VG_(fprintf)(fp, "    <label id=\"%u\"", i);
        put_attr(fp, "name", g_labels[i].name);
        VG_(fprintf)(fp, "/>\n");
    }
    for (u32 t = 1; t < a.site_count(); ++t) {
        const ospg::SiteFigures& f = a.site(t);
        if (!f.instances) continue;
        VG_(fprintf)(fp,
                     "    <directive site=\"%u\" instances=\"%u\" work=\"%llu\" span=\"%llu\" burdened-span=\"%llu\" "
                     "serial=\"%llu\"/>\n",
                     t, f.instances, whole(f.work), whole(f.span), whole(f.burdened_span), whole(f.serial));
    }
    for (u32 i = 0; i < a.fragment_count(); ++i) {
        const ospg::Fragment& f = a.fragment(i);
        VG_(fprintf)(fp,
                     "    <fragment from=\"%u\" to=\"%u\" label=\"%u\" count=\"%u\" work=\"%llu\" serial=\"%llu\"/>\n",
                     f.from, f.to, f.label, f.count, whole(f.work), whole(f.serial));
    }
    VG_(fprintf)(fp, "  </parallelism>\n");
    a.release();
    if (write_the_log) write_log(g, number);
}

}  // namespace ospgsvc
}  // namespace ompsim
