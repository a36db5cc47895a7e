// The helpers of ompsim-report (report/Report.h): number formatting, limits,
// CSV quoting, tables, the exports of a small in-memory document, the parts
// of multi-core runs (determinism, cores, false-sharing findings), the
// prefetchers and data TLBs (tests/sir/prefetch-tlb.xml), and the
// region profile (the regions and flow commands, on tests/sir/regions.xml,
// read from $OMPSIM_SRCDIR, and on in-memory profiles).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <cstdlib>
#include <sstream>
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

// ------------------------------------------------------------ multi-core runs

// small_document() on 2 cores: 2 threads (one not OpenMP's), the coherence
// totals, cores with D1 coherence counters, and structures with Dcm Dfs.
sir::Document multicore_document() {
    sir::Document d = structures_document();
    d.run.determinism = sir::Determinism{"round-robin", 1000, "no", 2, {}};
    d.machine.multicore = sir::MultiCore{2, 1, "mesi", 65, 30};
    d.coherence = sir::CoherenceTotals{9, 4, 5, 3, 2};
    sir::Thread t0, t1;
    t0.valgrind_tid = 1;
    t0.costs = {20, 2, 200};
    t1.id = 1;
    t1.valgrind_tid = 3;
    t1.omp_thread = sir::kNotOpenMP;
    t1.core = 1;
    t1.costs = {10, 1, 82};
    d.threads = std::vector<sir::Thread>{t0, t1};
    sir::Core c0, c1;
    c0.instructions = 20;
    c0.cycles = 300;
    c0.busy_cycles = 200;
    c0.wait_cycles = 100;
    sir::CoreCacheStats i1, d1;
    i1.stats.name = "I1";
    d1.stats.name = "D1";
    d1.coherence = sir::CacheCoherence{6, 3, 2, 3, 1, 2, 2};
    c0.cache_stats = {i1, d1};
    c1 = c0;
    c1.id = 1;
    c1.instructions = 10;
    c1.cache_stats[1].coherence = sir::CacheCoherence{3, 1, 3, 2, 2, 1, 0};
    d.cores = std::vector<sir::Core>{c0, c1};
    sir::DataStructures& ds = *d.data_structures;
    ds.events.push_back("Dcm");
    ds.events.push_back("Dfs");
    const uint64_t coherence[4][2] = {{2, 1}, {4, 3}, {0, 0}, {5, 3}};  // grid, make_list, table, grid (b.c)
    for (size_t i = 0; i < ds.structures.size(); ++i) {
        sir::DataStructure& s = ds.structures[i];
        s.costs.push_back(coherence[i][0]);
        s.costs.push_back(coherence[i][1]);
        for (auto& t : s.threads) t.costs.resize(8, 0);
        if (s.histogram)
            for (auto& b : s.histogram->entries) b.costs.resize(8, 0);
    }
    return d;
}

TEST(ReportMulticore, DeterminismText) {
    sir::Run run;
    EXPECT_EQ(determinism_text(run), "yes");
    run.deterministic = false;
    EXPECT_EQ(determinism_text(run), "no");
    run.determinism = sir::Determinism{"round-robin", 1000, "no", 4, {}};
    EXPECT_EQ(determinism_text(run), "NO (round-robin, quantum 1000; no reason recorded)");
    run.determinism->reasons = {"stream buffer of thread 2 full", "thread 3 blocked in read()"};
    EXPECT_EQ(determinism_text(run), "NO: stream buffer of thread 2 full\n"
                                     "                      thread 3 blocked in read()");
    run.deterministic = true;
    run.determinism->reasons.clear();
    run.determinism->quantum = 100000;
    EXPECT_EQ(determinism_text(run), "yes (round-robin, quantum 100000)");
}

TEST(ReportMulticore, CoreCoherenceSumsThePrivateCaches) {
    sir::Document d = multicore_document();
    sir::Core c = (*d.cores)[0];
    c.cache_stats[0].coherence = sir::CacheCoherence{1, 1, 1, 1, 1, 1, 1};
    sir::CacheCoherence k = core_coherence(c);
    EXPECT_EQ(k.coherence_misses, 7u);
    EXPECT_EQ(k.false_sharing_misses, 4u);
    EXPECT_EQ(k.invalidations_received, 3u);
    EXPECT_EQ(k.invalidations_sent, 4u);
    EXPECT_EQ(k.c2c_in, 2u);
    EXPECT_EQ(k.c2c_out, 3u);
    EXPECT_EQ(k.upgrades, 3u);
    EXPECT_EQ(core_coherence(sir::Core{}).coherence_misses, 0u);
}

TEST(ReportMulticore, FalseSharingFindings) {
    sir::Document d = multicore_document();
    const sir::DataStructures& ds = *d.data_structures;
    // Most false-sharing misses first, ties in document order; duplicate names located.
    std::vector<FalseSharing> f = false_sharing_of(ds);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].index, 1u);
    EXPECT_EQ(f[0].name, "make_list");
    EXPECT_EQ(f[1].index, 3u);
    EXPECT_EQ(f[1].name, "grid@/src/b.c:7");
    EXPECT_EQ(f[2].name, "grid@/src/a.c:2");
    EXPECT_EQ(findings(d), (std::vector<std::string>{
                               "false sharing: make_list 3 false-sharing misses of 4 coherence misses",
                               "false sharing: grid@/src/b.c:7 3 false-sharing misses of 5 coherence misses",
                               "false sharing: grid@/src/a.c:2 1 false-sharing misses of 2 coherence misses"}));
    // No false sharing anywhere (coherence misses are not enough).
    for (auto& s : d.data_structures->structures) s.costs.back() = 0;
    EXPECT_EQ(findings(d), (std::vector<std::string>{"no false sharing detected"}));
    // Without the columns (or the section) the summary says nothing.
    EXPECT_TRUE(findings(structures_document()).empty());
    EXPECT_TRUE(findings(small_document()).empty());
    EXPECT_TRUE(false_sharing_of(*structures_document().data_structures).empty());
    // Names: empty, or shared by a structure without a location.
    sir::DataStructures named = *multicore_document().data_structures;
    named.structures[1].name = "";
    named.structures[0].file = "";
    EXPECT_EQ(structure_display_name(named, 1), "#1");
    EXPECT_EQ(structure_display_name(named, 0), "#0");
    EXPECT_EQ(structure_display_name(named, 2), "table");
}

