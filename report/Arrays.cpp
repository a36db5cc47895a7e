// ompsim-report arrays FILE [--level=L] [--sort=KEY] [--limit=N] [--format=text|json]
//
// The data structures of a --monitor=yes run (globals, heap allocation
// sites, named ranges), sorted by their misses at one cache level: which
// structure misses, before 'histogram' shows where inside it.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

using Json = nlohmann::ordered_json;

// A structure with its counts at the chosen level.
struct Row {
    size_t index = 0;
    const sir::DataStructure* s = nullptr;
    LevelCounts c;
    uint64_t coherence = 0, false_sharing = 0;  // Dcm, Dfs (0 without the columns)
    uint64_t prefetched = 0;                    // Dpf (0 without the column)
    uint64_t dtlb1_misses = 0, dtlb2_misses = 0;  // T1m, T2m (0 without the columns)
    sir::MissClasses classes;                   // the level's D<k>comp .. (0 without the columns)
    uint64_t misses() const { return c.read_misses + c.write_misses; }
    uint64_t refs() const { return c.read_refs + c.write_refs; }  // reaching the level
};

// Miss ratio at the level: misses / references reaching it; < 0 when none reached it.
double miss_ratio(const Row& r) {
    return r.refs() ? static_cast<double>(static_cast<long double>(r.misses()) / r.refs()) : -1;
}

// Sort keys, each "larger first" except name and index (document order).
using Less = std::function<bool(const Row&, const Row&)>;
const std::vector<std::pair<std::string, Less>>& sort_keys() {
    static const std::vector<std::pair<std::string, Less>> keys = {
        {"misses", [](const Row& a, const Row& b) { return a.misses() > b.misses(); }},
        {"read-misses", [](const Row& a, const Row& b) { return a.c.read_misses > b.c.read_misses; }},
        {"write-misses", [](const Row& a, const Row& b) { return a.c.write_misses > b.c.write_misses; }},
        {"reads", [](const Row& a, const Row& b) { return a.c.reads > b.c.reads; }},
        {"writes", [](const Row& a, const Row& b) { return a.c.writes > b.c.writes; }},
        {"ratio", [](const Row& a, const Row& b) { return miss_ratio(a) > miss_ratio(b); }},
        {"coherence-misses", [](const Row& a, const Row& b) { return a.coherence > b.coherence; }},
        {"false-sharing", [](const Row& a, const Row& b) { return a.false_sharing > b.false_sharing; }},
        {"prefetch-hits", [](const Row& a, const Row& b) { return a.prefetched > b.prefetched; }},
        {"dtlb1-misses", [](const Row& a, const Row& b) { return a.dtlb1_misses > b.dtlb1_misses; }},
        {"dtlb2-misses", [](const Row& a, const Row& b) { return a.dtlb2_misses > b.dtlb2_misses; }},
        {"compulsory", [](const Row& a, const Row& b) { return a.classes.compulsory > b.classes.compulsory; }},
        {"capacity", [](const Row& a, const Row& b) { return a.classes.capacity > b.classes.capacity; }},
        {"conflict", [](const Row& a, const Row& b) { return a.classes.conflict > b.classes.conflict; }},
        {"size", [](const Row& a, const Row& b) { return a.s->size > b.s->size; }},
        {"blocks", [](const Row& a, const Row& b) { return a.s->blocks > b.s->blocks; }},
        {"name", [](const Row& a, const Row& b) { return a.s->name < b.s->name; }},
        {"index", [](const Row&, const Row&) { return false; }},
    };
    return keys;
}

std::vector<std::string> sort_key_names() {
    std::vector<std::string> names;
    for (const auto& k : sort_keys()) names.push_back(k.first);
    return names;
}

const Less& sort_key(const std::string& name) {
    for (const auto& k : sort_keys())
        if (k.first == name) return k.second;
    throw Error(fmt::format("--sort must be one of {}, not '{}'", join(sort_key_names(), ", "), name));
}

