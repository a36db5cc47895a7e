// The helpers of ompsim-report (report/Report.h): number formatting, limits,
// CSV quoting, tables and the exports of a small in-memory document.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "Report.h"

using namespace ompsim;
using namespace ompsim::report;

namespace {

TEST(ReportFormat, Commas) {
    EXPECT_EQ(commas(0), "0");
    EXPECT_EQ(commas(30), "30");
    EXPECT_EQ(commas(999), "999");
    EXPECT_EQ(commas(1000), "1,000");
    EXPECT_EQ(commas(123456), "123,456");
    EXPECT_EQ(commas(1234567), "1,234,567");
    EXPECT_EQ(commas(18446744073709551615ull), "18,446,744,073,709,551,615");
}

TEST(ReportFormat, ChangesAndFactors) {
    EXPECT_EQ(signed_change(5, 5), "0");
    EXPECT_EQ(signed_change(1000, 2500), "+1,500");
    EXPECT_EQ(signed_change(7, 2), "-5");
    EXPECT_EQ(signed_change(0, 18446744073709551615ull), "+18,446,744,073,709,551,615");
    EXPECT_EQ(factor_text(3, 4), "1.333");
    EXPECT_EQ(factor_text(0, 4), "inf");
    EXPECT_EQ(factor_text(0, 0), "-");
    EXPECT_EQ(factor_text(4, 0), "0.000");
    EXPECT_EQ(change_percent_text(3, 4), "+33.33%");
    EXPECT_EQ(change_percent_text(200, 197), "-1.50%");
    EXPECT_EQ(change_percent_text(9, 9), "0.00%");
    EXPECT_EQ(change_percent_text(0, 1), "+inf%");
    EXPECT_EQ(change_percent_text(0, 0), "-");
    EXPECT_EQ(share_text(2, 3), "66.7%");
    EXPECT_EQ(share_text(1, 0), "-");
}

TEST(ReportFormat, Sizes) {
    EXPECT_EQ(size_text(32768), "32 KiB");
    EXPECT_EQ(size_text(8u << 20), "8 MiB");
    EXPECT_EQ(size_text(3u << 30), "3 GiB");
    EXPECT_EQ(size_text(96), "96 B");
    EXPECT_EQ(size_text(1536), "1536 B");  // not a whole KiB
    EXPECT_EQ(size_text(0), "0 B");
}

TEST(ReportFormat, CsvField) {
    EXPECT_EQ(csv_field("main"), "main");
    EXPECT_EQ(csv_field("f(a, b)"), "\"f(a, b)\"");
    EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csv_field(""), "");
}

TEST(ReportFormat, SplitListAndCommand) {
    EXPECT_EQ(split_list("Ir, D1mr,,Cycles "), (std::vector<std::string>{"Ir", "D1mr", "Cycles"}));
    EXPECT_TRUE(split_list(" , ").empty());
    sir::Run run;
    run.exe = "/bin/prog";
    run.args = {"-n", "two words", "it's", ""};
    EXPECT_EQ(command_text(run), "/bin/prog -n 'two words' 'it'\\''s' ''");
}

TEST(ReportFormat, Table) {
    Table t;
    t.column("Name", Table::kLeft);
    t.column("Count", Table::kRight);
    t.column("Note", Table::kLeft);
    t.row({"a", "1,000", ""});
    t.row({"longer", "5", "x"});
    EXPECT_EQ(t.render(),
              "Name    Count  Note\n"
              "------  -----  ----\n"
              "a       1,000\n"
              "longer      5  x\n");
}

TEST(ReportLimit, Parse) {
    Limit l;
    std::string err;
    ASSERT_TRUE(parse_limit("D1mr=2%", l, err));
    EXPECT_EQ(l.event, "D1mr");
    EXPECT_TRUE(l.percent);
    EXPECT_EQ(l.value, 2);
    EXPECT_EQ(l.text, "2%");
    ASSERT_TRUE(parse_limit("Ir=1000", l, err));
    EXPECT_FALSE(l.percent);
    EXPECT_EQ(l.value, 1000);
    ASSERT_TRUE(parse_limit("Cycles=0.5%", l, err));
    EXPECT_EQ(l.value, 0.5L);
    for (const char* bad : {"D1mr", "=2%", "D1mr=", "D1mr=%", "D1mr=-1", "D1mr=2%%", "D1mr=1e3", "D1mr=x",
                            "D1mr=2.%", "D1mr=.5"}) {
        EXPECT_FALSE(parse_limit(bad, l, err)) << bad;
        EXPECT_NE(err.find("EVENT=PCT%"), std::string::npos) << err;
    }
}

