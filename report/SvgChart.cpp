// The SVG charts of ompsim-report (Svg.h): a grouped bar chart and a line
// chart on one canvas layout, 960 x 540 user units with the plot area at
// x 100..930, y 100..450, the title above it and the legend between them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "Report.h"
#include "Svg.h"

namespace ompsim {
namespace report {
namespace svg {

const char* const kXmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

namespace {

// Canvas and plot area, in SVG user units (pixels).
const double kWidth = 960, kHeight = 540;
const double kLeft = 100, kRight = 930, kTop = 100, kBottom = 450;
// The legend's entries are this far apart ("write misses" at 13 px fits).
const double kLegendStep = 130;

std::string tick_label(double v) { return commas(static_cast<uint64_t>(std::llround(v))); }

std::string open_svg(const std::string& title) {
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n",
        kWidth, kHeight);
    out += fmt::format("  <title>{}</title>\n", escape(title));
    out += fmt::format("  <rect width=\"{}\" height=\"{}\" fill=\"#fff\"/>\n", kWidth, kHeight);
    return out;
}

std::string title_block(const std::string& heading, const std::string& subtitle) {
    std::string out;
    out += fmt::format("  <text x=\"{}\" y=\"34\" font-size=\"20\" font-weight=\"bold\">{}</text>\n", num(kLeft),
                       escape(heading));
    out += fmt::format("  <text x=\"{}\" y=\"58\" font-size=\"13\" fill=\"#444\">{}</text>\n", num(kLeft),
                       escape(subtitle));
    return out;
}

std::string legend(const std::vector<Series>& series) {
    std::string out = "  <g font-size=\"13\">\n";
    double x = kLeft;
    for (const Series& se : series) {
        out += fmt::format("    <rect x=\"{}\" y=\"72\" width=\"14\" height=\"14\" fill=\"{}\"/>\n", num(x), se.colour);
        out += fmt::format("    <text x=\"{}\" y=\"84\">{}</text>\n", num(x + 20), escape(se.label));
        x += kLegendStep;
    }
    return out + "  </g>\n";
}

// Grid lines and labels from 0 to top_value every `step`; label(v) writes a tick.
template <typename Label>
std::string y_axis(double top_value, double step, const std::string& title, Label label) {
    std::string out = "  <g font-size=\"12\">\n";
    for (double v = 0; v <= top_value + step / 2; v += step) {
        double y = kBottom - (kBottom - kTop) * v / top_value;
        out += fmt::format("    <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>\n", num(kLeft), num(y),
                           num(kRight), num(y));
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", num(kLeft - 8), num(y + 4),
                           label(v));
    }
    out += fmt::format("    <text transform=\"translate(24 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"14\">"
                       "{}</text>\n",
                       num((kTop + kBottom) / 2), escape(title));
    return out + "  </g>\n";
}

std::string frame() {
    std::string out;
    out += fmt::format("  <line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#000\"/>\n", num(kLeft),
                       num(kBottom), num(kRight));
    out += fmt::format("  <line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\"/>\n", num(kLeft), num(kTop),
                       num(kBottom));
    return out;
}

std::string x_tick(double x, const std::string& label, bool slanted) {
    std::string out = fmt::format("    <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>\n", num(x),
                                  num(kBottom), num(x), num(kBottom + 5));
    if (slanted)
        out += fmt::format("    <text x=\"{0}\" y=\"{1}\" text-anchor=\"end\" transform=\"rotate(-30 {0} {1})\">{2}"
                           "</text>\n",
                           num(x + 4), num(kBottom + 16), escape(label));
    else
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num(x), num(kBottom + 20),
                           escape(label));
    return out;
}

std::string x_title(const std::string& title, bool slanted) {
    return fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
                       num((kLeft + kRight) / 2), num(kBottom + (slanted ? 82 : 48)), escape(title));
}

}  // namespace

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                out += static_cast<unsigned char>(c) < 0x20 && c != '\t' ? '?' : c;
        }
    }
    return out;
}

std::string num(double v) { return fmt::format("{:.2f}", v); }

double tick_step(double max) {
    if (max <= 0) return 1;
    double raw = max / 5;
    double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) return std::max(1.0, m * p);
    return std::max(1.0, 10 * p);
}

std::string short_name(const std::string& name, size_t max) {
    return name.size() <= max ? name : name.substr(0, max - 3) + "...";
}

const std::vector<Series>& access_series() {
    static const std::vector<Series> series = {{"read hits", "#4e79a7"},
                                               {"read misses", "#e15759"},
                                               {"write hits", "#59a14f"},
                                               {"write misses", "#f28e2b"}};
    return series;
}