TEST(ReportMulticore, LevelsIgnoreTheCoherenceColumns) {
    sir::Document d = multicore_document();
    const sir::DataStructures& ds = *d.data_structures;
    EXPECT_TRUE(ds.has_coherence());
    EXPECT_EQ(ds.level_columns(), 6u);
    EXPECT_EQ(data_levels(ds), 2);
    EXPECT_EQ(parse_level(d, "LL"), 2);
    LevelCounts c2 = level_counts(ds, ds.structures[0].costs, 2);
    EXPECT_EQ(c2.read_refs, 40u);
    EXPECT_EQ(c2.write_misses, 1u);
}

TEST(ReportMulticore, JsonExport) {
    auto j = nlohmann::json::parse(export_json(multicore_document()));
    EXPECT_EQ(j["run"]["determinism"]["scheduler"], "round-robin");
    EXPECT_EQ(j["run"]["determinism"]["quantum"], 1000);
    EXPECT_EQ(j["run"]["determinism"]["simulate_runtime"], "no");
    EXPECT_EQ(j["run"]["determinism"]["reasons"].size(), 0u);
    EXPECT_EQ(j["machine"]["cores"], 2);
    EXPECT_EQ(j["machine"]["private_levels"], 1);
    EXPECT_EQ(j["machine"]["coherence"], "mesi");
    EXPECT_EQ(j["machine"]["upgrade_latency"], 30);
    EXPECT_EQ(j["coherence"]["false_sharing_misses"], 4);
    EXPECT_EQ(j["coherence"]["c2c_transfers"], 3);
    EXPECT_EQ(j["threads"][1]["omp_thread"], -1);
    EXPECT_EQ(j["threads"][1]["valgrind_tid"], 3);
    EXPECT_EQ(j["threads"][1]["costs"]["Cycles"], 82);
    EXPECT_EQ(j["cores"][1]["instructions"], 10);
    EXPECT_TRUE(j["cores"][1]["cache_stats"][0]["coherence"].is_null());
    EXPECT_EQ(j["cores"][1]["cache_stats"][1]["coherence"]["invalidations_received"], 3);
    EXPECT_EQ(j["data_structures"]["structures"][1]["costs"]["Dfs"], 3);
    // The keys are there, null, for a single-threaded document.
    auto s = nlohmann::json::parse(export_json(small_document()));
    for (const char* k : {"coherence", "threads", "cores"}) EXPECT_TRUE(s.at(k).is_null()) << k;
    EXPECT_TRUE(s["run"].at("determinism").is_null());
    for (const char* k : {"cores", "private_levels", "coherence", "c2c_latency", "upgrade_latency"})
        EXPECT_TRUE(s["machine"].at(k).is_null()) << k;
}

TEST(ReportMulticore, CsvTables) {
    sir::Document d = multicore_document();
    EXPECT_EQ(export_csv(d, "threads"),
              "thread,valgrind_tid,omp_thread,core,Ir,D1mr,Cycles\n"
              "0,1,0,0,20,2,200\n"
              "1,3,-1,1,10,1,82\n");
    EXPECT_EQ(export_csv(d, "coherence"),
              "coherence_misses,false_sharing_misses,invalidations,c2c_transfers,upgrades\n9,4,5,3,2\n");
    std::string cores = export_csv(d, "cores");
    EXPECT_EQ(cores.substr(0, cores.find('\n')),
              "core,instructions,cycles,busy_cycles,wait_cycles,cache,fetch_refs,fetch_misses,read_refs,read_misses,"
              "write_refs,write_misses,writeback_refs,writeback_misses,evictions,writebacks,back_invalidations,"
              "victims_in,coherence_misses,false_sharing_misses,invalidations_received,invalidations_sent,c2c_in,"
              "c2c_out,upgrades");
    EXPECT_NE(cores.find("\n0,20,300,200,100,I1,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,\n"), std::string::npos) << cores;
    EXPECT_NE(cores.find("\n1,10,300,200,100,D1,0,0,0,0,0,0,0,0,0,0,0,0,3,1,3,2,2,1,0\n"), std::string::npos) << cores;
    EXPECT_EQ(export_csv(d, "lines"), export_csv(d));
    EXPECT_EQ(export_csv(d, ""), export_csv(d));
    const sir::Document plain = small_document();
    EXPECT_EQ(error_of([&] { export_csv(plain, "threads"); }),
              "the document has no threads (a single-threaded run); --table=threads");
    EXPECT_EQ(error_of([&] { export_csv(plain, "cores"); }),
              "the document has no cores (a single-threaded run); --table=cores");
    EXPECT_EQ(error_of([&] { export_csv(plain, "coherence"); }),
              "the document has no coherence totals (a run without cache coherence); --table=coherence");
    EXPECT_EQ(error_of([&] { export_csv(d, "regions"); }),
              "--table must be lines, threads, cores, coherence, prefetch, tlbs, classes, reuse or mrc, not 'regions'");
    std::ostringstream out;
    EXPECT_EQ(error_of([&] { export_document(d, "json", out, "threads"); }),
              "--table applies to --format=csv only (json has every part, callgrind the lines)");
}

