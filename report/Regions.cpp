// ompsim-report regions FILE [--events=A,B] [--states-by-node]
//
// ompP's text profile of the <region-profile> section (Fürlinger and
// Moore): the region overview, the flat profile per region and thread with
// the columns of its type and a few cache events, the callgraph with
// inclusive and exclusive times, the OpenMP states per thread (and per
// node), and the overhead analysis of every parallel region.
// docs/ompsim-report.md defines every figure.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

bool is_one_of(const std::string& type, std::initializer_list<const char*> types) {
    for (const char* t : types)
        if (type == t) return true;
    return false;
}

// The value of a named column of a node's thread (0 when the document has no
// such column).
uint64_t value_of(const sir::RegionProfile& p, const sir::NodeThread& t, const std::string& column) {
    int i = p.column(column);
    return i < 0 ? 0 : t.columns[static_cast<size_t>(i)];
}

uint64_t states_sum(const sir::NodeThread& t) {
    uint64_t s = 0;
    for (uint64_t v : t.states) s = add_sat(s, v);
    return s;
}

// The node ids whose nearest PARALLEL ancestor-or-self is `parallel`: the
// parallel node and its descendants, not descending into nested parallels.
std::vector<const sir::ProfNode*> parallel_members(const sir::RegionProfile& p, const sir::ProfNode& parallel) {
    std::vector<const sir::ProfNode*> out{&parallel};
    std::set<uint32_t> inside{parallel.id};
    // Parents come before children, so one pass in id order finds them all.
    for (const sir::ProfNode& n : p.nodes) {
        if (!n.parent || !inside.count(*n.parent) || n.id == parallel.id) continue;
        if (type_of(p, n) == "PARALLEL") continue;
        inside.insert(n.id);
        out.push_back(&n);
    }
    return out;
}

// ---------------------------------------------------------------- the text

std::string header_text(const sir::Document& doc, const sir::RegionProfile& p) {
    uint64_t longest = 0, summed = 0;
    for (const sir::NodeThread& t : p.nodes[0].threads) {
        uint64_t e = value_of(p, t, "execT");
        longest = std::max(longest, e);
        summed = add_sat(summed, e);
    }
    std::string out = heading("Region profile");
    out += field_line("Program", command_text(doc.run));
    out += field_line("Threads", std::to_string(p.threads));
    out += field_line("Times", "in simulated cycles (each thread's core clock)");
    out += field_line("Regions", fmt::format("{} ({} call-graph nodes)", p.regions.size(), p.nodes.size()));
    out += field_line("Run time", fmt::format("{} cycles (the longest thread; {} summed over the threads)",
                                              commas(longest), commas(summed)));
    return out;
}

std::string overview_text(const sir::RegionProfile& p) {
    std::string out = "\n" + heading("Regions (in the order the run first entered them)");
    Table t;
    t.column("Region", Table::kLeft);
    t.column("Type", Table::kLeft);
    t.column("Location", Table::kLeft);
    t.column("Function", Table::kLeft);
    t.column("Name", Table::kLeft);
    for (const sir::ProfRegion& r : p.regions)
        t.row({r.id, r.type, region_location(r), r.function.empty() ? "???" : r.function, r.name});
    return out + t.render();
}

// The events shown in the flat profile: --events, or by default the data
// read misses of level 1 and of the last level.
std::vector<int> event_columns(const sir::Document& doc, const std::string& spec, bool given) {
    std::vector<int> out;
    if (given) {
        for (const std::string& name : split_list(spec)) {
            int i = doc.event_index(name);
            if (i < 0)
                throw Error(fmt::format("--events: unknown event '{}'; the document's events are {}", name,
                                        join(doc.events)));
            out.push_back(i);
        }
        return out;
    }
    int first = doc.event_index("D1mr");
    if (first >= 0) out.push_back(first);
    // The last level: the highest D<k>mr, or DLmr.
    int last = doc.event_index("DLmr");
    for (int k = 9; k >= 2 && last < 0; --k) last = doc.event_index(fmt::format("D{}mr", k));
    if (last >= 0 && last != first) out.push_back(last);
    return out;
}

