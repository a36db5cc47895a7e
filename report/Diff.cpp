// ompsim-report diff BASE NEW [--limit EVENT=PCT%|EVENT=ABS]... [--format=text|json]
//
// Compares the program totals of two documents of the same event list, event
// by event (old, new, change, factor), and the functions (matched by file
// path and function name) with the largest changes of Cycles. Limits make it
// a regression check: exit 0 when no limit is exceeded, 1 when at least one
// is (a "LIMIT EXCEEDED: ..." line for each), 2 on any error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

const size_t kTopFunctions = 10;

bool is_decimal(const std::string& s) {
    size_t i = 0, digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
    if (digits == 0) return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        size_t frac = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++frac;
        if (frac == 0) return false;
    }
    return i == s.size();
}

// Signed new - old as a JSON number.
nlohmann::ordered_json json_change(uint64_t old_value, uint64_t new_value) {
    if (new_value >= old_value) return nlohmann::ordered_json(new_value - old_value);
    return nlohmann::ordered_json(-static_cast<int64_t>(old_value - new_value));
}

// new / old: a number; "inf" when old is 0 and new > 0; null when both are 0.
nlohmann::ordered_json json_ratio(uint64_t old_value, uint64_t new_value, bool percent) {
    if (old_value == 0) return new_value == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json("inf");
    long double r = static_cast<long double>(new_value) / old_value;
    if (percent) r = (r - 1) * 100;
    return nlohmann::ordered_json(static_cast<double>(r));
}

std::string limit_change_text(const Limit& limit, uint64_t old_value, uint64_t new_value) {
    if (!limit.percent) return new_value >= old_value ? fmt::format("+{}", new_value - old_value)
                                                       : fmt::format("-{}", old_value - new_value);
    return change_percent_text(old_value, new_value);
}

struct FunctionChange {
    std::string file, function;
    uint64_t base = 0, fresh = 0;
    uint64_t magnitude() const { return base > fresh ? base - fresh : fresh - base; }
};

}  // namespace

bool parse_limit(const std::string& spec, Limit& limit, std::string& error) {
    size_t eq = spec.find('=');
    std::string value = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
    limit = Limit();
    if (eq != std::string::npos && eq > 0) {
        limit.event = spec.substr(0, eq);
        limit.text = value;
        limit.percent = !value.empty() && value.back() == '%';
        if (limit.percent) value.pop_back();
        if (is_decimal(value)) {
            limit.value = std::stold(value);
            return true;
        }
    }
    error = fmt::format("bad --limit '{}': expected EVENT=PCT% or EVENT=ABS, e.g. D1mr=2% or Ir=1000", spec);
    return false;
}

bool limit_exceeded(const Limit& limit, uint64_t old_value, uint64_t new_value) {
    if (new_value <= old_value) return false;
    long double increase = static_cast<long double>(new_value - old_value);
    if (!limit.percent) return increase > limit.value;
    if (old_value == 0) return true;
    return increase * 100 > limit.value * old_value;
}

