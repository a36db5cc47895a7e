// SVG building blocks shared by ompsim-report's charts: escaping, the axis
// ticks, a grouped bar chart (histogram --svg and the HTML report's bar
// charts) and a line chart (the HTML report's miss-ratio curves). Every
// chart is an SVG 1.1 <svg> element with a viewBox, without scripts or
// external resources, so it is valid as a standalone file (after
// kXmlDeclaration) and inline in HTML, where CSS may scale it.
#ifndef OMPSIM_REPORT_SVG_H
#define OMPSIM_REPORT_SVG_H

#include <cstdint>
#include <string>
#include <vector>

namespace ompsim {
namespace report {
namespace svg {

extern const char* const kXmlDeclaration;  // "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

// Text for XML and HTML, in content and in quoted attributes: & < > " '
// as references; control characters but tab, which XML 1.0 cannot hold,
// as '?'.
std::string escape(const std::string& s);
// A coordinate with two decimals: "12.50".
std::string num(double v);
// A tick step of 1, 2 or 5 times a power of ten giving about 5 ticks up to
// `max` (at least 1: counts are whole numbers).
double tick_step(double max);
// Long names would run off the canvas: at most `max` characters, "..." at
// the end when cut (the full name belongs in a <title>).
std::string short_name(const std::string& name, size_t max = 40);

struct Series {
    std::string label;
    std::string colour;  // "#4e79a7"
};

// The read/write hit/miss series of histogram --svg, in that order.
const std::vector<Series>& access_series();

struct BarGroup {
    std::string label;             // under the group; "" for none
    std::string name;              // in each bar's tooltip: "NAME: VALUE SERIES"
    std::vector<uint64_t> values;  // one per series; zero bars are left out
};

// A grouped bar chart: one group of bars per category along x, one bar per
// series in each group, a y axis from 0 in round steps.
struct BarChart {
    std::string title;     // the <title> (what a screen reader and a tooltip say)
    std::string heading;   // first line, bold
    std::string subtitle;  // second line
    std::vector<Series> series;
    std::vector<BarGroup> groups;
    std::string x_title;
    std::string y_title = "Number of events";
    size_t max_x_labels = 25;    // labels of the other groups are left out
    bool slanted_labels = false;  // long labels (names): drawn at -30 degrees
};
// The <svg> element (no XML declaration), ending in "</svg>\n".
std::string bar_chart(const BarChart& chart);

struct LinePoint {
    double x = 0;     // > 0 (the x axis is logarithmic, base 2)
    double y = 0;     // >= 0
    std::string tip;  // the point's tooltip
};
struct LineSeries {
    Series series;
    std::vector<LinePoint> points;  // ascending x
};
// A line chart over a base-2 logarithmic x axis (cache sizes) and a linear
// y axis from 0 to y_max (1 for miss ratios).
struct LineChart {
    std::string title, heading, subtitle;
    std::vector<LineSeries> lines;
    std::string x_title, y_title;
    double y_max = 1;
    bool y_percent = true;  // y tick labels as percentages of 1
    bool x_bytes = true;    // x tick labels as sizes ("32 KiB"), else numbers
};
std::string line_chart(const LineChart& chart);

}  // namespace svg
}  // namespace report
}  // namespace ompsim

#endif
