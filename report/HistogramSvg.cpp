// The SVG chart of 'ompsim-report histogram --svg': a grouped bar chart in the
// manner of figure 3 of the EP-Cache paper (Kereku et al., Euro-Par 2004): the
// x axis is the relative position in the structure (one group per bucket or
// portion), the y axis the number of events, four bars per group: read hits,
// read misses, write hits, write misses at one cache level. A standalone
// SVG 1.1 file (no scripts, no external resources) that browsers render and
// xmllint accepts, drawn by the shared bar chart of SvgChart.cpp (the HTML
// report inlines the same chart).
#include <fmt/format.h>

#include <algorithm>

#include "Report.h"
#include "Svg.h"

namespace ompsim {
namespace report {

namespace {

// More groups than this and the bars would be thinner than a pixel: adjacent
// buckets are then summed into one group (the subtitle says so).
const size_t kMaxGroups = 100;

struct Group {
    uint32_t first = 0, last = 0;  // buckets summed into the group
    uint64_t v[4] = {0, 0, 0, 0};
};

std::vector<Group> groups_of(const std::vector<HistogramRow>& rows) {
    const size_t n = rows.size();
    const size_t g = std::min(n, kMaxGroups);
    std::vector<Group> out(g);
    for (size_t k = 0; k < g; ++k) {
        size_t first = k * n / g, end = (k + 1) * n / g;
        out[k].first = static_cast<uint32_t>(first);
        out[k].last = static_cast<uint32_t>(end - 1);
        for (size_t i = first; i < end; ++i) {
            const HistogramRow& r = rows[i];
            const uint64_t parts[4] = {r.read_hits, r.read_misses, r.write_hits, r.write_misses};
            for (int s = 0; s < 4; ++s) out[k].v[s] += parts[s];
        }
    }
    return out;
}

}  // namespace

std::string histogram_svg(const sir::Document& doc, const sir::DataStructure& s, int level,
                          const std::vector<HistogramRow>& rows) {
    if (!s.histogram || rows.empty()) throw Error("data structure '" + s.name + "' has no histogram buckets to draw");
    const std::vector<Group> groups = groups_of(rows);
    const sir::DataHistogram& h = *s.histogram;
    const std::string cache = level_name(doc, level);

    svg::BarChart chart;
    chart.title = fmt::format("{}: {} read and write hits and misses by position", s.name, cache);
    chart.heading = fmt::format("{}: {} accesses by position", svg::short_name(s.name), cache);
    std::string what = h.by_bins() ? fmt::format("{} portions", h.bins)
                                   : fmt::format("{} buckets of {} bytes", h.buckets, commas(h.bucket_bytes));
    std::string merged = groups.size() < rows.size()
                             ? fmt::format("; each group sums about {} buckets", (rows.size() + groups.size() - 1) / groups.size())
                             : "";
    chart.subtitle = fmt::format("{} {} ({}), {}{}", s.kind, location_text(s), size_text(s.size), what, merged);
    chart.series = svg::access_series();
    for (const Group& g : groups)
        chart.groups.push_back({std::to_string(g.first),
                                g.first == g.last ? fmt::format("bucket {}", g.first)
                                                  : fmt::format("buckets {}-{}", g.first, g.last),
                                {g.v[0], g.v[1], g.v[2], g.v[3]}});
    chart.x_title = h.by_bins()
                        ? fmt::format("Relative position in {} (portion, of {})", svg::short_name(s.name), h.bins)
                        : fmt::format("Position in {} (bucket; offset = bucket \u00d7 {} bytes)", svg::short_name(s.name),
                                      commas(h.bucket_bytes));
    return svg::kXmlDeclaration + svg::bar_chart(chart);
}

}  // namespace report
}  // namespace ompsim