// ---------------------------------------------------------- region profile

std::string regions_fixture_path() {
    const char* d = std::getenv("OMPSIM_SRCDIR");
    return std::string(d && *d ? d : ".") + "/tests/sir/regions.xml";
}

// Every line of `text` that `line` is, exactly.
bool has_line(const std::string& text, const std::string& line) {
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l))
        if (l == line) return true;
    return false;
}

TEST(ReportRegions, Labels) {
    sir::ProfRegion r{"R00004", "CRITICAL", "/src/regions.c", "f", 21, 23, ""};
    EXPECT_EQ(region_location(r), "regions.c (21-23)");
    EXPECT_EQ(region_label(r), "R00004 regions.c (21-23) (unnamed)");
    r.name = "lock_a";
    EXPECT_EQ(region_label(r), "R00004 regions.c (21-23) ('lock_a')");
    sir::ProfRegion f{"R00012", "FUNCTION", "", "", 0, 0, "norm"};
    EXPECT_EQ(region_location(f), "???");
    EXPECT_EQ(region_label(f), "R00012 ??? ('norm')");
    sir::ProfRegion l{"R00002", "LOOP", "tour.c", "main", 19, 23, ""};
    EXPECT_EQ(region_label(l), "R00002 tour.c (19-23)");
}

TEST(ReportRegions, ColumnsPerType) {
    using V = std::vector<std::string>;
    EXPECT_EQ(columns_for_type("PARALLEL"), (V{"execT", "execC", "bodyT", "exitBarT", "startupT", "shutdwnT", "taskT"}));
    EXPECT_EQ(columns_for_type("LOOP"), (V{"execT", "execC", "bodyT", "exitBarT"}));
    EXPECT_EQ(columns_for_type("SECTIONS"), (V{"execT", "execC", "bodyT", "exitBarT"}));
    EXPECT_EQ(columns_for_type("SINGLE"), (V{"execT", "execC", "bodyT", "bodyC", "exitBarT"}));
    EXPECT_EQ(columns_for_type("CRITICAL"), (V{"execT", "execC", "bodyT", "enterT", "exitT"}));
    EXPECT_EQ(columns_for_type("ORDERED"), (V{"execT", "execC", "bodyT", "enterT", "exitT"}));
    EXPECT_EQ(columns_for_type("LOCK"), (V{"execT", "execC", "enterT"}));
    for (const char* t : {"BARRIER", "TASKWAIT", "TASKGROUP"})
        EXPECT_EQ(columns_for_type(t), (V{"execT", "execC", "taskT"})) << t;
    for (const char* t : {"MASTER", "TASK", "REDUCTION", "REGION", "FUNCTION"})
        EXPECT_EQ(columns_for_type(t), (V{"execT", "execC"})) << t;
}

// The fixture's call graph, summed over the threads (tests/sir/regions.xml):
// inclusive = execT, exclusive = the node's states, entries = execC.
TEST(ReportRegions, NodeTimesOfTheFixture) {
    sir::Document doc = load_document(regions_fixture_path());
    const sir::RegionProfile& p = region_profile_of(doc, "regions.xml");
    const uint64_t expected[8][3] = {
        {7630 + 7630, 1200 + 2080, 2},                    // root: serial of thread 0, idle of thread 1
        {6130, 300, 1},                                   // compute(), thread 0 only
        {5830 + 5550, (120 + 120 + 180) + (130 + 10), 2}, // the parallel region
        {4050 + 3820, (3800 + 250) + (3800 + 20), 4},     // the loop, twice per thread
        {780 + 1590, 780 + (820 + 770), 4},               // the critical
        {580, 330, 2},                                    // the master (norm() inside)
        {250, 250, 2},                                    // norm() in the master
        {300, 300, 1},                                    // norm() in main
    };
    ASSERT_EQ(p.nodes.size(), 8u);
    uint64_t exclusive = 0;
    for (size_t i = 0; i < 8; ++i) {
        NodeTimes t = node_times(p, p.nodes[i]);
        EXPECT_EQ(t.inclusive, expected[i][0]) << i;
        EXPECT_EQ(t.exclusive, expected[i][1]) << i;
        EXPECT_EQ(t.entries, expected[i][2]) << i;
        exclusive += t.exclusive;
    }
    // The exclusive times add up to the root's inclusive time.
    EXPECT_EQ(exclusive, 15260u);
    EXPECT_EQ(type_of(p, p.nodes[0]), "ROOT");
    EXPECT_EQ(type_of(p, p.nodes[4]), "CRITICAL");
    EXPECT_EQ(program_name(doc), "regions");
}

// The parallel region (node 2): synchronization = thread 1's wait to enter
// the critical (770); imbalance = the loop's exit barriers (250 + 20) and the
// parallel region's (120 + 10); thread management = startup 100 + shutdown 80
// of thread 0; no single, so no limited parallelism.
TEST(ReportRegions, OverheadsOfTheFixture) {
    sir::Document doc = load_document(regions_fixture_path());
    const sir::RegionProfile& p = *doc.region_profile;
    Overheads o = parallel_overheads(p, p.nodes[2]);
    EXPECT_EQ(o.total, 11380u);
    EXPECT_EQ(o.synchronization, 770u);
    EXPECT_EQ(o.imbalance, 400u);
    EXPECT_EQ(o.limited_parallelism, 0u);
    EXPECT_EQ(o.thread_management, 180u);
    EXPECT_EQ(o.sum(), 1350u);
}

