#include "RegionsWriter.h"

#include "CoreSim.h"
#include "EventSites.h"
#include "OspgService.h"
#include "ProfileWriter.h"
#include "RegionService.h"
#include "RegionTable.h"

namespace ompsim {

namespace {

using regions::Node;
using regions::NodeThread;

void put_list(VgFile* fp, const u64* v, u32 n) {
    for (u32 i = 0; i < n; ++i) VG_(fprintf)(fp, i ? " %llu" : "%llu", v[i]);
}

void put_name(VgFile* fp, const HChar* attr, const HChar* v) {
    VG_(fprintf)(fp, " %s=\"", attr);
    put_xml_escaped(fp, v);
    VG_(fprintf)(fp, "\"");
}

// Edges in the document's order: ascending (from, to, thread).
Int edge_order(const void* a, const void* b) {
    const flow::Edge* x = *static_cast<const flow::Edge* const*>(a);
    const flow::Edge* y = *static_cast<const flow::Edge* const*>(b);
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return 0;
}

// <event-flow> (docs/output-format.md); `number` maps region ids to R numbers.
void put_event_flow(VgFile* fp, const u32* number) {
    const flow::EventFlow* f = regionsvc::event_flow();
    if (!f) return;
    u32 comps = f->components();
    VG_(fprintf)(fp, "  <event-flow components=\"");
    bool first = true;
    for (u32 i = 0; i < flow::kComponentCount; ++i) {
        if (!(comps & (1u << i))) continue;
        VG_(fprintf)(fp, first ? "%s" : " %s", flow::component_name(i));
        first = false;
    }
    VG_(fprintf)(fp, "\" time-unit=\"cycles\" threads=\"%u\"", coresim::slots_used());
    if (regionsvc::rank() >= 0) VG_(fprintf)(fp, " rank=\"%lld\"", regionsvc::rank());
    VG_(fprintf)(fp, ">\n");
    for (u32 i = 1; i <= f->callsite_count(); ++i) {
        const flow::Callsite& c = f->callsite(i);
        VG_(fprintf)(fp, "    <callsite id=\"C%u\" node=\"%u\"", i, c.node);
        if (c.site == flow::kNoSite) {
            VG_(fprintf)(fp, " file=\"\" function=\"\" line=\"0\"/>\n");
            continue;
        }
        const eventsites::Site& site = eventsites::get(c.site);
        put_name(fp, "file", site.file);
        put_name(fp, "function", site.fn);
        VG_(fprintf)(fp, " line=\"%u\"/>\n", site.line);
    }
    for (u32 i = 1; i <= f->signature_count(); ++i) {
        const flow::Signature& sg = f->signature(i);
        VG_(fprintf)(fp, "    <signature id=\"S%u\"", i);
        if (comps & flow::kRegion) {
            if (sg.point)
                put_name(fp, "event", eventsites::name(sg.what));
            else
                VG_(fprintf)(fp, " region=\"R%05u\"", number[sg.what]);
        }
        if (comps & flow::kCallsite) VG_(fprintf)(fp, " callsite=\"C%u\"", sg.callsite);
        if (comps & flow::kSize) VG_(fprintf)(fp, " size=\"%llu\"", sg.size);
        if (sg.has_partner) VG_(fprintf)(fp, " partner=\"%lld\"", (Long)sg.partner);
        if (comps & flow::kThread) VG_(fprintf)(fp, " thread=\"%u\"", sg.thread);
        VG_(fprintf)(fp, "/>\n");
    }
    const flow::Edge** order =
        static_cast<const flow::Edge**>(VG_(malloc)("ompsim.regions.out", (f->edge_count() + 1) * sizeof(void*)));
    u32 n = 0;
    for (u32 i = 0; i < f->edge_count(); ++i)
        if (f->edge(i).count) order[n++] = &f->edge(i);
    VG_(ssort)(order, n, sizeof(void*), edge_order);
    for (u32 i = 0; i < n; ++i)
        VG_(fprintf)(fp, "    <edge from=\"S%u\" to=\"S%u\" thread=\"%u\" count=\"%llu\" cycles=\"%llu\"/>\n",
                     order[i]->from, order[i]->to, order[i]->thread, order[i]->count, order[i]->cycles);
    VG_(free)(order);
    VG_(fprintf)(fp, "  </event-flow>\n");
}

}  // namespace

void put_region_profile(VgFile* fp, const HierarchyConfig& cfg) {
    if (!regionsvc::used()) return;
    const regions::RegionProfiler& p = regionsvc::profiler();
    u32 nregions = regiontab::count();
    // R numbers in the order of the nodes' creation (first entry).
    u32* number = static_cast<u32*>(VG_(calloc)("ompsim.regions.out", nregions + 1, sizeof(u32)));
    u32* order = static_cast<u32*>(VG_(calloc)("ompsim.regions.out", nregions + 1, sizeof(u32)));
    u32 used = 0;
    for (u32 i = 1; i < p.node_count(); ++i) {
        u32 r = p.node(i)->region;
        if (r < nregions && !number[r]) {
            number[r] = ++used;
            order[used - 1] = r;
        }
    }
    VG_(fprintf)(fp, "  <region-profile time-unit=\"cycles\" threads=\"%u\" columns=\"", coresim::slots_used());
    for (u32 c = 0; c < regions::kColumns; ++c)
        VG_(fprintf)(fp, c ? " %s" : "%s", regions::column_name(regions::Column(c)));
    VG_(fprintf)(fp, "\" states=\"");
    for (u32 s = 0; s < regions::kStates; ++s)
        VG_(fprintf)(fp, s ? " %s" : "%s", regions::state_name(regions::State(s)));
    VG_(fprintf)(fp, "\" events=\"");
    put_event_names(fp, cfg);
    VG_(fprintf)(fp, "\">\n");
    for (u32 k = 0; k < used; ++k) {
        const regiontab::Region& r = regiontab::get(order[k]);
        VG_(fprintf)(fp, "    <region id=\"R%05u\" type=\"%s\"", k + 1, regions::type_name(r.type));
        put_name(fp, "file", r.file);
        put_name(fp, "function", r.fn);
        VG_(fprintf)(fp, " first-line=\"%u\" last-line=\"%u\"", r.first, r.last);
        put_name(fp, "name", r.name);
        VG_(fprintf)(fp, "/>\n");
    }
    for (u32 i = 0; i < p.node_count(); ++i) {
        const Node* n = p.node(i);
        if (i == 0)
            VG_(fprintf)(fp, "    <node id=\"0\" region=\"\" parent=\"\">\n");
        else
            VG_(fprintf)(fp, "    <node id=\"%u\" region=\"R%05u\" parent=\"%u\">\n", n->id, number[n->region],
                         n->parent->id);
        for (const NodeThread* t = n->threads; t; t = t->next) {
            VG_(fprintf)(fp, "      <thread id=\"%u\" columns=\"", t->thread);
            put_list(fp, t->col, regions::kColumns);
            VG_(fprintf)(fp, "\" states=\"");
            put_list(fp, t->states, regions::kStates);
            VG_(fprintf)(fp, "\" costs=\"");
            CoreCounters c;
            VG_(memset)(&c, 0, sizeof c);
            VG_(memcpy)(&c.ir, t->counters, coresim::kCounterWords * sizeof(ULong));
            LineCC cc = coresim::as_line(c);
            put_line_costs(fp, cc, cfg);
            VG_(fprintf)(fp, "\"/>\n");
        }
        for (const regions::Pred* pr = n->preds; pr; pr = pr->next)
            if (pr->count)
                VG_(fprintf)(fp, "      <pred from=\"%u\" thread=\"%u\" count=\"%llu\"/>\n", pr->from, pr->thread,
                             pr->count);
        VG_(fprintf)(fp, "    </node>\n");
    }
    VG_(fprintf)(fp, "  </region-profile>\n");
    put_event_flow(fp, number);
    ospgsvc::put_parallelism(fp, number);
    VG_(free)(number);
    VG_(free)(order);
}

}  // namespace ompsim
