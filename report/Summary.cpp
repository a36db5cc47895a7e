// ompsim-report summary FILE: the run, the machine, the program totals, the
// cache statistics, with prefetchers the prefetch statistics, with data TLBs
// the TLB statistics, for multi-threaded runs the coherence totals, the
// threads, the cores and the findings (false sharing), then the hottest
// functions and lines, as readable tables.
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

// The prefetchers of a cache as <machine> lists them: "next-line,stride".
std::string prefetchers_text(const sir::Cache& c) { return c.prefetch ? join(c.prefetch->kinds, ",") : "-"; }

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
    out << field_line("Deterministic", determinism_text(doc.run));
    if (const auto& d = doc.run.determinism)
        out << field_line("Threads", fmt::format("{} (simulate-runtime={})", d->threads, d->simulate_runtime));
    // The limits the run reached (docs/limits.md): what the document leaves out.
    for (const sir::RunWarning& w : doc.run.warnings)
        out << field_line("Limit reached", fmt::format("{} ({}{}): {}", w.kind, w.option ? *w.option + "=" : "limit ",
                                                       w.limit, w.message));
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
    if (const auto& mc = m.multicore) {
        std::vector<std::string> names;
        for (const sir::Cache* c : m.private_caches()) names.push_back(c->name);
        std::string text = std::to_string(mc->cores);
        if (mc->private_levels == 0) text += ", every cache shared";
        else if (mc->private_levels == 1) text += fmt::format(", private level 1 ({})", join(names, ", "));
        else text += fmt::format(", private levels 1-{} ({})", mc->private_levels, join(names, ", "));
        text += mc->coherence == "mesi" ? ", MESI coherence" : ", no coherence";
        if (mc->c2c_latency) text += fmt::format(", cache-to-cache {} cycles", *mc->c2c_latency);
        if (mc->upgrade_latency) text += fmt::format(", upgrade {} cycles", *mc->upgrade_latency);
        out << field_line("Cores", text);
    }
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
    if (m.has_prefetch()) {
        Table p;
        p.column("Cache", Table::kLeft);
        p.column("Prefetchers", Table::kLeft);
        p.column("Degree", Table::kRight);
        p.column("Stride table", Table::kRight);
        p.column("Streams", Table::kRight);
        for (const auto& c : m.caches)
            if (c.prefetch)
                p.row({c.name, prefetchers_text(c), std::to_string(c.prefetch->degree), commas(c.prefetch->table),
                       commas(c.prefetch->streams)});
        out << "\n" << p.render();
    }
    if (const auto& tlbs = m.tlbs) {
        Table d;
        d.column("TLB", Table::kLeft);
        d.column("Level", Table::kRight);
        d.column("Entries", Table::kRight);
        d.column("Assoc", Table::kRight);
        d.column("Latency", Table::kRight);
        for (const auto& l : tlbs->levels)
            d.row({l.name, std::to_string(l.level), commas(l.entries), std::to_string(l.assoc), std::to_string(l.latency)});
        out << "\n" << d.render() << "\n";
        out << field_line("Page size", size_text(tlbs->page_size));
    }
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

