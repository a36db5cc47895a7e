// The HTML report's miss classes and reuse distances (issue 9, items 1 and
// 2): with --classify-misses=yes the 3C classes of every cache and of the
// data structures, with --reuse-distance=yes each structure's histogram of
// LRU stack distances and the miss-ratio curve it implies for fully
// associative LRU caches of every size (docs/output-format.md, "Miss classes
// and reuse distances"). The curve is computed here from the bins (misses
// at C lines = cold + the counts of the bins with min >= C) so the page
// needs nothing but the document's fields.
#include <fmt/format.h>

#include <algorithm>

#include "Report.h"
#include "Svg.h"

namespace ompsim {
namespace report {

namespace {

// Structures shown in the class chart and the reuse charts (the table of
// classes lists all).
const size_t kMaxStructures = 8;
const char* const kClassColours[sir::kMissClasses] = {"#4e79a7", "#f28e2b", "#e15759", "#b07aa1"};
const char* const kLineColours[kMaxStructures] = {"#4e79a7", "#e15759", "#59a14f", "#f28e2b",
                                                  "#b07aa1", "#76b7b2", "#edc948", "#9c755f"};

std::vector<svg::Series> class_series() {
    std::vector<svg::Series> out;
    for (int c = 0; c < sir::kMissClasses; ++c) out.push_back({sir::kMissClassFields[c].label, kClassColours[c]});
    return out;
}

uint64_t class_value(const sir::MissClasses& m, int c) { return m.*(sir::kMissClassFields[c].member); }

HtmlSection classes_section(const sir::Document& doc) {
    HtmlSection s{"classes", "Miss classes (3C)",
                  "Why each miss happened: compulsory (the first reference to the line: no cache avoids it), "
                  "capacity (a fully associative LRU cache of the same size would miss too: the working set "
                  "does not fit), conflict (that cache would hit: too many lines map to the same set; padding "
                  "or another layout helps) and coherence (another core's write took the line).",
                  ""};
    HtmlTable t("tab-classes");
    t.column("Cache", Table::kLeft);
    t.column("Demand misses", Table::kRight);
    for (const sir::MissClassField& f : sir::kMissClassFields) t.column(f.label, Table::kRight);
    svg::BarChart chart;
    chart.series = class_series();
    for (const sir::CacheStats& c : doc.cache_stats) {
        if (!c.classes) continue;
        std::vector<std::string> row{c.name, commas(c.misses[sir::kFetch] + c.misses[sir::kRead] + c.misses[sir::kWrite])};
        std::vector<uint64_t> values;
        for (int k = 0; k < sir::kMissClasses; ++k) {
            row.push_back(commas(class_value(*c.classes, k)));
            values.push_back(class_value(*c.classes, k));
        }
        t.row(row);
        chart.groups.push_back({c.name, c.name, values});
    }
    chart.title = "Misses of each cache by class";
    chart.heading = chart.title;
    chart.subtitle = "compulsory + capacity + conflict + coherence = the demand misses";
    chart.x_title = "Cache";
    chart.y_title = "Misses";
    s.body += t.render() + html_figure("fig-classes", svg::bar_chart(chart),
                                       "The demand misses of every cache split into the four classes.");

    // The structures' classes, when the data-structure section has the columns.
    if (!doc.data_structures) return s;
    const sir::DataStructures& ds = *doc.data_structures;
    const int levels = data_levels(ds);
    bool any = false;
    HtmlTable st("tab-structure-classes");
    st.column("Structure", Table::kLeft);
    st.column("Cache", Table::kLeft);
    for (const sir::MissClassField& f : sir::kMissClassFields) st.column(f.label, Table::kRight);
    for (size_t i = 0; i < ds.structures.size(); ++i)
        for (int k = 1; k <= levels; ++k) {
            std::vector<std::string> row{structure_display_name(ds, i), level_name(doc, k)};
            bool found = true;
            for (const sir::MissClassField& f : sir::kMissClassFields) {
                int col = ds.column(fmt::format("D{}{}", k, f.suffix));
                found = found && col >= 0;
                row.push_back(col >= 0 ? commas(ds.structures[i].costs[static_cast<size_t>(col)]) : "-");
            }
            if (!found) continue;
            any = true;
            st.row(row);
        }
    if (any) s.body += "<h3>By data structure</h3>\n" + st.render();
    return s;
}

// A bin's distances as text: "0", "1", "2-3".
std::string bin_text(const sir::ReuseBin& b) {
    return b.min == b.max ? commas(b.min) : fmt::format("{}-{}", commas(b.min), commas(b.max));
}

HtmlSection reuse_section(const sir::DataStructures& ds) {
    HtmlSection s{"reuse", "Reuse distances and miss-ratio curves",
                  "A reference's reuse distance is the number of other lines touched since the last reference to "
                  "its line. A fully associative LRU cache of C lines hits exactly the references with a "
                  "distance below C, so one run gives the miss ratio of every cache size: the curve drops where "
                  "the structure's working set starts to fit.",
                  ""};
    std::vector<size_t> with;
    for (size_t i = 0; i < ds.structures.size(); ++i)
        if (ds.structures[i].reuse && ds.structures[i].reuse->accesses > 0) with.push_back(i);
    std::stable_sort(with.begin(), with.end(), [&](size_t a, size_t b) {
        return ds.structures[a].reuse->accesses > ds.structures[b].reuse->accesses;
    });
    HtmlTable t("tab-reuse");
    t.column("Structure", Table::kLeft);
    t.column("Accesses", Table::kRight);
    t.column("Cold", Table::kRight, "first references: infinite distance");
    t.column("Distance (lines)", Table::kLeft);
    t.column("References", Table::kRight);
    svg::LineChart mrc;
    uint64_t largest = 1;
    for (size_t i : with)
        for (const sir::ReuseBin& b : ds.structures[i].reuse->bins) largest = std::max(largest, b.max + 1);
    for (size_t n = 0; n < with.size(); ++n) {
        const sir::DataStructure& st = ds.structures[with[n]];
        const sir::ReuseDistance& r = *st.reuse;
        const std::string name = structure_display_name(ds, with[n]);
        for (const sir::ReuseBin& b : r.bins)
            t.row({name, commas(r.accesses), commas(r.cold), bin_text(b), commas(b.count)});
        if (r.bins.empty()) t.row({name, commas(r.accesses), commas(r.cold), "-", "0"});
        if (n >= kMaxStructures) continue;
        svg::LineSeries line{{svg::short_name(name, 16), kLineColours[n]}, {}};
        for (uint64_t lines = 1; lines <= 2 * largest; lines *= 2) {
            const uint64_t m = r.misses_at(lines);
            const double ratio = r.miss_ratio(lines);
            line.points.push_back({static_cast<double>(lines * r.line_size), ratio,
                                   fmt::format("{}: {} lines ({}): {} misses of {} ({:.2f}%)", name, commas(lines),
                                               size_text(lines * r.line_size), commas(m), commas(r.accesses),
                                               ratio * 100)});
        }
        mrc.lines.push_back(line);
    }
    mrc.title = "Miss-ratio curves of fully associative LRU caches";
    mrc.heading = mrc.title;
    mrc.subtitle = with.size() > kMaxStructures
                       ? fmt::format("the {} structures with the most accesses of {}", kMaxStructures, with.size())
                       : "one curve per data structure";
    mrc.x_title = "Cache capacity";
    mrc.y_title = "Miss ratio";
    s.body += html_figure("fig-mrc", svg::line_chart(mrc),
                          "Each structure's miss ratio in a fully associative LRU cache of every size (lines of the "
                          "level-1 line size); compare with the real caches' sizes in the machine table.");
    s.body += t.render();
    return s;
}

bool has_classes(const sir::Document& doc) {
    for (const sir::CacheStats& c : doc.cache_stats)
        if (c.classes) return true;
    return false;
}

bool has_reuse(const sir::DataStructures& ds) {
    for (const sir::DataStructure& s : ds.structures)
        if (s.reuse && s.reuse->accesses > 0) return true;
    return false;
}

}  // namespace

std::vector<HtmlSection> html_class_sections(const sir::Document& doc) {
    std::vector<HtmlSection> out;
    if (has_classes(doc)) out.push_back(classes_section(doc));
    if (doc.data_structures && has_reuse(*doc.data_structures)) out.push_back(reuse_section(*doc.data_structures));
    return out;
}

}  // namespace report
}  // namespace ompsim