// A profile built in memory: one thread; node 1 a PARALLEL with every kind of
// construct below it, and a nested PARALLEL (node 9) whose own barrier and
// critical count for it, not for node 1.
sir::RegionProfile overhead_profile() {
    sir::RegionProfile p;
    p.threads = 1;
    p.columns = {"execT", "execC", "bodyT", "bodyC", "enterT", "exitT", "exitBarT", "startupT", "shutdwnT", "taskT"};
    p.states = {"work", "serial", "explicit-barrier", "taskwait", "overhead", "idle"};
    const char* types[] = {"PARALLEL", "BARRIER", "TASKWAIT", "TASKGROUP", "CRITICAL", "LOCK",
                           "ORDERED",  "LOOP",    "SECTIONS", "SINGLE",    "PARALLEL", "BARRIER", "CRITICAL"};
    for (int i = 0; i < 13; ++i)
        p.regions.push_back(sir::ProfRegion{fmt::format("R{:05}", i + 1), types[i], "o.c", "f", 1, 2, ""});
    auto node = [&](uint32_t id, int region, uint32_t parent, std::vector<uint64_t> columns,
                    std::vector<uint64_t> states) {
        sir::ProfNode n;
        n.id = id;
        n.region = region ? fmt::format("R{:05}", region) : "";
        if (id) n.parent = parent;
        columns.resize(10, 0);
        states.resize(6, 0);
        n.threads = {sir::NodeThread{0, columns, states, {}}};
        return n;
    };
    //                    execT execC bodyT bodyC enterT exitT exitBarT startupT shutdwnT
    p.nodes = {node(0, 0, 0, {0, 1}, {}),
               node(1, 1, 0, {5000, 1, 0, 0, 0, 0, 7, 11, 13}, {}),
               node(2, 2, 1, {100, 1}, {0, 0, 60, 0, 1}),     // BARRIER: 61 exclusive
               node(3, 3, 1, {100, 1}, {0, 0, 0, 50}),        // TASKWAIT: 50
               node(4, 4, 1, {100, 1}, {40}),                 // TASKGROUP: 40
               node(5, 5, 1, {100, 1, 0, 0, 3}, {}),          // CRITICAL enterT 3
               node(6, 6, 1, {100, 1, 0, 0, 5}, {}),          // LOCK enterT 5
               node(7, 7, 1, {100, 1, 0, 0, 17}, {}),         // ORDERED enterT 17
               node(8, 8, 1, {100, 1, 0, 0, 0, 0, 19}, {}),   // LOOP exitBarT 19
               node(9, 11, 1, {900, 1, 0, 0, 0, 0, 23, 29, 31}, {}),  // nested PARALLEL
               node(10, 9, 1, {100, 1, 0, 0, 0, 0, 37}, {}),  // SECTIONS exitBarT 37
               node(11, 10, 1, {100, 1, 0, 0, 0, 0, 41}, {}), // SINGLE exitBarT 41
               node(12, 12, 9, {100, 1}, {0, 0, 43}),         // BARRIER in the nested one
               node(13, 13, 12, {100, 1, 0, 0, 47}, {})};     // CRITICAL below that barrier
    return p;
}

TEST(ReportRegions, OverheadsOfEveryKind) {
    sir::RegionProfile p = overhead_profile();
    Overheads outer = parallel_overheads(p, p.nodes[1]);
    EXPECT_EQ(outer.total, 5000u);
    EXPECT_EQ(outer.synchronization, 61u + 50 + 40 + 3 + 5 + 17);
    EXPECT_EQ(outer.imbalance, 7u + 19 + 37);
    EXPECT_EQ(outer.limited_parallelism, 41u);
    EXPECT_EQ(outer.thread_management, 11u + 13);
    Overheads inner = parallel_overheads(p, p.nodes[9]);
    EXPECT_EQ(inner.total, 900u);
    EXPECT_EQ(inner.synchronization, 43u + 47);
    EXPECT_EQ(inner.imbalance, 23u);
    EXPECT_EQ(inner.limited_parallelism, 0u);
    EXPECT_EQ(inner.thread_management, 29u + 31);
}

TEST(ReportRegions, NoRegionProfile) {
    sir::Document doc;
    try {
        region_profile_of(doc, "a.xml");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "a.xml: no region profile (run the program under ompsim with OpenMP, "
                               "OMPSIM_REGION_BEGIN or -finstrument-functions)");
    }
}

