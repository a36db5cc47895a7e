// ompsim-report histogram FILE NAME [--level=L] [--svg=OUT.svg] [--format=text|csv]
//
// Where inside one data structure the accesses hit and miss: one row per
// histogram bucket (zero buckets included, which the document leaves out)
// with read hits, read misses, write hits and write misses at one cache
// level, and a bar. --svg also draws the grouped bar chart of the EP-Cache
// paper's figure 3 (HistogramSvg.cpp).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

using u128 = unsigned __int128;

const size_t kBarWidth = 40;

// ceil(a / b) without overflow for the products of offsets and bins.
u128 ceil_div(u128 a, u128 b) { return (a + b - 1) / b; }

// The byte offsets (inside one block of `size` bytes) that fall in bucket i.
void bucket_offsets(const sir::DataHistogram& h, uint64_t size, HistogramRow& row) {
    u128 first, end;  // [first, end)
    if (h.by_bins()) {
        // bucket = offset * bins / size  <=>  offset in [ceil(i*size/bins), ceil((i+1)*size/bins))
        first = ceil_div(u128(row.index) * size, h.bins);
        end = ceil_div(u128(row.index + 1) * size, h.bins);
    } else {
        first = u128(row.index) * h.bucket_bytes;
        end = first + h.bucket_bytes;
        // The last bucket ends with the (largest) block.
        if (size > first && end > size) end = size;
    }
    row.has_offsets = end > first && end - 1 <= UINT64_MAX;
    if (row.has_offsets) {
        row.first_offset = static_cast<uint64_t>(first);
        row.last_offset = static_cast<uint64_t>(end - 1);
    }
}

void add_counts(HistogramRow& row, const LevelCounts& c) {
    row.read_hits = c.read_hits();
    row.read_misses = c.read_misses;
    row.write_hits = c.write_hits();
    row.write_misses = c.write_misses;
}

// The bar of a row: its four counts as runs of r, R, w, W, the longest row
// kBarWidth characters. Run ends are rounded from the running sums, so the
// bar is as long as the rounded total.
std::string bar(const HistogramRow& row, uint64_t max_total) {
    if (max_total == 0) return "";
    const uint64_t parts[4] = {row.read_hits, row.read_misses, row.write_hits, row.write_misses};
    const char marks[4] = {'r', 'R', 'w', 'W'};
    std::string out;
    u128 sum = 0;
    for (int k = 0; k < 4; ++k) {
        sum += parts[k];
        size_t end = static_cast<size_t>((sum * kBarWidth * 2 + max_total) / (u128(max_total) * 2));
        out.append(end - out.size(), marks[k]);
    }
    return out;
}

std::string hex(uint64_t v) { return fmt::format("0x{:x}", v); }

std::string describe_structure(const sir::DataStructure& s) {
    std::string out;
    if (s.kind == "heap") {
        out += field_line("Data structure", fmt::format("{} (heap site, allocated at {})", s.name, location_text(s)));
        if (s.site) out += field_line("Site", *s.site);
        out += field_line("Blocks", fmt::format("{} allocated, {} bytes in all, the largest {}", commas(s.blocks),
                                                commas(s.bytes), size_text(s.size)));
    } else {
        out += field_line("Data structure", fmt::format("{} ({}, declared at {})", s.name, s.kind, location_text(s)));
        out += field_line("Address", fmt::format("{}, {}", hex(s.address), size_text(s.size)));
    }
    return out;
}

std::string describe_histogram(const sir::DataHistogram& h, const sir::DataStructure& s) {
    std::string block = s.kind == "heap" ? fmt::format("; offsets in a block of {}", size_text(s.size)) : "";
    if (h.by_bins())
        return fmt::format("{} portions of {} (bins mode){}", h.bins, s.kind == "heap" ? "each block" : "the structure",
                           block);
    return fmt::format("{} buckets of {} bytes (lines mode){}", h.buckets, commas(h.bucket_bytes), block);
}

const sir::DataHistogram& histogram_of(const sir::DataStructure& s) {
    if (!s.counted)
        throw Error(fmt::format("data structure '{}' ({}) was not counted: the monitor had no free slot for it "
                                "(see --monitor-slots), so it has no histogram",
                                s.name, location_text(s)));
    if (!s.histogram)
        throw Error(fmt::format("data structure '{}' ({}) has no histogram: run the tool with --histogram-lines=K "
                                "or --histogram-bins=N",
                                s.name, location_text(s)));
    return *s.histogram;
}

}  // namespace

