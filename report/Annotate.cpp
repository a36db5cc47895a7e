// ompsim-report annotate FILE [--source] [--show EV,...] [--threshold PCT]:
// cg_annotate for profile documents. A function table sorted by the first
// shown event; with --source every readable source file of a listed
// function, each line prefixed by its costs ('.' for a zero cost, blank for
// a line without costs), only the parts within `context` lines of a line
// with a cost, "-- line N ---" before each part that does not start the file.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

const std::string kRule(80, '-');

void banner(const std::string& title, std::ostream& out) {
    out << kRule << "\n-- " << title << "\n" << kRule << "\n";
}

std::vector<int> shown_events(const sir::Document& doc, const std::string& show) {
    std::vector<int> out;
    if (show.empty()) {
        for (size_t i = 0; i < doc.events.size(); ++i) out.push_back(int(i));
        return out;
    }
    for (const auto& name : split_list(show)) {
        int i = doc.event_index(name);
        if (i < 0) throw Error(fmt::format("unknown event '{}' in --show; known events: {}", name, join(doc.events)));
        if (std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
    }
    if (out.empty()) throw Error("--show names no event; known events: " + join(doc.events));
    return out;
}

bool above_threshold(const std::vector<uint64_t>& costs, const std::vector<int>& shown,
                     const std::vector<uint64_t>& totals, double threshold) {
    for (int e : shown) {
        if (costs[e] == 0) continue;
        if (static_cast<long double>(costs[e]) * 100 >= static_cast<long double>(threshold) * totals[e]) return true;
    }
    return false;
}

std::string cost_cell(uint64_t cost, uint64_t total) {
    return fmt::format("{} ({})", commas(cost), share_text(cost, total));
}

// Lines of a source file, or false with the reason.
bool read_lines(const std::string& path, std::vector<std::string>& lines, std::string& why) {
    std::ifstream in(path);
    if (!in) {
        why = std::strerror(errno);
        return false;
    }
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    if (in.bad()) {
        why = "read error";
        return false;
    }
    return true;
}

void annotate_file(const sir::File& file, const std::vector<int>& shown, const sir::Document& doc,
                   int context, std::ostream& out) {
    out << "\n";
    if (file.path == "???") {
        out << "-- No source for code without debug information (\"???\")\n";
        return;
    }
    std::vector<std::string> source;
    std::string why;
    if (!read_lines(file.path, source, why)) {
        out << "-- Source file not readable: " << file.path << " (" << why << ")\n";
        return;
    }
    // The costs of every line of the file over all of its regions.
    std::map<uint32_t, std::vector<uint64_t>> costs;
    for (const auto& r : file.regions)
        for (const auto& l : r.lines) {
            auto& c = costs[l.number];
            c.resize(shown.size());
            for (size_t i = 0; i < shown.size(); ++i) c[i] += l.costs[shown[i]];
        }
    std::vector<size_t> width(shown.size());
    for (size_t i = 0; i < shown.size(); ++i) {
        width[i] = doc.events[shown[i]].size();
        for (const auto& lc : costs) width[i] = std::max(width[i], commas(lc.second[i]).size());
    }
    // Parts to print: [first, last] around each line with a cost, merged.
    std::vector<std::pair<uint64_t, uint64_t>> parts;
    uint64_t beyond = 0;
    for (const auto& lc : costs) {
        bool costly = std::any_of(lc.second.begin(), lc.second.end(), [](uint64_t v) { return v != 0; });
        if (!costly) continue;
        if (lc.first == 0 || lc.first > source.size()) {
            ++beyond;
            continue;
        }
        uint64_t first = lc.first > uint64_t(context) ? lc.first - context : 1;
        uint64_t last = std::min<uint64_t>(source.size(), uint64_t(lc.first) + context);
        if (!parts.empty() && first <= parts.back().second + 1) parts.back().second = std::max(parts.back().second, last);
        else parts.emplace_back(first, last);
    }

    banner("Annotated source file: " + file.path, out);
    std::string header;
    for (size_t i = 0; i < shown.size(); ++i) header += fmt::format("{:>{}} ", doc.events[shown[i]], width[i]);
    while (!header.empty() && header.back() == ' ') header.pop_back();
    out << header << "\n\n";
    std::string blank;
    for (size_t i = 0; i < shown.size(); ++i) blank += std::string(width[i] + 1, ' ');
    for (const auto& part : parts) {
        if (part.first > 1) {
            std::string mark = fmt::format("-- line {} ", part.first);
            out << mark << std::string(mark.size() < 40 ? 40 - mark.size() : 4, '-') << "\n";
        }
        for (uint64_t n = part.first; n <= part.second; ++n) {
            auto lc = costs.find(uint32_t(n));
            std::string prefix;
            if (lc == costs.end()) {
                prefix = blank;
            } else {
                for (size_t i = 0; i < shown.size(); ++i)
                    prefix += fmt::format("{:>{}} ", lc->second[i] ? commas(lc->second[i]) : ".", width[i]);
            }
            std::string text = prefix + " " + source[n - 1];
            while (!text.empty() && text.back() == ' ') text.pop_back();
            out << text << "\n";
        }
    }
    if (parts.empty()) out << "(no line of this file has a cost in the shown events)\n";
    if (beyond)
        out << fmt::format("-- {} line{} with costs beyond the end of the file (has the source changed since the run?)\n",
                           beyond, beyond == 1 ? "" : "s");
}

}  // namespace