TEST(ReportLimit, Exceeded) {
    Limit pct;
    std::string err;
    ASSERT_TRUE(parse_limit("D1mr=2%", pct, err));
    EXPECT_FALSE(limit_exceeded(pct, 1000, 1020));  // exactly 2 %
    EXPECT_TRUE(limit_exceeded(pct, 1000, 1021));
    EXPECT_TRUE(limit_exceeded(pct, 3, 4));
    EXPECT_FALSE(limit_exceeded(pct, 4, 3));  // decreases never exceed
    EXPECT_TRUE(limit_exceeded(pct, 0, 1));   // any increase from 0
    EXPECT_FALSE(limit_exceeded(pct, 0, 0));
    Limit abs;
    ASSERT_TRUE(parse_limit("Ir=1000", abs, err));
    EXPECT_FALSE(limit_exceeded(abs, 5000, 6000));
    EXPECT_TRUE(limit_exceeded(abs, 5000, 6001));
    EXPECT_FALSE(limit_exceeded(abs, 6001, 0));
    Limit zero;
    ASSERT_TRUE(parse_limit("Ir=0", zero, err));
    EXPECT_FALSE(limit_exceeded(zero, 7, 7));
    EXPECT_TRUE(limit_exceeded(zero, 7, 8));
}

sir::Document small_document() {
    sir::Document d;
    d.run.exe = "/bin/prog";
    d.machine.name = "teaching";
    d.machine.model = "hierarchy";
    d.events = {"Ir", "D1mr", "Cycles"};
    d.totals = {30, 3, 282};
    sir::File f;
    f.path = "/src/a,b.c";
    sir::Region r;
    r.name = "main";
    r.first_line = 3;
    r.last_line = 7;
    r.costs = {30, 3, 282};
    r.lines = {sir::Line{3, {10, 0, 262}}, sir::Line{7, {20, 3, 20}}};
    f.regions.push_back(r);
    d.files.push_back(f);
    return d;
}

TEST(ReportExport, Csv) {
    EXPECT_EQ(export_csv(small_document()),
              "file,function,line,Ir,D1mr,Cycles\n"
              "\"/src/a,b.c\",main,3,10,0,262\n"
              "\"/src/a,b.c\",main,7,20,3,20\n");
}

TEST(ReportExport, Json) {
    auto j = nlohmann::json::parse(export_json(small_document()));
    EXPECT_EQ(j["totals"]["Ir"], 30);
    EXPECT_EQ(j["totals"]["Cycles"], 282);
    EXPECT_EQ(j["events"].size(), 3u);
    EXPECT_EQ(j["files"][0]["path"], "/src/a,b.c");
    EXPECT_EQ(j["files"][0]["regions"][0]["lines"][1]["number"], 7);
    EXPECT_EQ(j["files"][0]["regions"][0]["lines"][1]["costs"]["D1mr"], 3);
    EXPECT_EQ(j["machine"]["name"], "teaching");
    EXPECT_TRUE(j["run"]["complete"].get<bool>());
}

TEST(ReportExport, Callgrind) {
    std::string cg = export_callgrind(small_document());
    EXPECT_EQ(cg.rfind("# callgrind format\nversion: 1\ncreator: ompsim-report\n", 0), 0u);
    EXPECT_NE(cg.find("\nevents: Ir D1mr Cycles\n"), std::string::npos);
    EXPECT_NE(cg.find("\nfl=/src/a,b.c\nfn=main\n3 10 0 262\n7 20 3 20\n"), std::string::npos);
    EXPECT_NE(cg.find("\nsummary: 30 3 282\n"), std::string::npos);
    EXPECT_NE(cg.find("\ntotals: 30 3 282\n"), std::string::npos);
}

// ------------------------------------------------------------ data structures

