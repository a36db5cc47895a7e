// ompsim-report whatif LOG --region SPEC... [--measure=cycles|instructions]
//                      [--burden=N] [--output=OUT]
//
// OMP-WHIP's what-if analysis (Boushehrinejadmoradi, Yoga and Nagarakatte,
// SC 2018, figure 4) on an OSPG log (--ospg-log, docs/parallelism.md): the
// serial work of the W nodes each --region selects is divided by its factor
// while every work stays as measured, and the program's parallelism profile
// is recomputed. SPEC is LABEL[:FACTOR] (the W nodes between
// OMPSIM_WHATIF_BEGIN/END("LABEL")) or FILE:FIRST-LAST[:FACTOR] (the W nodes
// whose two bounding events lie in those lines of FILE); FACTOR defaults to
// 16 (the paper's 16 cores). A W node several regions select is divided by
// the product of their factors.
//
// Output: the measured (baseline) program figures, the what-if profile as
// 'parallelism' prints it, and a table of the program's span and
// parallelism, and of the three directives with the most serial work on the
// measured critical path, when every selected region is optimised by 2, 4,
// 8, 16 and 64 at once (docs/ompsim-report.md, "whatif").
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

struct WhatIfOptions {
    std::string log;
    std::vector<std::string> regions;  // --region SPEC, as given
    std::string measure;               // "" = the log's
    std::string burden;                // "" = the log's
    bool burden_given = false;
    std::string output;                // "" = stdout
};

// The factors of the table.
const double kTableFactors[] = {2, 4, 8, 16, 64};
// Directive columns of the table.
constexpr size_t kTableDirectives = 3;

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "14-18" -> true (the syntax only).
bool is_range(const std::string& s) {
    size_t dash = s.find('-');
    return dash != std::string::npos && all_digits(s.substr(0, dash)) && all_digits(s.substr(dash + 1));
}

double parse_factor(const std::string& text) {
    const char* p = text.c_str();
    char* end = nullptr;
    double v = 0;
    bool ok = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.');
    if (ok) {
        errno = 0;
        v = std::strtod(p, &end);
        ok = end && *end == '\0' && errno == 0 && std::isfinite(v) && v > 0;
    }
    if (!ok) throw Error(fmt::format("--region: factor must be a positive number: '{}'", text));
    return v;
}

uint32_t parse_line(const std::string& text, const std::string& spec) {
    unsigned long long v = text.size() <= 10 ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (v == 0 || v > UINT32_MAX)
        throw Error(fmt::format("--region {}: line numbers start at 1 and are below 2^32, not '{}'", spec, text));
    return uint32_t(v);
}

// LABEL[:FACTOR] or FILE:FIRST-LAST[:FACTOR]. A label holding ':' needs its
// factor ("a:b:16").
WhatIfRegion parse_region(const std::string& spec) {
    WhatIfRegion r;
    std::string range;
    size_t c = spec.rfind(':');
    if (c == std::string::npos) {
        r.label = spec;
    } else {
        std::string head = spec.substr(0, c), tail = spec.substr(c + 1);
        if (c > 0 && is_range(tail)) {  // FILE:FIRST-LAST
            r.file = head;
            range = tail;
        } else {  // ...:FACTOR
            size_t c2 = head.rfind(':');
            if (c2 != std::string::npos && c2 > 0 && is_range(head.substr(c2 + 1))) {
                r.file = head.substr(0, c2);
                range = head.substr(c2 + 1);
            } else {
                r.label = head;
            }
            r.factor = parse_factor(tail);
        }
    }
    if (!range.empty()) {
        size_t dash = range.find('-');
        r.first = parse_line(range.substr(0, dash), spec);
        r.last = parse_line(range.substr(dash + 1), spec);
        if (r.first > r.last)
            throw Error(fmt::format("--region {}: the first line {} is after the last {}", spec, r.first, r.last));
    } else if (r.label.empty()) {
        throw Error(fmt::format("--region '{}': expected LABEL[:FACTOR] or FILE:FIRST-LAST[:FACTOR]", spec));
    }
    return r;
}

std::string factor_string(double f) { return fmt::format("{:g}", f); }

std::string region_text(const WhatIfRegion& r) {
    if (!r.label.empty()) return "'" + r.label + "'";
    return fmt::format("{}:{}-{}", r.file, r.first, r.last);
}


const sir::ParallelismDirective* directive(const sir::Parallelism& p, uint32_t site) {
    for (const sir::ParallelismDirective& d : p.directives)
        if (d.site == site) return &d;
    return nullptr;
}

// A document rather than a log: XML (after blanks).
bool looks_like_document(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char c;
    while (in.get(c))
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c == '<';
    return false;
}