void run_annotate(const AnnotateOptions& o, std::ostream& out) {
    if (!(o.threshold >= 0 && o.threshold <= 100)) throw Error("--threshold must be a percentage from 0 to 100");
    sir::Document doc = load_document(o.path);
    std::vector<int> shown = shown_events(doc, o.show);

    banner("Metadata", out);
    out << field_line("Profile", o.path);
    out << field_line("Command", command_text(doc.run));
    if (!doc.run.complete) out << field_line("Run", "incomplete (" + doc.run.termination + ")");
    out << field_line("Machine", doc.machine.name);
    out << field_line("Events recorded", join(doc.events));
    std::vector<std::string> names;
    for (int e : shown) names.push_back(doc.events[e]);
    out << field_line("Events shown", join(names));
    out << field_line("Event sort order", names[0]);
    out << field_line("Threshold", fmt::format("{}%", o.threshold));
    out << "\n";

    banner("Summary", out);
    Table sum;
    for (int e : shown) sum.column(doc.events[e], Table::kRight);
    sum.column("", Table::kLeft);
    std::vector<std::string> cells;
    for (int e : shown) cells.push_back(cost_cell(doc.totals[e], doc.totals[e]));
    cells.push_back("PROGRAM TOTALS");
    sum.row(cells);
    out << sum.render() << "\n";

    banner("Function summary", out);
    const int sort = shown[0];
    std::vector<FunctionRef> fns;
    for (const auto& f : functions_of(doc))
        if (above_threshold(f.region->costs, shown, doc.totals, o.threshold)) fns.push_back(f);
    std::stable_sort(fns.begin(), fns.end(), [&](const FunctionRef& a, const FunctionRef& b) {
        if (a.region->costs[sort] != b.region->costs[sort]) return a.region->costs[sort] > b.region->costs[sort];
        return a.label() < b.label();
    });
    Table ft;
    for (int e : shown) ft.column(doc.events[e], Table::kRight);
    ft.column("file:function", Table::kLeft);
    for (const auto& f : fns) {
        std::vector<std::string> r;
        for (int e : shown) r.push_back(cost_cell(f.region->costs[e], doc.totals[e]));
        r.push_back(f.label());
        ft.row(r);
    }
    out << (ft.empty() ? std::string("(no function above the threshold)\n") : ft.render());

    if (!o.source) return;
    // Files of the listed functions, the costliest (first shown event) first.
    std::map<const sir::File*, uint64_t> file_cost;
    for (const auto& f : fns) file_cost[f.file] += f.region->costs[sort];
    std::vector<std::pair<const sir::File*, uint64_t>> files(file_cost.begin(), file_cost.end());
    std::stable_sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
        if (a.second != b.second) return a.second > b.second;
        return a.first->path < b.first->path;
    });
    for (const auto& f : files) annotate_file(*f.first, shown, doc, o.context, out);
}

void add_annotate_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<AnnotateOptions>();
    CLI::App* cmd = app.add_subcommand("annotate", "Costs per function and, with --source, per source line (like cg_annotate)");
    cmd->add_option("FILE", o->path, "Profile document")->required();
    cmd->add_flag("--source", o->source, "Print the source files with the costs of each line (4 lines of context)");
    cmd->add_option("--show", o->show, "Events to show, comma-separated; the first one sorts (default: every event)")
        ->type_name("EV1,EV2,...");
    cmd->add_option("--threshold", o->threshold,
                    "Hide functions below PCT percent of the total in every shown event (default 0.1)")
        ->type_name("PCT");
    cmd->callback([o, &action] {
        action = [o] {
            run_annotate(*o, std::cout);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