// Two levels (D1, L2), a global with a bins histogram, a heap site with a
// lines histogram, an uncounted range, and a global without histogram.
sir::Document structures_document() {
    sir::Document d = small_document();
    sir::Cache d1, l2;
    d1.name = "D1";
    d1.level = 1;
    d1.side = "data";
    l2.name = "L2";
    l2.level = 2;
    l2.side = "unified";
    sir::Cache i1 = d1;
    i1.name = "I1";
    i1.side = "instruction";
    d.machine.caches = {i1, d1, l2};
    sir::DataStructures ds;
    ds.events = {"Dr", "D1mr", "D2mr", "Dw", "D1mw", "D2mw"};
    ds.mode = "bins";
    ds.resolution = 4;
    sir::DataStructure g;
    g.kind = "global";
    g.name = "grid";
    g.file = "/src/a.c";
    g.line = 2;
    g.address = 0x601000;
    g.size = 4096;
    g.costs = {100, 40, 10, 50, 5, 1};
    sir::DataHistogram bins;
    bins.bins = 4;
    bins.entries = {{0, {50, 30, 8, 20, 2, 0}}, {2, {40, 10, 2, 30, 3, 1}}, {3, {10, 0, 0, 0, 0, 0}}};
    g.histogram = bins;
    sir::DataStructure h;
    h.kind = "heap";
    h.name = "make_list";
    h.file = "/src/a.c";
    h.line = 5;
    h.size = 256;
    h.blocks = 3;
    h.site = "make_list (/src/a.c:5) | main (/src/a.c:9)";
    h.costs = {30, 25, 20, 10, 8, 8};
    sir::DataHistogram lines;
    lines.bucket_bytes = 96;
    lines.buckets = 3;
    lines.entries = {{0, {20, 15, 12, 10, 8, 8}}, {1, {10, 10, 8, 0, 0, 0}}};
    h.histogram = lines;
    sir::DataStructure u;
    u.kind = "user";
    u.name = "table";
    u.counted = false;
    u.costs = std::vector<uint64_t>(6, 0);
    sir::DataStructure g2 = g;
    g2.file = "/src/b.c";
    g2.line = 7;
    g2.histogram.reset();
    ds.structures = {g, h, u, g2};
    d.data_structures = ds;
    return d;
}

// The message of the Error `f` throws, "" when it throws none.
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(ReportStructures, Levels) {
    sir::Document d = structures_document();
    EXPECT_EQ(data_levels(*d.data_structures), 2);
    EXPECT_EQ(parse_level(d, "1"), 1);
    EXPECT_EQ(parse_level(d, "D1"), 1);
    EXPECT_EQ(parse_level(d, "l1"), 1);
    EXPECT_EQ(parse_level(d, "L2"), 2);
    EXPECT_EQ(parse_level(d, "LL"), 2);
    EXPECT_EQ(level_name(d, 1), "D1");
    EXPECT_EQ(level_name(d, 2), "L2");
    EXPECT_EQ(level_name(d, 3), "L3");
    EXPECT_EQ(error_of([&] { parse_level(d, "3"); }),
              "--level 3: there is no such level; the data structures were counted at levels 1 to 2 (D1, L2)");
    EXPECT_EQ(error_of([&] { parse_level(d, "0"); }).rfind("--level 0: there is no such level", 0), 0u);
    EXPECT_NE(error_of([&] { parse_level(d, "I1"); }).find("instruction cache"), std::string::npos);
    EXPECT_NE(error_of([&] { parse_level(d, "L12"); }).find("not 'L12'"), std::string::npos);
    EXPECT_NE(error_of([&] { parse_level(d, ""); }).find("not ''"), std::string::npos);
    // A document without the section names it.
    sir::Document plain = small_document();
    EXPECT_EQ(error_of([&] { data_structures_of(plain, "x.xml"); }),
              "x.xml: no data-structures section (run the tool with --monitor=yes)");
}

TEST(ReportStructures, LevelCounts) {
    sir::Document d = structures_document();
    const sir::DataStructures& ds = *d.data_structures;
    LevelCounts c1 = level_counts(ds, {100, 40, 10, 50, 5, 1}, 1);
    EXPECT_EQ(c1.reads, 100u);
    EXPECT_EQ(c1.writes, 50u);
    EXPECT_EQ(c1.read_refs, 100u);
    EXPECT_EQ(c1.read_misses, 40u);
    EXPECT_EQ(c1.read_hits(), 60u);
    EXPECT_EQ(c1.write_refs, 50u);
    EXPECT_EQ(c1.write_hits(), 45u);
    LevelCounts c2 = level_counts(ds, {100, 40, 10, 50, 5, 1}, 2);
    EXPECT_EQ(c2.read_refs, 40u);  // the misses of D1 reach L2
    EXPECT_EQ(c2.read_hits(), 30u);
    EXPECT_EQ(c2.read_misses, 10u);
    EXPECT_EQ(c2.write_hits(), 4u);
    EXPECT_EQ(c2.write_misses, 1u);
}