std::string flat_text(const sir::Document& doc, const sir::RegionProfile& p, const std::vector<int>& events) {
    std::string out = "\n" + heading("Flat profile (each region summed over its call-graph nodes; times in cycles)");
    std::map<std::string, std::vector<const sir::ProfNode*>> nodes_of;
    for (const sir::ProfNode& n : p.nodes)
        if (n.parent) nodes_of[n.region].push_back(&n);
    for (const sir::ProfRegion& r : p.regions) {
        std::vector<std::string> columns;
        for (const std::string& c : columns_for_type(r.type))
            if (p.column(c) >= 0) columns.push_back(c);
        // Per thread, the sums over the region's nodes.
        std::map<uint32_t, std::vector<uint64_t>> rows;
        const size_t width = columns.size() + events.size();
        for (const sir::ProfNode* n : nodes_of[r.id]) {
            for (const sir::NodeThread& t : n->threads) {
                std::vector<uint64_t>& row = rows.try_emplace(t.id, width, 0).first->second;
                for (size_t c = 0; c < columns.size(); ++c) row[c] = add_sat(row[c], value_of(p, t, columns[c]));
                for (size_t e = 0; e < events.size(); ++e)
                    row[columns.size() + e] = add_sat(row[columns.size() + e], t.costs[static_cast<size_t>(events[e])]);
            }
        }
        out += "\n" + region_label(r) + " " + r.type + "\n";
        if (rows.empty()) {
            out += "(no call-graph node)\n";
            continue;
        }
        Table t;
        t.column("TID", Table::kRight);
        for (const std::string& c : columns) t.column(c, Table::kRight);
        for (int e : events) t.column(doc.events[static_cast<size_t>(e)], Table::kRight);
        std::vector<uint64_t> sum(width, 0);
        for (const auto& [tid, row] : rows) {
            std::vector<std::string> cells{std::to_string(tid)};
            for (size_t i = 0; i < width; ++i) {
                cells.push_back(commas(row[i]));
                sum[i] = add_sat(sum[i], row[i]);
            }
            t.row(cells);
        }
        std::vector<std::string> cells{"SUM"};
        for (uint64_t v : sum) cells.push_back(commas(v));
        t.row(cells);
        out += t.render();
    }
    return out;
}

// ompP's tree: "+-" before the last child, "|-" before the others, and
// under a child that has later siblings "| ", else two blanks. Iterative:
// call graphs of recursive functions can be deep.
void tree_rows(const sir::Document& doc, const sir::RegionProfile& p,
               const std::map<uint32_t, std::vector<const sir::ProfNode*>>& children, Table& t) {
    const uint64_t whole = node_times(p, p.nodes[0]).inclusive;
    struct Item {
        const sir::ProfNode* node;
        std::string lead;  // the prefix of the node's own line, connector included
        std::string base;  // the prefix of its children's lines
    };
    std::vector<Item> stack{{&p.nodes[0], "", ""}};
    while (!stack.empty()) {
        Item item = std::move(stack.back());
        stack.pop_back();
        const sir::ProfNode& n = *item.node;
        NodeTimes times = node_times(p, n);
        std::string label = n.parent ? region_label(*p.region(n.region))
                                     : fmt::format("[{}: {} thread{}]", program_name(doc), p.threads,
                                                   p.threads == 1 ? "" : "s");
        t.row({std::to_string(n.id), commas(times.inclusive), share_text(times.inclusive, whole),
               commas(times.exclusive), share_text(times.exclusive, whole), commas(times.entries), type_of(p, n),
               item.lead + label});
        auto it = children.find(n.id);
        if (it == children.end()) continue;
        // Pushed last child first, so the first child is printed next.
        const std::vector<const sir::ProfNode*>& kids = it->second;
        for (size_t i = kids.size(); i-- > 0;) {
            bool last = i + 1 == kids.size();
            stack.push_back({kids[i], item.base + (last ? "+-" : "|-"), item.base + (last ? "  " : "| ")});
        }
    }
}

std::string callgraph_text(const sir::Document& doc, const sir::RegionProfile& p) {
    std::string out = "\n" + heading("Callgraph (times summed over the threads; Exclusive: the node's own states)");
    std::map<uint32_t, std::vector<const sir::ProfNode*>> children;
    for (const sir::ProfNode& n : p.nodes)
        if (n.parent) children[*n.parent].push_back(&n);
    Table t;
    t.column("Node", Table::kRight);
    t.column("Inclusive", Table::kRight);
    t.column("(%)", Table::kRight);
    t.column("Exclusive", Table::kRight);
    t.column("(%)", Table::kRight);
    t.column("execC", Table::kRight);
    t.column("Type", Table::kLeft);
    t.column("Region", Table::kLeft);
    tree_rows(doc, p, children, t);
    return out + t.render();
}

