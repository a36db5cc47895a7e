// The HTML report's profile sections: ompP's region profile (callgraph,
// OpenMP states per thread, overheads of the parallel regions), the
// control-flow graph (Graphviz's SVG when 'dot' is installed, else a
// table), OMP-WHIP's parallelism profile with its speedup estimates, and the
// what-if table when the run's OSPG log is at hand.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "Report.h"
#include "Svg.h"

namespace ompsim {
namespace report {

namespace {

using u128 = unsigned __int128;

// Graphs with more nodes than this are not laid out (dot needs minutes and
// the drawing would be unreadable); the table lists them instead.
const size_t kMaxGraphNodes = 300;
// What-if factors, as 'whatif' tabulates them.
const double kWhatIfFactors[] = {2, 4, 8, 16, 64};
// Directives (or labels) given a column of the what-if table.
const size_t kWhatIfCandidates = 3;

// ----------------------------------------------------------- region profile

size_t depth_of(const sir::RegionProfile& p, const sir::ProfNode& n) {
    size_t d = 0;
    for (const sir::ProfNode* at = &n; at && at->parent; at = p.node(*at->parent)) ++d;
    return d;
}

std::string callgraph_table(const sir::Document& doc, const sir::RegionProfile& p) {
    HtmlTable t("tab-callgraph");
    t.column("Node", Table::kRight);
    t.column("Region", Table::kLeft, "indented under its parent");
    t.column("Type", Table::kLeft);
    t.column("Inclusive", Table::kRight, "execT summed over the threads: the node and its children");
    t.column("Exclusive", Table::kRight, "the node's own time (its states), summed over the threads");
    t.column("execC", Table::kRight, "entries, summed over the threads");
    const uint64_t whole = node_times(p, p.nodes[0]).inclusive;
    t.column("% of run", Table::kRight);
    // Depth-first, children in id order, so each node sits under its parent.
    std::map<uint32_t, std::vector<const sir::ProfNode*>> children;
    for (const sir::ProfNode& n : p.nodes)
        if (n.parent) children[*n.parent].push_back(&n);
    std::vector<const sir::ProfNode*> stack{&p.nodes[0]};
    while (!stack.empty()) {
        const sir::ProfNode& n = *stack.back();
        stack.pop_back();
        NodeTimes times = node_times(p, n);
        std::string label = n.parent ? region_label(*p.region(n.region)) : "[" + program_name(doc) + "]";
        t.row({std::to_string(n.id), std::string(2 * depth_of(p, n), ' ') + label, type_of(p, n),
               commas(times.inclusive), commas(times.exclusive), commas(times.entries),
               share_text(times.inclusive, whole)});
        auto it = children.find(n.id);
        if (it != children.end())
            for (size_t i = it->second.size(); i-- > 0;) stack.push_back(it->second[i]);
    }
    return t.render();
}

bool is_work_state(const std::string& s) { return s == "work" || s == "serial" || s == "reduction"; }

std::string states_figure(const sir::RegionProfile& p) {
    std::map<uint32_t, uint64_t[3]> per_thread;  // work, wait, idle
    for (const sir::ProfNode& n : p.nodes)
        for (const sir::NodeThread& t : n.threads) {
            uint64_t* v = per_thread[t.id];
            for (size_t i = 0; i < t.states.size() && i < p.states.size(); ++i)
                v[is_work_state(p.states[i]) ? 0 : p.states[i] == "idle" ? 2 : 1] += t.states[i];
        }
    HtmlTable t("tab-states");
    t.column("Thread", Table::kRight);
    t.column("OpenMP work", Table::kRight, "work + serial + reduction");
    t.column("OpenMP wait", Table::kRight, "every other state but idle");
    t.column("Idle", Table::kRight);
    svg::BarChart chart;
    chart.series = {{"OpenMP work", "#59a14f"}, {"OpenMP wait", "#e15759"}, {"idle", "#bab0ac"}};
    for (const auto& [id, v] : per_thread) {
        t.row({std::to_string(id), commas(v[0]), commas(v[1]), commas(v[2])});
        chart.groups.push_back({fmt::format("thread {}", id), fmt::format("thread {}", id), {v[0], v[1], v[2]}});
    }
    chart.title = "OpenMP states per thread";
    chart.heading = chart.title;
    chart.subtitle = "cycles in every region; work = work + serial + reduction, wait = barriers, locks, ...";
    chart.x_title = "Thread";
    chart.y_title = "Cycles";
    return t.render() + html_figure("fig-states", svg::bar_chart(chart),
                                    "Where each thread's cycles went: doing work, waiting in the OpenMP runtime "
                                    "(barriers, critical sections, locks, task waits) or idle outside parallel "
                                    "regions.");
}

std::string overheads_table(const sir::RegionProfile& p) {
    HtmlTable t("tab-overheads");
    t.column("Node", Table::kRight);
    t.column("Parallel region", Table::kLeft);
    t.column("Total", Table::kRight, "execT summed over the threads");
    t.column("Synchronization", Table::kRight);
    t.column("Imbalance", Table::kRight);
    t.column("Limited parallelism", Table::kRight);
    t.column("Thread management", Table::kRight);
    t.column("Overheads %", Table::kRight);
    for (const sir::ProfNode& n : p.nodes) {
        if (!n.parent || type_of(p, n) != "PARALLEL") continue;
        Overheads o = parallel_overheads(p, n);
        t.row({std::to_string(n.id), region_label(*p.region(n.region)), commas(o.total), commas(o.synchronization),
               commas(o.imbalance), commas(o.limited_parallelism), commas(o.thread_management),
               share_text(o.sum(), o.total)});
    }
    return t.empty() ? std::string("<p>No parallel region.</p>\n") : t.render();
}

HtmlSection regions_section(const sir::Document& doc, const HtmlOptions& o) {
    const sir::RegionProfile& p = *doc.region_profile;
    HtmlSection s{"regions", "Region profile",
                  "ompP's view of the run, in simulated cycles: the OpenMP constructs and user regions as a "
                  "callgraph (inclusive: with the regions inside; exclusive: the node's own time), how each "
                  "thread spent its time, and the overheads of every parallel region: synchronization "
                  "(barriers, critical sections), load imbalance (waiting at the end of a loop), limited "
                  "parallelism (threads waiting for a single) and thread management.",
                  ""};
    s.body += "<h3>Callgraph</h3>\n" + callgraph_table(doc, p);
    s.body += "<h3>OpenMP states</h3>\n" + states_figure(p);
    s.body += "<h3>Overheads of the parallel regions</h3>\n" + overheads_table(p);
    RegionsOptions ro;
    ro.path = o.path;
    s.body += "<details><summary>The whole profile as 'ompsim-report regions' prints it</summary>\n<pre>" +
              html_escape(regions_text(doc, ro)) + "</pre></details>\n";
    return s;
}

// ------------------------------------------------------------- flow graph

std::string flow_table(const sir::RegionProfile& p) {
    HtmlTable t("tab-flow");
    t.column("From node", Table::kRight);
    t.column("To node", Table::kRight);
    t.column("To region", Table::kLeft);
    t.column("Thread", Table::kRight);
    t.column("Count", Table::kRight);
    for (const sir::ProfNode& n : p.nodes)
        for (const sir::Pred& q : n.preds)
            t.row({std::to_string(q.from), std::to_string(n.id), region_label(*p.region(n.region)),
                   std::to_string(q.thread), commas(q.count)});
    return t.render();
}

HtmlSection flow_section(const sir::Document& doc) {
    const sir::RegionProfile& p = *doc.region_profile;
    HtmlSection s{"flow", "Flow graph",
                  "How control moved between the regions: a solid edge A -> B labelled 'threads|times' means "
                  "those threads entered B coming from A that often; dotted edges go from a region to the "
                  "regions inside it. The redder a node, the more exclusive cycles it has.",
                  ""};
    std::string why;
    if (p.nodes.size() > kMaxGraphNodes) {
        why = fmt::format("The graph has {} nodes, too many to draw; its edges:", p.nodes.size());
    } else {
        try {
            s.body += html_figure("fig-flow", render_svg(flow_dot(doc, std::nullopt)),
                                  "The control-flow graph, laid out by Graphviz.");
            return s;
        } catch (const Error& e) {
            why = std::string("No drawing (") + e.what() + "); the graph's edges:";
        }
    }
    s.body += "<p class=\"note\">" + html_escape(why) + "</p>\n" + flow_table(p);
    s.body += "<details><summary>The graph in Graphviz's DOT language</summary>\n<pre>" +
              html_escape(flow_dot(doc, std::nullopt)) + "</pre></details>\n";
    return s;
}

// ------------------------------------------------------------- parallelism

std::string percent_of(uint64_t part, uint64_t whole) { return ratio_text(u128(part) * 100, whole) + "%"; }

std::string speedup_figure(const sir::Parallelism& p) {
    HtmlTable t("tab-speedup");
    t.column("Cores", Table::kRight);
    t.column("Upper", Table::kRight, "min(cores, parallelism)");
    t.column("Lower", Table::kRight, "work / (work / cores + burdened span)");
    svg::LineChart chart;
    chart.lines = {{{"upper bound", "#4e79a7"}, {}}, {{"lower bound", "#e15759"}, {}}};
    double y_max = 1;
    for (uint64_t cores : {1, 2, 4, 8, 16, 32, 64}) {
        if (p.span == 0 || p.work == 0) break;
        const bool capped = u128(p.work) < u128(cores) * p.span;
        std::string upper = capped ? ratio_text(p.work, p.span) : ratio_text(cores, 1);
        std::string lower = ratio_text(u128(p.work) * cores, u128(p.work) + u128(cores) * p.burdened_span);
        t.row({std::to_string(cores), upper, lower});
        const double up = capped ? double(p.work) / double(p.span) : double(cores);
        const double lo = double(p.work) * double(cores) / (double(p.work) + double(cores) * double(p.burdened_span));
        const double c = double(cores);
        chart.lines[0].points.push_back({c, up, fmt::format("{} cores: at most {}", cores, upper)});
        chart.lines[1].points.push_back({c, lo, fmt::format("{} cores: at least {}", cores, lower)});
        y_max = std::max(y_max, up);
    }
    if (t.empty()) return "<p>No work: no speedup estimates.</p>\n";
    chart.title = "Speedup estimates";
    chart.heading = chart.title;
    chart.subtitle = fmt::format("parallelism {} (work / span), burdened parallelism {}", ratio_text(p.work, p.span),
                                 ratio_text(p.work, p.burdened_span));
    chart.x_title = "Cores";
    chart.y_title = "Speedup";
    chart.y_max = std::ceil(y_max * 1.1);
    chart.y_percent = false;
    chart.x_bytes = false;
    return t.render() + html_figure("fig-speedup", svg::line_chart(chart),
                                    "The speedup the program can reach on more cores: never more than its "
                                    "parallelism (upper), at least the lower bound that charges every parallel "
                                    "construct its burden (the runtime's cost).");
}

HtmlSection parallelism_section(const sir::Document& doc) {
    const sir::Parallelism& p = *doc.parallelism;
    const SiteNamer name = document_site_namer(doc);
    HtmlSection s{"parallelism", "Parallelism profile",
                  "OMP-WHIP's profile of the OpenMP program's series-parallel graph: work is the time of all its "
                  "code on one core, span the time of the longest chain of code that must run one after the "
                  "other (the critical path); work / span is the parallelism, the most cores the program could "
                  "use. The directives and code regions with the most serial work on the critical path are "
                  "where to look.",
                  ""};
    HtmlTable f("tab-parallelism");
    f.column("Figure", Table::kLeft);
    f.column("Value", Table::kRight);
    f.row({"Work", commas(p.work)});
    f.row({"Span", commas(p.span)});
    f.row({"Parallelism", ratio_text(p.work, p.span)});
    f.row({"Burdened span", commas(p.burdened_span)});
    f.row({"Burdened parallelism", ratio_text(p.work, p.burdened_span)});
    f.row({"Serial work outside every directive", commas(p.serial)});
    s.body += fmt::format("<p>In {} (burden {} per P node); graph of {} nodes{}.</p>\n",
                          p.measure == "instructions" ? "instructions" : "simulated cycles", commas(p.burden),
                          commas(p.nodes), p.complete ? "" : ", incomplete: the node limit was reached");
    s.body += f.render();

    HtmlTable d("tab-directives");
    d.column("Directive", Table::kLeft);
    d.column("Instances", Table::kRight);
    d.column("Work", Table::kRight);
    d.column("Span", Table::kRight);
    d.column("Parallelism", Table::kRight);
    d.column("Serial %", Table::kRight, "share of the program's span that is serial work inside it");
    d.row({"Program", "1", commas(p.work), commas(p.span), ratio_text(p.work, p.span), percent_of(p.serial, p.span)});
    std::vector<const sir::ParallelismDirective*> order;
    for (const sir::ParallelismDirective& x : p.directives) order.push_back(&x);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->serial > b->serial; });
    for (const sir::ParallelismDirective* x : order)
        d.row({name(x->site), commas(x->instances), commas(x->work), commas(x->span), ratio_text(x->work, x->span),
               percent_of(x->serial, p.span)});
    s.body += "<h3>Directives</h3>\n" + d.render();
    s.body += "<h3>Speedup estimates</h3>\n" + speedup_figure(p);