std::vector<Row> sorted_rows(const sir::DataStructures& ds, int level, const std::string& sort, size_t limit) {
    const Less& less = sort_key(sort);
    std::vector<Row> rows;
    const int dcm = ds.column("Dcm"), dfs = ds.column("Dfs");
    const int dpf = ds.column("Dpf"), t1 = ds.column("T1m"), t2 = ds.column("T2m");
    auto at = [](const std::vector<uint64_t>& costs, int i) { return i >= 0 ? costs[i] : 0; };
    for (size_t i = 0; i < ds.structures.size(); ++i) {
        const sir::DataStructure& s = ds.structures[i];
        rows.push_back(Row{i, &s, level_counts(ds, s.costs, level), ds.has_coherence() ? s.costs[dcm] : 0,
                           ds.has_coherence() ? s.costs[dfs] : 0, at(s.costs, dpf), at(s.costs, t1), at(s.costs, t2),
                           ds.classes(s.costs, level)});
    }
    // Stable: equal keys keep the document's order.
    std::stable_sort(rows.begin(), rows.end(), less);
    if (limit && rows.size() > limit) rows.resize(limit);
    return rows;
}

// Cut to `max` bytes with "..." (long C++ names would make the table unreadable;
// --format=json has them whole).
std::string clip(const std::string& s, size_t max) {
    if (s.size() <= max) return s;
    return s.substr(0, max - 3) + "...";
}

// Where a structure comes from: the declaration of a global or named range,
// the call stack of a heap site.
std::string origin(const sir::DataStructure& s) {
    if (s.site && !s.site->empty()) return *s.site;
    return location_text(s);
}

std::string mode_text(const sir::DataStructures& ds) {
    std::string slots = ds.slots ? fmt::format(", {} monitor slots", ds.slots) : "";
    if (ds.mode == "lines") return fmt::format("lines, buckets of {} cache lines{}", ds.resolution, slots);
    if (ds.mode == "bins") return fmt::format("bins, {} portions of each block{}", ds.resolution, slots);
    return "static (no histograms)" + slots;
}

std::string arrays_text(const sir::Document& doc, const sir::DataStructures& ds, int level,
                        const ArraysOptions& o, const std::vector<Row>& rows) {
    const std::string cache = level_name(doc, level);
    std::string out;
    out += field_line("Level", fmt::format("{} (misses at this level; miss ratio = misses / references reaching it)",
                                           cache));
    out += field_line("Sorted by", o.sort);
    out += field_line("Monitor", mode_text(ds));
    out += field_line("Structures", o.limit && o.limit < ds.structures.size()
                                        ? fmt::format("{} (the first {} shown)", ds.structures.size(), o.limit)
                                        : std::to_string(ds.structures.size()));
    Table t;
    t.column("#", Table::kRight);
    t.column("Kind", Table::kLeft);
    t.column("Name", Table::kLeft);
    t.column("Declared at / site", Table::kLeft);
    t.column("Size", Table::kRight);
    t.column("Blocks", Table::kRight);
    t.column("Reads", Table::kRight);
    t.column("Writes", Table::kRight);
    t.column(cache + " misses", Table::kRight);
    t.column(cache + " miss ratio", Table::kRight);
    if (ds.has_coherence()) {
        t.column("Coherence misses", Table::kRight);
        t.column("False sharing", Table::kRight);
    }
    if (ds.has_prefetch()) t.column("Prefetch hits", Table::kRight);
    if (ds.tlb_levels() >= 1) t.column("DTLB1 misses", Table::kRight);
    if (ds.tlb_levels() >= 2) t.column("DTLB2 misses", Table::kRight);
    if (ds.has_miss_classes())
        for (const auto& f : sir::kMissClassFields) t.column(std::string(f.label), Table::kRight);
    for (const Row& r : rows) {
        const sir::DataStructure& s = *r.s;
        double ratio = miss_ratio(r);
        std::string ratio_text = !s.counted ? "not counted" : ratio < 0 ? "-" : fmt::format("{:.1f}%", ratio * 100);
        std::vector<std::string> cells = {std::to_string(r.index), s.kind, clip(s.name, 40), clip(origin(s), 60),
                                          size_text(s.size), commas(s.blocks), commas(r.c.reads), commas(r.c.writes),
                                          commas(r.misses()), ratio_text};
        if (ds.has_coherence()) {
            cells.push_back(commas(r.coherence));
            cells.push_back(commas(r.false_sharing));
        }
        if (ds.has_prefetch()) cells.push_back(commas(r.prefetched));
        if (ds.tlb_levels() >= 1) cells.push_back(commas(r.dtlb1_misses));
        if (ds.tlb_levels() >= 2) cells.push_back(commas(r.dtlb2_misses));
        if (ds.has_miss_classes())
            for (const auto& f : sir::kMissClassFields) cells.push_back(commas(r.classes.*f.member));
        t.row(cells);
    }
    out += "\n" + t.render();
    return out;
}