struct StateSplit {
    std::vector<int> work, wait;  // state indexes
    int idle = -1;
};

StateSplit split_states(const sir::RegionProfile& p) {
    StateSplit s;
    for (size_t i = 0; i < p.states.size(); ++i) {
        const std::string& name = p.states[i];
        if (name == "work" || name == "serial" || name == "reduction") s.work.push_back(static_cast<int>(i));
        else if (name == "idle") s.idle = static_cast<int>(i);
        else s.wait.push_back(static_cast<int>(i));
    }
    return s;
}

void states_columns(const sir::RegionProfile& p, Table& t) {
    for (const std::string& s : p.states) t.column(s, Table::kRight);
    t.column("OpenMP Work", Table::kRight);
    t.column("OpenMP Wait", Table::kRight);
    t.column("Total", Table::kRight);
}

void states_cells(const StateSplit& split, const std::vector<uint64_t>& v, std::vector<std::string>& cells) {
    uint64_t work = 0, wait = 0, total = 0;
    for (uint64_t x : v) {
        cells.push_back(commas(x));
        total = add_sat(total, x);
    }
    for (int i : split.work) work = add_sat(work, v[static_cast<size_t>(i)]);
    for (int i : split.wait) wait = add_sat(wait, v[static_cast<size_t>(i)]);
    cells.push_back(commas(work));
    cells.push_back(commas(wait));
    cells.push_back(commas(total));
}

std::string states_text(const sir::RegionProfile& p, bool by_node) {
    const StateSplit split = split_states(p);
    std::string out = "\n" + heading("OpenMP states per thread (cycles in every node; OpenMP Work = work + serial + "
                                     "reduction, OpenMP Wait = the other states but idle)");
    std::map<uint32_t, std::vector<uint64_t>> per_thread;
    for (const sir::ProfNode& n : p.nodes)
        for (const sir::NodeThread& t : n.threads) {
            std::vector<uint64_t>& row = per_thread.try_emplace(t.id, p.states.size(), 0).first->second;
            for (size_t i = 0; i < row.size(); ++i) row[i] = add_sat(row[i], t.states[i]);
        }
    Table t;
    t.column("Thread", Table::kRight);
    states_columns(p, t);
    std::vector<uint64_t> sum(p.states.size(), 0);
    for (const auto& [tid, row] : per_thread) {
        std::vector<std::string> cells{std::to_string(tid)};
        states_cells(split, row, cells);
        t.row(cells);
        for (size_t i = 0; i < row.size(); ++i) sum[i] = add_sat(sum[i], row[i]);
    }
    std::vector<std::string> cells{"SUM"};
    states_cells(split, sum, cells);
    t.row(cells);
    out += t.render();
    if (!by_node) return out;

    out += "\n" + heading("OpenMP states per call-graph node (cycles, summed over the threads)");
    Table nt;
    nt.column("Node", Table::kRight);
    nt.column("Region", Table::kLeft);
    states_columns(p, nt);
    for (const sir::ProfNode& n : p.nodes) {
        std::vector<uint64_t> row(p.states.size(), 0);
        for (const sir::NodeThread& th : n.threads)
            for (size_t i = 0; i < row.size(); ++i) row[i] = add_sat(row[i], th.states[i]);
        std::vector<std::string> c{std::to_string(n.id), n.parent ? n.region + " " + type_of(p, n) : "ROOT"};
        states_cells(split, row, c);
        nt.row(c);
    }
    return out + nt.render();
}

void overhead_cells(const Overheads& o, uint64_t whole, std::vector<std::string>& cells) {
    const uint64_t parts[] = {o.sum(), o.synchronization, o.imbalance, o.limited_parallelism, o.thread_management};
    for (uint64_t v : parts) {
        cells.push_back(commas(v));
        cells.push_back(share_text(v, whole));
    }
}

void overhead_columns(Table& t) {
    for (const char* name : {"Overheads", "Synchronization", "Imbalance", "Limited parallelism", "Thread management"}) {
        t.column(name, Table::kRight);
        t.column("(%)", Table::kRight);
    }
}

