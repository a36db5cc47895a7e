// The profile document: canonical writer and validating reader (format
// version 1, see Document.h and docs/output-format.md). The XML is parsed by
// TinyXML-2 (XmlTree.h); this file checks the document. Every reader message
// is listed in docs/output-format.md; tests/unit/SirTest.cpp checks them.
#include "Document.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <system_error>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <map>
#include <tuple>
#include <utility>

#include "XmlTree.h"

namespace ompsim {
namespace sir {

std::vector<const Cache*> Machine::private_caches() const {
    std::vector<const Cache*> out;
    if (!multicore) return out;
    for (const Cache& c : caches)
        if (c.level <= multicore->private_levels) out.push_back(&c);
    return out;
}

const char* const kPrefetchKinds[3] = {"next-line", "stride", "stream"};

bool Machine::has_prefetch() const {
    for (const Cache& c : caches)
        if (c.prefetch) return true;
    return false;
}

int Machine::tlb_levels() const { return tlbs ? static_cast<int>(tlbs->levels.size()) : 0; }

// The columns are "Dr D1mr .. Dw D1mw .." [Dcm Dfs] [Dpf] [T1m [T2m]] (the
// reader checks that).
bool DataStructures::has_coherence() const { return column("Dcm") >= 0 && column("Dfs") >= 0; }

bool DataStructures::has_prefetch() const { return column("Dpf") >= 0; }

int DataStructures::tlb_levels() const { return (column("T1m") >= 0 ? 1 : 0) + (column("T2m") >= 0 ? 1 : 0); }

size_t DataStructures::level_columns() const {
    size_t extra = (has_coherence() ? 2 : 0) + (has_prefetch() ? 1 : 0) + static_cast<size_t>(tlb_levels());
    int first_class = column("D1comp");
    if (first_class >= 0) extra += events.size() - static_cast<size_t>(first_class);
    return events.size() >= extra ? events.size() - extra : 0;
}

// The class columns are the last ones, D1comp D1cap D1conf D1coh D2comp ...
bool DataStructures::has_miss_classes() const { return column("D1comp") >= 0; }

int DataStructures::class_column(int level, int c) const {
    if (level < 1 || c < 0 || c >= kMissClasses) return -1;
    return column("D" + std::to_string(level) + kMissClassFields[c].suffix);
}

MissClasses DataStructures::classes(const std::vector<uint64_t>& costs, int level) const {
    MissClasses m;
    for (int c = 0; c < kMissClasses; ++c) {
        int i = class_column(level, c);
        if (i >= 0 && static_cast<size_t>(i) < costs.size()) m.*kMissClassFields[c].member = costs[i];
    }
    return m;
}

int ReuseDistance::bin_of(uint64_t distance) {
    int b = 0;
    while (distance) {
        distance >>= 1;
        ++b;
    }
    return b;
}

uint64_t ReuseDistance::misses_at(uint64_t lines) const {
    if (lines == 0) return accesses;
    uint64_t c = 1;  // the largest power of two <= lines
    while (c <= lines / 2) c *= 2;
    uint64_t m = cold;
    for (const ReuseBin& b : bins)
        if (b.min >= c) m += b.count;
    return m;
}

double ReuseDistance::miss_ratio(uint64_t lines) const {
    return accesses ? static_cast<double>(misses_at(lines)) / static_cast<double>(accesses) : 0.0;
}

std::vector<MrcPoint> ReuseDistance::curve() const {
    std::vector<MrcPoint> out;
    uint64_t largest = bins.empty() ? 0 : bins.back().max;
    for (uint64_t c = 1;; c *= 2) {
        uint64_t m = misses_at(c);
        out.push_back(MrcPoint{c, m, accesses ? static_cast<double>(m) / static_cast<double>(accesses) : 0.0});
        if (c > largest || c >= (1ull << 62)) break;
    }
    return out;
}

int DataStructures::column(const std::string& name) const {
    for (size_t i = 0; i < events.size(); ++i)
        if (events[i] == name) return static_cast<int>(i);
    return -1;
}

int Document::event_index(const std::string& name) const {
    for (size_t i = 0; i < events.size(); ++i)
        if (events[i] == name) return static_cast<int>(i);
    return -1;
}

namespace {
// A sum that may exceed 64 bits, in decimal.
std::string wide_text(unsigned __int128 v) {
    std::string s;
    do {
        s.insert(s.begin(), char('0' + int(v % 10)));
        v /= 10;
    } while (v);
    return s;
}

int index_of(const std::vector<std::string>& names, const std::string& name) {
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<int>(i);
    return -1;
}
}  // namespace

const NodeThread* ProfNode::thread(uint32_t thread_id) const {
    for (const NodeThread& t : threads)
        if (t.id == thread_id) return &t;
    return nullptr;
}

int RegionProfile::column(const std::string& name) const { return index_of(columns, name); }
int RegionProfile::state(const std::string& name) const { return index_of(states, name); }

namespace {
// Region ids ordered by their number ("R00009" < "R00010" < "R100000").
bool region_id_less(const std::string& a, const std::string& b) {
    size_t za = a.empty() ? 0 : std::min(a.find_first_not_of('0', 1), a.size() - 1);
    size_t zb = b.empty() ? 0 : std::min(b.find_first_not_of('0', 1), b.size() - 1);
    size_t la = a.size() - za, lb = b.size() - zb;
    if (la != lb) return la < lb;
    return a.compare(za, la, b, zb, lb) < 0;
}
}  // namespace

const ProfRegion* RegionProfile::region(const std::string& region_id) const {
    // The reader sorts the regions by id: a binary search finds them; a
    // profile built in another order is searched from end to end.
    auto it = std::lower_bound(regions.begin(), regions.end(), region_id,
                               [](const ProfRegion& r, const std::string& id) { return region_id_less(r.id, id); });
    if (it != regions.end() && it->id == region_id) return &*it;
    for (const ProfRegion& r : regions)
        if (r.id == region_id) return &r;
    return nullptr;
}

const ProfNode* RegionProfile::node(uint32_t node_id) const {
    // Ids ascend; they are usually 0, 1, 2, ...
    if (node_id < nodes.size() && nodes[node_id].id == node_id) return &nodes[node_id];
    auto it = std::lower_bound(nodes.begin(), nodes.end(), node_id,
                               [](const ProfNode& n, uint32_t v) { return n.id < v; });
    return it != nodes.end() && it->id == node_id ? &*it : nullptr;
}

const char* const kFlowComponents[5] = {"region", "callsite", "size", "partner", "thread"};

bool EventFlow::has(const std::string& component) const {
    return std::find(components.begin(), components.end(), component) != components.end();
}

std::string LoadError::to_string() const {
    if (line > 0) return file + ":" + std::to_string(line) + ": " + message;
    return file + ": " + message;
}

// ---------------------------------------------------------------- writer

namespace {

class Writer {
public:
    std::string out;

    Writer& raw(const char* s) {
        out += s;
        return *this;
    }
    Writer& esc(const std::string& s) {
        xml::append_escaped(out, s);
        return *this;
    }
    Writer& num(uint64_t v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
        return *this;
    }
    Writer& inum(int v) {
        char buf[16];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
        return *this;
    }
    Writer& snum(int64_t v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
        return *this;
    }
    Writer& hex(uint64_t v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
        out += "0x";
        out.append(buf, r.ptr);
        return *this;
    }
    Writer& boolean(bool b) { return raw(b ? "true" : "false"); }
    Writer& costs(const std::vector<uint64_t>& v) {
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ' ';
            num(v[i]);
        }
        return *this;
    }
};

bool all_zero(const std::vector<uint64_t>& v) {
    for (uint64_t x : v)
        if (x) return false;
    return true;
}

void write_histogram(Writer& w, const DataHistogram& h) {
    if (h.by_bins()) {
        w.raw("      <histogram bins=\"").num(h.bins).raw("\">\n");
    } else {
        w.raw("      <histogram bucket-bytes=\"").num(h.bucket_bytes);
        w.raw("\" buckets=\"").num(h.buckets).raw("\">\n");
    }
    // Zero buckets are left out, as the tool leaves them out.
    for (const DataBucket& b : h.entries) {
        if (all_zero(b.costs)) continue;
        w.raw("        <bucket index=\"").num(b.index).raw("\">").costs(b.costs).raw("</bucket>\n");
    }
    w.raw("      </histogram>\n");
}

void write_structure(Writer& w, const DataStructure& s) {
    w.raw("    <data-structure kind=\"").esc(s.kind);
    w.raw("\" name=\"").esc(s.name);
    w.raw("\" file=\"").esc(s.file);
    w.raw("\" line=\"").num(s.line);
    w.raw("\" address=\"").hex(s.address);
    w.raw("\" size=\"").num(s.size);
    w.raw("\" blocks=\"").num(s.blocks);
    w.raw("\" bytes=\"").num(s.bytes);
    w.raw("\" counted=\"").boolean(s.counted).raw("\">\n");
    if (s.site) w.raw("      <site>").esc(*s.site).raw("</site>\n");
    w.raw("      <costs>").costs(s.costs).raw("</costs>\n");
    for (const DataThread& t : s.threads) {
        w.raw("      <thread id=\"");
        if (t.id == kOtherThread) w.raw("other");
        else w.num(t.id);
        w.raw("\"><costs>").costs(t.costs).raw("</costs></thread>\n");
    }
    if (s.histogram) write_histogram(w, *s.histogram);
    if (const auto& r = s.reuse) {
        w.raw("      <reuse-distance line-size=\"").num(r->line_size);
        w.raw("\" accesses=\"").num(r->accesses);
        w.raw("\" cold=\"").num(r->cold).raw("\">\n");
        for (const ReuseBin& b : r->bins) {
            w.raw("        <bin min=\"").num(b.min);
            w.raw("\" max=\"").num(b.max);
            w.raw("\" count=\"").num(b.count).raw("\"/>\n");
        }
        w.raw("      </reuse-distance>\n");
    }
    w.raw("    </data-structure>\n");
}

// The attributes of a <cache-stats> after its name, up to victims-in.
void write_cache_counters(Writer& w, const CacheStats& s) {
    w.raw("\" fetch-refs=\"").num(s.refs[kFetch]);
    w.raw("\" fetch-misses=\"").num(s.misses[kFetch]);
    w.raw("\" read-refs=\"").num(s.refs[kRead]);
    w.raw("\" read-misses=\"").num(s.misses[kRead]);
    w.raw("\" write-refs=\"").num(s.refs[kWrite]);
    w.raw("\" write-misses=\"").num(s.misses[kWrite]);
    w.raw("\" writeback-refs=\"").num(s.refs[kWriteback]);
    w.raw("\" writeback-misses=\"").num(s.misses[kWriteback]);
    w.raw("\" evictions=\"").num(s.evictions);
    w.raw("\" writebacks=\"").num(s.writebacks);
    w.raw("\" back-invalidations=\"").num(s.back_invalidations);
    w.raw("\" victims-in=\"").num(s.victims_in);
    if (const auto& p = s.prefetch)
        for (const auto& f : kPrefetchStatsFields) w.raw("\" ").raw(f.attribute).raw("=\"").num((*p).*f.member);
    if (const auto& m = s.classes)
        for (const auto& f : kMissClassFields) w.raw("\" ").raw(f.attribute).raw("=\"").num((*m).*f.member);
}

void write_determinism(Writer& w, const Determinism& d) {
    w.raw("    <determinism scheduler=\"").esc(d.scheduler);
    w.raw("\" quantum=\"").num(d.quantum);
    w.raw("\" simulate-runtime=\"").esc(d.simulate_runtime);
    w.raw("\" threads=\"").num(d.threads);
    if (d.reasons.empty()) {
        w.raw("\"/>\n");
        return;
    }
    w.raw("\">\n");
    for (const std::string& r : d.reasons) w.raw("      <reason>").esc(r).raw("</reason>\n");
    w.raw("    </determinism>\n");
}

// <warnings>: the limits the run reached (docs/limits.md); none, no element.
void write_warnings(Writer& w, const std::vector<RunWarning>& warnings) {
    if (warnings.empty()) return;
    w.raw("    <warnings>\n");
    for (const RunWarning& x : warnings) {
        w.raw("      <warning kind=\"").esc(x.kind);
        if (x.option) w.raw("\" option=\"").esc(*x.option);
        w.raw("\" limit=\"").num(x.limit).raw("\">").esc(x.message).raw("</warning>\n");
    }
    w.raw("    </warnings>\n");
}

void write_threads(Writer& w, const std::vector<Thread>& threads) {
    w.raw("  <threads>\n");
    for (const Thread& t : threads) {
        w.raw("    <thread id=\"").num(t.id);
        w.raw("\" valgrind-tid=\"").num(t.valgrind_tid);
        w.raw("\" omp-thread=\"").inum(t.omp_thread);
        w.raw("\" core=\"").num(t.core).raw("\">\n");
        w.raw("      <costs>").costs(t.costs).raw("</costs>\n");
        w.raw("    </thread>\n");
    }
    w.raw("  </threads>\n");
}

void write_cores(Writer& w, const std::vector<Core>& cores) {
    w.raw("  <cores>\n");
    for (const Core& c : cores) {
        w.raw("    <core id=\"").num(c.id);
        w.raw("\" instructions=\"").num(c.instructions);
        w.raw("\" cycles=\"").num(c.cycles);
        w.raw("\" busy-cycles=\"").num(c.busy_cycles);
        w.raw("\" wait-cycles=\"").num(c.wait_cycles).raw("\">\n");
        for (const CoreCacheStats& s : c.cache_stats) {
            w.raw("      <cache-stats name=\"").esc(s.stats.name);
            write_cache_counters(w, s.stats);
            if (const auto& k = s.coherence)
                for (const auto& f : kCacheCoherenceFields) w.raw("\" ").raw(f.attribute).raw("=\"").num((*k).*f.member);
            w.raw("\"/>\n");
        }
        w.raw("    </core>\n");
    }
    w.raw("  </cores>\n");
}

void write_data_structures(Writer& w, const DataStructures& ds) {
    w.raw("  <data-structures events=\"");
    for (size_t i = 0; i < ds.events.size(); ++i) {
        if (i) w.raw(" ");
        w.esc(ds.events[i]);
    }
    w.raw("\" mode=\"").esc(ds.mode);
    w.raw("\" resolution=\"").num(ds.resolution);
    w.raw("\" slots=\"").num(ds.slots).raw("\">\n");
    for (const DataStructure& s : ds.structures) write_structure(w, s);
    w.raw("  </data-structures>\n");
}

void write_names(Writer& w, const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) {
        if (i) w.raw(" ");
        w.esc(names[i]);
    }
}

void write_region_profile(Writer& w, const RegionProfile& p) {
    w.raw("  <region-profile time-unit=\"").esc(p.time_unit);
    w.raw("\" threads=\"").num(p.threads);
    w.raw("\" columns=\"");
    write_names(w, p.columns);
    w.raw("\" states=\"");
    write_names(w, p.states);
    w.raw("\" events=\"");
    write_names(w, p.events);
    w.raw("\">\n");
    for (const ProfRegion& r : p.regions) {
        w.raw("    <region id=\"").esc(r.id);
        w.raw("\" type=\"").esc(r.type);
        w.raw("\" file=\"").esc(r.file);
        w.raw("\" function=\"").esc(r.function);
        w.raw("\" first-line=\"").num(r.first_line);
        w.raw("\" last-line=\"").num(r.last_line);
        w.raw("\" name=\"").esc(r.name).raw("\"/>\n");
    }
    for (const ProfNode& n : p.nodes) {
        w.raw("    <node id=\"").num(n.id);
        w.raw("\" region=\"").esc(n.region);
        w.raw("\" parent=\"");
        if (n.parent) w.num(*n.parent);
        w.raw("\">\n");
        for (const NodeThread& t : n.threads) {
            w.raw("      <thread id=\"").num(t.id);
            w.raw("\" columns=\"").costs(t.columns);
            w.raw("\" states=\"").costs(t.states);
            w.raw("\" costs=\"").costs(t.costs).raw("\"/>\n");
        }
        for (const Pred& q : n.preds) {
            w.raw("      <pred from=\"").num(q.from);
            w.raw("\" thread=\"").num(q.thread);
            w.raw("\" count=\"").num(q.count).raw("\"/>\n");
        }
        w.raw("    </node>\n");
    }
    w.raw("  </region-profile>\n");
}

// Only the recorded components are written; a signature is a region entry
// (region=) or a point event (event=), never both.
void write_signature(Writer& w, const EventFlow& f, const FlowSignature& s) {
    w.raw("    <signature id=\"").esc(s.id);
    if (f.has("region")) {
        if (!s.region.empty()) w.raw("\" region=\"").esc(s.region);
        else w.raw("\" event=\"").esc(s.event);
    }
    if (f.has("callsite")) w.raw("\" callsite=\"").esc(s.callsite);
    if (f.has("size")) w.raw("\" size=\"").num(s.size.value_or(0));
    if (f.has("partner") && s.partner) w.raw("\" partner=\"").snum(*s.partner);
    if (f.has("thread")) w.raw("\" thread=\"").num(s.thread.value_or(0));
    w.raw("\"/>\n");
}

void write_event_flow(Writer& w, const EventFlow& f) {
    w.raw("  <event-flow components=\"");
    write_names(w, f.components);
    w.raw("\" time-unit=\"").esc(f.time_unit);
    w.raw("\" threads=\"").num(f.threads);
    if (f.rank) w.raw("\" rank=\"").snum(*f.rank);
    w.raw("\">\n");
    for (const FlowCallsite& c : f.callsites) {
        w.raw("    <callsite id=\"").esc(c.id);
        w.raw("\" node=\"").num(c.node);
        w.raw("\" file=\"").esc(c.file);
        w.raw("\" function=\"").esc(c.function);
        w.raw("\" line=\"").num(c.line).raw("\"/>\n");
    }
    for (const FlowSignature& s : f.signatures) write_signature(w, f, s);
    for (const FlowEdge& e : f.edges) {
        w.raw("    <edge from=\"S").num(e.from);
        w.raw("\" to=\"S").num(e.to);
        w.raw("\" thread=\"").num(e.thread);
        w.raw("\" count=\"").num(e.count);
        w.raw("\" cycles=\"").num(e.cycles).raw("\"/>\n");
    }
    w.raw("  </event-flow>\n");
}

void write_parallelism(Writer& w, const Parallelism& p) {
    w.raw("  <parallelism measure=\"").esc(p.measure);
    w.raw("\" burden=\"").num(p.burden);
    w.raw("\" nodes=\"").num(p.nodes);
    w.raw("\" w-nodes=\"").num(p.w_nodes);
    w.raw("\" dependences=\"").num(p.dependences);
    w.raw("\" complete=\"").boolean(p.complete);
    w.raw("\" lost-work=\"").num(p.lost_work);
    if (!p.log.empty()) w.raw("\" log=\"").esc(p.log);
    w.raw("\">\n");
    w.raw("    <program work=\"").num(p.work);
    w.raw("\" span=\"").num(p.span);
    w.raw("\" burdened-span=\"").num(p.burdened_span);
    w.raw("\" serial=\"").num(p.serial).raw("\"/>\n");
    for (const ParallelismSite& s : p.sites) {
        w.raw("    <site id=\"").num(s.id);
        if (!s.region.empty()) {
            w.raw("\" region=\"").esc(s.region);
        } else {
            w.raw("\" label=\"").num(s.label);
            w.raw("\" edge=\"").esc(s.edge);
            w.raw("\" file=\"").esc(s.file);
            w.raw("\" line=\"").num(s.line);
        }
        w.raw("\"/>\n");
    }
    for (const ParallelismLabel& l : p.labels) {
        w.raw("    <label id=\"").num(l.id);
        w.raw("\" name=\"").esc(l.name).raw("\"/>\n");
    }
    for (const ParallelismDirective& d : p.directives) {
        w.raw("    <directive site=\"").num(d.site);
        w.raw("\" instances=\"").num(d.instances);
        w.raw("\" work=\"").num(d.work);
        w.raw("\" span=\"").num(d.span);
        w.raw("\" burdened-span=\"").num(d.burdened_span);
        w.raw("\" serial=\"").num(d.serial).raw("\"/>\n");
    }
    for (const ParallelismFragment& f : p.fragments) {
        w.raw("    <fragment from=\"").num(f.from);
        w.raw("\" to=\"").num(f.to);
        w.raw("\" label=\"").num(f.label);
        w.raw("\" count=\"").num(f.count);
        w.raw("\" work=\"").num(f.work);
        w.raw("\" serial=\"").num(f.serial).raw("\"/>\n");
    }
    w.raw("  </parallelism>\n");
}

}  // namespace