std::string arrays_json(const sir::Document& doc, const sir::DataStructures& ds, int level,
                        const ArraysOptions& o, const std::vector<Row>& rows) {
    Json j;
    j["file"] = o.path;
    j["level"] = level;
    j["cache"] = level_name(doc, level);
    j["sort"] = o.sort;
    j["mode"] = ds.mode;
    j["resolution"] = ds.resolution;
    j["slots"] = ds.slots;
    j["structures"] = Json::array();
    for (const Row& r : rows) {
        const sir::DataStructure& s = *r.s;
        Json sj;
        sj["index"] = r.index;
        put_structure_identity(sj, s);
        sj["reads"] = r.c.reads;
        sj["writes"] = r.c.writes;
        sj["references"] = r.refs();
        sj["read_misses"] = r.c.read_misses;
        sj["write_misses"] = r.c.write_misses;
        sj["misses"] = r.misses();
        double ratio = miss_ratio(r);
        sj["miss_ratio"] = ratio < 0 ? Json(nullptr) : Json(ratio);
        // Dcm and Dfs (coherence and false-sharing misses at the private levels); null without them.
        sj["coherence_misses"] = ds.has_coherence() ? Json(r.coherence) : Json(nullptr);
        sj["false_sharing_misses"] = ds.has_coherence() ? Json(r.false_sharing) : Json(nullptr);
        // Dpf (references served by a prefetched line, on its first use), T1m and
        // T2m (DTLB misses); null without the columns.
        sj["prefetch_hits"] = ds.has_prefetch() ? Json(r.prefetched) : Json(nullptr);
        sj["dtlb1_misses"] = ds.tlb_levels() >= 1 ? Json(r.dtlb1_misses) : Json(nullptr);
        sj["dtlb2_misses"] = ds.tlb_levels() >= 2 ? Json(r.dtlb2_misses) : Json(nullptr);
        // --classify-misses: the level's misses by class; null without.
        if (ds.has_miss_classes()) {
            Json mj;
            for (const auto& f : sir::kMissClassFields) mj[f.column] = r.classes.*f.member;
            sj["miss_classes"] = mj;
        } else {
            sj["miss_classes"] = Json(nullptr);
        }
        j["structures"].push_back(sj);
    }
    return j.dump(2) + "\n";
}

}  // namespace

void run_arrays(const ArraysOptions& o, std::ostream& out) {
    sir::Document doc = load_document(o.path);
    const sir::DataStructures& ds = data_structures_of(doc, o.path);
    int level = parse_level(doc, o.level);
    std::vector<Row> rows = sorted_rows(ds, level, o.sort, o.limit);
    if (o.format == "json") out << arrays_json(doc, ds, level, o, rows);
    else if (o.format == "text") out << arrays_text(doc, ds, level, o, rows);
    else throw Error("--format must be text or json, not '" + o.format + "'");
}

void add_arrays_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<ArraysOptions>();
    CLI::App* cmd = app.add_subcommand(
        "arrays", "The data structures of a --monitor=yes run, sorted by their misses at a cache level");
    cmd->add_option("FILE", o->path, "Profile document")->required();
    cmd->add_option("--level", o->level, "Cache level: a number or a data cache name (default 1)")
        ->type_name("N|D1|L2|LL");
    cmd->add_option("--sort", o->sort, "Sort key (default misses): " + join(sort_key_names(), ", "))
        ->type_name("KEY");
    cmd->add_option("--limit", o->limit, "Show the first N structures only (default: all)")->type_name("N");
    cmd->add_option("--format", o->format, "Output format: text (default) or json")
        ->type_name("text|json")
        ->check(CLI::IsMember({"text", "json"}).description(""));
    cmd->footer(
        "Misses and the miss ratio are those of the chosen level (references reaching\n"
        "level L: every reference at level 1, the misses of level L-1 below it).\n"
        "Prefetch hits (Dpf), DTLB1 misses (T1m) and DTLB2 misses (T2m) are shown when\n"
        "the machine has prefetchers or data TLBs, the level's misses by class (compulsory,\n"
        "capacity, conflict, coherence) for a run with --classify-misses=yes.\n"
        "Needs a document of a run with --monitor=yes.");
    cmd->callback([o, &action] {
        action = [o] {
            run_arrays(*o, std::cout);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