// The text of the fixture, line by line where it counts (values derived in
// the comments of NodeTimesOfTheFixture and OverheadsOfTheFixture).
TEST(ReportRegions, TextOfTheFixture) {
    RegionsOptions o;
    o.path = regions_fixture_path();
    sir::Document doc = load_document(o.path);
    std::string text = regions_text(doc, o);
    const std::vector<std::string> lines = {
        "Program:          /src/regions 2",
        "Threads:          2",
        "Times:            in simulated cycles (each thread's core clock)",
        "Regions:          6 (8 call-graph nodes)",
        "Run time:         7,630 cycles (the longest thread; 15,260 summed over the threads)",
        "R00001  FUNCTION  regions.c (12-29)  compute            compute",
        "R00004  CRITICAL  regions.c (21-23)  compute._omp_fn.0",
        // the flat profile: each region's columns, D1mr and D2mr by default
        "R00002 regions.c (14-27) PARALLEL",
        "TID   execT  execC   bodyT  exitBarT  startupT  shutdwnT  taskT  D1mr  D2mr",
        "  0   5,830      1   5,530       120       100        80      0   163    39",
        "  1   5,550      1   5,540        10         0         0      0   160    40",
        "SUM  11,380      2  11,070       130       100        80      0   323    79",
        "R00004 regions.c (21-23) (unnamed) CRITICAL",
        "TID  execT  execC  bodyT  enterT  exitT  D1mr  D2mr",
        "  1  1,590      2    820     770      0     8     2",
        "SUM  2,370      4  1,600     770      0    15     3",
        // norm() summed over its two nodes: 250 + 300 cycles, 2 + 1 entries
        "R00006 regions.c (6-10) ('norm') FUNCTION",
        "  0    550      3     5     0",
        // the callgraph
        "Node  Inclusive     (%)  Exclusive    (%)  execC  Type      Region",
        "   0     15,260  100.0%      3,280  21.5%      2  ROOT      [regions: 2 threads]",
        "   1      6,130   40.2%        300   2.0%      1  FUNCTION  |-R00001 regions.c (12-29) ('compute')",
        "   2     11,380   74.6%        560   3.7%      2  PARALLEL  | +-R00002 regions.c (14-27)",
        "   3      7,870   51.6%      7,870  51.6%      4  LOOP      |   |-R00003 regions.c (17-20)",
        "   5        580    3.8%        330   2.2%      2  MASTER    |   +-R00005 regions.c (24-25)",
        "   6        250    1.6%        250   1.6%      2  FUNCTION  |     +-R00006 regions.c (6-10) ('norm')",
        "   7        300    2.0%        300   2.0%      1  FUNCTION  +-R00006 regions.c (6-10) ('norm')",
        // the states: thread 0 works 120 + 3800 + 780 + 330 + 250 cycles
        "     0   5,280   1,800          0               370                 0         0          0              0  "
        "           0       180      0        7,080          550   7,630",
        "     1   4,750       0          0                30                 0         0          0            770  "
        "           0         0  2,080        4,750          800   7,630",
        "   SUM  10,030   1,800          0               400                 0         0          0            770  "
        "           0       180  2,080       11,830        1,350  15,260",
        // the overheads
        "Coverage:         11,380 cycles (74.6%)",
        "   2  R00002  regions.c (14-27)  11,380      1,350  11.9%              770  6.8%        400  3.5%           "
        "         0  0.0%                180  1.6%",
        "   2  R00002  11,380  74.6%      1,350  8.8%              770  5.0%        400  2.6%                    0  "
        "0.0%                180  1.2%",
    };
    for (const std::string& l : lines) EXPECT_TRUE(has_line(text, l)) << "no line '" << l << "' in\n" << text;
    EXPECT_EQ(text.find("per call-graph node"), std::string::npos);

    // --events chooses the event columns; --states-by-node adds a table.
    o.events = "Ir,Cycles";
    o.events_given = true;
    o.states_by_node = true;
    text = regions_text(doc, o);
    EXPECT_TRUE(has_line(text, "TID  execT  execC     Ir  Cycles")) << text;
    EXPECT_TRUE(has_line(text, "  0  4,050      2  3,800       250  2,280   3,800")) << text;  // the loop
    // Per node, summed over the threads: the critical's work 780 + 820 and
    // thread 1's wait; the root's serial code (thread 0) and idle time (thread 1).
    EXPECT_TRUE(has_line(text, "   4  R00004 CRITICAL  1,600       0          0                 0                 "
                               "0         0          0            770             0         0      0        1,600  "
                               "        770  2,370"))
        << text;
    EXPECT_TRUE(has_line(text, "   0  ROOT                 0   1,200          0                 0                 0  "
                               "       0          0              0             0         0  2,080        1,200      "
                               "      0  3,280"))
        << text;
    o.events = "";
    EXPECT_TRUE(has_line(regions_text(doc, o), "TID  execT  execC  bodyT  exitBarT"));
    o.events = "Ir,D9mr";
    EXPECT_THROW(regions_text(doc, o), Error);
}

TEST(ReportFlow, ThreadGroups) {
    EXPECT_EQ(thread_groups({{0, 1}}), "0|1");
    EXPECT_EQ(thread_groups({{0, 1}, {1, 1}}), "0-1|2");
    EXPECT_EQ(thread_groups({{0, 2}, {1, 2}, {2, 2}, {3, 2}, {5, 1}}), "0-3|8, 5|1");
    EXPECT_EQ(thread_groups({{0, 2}, {1, 1}, {2, 1}}), "0|2, 1-2|2");
    EXPECT_EQ(thread_groups({{0, 1}, {2, 1}}), "0|1, 2|1");  // not consecutive
    EXPECT_EQ(thread_groups({{0, 18446744073709551615ull}, {1, 18446744073709551615ull}}),
              "0-1|36893488147419103230");
    EXPECT_EQ(thread_groups({}), "");
}

TEST(ReportFlow, FillColor) {
    EXPECT_EQ(fill_color(0, 7870), "#ffffff");
    EXPECT_EQ(fill_color(7870, 7870), "#ff0000");
    EXPECT_EQ(fill_color(3280, 7870), "#ff9595");  // 255 - round(106.28) = 149
    EXPECT_EQ(fill_color(2370, 7870), "#ffb2b2");  // 255 - round(76.79) = 178
    EXPECT_EQ(fill_color(1, 2), "#ff7f7f");        // 127.5 rounds up to 128
    EXPECT_EQ(fill_color(0, 0), "#ffffff");
    EXPECT_EQ(fill_color(18446744073709551615ull, 18446744073709551615ull), "#ff0000");
}