    HtmlTable c("tab-critical-path");
    c.column("From", Table::kLeft);
    c.column("To", Table::kLeft);
    c.column("Label", Table::kLeft);
    c.column("W nodes", Table::kRight);
    c.column("Serial", Table::kRight);
    c.column("% of span", Table::kRight);
    for (const sir::ParallelismFragment& x : p.fragments) {
        std::string label = "-";
        for (const sir::ParallelismLabel& l : p.labels)
            if (l.id == x.label) label = l.name;
        c.row({x.from == 0 ? "program start" : name(x.from), x.to == 0 ? "program end" : name(x.to), label,
               commas(x.count), commas(x.serial), percent_of(x.serial, p.span)});
    }
    s.body += "<h3>Code regions on the critical path</h3>\n" + c.render();
    return s;
}

// ------------------------------------------------------------------ what-if

bool readable(const std::string& path) { return !path.empty() && std::ifstream(path).good(); }

// The OSPG log: --ospg-log, else the document's log as written (relative to
// the run's directory, unknown here: tried as given, then next to the document).
std::string find_log(const sir::Document& doc, const HtmlOptions& o) {
    if (!o.ospg_log.empty()) return o.ospg_log;
    const std::string& log = doc.parallelism->log;
    if (log.empty()) return "";
    if (readable(log)) return log;
    size_t slash = o.path.rfind('/');
    if (log[0] != '/' && slash != std::string::npos && readable(o.path.substr(0, slash + 1) + log))
        return o.path.substr(0, slash + 1) + log;
    return "";
}

struct Candidate {
    std::string title;
    WhatIfRegion region;
};

// The what-if labels of the run, or without labels the directives with the
// most serial work on the critical path (by their lines).
std::vector<Candidate> whatif_candidates(const sir::Document& doc) {
    const sir::Parallelism& p = *doc.parallelism;
    std::vector<Candidate> out;
    for (const sir::ParallelismLabel& l : p.labels) {
        if (out.size() == kWhatIfCandidates) break;
        Candidate c{"'" + l.name + "'", {}};
        c.region.label = l.name;
        out.push_back(c);
    }
    if (!out.empty() || !doc.region_profile) return out;
    const SiteNamer name = document_site_namer(doc);
    std::vector<const sir::ParallelismDirective*> order;
    for (const sir::ParallelismDirective& d : p.directives)
        if (d.serial > 0) order.push_back(&d);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->serial > b->serial; });
    for (const sir::ParallelismDirective* d : order) {
        if (out.size() == kWhatIfCandidates) break;
        const sir::ParallelismSite* site = nullptr;
        for (const sir::ParallelismSite& x : p.sites)
            if (x.id == d->site) site = &x;
        const sir::ProfRegion* r = site ? doc.region_profile->region(site->region) : nullptr;
        if (!r || r->file.empty() || r->first_line == 0) continue;
        Candidate c{name(d->site), {}};
        c.region.file = basename_of(r->file);
        c.region.first = r->first_line;
        c.region.last = r->last_line;
        out.push_back(c);
    }
    return out;
}

