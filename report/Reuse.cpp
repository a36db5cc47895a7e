// ompsim-report reuse FILE NAME [--format=text|csv]
//
// The reuse-distance histogram of one data structure of a
// --reuse-distance=yes run, and the miss-ratio curve it implies for fully
// associative LRU caches of 1, 2, 4, ... lines (docs/ompsim-report.md):
// how large a cache the structure's accesses need.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

struct ReuseOptions {
    std::string path, name, format = "text";
};

std::string range_text(const sir::ReuseBin& b) {
    return b.min == b.max ? commas(b.min) : commas(b.min) + " - " + commas(b.max);
}

std::string percent(uint64_t part, uint64_t whole) {
    return whole ? fmt::format("{:.2f}%", static_cast<double>(part) * 100 / static_cast<double>(whole)) : "-";
}

std::string reuse_text(const sir::DataStructure& s, const sir::ReuseDistance& r) {
    std::string out;
    out += field_line("Structure", fmt::format("{} ({}, {})", s.name, s.kind, location_text(s)));
    out += field_line("References", fmt::format("{} (cold: {}, {})", commas(r.accesses), commas(r.cold),
                                                percent(r.cold, r.accesses)));
    out += field_line("Line size", fmt::format("{} B", r.line_size));
    out += "\n" + heading("Reuse distances (distinct lines between two references to a line)");
    Table h;
    h.column("Distance (lines)", Table::kRight);
    h.column("References", Table::kRight);
    h.column("%", Table::kRight);
    for (const auto& b : r.bins) h.row({range_text(b), commas(b.count), percent(b.count, r.accesses)});
    h.row({"cold", commas(r.cold), percent(r.cold, r.accesses)});
    out += h.render();
    out += "\n" + heading("Miss-ratio curve (fully associative LRU cache of C lines)");
    Table c;
    c.column("Lines", Table::kRight);
    c.column("Bytes", Table::kRight);
    c.column("Misses", Table::kRight);
    c.column("Miss ratio", Table::kRight);
    for (const auto& p : r.curve())
        c.row({commas(p.lines), size_text(p.lines * r.line_size), commas(p.misses), percent(p.misses, r.accesses)});
    out += c.render();
    out += "A cache of C lines misses the cold references and those at distance C or more.\n";
    return out;
}

std::string reuse_csv(const sir::ReuseDistance& r) {
    std::string out = "lines,bytes,misses,miss_ratio\n";
    for (const auto& p : r.curve())
        out += fmt::format("{},{},{},{:.6f}\n", p.lines, p.lines * r.line_size, p.misses, p.ratio);
    return out;
}

}  // namespace

void add_reuse_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<ReuseOptions>();
    CLI::App* cmd = app.add_subcommand(
        "reuse", "The reuse-distance histogram and miss-ratio curve of a data structure (--reuse-distance=yes)");
    cmd->add_option("FILE", o->path, "Profile document")->required();
    cmd->add_option("NAME", o->name, "Structure: its name, NAME@FILE:LINE or #INDEX (as 'arrays' lists them)")
        ->required();
    cmd->add_option("--format", o->format, "text (default): both tables; csv: the miss-ratio curve")
        ->type_name("text|csv")
        ->check(CLI::IsMember({"text", "csv"}).description(""));
    cmd->callback([o, &action] {
        action = [o] {
            sir::Document doc = load_document(o->path);
            const sir::DataStructures& ds = data_structures_of(doc, o->path);
            const sir::DataStructure& s = ds.structures[find_structure(ds, o->name)];
            if (!s.reuse)
                throw Error(o->path + ": structure '" + s.name +
                            "' has no reuse distances (run the tool with --reuse-distance=yes; uncounted or "
                            "unreferenced structures have none)");
            std::cout << (o->format == "csv" ? reuse_csv(*s.reuse) : reuse_text(s, *s.reuse));
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
