// Helpers of the data-structure commands (arrays, histogram): the section of a
// document, cache levels as the user names them, the counts of one level, and
// finding a structure by name.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

// "NAME@FILE:LINE" -> the three parts; false when `spec` does not have that form.
bool split_located_name(const std::string& spec, std::string& name, std::string& file, uint32_t& line) {
    size_t at = spec.rfind('@');
    if (at == std::string::npos) return false;
    size_t colon = spec.rfind(':');
    if (colon == std::string::npos || colon < at) return false;
    std::string digits = spec.substr(colon + 1);
    if (!all_digits(digits) || digits.size() > 9) return false;
    name = spec.substr(0, at);
    file = spec.substr(at + 1, colon - at - 1);
    line = static_cast<uint32_t>(std::stoul(digits));
    return true;
}

// A file as written in the document matches the one the user typed when it is
// the same path or ends in it after a '/' ("a.c" matches "/src/a.c").
bool same_file(const std::string& doc_file, const std::string& typed) {
    if (doc_file == typed) return true;
    if (typed.empty() || doc_file.size() <= typed.size()) return false;
    return doc_file.compare(doc_file.size() - typed.size(), typed.size(), typed) == 0 &&
           doc_file[doc_file.size() - typed.size() - 1] == '/';
}

std::string candidate_list(const sir::DataStructures& ds, const std::vector<size_t>& found) {
    std::string out;
    for (size_t i : found) {
        const sir::DataStructure& s = ds.structures[i];
        if (!out.empty()) out += ", ";
        out += fmt::format("#{} {}@{} ({})", i, s.name, location_text(s), s.kind);
    }
    return out;
}

}  // namespace

const sir::DataStructures& data_structures_of(const sir::Document& doc, const std::string& path) {
    if (!doc.data_structures)
        throw Error(path + ": no data-structures section (run the tool with --monitor=yes)");
    return *doc.data_structures;
}

int data_levels(const sir::DataStructures& ds) {
    // The reader checked the form "Dr D1mr .. Dnmr Dw D1mw .. Dnmw [Dcm Dfs]".
    const size_t n = ds.level_columns();
    return n >= 2 ? static_cast<int>(n - 2) / 2 : 0;
}

std::string level_name(const sir::Document& doc, int level) {
    for (const auto& c : doc.machine.caches)
        if (c.level == level && c.side != "instruction") return c.name;
    return "L" + std::to_string(level);
}

int parse_level(const sir::Document& doc, const std::string& spec) {
    const int levels = doc.data_structures ? data_levels(*doc.data_structures) : 0;
    std::string s = spec;
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    int level = 0;
    if (s == "LL") level = levels;
    else if (s.size() == 2 && s[0] == 'I' && s[1] >= '1' && s[1] <= '9')
        throw Error(fmt::format("--level {}: that is an instruction cache; data structures count data "
                                "references (use a level number or a data cache: 1, D1, L2, LL)",
                                spec));
    else if (s.size() == 1 && s[0] >= '0' && s[0] <= '9') level = s[0] - '0';
    else if (s.size() == 2 && (s[0] == 'D' || s[0] == 'L') && s[1] >= '0' && s[1] <= '9') level = s[1] - '0';
    else
        throw Error(fmt::format("--level must be a cache level: a number (1, 2, ...) or a cache name (D1, L2, LL), "
                                "not '{}'",
                                spec));
    if (level < 1 || level > levels) {
        std::vector<std::string> names;
        for (int k = 1; k <= levels; ++k) names.push_back(level_name(doc, k));
        throw Error(fmt::format("--level {}: there is no such level; the data structures were counted at "
                                "levels 1 to {} ({})",
                                spec, levels, join(names, ", ")));
    }
    return level;
}

LevelCounts level_counts(const sir::DataStructures& ds, const std::vector<uint64_t>& costs, int level) {
    const size_t n = static_cast<size_t>(data_levels(ds));
    const size_t k = static_cast<size_t>(level);
    // Column layout: [0] Dr, [1..n] D1mr..Dnmr, [n+1] Dw, [n+2..2n+1] D1mw..Dnmw.
    LevelCounts c;
    c.reads = costs[0];
    c.writes = costs[n + 1];
    c.read_refs = costs[k - 1];
    c.read_misses = costs[k];
    c.write_refs = costs[n + 1 + k - 1];
    c.write_misses = costs[n + 1 + k];
    return c;
}

uint64_t LevelCounts::read_hits() const { return minus(read_refs, read_misses); }
uint64_t LevelCounts::write_hits() const { return minus(write_refs, write_misses); }

std::string location_text(const sir::DataStructure& s) {
    if (s.file.empty()) return "-";
    return s.line ? s.file + ":" + std::to_string(s.line) : s.file;
}

size_t find_structure(const sir::DataStructures& ds, const std::string& spec) {
    std::vector<size_t> found;
    for (size_t i = 0; i < ds.structures.size(); ++i)
        if (ds.structures[i].name == spec) found.push_back(i);
    std::string name, file;
    uint32_t line = 0;
    // Names may hold '@' themselves (versioned symbols such as f@@GLIBC_2.2.5):
    // the located form counts only when the whole text names nothing.
    if (found.empty() && split_located_name(spec, name, file, line))
        for (size_t i = 0; i < ds.structures.size(); ++i) {
            const sir::DataStructure& s = ds.structures[i];
            if (s.name == name && s.line == line && same_file(s.file, file)) found.push_back(i);
        }
    std::string index = !spec.empty() && spec[0] == '#' ? spec.substr(1) : spec;
    if (found.empty() && all_digits(index)) {
        if (index.size() > 9 || std::stoul(index) >= ds.structures.size())
            throw Error(fmt::format("no data structure #{} (the document has {}, #0 to #{})", index,
                                    ds.structures.size(), ds.structures.empty() ? 0 : ds.structures.size() - 1));
        return std::stoul(index);
    }
    if (found.empty())
        throw Error(fmt::format("no data structure named '{}' (see 'ompsim-report arrays FILE')", spec));
    if (found.size() > 1)
        throw Error(fmt::format("'{}' names {} data structures: {}; choose one as NAME@FILE:LINE or #INDEX", spec,
                                found.size(), candidate_list(ds, found)));
    return found[0];
}

}  // namespace report
}  // namespace ompsim