TEST(ReportStructures, FindStructure) {
    sir::Document d = structures_document();
    const sir::DataStructures& ds = *d.data_structures;
    EXPECT_EQ(find_structure(ds, "make_list"), 1u);
    EXPECT_EQ(find_structure(ds, "grid@/src/b.c:7"), 3u);
    EXPECT_EQ(find_structure(ds, "grid@b.c:7"), 3u);
    EXPECT_EQ(find_structure(ds, "grid@a.c:2"), 0u);
    EXPECT_EQ(find_structure(ds, "#2"), 2u);
    EXPECT_EQ(find_structure(ds, "3"), 3u);
    EXPECT_EQ(error_of([&] { find_structure(ds, "grid"); }),
              "'grid' names 2 data structures: #0 grid@/src/a.c:2 (global), #3 grid@/src/b.c:7 (global); choose one "
              "as NAME@FILE:LINE or #INDEX");
    EXPECT_EQ(error_of([&] { find_structure(ds, "grid@.c:2"); }),
              "no data structure named 'grid@.c:2' (see 'ompsim-report arrays FILE')");
    EXPECT_EQ(error_of([&] { find_structure(ds, "#4"); }), "no data structure #4 (the document has 4, #0 to #3)");
    EXPECT_EQ(location_text(ds.structures[2]), "-");
    // A name that holds '@' and ':' itself wins over the located form.
    sir::DataStructures odd = ds;
    odd.structures[2].name = "x@y:1";
    EXPECT_EQ(find_structure(odd, "x@y:1"), 2u);
}

TEST(ReportStructures, HistogramRowsInBinsMode) {
    sir::Document d = structures_document();
    const sir::DataStructures& ds = *d.data_structures;
    std::vector<HistogramRow> rows = histogram_rows(ds, ds.structures[0], 1);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(histogram_csv(rows),
              "bucket,first_offset,last_offset,read_hits,read_misses,write_hits,write_misses\n"
              "0,0,1023,20,30,18,2\n"
              "1,1024,2047,0,0,0,0\n"
              "2,2048,3071,30,10,27,3\n"
              "3,3072,4095,10,0,0,0\n");
    rows = histogram_rows(ds, ds.structures[0], 2);
    EXPECT_EQ(rows[0].read_hits, 22u);
    EXPECT_EQ(rows[0].read_misses, 8u);
    EXPECT_EQ(rows[2].write_hits, 2u);
    EXPECT_EQ(rows[2].write_misses, 1u);
}

TEST(ReportStructures, HistogramRowsInLinesMode) {
    sir::Document d = structures_document();
    const sir::DataStructures& ds = *d.data_structures;
    std::vector<HistogramRow> rows = histogram_rows(ds, ds.structures[1], 1);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1].first_offset, 96u);
    EXPECT_EQ(rows[1].last_offset, 191u);
    EXPECT_EQ(rows[2].first_offset, 192u);
    EXPECT_EQ(rows[2].last_offset, 255u);  // the last bucket ends with the block
    EXPECT_EQ(rows[0].total(), 30u);  // Dr + Dw of bucket 0
}

// Portion i of a block of S bytes in N bins holds the offsets o with
// o * N / S == i; with S < N some portions hold none.
TEST(ReportStructures, BinsOfSmallAndHugeBlocks) {
    sir::Document d = structures_document();
    sir::DataStructures& ds = *d.data_structures;
    ds.structures[0].size = 3;
    std::vector<HistogramRow> rows = histogram_rows(ds, ds.structures[0], 1);
    // 3 bytes in 4 portions: bytes 0, 1, 2 go to portions 0, 1, 2 (o*4/3 = 0, 1, 2).
    EXPECT_TRUE(rows[0].has_offsets && rows[0].first_offset == 0 && rows[0].last_offset == 0);
    EXPECT_TRUE(rows[1].has_offsets && rows[1].first_offset == 1 && rows[1].last_offset == 1);
    EXPECT_TRUE(rows[2].has_offsets && rows[2].first_offset == 2 && rows[2].last_offset == 2);
    EXPECT_FALSE(rows[3].has_offsets);
    ds.structures[0].size = (1ULL << 48) - 1;  // no overflow in offset * bins
    rows = histogram_rows(ds, ds.structures[0], 1);
    EXPECT_EQ(rows[3].last_offset, (1ULL << 48) - 2);
    EXPECT_EQ(rows[1].first_offset, rows[0].last_offset + 1);
}