TEST(ReportFlow, ParseLayer) {
    sir::Document doc = load_document(regions_fixture_path());
    const sir::RegionProfile& p = *doc.region_profile;
    EXPECT_EQ(parse_layer(p, "0"), 0u);
    EXPECT_EQ(parse_layer(p, "7"), 7u);
    EXPECT_EQ(parse_layer(p, "R00005"), 5u);
    EXPECT_EQ(parse_layer(p, "R5"), 5u);
    EXPECT_EQ(parse_layer(p, "r000002"), 2u);
    EXPECT_EQ(parse_layer(p, "R00006"), 6u);  // the first of its two nodes
    auto message = [&](const std::string& spec) {
        try {
            parse_layer(p, spec);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message("8"), "--layer 8: no call-graph node 8 (the nodes are 0 to 7; see the Node column of "
                            "'ompsim-report regions')");
    EXPECT_EQ(message("99999999999"), "--layer 99999999999: no call-graph node 99999999999 (the nodes are 0 to 7; "
                                      "see the Node column of 'ompsim-report regions')");
    EXPECT_EQ(message("R00009"), "--layer R00009: no region R00009 (the regions are R00001 to R00006)");
    EXPECT_EQ(message("main"), "--layer must be a call-graph node id (0, 1, ...) or a region id (R00001, ...), not "
                               "'main'");
    EXPECT_EQ(message(""), "--layer must be a call-graph node id (0, 1, ...) or a region id (R00001, ...), not ''");
    EXPECT_EQ(message("-1"), "--layer must be a call-graph node id (0, 1, ...) or a region id (R00001, ...), not '-1'");
    sir::RegionProfile q = p;
    q.regions.push_back(sir::ProfRegion{"R00007", "BARRIER", "", "", 0, 0, ""});
    try {
        parse_layer(q, "R7");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "--layer R7: region R00007 has no call-graph node");
    }
}

// The layer of the parallel region (node 2): it (marked ^: it has a parent)
// and its children, the master marked + (norm() below it); the colours scale
// to the loop's 7,870 exclusive cycles.
TEST(ReportFlow, DotOfALayer) {
    sir::Document doc = load_document(regions_fixture_path());
    EXPECT_EQ(flow_dot(doc, 2u),
              "digraph flow {\n"
              "  graph [fontname=\"Helvetica\", fontsize=10, labelloc=\"t\", label=\"layer of node 2 (R00002 PARALLEL) "
              "and its children; (^): has a parent, (+): has children\\nsolid: control flow (threads|times), dotted: "
              "parent to child; fill: exclusive cycles summed over the threads, white 0 to red 7,870\"];\n"
              "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
              "  edge [fontname=\"Helvetica\", fontsize=9];\n"
              "  n2 [label=\"R00002 (^) PARALLEL\\nregions.c (14-27)\\n560 cycles\", fillcolor=\"#ffeded\"];\n"
              "  n3 [label=\"R00003 LOOP\\nregions.c (17-20)\\n7,870 cycles\", fillcolor=\"#ff0000\"];\n"
              "  n4 [label=\"R00004 CRITICAL\\nregions.c (21-23)\\n2,370 cycles\", fillcolor=\"#ffb2b2\"];\n"
              "  n5 [label=\"R00005 (+) MASTER\\nregions.c (24-25)\\n330 cycles\", fillcolor=\"#fff4f4\"];\n"
              "  n2 -> n3 [style=dotted];\n"
              "  n2 -> n3 [label=\"0-1|2\"];\n"
              "  n4 -> n3 [label=\"1|1\", constraint=false];\n"
              "  n5 -> n3 [label=\"0|1\", constraint=false];\n"
              "  n2 -> n4 [style=dotted];\n"
              "  n3 -> n4 [label=\"0-1|4\", constraint=false];\n"
              "  n2 -> n5 [style=dotted];\n"
              "  n4 -> n5 [label=\"0|2\", constraint=false];\n"
              "}\n");
}

// The whole graph: every node and edge; the root is the program.
TEST(ReportFlow, DotOfTheWholeGraph) {
    sir::Document doc = load_document(regions_fixture_path());
    std::string dot = flow_dot(doc, std::nullopt);
    const std::vector<std::string> lines = {
        "  n0 [label=\"regions\\n2 threads\\n3,280 cycles\", fillcolor=\"#ff9595\"];",
        "  n1 [label=\"R00001 FUNCTION\\nregions.c (12-29) ('compute')\\n300 cycles\", fillcolor=\"#fff5f5\"];",
        "  n6 [label=\"R00006 FUNCTION\\nregions.c (6-10) ('norm')\\n250 cycles\", fillcolor=\"#fff7f7\"];",
        "  n7 [label=\"R00006 FUNCTION\\nregions.c (6-10) ('norm')\\n300 cycles\", fillcolor=\"#fff5f5\"];",
        "  n0 -> n1 [style=dotted];",
        "  n0 -> n1 [label=\"0|1\"];",
        "  n1 -> n2 [label=\"0-1|2\"];",
        "  n5 -> n6 [label=\"0|2\"];",
        "  n0 -> n7 [style=dotted];",
        "  n1 -> n7 [label=\"0|1\", constraint=false];",
    };
    for (const std::string& l : lines) EXPECT_TRUE(has_line(dot, l)) << "no line '" << l << "' in\n" << dot;
    size_t nodes = 0, solid = 0, dotted = 0;
    std::istringstream in(dot);
    for (std::string l; std::getline(in, l);) {
        if (l.find(" [label=\"R0") != std::string::npos || l.rfind("  n0 [", 0) == 0) ++nodes;
        if (l.find("-> n") != std::string::npos && l.find("dotted") != std::string::npos) ++dotted;
        else if (l.find("-> n") != std::string::npos) ++solid;
    }
    EXPECT_EQ(nodes, 8u);
    EXPECT_EQ(dotted, 7u);  // one per node but the root
    EXPECT_EQ(solid, 9u);   // one per (node, predecessor)
    EXPECT_NE(dot.find("label=\"control flow of regions (2 threads)\\n"), std::string::npos);
}

