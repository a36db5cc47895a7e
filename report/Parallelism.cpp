// ompsim-report parallelism FILE|LOG [--measure=cycles|instructions]
//                                   [--burden=N] [--output=OUT]
//
// OMP-WHIP's parallelism profile (Boushehrinejadmoradi, Yoga and
// Nagarakatte, SC 2018, figures 1(c) and 6; docs/parallelism.md) of a
// document's <parallelism> section, or of an OSPG log (--ospg-log) analysed
// again, then with another measure or burden if asked: the program's work,
// span, parallelism and burdened figures, the directives with their
// parallelism and share of the critical path's serial work, speedup
// estimates, and the code regions (pairs of bounding events) on the
// critical path. Every figure is printed from integers with exact
// arithmetic (ratios rounded half up to two decimals), so the text is the
// same on every machine. docs/ompsim-report.md ("parallelism") shows it.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "Report.h"

namespace ompsim {
namespace report {

using u128 = unsigned __int128;

// num / den with two decimals, rounded half up, thousands separators in the
// integer part: "2.17", "1,234.50"; "-" when den is 0.
std::string ratio_text(u128 num, u128 den) {
    if (den == 0) return "-";
    u128 hundredths = (num * 200 + den) / (den * 2);
    u128 whole = hundredths / 100;
    unsigned cents = static_cast<unsigned>(hundredths % 100);
    std::string digits;
    if (whole > UINT64_MAX) {  // beyond any 64-bit figure; not expected
        for (u128 v = whole; v; v /= 10) digits.insert(digits.begin(), static_cast<char>('0' + v % 10));
    } else {
        digits = commas(static_cast<uint64_t>(whole));
    }
    return fmt::format("{}.{:02}", digits, cents);
}

// part / whole in percent with two decimals: "36.14"; "-" when whole is 0.
std::string percent_text(uint64_t part, uint64_t whole) { return ratio_text(u128(part) * 100, whole); }

// The header lines: "Label:" padded to 23 columns ("Burdened parallelism:" fits).
std::string profile_field(const std::string& label, const std::string& value) {
    return fmt::format("{:<23}{}\n", label + ":", value);
}

namespace {


std::string unit_of(const sir::Parallelism& p) { return p.measure == "instructions" ? "instructions" : "cycles"; }

std::string header_text(const sir::Parallelism& p, const std::string& title) {
    std::string out = heading(title);
    out += profile_field("Measure", p.measure == "instructions" ? "instructions of user code"
                                                        : "cycles (simulated cycles of user code)");
    out += profile_field("Burden", fmt::format("{} {} per P node on a chain", commas(p.burden), unit_of(p)));
    out += profile_field("Graph", fmt::format("{} nodes, {} W nodes, {} dependence{}", commas(p.nodes), commas(p.w_nodes),
                                      commas(p.dependences), p.dependences == 1 ? "" : "s"));
    out += profile_field("Complete", p.complete ? "yes"
                                        : fmt::format("no: the node limit was reached; {} {} of work have no W node",
                                                      commas(p.lost_work), unit_of(p)));
    out += profile_field("OSPG log", p.log.empty() ? "none (run with --ospg-log=FILE to keep the graph for what-if analyses)"
                                           : p.log);
    out += "\n";
    out += profile_field("Work", commas(p.work));
    out += profile_field("Span", commas(p.span));
    out += profile_field("Parallelism", ratio_text(p.work, p.span));
    out += profile_field("Burdened span", commas(p.burdened_span));
    out += profile_field("Burdened parallelism", ratio_text(p.work, p.burdened_span));
    out += profile_field("Serial work", p.span == 0 ? commas(p.serial) + " outside every directive"
                                            : fmt::format("{} outside every directive ({}% of the span)",
                                                          commas(p.serial), percent_text(p.serial, p.span)));
    return out;
}

std::string directives_text(const sir::Parallelism& p, const SiteNamer& name) {
    std::vector<const sir::ParallelismDirective*> order;
    for (const sir::ParallelismDirective& d : p.directives) order.push_back(&d);
    // Serial % descending is serial descending (one span); ties by site.
    std::stable_sort(order.begin(), order.end(),
                     [](const sir::ParallelismDirective* a, const sir::ParallelismDirective* b) {
                         return a->serial != b->serial ? a->serial > b->serial : a->site < b->site;
                     });
    std::string out = "\n" + heading("Directives (most serial work on the critical path first)");
    Table t;
    t.column("Directive", Table::kLeft);
    t.column("Instances", Table::kRight);
    t.column("Work", Table::kRight);
    t.column("Span", Table::kRight);
    t.column("Parallelism", Table::kRight);
    t.column("Serial %", Table::kRight);
    t.row({"Program", "1", commas(p.work), commas(p.span), ratio_text(p.work, p.span),
           percent_text(p.serial, p.span)});
    for (const sir::ParallelismDirective* d : order)
        t.row({name(d->site), commas(d->instances), commas(d->work), commas(d->span), ratio_text(d->work, d->span),
               percent_text(d->serial, p.span)});
    return out + t.render();
}

constexpr uint64_t kMaxBurden = 1000000000000ull;

constexpr uint64_t kSpeedupCores[] = {2, 4, 8, 16, 32, 64};

std::string speedup_text(const sir::Parallelism& p) {
    std::string out =
        "\n" + heading("Speedup estimates (upper: min(cores, parallelism); lower: work / (work / cores + burdened "
                       "span))");
    Table t;
    t.column("Cores", Table::kRight);
    t.column("Upper", Table::kRight);
    t.column("Lower", Table::kRight);
    for (uint64_t cores : kSpeedupCores) {
        // parallelism < cores exactly when work < cores * span; no work: no bounds.
        std::string upper = p.span == 0                             ? "-"
                            : u128(p.work) < u128(cores) * p.span ? ratio_text(p.work, p.span)
                                                                  : ratio_text(cores, 1);
        std::string lower = ratio_text(u128(p.work) * cores, u128(p.work) + u128(cores) * p.burdened_span);
        t.row({std::to_string(cores), upper, lower});
    }
    return out + t.render();
}

std::string fragments_text(const sir::Parallelism& p, const SiteNamer& name) {
    std::string out = "\n" + heading("Code regions on the critical path (most serial work first)");
    if (p.fragments.empty()) return out + "(none: the program did no work)\n";
    // What-if profiles divide the serial work: then the work is shown too.
    bool measured = std::any_of(p.fragments.begin(), p.fragments.end(),
                                [](const sir::ParallelismFragment& f) { return f.work != f.serial; });
    Table t;
    t.column("From", Table::kLeft);
    t.column("To", Table::kLeft);
    t.column("Label", Table::kLeft);
    t.column("W nodes", Table::kRight);
    if (measured) t.column("Work", Table::kRight);
    t.column("Serial", Table::kRight);
    t.column("% of span", Table::kRight);
    for (const sir::ParallelismFragment& f : p.fragments) {
        std::string label = "-";
        if (f.label != 0) {
            label = std::to_string(f.label);
            for (const sir::ParallelismLabel& l : p.labels)
                if (l.id == f.label) label = l.name;
        }
        std::vector<std::string> row{f.from == 0 ? "program start" : name(f.from),
                                     f.to == 0 ? "program end" : name(f.to), label, commas(f.count)};
        if (measured) row.push_back(commas(f.work));
        row.push_back(commas(f.serial));
        row.push_back(percent_text(f.serial, p.span));
        t.row(row);
    }
    return out + t.render();
}

struct ParallelismOptions {
    std::string path;
    std::string measure;  // "" = the profile's
    std::string burden;   // "" = the profile's
    std::string output;   // "" = stdout
};

std::string parallelism_text(const ParallelismOptions& o) {
    std::ostringstream out;
    if (is_ospg_log(o.path)) {
        std::optional<uint64_t> burden;
        if (!o.burden.empty()) burden = std::stoull(o.burden);  // checked by the option
        OspgProfile profile = std::move(profiles_from_log(o.path, o.measure, burden, std::vector<std::vector<WhatIfRegion>>(1))[0]);
        std::string program = basename_of(profile.program);
        print_parallelism(profile.parallelism, profile.site_name,
                          "Parallelism profile of " + (program.empty() ? std::string("the program") : program) +
                              " (from the OSPG log)",
                          out);
        return out.str();
    }
    sir::Document doc = load_document(o.path);
    if (!doc.parallelism)
        throw Error(o.path + " has no parallelism profile (an OpenMP run with --ospg=yes, the default)");
    const sir::Parallelism& p = *doc.parallelism;
    if (!o.measure.empty())
        throw Error("--measure: a document's profile is in " + p.measure + "; give the OSPG log to change it");
    if (!o.burden.empty())
        throw Error("--burden: a document's profile has burden " + std::to_string(p.burden) +
                    "; give the OSPG log to change it");
    print_parallelism(p, document_site_namer(doc), "Parallelism profile of " + program_name(doc), out);
    return out.str();
}

}  // namespace

void print_parallelism(const sir::Parallelism& p, const SiteNamer& name, const std::string& title,
                       std::ostream& out) {
    out << header_text(p, title) << directives_text(p, name) << speedup_text(p) << fragments_text(p, name);
}

SiteNamer document_site_namer(const sir::Document& doc) {
    struct Names {
        std::vector<sir::ParallelismSite> sites;
        std::vector<sir::ParallelismLabel> labels;
        std::vector<sir::ProfRegion> regions;
    };
    auto names = std::make_shared<Names>();
    if (doc.parallelism) {
        names->sites = doc.parallelism->sites;
        names->labels = doc.parallelism->labels;
    }
    if (doc.region_profile) names->regions = doc.region_profile->regions;
    return [names](uint32_t id) -> std::string {
        if (id == 0) return "program";
        auto s = std::find_if(names->sites.begin(), names->sites.end(),
                              [id](const sir::ParallelismSite& x) { return x.id == id; });
        if (s == names->sites.end()) return fmt::format("site {}", id);
        if (!s->region.empty()) {
            auto r = std::find_if(names->regions.begin(), names->regions.end(),
                                  [&](const sir::ProfRegion& x) { return x.id == s->region; });
            if (r == names->regions.end()) return s->region;
            std::string where = r->file.empty() ? "???" : basename_of(r->file);
            if (r->first_line != 0 || r->last_line != 0)
                where += r->first_line == r->last_line ? fmt::format(":{}", r->first_line)
                                                       : fmt::format(":{}-{}", r->first_line, r->last_line);
            return fmt::format("{} {} {}", r->id, r->type, where);
        }
        std::string label = std::to_string(s->label);
        for (const sir::ParallelismLabel& l : names->labels)
            if (l.id == s->label) label = l.name;
        std::string where = s->file.empty() ? "???" : basename_of(s->file);
        if (s->line != 0) where += fmt::format(":{}", s->line);
        return fmt::format("what-if '{}' {} {}", label, s->edge, where);
    };
}

void add_parallelism_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<ParallelismOptions>();
    CLI::App* cmd = app.add_subcommand(
        "parallelism",
        "OMP-WHIP's parallelism profile: work, span, parallelism per directive, speedup estimates, the critical path");
    cmd->add_option("FILE", o->path,
                    "Profile document of an OpenMP run, or its OSPG log (--ospg-log) to analyse again")
        ->required()
        ->type_name("FILE|LOG");
    cmd->add_option("--measure", o->measure,
                    "OSPG logs only: measure work in cycles or instructions (default: the log's)")
        ->type_name("cycles|instructions")
        ->check(CLI::IsMember({"cycles", "instructions"}).description(""));
    // As the tool's --ospg-burden: a whole number from 0 to 10^12.
    cmd->add_option("--burden", o->burden, "OSPG logs only: the burden per P node, in the measure's unit "
                                           "(default: the log's)")
        ->type_name("N")
        ->check(CLI::Validator(
            [](const std::string& v) -> std::string {
                bool digits = !v.empty() && v.size() <= 13 &&
                              std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
                if (digits && std::stoull(v) <= kMaxBurden) return "";
                return "expected a whole number from 0 to " + std::to_string(kMaxBurden) + ", not '" + v + "'";
            },
            "", ""));
    cmd->add_option("-o,--output", o->output, "Write the profile to this file instead of the standard output")
        ->type_name("OUT");
    cmd->callback([o, &action] {
        action = [o] {
            std::string text = parallelism_text(*o);
            if (o->output.empty()) std::cout << text;
            else write_file(o->output, text);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
