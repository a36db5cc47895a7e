// The HTML report's data-structure sections (runs with --monitor=yes):
// the structures' counts in a table, one bar chart per cache level
// comparing the structures (read and write hits and misses), and the
// histogram of every structure that has one (histogram --svg's chart).
#include <fmt/format.h>

#include <algorithm>

#include "Report.h"
#include "Svg.h"

namespace ompsim {
namespace report {

namespace {

// More structures than this in one chart and the bars get too thin to read;
// the table lists all of them.
const size_t kMaxChartStructures = 16;
// Histograms drawn at most (a program with hundreds of heap sites would
// give a page of hundreds of charts); the most missing structures first.
const size_t kMaxHistograms = 24;

uint64_t misses_at(const sir::DataStructures& ds, const sir::DataStructure& s, int level) {
    LevelCounts c = level_counts(ds, s.costs, level);
    return c.read_misses + c.write_misses;
}

// The counted structures, most level-1 misses first (ties in document order).
std::vector<size_t> by_misses(const sir::DataStructures& ds) {
    std::vector<size_t> order;
    for (size_t i = 0; i < ds.structures.size(); ++i)
        if (ds.structures[i].counted) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return misses_at(ds, ds.structures[a], 1) > misses_at(ds, ds.structures[b], 1);
    });
    return order;
}

std::string structures_table(const sir::Document& doc, const sir::DataStructures& ds) {
    const int levels = data_levels(ds);
    HtmlTable t("tab-structures");
    t.column("#", Table::kRight, "index in the document");
    t.column("Structure", Table::kLeft);
    t.column("Kind", Table::kLeft);
    t.column("Declared or allocated at", Table::kLeft);
    t.column("Size", Table::kRight, "bytes (the largest block of a heap site)");
    t.column("Dr", Table::kRight, "line references of reads");
    t.column("Dw", Table::kRight, "line references of writes");
    for (int k = 1; k <= levels; ++k) {
        t.column(level_name(doc, k) + " read misses", Table::kRight);
        t.column(level_name(doc, k) + " write misses", Table::kRight);
    }
    const int dcm = ds.column("Dcm"), dfs = ds.column("Dfs");
    if (dcm >= 0) t.column("Coherence misses", Table::kRight);
    if (dfs >= 0) t.column("False sharing", Table::kRight);
    for (size_t i = 0; i < ds.structures.size(); ++i) {
        const sir::DataStructure& s = ds.structures[i];
        LevelCounts c1 = level_counts(ds, s.costs, 1);
        std::vector<std::string> r{std::to_string(i), structure_display_name(ds, i), s.kind, location_text(s),
                                   commas(s.size), commas(c1.reads), commas(c1.writes)};
        for (int k = 1; k <= levels; ++k) {
            LevelCounts c = level_counts(ds, s.costs, k);
            r.push_back(commas(c.read_misses));
            r.push_back(commas(c.write_misses));
        }
        if (dcm >= 0) r.push_back(commas(s.costs[static_cast<size_t>(dcm)]));
        if (dfs >= 0) r.push_back(commas(s.costs[static_cast<size_t>(dfs)]));
        t.row(r);
    }
    return t.render();
}

std::string level_chart(const sir::Document& doc, const sir::DataStructures& ds, const std::vector<size_t>& order,
                        int level) {
    svg::BarChart chart;
    chart.series = svg::access_series();
    const std::string cache = level_name(doc, level);
    for (size_t n = 0; n < order.size() && n < kMaxChartStructures; ++n) {
        const size_t i = order[n];
        LevelCounts c = level_counts(ds, ds.structures[i].costs, level);
        const std::string name = structure_display_name(ds, i);
        chart.groups.push_back({svg::short_name(name, 16), name,
                                {c.read_hits(), c.read_misses, c.write_hits(), c.write_misses}});
    }
    chart.title = cache + ": accesses of each data structure";
    chart.heading = chart.title;
    chart.subtitle = order.size() > kMaxChartStructures
                         ? fmt::format("the {} structures with the most D1 misses of {}", kMaxChartStructures,
                                       order.size())
                         : fmt::format("{} structure{}, most level-1 misses first", order.size(),
                                       order.size() == 1 ? "" : "s");
    chart.x_title = "Data structure";
    chart.y_title = "Line references";
    chart.slanted_labels = true;
    return html_figure("fig-structures-" + cache, svg::bar_chart(chart),
                       fmt::format("{}: the references of each structure that reached {} (level {}), split into "
                                   "read and write hits and misses there.",
                                   cache, cache, level));
}

HtmlSection structures_section(const sir::Document& doc, const sir::DataStructures& ds) {
    HtmlSection s{"structures", "Data structures",
                  "Which array misses: the monitor counts, per global variable, heap allocation site and named "
                  "range, its line references and their misses at every level. A structure with many misses "
                  "and few references has a bad access pattern (a large stride, no reuse); one with many "
                  "references and few misses is cache-friendly.",
                  ""};
    s.body += structures_table(doc, ds);
    const std::vector<size_t> order = by_misses(ds);
    if (order.empty()) {
        s.body += "<p class=\"note\">No structure was counted (no monitor slot was free).</p>\n";
        return s;
    }
    for (int k = 1; k <= data_levels(ds); ++k) s.body += level_chart(doc, ds, order, k);
    return s;
}

HtmlSection histograms_section(const sir::Document& doc, const sir::DataStructures& ds) {
    HtmlSection s{"histograms", "Where inside each structure",
                  "Each structure's references by position inside it (buckets of lines, or equal portions), "
                  "split into read and write hits and misses at level 1: a stripe of misses shows the part of "
                  "an array that does not stay in the cache.",
                  ""};
    size_t drawn = 0, with = 0;
    for (size_t i : by_misses(ds)) {
        const sir::DataStructure& st = ds.structures[i];
        if (!st.histogram) continue;
        ++with;
        if (drawn == kMaxHistograms) continue;
        std::vector<HistogramRow> rows = histogram_rows(ds, st, 1);
        if (rows.empty()) continue;
        s.body += html_figure(fmt::format("fig-hist-{}", i), histogram_svg(doc, st, 1, rows),
                              fmt::format("{}: {} accesses by position ({} {}).", structure_display_name(ds, i),
                                          level_name(doc, 1), st.kind, location_text(st)));
        ++drawn;
    }
    if (with > drawn)
        s.body += fmt::format("<p class=\"note\">{} more histograms are left out; 'ompsim-report histogram' "
                              "draws any of them.</p>\n",
                              with - drawn);
    return s;
}

bool has_histogram(const sir::DataStructures& ds) {
    for (const sir::DataStructure& s : ds.structures)
        if (s.counted && s.histogram) return true;
    return false;
}

}  // namespace

std::vector<HtmlSection> html_structure_sections(const sir::Document& doc) {
    std::vector<HtmlSection> out;
    if (!doc.data_structures) return out;
    const sir::DataStructures& ds = *doc.data_structures;
    out.push_back(structures_section(doc, ds));
    if (has_histogram(ds)) out.push_back(histograms_section(doc, ds));
    // The miss classes and reuse distances: HtmlClasses.cpp.
    return out;
}

}  // namespace report
}  // namespace ompsim
