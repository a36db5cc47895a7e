// The HTML report's source lines: the costliest lines of the program (by
// Cycles, else the first event, as 'summary' ranks them) with their costs
// and, when the source file can be read, the line's text.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

struct LineRef {
    const sir::File* file;
    const sir::Region* region;
    const sir::Line* line;
};

// The text of line `number` of `path` ("" when unreadable), files read once.
class SourceCache {
public:
    std::string line(const std::string& path, uint32_t number) {
        auto it = files_.find(path);
        if (it == files_.end()) {
            std::vector<std::string> lines;
            std::ifstream in(path);
            for (std::string l; in && std::getline(in, l);) {
                if (!l.empty() && l.back() == '\r') l.pop_back();
                lines.push_back(l);
            }
            it = files_.emplace(path, std::move(lines)).first;
        }
        return number >= 1 && number <= it->second.size() ? it->second[number - 1] : "";
    }

private:
    std::map<std::string, std::vector<std::string>> files_;
};

// The rank event, then Ir, the data accesses and the level-1 and last-level
// data misses, the DTLB misses: those the document has, each once.
std::vector<int> shown_events(const sir::Document& doc) {
    std::vector<int> out{rank_event(doc)};
    std::vector<std::string> names{"Ir", "Dr", "Dw", "D1mr", "D1mw"};
    const std::string last = doc.event_index("DLmr") >= 0 ? "L" : std::to_string(doc.machine.levels);
    names.push_back("D" + last + "mr");
    names.push_back("D" + last + "mw");
    names.push_back("T1m");
    for (const std::string& n : names) {
        int i = doc.event_index(n);
        if (i >= 0 && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
    }
    return out;
}

// Leading blanks of source text, a tab as 4, at most 12 kept: the cell
// shows the code's shape without pushing the table off the page.
std::string trimmed_code(const std::string& text) {
    size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    size_t indent = 0;
    for (size_t i = 0; i < first; ++i) indent += text[i] == '\t' ? 4 : 1;
    return std::string(std::min<size_t>(indent, 12), ' ') + text.substr(first);
}

}  // namespace

std::vector<HtmlSection> html_source_sections(const sir::Document& doc, const HtmlOptions& o) {
    std::vector<HtmlSection> out;
    if (doc.events.empty()) return out;
    const int rank = rank_event(doc);
    std::vector<LineRef> lines;
    for (const auto& f : doc.files)
        for (const auto& r : f.regions)
            for (const auto& l : r.lines)
                if (l.costs[static_cast<size_t>(rank)] > 0) lines.push_back({&f, &r, &l});
    if (lines.empty()) return out;
    std::stable_sort(lines.begin(), lines.end(), [&](const LineRef& a, const LineRef& b) {
        return a.line->costs[static_cast<size_t>(rank)] > b.line->costs[static_cast<size_t>(rank)];
    });
    if (lines.size() > o.top_lines) lines.resize(o.top_lines);

    const std::string& rank_name = doc.events[static_cast<size_t>(rank)];
    HtmlSection s{"source", "Source lines",
                  fmt::format("The {} costliest source lines by {} (their share of the program's total in %), "
                              "with the events that explain them: a line with many D1 misses (D1mr, D1mw) per "
                              "data access (Dr, Dw) is where the cache does not help. 'ompsim-report annotate "
                              "--source' shows every line in context.",
                              lines.size(), rank_name),
                  ""};
    const std::vector<int> shown = shown_events(doc);
    HtmlTable t("tab-lines");
    t.column("File:line", Table::kLeft);
    t.column("Function", Table::kLeft);
    t.column(rank_name, Table::kRight);
    t.column("%", Table::kRight);
    for (size_t c = 1; c < shown.size(); ++c) t.column(doc.events[static_cast<size_t>(shown[c])], Table::kRight);
    t.column("Source", Table::kLeft, "", true);
    SourceCache sources;
    const uint64_t total = doc.totals[static_cast<size_t>(rank)];
    for (const LineRef& l : lines) {
        const std::vector<uint64_t>& costs = l.line->costs;
        std::vector<std::string> row{fmt::format("{}:{}", basename_of(l.file->path), l.line->number), l.region->name,
                                     commas(costs[static_cast<size_t>(rank)]),
                                     share_text(costs[static_cast<size_t>(rank)], total)};
        for (size_t c = 1; c < shown.size(); ++c) row.push_back(commas(costs[static_cast<size_t>(shown[c])]));
        row.push_back(trimmed_code(sources.line(l.file->path, l.line->number)));
        t.row(row);
    }
    s.body = t.render();
    out.push_back(s);
    return out;
}

}  // namespace report
}  // namespace ompsim