HtmlSection whatif_section(const sir::Document& doc, const HtmlOptions& o) {
    HtmlSection s{"whatif", "What if",
                  "OMP-WHIP's what-if analysis: the program's parallelism if the serial work of one piece of code "
                  "(a what-if label, or a directive with much serial work on the critical path) were made "
                  "faster by a factor, everything else as measured. The piece whose column grows most is the "
                  "one worth parallelising.",
                  ""};
    const std::string log = find_log(doc, o);
    const std::vector<Candidate> candidates = whatif_candidates(doc);
    if (log.empty() || candidates.empty()) {
        s.body += "<p class=\"note\">" +
                  html_escape(log.empty() ? "The what-if table needs the run's OSPG log: run the tool with "
                                            "--ospg-log=FILE and give it to 'ompsim-report html' with --ospg-log=FILE."
                                          : "No what-if label and no directive with serial work on the critical "
                                            "path to optimise.") +
                  "</p>\n";
        return s;
    }
    // The log as measured: one that cannot be read is an error when given
    // on the command line, a note when the document named it.
    sir::Parallelism base;
    try {
        base = profiles_from_log(log, "", std::nullopt, {{}})[0].parallelism;
    } catch (const Error& e) {
        if (!o.ospg_log.empty()) throw;
        s.body += "<p class=\"note\">" + html_escape(std::string("The OSPG log cannot be used: ") + e.what()) +
                  "</p>\n";
        return s;
    }
    // Each candidate alone, by every factor (a candidate the log cannot
    // select, e.g. a directive whose lines hold no W node, is left out).
    const size_t nf = sizeof kWhatIfFactors / sizeof kWhatIfFactors[0];
    std::vector<std::string> titles;
    std::vector<std::vector<std::string>> columns;
    for (const Candidate& c : candidates) {
        std::vector<std::vector<WhatIfRegion>> sets;
        for (double f : kWhatIfFactors) {
            sets.push_back({c.region});
            sets.back()[0].factor = f;
        }
        try {
            std::vector<OspgProfile> profiles = profiles_from_log(log, "", std::nullopt, sets);
            columns.push_back({});
            for (const OspgProfile& w : profiles)
                columns.back().push_back(ratio_text(w.parallelism.work, w.parallelism.span));
            titles.push_back(c.title);
        } catch (const Error&) {
        }
    }
    if (titles.empty()) {
        s.body += "<p class=\"note\">The log selects no W node of the candidates.</p>\n";
        return s;
    }
    HtmlTable t("tab-whatif");
    t.column("Factor", Table::kLeft);
    for (const std::string& title : titles) t.column("Parallelism, " + title + " optimised", Table::kRight);
    std::vector<std::string> measured(titles.size() + 1, ratio_text(base.work, base.span));
    measured[0] = "1 (measured)";
    t.row(measured);
    for (size_t f = 0; f < nf; ++f) {
        std::vector<std::string> row{fmt::format("{:g}", kWhatIfFactors[f])};
        for (const auto& col : columns) row.push_back(col[f]);
        t.row(row);
    }
    s.body += fmt::format("<p>From the OSPG log {}.</p>\n", html_escape(log)) + t.render();
    return s;
}

}  // namespace

std::vector<HtmlSection> html_profile_sections(const sir::Document& doc, const HtmlOptions& o) {
    std::vector<HtmlSection> out;
    if (doc.region_profile && !doc.region_profile->nodes.empty()) {
        out.push_back(regions_section(doc, o));
        if (doc.region_profile->nodes.size() > 1) out.push_back(flow_section(doc));
    }
    if (doc.parallelism) {
        out.push_back(parallelism_section(doc));
        out.push_back(whatif_section(doc, o));
    }
    return out;
}

}  // namespace report
}  // namespace ompsim
