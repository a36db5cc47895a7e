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

}  // namespace