int run_diff(const DiffOptions& o, std::ostream& out, std::ostream& messages) {
    if (o.format != "text" && o.format != "json") throw Error("--format must be text or json, not '" + o.format + "'");
    std::vector<Limit> limits;
    for (const auto& spec : o.limits) {
        Limit l;
        std::string error;
        if (!parse_limit(spec, l, error)) throw Error(error);
        limits.push_back(l);
    }
    sir::Document base = load_document(o.base);
    sir::Document fresh = load_document(o.fresh);
    if (base.events != fresh.events)
        throw Error(fmt::format("different machines: {} has events '{}' (machine {}), {} has '{}' (machine {})", o.base,
                                join(base.events), base.machine.name, o.fresh, join(fresh.events),
                                fresh.machine.name));
    const std::vector<std::string>& events = base.events;

    // One limit per event at most.
    std::vector<const Limit*> limit_of(events.size(), nullptr);
    for (const auto& l : limits) {
        int i = base.event_index(l.event);
        if (i < 0) throw Error(fmt::format("unknown event '{}' in --limit {}={}; known events: {}", l.event, l.event,
                                           l.text, join(events)));
        if (limit_of[i]) throw Error(fmt::format("--limit given twice for {}", l.event));
        limit_of[i] = &l;
    }

    std::vector<bool> exceeded(events.size(), false);
    bool any = false;
    for (size_t i = 0; i < events.size(); ++i)
        if (limit_of[i] && limit_exceeded(*limit_of[i], base.totals[i], fresh.totals[i])) exceeded[i] = any = true;

    // Functions matched by file and name; missing on one side counts 0.
    const int rank = events.empty() ? -1 : rank_event(base);
    std::vector<FunctionChange> changes;
    if (rank >= 0) {
        std::map<std::pair<std::string, std::string>, FunctionChange> by_key;
        for (const auto& f : functions_of(base)) {
            auto& c = by_key[{f.file->path, f.region->name}];
            c.file = f.file->path, c.function = f.region->name;
            c.base += f.region->costs[rank];
        }
        for (const auto& f : functions_of(fresh)) {
            auto& c = by_key[{f.file->path, f.region->name}];
            c.file = f.file->path, c.function = f.region->name;
            c.fresh += f.region->costs[rank];
        }
        for (const auto& kv : by_key)
            if (kv.second.magnitude() != 0) changes.push_back(kv.second);
        std::stable_sort(changes.begin(), changes.end(), [](const FunctionChange& a, const FunctionChange& b) {
            return a.magnitude() > b.magnitude();
        });
        if (changes.size() > kTopFunctions) changes.resize(kTopFunctions);
    }

    std::vector<std::string> exceeded_lines;
    for (size_t i = 0; i < events.size(); ++i)
        if (exceeded[i])
            exceeded_lines.push_back(fmt::format("LIMIT EXCEEDED: {} {} (limit {}): {} -> {}", events[i],
                                                 limit_change_text(*limit_of[i], base.totals[i], fresh.totals[i]),
                                                 limit_of[i]->text, base.totals[i], fresh.totals[i]));

    if (o.format == "json") {
        nlohmann::ordered_json j;
        j["base"] = o.base;
        j["new"] = o.fresh;
        j["events"] = nlohmann::ordered_json::array();
        for (size_t i = 0; i < events.size(); ++i) {
            nlohmann::ordered_json e;
            e["name"] = events[i];
            e["base"] = base.totals[i];
            e["new"] = fresh.totals[i];
            e["change"] = json_change(base.totals[i], fresh.totals[i]);
            e["change_percent"] = json_ratio(base.totals[i], fresh.totals[i], true);
            e["factor"] = json_ratio(base.totals[i], fresh.totals[i], false);
            e["limit"] = limit_of[i] ? nlohmann::ordered_json(limit_of[i]->text) : nlohmann::ordered_json(nullptr);
            e["exceeded"] = bool(exceeded[i]);
            j["events"].push_back(e);
        }
        j["functions"] = nlohmann::ordered_json::array();
        for (const auto& c : changes) {
            nlohmann::ordered_json f;
            f["file"] = c.file;
            f["function"] = c.function;
            f["event"] = events[rank];
            f["base"] = c.base;
            f["new"] = c.fresh;
            f["change"] = json_change(c.base, c.fresh);
            f["factor"] = json_ratio(c.base, c.fresh, false);
            j["functions"].push_back(f);
        }
        j["exceeded"] = any;
        out << j.dump(2) << "\n";
        for (const auto& l : exceeded_lines) messages << l << "\n";
        return any ? kExitLimitExceeded : kExitOk;
    }

    out << field_line("Base", o.base);
    out << field_line("New", o.fresh);
    if (base.machine.name != fresh.machine.name)
        out << field_line("Machines", fmt::format("{} -> {}", base.machine.name, fresh.machine.name));
    out << "\n" << heading("Program totals");
    Table t;
    t.column("Event", Table::kLeft);
    t.column("Base", Table::kRight);
    t.column("New", Table::kRight);
    t.column("Change", Table::kRight);
    t.column("Change %", Table::kRight);
    t.column("Factor", Table::kRight);
    if (!limits.empty()) {
        t.column("Limit", Table::kRight);
        t.column("Status", Table::kLeft);
    }
    for (size_t i = 0; i < events.size(); ++i) {
        std::vector<std::string> r = {events[i],
                                      commas(base.totals[i]),
                                      commas(fresh.totals[i]),
                                      signed_change(base.totals[i], fresh.totals[i]),
                                      change_percent_text(base.totals[i], fresh.totals[i]),
                                      factor_text(base.totals[i], fresh.totals[i])};
        if (!limits.empty()) {
            r.push_back(limit_of[i] ? limit_of[i]->text : "");
            r.push_back(limit_of[i] ? (exceeded[i] ? "EXCEEDED" : "ok") : "");
        }
        t.row(r);
    }
    out << t.render();

    if (rank >= 0) {
        out << "\n" << heading(fmt::format("Largest {} changes by function", events[rank]));
        Table ft;
        ft.column("Base", Table::kRight);
        ft.column("New", Table::kRight);
        ft.column("Change", Table::kRight);
        ft.column("Factor", Table::kRight);
        ft.column("Function", Table::kLeft);
        for (const auto& c : changes)
            ft.row({commas(c.base), commas(c.fresh), signed_change(c.base, c.fresh), factor_text(c.base, c.fresh),
                    c.file + ":" + c.function});
        out << (ft.empty() ? std::string("(no function changed)\n") : ft.render());
    }
    if (!exceeded_lines.empty()) {
        out << "\n";
        for (const auto& l : exceeded_lines) out << l << "\n";
    }
    return any ? kExitLimitExceeded : kExitOk;
}

void add_diff_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<DiffOptions>();
    CLI::App* cmd = app.add_subcommand("diff", "Compare the totals and functions of two profiles; check limits");
    cmd->add_option("BASE", o->base, "The reference profile")->required();
    cmd->add_option("NEW", o->fresh, "The profile to check")->required();
    cmd->add_option("--limit", o->limits,
                    "Fail (exit 1) if NEW exceeds BASE in EVENT by more than PCT percent (relative increase) or "
                    "by more than ABS (absolute increase); repeatable, one per event")
        ->type_name("EVENT=PCT%|EVENT=ABS")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--format", o->format, "Output format: text (default) or json")
        ->type_name("text|json")
        ->check(CLI::IsMember({"text", "json"}).description(""));
    cmd->footer(
        "Exit status: 0 no limit exceeded, 1 at least one limit exceeded (a line\n"
        "'LIMIT EXCEEDED: EVENT CHANGE (limit L): OLD -> NEW' for each; on stderr\n"
        "with --format=json), 2 any error (unreadable or invalid document, different\n"
        "event lists, bad arguments).");
    cmd->callback([o, &action] {
        action = [o] { return run_diff(*o, std::cout, std::cerr); };
    });
}

}  // namespace report
}  // namespace ompsim