std::string overheads_text(const sir::RegionProfile& p) {
    std::string out = "\n" + heading("Overhead analysis (cycles summed over the threads)");
    std::vector<const sir::ProfNode*> parallels;
    for (const sir::ProfNode& n : p.nodes)
        if (n.parent && type_of(p, n) == "PARALLEL") parallels.push_back(&n);
    const uint64_t program = node_times(p, p.nodes[0]).inclusive;
    if (parallels.empty()) return out + "No parallel region.\n";
    std::vector<Overheads> ovh;
    uint64_t covered = 0;
    for (const sir::ProfNode* n : parallels) {
        ovh.push_back(parallel_overheads(p, *n));
        covered = add_sat(covered, ovh.back().total);
    }
    out += field_line("Total time", fmt::format("{} cycles (every thread's run time)", commas(program)));
    out += field_line("Parallel regions", fmt::format("{} call-graph node{}", parallels.size(),
                                                      parallels.size() == 1 ? "" : "s"));
    out += field_line("Coverage", fmt::format("{} cycles ({})", commas(covered), share_text(covered, program)));

    out += "\nOverheads of each parallel region (% of the region's total: its execT summed over the threads):\n";
    Table t;
    t.column("Node", Table::kRight);
    t.column("Region", Table::kLeft);
    t.column("Location", Table::kLeft);
    t.column("Total", Table::kRight);
    overhead_columns(t);
    for (size_t i = 0; i < parallels.size(); ++i) {
        const sir::ProfRegion& r = *p.region(parallels[i]->region);
        std::vector<std::string> cells{std::to_string(parallels[i]->id), r.id, region_location(r),
                                       commas(ovh[i].total)};
        overhead_cells(ovh[i], ovh[i].total, cells);
        t.row(cells);
    }
    out += t.render();

    out += fmt::format("\nOverheads with respect to the whole program (% of {} cycles):\n", commas(program));
    Table w;
    w.column("Node", Table::kRight);
    w.column("Region", Table::kLeft);
    w.column("Total", Table::kRight);
    w.column("(%)", Table::kRight);
    overhead_columns(w);
    Overheads sum;
    for (size_t i = 0; i < parallels.size(); ++i) {
        std::vector<std::string> cells{std::to_string(parallels[i]->id), parallels[i]->region, commas(ovh[i].total),
                                       share_text(ovh[i].total, program)};
        overhead_cells(ovh[i], program, cells);
        w.row(cells);
        sum.total = add_sat(sum.total, ovh[i].total);
        sum.synchronization = add_sat(sum.synchronization, ovh[i].synchronization);
        sum.imbalance = add_sat(sum.imbalance, ovh[i].imbalance);
        sum.limited_parallelism = add_sat(sum.limited_parallelism, ovh[i].limited_parallelism);
        sum.thread_management = add_sat(sum.thread_management, ovh[i].thread_management);
    }
    std::vector<std::string> cells{"SUM", "", commas(sum.total), share_text(sum.total, program)};
    overhead_cells(sum, program, cells);
    w.row(cells);
    out += w.render();
    out += "Synchronization: exclusive time in BARRIER, TASKWAIT and TASKGROUP, enterT of CRITICAL, LOCK and ORDERED;\n"
           "Imbalance: exitBarT of LOOP, SECTIONS and PARALLEL; Limited parallelism: exitBarT of SINGLE;\n"
           "Thread management: startupT + shutdwnT of PARALLEL.\n";
    return out;
}

}  // namespace

// ------------------------------------------------------------ shared helpers

const sir::RegionProfile& region_profile_of(const sir::Document& doc, const std::string& path) {
    if (!doc.region_profile)
        throw Error(path + ": no region profile (run the program under ompsim with OpenMP, OMPSIM_REGION_BEGIN or "
                           "-finstrument-functions)");
    return *doc.region_profile;
}

std::string program_name(const sir::Document& doc) {
    std::string name = basename_of(doc.run.exe);
    return name.empty() ? "program" : name;
}

std::string region_location(const sir::ProfRegion& r) {
    std::string file = r.file.empty() ? "???" : basename_of(r.file);
    if (r.first_line == 0 && r.last_line == 0) return file;
    return fmt::format("{} ({}-{})", file, r.first_line, r.last_line);
}

std::string region_label(const sir::ProfRegion& r) {
    std::string out = r.id + " " + region_location(r);
    if (!r.name.empty()) out += " ('" + r.name + "')";
    else if (r.type == "CRITICAL") out += " (unnamed)";
    return out;
}

