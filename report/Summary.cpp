// ompsim-report summary FILE: the run, the machine, the program totals, the
// cache statistics and the hottest functions and lines, as readable tables.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

const int kHottest = 10;
const char* const kKindNames[4] = {"fetch", "read", "write", "writeback"};

std::string status_text(const sir::Run& run) {
    if (run.termination == "signal") {
        const char* name = run.signal > 0 ? strsignal(run.signal) : nullptr;
        return fmt::format("incomplete: killed by signal {}{}", run.signal,
                           name ? fmt::format(" ({})", name) : std::string());
    }
    if (run.termination == "dump")
        return fmt::format("incomplete: intermediate dump ({} earlier dump{})", run.dump, run.dump == 1 ? "" : "s");
    std::string s = fmt::format("{}: exit status {}", run.complete ? "complete" : "incomplete", run.exit_status);
    if (run.termination != "exit") s += " (termination " + run.termination + ")";
    return s;
}

void print_run(const sir::Document& doc, std::ostream& out) {
    out << heading("Run");
    out << field_line("Command", command_text(doc.run));
    out << field_line("Status", status_text(doc.run));
    out << field_line("Label", doc.run.label);
    out << field_line("Deterministic", doc.run.deterministic ? "yes" : "no");
    out << field_line("Tool version", doc.tool_version.empty() ? "-" : doc.tool_version);
}

void print_machine(const sir::Document& doc, std::ostream& out) {
    const sir::Machine& m = doc.machine;
    out << "\n" << heading("Machine");
    out << field_line("Name", m.name);
    out << field_line("Model", fmt::format("{}, {} level{}{}{}", m.model, m.levels, m.levels == 1 ? "" : "s",
                                           m.split_l1 ? ", split L1" : ", unified L1",
                                           m.icache ? "" : ", no instruction cache"));
    out << field_line("CPI", m.cpi);
    out << field_line("Memory latency", fmt::format("{} cycles", m.memory_latency));
    if (m.random_seed) out << field_line("Random seed", std::to_string(m.random_seed));
    Table t;
    t.column("Cache", Table::kLeft);
    t.column("Level", Table::kRight);
    t.column("Side", Table::kLeft);
    t.column("Size", Table::kRight);
    t.column("Assoc", Table::kRight);
    t.column("Line", Table::kRight);
    t.column("Sets", Table::kRight);
    t.column("Replacement", Table::kLeft);
    t.column("Write policy", Table::kLeft);
    t.column("Inclusion", Table::kLeft);
    t.column("Latency", Table::kRight);
    for (const auto& c : m.caches)
        t.row({c.name, std::to_string(c.level), c.side, size_text(c.size), std::to_string(c.assoc),
               std::to_string(c.line_size), commas(c.sets), c.replacement, c.write_policy, c.inclusion,
               std::to_string(c.latency)});
    out << "\n" << t.render();
}

void print_totals(const sir::Document& doc, std::ostream& out) {
    out << "\n" << heading("Program totals");
    const std::pair<const char*, const char*> shown[] = {
        {"Ir", "Instructions"}, {"Dr", "Data reads"}, {"Dw", "Data writes"}, {"Cycles", "Cycles"}};
    for (const auto& s : shown) {
        int i = doc.event_index(s.first);
        if (i >= 0) out << field_line(s.second, commas(doc.totals[i]));
    }
    // Every event on one table, so that the miss counts are there too.
    Table t;
    t.column("Event", Table::kLeft);
    t.column("Total", Table::kRight);
    for (size_t i = 0; i < doc.events.size(); ++i) t.row({doc.events[i], commas(doc.totals[i])});
    out << "\n" << t.render();
}

void print_cache_stats(const sir::Document& doc, std::ostream& out) {
    out << "\n" << heading("Cache levels");
    std::map<std::string, int> level_of;
    for (const auto& c : doc.machine.caches) level_of[c.name] = c.level;
    Table refs;
    refs.column("Cache", Table::kLeft);
    refs.column("Level", Table::kRight);
    refs.column("Kind", Table::kLeft);
    refs.column("Refs", Table::kRight);
    refs.column("Misses", Table::kRight);
    refs.column("Miss rate", Table::kRight);
    bool extra = false;
    for (const auto& s : doc.cache_stats) {
        auto lv = level_of.find(s.name);
        std::string level = lv == level_of.end() ? "-" : std::to_string(lv->second);
        for (int k = 0; k < 4; ++k) {
            if (s.refs[k] == 0) continue;
            refs.row({s.name, level, kKindNames[k], commas(s.refs[k]), commas(s.misses[k]),
                      fmt::format("{:.2f}%", static_cast<double>(static_cast<long double>(s.misses[k]) * 100 / s.refs[k]))});
        }
        if (s.back_invalidations || s.victims_in) extra = true;
    }
    if (!refs.empty()) out << refs.render() << "\n";
    Table ev;
    ev.column("Cache", Table::kLeft);
    ev.column("Evictions", Table::kRight);
    ev.column("Write-backs", Table::kRight);
    if (extra) {
        ev.column("Back-invalidations", Table::kRight);
        ev.column("Victims in", Table::kRight);
    }
    for (const auto& s : doc.cache_stats) {
        std::vector<std::string> r = {s.name, commas(s.evictions), commas(s.writebacks)};
        if (extra) {
            r.push_back(commas(s.back_invalidations));
            r.push_back(commas(s.victims_in));
        }
        ev.row(r);
    }
    out << ev.render() << "\n";
    out << field_line("Memory reads", commas(doc.memory_reads));
    out << field_line("Memory writes", commas(doc.memory_writes));
}