std::string to_xml(const Document& d) {
    Writer w;
    size_t lines = 0;
    for (const File& f : d.files)
        for (const Region& r : f.regions) lines += r.lines.size() + 3;
    if (d.data_structures)
        for (const DataStructure& s : d.data_structures->structures)
            lines += 4 + s.threads.size() + (s.histogram ? s.histogram->entries.size() + 2 : 0);
    if (d.threads) lines += 3 * d.threads->size();
    if (d.region_profile)
        for (const ProfNode& n : d.region_profile->nodes) lines += 2 + 3 * n.threads.size() + n.preds.size();
    if (const auto& f = d.event_flow) lines += 2 + f->callsites.size() + f->signatures.size() + f->edges.size();
    if (const auto& p = d.parallelism)
        lines += 3 + p->sites.size() + p->labels.size() + p->directives.size() + p->fragments.size();
    w.out.reserve(2048 + lines * (24 + 8 * d.events.size()));

    w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // to_xml writes the layout of kFormatVersion whatever doc.format_version says.
    w.raw("<ompsim-profile format-version=\"").inum(kFormatVersion);
    w.raw("\" tool=\"ompsim\" tool-version=\"").esc(d.tool_version).raw("\">\n");

    const Run& r = d.run;
    w.raw("  <run complete=\"").boolean(r.complete);
    w.raw("\" termination=\"").esc(r.termination);
    w.raw("\" exit-status=\"").inum(r.exit_status);
    w.raw("\" signal=\"").inum(r.signal);
    w.raw("\" label=\"").esc(r.label);
    w.raw("\" dump=\"").num(r.dump);
    w.raw("\" deterministic=\"").boolean(r.deterministic).raw("\">\n");
    w.raw("    <command exe=\"").esc(r.exe).raw("\">");
    for (const std::string& a : r.args) w.raw("<arg>").esc(a).raw("</arg>");
    w.raw("</command>\n");
    if (r.determinism) write_determinism(w, *r.determinism);
    write_warnings(w, r.warnings);
    w.raw("  </run>\n");

    const Machine& m = d.machine;
    w.raw("  <machine name=\"").esc(m.name);
    w.raw("\" model=\"").esc(m.model);
    w.raw("\" levels=\"").inum(m.levels);
    w.raw("\" split-l1=\"").boolean(m.split_l1);
    w.raw("\" icache=\"").boolean(m.icache);
    w.raw("\" random-seed=\"").num(m.random_seed);
    w.raw("\" cpi=\"").esc(m.cpi);
    w.raw("\" memory-latency=\"").num(m.memory_latency);
    if (const auto& mc = m.multicore) {
        w.raw("\" cores=\"").num(mc->cores);
        w.raw("\" private-levels=\"").inum(mc->private_levels);
        w.raw("\" coherence=\"").esc(mc->coherence);
        if (mc->c2c_latency) w.raw("\" c2c-latency=\"").num(*mc->c2c_latency);
        if (mc->upgrade_latency) w.raw("\" upgrade-latency=\"").num(*mc->upgrade_latency);
    }
    w.raw("\">\n");
    for (const Cache& c : m.caches) {
        w.raw("    <cache name=\"").esc(c.name);
        w.raw("\" level=\"").inum(c.level);
        w.raw("\" side=\"").esc(c.side);
        w.raw("\" size=\"").num(c.size);
        w.raw("\" assoc=\"").num(c.assoc);
        w.raw("\" line-size=\"").num(c.line_size);
        w.raw("\" sets=\"").num(c.sets);
        w.raw("\" replacement=\"").esc(c.replacement);
        w.raw("\" write-policy=\"").esc(c.write_policy);
        w.raw("\" inclusion=\"").esc(c.inclusion);
        w.raw("\" latency=\"").num(c.latency);
        if (const auto& p = c.prefetch) {
            w.raw("\" prefetch=\"");
            for (size_t i = 0; i < p->kinds.size(); ++i) {
                if (i) w.raw(",");
                w.esc(p->kinds[i]);
            }
            w.raw("\" prefetch-degree=\"").num(p->degree);
            w.raw("\" prefetch-table=\"").num(p->table);
            w.raw("\" prefetch-streams=\"").num(p->streams);
        }
        w.raw("\"/>\n");
    }
    if (const auto& t = m.tlbs) {
        w.raw("    <tlbs page-size=\"").num(t->page_size);
        w.raw("\" walk-latency=\"").num(t->walk_latency).raw("\">\n");
        for (const Tlb& l : t->levels) {
            w.raw("      <tlb name=\"").esc(l.name);
            w.raw("\" level=\"").inum(l.level);
            w.raw("\" entries=\"").num(l.entries);
            w.raw("\" assoc=\"").num(l.assoc);
            w.raw("\" latency=\"").num(l.latency).raw("\"/>\n");
        }
        w.raw("    </tlbs>\n");
    }
    w.raw("  </machine>\n");

    w.raw("  <events>");
    for (size_t i = 0; i < d.events.size(); ++i) {
        if (i) w.raw(" ");
        w.esc(d.events[i]);
    }
    w.raw("</events>\n");

    w.raw("  <totals>\n    <costs>").costs(d.totals).raw("</costs>\n");
    for (const CacheStats& s : d.cache_stats) {
        w.raw("    <cache-stats name=\"").esc(s.name);
        write_cache_counters(w, s);
        w.raw("\"/>\n");
    }
    w.raw("    <memory reads=\"").num(d.memory_reads);
    w.raw("\" writes=\"").num(d.memory_writes).raw("\"/>\n");
    if (const auto& k = d.coherence) {
        w.raw("    <coherence");
        for (const auto& f : kCoherenceTotalsFields) w.raw(" ").raw(f.attribute).raw("=\"").num((*k).*f.member).raw("\"");
        w.raw("/>\n");
    }
    for (const TlbStats& t : d.tlb_stats) {
        w.raw("    <tlb-stats name=\"").esc(t.name).raw("\"");
        for (const auto& f : kTlbStatsFields) w.raw(" ").raw(f.attribute).raw("=\"").num(t.*f.member).raw("\"");
        w.raw("/>\n");
    }
    w.raw("  </totals>\n");

    w.raw("  <program>\n");
    for (const File& f : d.files) {
        w.raw("    <file path=\"").esc(f.path).raw("\">\n");
        for (const Region& g : f.regions) {
            w.raw("      <region type=\"").esc(g.type);
            w.raw("\" name=\"").esc(g.name);
            w.raw("\" first-line=\"").num(g.first_line);
            w.raw("\" last-line=\"").num(g.last_line).raw("\">\n");
            w.raw("        <costs>").costs(g.costs).raw("</costs>\n");
            for (const Line& l : g.lines) {
                w.raw("        <line number=\"").num(l.number).raw("\">");
                w.costs(l.costs).raw("</line>\n");
            }
            w.raw("      </region>\n");
        }
        w.raw("    </file>\n");
    }
    w.raw("  </program>\n");
    if (d.threads) write_threads(w, *d.threads);
    if (d.cores) write_cores(w, *d.cores);
    if (d.data_structures) write_data_structures(w, *d.data_structures);
    if (d.region_profile) write_region_profile(w, *d.region_profile);
    if (d.event_flow) write_event_flow(w, *d.event_flow);
    if (d.parallelism) write_parallelism(w, *d.parallelism);
    w.raw("</ompsim-profile>\n");
    return std::move(w.out);
}

bool save_file(const std::string& path, const Document& doc, std::string& error) {
    std::string text = to_xml(doc);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        error = path + ": cannot write: " + std::strerror(errno);
        return false;
    }
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    int saved = errno;
    if (std::fflush(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (std::fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        error = path + ": cannot write: " + std::strerror(saved);
        return false;
    }
    return true;
}

// ---------------------------------------------------------------- reader

namespace {

using xml::Attribute;
using xml::Element;

struct Invalid {
    int line;
    std::string message;
};

[[noreturn]] void fail(int line, std::string message) { throw Invalid{line, std::move(message)}; }

std::string tag(const Element& e) { return "<" + e.name + ">"; }
std::string quoted(const std::string& v) { return "'" + xml::excerpt(v) + "'"; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && is_space(s[b])) ++b;
    while (e > b && is_space(s[e - 1])) --e;
    return s.substr(b, e - b);
}

bool all_digits(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// Decimal digits only; false when above `max`.
bool to_u64(const std::string& digits, uint64_t max, uint64_t& out) {
    uint64_t v = 0;
    for (char c : digits) {
        uint64_t d = static_cast<uint64_t>(c - '0');
        if (v > (max - d) / 10) return false;
        v = v * 10 + d;
    }
    out = v;
    return true;
}

const Attribute& attr(const Element& e, const char* name) {
    const Attribute* a = e.attribute(name);
    if (!a) fail(e.line, tag(e) + ": missing attribute '" + name + "'");
    return *a;
}

const std::string& str(const Element& e, const char* name) { return attr(e, name).value; }

uint64_t unsigned_attr(const Element& e, const char* name, uint64_t max) {
    const Attribute& a = attr(e, name);
    std::string t = trim(a.value);
    if (!all_digits(t))
        fail(a.line, tag(e) + ": attribute '" + name + "' is not a number: " + quoted(a.value));
    uint64_t v;
    if (!to_u64(t, max, v))
        fail(a.line, tag(e) + ": attribute '" + name + "' is too large (at most " +
                         std::to_string(max) + "): " + quoted(a.value));
    return v;
}

uint64_t u64(const Element& e, const char* name) { return unsigned_attr(e, name, UINT64_MAX); }
uint32_t u32(const Element& e, const char* name) {
    return static_cast<uint32_t>(unsigned_attr(e, name, UINT32_MAX));
}
int nonneg_int(const Element& e, const char* name) {
    return static_cast<int>(unsigned_attr(e, name, INT_MAX));
}

// A signed decimal from `min` (< 0) to `max`.
int64_t signed_attr(const Element& e, const char* name, int64_t min, int64_t max) {
    const Attribute& a = attr(e, name);
    std::string t = trim(a.value);
    bool negative = !t.empty() && t[0] == '-';
    std::string digits = negative ? t.substr(1) : t;
    if (!all_digits(digits))
        fail(a.line, tag(e) + ": attribute '" + name + "' is not a number: " + quoted(a.value));
    uint64_t v;
    // The magnitude of `min`, computed without overflowing for INT64_MIN.
    uint64_t limit = negative ? static_cast<uint64_t>(-(min + 1)) + 1 : static_cast<uint64_t>(max);
    if (!to_u64(digits, limit, v))
        fail(a.line, tag(e) + ": attribute '" + name + "' is out of range (" + std::to_string(min) + " to " +
                         std::to_string(max) + "): " + quoted(a.value));
    if (!negative) return static_cast<int64_t>(v);
    return v == limit ? min : -static_cast<int64_t>(v);
}

int signed_int(const Element& e, const char* name) {
    return static_cast<int>(signed_attr(e, name, INT_MIN, INT_MAX));
}

bool boolean(const Element& e, const char* name) {
    const Attribute& a = attr(e, name);
    std::string t = trim(a.value);
    if (t == "true") return true;
    if (t == "false") return false;
    fail(a.line, tag(e) + ": attribute '" + name + "' is not true or false: " + quoted(a.value));
}

std::string one_of(const Element& e, const char* name, std::initializer_list<const char*> values) {
    const Attribute& a = attr(e, name);
    std::string t = trim(a.value);
    std::string list;
    for (const char* v : values) {
        if (t == v) return t;
        list += list.empty() ? "" : ", ";
        list += v;
    }
    fail(a.line, tag(e) + ": attribute '" + name + "' is not one of " + list + ": " + quoted(a.value));
}

// "1.00": digits, a point, two digits.
std::string cpi_attr(const Element& e) {
    const Attribute& a = attr(e, "cpi");
    std::string t = trim(a.value);
    size_t dot = t.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 3 != t.size() || !all_digits(t.substr(0, dot)) ||
        !all_digits(t.substr(dot + 1)))
        fail(a.line, tag(e) + ": attribute 'cpi' is not a number with two decimals: " + quoted(a.value));
    return t;
}

// Elements that hold other elements: text other than white space is an error.
void container(const Element& e) {
    std::string t = trim(e.text);
    if (!t.empty()) fail(e.line, tag(e) + ": unexpected text " + quoted(t));
}

// Elements that hold only text.
void leaf(const Element& e) {
    if (!e.children.empty())
        fail(e.children[0].line, tag(e) + ": unexpected element " + tag(e.children[0]) + " inside");
}

// The child `name` of `parent`, or null when it has none; a second one is an error.
const Element* optional_one(const Element& parent, const char* name) {
    const Element* found = nullptr;
    for (const Element& c : parent.children) {
        if (c.name != name) continue;
        if (found)
            fail(c.line, tag(parent) + ": more than one <" + name + "> (the first is at line " +
                             std::to_string(found->line) + ")");
        found = &c;
    }
    return found;
}

// The single child `name` of `parent`.
const Element& one(const Element& parent, const char* name) {
    const Element* found = optional_one(parent, name);
    if (!found) fail(parent.line, tag(parent) + ": missing element <" + name + ">");
    return *found;
}

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i])) ++i;
        size_t b = i;
        while (i < text.size() && !is_space(text[i])) ++i;
        if (i > b) out.push_back(text.substr(b, i - b));
    }
    return out;
}