// Names with quotes and backslashes stay inside their DOT string.
TEST(ReportFlow, DotEscapes) {
    sir::Document doc = load_document(regions_fixture_path());
    doc.run.exe = "/bin/a\"b\\c";
    doc.region_profile->regions[0].name = "say \"hi\"\n";
    std::string dot = flow_dot(doc, 0u);
    EXPECT_NE(dot.find("[label=\"a\\\"b\\\\c\\n2 threads"), std::string::npos) << dot;
    EXPECT_NE(dot.find("('say \\\"hi\\\"?')"), std::string::npos) << dot;
}

// ------------------------------------------------------- prefetchers and TLBs

std::string prefetch_tlb_fixture_path() {
    const char* d = std::getenv("OMPSIM_SRCDIR");
    return std::string(d && *d ? d : ".") + "/tests/sir/prefetch-tlb.xml";
}

TEST(ReportPrefetchTlb, LevelsIgnoreTheNewColumns) {
    sir::Document d = load_document(prefetch_tlb_fixture_path());
    const sir::DataStructures& ds = *d.data_structures;
    EXPECT_TRUE(ds.has_prefetch());
    EXPECT_EQ(ds.tlb_levels(), 2);
    EXPECT_EQ(ds.level_columns(), 8u);
    EXPECT_EQ(data_levels(ds), 3);
    EXPECT_EQ(parse_level(d, "LL"), 3);
    LevelCounts c = level_counts(ds, ds.structures[2].costs, 3);  // make_buf at L3
    EXPECT_EQ(c.reads, 1000u);
    EXPECT_EQ(c.writes, 500u);
    EXPECT_EQ(c.read_refs, 40u);
    EXPECT_EQ(c.read_misses, 20u);
    EXPECT_EQ(c.write_refs, 20u);
    EXPECT_EQ(c.write_misses, 10u);
    std::vector<HistogramRow> rows = histogram_rows(ds, ds.structures[2], 1);
    ASSERT_EQ(rows.size(), 16u);
    EXPECT_EQ(rows[3].read_hits, 900u);
    EXPECT_EQ(rows[3].write_misses, 50u);
}

TEST(ReportPrefetchTlb, Summary) {
    std::ostringstream out;
    run_summary(prefetch_tlb_fixture_path(), out);
    const std::string text = out.str();
    const std::vector<std::string> lines = {
        "-- Prefetching",
        "Cache  Prefetchers       Issued  Useful  Polluting  Accuracy  Prefetch refs  Prefetch misses",
        "I1     -                      0       0          0         -              0                0",
        "D1     next-line,stride   1,000     750        200    75.00%          1,000            1,000",
        "L2     stream               400     100        250    25.00%          1,400              600",
        "L3     -                      0       0          0         -            600              240",
        "-- TLBs",
        "DTLB1      1  6,000     300      5.00%",
        "DTLB2      2    300      60     20.00%",
        "Page walks:       60",
        "Walk latency:     30 cycles",
        "Page size:        4 KiB",
        "D1     next-line,stride       2           256       16",
        "L2     stream                 4           256       32",
        "DTLB2      2    2,048     16        7",
        "T1m        300",
        "T2m         60",
    };
    for (const std::string& l : lines) EXPECT_TRUE(has_line(text, l)) << "no line '" << l << "' in\n" << text;
    // A document without prefetchers and TLBs has none of these parts.
    std::ostringstream plain;
    run_summary(regions_fixture_path(), plain);
    for (const char* h : {"-- Prefetching", "-- TLBs", "Page size:", "Walk latency:"})
        EXPECT_EQ(plain.str().find(h), std::string::npos) << h;
}

TEST(ReportPrefetchTlb, JsonExport) {
    auto j = nlohmann::json::parse(export_json(load_document(prefetch_tlb_fixture_path())));
    const auto& d1 = j["machine"]["caches"][1];
    EXPECT_EQ(d1["prefetch"]["prefetchers"], nlohmann::json({"next-line", "stride"}));
    EXPECT_EQ(d1["prefetch"]["degree"], 2);
    EXPECT_EQ(d1["prefetch"]["table"], 256);
    EXPECT_EQ(d1["prefetch"]["streams"], 16);
    EXPECT_TRUE(j["machine"]["caches"][3]["prefetch"].is_null());
    EXPECT_EQ(j["machine"]["tlbs"]["page_size"], 4096);
    EXPECT_EQ(j["machine"]["tlbs"]["walk_latency"], 30);
    EXPECT_EQ(j["machine"]["tlbs"]["levels"][1],
              nlohmann::json({{"name", "DTLB2"}, {"level", 2}, {"entries", 2048}, {"assoc", 16}, {"latency", 7}}));
    EXPECT_EQ(j["cache_stats"][1]["prefetch"],
              nlohmann::json({{"prefetch_refs", 1000}, {"prefetch_misses", 1000}, {"prefetches_issued", 1000},
                              {"prefetches_useful", 750}, {"prefetches_polluting", 200}}));
    EXPECT_EQ(j["tlb_stats"], nlohmann::json::parse(R"([{"name": "DTLB1", "refs": 6000, "misses": 300},
                                                         {"name": "DTLB2", "refs": 300, "misses": 60}])"));
    EXPECT_EQ(j["totals"]["T1m"], 300);
    EXPECT_EQ(j["totals"]["T2m"], 60);
    EXPECT_EQ(j["files"][0]["regions"][1]["lines"][1]["costs"]["T2m"], 8);
    const auto& src = j["data_structures"]["structures"][0];
    EXPECT_EQ(src["costs"]["Dpf"], 600);
    EXPECT_EQ(src["threads"][0]["costs"]["T1m"], 160);
    EXPECT_EQ(src["histogram"]["entries"][1]["costs"]["T2m"], 16);
    // Without prefetchers and TLBs: the keys are there, null.
    auto s = nlohmann::json::parse(export_json(small_document()));
    EXPECT_TRUE(s.at("tlb_stats").is_null());
    EXPECT_TRUE(s["machine"].at("tlbs").is_null());
    auto m = nlohmann::json::parse(export_json(multicore_document()));
    EXPECT_TRUE(m["cores"][0]["cache_stats"][1].at("prefetch").is_null());
}