// The columns of the hot-spot tables: the rank event, Ir and the level-1
// data misses (those present).
std::vector<int> hot_columns(const sir::Document& doc) {
    std::vector<int> cols = {rank_event(doc)};
    for (const char* name : {"Ir", "D1mr", "D1mw"}) {
        int i = doc.event_index(name);
        if (i >= 0 && std::find(cols.begin(), cols.end(), i) == cols.end()) cols.push_back(i);
    }
    return cols;
}

void print_hottest(const sir::Document& doc, std::ostream& out) {
    if (doc.events.empty()) return;
    const int rank = rank_event(doc);
    const std::vector<int> cols = hot_columns(doc);
    const uint64_t total = doc.totals[rank];

    auto make_table = [&](const char* last) {
        auto t = std::make_unique<Table>();
        t->column(doc.events[rank], Table::kRight);
        t->column("%", Table::kRight);
        for (size_t c = 1; c < cols.size(); ++c) t->column(doc.events[cols[c]], Table::kRight);
        t->column(last, Table::kLeft);
        return t;
    };
    auto cells = [&](const std::vector<uint64_t>& costs, std::string what) {
        std::vector<std::string> r = {commas(costs[rank]), share_text(costs[rank], total)};
        for (size_t c = 1; c < cols.size(); ++c) r.push_back(commas(costs[cols[c]]));
        r.push_back(std::move(what));
        return r;
    };

    std::vector<FunctionRef> fns = functions_of(doc);
    std::stable_sort(fns.begin(), fns.end(), [&](const FunctionRef& a, const FunctionRef& b) {
        return a.region->costs[rank] > b.region->costs[rank];
    });
    out << "\n" << heading(fmt::format("Hottest functions by {}", doc.events[rank]));
    auto ft = make_table("Function");
    for (size_t i = 0; i < fns.size() && i < size_t(kHottest); ++i)
        ft->row(cells(fns[i].region->costs, fns[i].label()));
    out << (ft->empty() ? std::string("(no functions)\n") : ft->render());

    struct LineRef {
        const sir::File* file;
        const sir::Region* region;
        const sir::Line* line;
    };
    std::vector<LineRef> lines;
    for (const auto& f : doc.files)
        for (const auto& r : f.regions)
            for (const auto& l : r.lines) lines.push_back(LineRef{&f, &r, &l});
    std::stable_sort(lines.begin(), lines.end(),
                     [&](const LineRef& a, const LineRef& b) { return a.line->costs[rank] > b.line->costs[rank]; });
    out << "\n" << heading(fmt::format("Hottest lines by {}", doc.events[rank]));
    auto lt = make_table("Line");
    for (size_t i = 0; i < lines.size() && i < size_t(kHottest); ++i)
        lt->row(cells(lines[i].line->costs,
                      fmt::format("{}:{} ({})", lines[i].file->path, lines[i].line->number, lines[i].region->name)));
    out << (lt->empty() ? std::string("(no lines)\n") : lt->render());
}

}  // namespace

void run_summary(const std::string& path, std::ostream& out) {
    sir::Document doc = load_document(path);
    out << field_line("Profile", path);
    out << "\n";
    print_run(doc, out);
    print_machine(doc, out);
    print_totals(doc, out);
    print_cache_stats(doc, out);
    print_hottest(doc, out);
}

void add_summary_command(CLI::App& app, Action& action) {
    auto path = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand(
        "summary", "The run, the machine, the program totals, the cache statistics and the hottest functions and lines");
    cmd->add_option("FILE", *path, "Profile document (ompsim.out.<pid>.xml)")->required();
    cmd->callback([path, &action] {
        action = [path] {
            run_summary(*path, std::cout);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