std::vector<HistogramRow> histogram_rows(const sir::DataStructures& ds, const sir::DataStructure& s, int level) {
    const sir::DataHistogram& h = histogram_of(s);
    std::vector<HistogramRow> rows(h.size());
    for (uint32_t i = 0; i < h.size(); ++i) {
        rows[i].index = i;
        bucket_offsets(h, s.size, rows[i]);
    }
    // The document leaves zero buckets out; the rows above stay zero for them.
    for (const sir::DataBucket& b : h.entries) add_counts(rows[b.index], level_counts(ds, b.costs, level));
    return rows;
}

std::string histogram_text(const sir::Document& doc, const sir::DataStructure& s, int level,
                           const std::vector<HistogramRow>& rows) {
    const std::string cache = level_name(doc, level);
    std::string out = describe_structure(s);
    out += field_line("Histogram", describe_histogram(histogram_of(s), s));
    out += field_line("Level", fmt::format("{} (hits = references reaching {} - {} misses)", cache, cache, cache));
    const bool addresses = s.kind != "heap";
    Table t;
    t.column("Bucket", Table::kRight);
    t.column("Offsets", Table::kLeft);
    if (addresses) t.column("Addresses", Table::kLeft);
    t.column("Read hits", Table::kRight);
    t.column("Read misses", Table::kRight);
    t.column("Write hits", Table::kRight);
    t.column("Write misses", Table::kRight);
    t.column("Chart", Table::kLeft);
    uint64_t max_total = 0;
    for (const HistogramRow& r : rows) max_total = std::max(max_total, r.total());
    for (const HistogramRow& r : rows) {
        std::vector<std::string> cells = {std::to_string(r.index)};
        cells.push_back(r.has_offsets ? fmt::format("{}-{}", r.first_offset, r.last_offset) : "-");
        if (addresses)
            cells.push_back(r.has_offsets ? hex(s.address + r.first_offset) + "-" + hex(s.address + r.last_offset)
                                          : "-");
        for (uint64_t v : {r.read_hits, r.read_misses, r.write_hits, r.write_misses}) cells.push_back(commas(v));
        cells.push_back(bar(r, max_total));
        t.row(cells);
    }
    out += "\n" + t.render() + "\n";
    if (max_total == 0) out += "Chart: every bucket is empty at this level.\n";
    else
        out += fmt::format("Chart: r read hits, R read misses, w write hits, W write misses; {} characters = {} events\n",
                           kBarWidth, commas(max_total));
    return out;
}

std::string histogram_csv(const std::vector<HistogramRow>& rows) {
    std::string out = "bucket,first_offset,last_offset,read_hits,read_misses,write_hits,write_misses\n";
    for (const HistogramRow& r : rows) {
        out += std::to_string(r.index) + ",";
        out += r.has_offsets ? fmt::format("{},{}", r.first_offset, r.last_offset) : ",";
        out += fmt::format(",{},{},{},{}\n", r.read_hits, r.read_misses, r.write_hits, r.write_misses);
    }
    return out;
}

void run_histogram(const HistogramOptions& o, std::ostream& out) {
    if (o.format != "text" && o.format != "csv") throw Error("--format must be text or csv, not '" + o.format + "'");
    sir::Document doc = load_document(o.path);
    const sir::DataStructures& ds = data_structures_of(doc, o.path);
    int level = parse_level(doc, o.level);
    const sir::DataStructure& s = ds.structures[find_structure(ds, o.name)];
    std::vector<HistogramRow> rows = histogram_rows(ds, s, level);
    if (!o.svg.empty()) write_file(o.svg, histogram_svg(doc, s, level, rows));
    out << (o.format == "csv" ? histogram_csv(rows) : histogram_text(doc, s, level, rows));
}

void add_histogram_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<HistogramOptions>();
    CLI::App* cmd = app.add_subcommand(
        "histogram", "Hits and misses per part of one data structure (needs --histogram-lines or --histogram-bins)");
    cmd->add_option("FILE", o->path, "Profile document")->required();
    cmd->add_option("NAME", o->name,
                    "The data structure: its name, NAME@FILE:LINE when the name is ambiguous, or #INDEX "
                    "(the # column of 'arrays')")
        ->required();
    cmd->add_option("--level", o->level, "Cache level: a number or a data cache name (default 1)")
        ->type_name("N|D1|L2|LL");
    cmd->add_option("--svg", o->svg, "Also write the chart as a standalone SVG file")->type_name("OUT.svg");
    cmd->add_option("--format", o->format, "Output format: text (default, a table with bars) or csv")
        ->type_name("text|csv")
        ->check(CLI::IsMember({"text", "csv"}).description(""));
    cmd->footer(
        "Hits at level L = references reaching L - misses at L (references reaching\n"
        "level 1: every reference; level L > 1: the misses of level L-1).");
    cmd->callback([o, &action] {
        action = [o] {
            run_histogram(*o, std::cout);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