TEST(ReportPrefetchTlb, CsvTables) {
    const sir::Document d = load_document(prefetch_tlb_fixture_path());
    EXPECT_EQ(export_csv(d, "prefetch"),
              "cache,level,prefetchers,degree,table,streams,prefetch_refs,prefetch_misses,prefetches_issued,"
              "prefetches_useful,prefetches_polluting\n"
              "I1,1,,,,,0,0,0,0,0\n"
              "D1,1,\"next-line,stride\",2,256,16,1000,1000,1000,750,200\n"
              "L2,2,stream,4,256,32,1400,600,400,100,250\n"
              "L3,3,,,,,600,240,0,0,0\n");
    EXPECT_EQ(export_csv(d, "tlbs"),
              "tlb,level,entries,assoc,latency,page_size,walk_latency,refs,misses\n"
              "DTLB1,1,64,4,0,4096,30,6000,300\n"
              "DTLB2,2,2048,16,7,4096,30,300,60\n");
    std::string lines = export_csv(d);
    EXPECT_EQ(lines.substr(0, lines.find('\n')),
              "file,function,line,Ir,I1mr,I2mr,I3mr,Dr,D1mr,D2mr,D3mr,Dw,D1mw,D2mw,D3mw,T1m,T2m,Cycles");
    EXPECT_NE(lines.find("\n/src/stream.c,main,9,1000,4,2,1,0,0,0,0,500,100,40,20,40,8,6908\n"), std::string::npos);
    const sir::Document plain = small_document();
    EXPECT_EQ(error_of([&] { export_csv(plain, "prefetch"); }),
              "the document has no prefetchers (a machine without hardware prefetchers); --table=prefetch");
    EXPECT_EQ(error_of([&] { export_csv(plain, "tlbs"); }),
              "the document has no TLBs (a machine without data TLBs); --table=tlbs");
    // The cores' table: the prefetch counters last, with a prefetcher.
    sir::Document mc = multicore_document();
    EXPECT_EQ(export_csv(mc, "cores").find("prefetch"), std::string::npos);
    sir::Cache d1;
    d1.name = "D1";
    d1.prefetch = sir::CachePrefetch{{"stride"}, 1, 64, 8};
    mc.machine.caches = {d1};
    for (sir::Core& c : *mc.cores)
        for (sir::CoreCacheStats& cs : c.cache_stats) cs.stats.prefetch = sir::PrefetchStats{7, 6, 5, 4, 1};
    (*mc.cores)[1].cache_stats[0].stats.prefetch.reset();
    std::string cores = export_csv(mc, "cores");
    EXPECT_EQ(cores.substr(0, cores.find('\n')),
              "core,instructions,cycles,busy_cycles,wait_cycles,cache,fetch_refs,fetch_misses,read_refs,read_misses,"
              "write_refs,write_misses,writeback_refs,writeback_misses,evictions,writebacks,back_invalidations,"
              "victims_in,coherence_misses,false_sharing_misses,invalidations_received,invalidations_sent,c2c_in,"
              "c2c_out,upgrades,prefetch_refs,prefetch_misses,prefetches_issued,prefetches_useful,"
              "prefetches_polluting");
    EXPECT_NE(cores.find("\n0,20,300,200,100,I1,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,,7,6,5,4,1\n"), std::string::npos) << cores;
    EXPECT_NE(cores.find("\n1,10,300,200,100,I1,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,,,,,,\n"), std::string::npos) << cores;
}

TEST(ReportPrefetchTlb, ArraysColumns) {
    ArraysOptions o;
    o.path = prefetch_tlb_fixture_path();
    std::ostringstream text;
    run_arrays(o, text);
    EXPECT_NE(text.str().find("Prefetch hits  DTLB1 misses  DTLB2 misses\n"), std::string::npos) << text.str();
    o.format = "json";
    o.sort = "prefetch-hits";
    std::ostringstream json;
    run_arrays(o, json);
    auto j = nlohmann::json::parse(json.str());
    ASSERT_EQ(j["structures"].size(), 3u);
    EXPECT_EQ(j["structures"][0]["name"], "src");
    EXPECT_EQ(j["structures"][0]["prefetch_hits"], 600);
    EXPECT_EQ(j["structures"][1]["name"], "dst");
    EXPECT_EQ(j["structures"][1]["dtlb1_misses"], 40);
    EXPECT_EQ(j["structures"][2]["dtlb2_misses"], 12);
    // Null without the columns.
    o.path = std::string(std::getenv("OMPSIM_SRCDIR") ? std::getenv("OMPSIM_SRCDIR") : ".") + "/tests/sir/structures.xml";
    o.sort = "misses";
    std::ostringstream plain;
    run_arrays(o, plain);
    auto p = nlohmann::json::parse(plain.str());
    for (const char* k : {"prefetch_hits", "dtlb1_misses", "dtlb2_misses"})
        EXPECT_TRUE(p["structures"][0].at(k).is_null()) << k;
}

}  // namespace