std::string join_words(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : " ") + n;
    return out;
}

bool known_event(const std::string& n) {
    if (n == "Ir" || n == "Dr" || n == "Dw" || n == "Cycles" || n == "T1m" || n == "T2m") return true;
    if (n.size() != 4) return false;
    bool level = (n[1] >= '1' && n[1] <= '4') || n[1] == 'L';
    return level && ((n[0] == 'I' && n.compare(2, 2, "mr") == 0) ||
                     (n[0] == 'D' && (n.compare(2, 2, "mr") == 0 || n.compare(2, 2, "mw") == 0)));
}

std::vector<uint64_t> cost_vector(const Element& e, const std::vector<std::string>& events) {
    leaf(e);
    std::vector<uint64_t> v;
    v.reserve(events.size());
    const std::string& t = e.text;
    size_t i = 0;
    for (;;) {
        while (i < t.size() && is_space(t[i])) ++i;
        if (i == t.size()) break;
        size_t b = i;
        while (i < t.size() && !is_space(t[i])) ++i;
        uint64_t x = 0;
        const char* first = t.data() + b;
        const char* last = t.data() + i;
        auto r = std::from_chars(first, last, x);
        if (r.ptr != last || r.ec != std::errc() || *first < '0' || *first > '9') {
            size_t n = v.size();
            std::string which = tag(e) + ": value " + std::to_string(n + 1);
            if (n < events.size()) which += " (" + events[n] + ")";
            std::string word(first, last);
            if (!all_digits(word)) fail(e.line, which + " is not a number: " + quoted(word));
            fail(e.line, which + " is too large (at most 18446744073709551615): " + quoted(word));
        }
        v.push_back(x);
    }
    if (v.size() != events.size())
        fail(e.line, tag(e) + ": " + std::to_string(v.size()) + " values for " +
                         std::to_string(events.size()) + " events");
    return v;
}

// sum += v, false on overflow.
bool add_to(std::vector<uint64_t>& sum, const std::vector<uint64_t>& v, size_t& overflowed) {
    for (size_t i = 0; i < v.size(); ++i) {
        if (sum[i] > UINT64_MAX - v[i]) {
            overflowed = i;
            return false;
        }
        sum[i] += v[i];
    }
    return true;
}

