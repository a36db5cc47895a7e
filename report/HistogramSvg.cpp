// The SVG chart of 'ompsim-report histogram --svg': a grouped bar chart in the
// manner of figure 3 of the EP-Cache paper (Kereku et al., Euro-Par 2004): the
// x axis is the relative position in the structure (one group per bucket or
// portion), the y axis the number of events, four bars per group: read hits,
// read misses, write hits, write misses at one cache level. A standalone
// SVG 1.1 file (no scripts, no external resources) that browsers render and
// xmllint accepts.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

// Canvas and plot area, in SVG user units (pixels).
const double kWidth = 960, kHeight = 540;
const double kLeft = 100, kRight = 930, kTop = 100, kBottom = 450;
// More groups than this and the bars would be thinner than a pixel: adjacent
// buckets are then summed into one group (the subtitle says so).
const size_t kMaxGroups = 100;
// At most this many labels on the x axis.
const size_t kMaxXLabels = 25;

struct Series {
    const char* label;
    const char* colour;
};
const Series kSeries[4] = {{"read hits", "#4e79a7"},
                           {"read misses", "#e15759"},
                           {"write hits", "#59a14f"},
                           {"write misses", "#f28e2b"}};

std::string esc(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default:
                // XML 1.0 cannot hold most control characters.
                out += (static_cast<unsigned char>(c) < 0x20 && c != '\t') ? '?' : c;
        }
    }
    return out;
}

// Long C++ names would run off the canvas (the full name is in the <title>).
std::string short_name(const std::string& name) {
    const size_t max = 40;
    return name.size() <= max ? name : name.substr(0, max - 3) + "...";
}

std::string num(double v) { return fmt::format("{:.2f}", v); }

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

// A step of 1, 2 or 5 times a power of ten giving about 5 ticks up to `max`.
double tick_step(double max) {
    if (max <= 0) return 1;
    double raw = max / 5;
    double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) return std::max(1.0, m * p);
    return std::max(1.0, 10 * p);
}

std::string tick_label(double v) { return commas(static_cast<uint64_t>(std::llround(v))); }

std::string title_block(const sir::DataStructure& s, const std::string& cache, const std::vector<HistogramRow>& rows,
                        const std::vector<Group>& groups) {
    const sir::DataHistogram& h = *s.histogram;
    std::string what = h.by_bins() ? fmt::format("{} portions", h.bins)
                                   : fmt::format("{} buckets of {} bytes", h.buckets, commas(h.bucket_bytes));
    std::string merged = groups.size() < rows.size()
                             ? fmt::format("; each group sums about {} buckets", (rows.size() + groups.size() - 1) / groups.size())
                             : "";
    std::string out;
    out += fmt::format("  <text x=\"{}\" y=\"34\" font-size=\"20\" font-weight=\"bold\">{}: {} accesses by position</text>\n",
                       num(kLeft), esc(short_name(s.name)), esc(cache));
    out += fmt::format("  <text x=\"{}\" y=\"58\" font-size=\"13\" fill=\"#444\">{} {} ({}), {}{}</text>\n", num(kLeft),
                       esc(s.kind), esc(location_text(s)), esc(size_text(s.size)), esc(what), esc(merged));
    return out;
}

std::string legend() {
    std::string out = "  <g font-size=\"13\">\n";
    double x = kLeft;
    for (const Series& se : kSeries) {
        out += fmt::format("    <rect x=\"{}\" y=\"72\" width=\"14\" height=\"14\" fill=\"{}\"/>\n", num(x), se.colour);
        out += fmt::format("    <text x=\"{}\" y=\"84\">{}</text>\n", num(x + 20), se.label);
        x += 130;
    }
    return out + "  </g>\n";
}