// numerator / denominator as a percentage with two decimals; "-" when the
// denominator is 0.
std::string rate_text(uint64_t part, uint64_t whole) {
    if (whole == 0) return "-";
    return fmt::format("{:.2f}%", static_cast<double>(static_cast<long double>(part) * 100 / whole));
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

// Per cache: the prefetches its own prefetcher issued, how many a demand
// access used (accuracy = useful / issued) and how many were evicted unused,
// and the prefetch requests that reached it and missed there.
void print_prefetch(const sir::Document& doc, std::ostream& out) {
    if (!doc.machine.has_prefetch()) return;
    out << "\n" << heading("Prefetching");
    Table t;
    t.column("Cache", Table::kLeft);
    t.column("Prefetchers", Table::kLeft);
    t.column("Issued", Table::kRight);
    t.column("Useful", Table::kRight);
    t.column("Polluting", Table::kRight);
    t.column("Accuracy", Table::kRight);
    t.column("Prefetch refs", Table::kRight);
    t.column("Prefetch misses", Table::kRight);
    for (size_t i = 0; i < doc.cache_stats.size() && i < doc.machine.caches.size(); ++i) {
        const sir::CacheStats& s = doc.cache_stats[i];
        if (!s.prefetch) continue;
        const sir::PrefetchStats& p = *s.prefetch;
        const sir::Cache& c = doc.machine.caches[i];
        t.row({s.name, c.prefetch ? prefetchers_text(c) : "-", commas(p.prefetches_issued),
               commas(p.prefetches_useful), commas(p.prefetches_polluting),
               rate_text(p.prefetches_useful, p.prefetches_issued), commas(p.prefetch_refs),
               commas(p.prefetch_misses)});
    }
    out << t.render();
    out << "Accuracy = useful / issued; useful: a demand access used the prefetched line; polluting: evicted "
           "before any use\n";
}

// --classify-misses: per cache its demand misses by class (3C plus
// coherence), each with its share of the misses.
void print_miss_classes(const sir::Document& doc, std::ostream& out) {
    if (doc.cache_stats.empty() || !doc.cache_stats[0].classes) return;
    out << "\n" << heading("Miss classes");
    Table t;
    t.column("Cache", Table::kLeft);
    t.column("Misses", Table::kRight);
    for (const auto& f : sir::kMissClassFields) {
        std::string label = f.label;
        label[0] = static_cast<char>(label[0] - 'a' + 'A');
        t.column(label, Table::kRight);
        t.column("%", Table::kRight);
    }
    for (const sir::CacheStats& s : doc.cache_stats) {
        if (!s.classes) continue;
        std::vector<std::string> cells{s.name, commas(s.demand_misses())};
        for (const auto& f : sir::kMissClassFields) {
            uint64_t v = (*s.classes).*f.member;
            cells.push_back(commas(v));
            cells.push_back(rate_text(v, s.demand_misses()));
        }
        t.row(cells);
    }
    out << t.render();
    out << "Compulsory: first reference of the line to the cache; capacity: a fully associative LRU cache of\n"
           "the same size misses too; conflict: it would hit; coherence: another core's write took the line\n";
}

// Per TLB level: the look-ups, the misses and the miss rate; the page walks
// (the misses of the last level) and what each costs.
void print_tlbs(const sir::Document& doc, std::ostream& out) {
    if (!doc.machine.tlbs) return;
    out << "\n" << heading("TLBs");
    Table t;
    t.column("TLB", Table::kLeft);
    t.column("Level", Table::kRight);
    t.column("Refs", Table::kRight);
    t.column("Misses", Table::kRight);
    t.column("Miss rate", Table::kRight);
    const auto& levels = doc.machine.tlbs->levels;
    for (size_t i = 0; i < doc.tlb_stats.size(); ++i) {
        const sir::TlbStats& s = doc.tlb_stats[i];
        t.row({s.name, i < levels.size() ? std::to_string(levels[i].level) : "-", commas(s.refs), commas(s.misses),
               rate_text(s.misses, s.refs)});
    }
    out << t.render() << "\n";
    if (!doc.tlb_stats.empty()) out << field_line("Page walks", commas(doc.tlb_stats.back().misses));
    out << field_line("Walk latency", fmt::format("{} cycles", doc.machine.tlbs->walk_latency));
}

void print_coherence(const sir::Document& doc, std::ostream& out) {
    if (!doc.coherence) return;
    const sir::CoherenceTotals& k = *doc.coherence;
    out << "\n" << heading("Coherence");
    out << field_line("Coherence misses", commas(k.coherence_misses));
    out << field_line("False sharing", fmt::format("{} ({} of the coherence misses)", commas(k.false_sharing_misses),
                                                   share_text(k.false_sharing_misses, k.coherence_misses)));
    out << field_line("Invalidations", commas(k.invalidations));
    out << field_line("C2C transfers", commas(k.c2c_transfers));
    out << field_line("Upgrades", commas(k.upgrades));
}

// The sum of the named events of a cost vector with thousands separators;
// "-" when the document lacks one of them.
std::string event_sum_text(const sir::Document& doc, const std::vector<uint64_t>& costs,
                           std::initializer_list<std::string> names) {
    uint64_t sum = 0;
    for (const std::string& n : names) {
        int i = doc.event_index(n);
        if (i < 0) return "-";
        sum += costs[i];
    }
    return commas(sum);
}

void print_threads(const sir::Document& doc, std::ostream& out) {
    if (!doc.threads) return;
    out << "\n" << heading("Threads");
    const int n = doc.machine.levels;
    const std::string l1 = level_name(doc, 1);
    // The last level: numbered, or "L" in the cachegrind model.
    std::string k = std::to_string(n);
    if (doc.event_index("D" + k + "mr") < 0) k = "L";
    const std::string ll = level_name(doc, n);
    Table t;
    t.column("Thread", Table::kRight);
    t.column("Tid", Table::kRight);
    t.column("OMP", Table::kRight);
    t.column("Core", Table::kRight);
    for (const char* e : {"Ir", "Dr", "Dw"}) t.column(e, Table::kRight);
    t.column(l1 + " misses", Table::kRight);
    if (n > 1) t.column(ll + " misses", Table::kRight);
    std::vector<std::string> tlb_events;
    for (const char* e : {"T1m", "T2m"})
        if (doc.event_index(e) >= 0) tlb_events.push_back(e);
    for (const std::string& e : tlb_events) t.column(e, Table::kRight);
    t.column("Cycles", Table::kRight);
    for (const sir::Thread& th : *doc.threads) {
        std::vector<std::string> r = {std::to_string(th.id), th.valgrind_tid ? std::to_string(th.valgrind_tid) : "-",
                                      th.omp_thread == sir::kNotOpenMP ? "-" : std::to_string(th.omp_thread),
                                      std::to_string(th.core)};
        for (const char* e : {"Ir", "Dr", "Dw"}) r.push_back(event_sum_text(doc, th.costs, {e}));
        r.push_back(event_sum_text(doc, th.costs, {"D1mr", "D1mw"}));
        if (n > 1) r.push_back(event_sum_text(doc, th.costs, {"I" + k + "mr", "D" + k + "mr", "D" + k + "mw"}));
        for (const std::string& e : tlb_events) r.push_back(event_sum_text(doc, th.costs, {e}));
        r.push_back(event_sum_text(doc, th.costs, {"Cycles"}));
        t.row(r);
    }
    out << (t.empty() ? std::string("(no threads)\n") : t.render());
    std::string legend = fmt::format("{} misses = D1mr + D1mw", l1);
    if (n > 1) legend += fmt::format(", {0} misses = I{1}mr + D{1}mr + D{1}mw", ll, k);
    out << legend << "; Tid: Valgrind's thread id (- none: a replayed thread); OMP: OpenMP thread number\n";
}

void print_cores(const sir::Document& doc, std::ostream& out) {
    if (!doc.cores) return;
    out << "\n" << heading("Cores");
    Table t;
    t.column("Core", Table::kRight);
    t.column("Instructions", Table::kRight);
    t.column("Cycles", Table::kRight);
    t.column("Busy", Table::kRight);
    t.column("Wait %", Table::kRight);
    t.column("Coherence misses", Table::kRight);
    t.column("Invalidations received", Table::kRight);
    t.column("C2C in", Table::kRight);
    t.column("Upgrades", Table::kRight);
    for (const sir::Core& c : *doc.cores) {
        sir::CacheCoherence k = core_coherence(c);
        t.row({std::to_string(c.id), commas(c.instructions), commas(c.cycles), commas(c.busy_cycles),
               share_text(c.wait_cycles, c.cycles), commas(k.coherence_misses), commas(k.invalidations_received),
               commas(k.c2c_in), commas(k.upgrades)});
    }
    out << (t.empty() ? std::string("(no cores)\n") : t.render());
}

void print_findings(const sir::Document& doc, std::ostream& out) {
    std::vector<std::string> lines = findings(doc);
    if (lines.empty()) return;
    out << "\n" << heading("Findings");
    for (const std::string& l : lines) out << l << "\n";
}

// The columns of the hot-spot tables: the rank event, Ir, the level-1 data
// misses and the DTLB1 misses (those present).
std::vector<int> hot_columns(const sir::Document& doc) {
    std::vector<int> cols = {rank_event(doc)};
    for (const char* name : {"Ir", "D1mr", "D1mw", "T1m"}) {
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

std::string determinism_text(const sir::Run& run) {
    if (!run.determinism) return run.deterministic ? "yes" : "no";
    const sir::Determinism& d = *run.determinism;
    if (run.deterministic) return fmt::format("yes ({}, quantum {})", d.scheduler, d.quantum);
    if (d.reasons.empty()) return fmt::format("NO ({}, quantum {}; no reason recorded)", d.scheduler, d.quantum);
    std::string out = "NO: " + d.reasons[0];
    // The later reasons under the first (field_line pads labels to 18 columns).
    for (size_t i = 1; i < d.reasons.size(); ++i) out += "\n" + std::string(18 + 4, ' ') + d.reasons[i];
    return out;
}

sir::CacheCoherence core_coherence(const sir::Core& core) {
    sir::CacheCoherence sum;
    for (const sir::CoreCacheStats& s : core.cache_stats) {
        if (!s.coherence) continue;
        const sir::CacheCoherence& k = *s.coherence;
        sum.coherence_misses += k.coherence_misses;
        sum.false_sharing_misses += k.false_sharing_misses;
        sum.invalidations_received += k.invalidations_received;
        sum.invalidations_sent += k.invalidations_sent;
        sum.c2c_in += k.c2c_in;
        sum.c2c_out += k.c2c_out;
        sum.upgrades += k.upgrades;
    }
    return sum;
}

std::string structure_display_name(const sir::DataStructures& ds, size_t i) {
    const sir::DataStructure& s = ds.structures[i];
    if (s.name.empty()) return "#" + std::to_string(i);
    for (size_t j = 0; j < ds.structures.size(); ++j)
        if (j != i && ds.structures[j].name == s.name)
            return s.file.empty() ? "#" + std::to_string(i) : s.name + "@" + location_text(s);
    return s.name;
}

std::vector<FalseSharing> false_sharing_of(const sir::DataStructures& ds) {
    std::vector<FalseSharing> out;
    if (!ds.has_coherence()) return out;
    const int dcm = ds.column("Dcm"), dfs = ds.column("Dfs");
    for (size_t i = 0; i < ds.structures.size(); ++i) {
        const sir::DataStructure& s = ds.structures[i];
        if (s.costs[dfs] == 0) continue;
        out.push_back(FalseSharing{i, structure_display_name(ds, i), s.costs[dfs], s.costs[dcm]});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const FalseSharing& a, const FalseSharing& b) { return a.false_sharing > b.false_sharing; });
    return out;
}

std::vector<std::string> findings(const sir::Document& doc) {
    std::vector<std::string> out;
    if (!doc.data_structures || !doc.data_structures->has_coherence()) return out;
    for (const FalseSharing& f : false_sharing_of(*doc.data_structures))
        out.push_back(fmt::format("false sharing: {} {} false-sharing misses of {} coherence misses", f.name,
                                  commas(f.false_sharing), commas(f.coherence)));
    if (out.empty()) out.push_back("no false sharing detected");
    return out;
}

void run_summary(const std::string& path, std::ostream& out) {
    sir::Document doc = load_document(path);
    out << field_line("Profile", path);
    out << "\n";
    print_run(doc, out);
    print_machine(doc, out);
    print_totals(doc, out);
    print_cache_stats(doc, out);
    print_prefetch(doc, out);
    print_miss_classes(doc, out);
    print_tlbs(doc, out);
    print_coherence(doc, out);
    print_threads(doc, out);
    print_cores(doc, out);
    print_findings(doc, out);
    print_hottest(doc, out);
}

void add_summary_command(CLI::App& app, Action& action) {
    auto path = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand(
        "summary",
        "The run, the machine, the program totals, the cache, prefetch and TLB statistics, threads, cores and findings "
        "of multi-threaded runs, and the hottest functions and lines");
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
