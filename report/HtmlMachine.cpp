// The HTML report's run sections: the machine and the program totals, one
// bar chart per cache (hits and misses by kind of reference), and for
// multi-threaded runs the threads and the cores (busy and waiting cycles).
#include <fmt/format.h>

#include "Report.h"
#include "Svg.h"

namespace ompsim {
namespace report {

namespace {

const char* const kKindNames[4] = {"fetch", "read", "write", "write-back"};
const svg::Series kHits{"hits", "#4e79a7"};
const svg::Series kMisses{"misses", "#e15759"};

std::string rate_text(uint64_t part, uint64_t whole) {
    if (whole == 0) return "-";
    return fmt::format("{:.2f}%", static_cast<double>(static_cast<long double>(part) * 100 / whole));
}

std::string fields_table(const std::string& id, const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string out = fmt::format("<table class=\"data fields\" id=\"{}\"><tbody>\n", id);
    for (const auto& [label, value] : fields)
        out += "<tr><td>" + html_escape(label) + "</td><td>" + html_escape(value) + "</td></tr>\n";
    return out + "</tbody></table>\n";
}

HtmlSection machine_section(const sir::Document& doc) {
    const sir::Machine& m = doc.machine;
    HtmlSection s{"machine", "Machine and totals",
                  "The simulated machine (every cache of the hierarchy) and what the whole program did on it: "
                  "instructions (Ir), data reads and writes (Dr, Dw), misses per level (I1mr: instruction "
                  "fetches that missed level 1, D2mw: data writes that missed level 2, ...) and simulated "
                  "cycles.",
                  ""};
    std::vector<std::pair<std::string, std::string>> fields = {
        {"Command", command_text(doc.run)},
        {"Run", doc.run.complete ? "complete, exit status " + std::to_string(doc.run.exit_status)
                                 : "incomplete (" + doc.run.termination + ")"},
        {"Machine", fmt::format("{} ({}, {} level{})", m.name, m.model, m.levels, m.levels == 1 ? "" : "s")},
        {"CPI", m.cpi},
        {"Memory latency", fmt::format("{} cycles", m.memory_latency)}};
    if (m.multicore)
        fields.push_back({"Cores", fmt::format("{}, {}, coherence {}", m.multicore->cores,
                                               m.multicore->private_levels == 0   ? std::string("every cache shared")
                                               : m.multicore->private_levels == 1 ? std::string("private level 1")
                                                   : fmt::format("private levels 1-{}", m.multicore->private_levels),
                                               m.multicore->coherence)});
    if (doc.run.determinism) fields.push_back({"Deterministic", determinism_text(doc.run)});
    s.body += fields_table("tab-run", fields);

    HtmlTable caches("tab-caches");
    const std::pair<const char*, Table::Align> columns[] = {
        {"Cache", Table::kLeft},       {"Level", Table::kRight},       {"Side", Table::kLeft},
        {"Size", Table::kRight},       {"Assoc", Table::kRight},       {"Line", Table::kRight},
        {"Sets", Table::kRight},       {"Replacement", Table::kLeft},  {"Write policy", Table::kLeft},
        {"Inclusion", Table::kLeft},   {"Latency", Table::kRight}};
    for (const auto& [header, align] : columns) caches.column(header, align);
    for (const sir::Cache& c : m.caches)
        caches.row({c.name, std::to_string(c.level), c.side, size_text(c.size), std::to_string(c.assoc),
                    std::to_string(c.line_size), commas(c.sets), c.replacement, c.write_policy, c.inclusion,
                    std::to_string(c.latency)});
    s.body += "<h3>Caches</h3>\n" + caches.render();

    HtmlTable totals("tab-totals");
    totals.column("Event", Table::kLeft);
    totals.column("Total", Table::kRight);
    for (size_t i = 0; i < doc.events.size(); ++i) totals.row({doc.events[i], commas(doc.totals[i])});
    s.body += "<h3>Program totals</h3>\n" + totals.render();
    return s;
}

HtmlSection levels_section(const sir::Document& doc) {
    HtmlSection s{"levels", "Cache levels",
                  "Per cache, the line references of each kind that reached it and how many hit or missed there. "
                  "A reference reaches level 2 only when it missed level 1, so the lower levels see far fewer "
                  "references: each chart has its own scale. The miss rate is misses / references at that "
                  "level.",
                  ""};
    HtmlTable t("tab-levels");
    t.column("Cache", Table::kLeft);
    t.column("Kind", Table::kLeft);
    t.column("Refs", Table::kRight);
    t.column("Hits", Table::kRight);
    t.column("Misses", Table::kRight);
    t.column("Miss rate", Table::kRight);
    std::string figures;
    for (const sir::CacheStats& c : doc.cache_stats) {
        svg::BarChart chart;
        chart.series = {kHits, kMisses};
        for (int k = 0; k < 4; ++k) {
            if (c.refs[k] == 0) continue;
            const uint64_t hits = c.refs[k] > c.misses[k] ? c.refs[k] - c.misses[k] : 0;
            t.row({c.name, kKindNames[k], commas(c.refs[k]), commas(hits), commas(c.misses[k]),
                   rate_text(c.misses[k], c.refs[k])});
            chart.groups.push_back({kKindNames[k], fmt::format("{} {}", c.name, kKindNames[k]), {hits, c.misses[k]}});
        }
        if (chart.groups.empty()) continue;
        chart.title = c.name + ": hits and misses by kind of reference";
        chart.heading = chart.title;
        chart.subtitle = fmt::format("evictions {}, write-backs {}", commas(c.evictions), commas(c.writebacks));
        chart.x_title = "Kind of line reference";
        chart.y_title = "Line references";
        figures += html_figure("fig-level-" + c.name, svg::bar_chart(chart),
                               c.name + ": line references that reached this cache, by kind, split into hits and "
                                        "misses.");
    }
    s.body += t.render() + figures;
    s.body += fmt::format("<p>Memory: {} line reads, {} line writes.</p>\n", commas(doc.memory_reads),
                          commas(doc.memory_writes));
    return s;
}

HtmlSection threads_section(const sir::Document& doc) {
    HtmlSection s{"threads", "Threads and cores",
                  "A multi-threaded run simulates one core per thread. Per thread its own instructions, data "
                  "accesses, misses and cycles; per core the cycles it was busy and the cycles it waited (at "
                  "barriers, locks, for work): a core that waits much while others are busy shows load "
                  "imbalance.",
                  ""};
    HtmlTable t("tab-threads");
    t.column("Thread", Table::kRight);
    t.column("OMP", Table::kRight, "OpenMP thread number (- not an OpenMP thread)");
    t.column("Core", Table::kRight);
    std::vector<int> shown;
    for (const char* e : {"Ir", "Dr", "Dw", "D1mr", "D1mw", "Cycles"}) {
        int i = doc.event_index(e);
        if (i < 0) continue;
        shown.push_back(i);
        t.column(e, Table::kRight);
    }
    for (const sir::Thread& th : *doc.threads) {
        std::vector<std::string> r{std::to_string(th.id),
                                   th.omp_thread == sir::kNotOpenMP ? "-" : std::to_string(th.omp_thread),
                                   std::to_string(th.core)};
        for (int i : shown) r.push_back(commas(th.costs[static_cast<size_t>(i)]));
        t.row(r);
    }
    s.body += t.render();
    if (!doc.cores) return s;
    HtmlTable c("tab-cores");
    c.column("Core", Table::kRight);
    c.column("Instructions", Table::kRight);
    c.column("Cycles", Table::kRight);
    c.column("Busy", Table::kRight);
    c.column("Wait", Table::kRight);
    c.column("Coherence misses", Table::kRight);
    c.column("Invalidations received", Table::kRight);
    svg::BarChart chart;
    chart.series = {{"busy cycles", "#59a14f"}, {"wait cycles", "#bab0ac"}};
    for (const sir::Core& core : *doc.cores) {
        sir::CacheCoherence k = core_coherence(core);
        c.row({std::to_string(core.id), commas(core.instructions), commas(core.cycles), commas(core.busy_cycles),
               commas(core.wait_cycles), commas(k.coherence_misses), commas(k.invalidations_received)});
        chart.groups.push_back({fmt::format("core {}", core.id), fmt::format("core {}", core.id),
                                {core.busy_cycles, core.wait_cycles}});
    }
    s.body += c.render();
    chart.title = "Busy and waiting cycles per core";
    chart.heading = chart.title;
    chart.subtitle = fmt::format("{} cores", doc.cores->size());
    chart.x_title = "Simulated core";
    chart.y_title = "Cycles";
    s.body += html_figure("fig-cores", svg::bar_chart(chart),
                          "Each core's cycles: busy running its thread, or waiting. Equal bars mean balanced work.");
    if (doc.coherence) {
        const sir::CoherenceTotals& k = *doc.coherence;
        s.body += fmt::format(
            "<p>Coherence: {} coherence misses ({} of them false sharing), {} invalidations, {} cache-to-cache "
            "transfers, {} upgrades.</p>\n",
            commas(k.coherence_misses), commas(k.false_sharing_misses), commas(k.invalidations),
            commas(k.c2c_transfers), commas(k.upgrades));
    }
    for (const std::string& f : findings(doc)) s.body += "<p class=\"note\">" + html_escape(f) + "</p>\n";
    return s;
}

}  // namespace

std::vector<HtmlSection> html_machine_sections(const sir::Document& doc) {
    std::vector<HtmlSection> out{machine_section(doc)};
    if (!doc.cache_stats.empty()) out.push_back(levels_section(doc));
    if (doc.threads && !doc.threads->empty()) out.push_back(threads_section(doc));
    return out;
}

}  // namespace report
}  // namespace ompsim