std::string y_axis(double top_value, double step) {
    std::string out = "  <g font-size=\"12\">\n";
    for (double v = 0; v <= top_value + step / 2; v += step) {
        double y = kBottom - (kBottom - kTop) * v / top_value;
        out += fmt::format("    <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>\n", num(kLeft), num(y),
                           num(kRight), num(y));
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", num(kLeft - 8), num(y + 4),
                           tick_label(v));
    }
    out += fmt::format("    <text transform=\"translate(24 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"14\">"
                       "Number of events</text>\n",
                       num((kTop + kBottom) / 2));
    return out + "  </g>\n";
}

std::string x_axis(const sir::DataStructure& s, const std::vector<Group>& groups) {
    const double gw = (kRight - kLeft) / groups.size();
    const size_t every = (groups.size() + kMaxXLabels - 1) / kMaxXLabels;
    std::string out = "  <g font-size=\"12\">\n";
    for (size_t k = 0; k < groups.size(); k += every) {
        double x = kLeft + gw * (k + 0.5);
        out += fmt::format("    <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>\n", num(x),
                           num(kBottom), num(x), num(kBottom + 5));
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num(x), num(kBottom + 20),
                           groups[k].first);
    }
    std::string title = s.histogram->by_bins()
                            ? fmt::format("Relative position in {} (portion, of {})", short_name(s.name), s.histogram->bins)
                            : fmt::format("Position in {} (bucket; offset = bucket \u00d7 {} bytes)", short_name(s.name),
                                          commas(s.histogram->bucket_bytes));
    out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
                       num((kLeft + kRight) / 2), num(kBottom + 48), esc(title));
    return out + "  </g>\n";
}

std::string bars(const std::vector<Group>& groups, double top_value) {
    const double gw = (kRight - kLeft) / groups.size();
    const double bw = gw * 0.8 / 4;
    std::string out = "  <g>\n";
    for (size_t k = 0; k < groups.size(); ++k) {
        const Group& g = groups[k];
        std::string which = g.first == g.last ? fmt::format("bucket {}", g.first)
                                              : fmt::format("buckets {}-{}", g.first, g.last);
        for (int se = 0; se < 4; ++se) {
            if (g.v[se] == 0) continue;
            double h = (kBottom - kTop) * static_cast<double>(g.v[se]) / top_value;
            double x = kLeft + gw * k + gw * 0.1 + bw * se;
            out += fmt::format("    <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} {}"
                               "</title></rect>\n",
                               num(x), num(kBottom - h), num(bw), num(h), kSeries[se].colour, which,
                               commas(g.v[se]), kSeries[se].label);
        }
    }
    return out + "  </g>\n";
}

}  // namespace

std::string histogram_svg(const sir::Document& doc, const sir::DataStructure& s, int level,
                          const std::vector<HistogramRow>& rows) {
    if (!s.histogram || rows.empty()) throw Error("data structure '" + s.name + "' has no histogram buckets to draw");
    const std::vector<Group> groups = groups_of(rows);
    uint64_t max = 0;
    for (const Group& g : groups)
        for (uint64_t v : g.v) max = std::max(max, v);
    const double step = tick_step(static_cast<double>(max));
    const double top_value = std::max(step, std::ceil(static_cast<double>(max) / step) * step);

    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
                       "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n",
                       kWidth, kHeight);
    out += fmt::format("  <title>{}: {} read and write hits and misses by position</title>\n", esc(s.name),
                       esc(level_name(doc, level)));
    out += fmt::format("  <rect width=\"{}\" height=\"{}\" fill=\"#fff\"/>\n", kWidth, kHeight);
    out += title_block(s, level_name(doc, level), rows, groups);
    out += legend();
    out += y_axis(top_value, step);
    out += bars(groups, top_value);
    out += x_axis(s, groups);
    out += fmt::format("  <line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#000\"/>\n", num(kLeft),
                       num(kBottom), num(kRight));
    out += fmt::format("  <line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\"/>\n", num(kLeft), num(kTop),
                       num(kBottom));
    out += "</svg>\n";
    return out;
}

}  // namespace report
}  // namespace ompsim