// <warnings> in <run>: one <warning> per limit the run reached, each kind
// once (docs/limits.md); unknown kinds are read as they are (a newer tool
// may know more limits).
void read_warnings(const Element& e, std::vector<RunWarning>& out) {
    container(e);
    for (const Element& we : e.children) {
        if (we.name != "warning") continue;
        leaf(we);
        RunWarning x;
        const Attribute& kind = attr(we, "kind");
        x.kind = kind.value;
        if (x.kind.empty() || x.kind.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
            fail(kind.line, "<warning>: kind " + quoted(x.kind) + " is not a name of a-z, 0-9 and '-'");
        for (const RunWarning& seen : out)
            if (seen.kind == x.kind) fail(kind.line, "<warning>: kind " + quoted(x.kind) + " is listed twice");
        if (const Attribute* option = we.attribute("option")) {
            if (option->value.compare(0, 2, "--") != 0 || option->value.size() < 3)
                fail(option->line, "<warning>: option " + quoted(option->value) + " is not an option (--name)");
            x.option = option->value;
        }
        x.limit = u64(we, "limit");
        x.message = we.text;
        if (x.message.find_first_not_of(" \t\r\n") == std::string::npos)
            fail(we.line, "<warning kind=\"" + xml::excerpt(x.kind) + "\">: the message is empty (it says what "
                          "the document leaves out)");
        out.push_back(std::move(x));
    }
    if (out.empty()) fail(e.line, "<warnings>: no <warning> (the element is left out when no limit was reached)");
}

void read_run(const Element& e, Run& r) {
    container(e);
    r.complete = boolean(e, "complete");
    r.termination = one_of(e, "termination", {"exit", "signal", "dump"});
    r.exit_status = signed_int(e, "exit-status");
    r.signal = nonneg_int(e, "signal");
    r.label = str(e, "label");
    r.dump = u64(e, "dump");
    r.deterministic = boolean(e, "deterministic");
    const Element& cmd = one(e, "command");
    container(cmd);
    r.exe = str(cmd, "exe");
    for (const Element& a : cmd.children) {
        if (a.name != "arg") continue;
        leaf(a);
        r.args.push_back(a.text);
    }
    if (const Element* de = optional_one(e, "determinism")) {
        container(*de);
        Determinism d;
        d.scheduler = str(*de, "scheduler");
        d.quantum = u64(*de, "quantum");
        d.simulate_runtime = one_of(*de, "simulate-runtime", {"yes", "no"});
        d.threads = u32(*de, "threads");
        for (const Element& re : de->children) {
            if (re.name != "reason") continue;
            leaf(re);
            if (r.deterministic)
                fail(re.line, "<reason>: the run is deterministic=\"true\"; reasons are given only for a run "
                              "that is not deterministic");
            d.reasons.push_back(re.text);
        }
        r.determinism = std::move(d);
    }
    if (const Element* we = optional_one(e, "warnings")) read_warnings(*we, r.warnings);
}

// True when `e` has any of the attributes.
bool any_attribute(const Element& e, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (e.attribute(n)) return true;
    return false;
}

// An unsigned 32-bit attribute from `lo` to `hi`; `what` says what it counts.
uint32_t ranged_u32(const Element& e, const char* name, uint32_t lo, uint32_t hi, const char* what) {
    uint32_t v = u32(e, name);
    if (v < lo || v > hi) {
        const Attribute& a = attr(e, name);
        fail(a.line, tag(e) + ": attribute '" + name + "' is not " + std::to_string(lo) + " to " + std::to_string(hi) +
                         " (" + what + "): " + quoted(a.value));
    }
    return v;
}

// prefetch="next-line,stride": known prefetchers, each once, in the order of
// kPrefetchKinds, at least one.
std::vector<std::string> prefetch_kinds(const Element& c) {
    const Attribute& a = attr(c, "prefetch");
    const std::string t = trim(a.value);
    const std::string at = "<cache>: attribute 'prefetch' ";
    if (t.empty()) fail(a.line, at + "is empty (a level without a prefetcher has none of the prefetch attributes)");
    std::vector<std::string> kinds;
    int last = -1;
    size_t b = 0;
    for (;;) {
        size_t comma = t.find(',', b);
        std::string item = trim(t.substr(b, comma == std::string::npos ? std::string::npos : comma - b));
        int k = -1;
        for (int i = 0; i < 3; ++i)
            if (item == kPrefetchKinds[i]) k = i;
        if (k < 0)
            fail(a.line, at + "has an unknown prefetcher " + quoted(item) +
                             " (the prefetchers are next-line, stride, stream)");
        if (k == last || std::find(kinds.begin(), kinds.end(), item) != kinds.end())
            fail(a.line, at + "lists '" + item + "' twice");
        if (k < last)
            fail(a.line, at + "lists '" + item + "' after '" + kPrefetchKinds[last] +
                             "' (prefetchers are listed in the order next-line, stride, stream)");
        last = k;
        kinds.push_back(item);
        if (comma == std::string::npos) break;
        b = comma + 1;
    }
    return kinds;
}

// The prefetcher attributes of a <cache>: all four or none.
std::optional<CachePrefetch> cache_prefetch(const Element& c) {
    if (!any_attribute(c, {"prefetch", "prefetch-degree", "prefetch-table", "prefetch-streams"})) return std::nullopt;
    CachePrefetch p;
    p.kinds = prefetch_kinds(c);
    p.degree = ranged_u32(c, "prefetch-degree", 1, 64, "lines fetched ahead per prefetch");
    p.table = ranged_u32(c, "prefetch-table", 1, 65536, "entries of the stride table");
    p.streams = ranged_u32(c, "prefetch-streams", 1, 1024, "streams the stream prefetcher tracks");
    return p;
}

// <tlbs>: one or two <tlb>, DTLB1 at level 1, then DTLB2 at level 2.
void read_tlbs(const Element& e, Machine& m) {
    container(e);
    Tlbs t;
    t.page_size = u64(e, "page-size");
    if (t.page_size < 4096 || t.page_size > 1073741824 || (t.page_size & (t.page_size - 1)) != 0) {
        const Attribute& a = attr(e, "page-size");
        fail(a.line, "<tlbs>: attribute 'page-size' is not a power of two from 4096 to 1073741824: " + quoted(a.value));
    }
    t.walk_latency = u32(e, "walk-latency");
    for (const Element& te : e.children) {
        if (te.name != "tlb") continue;
        container(te);
        const int k = static_cast<int>(t.levels.size()) + 1;
        if (k > 2) fail(te.line, "<tlbs>: a third <tlb> (one or two TLB levels: DTLB1, then DTLB2)");
        Tlb l;
        l.name = one_of(te, "name", {"DTLB1", "DTLB2"});
        l.level = nonneg_int(te, "level");
        if (l.level != k)
            fail(attr(te, "level").line, "<tlb>: level " + std::to_string(l.level) + " where level " +
                                             std::to_string(k) +
                                             " is next (the levels are listed in order: DTLB1 at level 1, then "
                                             "DTLB2 at level 2)");
        if (l.name != "DTLB" + std::to_string(k))
            fail(attr(te, "name").line, "<tlb>: name '" + l.name + "' at level " + std::to_string(k) +
                                            " (DTLB1 is level 1, DTLB2 level 2)");
        const std::string at = "<tlb name=\"" + l.name + "\">: ";
        l.entries = u32(te, "entries");
        if (l.entries == 0) fail(attr(te, "entries").line, at + "attribute 'entries' is 0 (at least 1 entry)");
        l.assoc = u32(te, "assoc");
        if (l.assoc == 0) fail(attr(te, "assoc").line, at + "attribute 'assoc' is 0 (at least 1 way)");
        if (l.assoc > l.entries)
            fail(attr(te, "assoc").line, at + "assoc (" + std::to_string(l.assoc) + ") is more than entries (" +
                                             std::to_string(l.entries) + ") (a fully associative TLB has assoc = entries)");
        if (l.entries % l.assoc != 0)
            fail(attr(te, "entries").line, at + "entries (" + std::to_string(l.entries) +
                                               ") is not a multiple of assoc (" + std::to_string(l.assoc) +
                                               ") (entries = sets x assoc)");
        l.latency = u32(te, "latency");
        t.levels.push_back(std::move(l));
    }
    if (t.levels.empty()) fail(e.line, "<tlbs>: no <tlb> element (one or two TLB levels: DTLB1, then DTLB2)");
    m.tlbs = std::move(t);
}

void read_machine(const Element& e, Machine& m) {
    container(e);
    m.name = str(e, "name");
    m.model = one_of(e, "model", {"hierarchy", "cachegrind"});
    m.levels = nonneg_int(e, "levels");
    m.split_l1 = boolean(e, "split-l1");
    m.icache = boolean(e, "icache");
    m.random_seed = u64(e, "random-seed");
    m.cpi = cpi_attr(e);
    m.memory_latency = u32(e, "memory-latency");
    std::vector<int> lines;
    for (const Element& c : e.children) {
        if (c.name != "cache") continue;
        Cache k;
        k.name = one_of(c, "name", {"I1", "D1", "L1", "L2", "L3", "L4", "LL"});
        for (size_t i = 0; i < m.caches.size(); ++i)
            if (m.caches[i].name == k.name)
                fail(c.line, "<cache>: a second cache named '" + k.name + "' (the first is at line " +
                                 std::to_string(lines[i]) + ")");
        k.level = nonneg_int(c, "level");
        k.side = one_of(c, "side", {"instruction", "data", "unified"});
        k.size = u64(c, "size");
        k.assoc = u32(c, "assoc");
        k.line_size = u32(c, "line-size");
        k.sets = u64(c, "sets");
        k.replacement = one_of(c, "replacement", {"lru", "fifo", "plru", "random"});
        k.write_policy = one_of(c, "write-policy", {"write-back", "write-through"});
        k.inclusion = one_of(c, "inclusion", {"non-inclusive", "inclusive", "exclusive"});
        k.latency = u32(c, "latency");
        k.prefetch = cache_prefetch(c);
        m.caches.push_back(std::move(k));
        lines.push_back(c.line);
    }
    if (m.caches.empty()) fail(e.line, "<machine>: no <cache> element");
    if (const Element* t = optional_one(e, "tlbs")) read_tlbs(*t, m);
    // The multi-core attributes: cores, private-levels and coherence
    // together; the latencies with them, always with MESI.
    if (any_attribute(e, {"cores", "private-levels", "coherence", "c2c-latency", "upgrade-latency"})) {
        MultiCore mc;
        mc.cores = u32(e, "cores");
        if (mc.cores == 0) fail(attr(e, "cores").line, "<machine>: attribute 'cores' is 0 (at least 1 core)");
        mc.private_levels = nonneg_int(e, "private-levels");
        if (mc.private_levels > m.levels) {
            const Attribute& a = attr(e, "private-levels");
            fail(a.line, "<machine>: attribute 'private-levels' is not 0 to " + std::to_string(m.levels) +
                             " (the levels of the machine): " + quoted(a.value));
        }
        mc.coherence = one_of(e, "coherence", {"mesi", "none"});
        if (mc.coherence == "mesi" && mc.private_levels == 0)
            fail(attr(e, "private-levels").line,
                 "<machine>: coherence=\"mesi\" with private-levels=\"0\" (coherence needs private caches)");
        if (mc.coherence == "mesi" || e.attribute("c2c-latency")) mc.c2c_latency = u32(e, "c2c-latency");
        if (mc.coherence == "mesi" || e.attribute("upgrade-latency")) mc.upgrade_latency = u32(e, "upgrade-latency");
        m.multicore = std::move(mc);
    }
}

void read_events(const Element& e, std::vector<std::string>& events) {
    leaf(e);
    events = words(e.text);
    for (size_t i = 0; i < events.size(); ++i) {
        if (!known_event(events[i])) fail(e.line, "<events>: unknown event " + quoted(events[i]));
        for (size_t j = 0; j < i; ++j)
            if (events[j] == events[i]) fail(e.line, "<events>: event '" + events[i] + "' is listed twice");
    }
}

// The events T1m, T2m: one per TLB level of <machine>, T1m first.
void check_tlb_events(const Element& e, const Document& d) {
    const int n = d.machine.tlb_levels();
    std::string names;
    for (int k = 1; k <= n; ++k) names += (k > 1 ? " T" : "T") + std::to_string(k) + "m";
    for (int k = 1; k <= 2; ++k) {
        const std::string name = "T" + std::to_string(k) + "m";
        const bool listed = d.event_index(name) >= 0;
        if (k <= n && !listed)
            fail(e.line, "<events>: no event '" + name + "' (<machine> has " + std::to_string(n) + " TLB level" +
                             (n == 1 ? "" : "s") + ": one event per level, " + names + ")");
        if (k > n && listed)
            fail(e.line, "<events>: event '" + name + "' but <machine> has " +
                             (n == 0 ? std::string("no <tlbs>") : "1 TLB level") + " (one event per TLB level)");
    }
    if (n == 2 && d.event_index("T2m") < d.event_index("T1m"))
        fail(e.line, "<events>: event 'T2m' before 'T1m' (T1m, then T2m)");
}

// A translation that missed DTLB2 missed DTLB1 too: T2m <= T1m.
void check_tlb_misses(const Element& e, const std::vector<uint64_t>& v, int t1, int t2) {
    if (t1 >= 0 && t2 >= 0 && v[t2] > v[t1])
        fail(e.line, tag(e) + ": T2m (" + std::to_string(v[t2]) + ") is more than T1m (" + std::to_string(v[t1]) +
                         "); a translation that missed DTLB2 also missed DTLB1");
}

// --classify-misses: the four class attributes (all or none), which add up
// to the demand misses.
std::optional<MissClasses> miss_classes(const Element& c, const CacheStats& s) {
    bool any = false;
    for (const auto& f : kMissClassFields) any = any || c.attribute(f.attribute);
    if (!any) return std::nullopt;
    MissClasses m;
    for (const auto& f : kMissClassFields) m.*f.member = u64(c, f.attribute);
    unsigned __int128 sum = 0, demand = 0;
    for (const auto& f : kMissClassFields) sum += m.*f.member;
    for (int k = kFetch; k <= kWrite; ++k) demand += s.misses[k];
    if (sum != demand)
        fail(attr(c, "miss-compulsory").line,
             "<cache-stats>: miss-compulsory (" + std::to_string(m.compulsory) + "), miss-capacity (" +
                 std::to_string(m.capacity) + "), miss-conflict (" + std::to_string(m.conflict) +
                 ") and miss-coherence (" + std::to_string(m.coherence) + ") add up to " + wide_text(sum) +
                 ", not to the demand misses fetch-misses + read-misses + write-misses (" + wide_text(demand) +
                 "); every demand miss is in one class");
    return m;
}

// The attributes of a <cache-stats> but the coherence ones; the prefetch
// counters when a cache of the machine has a prefetcher (and only then).
CacheStats cache_counters(const Element& c, bool prefetch) {
    CacheStats s;
    s.name = str(c, "name");
    static const char* const refs[4] = {"fetch-refs", "read-refs", "write-refs", "writeback-refs"};
    static const char* const misses[4] = {"fetch-misses", "read-misses", "write-misses", "writeback-misses"};
    for (int k = 0; k < 4; ++k) {
        s.refs[k] = u64(c, refs[k]);
        s.misses[k] = u64(c, misses[k]);
    }
    s.evictions = u64(c, "evictions");
    s.writebacks = u64(c, "writebacks");
    s.back_invalidations = u64(c, "back-invalidations");
    s.victims_in = u64(c, "victims-in");
    if (prefetch) {
        PrefetchStats p;
        for (const auto& f : kPrefetchStatsFields) p.*f.member = u64(c, f.attribute);
        s.prefetch = p;
    } else {
        for (const auto& f : kPrefetchStatsFields)
            if (const Attribute* a = c.attribute(f.attribute))
                fail(a->line, std::string("<cache-stats>: attribute '") + f.attribute +
                                  "' but no <cache> of <machine> has a prefetcher (the prefetch counters come with "
                                  "prefetchers)");
    }
    s.classes = miss_classes(c, s);
    return s;
}

// The class attributes of every <cache-stats> are there on all or on none;
// `first` is the document's first <cache-stats>.
void check_classes_uniform(const Element& c, const CacheStats& s, const CacheStats& first) {
    if (s.classes.has_value() == first.classes.has_value()) return;
    const std::string other = "<cache-stats name=\"" + xml::excerpt(first.name, 60) + "\">";
    if (s.classes)
        fail(attr(c, "miss-compulsory").line, "<cache-stats>: attribute 'miss-compulsory' but " + other +
                                                  " has none (all four on every <cache-stats> or on none)");
    fail(c.line, "<cache-stats>: no attribute 'miss-compulsory' but " + other +
                     " has it (all four on every <cache-stats> or on none)");
}

// The prefetch counters of one cache's <cache-stats>: the misses are some of
// the requests, a prefetched line is used or evicted unused at most once, and
// only a level with a prefetcher issues prefetches.
void check_prefetch_stats(const Element& e, const CacheStats& s, const Cache& cache) {
    if (!s.prefetch) return;
    const PrefetchStats& p = *s.prefetch;
    if (p.prefetch_misses > p.prefetch_refs)
        fail(attr(e, "prefetch-misses").line,
             "<cache-stats>: prefetch-misses (" + std::to_string(p.prefetch_misses) + ") is more than prefetch-refs (" +
                 std::to_string(p.prefetch_refs) + "); the misses are some of the prefetch requests that reached the level");
    if (p.prefetches_useful > p.prefetches_issued || p.prefetches_polluting > p.prefetches_issued - p.prefetches_useful)
        fail(attr(e, "prefetches-useful").line,
             "<cache-stats>: prefetches-useful (" + std::to_string(p.prefetches_useful) + ") and prefetches-polluting (" +
                 std::to_string(p.prefetches_polluting) + ") add up to more than prefetches-issued (" +
                 std::to_string(p.prefetches_issued) + "); a prefetched line counts once, as useful or as polluting");
    if (p.prefetches_issued != 0 && !cache.prefetch)
        fail(attr(e, "prefetches-issued").line,
             "<cache-stats>: prefetches-issued is " + std::to_string(p.prefetches_issued) + " but cache '" +
                 cache.name + "' has no prefetcher (only a level's own prefetcher issues prefetches)");
}

// <tlb-stats>, one per TLB level in <machine> order: misses at most the
// look-ups, DTLB2 looked up on every DTLB1 miss, the misses equal to the
// totals' T1m and T2m.
void read_tlb_stats(const Element& e, Document& d) {
    std::vector<const Element*> stats;
    for (const Element& c : e.children) {
        if (c.name != "tlb-stats") continue;
        TlbStats t;
        t.name = str(c, "name");
        for (const auto& f : kTlbStatsFields) t.*f.member = u64(c, f.attribute);
        d.tlb_stats.push_back(std::move(t));
        stats.push_back(&c);
    }
    if (!d.machine.tlbs) {
        if (!stats.empty())
            fail(stats[0]->line, "<tlb-stats>: <machine> has no <tlbs> (TLB statistics come with TLBs)");
        return;
    }
    const std::vector<Tlb>& tlbs = d.machine.tlbs->levels;
    for (size_t i = 0; i < stats.size() && i < tlbs.size(); ++i)
        if (d.tlb_stats[i].name != tlbs[i].name)
            fail(stats[i]->line, "<tlb-stats>: name " + quoted(d.tlb_stats[i].name) + " where <machine> has TLB '" +
                                     tlbs[i].name + "' (one per TLB level, in <machine> order)");
    if (stats.size() != tlbs.size())
        fail(stats.size() > tlbs.size() ? stats[tlbs.size()]->line : e.line,
             "<totals>: " + std::to_string(stats.size()) + " <tlb-stats> for " + std::to_string(tlbs.size()) +
                 " TLB level" + (tlbs.size() == 1 ? "" : "s") + " in <machine> (one per TLB level, in <machine> order)");
    for (size_t i = 0; i < stats.size(); ++i) {
        const TlbStats& t = d.tlb_stats[i];
        const Element& c = *stats[i];
        const std::string at = "<tlb-stats name=\"" + t.name + "\">: ";
        if (t.misses > t.refs)
            fail(attr(c, "misses").line, at + "misses (" + std::to_string(t.misses) + ") is more than refs (" +
                                             std::to_string(t.refs) + "); the misses are some of the look-ups");
        if (i > 0 && t.refs != d.tlb_stats[i - 1].misses)
            fail(attr(c, "refs").line, at + "refs (" + std::to_string(t.refs) + ") does not equal the misses of " +
                                           d.tlb_stats[i - 1].name + " (" + std::to_string(d.tlb_stats[i - 1].misses) +
                                           "); " + t.name + " is looked up on every " + d.tlb_stats[i - 1].name +
                                           " miss");
        const std::string event = "T" + std::to_string(i + 1) + "m";
        const int ev = d.event_index(event);
        if (ev >= 0 && d.totals[ev] != t.misses)
            fail(attr(c, "misses").line, at + "misses (" + std::to_string(t.misses) + ") does not equal the " + event +
                                             " of <totals> (" + std::to_string(d.totals[ev]) + "); " + event +
                                             " counts the " + t.name + " misses");
    }
}

// False-sharing misses are coherence misses.
void check_false_sharing(const Element& e, uint64_t false_sharing, uint64_t coherence) {
    if (false_sharing > coherence)
        fail(attr(e, "false-sharing-misses").line,
             tag(e) + ": false-sharing-misses (" + std::to_string(false_sharing) + ") is more than coherence-misses (" +
                 std::to_string(coherence) + "); a false-sharing miss is a coherence miss");
}

void read_coherence_totals(const Element& e, Document& d) {
    CoherenceTotals k;
    for (const auto& f : kCoherenceTotalsFields) k.*f.member = u64(e, f.attribute);
    check_false_sharing(e, k.false_sharing_misses, k.coherence_misses);
    d.coherence = k;
}

void read_totals(const Element& e, Document& d) {
    container(e);
    const Element& costs = one(e, "costs");
    d.totals = cost_vector(costs, d.events);
    check_tlb_misses(costs, d.totals, d.event_index("T1m"), d.event_index("T2m"));
    const bool prefetch = d.machine.has_prefetch();
    std::vector<const Element*> stats;
    for (const Element& c : e.children) {
        if (c.name != "cache-stats") continue;
        d.cache_stats.push_back(cache_counters(c, prefetch));
        stats.push_back(&c);
    }
    const std::vector<Cache>& caches = d.machine.caches;
    for (size_t i = 0; i < stats.size() && i < caches.size(); ++i)
        if (d.cache_stats[i].name != caches[i].name)
            fail(stats[i]->line, "<cache-stats>: name " + quoted(d.cache_stats[i].name) +
                                     " where <machine> has cache '" + caches[i].name +
                                     "' (one per cache, in <machine> order)");
    if (stats.size() != caches.size())
        fail(stats.size() > caches.size() ? stats[caches.size()]->line : e.line,
             "<totals>: " + std::to_string(stats.size()) + " <cache-stats> for " +
                 std::to_string(caches.size()) + " caches in <machine> (one per cache, in <machine> order)");
    for (size_t i = 0; i < stats.size(); ++i) check_prefetch_stats(*stats[i], d.cache_stats[i], caches[i]);
    for (size_t i = 1; i < stats.size(); ++i) check_classes_uniform(*stats[i], d.cache_stats[i], d.cache_stats[0]);
    const Element& mem = one(e, "memory");
    d.memory_reads = u64(mem, "reads");
    d.memory_writes = u64(mem, "writes");
    if (const Element* k = optional_one(e, "coherence")) read_coherence_totals(*k, d);
    read_tlb_stats(e, d);
}

void read_program(const Element& e, Document& d, std::vector<uint64_t>& sum) {
    container(e);
    const std::vector<std::string>& ev = d.events;
    for (const Element& fe : e.children) {
        if (fe.name != "file") continue;
        container(fe);
        File f;
        f.path = str(fe, "path");
        for (const Element& re : fe.children) {
            if (re.name != "region") continue;
            Region r;
            r.type = str(re, "type");
            // Regions of other types (later versions) are not part of the
            // function breakdown: skipped, like any unknown element.
            if (r.type != "function") continue;
            container(re);
            r.name = str(re, "name");
            r.first_line = u32(re, "first-line");
            r.last_line = u32(re, "last-line");
            const Element& ce = one(re, "costs");
            r.costs = cost_vector(ce, ev);
            std::vector<uint64_t> lines_sum(ev.size(), 0);
            size_t bad = 0;
            std::string what = "<region name=\"" + xml::excerpt(r.name, 60) + "\">";
            for (const Element& le : re.children) {
                if (le.name != "line") continue;
                Line l;
                l.number = u32(le, "number");
                l.costs = cost_vector(le, ev);
                if (!add_to(lines_sum, l.costs, bad))
                    fail(le.line, what + ": the " + ev[bad] + " costs of its lines overflow a 64-bit sum");
                r.lines.push_back(std::move(l));
            }
            for (size_t i = 0; i < ev.size(); ++i)
                if (lines_sum[i] != r.costs[i])
                    fail(ce.line, what + ": <costs> do not equal the sum of its lines (" + ev[i] + " is " +
                                      std::to_string(r.costs[i]) + ", the lines add up to " +
                                      std::to_string(lines_sum[i]) + ")");
            if (!add_to(sum, r.costs, bad))
                fail(ce.line, "<program>: the " + ev[bad] + " costs of the regions overflow a 64-bit sum");
            f.regions.push_back(std::move(r));
        }
        d.files.push_back(std::move(f));
    }
}

// ------------------------------------------------- the data-structure section

// "0x" and hexadecimal digits (the tool writes addresses so).
uint64_t address_attr(const Element& e, const char* name) {
    const Attribute& a = attr(e, name);
    std::string t = trim(a.value);
    bool ok = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    uint64_t v = 0;
    if (ok) {
        const char* first = t.data() + 2;
        const char* last = t.data() + t.size();
        auto r = std::from_chars(first, last, v, 16);
        if (r.ec == std::errc::result_out_of_range)
            fail(a.line, tag(e) + ": attribute '" + name + "' is too large (at most 0xffffffffffffffff): " +
                             quoted(a.value));
        ok = r.ptr == last && r.ec == std::errc() && std::isxdigit(static_cast<unsigned char>(*first));
    }
    if (!ok) fail(a.line, tag(e) + ": attribute '" + name + "' is not a hexadecimal address (0x...): " + quoted(a.value));
    return v;
}

// A thread id: a number below kOtherThread, or "other".
uint32_t thread_id_attr(const Element& e) {
    const Attribute& a = attr(e, "id");
    if (trim(a.value) == "other") return kOtherThread;
    if (!all_digits(trim(a.value)))
        fail(a.line, tag(e) + ": attribute 'id' is not a number or 'other': " + quoted(a.value));
    return static_cast<uint32_t>(unsigned_attr(e, "id", kOtherThread - 1));
}

// The section's columns must be the document's data events (so that a column
// means what the same event means in <events>), and of the form
// "Dr D1mr .. Dnmr Dw D1mw .. Dnmw" (the last level may be L), which is what
// lets a reader find the references and the misses of each level.
bool columns_well_formed(const std::vector<std::string>& c) {
    if (c.size() < 4 || c.size() % 2 != 0) return false;
    size_t n = (c.size() - 2) / 2;
    for (int w = 0; w < 2; ++w) {
        const std::vector<std::string>::const_iterator first = c.begin() + w * (n + 1);
        char kind = w ? 'w' : 'r';
        if (*first != std::string("D") + kind) return false;
        for (size_t k = 1; k <= n; ++k) {
            std::string numbered = "D" + std::to_string(k) + "m" + kind;
            bool last_level = k == n && k >= 2 && first[k] == std::string("DLm") + kind;
            if (first[k] != numbered && !last_level) return false;
        }
    }
    return true;
}

// The columns: the data events of <events>, optionally followed by the
// coherence columns "Dcm Dfs", then "Dpf" when a cache has a prefetcher and
// the document's TLB events (T1m, T2m).
std::vector<std::string> read_columns(const Element& e, const Document& d) {
    const Attribute& a = attr(e, "events");
    std::vector<std::string> columns = words(a.value);
    std::vector<std::string> data, tail;
    if (d.machine.has_prefetch()) tail.push_back("Dpf");
    for (const std::string& ev : d.events) {
        if (ev[0] == 'D') data.push_back(ev);
        if (ev[0] == 'T') tail.push_back(ev);
    }
    std::string expected;
    for (const std::string& ev : data) expected += (expected.empty() ? "" : " ") + ev;
    std::vector<std::string> levels = columns;
    // --classify-misses: D<k>comp D<k>cap D<k>conf D<k>coh of every level, last.
    const int first_class = index_of(levels, "D1comp");
    bool classes_ok = true;
    if (first_class >= 0) {
        size_t n = 0;
        for (const std::string& ev : data)
            if (ev.size() > 2 && ev.compare(ev.size() - 2, 2, "mr") == 0) ++n;
        std::vector<std::string> want;
        for (size_t k = 1; k <= n; ++k)
            for (const auto& f : kMissClassFields) want.push_back("D" + std::to_string(k) + f.suffix);
        classes_ok = std::equal(want.begin(), want.end(), levels.begin() + first_class, levels.end()) &&
                     levels.size() - static_cast<size_t>(first_class) == want.size();
        if (!classes_ok)
            fail(a.line, "<data-structures>: attribute 'events' does not end in the miss classes of every level ('" +
                             join_words(want) + "'): " + quoted(a.value));
        levels.resize(static_cast<size_t>(first_class));
    }
    const bool tail_ok = levels.size() >= tail.size() &&
                         std::equal(tail.begin(), tail.end(), levels.end() - tail.size());
    if (tail_ok) levels.resize(levels.size() - tail.size());
    if (levels.size() >= 2 && levels[levels.size() - 2] == "Dcm" && levels.back() == "Dfs") levels.resize(levels.size() - 2);
    if (!tail_ok || levels != data)
        fail(a.line, "<data-structures>: attribute 'events' is not the data events of <events> (" +
                         (expected.empty() ? std::string("none") : "'" + expected + "'") +
                         ", optionally followed by 'Dcm Dfs'" +
                         (tail.empty() ? std::string() : ", then '" + join_words(tail) + "'") +
                         "): " + quoted(a.value));
    if (!columns_well_formed(levels))
        fail(a.line, "<data-structures>: attribute 'events' is not of the form 'Dr D1mr ... Dw D1mw ...' "
                     "(the same levels for reads and writes): " + quoted(a.value));
    return columns;
}

// x > a + b, without overflowing.
bool above_sum(uint64_t x, uint64_t a, uint64_t b) { return x > a && x - a > b; }

// A reference that missed a level also missed every level above it, so each
// miss column is at most the one before it (Dr >= D1mr >= D2mr ...). Dfs is
// at most Dcm, Dpf and T1m at most Dr + Dw, T2m at most T1m.
void check_misses(const Element& e, const std::vector<uint64_t>& v, const std::vector<std::string>& columns) {
    const int dpf = index_of(columns, "Dpf"), t1 = index_of(columns, "T1m"), t2 = index_of(columns, "T2m");
    const bool coherence = index_of(columns, "Dcm") >= 0;
    const int first_class = index_of(columns, "D1comp");
    const size_t plain = first_class >= 0 ? static_cast<size_t>(first_class) : columns.size();
    const size_t level_columns = plain - (coherence ? 2 : 0) - (dpf >= 0) - (t1 >= 0) - (t2 >= 0);
    size_t n = (level_columns - 2) / 2;
    for (size_t w = 0; w < 2; ++w)
        for (size_t k = 1; k <= n; ++k) {
            size_t i = w * (n + 1) + k;
            if (v[i] > v[i - 1])
                fail(e.line, tag(e) + ": " + columns[i] + " (" + std::to_string(v[i]) + ") is more than " +
                                 columns[i - 1] + " (" + std::to_string(v[i - 1]) +
                                 "); a reference that missed a level also missed the levels above it");
        }
    // Dcm and Dfs: the false-sharing misses are some of the coherence misses.
    if (coherence && v[level_columns + 1] > v[level_columns])
        fail(e.line, tag(e) + ": Dfs (" + std::to_string(v[level_columns + 1]) + ") is more than Dcm (" +
                         std::to_string(v[level_columns]) + "); a false-sharing miss is a coherence miss");
    const uint64_t dr = v[0], dw = v[n + 1];
    if (dpf >= 0 && above_sum(v[dpf], dr, dw))
        fail(e.line, tag(e) + ": Dpf (" + std::to_string(v[dpf]) + ") is more than Dr + Dw (" + std::to_string(dr + dw) +
                         "); the references served by a prefetched line are some of the references");
    if (t1 >= 0 && above_sum(v[t1], dr, dw))
        fail(e.line, tag(e) + ": T1m (" + std::to_string(v[t1]) + ") is more than Dr + Dw (" + std::to_string(dr + dw) +
                         "); the DTLB1 misses are some of the references");
    check_tlb_misses(e, v, t1, t2);
}

std::vector<uint64_t> structure_costs(const Element& e, const std::vector<std::string>& columns) {
    std::vector<uint64_t> v = cost_vector(e, columns);
    check_misses(e, v, columns);
    return v;
}

// --classify-misses: in a structure's and a thread's <costs> (not in
// buckets, which do not histogram them) the classes of level k add up to
// D<k>mr + D<k>mw.
void check_class_sums(const Element& e, const std::vector<uint64_t>& v, const std::vector<std::string>& columns) {
    const int first_class = index_of(columns, "D1comp");
    if (first_class < 0) return;
    for (size_t k = 1;; ++k) {
        const std::string lv = "D" + std::to_string(k);
        const int c0 = index_of(columns, lv + "comp"), mr = index_of(columns, lv + "mr"), mw = index_of(columns, lv + "mw");
        if (c0 < 0 || mr < 0 || mw < 0) return;
        unsigned __int128 sum = 0;
        for (int c = 0; c < kMissClasses; ++c) sum += v[static_cast<size_t>(c0 + c)];
        const unsigned __int128 misses = static_cast<unsigned __int128>(v[mr]) + v[mw];
        if (sum != misses)
            fail(e.line, tag(e) + ": " + lv + "comp + " + lv + "cap + " + lv + "conf + " + lv + "coh (" + wide_text(sum) +
                             ") do not equal " + lv + "mr + " + lv + "mw (" + wide_text(misses) +
                             "); every miss of a structure is in one class");
    }
}

// <reuse-distance>: log2 bins, ascending, non-zero; cold plus the bins are
// the accesses, which are the structure's Dr + Dw.
void read_reuse(const Element& re, DataStructure& s, const std::vector<std::string>& columns) {
    container(re);
    ReuseDistance r;
    r.line_size = u32(re, "line-size");
    r.accesses = u64(re, "accesses");
    r.cold = u64(re, "cold");
    unsigned __int128 sum = r.cold;
    int last_bin = -1;
    for (const Element& be : re.children) {
        if (be.name != "bin") continue;
        leaf(be);
        ReuseBin b;
        b.min = u64(be, "min");
        b.max = u64(be, "max");
        b.count = u64(be, "count");
        const int bin = ReuseDistance::bin_of(b.min);
        const uint64_t want_max = b.min == 0 ? 0 : b.min + (b.min - 1);
        if ((b.min & (b.min - 1)) != 0 || b.max != want_max)
            fail(be.line, "<bin>: min " + std::to_string(b.min) + " max " + std::to_string(b.max) +
                              " is not a bin (0-0, 1-1, 2-3, 4-7, ...)");
        if (bin <= last_bin)
            fail(be.line, "<bin>: min " + std::to_string(b.min) +
                              " does not come after the bin before it (bins ascending, each once)");
        if (b.count == 0) fail(attr(be, "count").line, "<bin>: count is 0 (only bins with references are listed)");
        last_bin = bin;
        sum += b.count;
        r.bins.push_back(b);
    }
    if (sum != r.accesses)
        fail(re.line, "<reuse-distance>: cold (" + std::to_string(r.cold) + ") and the bins (" +
                          wide_text(sum - r.cold) + ") add up to " + wide_text(sum) + ", not to accesses (" +
                          std::to_string(r.accesses) + ")");
    const int dr = index_of(columns, "Dr"), dw = index_of(columns, "Dw");
    const unsigned __int128 refs = static_cast<unsigned __int128>(s.costs[static_cast<size_t>(dr)]) + s.costs[static_cast<size_t>(dw)];
    if (refs != r.accesses)
        fail(attr(re, "accesses").line, "<reuse-distance>: accesses (" + std::to_string(r.accesses) +
                                            ") is not the structure's Dr + Dw (" + wide_text(refs) + ")");
    s.reuse = std::move(r);
}

std::string structure_tag(const DataStructure& s) {
    return "<data-structure name=\"" + xml::excerpt(s.name, 60) + "\">";
}

// The first column where `sum` differs from `costs`, or -1.
int first_difference(const std::vector<uint64_t>& sum, const std::vector<uint64_t>& costs, bool at_most) {
    for (size_t i = 0; i < costs.size(); ++i)
        if (at_most ? sum[i] > costs[i] : sum[i] != costs[i]) return static_cast<int>(i);
    return -1;
}

void read_threads(const Element& se, DataStructure& s, const std::vector<std::string>& columns, int costs_line) {
    std::vector<uint64_t> sum(columns.size(), 0);
    std::vector<int> lines;
    for (const Element& te : se.children) {
        if (te.name != "thread") continue;
        container(te);
        DataThread t;
        t.id = thread_id_attr(te);
        for (size_t i = 0; i < s.threads.size(); ++i)
            if (s.threads[i].id == t.id)
                fail(te.line, "<thread>: a second thread '" + str(te, "id") + "' (the first is at line " +
                                  std::to_string(lines[i]) + ")");
        t.costs = structure_costs(one(te, "costs"), columns);
        check_class_sums(one(te, "costs"), t.costs, columns);
        size_t bad = 0;
        if (!add_to(sum, t.costs, bad))
            fail(te.line, structure_tag(s) + ": the " + columns[bad] + " costs of its threads overflow a 64-bit sum");
        s.threads.push_back(std::move(t));
        lines.push_back(te.line);
    }
    int i = first_difference(sum, s.costs, false);
    if (i >= 0)
        fail(costs_line, structure_tag(s) + ": <costs> do not equal the sum of its threads (" + columns[i] + " is " +
                             std::to_string(s.costs[i]) + ", the threads add up to " + std::to_string(sum[i]) + ")");
    // Canonical order: ascending id, "other" (the largest id) last.
    std::stable_sort(s.threads.begin(), s.threads.end(),
                     [](const DataThread& a, const DataThread& b) { return a.id < b.id; });
}

void histogram_geometry(const Element& he, DataHistogram& h) {
    const Attribute* bins = he.attribute("bins");
    const Attribute* bytes = he.attribute("bucket-bytes");
    if (bins && bytes)
        fail(he.line, "<histogram>: both 'bins' and 'bucket-bytes' (bins mode has one, lines mode the other)");
    if (!bins && !bytes) fail(he.line, "<histogram>: missing attribute 'bins' or 'bucket-bytes'");
    if (bins) {
        h.bins = u32(he, "bins");
        if (h.bins == 0) fail(bins->line, "<histogram>: attribute 'bins' is 0 (at least 1 portion)");
        return;
    }
    h.bucket_bytes = u64(he, "bucket-bytes");
    if (h.bucket_bytes == 0) fail(bytes->line, "<histogram>: attribute 'bucket-bytes' is 0 (at least 1 byte)");
    h.buckets = u32(he, "buckets");
}

void read_histogram(const Element& he, DataStructure& s, const std::vector<std::string>& columns) {
    container(he);
    DataHistogram h;
    histogram_geometry(he, h);
    std::vector<uint64_t> sum(columns.size(), 0);
    std::vector<std::pair<uint32_t, int>> seen;  // (index, line)
    for (const Element& be : he.children) {
        if (be.name != "bucket") continue;
        DataBucket b;
        b.index = u32(be, "index");
        if (b.index >= h.size())
            fail(be.line, "<bucket>: index " + std::to_string(b.index) + " is out of range (the histogram has " +
                              std::to_string(h.size()) + " buckets, 0 to " + std::to_string(h.size() - 1) + ")");
        b.costs = structure_costs(be, columns);
        size_t bad = 0;
        if (!add_to(sum, b.costs, bad))
            fail(be.line, structure_tag(s) + ": the " + columns[bad] + " costs of its buckets overflow a 64-bit sum");
        seen.emplace_back(b.index, be.line);
        h.entries.push_back(std::move(b));
    }
    std::sort(seen.begin(), seen.end());
    for (size_t i = 1; i < seen.size(); ++i)
        if (seen[i].first == seen[i - 1].first) {
            // Report the later of the two, naming the earlier.
            fail(seen[i].second, "<bucket>: a second bucket with index " + std::to_string(seen[i].first) +
                                     " (the first is at line " + std::to_string(seen[i - 1].second) + ")");
        }
    // A client request that changes the resolution restarts the histogram, so
    // the buckets may count less than the structure, never more.
    int i = first_difference(sum, s.costs, true);
    if (i >= 0)
        fail(he.line, structure_tag(s) + ": its buckets add up to more than its <costs> (" + columns[i] + " is " +
                          std::to_string(s.costs[i]) + ", the buckets add up to " + std::to_string(sum[i]) + ")");
    std::sort(h.entries.begin(), h.entries.end(),
              [](const DataBucket& a, const DataBucket& b) { return a.index < b.index; });
    s.histogram = std::move(h);
}

DataStructure read_structure(const Element& se, const std::vector<std::string>& columns) {
    container(se);
    DataStructure s;
    s.kind = one_of(se, "kind", {"global", "heap", "user"});
    s.name = str(se, "name");
    s.file = str(se, "file");
    s.line = u32(se, "line");
    s.address = address_attr(se, "address");
    s.size = u64(se, "size");
    s.blocks = u64(se, "blocks");
    s.bytes = u64(se, "bytes");
    s.counted = boolean(se, "counted");
    if (const Element* site = optional_one(se, "site")) {
        leaf(*site);
        s.site = site->text;
    }
    const Element& ce = one(se, "costs");
    s.costs = structure_costs(ce, columns);
    if (!s.counted) {
        int i = first_difference(std::vector<uint64_t>(columns.size(), 0), s.costs, false);
        if (i >= 0)
            fail(ce.line, structure_tag(s) + ": counted=\"false\" but its " + columns[i] + " cost is " +
                              std::to_string(s.costs[i]) + " (a structure without a monitor slot counts nothing)");
    }
    check_class_sums(ce, s.costs, columns);
    read_threads(se, s, columns, ce.line);
    if (const Element* he = optional_one(se, "histogram")) read_histogram(*he, s, columns);
    if (const Element* re = optional_one(se, "reuse-distance")) read_reuse(*re, s, columns);
    return s;
}

void read_resolution(const Element& e, DataStructures& ds) {
    ds.resolution = u32(e, "resolution");
    const Attribute& a = attr(e, "resolution");
    std::string why;
    if (ds.mode == "static" && ds.resolution != 0) why = "is not 0 in static mode";
    if (ds.mode == "lines" && (ds.resolution == 0 || (ds.resolution & (ds.resolution - 1)) != 0))
        why = "is not a power of two (cache lines per bucket) in lines mode";
    if (ds.mode == "bins" && ds.resolution == 0) why = "is 0 in bins mode (at least 1 portion)";
    if (!why.empty()) fail(a.line, "<data-structures>: attribute 'resolution' " + why + ": " + quoted(a.value));
}

void read_data_structures(const Element& e, Document& d) {
    container(e);
    DataStructures ds;
    ds.events = read_columns(e, d);
    ds.mode = one_of(e, "mode", {"static", "lines", "bins"});
    read_resolution(e, ds);
    ds.slots = u32(e, "slots");
    for (const Element& se : e.children)
        if (se.name == "data-structure") ds.structures.push_back(read_structure(se, ds.events));
    d.data_structures = std::move(ds);
}

// ------------------------------------------------------- the multi-core parts

// The machine's cores, for <threads> and <cores>, which need them.
uint32_t machine_cores(const Element& e, const Document& d) {
    if (!d.machine.multicore)
        fail(e.line, tag(e) + ": the machine is not multi-core (<machine> has no attribute 'cores')");
    return d.machine.multicore->cores;
}

std::string core_range(uint32_t cores) {
    return "(the machine has " + std::to_string(cores) + (cores == 1 ? " core, 0)" : " cores, 0 to " + std::to_string(cores - 1) + ")");
}

// The threads add up to <totals>, column by column.
void read_thread_section(const Element& e, Document& d) {
    container(e);
    const uint32_t cores = machine_cores(e, d);
    std::vector<Thread> threads;
    std::vector<int> lines;
    std::vector<uint64_t> sum(d.events.size(), 0);
    for (const Element& te : e.children) {
        if (te.name != "thread") continue;
        container(te);
        Thread t;
        t.id = u32(te, "id");
        for (size_t i = 0; i < threads.size(); ++i)
            if (threads[i].id == t.id)
                fail(te.line, "<thread>: a second thread '" + std::to_string(t.id) + "' (the first is at line " +
                                  std::to_string(lines[i]) + ")");
        t.valgrind_tid = u32(te, "valgrind-tid");
        t.omp_thread = signed_int(te, "omp-thread");
        if (t.omp_thread < kNotOpenMP) {
            const Attribute& a = attr(te, "omp-thread");
            fail(a.line, "<thread>: attribute 'omp-thread' is not a thread number or -1 (not an OpenMP thread): " +
                             quoted(a.value));
        }
        t.core = u32(te, "core");
        if (t.core >= cores)
            fail(attr(te, "core").line,
                 "<thread>: core " + std::to_string(t.core) + " is out of range " + core_range(cores));
        t.costs = cost_vector(one(te, "costs"), d.events);
        size_t bad = 0;
        if (!add_to(sum, t.costs, bad))
            fail(te.line, "<threads>: the " + d.events[bad] + " costs of the threads overflow a 64-bit sum");
        threads.push_back(std::move(t));
        lines.push_back(te.line);
    }
    // Cycles are rounded once per thread but once per line in <totals>
    // (a CPI like 0.75): only the counted events must add up exactly.
    for (size_t i = 0; i < d.events.size(); ++i)
        if (sum[i] != d.totals[i] && d.events[i] != "Cycles")
            fail(e.line, "<threads>: the threads' <costs> do not add up to <totals> (" + d.events[i] + " is " +
                             std::to_string(d.totals[i]) + ", the threads add up to " + std::to_string(sum[i]) + ")");
    std::stable_sort(threads.begin(), threads.end(), [](const Thread& a, const Thread& b) { return a.id < b.id; });
    d.threads = std::move(threads);
}

constexpr size_t kCoherenceCounters = sizeof kCacheCoherenceFields / sizeof kCacheCoherenceFields[0];

CoreCacheStats core_cache_stats(const Element& c, bool prefetch) {
    CoreCacheStats s;
    s.stats = cache_counters(c, prefetch);
    bool any = false;
    for (const auto& f : kCacheCoherenceFields) any = any || c.attribute(f.attribute);
    if (any) {  // all or none
        CacheCoherence k;
        for (const auto& f : kCacheCoherenceFields) k.*f.member = u64(c, f.attribute);
        check_false_sharing(c, k.false_sharing_misses, k.coherence_misses);
        s.coherence = k;
    }
    return s;
}

Core read_core(const Element& ce, const Document& d, uint32_t cores) {
    container(ce);
    Core c;
    c.id = u32(ce, "id");
    if (c.id >= cores)
        fail(attr(ce, "id").line, "<core>: id " + std::to_string(c.id) + " is out of range " + core_range(cores));
    c.instructions = u64(ce, "instructions");
    c.cycles = u64(ce, "cycles");
    c.busy_cycles = u64(ce, "busy-cycles");
    c.wait_cycles = u64(ce, "wait-cycles");
    const std::vector<const Cache*> caches = d.machine.private_caches();
    std::vector<const Element*> stats;
    for (const Element& se : ce.children) {
        if (se.name != "cache-stats") continue;
        c.cache_stats.push_back(core_cache_stats(se, d.machine.has_prefetch()));
        stats.push_back(&se);
    }
    for (size_t i = 0; i < stats.size() && i < caches.size(); ++i)
        if (c.cache_stats[i].stats.name != caches[i]->name)
            fail(stats[i]->line, "<cache-stats>: name " + quoted(c.cache_stats[i].stats.name) +
                                     " where <machine> has private cache '" + caches[i]->name +
                                     "' (one per private cache, in <machine> order)");
    if (stats.size() != caches.size())
        fail(stats.size() > caches.size() ? stats[caches.size()]->line : ce.line,
             "<core id=\"" + std::to_string(c.id) + "\">: " + std::to_string(stats.size()) + " <cache-stats> for " +
                 std::to_string(caches.size()) + " private caches in <machine> (one per private cache, in <machine> order)");
    for (size_t i = 0; i < stats.size(); ++i) check_prefetch_stats(*stats[i], c.cache_stats[i].stats, *caches[i]);
    if (!d.cache_stats.empty())
        for (size_t i = 0; i < stats.size(); ++i) check_classes_uniform(*stats[i], c.cache_stats[i].stats, d.cache_stats[0]);
    return c;
}

// The sums of the coherence attributes over every core's private caches.
struct CoherenceSums {
    uint64_t v[kCoherenceCounters] = {};  // in kCacheCoherenceFields order
    uint64_t& at(const char* name) {
        for (size_t i = 0; i < kCoherenceCounters; ++i)
            if (std::strcmp(kCacheCoherenceFields[i].attribute, name) == 0) return v[i];
        return v[0];
    }
};

void check_coherence_sums(const Element& cores_element, const Element* coherence_element, Document& d) {
    CoherenceSums sum;
    for (const Core& c : *d.cores)
        for (const CoreCacheStats& s : c.cache_stats) {
            if (!s.coherence) continue;
            for (size_t i = 0; i < kCoherenceCounters; ++i) {
                const auto& f = kCacheCoherenceFields[i];
                uint64_t value = (*s.coherence).*f.member;
                if (sum.v[i] > UINT64_MAX - value)
                    fail(cores_element.line, std::string("<cores>: the '") + f.attribute +
                                                 "' counts of the cores overflow a 64-bit sum");
                sum.v[i] += value;
            }
        }
    // Every transfer and every invalidation has a sender and a receiver.
    const struct {
        const char* in;
        const char* out;
        const char* why;
    } pairs[] = {{"c2c-in", "c2c-out", "a cache-to-cache transfer leaves one cache and enters another"},
                 {"invalidations-received", "invalidations-sent", "an invalidation is sent by one cache to another"}};
    for (const auto& p : pairs)
        if (sum.at(p.in) != sum.at(p.out))
            fail(cores_element.line, std::string("<cores>: the cores' '") + p.in + "' (" + std::to_string(sum.at(p.in)) +
                                         ") does not equal their '" + p.out + "' (" + std::to_string(sum.at(p.out)) +
                                         "); " + p.why);
    if (!coherence_element) return;
    const CoherenceTotals& k = *d.coherence;
    const struct {
        const char* total;
        uint64_t value;
        const char* cores;
    } rules[] = {{"coherence-misses", k.coherence_misses, "coherence-misses"},
                 {"false-sharing-misses", k.false_sharing_misses, "false-sharing-misses"},
                 {"invalidations", k.invalidations, "invalidations-received"},
                 {"c2c-transfers", k.c2c_transfers, "c2c-in"},
                 {"upgrades", k.upgrades, "upgrades"}};
    for (const auto& r : rules)
        if (r.value != sum.at(r.cores))
            fail(attr(*coherence_element, r.total).line,
                 std::string("<coherence>: '") + r.total + "' (" + std::to_string(r.value) +
                     ") does not equal the sum of the cores' '" + r.cores + "' (" + std::to_string(sum.at(r.cores)) +
                     ")");
}

void read_cores(const Element& e, const Element* coherence_element, Document& d) {
    container(e);
    const uint32_t cores = machine_cores(e, d);
    std::vector<Core> list;
    std::vector<int> lines;
    for (const Element& ce : e.children) {
        if (ce.name != "core") continue;
        Core c = read_core(ce, d, cores);
        for (size_t i = 0; i < list.size(); ++i)
            if (list[i].id == c.id)
                fail(ce.line, "<core>: a second core with id " + std::to_string(c.id) + " (the first is at line " +
                                  std::to_string(lines[i]) + ")");
        list.push_back(std::move(c));
        lines.push_back(ce.line);
    }
    std::stable_sort(list.begin(), list.end(), [](const Core& a, const Core& b) { return a.id < b.id; });
    d.cores = std::move(list);
    check_coherence_sums(e, coherence_element, d);
}

// ------------------------------------------------------- the region profile

// A list of names (columns, states): no name twice.
std::vector<std::string> name_list(const Element& e, const char* name) {
    const Attribute& a = attr(e, name);
    std::vector<std::string> names = words(a.value);
    for (size_t i = 0; i < names.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (names[j] == names[i])
                fail(a.line, tag(e) + ": attribute '" + name + "' lists " + quoted(names[i]) + " twice");
    return names;
}

// A list of numbers in an attribute, one per name of `names` (`what` says
// what the names are: "columns", "states", "events").
std::vector<uint64_t> number_list(const Element& e, const char* name, const std::vector<std::string>& names,
                                  const char* what) {
    const Attribute& a = attr(e, name);
    std::vector<uint64_t> v;
    v.reserve(names.size());
    for (const std::string& word : words(a.value)) {
        size_t n = v.size();
        std::string which = tag(e) + ": attribute '" + name + "': value " + std::to_string(n + 1);
        if (n < names.size()) which += " (" + names[n] + ")";
        if (!all_digits(word)) fail(a.line, which + " is not a number: " + quoted(word));
        uint64_t x;
        if (!to_u64(word, UINT64_MAX, x))
            fail(a.line, which + " is too large (at most 18446744073709551615): " + quoted(word));
        v.push_back(x);
    }
    if (v.size() != names.size())
        fail(a.line, tag(e) + ": attribute '" + name + "' has " + std::to_string(v.size()) + " values for " +
                         std::to_string(names.size()) + " " + what);
    return v;
}

// "R" and five or more digits.
bool is_region_id(const std::string& id) {
    return id.size() >= 6 && id[0] == 'R' && all_digits(id.substr(1));
}

std::string node_tag(uint32_t id) { return "<node id=\"" + std::to_string(id) + "\">"; }

std::string thread_range(uint32_t threads) {
    return "(the region profile has " + std::to_string(threads) +
           (threads == 1 ? " thread, 0)" : " threads, 0 to " + std::to_string(threads - 1) + ")");
}

uint32_t profile_thread_attr(const Element& e, const char* name, uint32_t threads) {
    uint32_t id = u32(e, name);
    if (id >= threads)
        fail(attr(e, name).line, tag(e) + ": thread " + std::to_string(id) + " is out of range " + thread_range(threads));
    return id;
}

ProfRegion read_profile_region(const Element& re) {
    container(re);
    ProfRegion r;
    const Attribute& id = attr(re, "id");
    r.id = trim(id.value);
    if (!is_region_id(r.id))
        fail(id.line, "<region>: attribute 'id' is not a region id (R and five or more digits): " + quoted(id.value));
    r.type = one_of(re, "type", {"PARALLEL", "LOOP", "SECTIONS", "SINGLE", "MASTER", "CRITICAL", "LOCK", "BARRIER",
                                 "TASK", "TASKWAIT", "TASKGROUP", "ORDERED", "REDUCTION", "REGION", "FUNCTION"});
    r.file = str(re, "file");
    r.function = str(re, "function");
    r.first_line = u32(re, "first-line");
    r.last_line = u32(re, "last-line");
    r.name = str(re, "name");
    return r;
}

// Where the elements of a node are, for the messages of the later checks.
struct NodeLines {
    int node = 0;
    std::vector<int> threads;  // per NodeThread
    std::vector<int> preds;    // per Pred
};

void read_node_threads(const Element& ne, const RegionProfile& p, ProfNode& n, NodeLines& lines) {
    for (const Element& te : ne.children) {
        if (te.name != "thread") continue;
        container(te);
        NodeThread t;
        const Attribute& ida = attr(te, "id");
        t.id = u32(te, "id");
        if (t.id >= p.threads)
            fail(ida.line, "<thread>: id " + std::to_string(t.id) + " is out of range " + thread_range(p.threads));
        if (!n.threads.empty() && t.id <= n.threads.back().id)
            fail(te.line, "<thread>: id " + std::to_string(t.id) + " after thread " +
                              std::to_string(n.threads.back().id) + " in " + node_tag(n.id) +
                              " (threads are listed in ascending id, each once)");
        t.columns = number_list(te, "columns", p.columns, "columns");
        t.states = number_list(te, "states", p.states, "states");
        t.costs = number_list(te, "costs", p.events, "events");
        n.threads.push_back(std::move(t));
        lines.threads.push_back(te.line);
    }
}

void read_node_preds(const Element& ne, const RegionProfile& p, ProfNode& n, NodeLines& lines) {
    for (const Element& pe : ne.children) {
        if (pe.name != "pred") continue;
        container(pe);
        if (!n.parent) fail(pe.line, "<pred>: the root (node 0) has no predecessors");
        Pred q;
        q.from = u32(pe, "from");
        q.thread = profile_thread_attr(pe, "thread", p.threads);
        q.count = u64(pe, "count");
        if (q.count == 0)
            fail(attr(pe, "count").line,
                 "<pred>: attribute 'count' is 0 (a predecessor is listed only when the thread came from it)");
        if (!n.preds.empty()) {
            const Pred& last = n.preds.back();
            if (q.from < last.from || (q.from == last.from && q.thread <= last.thread))
                fail(pe.line, "<pred>: (from " + std::to_string(q.from) + ", thread " + std::to_string(q.thread) +
                                  ") after (from " + std::to_string(last.from) + ", thread " +
                                  std::to_string(last.thread) +
                                  ") (predecessors are listed in ascending from, then thread, each once)");
        }
        n.preds.push_back(q);
        lines.preds.push_back(pe.line);
    }
}

ProfNode read_profile_node(const Element& ne, const RegionProfile& p, const std::vector<ProfNode>& before,
                           NodeLines& lines) {
    container(ne);
    ProfNode n;
    n.id = u32(ne, "id");
    lines.node = ne.line;
    const Attribute& region = attr(ne, "region");
    const Attribute& parent = attr(ne, "parent");
    std::string region_id = trim(region.value), parent_text = trim(parent.value);
    if (before.empty()) {
        if (n.id != 0)
            fail(ne.line, "<node>: the first node has id " + std::to_string(n.id) +
                              "; the first node is the root, id 0 (nodes are listed in ascending id)");
        if (!region_id.empty() || !parent_text.empty())
            fail(ne.line, "<node id=\"0\">: the root has region=\"\" and parent=\"\" (it is the program, in no region)");
    } else {
        const uint32_t last = before.back().id;
        if (n.id <= last)
            fail(ne.line, "<node>: id " + std::to_string(n.id) + " after node " + std::to_string(last) +
                              " (nodes are listed in ascending id, each once)");
        if (region_id.empty())
            fail(region.line, node_tag(n.id) + ": attribute 'region' is empty (only the root, node 0, has no region)");
        if (!p.region(region_id))
            fail(region.line, node_tag(n.id) + ": region " + quoted(region.value) + " is not listed (no <region id=" +
                                  "\"" + xml::excerpt(region_id) + "\">)");
        if (parent_text.empty())
            fail(parent.line, node_tag(n.id) + ": attribute 'parent' is empty (only the root, node 0, has no parent)");
        uint32_t parent_id = u32(ne, "parent");
        // `before` is in ascending id.
        auto at = std::lower_bound(before.begin(), before.end(), parent_id,
                                   [](const ProfNode& a, uint32_t v) { return a.id < v; });
        if (at == before.end() || at->id != parent_id)
            fail(parent.line, node_tag(n.id) + ": parent " + std::to_string(parent_id) +
                                  " is not a node listed before it (a parent has a smaller id than its children)");
        n.parent = parent_id;
        n.region = region_id;
    }
    read_node_threads(ne, p, n, lines);
    read_node_preds(ne, p, n, lines);
    return n;
}

// a += b into `sum`; false on overflow.
bool add_checked(uint64_t& sum, uint64_t v) {
    if (sum > UINT64_MAX - v) return false;
    sum += v;
    return true;
}

// Predecessors are the parent or siblings; execC is the number of entries
// (the sum of the thread's <pred> counts; the root is entered once).
void check_flow(const RegionProfile& p, const std::vector<NodeLines>& lines, int exec_c) {
    for (size_t i = 0; i < p.nodes.size(); ++i) {
        const ProfNode& n = p.nodes[i];
        std::map<uint32_t, size_t> thread_at;  // thread id -> index in n.threads
        for (size_t k = 0; k < n.threads.size(); ++k) thread_at[n.threads[k].id] = k;
        std::map<uint32_t, uint64_t> entries;  // per thread, the sum of its counts
        for (size_t k = 0; k < n.preds.size(); ++k) {
            const Pred& q = n.preds[k];
            const ProfNode* from = p.node(q.from);
            if (!from) fail(lines[i].preds[k], "<pred>: from " + std::to_string(q.from) + " is not a node");
            if (q.from != *n.parent && from->parent != n.parent)
                fail(lines[i].preds[k], "<pred>: node " + std::to_string(q.from) + " is neither the parent (" +
                                            std::to_string(*n.parent) + ") nor a sibling of node " +
                                            std::to_string(n.id) +
                                            " (a thread enters a node from its parent or from a node of the same parent)");
            auto t = thread_at.find(q.thread);
            if (t == thread_at.end())
                fail(lines[i].preds[k], "<pred>: thread " + std::to_string(q.thread) + " has no <thread> in " +
                                            node_tag(n.id) +
                                            " (a thread that entered the node has its figures there)");
            if (!add_checked(entries[q.thread], q.count))
                fail(lines[i].threads[t->second], node_tag(n.id) + ": the <pred> counts of thread " +
                                                      std::to_string(q.thread) + " overflow a 64-bit sum");
        }
        for (size_t k = 0; k < n.threads.size(); ++k) {
            const NodeThread& t = n.threads[k];
            const uint64_t c = t.columns[exec_c];
            if (!n.parent) {
                if (c != 1)
                    fail(lines[i].threads[k], node_tag(n.id) + ": thread " + std::to_string(t.id) + "'s execC is " +
                                                  std::to_string(c) +
                                                  " (the root, the program, is entered once: execC 1)");
                continue;
            }
            auto e = entries.find(t.id);
            const uint64_t sum = e == entries.end() ? 0 : e->second;
            if (c != sum)
                fail(lines[i].threads[k], node_tag(n.id) + ": thread " + std::to_string(t.id) + "'s execC (" +
                                              std::to_string(c) + ") does not equal the sum of its <pred> counts (" +
                                              std::to_string(sum) + ")");
        }
    }
}

// For every node and thread: the states of the node and of its descendants
// add up to the thread's execT in the node.
void check_state_sums(const RegionProfile& p, const std::vector<NodeLines>& lines, int exec_t) {
    // Per node, per thread: the states of the subtree. Parents have smaller
    // ids (and so come earlier), so one pass from the last node up adds each
    // subtree to its parent.
    std::vector<std::map<uint32_t, uint64_t>> sums(p.nodes.size());
    std::map<uint32_t, size_t> index;
    for (size_t i = 0; i < p.nodes.size(); ++i) index[p.nodes[i].id] = i;
    for (size_t i = p.nodes.size(); i-- > 0;) {
        const ProfNode& n = p.nodes[i];
        for (size_t k = 0; k < n.threads.size(); ++k)
            for (uint64_t v : n.threads[k].states)
                if (!add_checked(sums[i][n.threads[k].id], v))
                    fail(lines[i].threads[k], node_tag(n.id) + ": the states of thread " +
                                                  std::to_string(n.threads[k].id) +
                                                  " in the node and its descendants overflow a 64-bit sum");
        for (size_t k = 0; k < n.threads.size(); ++k) {
            const NodeThread& t = n.threads[k];
            uint64_t states = sums[i][t.id];
            if (t.columns[exec_t] != states)
                fail(lines[i].threads[k], node_tag(n.id) + ": thread " + std::to_string(t.id) + "'s execT (" +
                                              std::to_string(t.columns[exec_t]) +
                                              ") does not equal the states of the node and its descendants (" +
                                              std::to_string(states) + ")");
        }
        if (!n.parent) continue;
        const size_t up = index[*n.parent];
        for (const auto& [thread, v] : sums[i])
            if (!add_checked(sums[up][thread], v)) {
                // At the parent's <thread> of that thread, or at the parent.
                int line = lines[up].node;
                for (size_t k = 0; k < p.nodes[up].threads.size(); ++k)
                    if (p.nodes[up].threads[k].id == thread) line = lines[up].threads[k];
                fail(line, node_tag(p.nodes[up].id) + ": the states of thread " + std::to_string(thread) +
                               " in the node and its descendants overflow a 64-bit sum");
            }
        std::map<uint32_t, uint64_t>().swap(sums[i]);  // done with this subtree
    }
}

void read_region_profile(const Element& e, Document& d) {
    container(e);
    RegionProfile p;
    p.time_unit = one_of(e, "time-unit", {"cycles"});
    p.threads = u32(e, "threads");
    if (p.threads == 0) fail(attr(e, "threads").line, "<region-profile>: attribute 'threads' is 0 (at least 1 thread)");
    p.columns = name_list(e, "columns");
    for (const char* needed : {"execT", "execC"})
        if (p.column(needed) < 0) {
            const Attribute& a = attr(e, "columns");
            fail(a.line, std::string("<region-profile>: attribute 'columns' has no '") + needed +
                             "' (the sums need execT and execC): " + quoted(a.value));
        }
    p.states = name_list(e, "states");
    const Attribute& ev = attr(e, "events");
    p.events = words(ev.value);
    if (p.events != d.events)
        fail(ev.line, "<region-profile>: attribute 'events' is not the events of <events> ('" + join_words(d.events) +
                          "'): " + quoted(ev.value));
    // Ids with the same number ("R00001", "R000001") are the same region.
    std::map<std::string, std::pair<std::string, int>, bool (*)(const std::string&, const std::string&)> seen(
        region_id_less);
    for (const Element& re : e.children) {
        if (re.name != "region") continue;
        ProfRegion r = read_profile_region(re);
        auto [at, fresh] = seen.try_emplace(r.id, r.id, re.line);
        if (!fresh)
            fail(re.line, "<region>: a second region " + r.id + " (the first, " + at->second.first + ", is at line " +
                              std::to_string(at->second.second) + ")");
        p.regions.push_back(std::move(r));
    }
    std::sort(p.regions.begin(), p.regions.end(),
              [](const ProfRegion& a, const ProfRegion& b) { return region_id_less(a.id, b.id); });
    std::vector<NodeLines> lines;
    for (const Element& ne : e.children) {
        if (ne.name != "node") continue;
        NodeLines nl;
        ProfNode n = read_profile_node(ne, p, p.nodes, nl);
        p.nodes.push_back(std::move(n));
        lines.push_back(std::move(nl));
    }
    if (p.nodes.empty()) fail(e.line, "<region-profile>: no <node> (the root, node 0, is always listed)");
    check_flow(p, lines, p.column("execC"));
    check_state_sums(p, lines, p.column("execT"));
    d.region_profile = std::move(p);
}

// ------------------------------------------------------- the event flow graph

std::string component_names() {
    std::string out;
    for (const char* c : kFlowComponents) out += (out.empty() ? "" : ", ") + std::string(c);
    return out;
}

int component_index(const std::string& name) {
    for (size_t i = 0; i < std::size(kFlowComponents); ++i)
        if (name == kFlowComponents[i]) return static_cast<int>(i);
    return -1;
}

// The components: known ones, each once, in canonical order (so that one set
// of components has one spelling, and the writer's order is the reader's).
std::vector<std::string> read_components(const Element& e) {
    const Attribute& a = attr(e, "components");
    std::vector<std::string> list = words(a.value);
    if (list.empty())
        fail(a.line, "<event-flow>: attribute 'components' is empty (at least one of " + component_names() + ")");
    for (size_t i = 0; i < list.size(); ++i) {
        if (component_index(list[i]) < 0)
            fail(a.line, "<event-flow>: attribute 'components' has an unknown component " + quoted(list[i]) +
                             " (the components are " + component_names() + ")");
        for (size_t j = 0; j < i; ++j)
            if (list[j] == list[i])
                fail(a.line, "<event-flow>: attribute 'components' lists " + quoted(list[i]) + " twice");
        if (i > 0 && component_index(list[i]) < component_index(list[i - 1]))
            fail(a.line, "<event-flow>: attribute 'components' lists " + quoted(list[i]) + " after " +
                             quoted(list[i - 1]) + " (components are listed in the order " + component_names() + ")");
    }
    return list;
}

std::string flow_tag(const char* element, const std::string& id) {
    return std::string("<") + element + " id=\"" + id + "\">";
}

// The id of the next element of a numbered list: exactly `letter` and `next`
// (ids are positions, so that references need no look-up).
std::string sequence_id(const Element& e, char letter, size_t next, const char* what) {
    const Attribute& a = attr(e, "id");
    std::string want = letter + std::to_string(next);
    if (trim(a.value) != want)
        fail(a.line, tag(e) + ": id " + quoted(a.value) + " where " + want + " is next (" + what + " are numbered " +
                         letter + "1, " + letter + "2, ... in order)");
    return want;
}

// k of an id "<letter>k" written as the writer writes it (no sign, no
// leading zero), k >= 1; 0 for anything else.
uint64_t id_number(const std::string& id, char letter) {
    if (id.size() < 2 || id[0] != letter || id[1] == '0') return 0;
    uint64_t k = 0;
    if (!all_digits(id.substr(1)) || !to_u64(id.substr(1), UINT32_MAX, k)) return 0;
    return k;
}

// An attribute of a component the section does not record.
void not_recorded(const Element& e, const std::string& at, const char* name, const char* component,
                  const EventFlow& f) {
    if (const Attribute* a = e.attribute(name))
        fail(a->line, at + ": attribute '" + name + "' without the " + component + " component (components=\"" +
                          join_words(f.components) + "\")");
}

void read_flow_callsites(const Element& e, const RegionProfile& p, EventFlow& f) {
    for (const Element& ce : e.children) {
        if (ce.name != "callsite") continue;
        container(ce);
        if (!f.has("callsite"))
            fail(ce.line, "<callsite>: the section does not record the callsite component (components=\"" +
                              join_words(f.components) + "\"); callsites are listed only with it");
        FlowCallsite c;
        c.id = sequence_id(ce, 'C', f.callsites.size() + 1, "callsites");
        c.node = u32(ce, "node");
        if (!p.node(c.node))
            fail(attr(ce, "node").line, flow_tag("callsite", c.id) + ": node " + std::to_string(c.node) +
                                            " is not a node of <region-profile>");
        c.file = str(ce, "file");
        c.function = str(ce, "function");
        c.line = u32(ce, "line");
        f.callsites.push_back(std::move(c));
    }
}

// The region component: the region entered or the point event, one of them.
void read_signature_what(const Element& se, const std::string& at, const RegionProfile& p, FlowSignature& s) {
    const Attribute* region = se.attribute("region");
    const Attribute* event = se.attribute("event");
    if (region && event)
        fail(se.line, at + ": both 'region' and 'event' (a signature is a region entry or a point event, not both)");
    if (!region && !event)
        fail(se.line, at + ": neither 'region' nor 'event' (with the region component a signature names the region "
                           "entered or the point event)");
    if (event) {
        if (trim(event->value).empty())
            fail(event->line, at + ": attribute 'event' is empty (a point event has a name)");
        s.event = event->value;
        return;
    }
    s.region = trim(region->value);
    if (!p.region(s.region))
        fail(region->line, at + ": region " + quoted(region->value) + " is not listed in <region-profile> (no " +
                               "<region id=\"" + xml::excerpt(s.region) + "\">)");
}

std::string callsite_ref(const Element& se, const std::string& at, const EventFlow& f) {
    const Attribute& a = attr(se, "callsite");
    std::string id = trim(a.value);
    uint64_t k = id_number(id, 'C');
    if (k == 0 || k > f.callsites.size())
        fail(a.line, at + ": callsite " + quoted(a.value) + " is not listed (no <callsite id=\"" + xml::excerpt(id) +
                         "\">)");
    return id;
}

// A signature has an attribute for each recorded component and no other;
// partner only when the event has one.
FlowSignature read_flow_signature(const Element& se, const RegionProfile& p, const EventFlow& f) {
    container(se);
    FlowSignature s;
    s.id = sequence_id(se, 'S', f.signatures.size() + 1, "signatures");
    const std::string at = flow_tag("signature", s.id);
    if (f.has("region")) {
        read_signature_what(se, at, p, s);
    } else {
        not_recorded(se, at, "region", "region", f);
        not_recorded(se, at, "event", "region", f);
    }
    if (f.has("callsite")) s.callsite = callsite_ref(se, at, f);
    else not_recorded(se, at, "callsite", "callsite", f);
    if (f.has("size")) s.size = u64(se, "size");
    else not_recorded(se, at, "size", "size", f);
    if (!f.has("partner")) not_recorded(se, at, "partner", "partner", f);
    else if (se.attribute("partner")) s.partner = signed_attr(se, "partner", INT64_MIN, INT64_MAX);
    if (f.has("thread")) s.thread = profile_thread_attr(se, "thread", f.threads);
    else not_recorded(se, at, "thread", "thread", f);
    return s;
}

// Signatures are the distinct values of the components: two alike would
// split one node of the graph in two.
void read_flow_signatures(const Element& e, const RegionProfile& p, EventFlow& f, std::vector<int>& lines) {
    using Key = std::tuple<std::string, std::string, std::string, std::optional<uint64_t>, std::optional<int64_t>,
                           std::optional<uint32_t>>;
    std::map<Key, size_t> seen;
    for (const Element& se : e.children) {
        if (se.name != "signature") continue;
        FlowSignature s = read_flow_signature(se, p, f);
        auto [at, fresh] = seen.try_emplace(Key{s.region, s.event, s.callsite, s.size, s.partner, s.thread},
                                            f.signatures.size());
        if (!fresh)
            fail(se.line, flow_tag("signature", s.id) + ": the same components as " + f.signatures[at->second].id +
                              " (each signature is listed once)");
        f.signatures.push_back(std::move(s));
        lines.push_back(se.line);
    }
}

std::string signature_range(size_t n) {
    if (n == 0) return "(no <signature> is listed)";
    if (n == 1) return "(S1)";
    return "(S1 to S" + std::to_string(n) + ")";
}

// `from` or `to` of an edge: S0 (from only) or a listed signature.
uint32_t signature_ref(const Element& ee, const char* name, const EventFlow& f) {
    const Attribute& a = attr(ee, name);
    std::string id = trim(a.value);
    const bool from = std::strcmp(name, "from") == 0;
    if (id == "S0") {
        if (from) return 0;
        fail(a.line, "<edge>: to is S0 (S0 is a thread's start; no edge leads to it)");
    }
    uint64_t k = id_number(id, 'S');
    if (k == 0 || k > f.signatures.size())
        fail(a.line, "<edge>: " + std::string(name) + " " + quoted(a.value) + " is not " + (from ? "S0 or " : "") +
                         "a listed signature " + signature_range(f.signatures.size()));
    return static_cast<uint32_t>(k);
}

std::string edge_key(const FlowEdge& g) {
    return "(from S" + std::to_string(g.from) + ", to S" + std::to_string(g.to) + ", thread " +
           std::to_string(g.thread) + ")";
}

// With the thread component every signature belongs to one thread, and a
// thread's edges join its own signatures.
void check_edge_thread(const Element& ee, const FlowEdge& g, const EventFlow& f) {
    const struct {
        uint32_t signature;
        const char* how;
    } ends[] = {{g.to, "goes to"}, {g.from, "comes from"}};
    for (const auto& end : ends) {
        if (end.signature == 0) continue;  // S0 is every thread's
        const uint32_t owner = *f.signatures[end.signature - 1].thread;
        if (owner != g.thread)
            fail(ee.line, "<edge>: thread " + std::to_string(g.thread) + " " + end.how + " S" +
                              std::to_string(end.signature) + ", a signature of thread " + std::to_string(owner) +
                              " (with the thread component a thread's edges join its own signatures)");
    }
}

void read_flow_edges(const Element& e, EventFlow& f, std::vector<int>& lines) {
    for (const Element& ee : e.children) {
        if (ee.name != "edge") continue;
        container(ee);
        FlowEdge g;
        g.from = signature_ref(ee, "from", f);
        g.to = signature_ref(ee, "to", f);
        g.thread = profile_thread_attr(ee, "thread", f.threads);
        g.count = u64(ee, "count");
        if (g.count == 0)
            fail(attr(ee, "count").line, "<edge>: attribute 'count' is 0 (an edge is listed only when the thread took it)");
        g.cycles = u64(ee, "cycles");
        if (!f.edges.empty()) {
            const FlowEdge& last = f.edges.back();
            if (std::tie(g.from, g.to, g.thread) <= std::tie(last.from, last.to, last.thread))
                fail(ee.line, "<edge>: " + edge_key(g) + " after " + edge_key(last) +
                                  " (edges are listed in ascending from, to, then thread, each once)");
        }
        if (f.has("thread")) check_edge_thread(ee, g, f);
        f.edges.push_back(g);
        lines.push_back(ee.line);
    }
}

std::string times(uint64_t n) { return n == 1 ? "once" : std::to_string(n) + " times"; }

std::string flow_thread(uint32_t thread) { return "<event-flow>: thread " + std::to_string(thread); }

// Per thread the edges are one walk from S0 (the thread's events in order):
// it leaves S0 once, and enters every signature as often as it leaves it,
// but for its last event's, entered once more.
void check_walks(const EventFlow& f, const std::vector<int>& signature_lines, const std::vector<int>& edge_lines) {
    struct Walk {
        size_t first = 0;  // its first edge
        bool started = false;
        std::map<uint32_t, std::pair<uint64_t, uint64_t>> counts;  // per signature: into it, out of it
    };
    std::map<uint32_t, Walk> walks;
    for (size_t i = 0; i < f.edges.size(); ++i) {
        const FlowEdge& g = f.edges[i];
        auto [it, fresh] = walks.try_emplace(g.thread);
        Walk& w = it->second;
        if (fresh) w.first = i;
        if (g.from == 0) {
            // Edges from S0 come first (ascending from): a second one is found here.
            if (w.started)
                fail(edge_lines[i], flow_thread(g.thread) + " leaves S0 twice, to S" +
                                        std::to_string(f.edges[w.first].to) + " and to S" + std::to_string(g.to) +
                                        " (a thread starts once: one edge from S0)");
            if (g.count != 1)
                fail(edge_lines[i], flow_thread(g.thread) + " leaves S0 " + times(g.count) +
                                        " (a thread starts once: its edge from S0 has count 1)");
            w.started = true;
        }
        if (!add_checked(w.counts[g.to].first, g.count))
            fail(edge_lines[i], flow_thread(g.thread) + ": the counts of its edges into S" + std::to_string(g.to) +
                                    " overflow a 64-bit sum");
        if (g.from && !add_checked(w.counts[g.from].second, g.count))
            fail(edge_lines[i], flow_thread(g.thread) + ": the counts of its edges out of S" + std::to_string(g.from) +
                                    " overflow a 64-bit sum");
    }
    for (const auto& [thread, w] : walks) {
        if (!w.started)
            fail(edge_lines[w.first], flow_thread(thread) + " has edges but none from S0 (a thread's walk starts at S0)");
        // Every edge leaves S0 or a signature, so the differences (in - out)
        // add up to the count of the S0 edge, 1: with each difference 0 or 1,
        // exactly one signature is the thread's last.
        for (const auto& [s, c] : w.counts) {
            const auto [in, out] = c;
            const std::string counts = flow_thread(thread) + " enters S" + std::to_string(s) + " " + times(in) +
                                       " but leaves it " + times(out) + ": ";
            if (in < out) fail(signature_lines[s - 1], counts + "a signature is left only after it is entered");
            if (in - out > 1)
                fail(signature_lines[s - 1],
                     counts + "every signature but the thread's last is left as often as it is entered");
        }
    }
}

// <event-flow>: after the region profile, whose regions, nodes and threads it names.
void read_event_flow(const Element& e, Document& d) {
    if (!d.region_profile)
        fail(e.line, "<event-flow>: the document has no <region-profile> (the event flow graph names its regions, "
                     "nodes and threads)");
    const RegionProfile& p = *d.region_profile;
    container(e);
    EventFlow f;
    f.components = read_components(e);
    f.time_unit = one_of(e, "time-unit", {"cycles"});
    f.threads = u32(e, "threads");
    if (f.threads != p.threads)
        fail(attr(e, "threads").line, "<event-flow>: attribute 'threads' is " + std::to_string(f.threads) +
                                          " where <region-profile> has " + std::to_string(p.threads) +
                                          " threads (both sections count the run's threads)");
    if (const Attribute* rank = e.attribute("rank")) {
        f.rank = signed_attr(e, "rank", INT64_MIN, INT64_MAX);
        if (*f.rank < 0)
            fail(rank->line, "<event-flow>: attribute 'rank' is negative (a process's rank is 0 or more): " +
                                 quoted(rank->value));
    }
    read_flow_callsites(e, p, f);
    std::vector<int> signature_lines, edge_lines;
    read_flow_signatures(e, p, f, signature_lines);
    read_flow_edges(e, f, edge_lines);
    check_walks(f, signature_lines, edge_lines);
    d.event_flow = std::move(f);
}

// --------------------------------------------------- the parallelism profile

std::string num_text(uint64_t v) { return std::to_string(v); }

// span <= work and burdened span >= span (of <program> or a <directive>).
void check_spans(const Element& e, const std::string& at, uint64_t work, uint64_t span, uint64_t burdened) {
    if (span > work)
        fail(attr(e, "span").line, at + ": span (" + num_text(span) + ") is more than work (" + num_text(work) +
                                       ") (the critical path is part of the work)");
    if (burdened < span)
        fail(attr(e, "burdened-span").line, at + ": burdened-span (" + num_text(burdened) + ") is less than span (" +
                                                num_text(span) + ") (burdens only add to the span)");
}

template <typename T>
bool listed_id(const std::vector<T>& items, uint32_t id) {
    auto it = std::lower_bound(items.begin(), items.end(), id, [](const T& x, uint32_t v) { return x.id < v; });
    return it != items.end() && it->id == id;
}

// The id of a <site> or <label>: 1 or more, above the previous one's.
template <typename T>
uint32_t ascending_id(const Element& e, const std::vector<T>& before, const char* what, const char* plural) {
    const Attribute& a = attr(e, "id");
    uint32_t id = u32(e, "id");
    if (id == 0)
        fail(a.line, tag(e) + ": id 0 (" + plural + " are numbered from 1" +
                         (std::strcmp(what, "site") == 0 ? "; site 0 is the program and is not listed)" : ")"));
    if (!before.empty() && id <= before.back().id)
        fail(a.line, tag(e) + ": id " + num_text(id) + " after " + what + " " + num_text(before.back().id) + " (" +
                         plural + " are listed in ascending id, each once)");
    return id;
}

void read_parallelism_labels(const Element& e, Parallelism& p) {
    std::map<std::string, uint32_t> names;
    for (const Element& le : e.children) {
        if (le.name != "label") continue;
        container(le);
        ParallelismLabel l;
        l.id = ascending_id(le, p.labels, "label", "labels");
        const std::string at = "<label id=\"" + num_text(l.id) + "\">";
        const Attribute& name = attr(le, "name");
        if (trim(name.value).empty()) fail(name.line, at + ": attribute 'name' is empty (a what-if label has a name)");
        l.name = name.value;
        auto [it, fresh] = names.try_emplace(l.name, l.id);
        if (!fresh)
            fail(name.line, at + ": name " + quoted(l.name) + " is also label " + num_text(it->second) +
                                "'s (each label is listed once)");
        p.labels.push_back(std::move(l));
    }
}

// A site is a region of the region profile or one end of a what-if annotation.
void read_parallelism_sites(const Element& e, const RegionProfile& rp, Parallelism& p) {
    for (const Element& se : e.children) {
        if (se.name != "site") continue;
        container(se);
        ParallelismSite s;
        s.id = ascending_id(se, p.sites, "site", "sites");
        const std::string at = "<site id=\"" + num_text(s.id) + "\">";
        const Attribute* region = se.attribute("region");
        const Attribute* label = se.attribute("label");
        if (region && label)
            fail(se.line, at + ": both 'region' and 'label' (a site is a region of the region profile or a what-if "
                               "annotation, not both)");
        if (!region && !label)
            fail(se.line, at + ": neither 'region' nor 'label' (a site is a region of the region profile or a what-if "
                               "annotation)");
        if (region) {
            s.region = trim(region->value);
            if (!rp.region(s.region))
                fail(region->line, at + ": region " + quoted(region->value) + " is not listed in <region-profile> " +
                                       "(no <region id=\"" + xml::excerpt(s.region) + "\">)");
            for (const char* name : {"edge", "file", "line"})
                if (const Attribute* a = se.attribute(name))
                    fail(a->line, at + ": attribute '" + name + "' on a region's site (only what-if sites have edge, "
                                       "file and line)");
        } else {
            s.label = u32(se, "label");
            if (!listed_id(p.labels, s.label))
                fail(label->line, at + ": label " + num_text(s.label) + " is not listed (no <label id=\"" +
                                      num_text(s.label) + "\">)");
            s.edge = one_of(se, "edge", {"begin", "end"});
            s.file = str(se, "file");
            s.line = u32(se, "line");
        }
        p.sites.push_back(std::move(s));
    }
}

void read_parallelism_directives(const Element& e, Parallelism& p) {
    for (const Element& de : e.children) {
        if (de.name != "directive") continue;
        container(de);
        ParallelismDirective d;
        const Attribute& site = attr(de, "site");
        d.site = u32(de, "site");
        if (d.site == 0)
            fail(site.line, "<directive>: site 0 is the program (its figures are those of <program>)");
        if (!listed_id(p.sites, d.site))
            fail(site.line, "<directive>: site " + num_text(d.site) + " is not listed (no <site id=\"" +
                                num_text(d.site) + "\">)");
        if (!p.directives.empty() && d.site <= p.directives.back().site)
            fail(site.line, "<directive>: site " + num_text(d.site) + " after site " +
                                num_text(p.directives.back().site) +
                                " (directives are listed in ascending site, each once)");
        const std::string at = "<directive site=\"" + num_text(d.site) + "\">";
        d.instances = u64(de, "instances");
        if (d.instances == 0)
            fail(attr(de, "instances").line,
                 at + ": attribute 'instances' is 0 (a directive is listed only when it made nodes)");
        d.work = u64(de, "work");
        d.span = u64(de, "span");
        d.burdened_span = u64(de, "burdened-span");
        d.serial = u64(de, "serial");
        check_spans(de, at, d.work, d.span, d.burdened_span);
        p.directives.push_back(d);
    }
}

// `from` or `to` of a fragment: 0 (the program's start or end) or a listed site.
uint32_t fragment_site(const Element& fe, const char* name, const Parallelism& p) {
    const Attribute& a = attr(fe, name);
    uint32_t site = u32(fe, name);
    if (site != 0 && !listed_id(p.sites, site))
        fail(a.line, std::string("<fragment>: ") + name + " " + num_text(site) +
                         " is not 0 (the program) or a listed site (no <site id=\"" + num_text(site) + "\">)");
    return site;
}

std::string fragment_key(const ParallelismFragment& f) {
    return "(from " + num_text(f.from) + ", to " + num_text(f.to) + ", label " + num_text(f.label) + ")";
}

void read_parallelism_fragments(const Element& e, Parallelism& p) {
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, int> seen;
    for (const Element& fe : e.children) {
        if (fe.name != "fragment") continue;
        container(fe);
        ParallelismFragment f;
        f.from = fragment_site(fe, "from", p);
        f.to = fragment_site(fe, "to", p);
        const Attribute& label = attr(fe, "label");
        f.label = u32(fe, "label");
        if (f.label != 0 && !listed_id(p.labels, f.label))
            fail(label.line, "<fragment>: label " + num_text(f.label) +
                                 " is not 0 (none) or a listed label (no <label id=\"" + num_text(f.label) + "\">)");
        f.count = u64(fe, "count");
        if (f.count == 0)
            fail(attr(fe, "count").line, "<fragment>: attribute 'count' is 0 (a fragment holds at least one W node)");
        f.work = u64(fe, "work");
        f.serial = u64(fe, "serial");
        if (f.serial > f.work)
            fail(attr(fe, "serial").line, "<fragment>: serial (" + num_text(f.serial) + ") is more than work (" +
                                              num_text(f.work) + ") (its serial work is part of its work)");
        auto [at, fresh] = seen.try_emplace(std::make_tuple(f.from, f.to, f.label), fe.line);
        if (!fresh)
            fail(fe.line, "<fragment>: a second fragment " + fragment_key(f) + " (the first is at line " +
                              num_text(static_cast<uint64_t>(at->second)) + ")");
        if (!p.fragments.empty()) {
            const ParallelismFragment& last = p.fragments.back();
            bool after = last.serial > f.serial ||
                         (last.serial == f.serial && std::tie(last.from, last.to, last.label) <
                                                         std::tie(f.from, f.to, f.label));
            if (!after)
                fail(fe.line, "<fragment>: (serial " + num_text(f.serial) + ", " + fragment_key(f).substr(1) +
                                  " after (serial " + num_text(last.serial) + ", " + fragment_key(last).substr(1) +
                                  " (fragments are listed most serial first, then in ascending from, to and label)");
        }
        p.fragments.push_back(f);
    }
}

// The critical path's serial work is shared out twice: among the program
// and its directives, and among the fragments. Both add up to the span.
void check_parallelism_sums(const Element& e, const Element& program, const Parallelism& p) {
    uint64_t directives = 0;
    for (const ParallelismDirective& d : p.directives)
        if (!add_checked(directives, d.serial))
            fail(program.line, "<parallelism>: the serial work of the directives overflows a 64-bit sum");
    uint64_t serial = p.serial;
    if (!add_checked(serial, directives))
        fail(program.line, "<parallelism>: the serial work of the program and its directives overflows a 64-bit sum");
    if (serial != p.span)
        fail(program.line, "<parallelism>: the serial work of the program (" + num_text(p.serial) +
                               ") and of its directives (" + num_text(directives) + ") adds up to " +
                               num_text(serial) + ", not the program's span (" + num_text(p.span) +
                               ") (each W node of the critical path belongs to the program or to one directive)");
    uint64_t fragments = 0;
    for (const ParallelismFragment& f : p.fragments)
        if (!add_checked(fragments, f.serial))
            fail(e.line, "<parallelism>: the serial work of the fragments overflows a 64-bit sum");
    if (fragments != p.span)
        fail(e.line, "<parallelism>: the serial work of the fragments adds up to " + num_text(fragments) +
                         ", not the program's span (" + num_text(p.span) + ") (the fragments are the critical path)");
}

// <parallelism>: after the region profile, whose regions its sites name.
void read_parallelism(const Element& e, Document& d) {
    if (!d.region_profile)
        fail(e.line, "<parallelism>: the document has no <region-profile> (the parallelism profile's sites name its "
                     "regions)");
    container(e);
    Parallelism p;
    p.measure = one_of(e, "measure", {"cycles", "instructions"});
    p.burden = u64(e, "burden");
    p.nodes = u64(e, "nodes");
    p.w_nodes = u64(e, "w-nodes");
    if (p.w_nodes > p.nodes)
        fail(attr(e, "w-nodes").line, "<parallelism>: w-nodes (" + num_text(p.w_nodes) + ") is more than nodes (" +
                                          num_text(p.nodes) + ") (W nodes are nodes of the graph)");
    p.dependences = u64(e, "dependences");
    p.complete = boolean(e, "complete");
    p.lost_work = u64(e, "lost-work");
    if (p.complete && p.lost_work != 0)
        fail(attr(e, "lost-work").line, "<parallelism>: lost-work is " + num_text(p.lost_work) +
                                            " but complete=\"true\" (work is lost only when the node limit was "
                                            "reached)");
    if (const Attribute* log = e.attribute("log")) {
        if (log->value.empty())
            fail(log->line, "<parallelism>: attribute 'log' is empty (it is left out when no log was written)");
        p.log = log->value;
    }
    const Element& program = one(e, "program");
    container(program);
    p.work = u64(program, "work");
    p.span = u64(program, "span");
    p.burdened_span = u64(program, "burdened-span");
    p.serial = u64(program, "serial");
    check_spans(program, "<program>", p.work, p.span, p.burdened_span);
    read_parallelism_labels(e, p);
    read_parallelism_sites(e, *d.region_profile, p);
    read_parallelism_directives(e, p);
    read_parallelism_fragments(e, p);
    check_parallelism_sums(e, program, p);
    d.parallelism = std::move(p);
}

void read_document(const Element& root, Document& d) {
    if (root.name != "ompsim-profile") fail(0, "not an ompsim profile (root element is " + tag(root) + ")");

    const Attribute& v = attr(root, "format-version");
    std::string vt = trim(v.value);
    if (!all_digits(vt))
        fail(v.line, "<ompsim-profile>: attribute 'format-version' is not a number: " + quoted(v.value));
    uint64_t version = 0;
    if (!to_u64(vt, INT_MAX, version) || version > static_cast<uint64_t>(kFormatVersion)) {
        size_t nz = vt.find_first_not_of('0');
        fail(v.line, "format version " + xml::excerpt(vt.substr(nz)) +
                         " is newer than this ompsim-report understands (" +
                         std::to_string(kFormatVersion) + "); upgrade ompsim");
    }
    if (version < 1) fail(v.line, "format version 0 is not valid (the first version is 1)");
    d.format_version = static_cast<int>(version);

    const Attribute& tool = attr(root, "tool");
    if (tool.value != "ompsim") fail(tool.line, "not an ompsim profile (tool is " + quoted(tool.value) + ")");
    d.tool_version = str(root, "tool-version");
    container(root);

    const Element& run = one(root, "run");
    const Element& machine = one(root, "machine");
    const Element& events = one(root, "events");
    const Element& totals = one(root, "totals");
    const Element& program = one(root, "program");
    const Element* threads = optional_one(root, "threads");
    const Element* cores = optional_one(root, "cores");
    const Element* data_structures = optional_one(root, "data-structures");
    const Element* region_profile = optional_one(root, "region-profile");
    const Element* event_flow = optional_one(root, "event-flow");
    const Element* parallelism = optional_one(root, "parallelism");
    read_run(run, d.run);
    read_machine(machine, d.machine);
    read_events(events, d.events);
    check_tlb_events(events, d);
    read_totals(totals, d);
    std::vector<uint64_t> sum(d.events.size(), 0);
    read_program(program, d, sum);
    for (size_t i = 0; i < d.events.size(); ++i)
        if (sum[i] != d.totals[i])
            fail(one(totals, "costs").line, "<totals>: <costs> do not equal the sum of all regions (" +
                                                d.events[i] + " is " + std::to_string(d.totals[i]) +
                                                ", the regions add up to " + std::to_string(sum[i]) + ")");
    if (threads) read_thread_section(*threads, d);
    if (cores) read_cores(*cores, optional_one(totals, "coherence"), d);
    if (data_structures) read_data_structures(*data_structures, d);
    if (region_profile) read_region_profile(*region_profile, d);
    if (event_flow) read_event_flow(*event_flow, d);
    if (parallelism) read_parallelism(*parallelism, d);
}

}  // namespace

bool load_text(const std::string& text, const std::string& name, Document& doc, LoadError& err) {
    xml::Element root;
    xml::Error xe;
    if (!xml::parse(text, root, xe)) {
        // Some other XML or an HTML page that is not even well-formed: say
        // what it is rather than where its XML breaks.
        if (!xe.first_element.empty() && xe.first_element != "ompsim-profile")
            err = LoadError{name, 0, "not an ompsim profile (root element is <" + xml::excerpt(xe.first_element) + ">)"};
        else
            err = LoadError{name, xe.line, xe.message};
        return false;
    }
    try {
        Document d;
        read_document(root, d);
        doc = std::move(d);
        return true;
    } catch (const Invalid& e) {
        err = LoadError{name, e.line, e.message};
        return false;
    }
}

bool load_file(const std::string& path, Document& doc, LoadError& err) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        err = LoadError{path, 0, std::string("cannot open: ") + std::strerror(errno)};
        return false;
    }
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    if (std::ferror(f)) {
        int saved = errno;
        std::fclose(f);
        err = LoadError{path, 0, std::string("cannot read: ") + std::strerror(saved)};
        return false;
    }
    std::fclose(f);
    return load_text(text, path, doc, err);
}

}  // namespace sir
}  // namespace ompsim