TEST(ReportStructures, HistogramNeedsOne) {
    sir::Document d = structures_document();
    const sir::DataStructures& ds = *d.data_structures;
    EXPECT_EQ(error_of([&] { histogram_rows(ds, ds.structures[3], 1); }),
              "data structure 'grid' (/src/b.c:7) has no histogram: run the tool with --histogram-lines=K or "
              "--histogram-bins=N");
    EXPECT_NE(error_of([&] { histogram_rows(ds, ds.structures[2], 1); }).find("was not counted"), std::string::npos);
}

TEST(ReportStructures, HistogramText) {
    sir::Document d = structures_document();
    const sir::DataStructures& ds = *d.data_structures;
    std::string text = histogram_text(d, ds.structures[0], 1, histogram_rows(ds, ds.structures[0], 1));
    EXPECT_NE(text.find("\n     3  3072-4095  0x601c00-0x601fff         10            0           0             0  "
                        "rrrrrr\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("40 characters = 70 events"), std::string::npos) << text;
    // Nothing at all: no bars, a note instead.
    sir::Document empty = d;
    empty.data_structures->structures[0].histogram->entries.clear();
    const sir::DataStructures& e = *empty.data_structures;
    text = histogram_text(empty, e.structures[0], 1, histogram_rows(e, e.structures[0], 1));
    EXPECT_NE(text.find("Chart: every bucket is empty at this level.\n"), std::string::npos) << text;
}

TEST(ReportStructures, HistogramSvg) {
    sir::Document d = structures_document();
    sir::DataStructures& ds = *d.data_structures;
    ds.structures[0].name = "a<b>&\"c\"";
    std::string svg = histogram_svg(d, ds.structures[0], 1, histogram_rows(ds, ds.structures[0], 1));
    EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_NE(svg.find(">a&lt;b&gt;&amp;&quot;c&quot;: D1 accesses by position</text>"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("a<b>"), std::string::npos);
    // One bar per non-zero count: 4 + 4 + 1.
    size_t bars = 0;
    for (size_t at = svg.find("<title>bucket"); at != std::string::npos; at = svg.find("<title>bucket", at + 1)) ++bars;
    EXPECT_EQ(bars, 9u);
    EXPECT_NE(svg.find("<title>bucket 0: 30 read misses</title>"), std::string::npos);
    EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
    // Many buckets are summed into at most 100 groups.
    sir::DataHistogram many;
    many.bucket_bytes = 64;
    many.buckets = 1000;
    for (uint32_t i = 0; i < 1000; ++i) many.entries.push_back({i, {1, 1, 0, 0, 0, 0}});
    ds.structures[0].histogram = many;
    ds.structures[0].size = 64000;
    svg = histogram_svg(d, ds.structures[0], 1, histogram_rows(ds, ds.structures[0], 1));
    EXPECT_NE(svg.find("<title>buckets 0-9: 10 read misses</title>"), std::string::npos);
    EXPECT_NE(svg.find("each group sums about 10 buckets"), std::string::npos);
}

TEST(ReportExport, JsonDataStructures) {
    auto j = nlohmann::json::parse(export_json(structures_document()));
    const auto& ds = j["data_structures"];
    EXPECT_EQ(ds["mode"], "bins");
    EXPECT_EQ(ds["structures"].size(), 4u);
    EXPECT_EQ(ds["structures"][0]["address"], "0x601000");
    EXPECT_EQ(ds["structures"][0]["costs"]["D1mr"], 40);
    EXPECT_EQ(ds["structures"][0]["histogram"]["entries"][1]["index"], 2);
    EXPECT_EQ(ds["structures"][1]["histogram"]["bucket_bytes"], 96);
    EXPECT_EQ(ds["structures"][1]["histogram"]["buckets"], 3);
    EXPECT_TRUE(ds["structures"][2]["histogram"].is_null());
    EXPECT_TRUE(nlohmann::json::parse(export_json(small_document()))["data_structures"].is_null());
}

}  // namespace