std::string type_of(const sir::RegionProfile& p, const sir::ProfNode& n) {
    if (!n.parent) return "ROOT";
    const sir::ProfRegion* r = p.region(n.region);
    return r ? r->type : "?";
}

std::vector<std::string> columns_for_type(const std::string& type) {
    if (type == "PARALLEL") return {"execT", "execC", "bodyT", "exitBarT", "startupT", "shutdwnT", "taskT"};
    if (type == "LOOP" || type == "SECTIONS") return {"execT", "execC", "bodyT", "exitBarT"};
    if (type == "SINGLE") return {"execT", "execC", "bodyT", "bodyC", "exitBarT"};
    if (type == "CRITICAL" || type == "ORDERED") return {"execT", "execC", "bodyT", "enterT", "exitT"};
    if (type == "LOCK") return {"execT", "execC", "enterT"};
    if (type == "BARRIER" || type == "TASKWAIT" || type == "TASKGROUP") return {"execT", "execC", "taskT"};
    return {"execT", "execC"};  // MASTER TASK REDUCTION REGION FUNCTION
}

NodeTimes node_times(const sir::RegionProfile& p, const sir::ProfNode& n) {
    NodeTimes t;
    for (const sir::NodeThread& th : n.threads) {
        t.inclusive = add_sat(t.inclusive, value_of(p, th, "execT"));
        t.exclusive = add_sat(t.exclusive, states_sum(th));
        t.entries = add_sat(t.entries, value_of(p, th, "execC"));
    }
    return t;
}

uint64_t Overheads::sum() const {
    return add_sat(add_sat(synchronization, imbalance), add_sat(limited_parallelism, thread_management));
}

Overheads parallel_overheads(const sir::RegionProfile& p, const sir::ProfNode& parallel) {
    Overheads o;
    for (const sir::NodeThread& t : parallel.threads) o.total = add_sat(o.total, value_of(p, t, "execT"));
    for (const sir::ProfNode* n : parallel_members(p, parallel)) {
        const std::string type = type_of(p, *n);
        for (const sir::NodeThread& t : n->threads) {
            if (is_one_of(type, {"BARRIER", "TASKWAIT", "TASKGROUP"}))
                o.synchronization = add_sat(o.synchronization, states_sum(t));
            if (is_one_of(type, {"CRITICAL", "LOCK", "ORDERED"}))
                o.synchronization = add_sat(o.synchronization, value_of(p, t, "enterT"));
            if (is_one_of(type, {"LOOP", "SECTIONS", "PARALLEL"}))
                o.imbalance = add_sat(o.imbalance, value_of(p, t, "exitBarT"));
            if (type == "SINGLE") o.limited_parallelism = add_sat(o.limited_parallelism, value_of(p, t, "exitBarT"));
            if (type == "PARALLEL")
                o.thread_management =
                    add_sat(o.thread_management, add_sat(value_of(p, t, "startupT"), value_of(p, t, "shutdwnT")));
        }
    }
    return o;
}

std::string regions_text(const sir::Document& doc, const RegionsOptions& o) {
    const sir::RegionProfile& p = region_profile_of(doc, o.path);
    std::vector<int> events = event_columns(doc, o.events, o.events_given);
    return header_text(doc, p) + overview_text(p) + flat_text(doc, p, events) + callgraph_text(doc, p) +
           states_text(p, o.states_by_node) + overheads_text(p);
}

void run_regions(const RegionsOptions& o, std::ostream& out) {
    sir::Document doc = load_document(o.path);
    out << regions_text(doc, o);
}

void add_regions_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<RegionsOptions>();
    CLI::App* cmd = app.add_subcommand(
        "regions",
        "ompP's profile of the OpenMP regions: region overview, flat profile, callgraph, OpenMP states and overheads");
    cmd->add_option("FILE", o->path, "Profile document with a region profile")->required();
    cmd->add_option("--events", o->events,
                    "Events shown in the flat profile, comma-separated (default: the data read misses of level 1 "
                    "and the last level, e.g. D1mr,D2mr)")
        ->type_name("EV1,EV2");
    cmd->add_flag("--states-by-node", o->states_by_node, "Also show the OpenMP states per call-graph node");
    cmd->callback([o, cmd, &action] {
        o->events_given = cmd->count("--events") > 0;
        action = [o] {
            run_regions(*o, std::cout);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
