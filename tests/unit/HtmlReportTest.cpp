// The HTML report's building blocks: escaping, HTML tables, the SVG bar and
// line charts (coordinates derived by hand from the canvas layout of
// report/SvgChart.cpp: plot area x 100..930, y 100..450), and a page of the
// fixture tests/sir/structures.xml (read from $OMPSIM_SRCDIR).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "Report.h"
#include "Svg.h"

using namespace ompsim;
using namespace ompsim::report;

namespace {

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(HtmlEscape, MarkupQuotesAndControls) {
    EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    EXPECT_EQ(html_escape("x\ty"), "x\ty");      // a tab is text
    EXPECT_EQ(html_escape("x\x01y\nz"), "x?y?z");  // XML 1.0 cannot hold the others
    EXPECT_EQ(html_escape("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 passes
    EXPECT_EQ(svg::escape("<script>"), "&lt;script&gt;");
}

TEST(HtmlTable, HeadersCellsAndClasses) {
    HtmlTable t("tab-x");
    t.column("Name", Table::kLeft);
    t.column("Count", Table::kRight, "a \"tip\"");
    t.column("Code", Table::kLeft, "", true);
    t.row({"<b>", "1,234", "  x = 1;"});
    t.row({"short"});  // missing cells are empty
    const std::string html = t.render();
    EXPECT_NE(html.find("<table class=\"data\" id=\"tab-x\">"), std::string::npos);
    EXPECT_NE(html.find("<th>Name</th><th class=\"num\" title=\"a &quot;tip&quot;\">Count</th><th>Code</th>"),
              std::string::npos);
    EXPECT_NE(html.find("<tr><td>&lt;b&gt;</td><td class=\"num\">1,234</td><td class=\"code\">  x = 1;</td></tr>"),
              std::string::npos);
    EXPECT_NE(html.find("<tr><td>short</td><td class=\"num\"></td><td class=\"code\"></td></tr>"), std::string::npos);
    EXPECT_EQ(html.find("<b>"), std::string::npos);
}

TEST(SvgChart, TickSteps) {
    EXPECT_EQ(svg::tick_step(0), 1);
    EXPECT_EQ(svg::tick_step(3), 1);    // raw 0.6: 1 (never below one count)
    EXPECT_EQ(svg::tick_step(7), 2);    // raw 1.4: 2
    EXPECT_EQ(svg::tick_step(70), 20);  // raw 14: 20
    EXPECT_EQ(svg::tick_step(1000), 200);
}

TEST(SvgChart, BarChartGeometry) {
    // Two groups of two series, values {3, 0} and {5, 7}: the largest is 7,
    // the step 2, the axis top 8; 350 units of plot height, so a bar of v is
    // 350 v / 8 high: 3 -> 131.25, 5 -> 218.75, 7 -> 306.25. Groups are
    // 830 / 2 = 415 wide, bars 415 * 0.8 / 2 = 166 wide starting 41.5 into
    // the group: x = 141.5 (g1, s1), 556.5 (g2, s1), 722.5 (g2, s2).
    svg::BarChart c;
    c.title = "t<1>";
    c.heading = "Heading & more";
    c.series = {{"hits", "#111111"}, {"misses", "#222222"}};
    c.groups = {{"g1", "first", {3, 0}}, {"g2", "second", {5, 7}}};
    const std::string s = svg::bar_chart(c);
    EXPECT_EQ(s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_EQ(s.substr(s.size() - 7), "</svg>\n");
    EXPECT_NE(s.find("<title>t&lt;1&gt;</title>"), std::string::npos);
    EXPECT_NE(s.find(">Heading &amp; more</text>"), std::string::npos);
    EXPECT_EQ(count(s, "</title></rect>"), 3u);  // the zero bar is left out
    EXPECT_NE(s.find("<rect x=\"141.50\" y=\"318.75\" width=\"166.00\" height=\"131.25\" fill=\"#111111\"><title>first: 3 "
                     "hits</title></rect>"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("x=\"556.50\" y=\"231.25\" width=\"166.00\" height=\"218.75\""), std::string::npos);
    EXPECT_NE(s.find("x=\"722.50\" y=\"143.75\" width=\"166.00\" height=\"306.25\" fill=\"#222222\"><title>second: 7 "
                     "misses</title>"),
              std::string::npos);
    // Ticks 0, 2, 4, 6, 8: the top one at y = 100.
    EXPECT_NE(s.find("text-anchor=\"end\">8</text>"), std::string::npos);
    EXPECT_NE(s.find("y1=\"100.00\" x2=\"930.00\" y2=\"100.00\" stroke=\"#ddd\""), std::string::npos);
}

TEST(SvgChart, LineChartOnALogAxis) {
    // x from 2^0 to 2^2: x = 1 at 100, 4 at 930; y 0..1: 1 at 100, 0.5 at 275.
    svg::LineChart c;
    c.lines = {{{"a", "#333333"}, {{1, 1, "one"}, {4, 0.5, "four"}}}};
    c.x_bytes = true;
    const std::string s = svg::line_chart(c);
    EXPECT_NE(s.find("points=\"100.00,100.00 930.00,275.00\""), std::string::npos) << s;
    EXPECT_EQ(count(s, "<circle "), 2u);
    EXPECT_NE(s.find("<title>four</title>"), std::string::npos);
    EXPECT_NE(s.find(">40%</text>"), std::string::npos);     // y ticks every 20 %: 0 .. 100
    EXPECT_NE(s.find(">2 B</text>"), std::string::npos);     // x ticks 1 B, 2 B, 4 B
}

std::string fixture(const std::string& name) {
    const char* d = std::getenv("OMPSIM_SRCDIR");
    return std::string(d ? d : ".") + "/tests/sir/" + name;
}

TEST(HtmlReport, StructuresFixture) {
    sir::Document doc = load_document(fixture("structures.xml"));
    HtmlOptions o;
    o.path = fixture("structures.xml");
    const std::string page = html_report(doc, o);
    EXPECT_EQ(page.rfind("<!DOCTYPE html>\n", 0), 0u);
    // The argument "x&y" escaped, nowhere raw.
    EXPECT_NE(page.find("x&amp;y"), std::string::npos);
    EXPECT_EQ(page.find("x&y"), std::string::npos);
    for (const char* id : {"id=\"machine\"", "id=\"levels\"", "id=\"structures\"", "id=\"histograms\"",
                           "id=\"source\"", "id=\"tab-totals\"", "id=\"fig-level-D1\""})
        EXPECT_NE(page.find(id), std::string::npos) << id;
    EXPECT_EQ(page.find("id=\"regions\""), std::string::npos);  // no region profile in the fixture
    EXPECT_EQ(page.find("<?xml"), std::string::npos);           // inline SVG without XML declarations
    // D1 of the fixture: read refs 10, misses 3 (hits 7), write refs 5, misses 1 (hits 4).
    EXPECT_NE(page.find("<td>D1</td><td>read</td><td class=\"num\">10</td><td class=\"num\">7</td>"
                        "<td class=\"num\">3</td><td class=\"num\">30.00%</td>"),
              std::string::npos);
}

}  // namespace