std::string bar_chart(const BarChart& c) {
    uint64_t max = 0;
    for (const BarGroup& g : c.groups)
        for (uint64_t v : g.values) max = std::max(max, v);
    const double step = tick_step(static_cast<double>(max));
    const double top_value = std::max(step, std::ceil(static_cast<double>(max) / step) * step);
    const size_t n = std::max<size_t>(c.groups.size(), 1);
    const size_t ns = std::max<size_t>(c.series.size(), 1);
    const double gw = (kRight - kLeft) / n;
    const double bw = gw * 0.8 / ns;

    std::string out = open_svg(c.title);
    out += title_block(c.heading, c.subtitle);
    out += legend(c.series);
    out += y_axis(top_value, step, c.y_title, tick_label);
    out += "  <g>\n";
    for (size_t k = 0; k < c.groups.size(); ++k) {
        const BarGroup& g = c.groups[k];
        for (size_t se = 0; se < g.values.size() && se < c.series.size(); ++se) {
            if (g.values[se] == 0) continue;
            double h = (kBottom - kTop) * static_cast<double>(g.values[se]) / top_value;
            double x = kLeft + gw * k + gw * 0.1 + bw * se;
            out += fmt::format("    <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} {}"
                               "</title></rect>\n",
                               num(x), num(kBottom - h), num(bw), num(h), c.series[se].colour, escape(g.name),
                               commas(g.values[se]), escape(c.series[se].label));
        }
    }
    out += "  </g>\n";
    const size_t every = std::max<size_t>(1, (c.groups.size() + c.max_x_labels - 1) / std::max<size_t>(c.max_x_labels, 1));
    out += "  <g font-size=\"12\">\n";
    for (size_t k = 0; k < c.groups.size(); k += every)
        out += x_tick(kLeft + gw * (k + 0.5), c.groups[k].label, c.slanted_labels);
    out += x_title(c.x_title, c.slanted_labels);
    out += "  </g>\n";
    out += frame();
    out += "</svg>\n";
    return out;
}

std::string line_chart(const LineChart& c) {
    // The x range: whole powers of two around every point.
    double lo = 0, hi = 0;
    bool any = false;
    for (const LineSeries& l : c.lines)
        for (const LinePoint& p : l.points) {
            if (p.x <= 0) continue;
            double e = std::log2(p.x);
            lo = any ? std::min(lo, std::floor(e)) : std::floor(e);
            hi = any ? std::max(hi, std::ceil(e)) : std::ceil(e);
            any = true;
        }
    if (!any || hi <= lo) hi = lo + 1;
    const double y_max = c.y_max > 0 ? c.y_max : 1;
    auto px = [&](double x) { return kLeft + (kRight - kLeft) * (std::log2(x) - lo) / (hi - lo); };
    auto py = [&](double y) { return kBottom - (kBottom - kTop) * std::min(y, y_max) / y_max; };

    std::string out = open_svg(c.title);
    out += title_block(c.heading, c.subtitle);
    std::vector<Series> series;
    for (const LineSeries& l : c.lines) series.push_back(l.series);
    out += legend(series);
    const double step = c.y_percent ? y_max / 5 : tick_step(y_max);
    out += y_axis(y_max, step, c.y_title, [&](double v) {
        return c.y_percent ? fmt::format("{:.0f}%", v * 100) : tick_label(v);
    });
    // One tick per power of two, at most 16 labelled.
    const int span = static_cast<int>(hi - lo);
    const int every = std::max(1, (span + 15) / 16);
    out += "  <g font-size=\"12\">\n";
    for (int e = 0; e <= span; e += every) {
        const uint64_t x = static_cast<uint64_t>(std::exp2(lo + e));
        out += x_tick(px(std::exp2(lo + e)), c.x_bytes ? size_text(x) : commas(x), false);
    }
    out += x_title(c.x_title, false);
    out += "  </g>\n";
    for (const LineSeries& l : c.lines) {
        std::string points;
        for (const LinePoint& p : l.points)
            if (p.x > 0) points += (points.empty() ? "" : " ") + num(px(p.x)) + "," + num(py(p.y));
        out += fmt::format("  <g fill=\"{0}\" stroke=\"{0}\">\n", l.series.colour);
        out += fmt::format("    <polyline fill=\"none\" stroke-width=\"2\" points=\"{}\"/>\n", points);
        for (const LinePoint& p : l.points)
            if (p.x > 0)
                out += fmt::format("    <circle cx=\"{}\" cy=\"{}\" r=\"3\"><title>{}</title></circle>\n", num(px(p.x)),
                                   num(py(p.y)), escape(p.tip));
        out += "  </g>\n";
    }
    out += frame();
    out += "</svg>\n";
    return out;
}

}  // namespace svg
}  // namespace report
}  // namespace ompsim