std::string whatif_text(const WhatIfOptions& o) {
    if (o.regions.empty())
        throw Error("whatif: no --region given; choose the code to optimise with --region LABEL[:FACTOR] or "
                    "--region FILE:FIRST-LAST[:FACTOR]");
    std::vector<WhatIfRegion> regions;
    for (const std::string& spec : o.regions) regions.push_back(parse_region(spec));
    if (!is_ospg_log(o.log) && looks_like_document(o.log))
        throw Error(o.log + " is a profile document; whatif needs the OSPG log (run with --ospg-log=FILE)");
    std::optional<uint64_t> burden;
    if (o.burden_given) {
        const std::string& b = o.burden;
        bool ok = all_digits(b) && (b.size() < 20 || (b.size() == 20 && b <= "18446744073709551615"));
        if (!ok) throw Error(fmt::format("--burden: expected a whole number of the measure's unit, not '{}'", b));
        burden = std::strtoull(b.c_str(), nullptr, 10);
    }

    // One reading of the log: as measured, with the factors given, and with
    // each factor of the table applied to every region.
    std::vector<std::vector<WhatIfRegion>> sets{{}, regions};
    for (double f : kTableFactors) {
        sets.push_back(regions);
        for (WhatIfRegion& r : sets.back()) r.factor = f;
    }
    std::vector<OspgProfile> profiles = profiles_from_log(o.log, o.measure, burden, sets);
    const OspgProfile& base = profiles[0];
    const OspgProfile& what = profiles[1];
    const sir::Parallelism& bp = base.parallelism;

    std::ostringstream out;
    std::vector<std::string> given;
    for (const WhatIfRegion& r : regions) given.push_back(region_text(r) + " / " + factor_string(r.factor));
    std::string program = basename_of(base.program);
    if (program.empty()) program = "the program";
    out << heading("What-if analysis of " + program + " (serial work of the selected regions divided, work as measured)");
    out << profile_field(given.size() == 1 ? "Region" : "Regions", join(given, ", "));
    out << profile_field("Measured", fmt::format("work {}, span {}, parallelism {}", commas(bp.work), commas(bp.span),
                                         ratio_text(bp.work, bp.span)))
        << "\n";

    print_parallelism(what.parallelism, what.site_name, "What-if profile of " + program + ": " + join(given, ", "),
                      out);

    // The directives with the most serial work on the measured critical path.
    std::vector<const sir::ParallelismDirective*> top;
    for (const sir::ParallelismDirective& d : bp.directives)
        if (d.serial > 0) top.push_back(&d);
    std::stable_sort(top.begin(), top.end(), [](const sir::ParallelismDirective* a, const sir::ParallelismDirective* b) {
        return a->serial > b->serial;
    });
    if (top.size() > kTableDirectives) top.resize(kTableDirectives);

    Table t;
    t.column("Factor", Table::kLeft);
    t.column("Span", Table::kRight);
    t.column("Parallelism", Table::kRight);
    for (const sir::ParallelismDirective* d : top) t.column(base.site_name(d->site), Table::kRight);
    auto add_row = [&](const std::string& label, const sir::Parallelism& p) {
        std::vector<std::string> row{label, commas(p.span), ratio_text(p.work, p.span)};
        for (const sir::ParallelismDirective* d : top) {
            const sir::ParallelismDirective* x = directive(p, d->site);
            row.push_back(x ? ratio_text(x->work, x->span) : "-");
        }
        t.row(row);
    };
    add_row("1 (measured)", bp);
    for (size_t i = 0; i < sizeof kTableFactors / sizeof kTableFactors[0]; ++i)
        add_row(factor_string(kTableFactors[i]), profiles[2 + i].parallelism);
    out << "\n" << heading("Program parallelism when the selected regions are optimised by") << t.render();
    out << "(Each factor divides the serial work of every selected region at once; the factors given with\n"
           "--region are not used here.";
    if (top.size() == 1)
        out << " The directive column: the parallelism of the directive with the most serial\n"
               "work on the measured critical path.";
    else if (!top.empty())
        out << " The directive columns: the parallelism of the " << top.size()
            << " directives with the most serial\nwork on the measured critical path.";
    out << ")\n";
    return out.str();
}

}  // namespace

void add_whatif_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<WhatIfOptions>();
    CLI::App* cmd = app.add_subcommand(
        "whatif", "OMP-WHIP's what-if analysis: the parallelism profile of an OSPG log with chosen code optimised");
    cmd->add_option("LOG", o->log, "The OSPG log of the run (ompsim --ospg-log=FILE)")->required();
    cmd->add_option("--region", o->regions,
                    "Code to optimise: the W nodes of a what-if label (OMPSIM_WHATIF_BEGIN/END), or those whose two "
                    "bounding events lie in lines FIRST-LAST of FILE; its serial work is divided by FACTOR (a "
                    "positive number, default 16); repeatable, at least one")
        ->type_name("LABEL[:FACTOR]|FILE:FIRST-LAST[:FACTOR]")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--measure", o->measure, "The work's unit (default: the log's measure line)")
        ->type_name("cycles|instructions")
        ->check(CLI::IsMember({"cycles", "instructions"}).description(""));
    cmd->add_option("--burden", o->burden,
                    "The burden of a P node on a chain, in the work's unit (default: the log's burden line)")
        ->type_name("N");
    cmd->add_option("-o,--output", o->output, "Write the report to this file instead of the standard output")
        ->type_name("OUT");
    cmd->callback([o, cmd, &action] {
        o->burden_given = cmd->count("--burden") > 0;
        action = [o] {
            std::string text = whatif_text(*o);
            if (o->output.empty()) std::cout << text;
            else write_file(o->output, text);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
