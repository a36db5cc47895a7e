// ompsim-report events FILE... [--components=LIST] [--size=exact|magnitude]
//                              [--format=text|dot|svg] [--output=OUT]
//
// IPM's event signature flow graph (Fürlinger and Skinner, "Capturing and
// Visualizing Event Flow Graphs of MPI Applications", 2009, section 3) of
// the <event-flow> section: one file gives that process's graph, its edges
// labelled with the threads that took them; several files give IPM's
// merged application-level graph (section 3.1), its edges labelled with the
// ranks. On the way the signatures are projected onto the chosen components
// (IPM's "collapsing nodes step by step": signatures equal in them become
// one node, edge weights add up) and unified across the documents as the
// paper's figure 2 asks: regions by their identity (type, file, function,
// lines, name) rather than their per-process R ids, call sites by their
// call path and source line rather than their per-process C ids, sizes
// exactly or by power-of-two magnitude, partners as ranks relative to the
// process's own. Edges of one pair of nodes whose contributors have the same
// count are clustered into one labelled edge ("9x (0,2)"); different counts
// give parallel edges. docs/ompsim-report.md ("events") has the rules.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

// The components in canonical order (sir::kFlowComponents).
const char* const kComponentNames[] = {"region", "callsite", "size", "partner", "thread"};

uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

bool recorded(const sir::EventFlow& f, const std::string& component) {
    return std::find(f.components.begin(), f.components.end(), component) != f.components.end();
}

// One field of a node key, length-prefixed so that no two keys run together.
void put(std::string& key, const std::string& value) {
    key += std::to_string(value.size());
    key += ':';
    key += value;
}

// One document as the command sees it.
struct Input {
    std::string path;
    sir::Document doc;
    int64_t rank = 0;
    bool rank_given = false;  // the rank attribute; else the position among the arguments
};

// Who took an edge: the threads (one document), the ranks, or rank:thread
// pairs (several documents, one of them with more than one thread).
enum class Who { kThreads, kRanks, kRankThreads };
using Contributor = std::pair<int64_t, int64_t>;  // (rank, thread); the unused one is 0

struct Totals {
    uint64_t count = 0, cycles = 0;
};

// ompP's label of a region without its id: "PARALLEL omp.c (12-30)",
// "FUNCTION norm", "REGION phase1", "CRITICAL omp.c (21-23) ('lock')".
std::string region_text(const sir::ProfRegion& r) {
    if ((r.type == "FUNCTION" || r.type == "REGION") && !r.name.empty()) return r.type + " " + r.name;
    std::string out = r.type + " " + region_location(r);
    if (!r.name.empty()) out += " ('" + r.name + "')";
    return out;
}

// What identifies a region across processes (not its R id).
std::string region_identity(const sir::ProfRegion& r) {
    std::string key;
    put(key, r.type);
    put(key, r.file);
    put(key, r.function);
    put(key, std::to_string(r.first_line));
    put(key, std::to_string(r.last_line));
    put(key, r.name);
    return key;
}

bool has_location(const sir::FlowCallsite& c) { return !c.file.empty() || !c.function.empty() || c.line != 0; }

std::string location_of(const sir::FlowCallsite& c) {
    std::string out = "@ " + (c.file.empty() ? std::string("???") : basename_of(c.file));
    if (c.line != 0) out += ":" + std::to_string(c.line);
    return out;
}

// A node's label on one line: "MPI_Send 80 B (-1) @ a.c:8", "LOOP a.c (3-9)
// in PARALLEL a.c (1-12), thread 1".
std::string one_line(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) {
        if (!out.empty()) out += l.compare(0, 7, "thread ") == 0 ? ", " : " ";
        out += l;
    }
    return out;
}

// The signatures of one document mapped to the nodes of the graph.
class Builder {
public:
    Builder(const std::vector<std::string>& components, bool magnitude, Who who)
        : components_(components), magnitude_(magnitude), who_(who) {}

    void add(const Input& in);
    // Numbers the nodes some edge reaches (N1, N2, ... in order of first
    // occurrence); signatures without edges (left over after
    // OMPSIM_ZERO_COUNTERS) are not shown.
    void finish();
    std::string text(const std::vector<Input>& inputs, const std::string& size_mode) const;
    std::string dot(const std::vector<Input>& inputs) const;

private:
    struct Node {
        std::vector<std::string> lines;  // the label, line by line
        uint64_t entries = 0;
        std::set<Contributor> contributors;
        bool used = false;  // some edge reaches or leaves it
        size_t number = 0;  // N1, N2, ... among the used nodes
    };
    struct Edge {  // one clustered edge
        size_t from = 0, to = 0;  // node indexes + 1; 0 = START
        uint64_t count = 0, cycles = 0;
        std::vector<Contributor> contributors;
    };

    bool chosen(const char* component) const {
        return std::find(components_.begin(), components_.end(), component) != components_.end();
    }
    size_t node_of(const Input& in, const sir::FlowSignature& s);
    std::string contributors_text(const std::set<Contributor>& set) const;
    std::string contributors_text(const std::vector<Contributor>& list) const {
        return contributors_text(std::set<Contributor>(list.begin(), list.end()));
    }
    std::string node_name(size_t index) const;  // "START", "N3"
    std::vector<Edge> clustered() const;
    std::string title(const std::vector<Input>& inputs) const;
    const char* who_text() const;

    std::vector<std::string> components_;
    bool magnitude_;
    Who who_;
    std::map<std::string, size_t> index_;  // node key -> index in nodes_
    std::vector<Node> nodes_;
    std::map<std::pair<size_t, size_t>, std::map<Contributor, Totals>> edges_;  // (from, to) as in Edge
};

size_t Builder::node_of(const Input& in, const sir::FlowSignature& s) {
    const sir::EventFlow& f = *in.doc.event_flow;
    const sir::RegionProfile* p = in.doc.region_profile ? &*in.doc.region_profile : nullptr;
    auto bad = [&](const std::string& what) {
        return Error(fmt::format("{}: event flow signature {}: {}", in.path, s.id, what));
    };
    auto region = [&](const std::string& id) -> const sir::ProfRegion& {
        const sir::ProfRegion* r = p ? p->region(id) : nullptr;
        if (!r) throw bad("no region " + id + " in the region profile");
        return *r;
    };
    auto node = [&](uint32_t id) -> const sir::ProfNode& {
        const sir::ProfNode* n = p ? p->node(id) : nullptr;
        if (!n) throw bad(fmt::format("no call-graph node {} in the region profile", id));
        return *n;
    };
    auto node_text = [&](const sir::ProfNode& n) {
        return n.parent ? region_text(region(n.region)) : std::string("program");
    };

    const sir::FlowCallsite* site = nullptr;
    if (recorded(f, "callsite")) {
        for (const sir::FlowCallsite& c : f.callsites)
            if (c.id == s.callsite) site = &c;
        if (!site) throw bad("no call site '" + s.callsite + "'");
    }
    // A region entry (rather than a point event): known from the region
    // component, else from a call site without a source line.
    bool entry = recorded(f, "region") ? !s.region.empty() : site && !has_location(*site);

    std::string key, first, where;
    if (chosen("region")) {
        if (!s.region.empty()) {
            key += "R";
            put(key, region_identity(region(s.region)));
            first = region_text(region(s.region));
        } else {
            key += "E";
            put(key, s.event);
            first = s.event;
        }
    }
    if (chosen("callsite")) {
        // The call path: the regions from the node up to the root, then the line.
        key += "C";
        for (const sir::ProfNode* n = &node(site->node); n->parent; n = &node(*n->parent))
            put(key, region_identity(region(n->region)));
        key += "@";
        put(key, site->file);
        put(key, site->function);
        put(key, std::to_string(site->line));
        const sir::ProfNode& n = node(site->node);
        if (entry) {
            // The node entered; its parent is where.
            if (first.empty()) first = node_text(n);
            where = "in " + (n.parent ? node_text(node(*n.parent)) : std::string("program"));
        } else {
            where = has_location(*site) ? location_of(*site) : "in " + node_text(n);
        }
    }
    auto append = [&](const std::string& part) { first += (first.empty() ? "" : " ") + part; };
    if (chosen("size")) {
        uint64_t size = s.size.value_or(0);
        if (magnitude_) {
            int k = size == 0 ? -1 : 63 - __builtin_clzll(size);
            key += "M" + std::to_string(k);
        } else {
            key += "S" + std::to_string(size);
        }
        // Region entries have no size; a point event of size 0 shows none
        // when its name is shown (MPI_Init, not MPI_Init 0 B).
        if (!entry && (size != 0 || !chosen("region")))
            append(magnitude_ ? size_magnitude_text(size) : std::to_string(size) + " B");
    }
    if (chosen("partner")) {
        if (s.partner) {
            // In 128 bits: any two 64-bit ranks have a difference.
            __int128 relative = static_cast<__int128>(*s.partner) - in.rank;
            std::string digits;
            unsigned __int128 magnitude = relative < 0 ? -static_cast<unsigned __int128>(relative)
                                                       : static_cast<unsigned __int128>(relative);
            do {
                digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
                magnitude /= 10;
            } while (magnitude);
            std::string text = (relative < 0 ? "-" : "+") + digits;
            key += "P" + text;
            append("(" + text + ")");
        } else {
            key += "P-";
        }
    }
    std::vector<std::string> lines;
    if (!first.empty()) lines.push_back(first);
    if (!where.empty()) lines.push_back(where);
    if (chosen("thread")) {
        key += "T" + std::to_string(s.thread.value_or(0));
        lines.push_back("thread " + std::to_string(s.thread.value_or(0)));
    }
    if (lines.empty()) lines.push_back("(no partner)");  // --components=partner, an event without one

    auto [it, fresh] = index_.try_emplace(key, nodes_.size());
    if (fresh) {
        nodes_.emplace_back();
        nodes_.back().lines = std::move(lines);
    }
    return it->second;
}

void Builder::add(const Input& in) {
    const sir::EventFlow& f = *in.doc.event_flow;
    std::vector<size_t> of;  // signature k -> node index + 1
    of.reserve(f.signatures.size() + 1);
    of.push_back(0);
    for (const sir::FlowSignature& s : f.signatures) of.push_back(node_of(in, s) + 1);
    for (const sir::FlowEdge& e : f.edges) {
        if (e.from >= of.size() || e.to == 0 || e.to >= of.size())
            throw Error(fmt::format("{}: event flow edge S{} -> S{}: no such signature", in.path, e.from, e.to));
        Contributor who{who_ == Who::kThreads ? 0 : in.rank, who_ == Who::kRanks ? 0 : e.thread};
        Totals& t = edges_[{of[e.from], of[e.to]}][who];
        t.count = add_sat(t.count, e.count);
        t.cycles = add_sat(t.cycles, e.cycles);
        Node& to = nodes_[of[e.to] - 1];
        to.used = true;
        to.entries = add_sat(to.entries, e.count);
        to.contributors.insert(who);
        if (of[e.from]) nodes_[of[e.from] - 1].used = true;
    }
}

void Builder::finish() {
    size_t number = 0;
    for (Node& n : nodes_)
        if (n.used) n.number = ++number;
}

std::string Builder::contributors_text(const std::set<Contributor>& set) const {
    if (who_ != Who::kRankThreads) {
        std::vector<int64_t> values;
        for (const Contributor& c : set) values.push_back(who_ == Who::kRanks ? c.first : c.second);
        return contributor_runs(values);
    }
    std::map<int64_t, std::vector<int64_t>> threads;
    for (const Contributor& c : set) threads[c.first].push_back(c.second);
    std::vector<std::string> groups;
    for (const auto& [rank, list] : threads) groups.push_back(fmt::format("{}:{}", rank, contributor_runs(list)));
    return join(groups, ",");
}

std::string Builder::node_name(size_t index) const {
    return index == 0 ? std::string("START") : "N" + std::to_string(nodes_[index - 1].number);
}

std::vector<Builder::Edge> Builder::clustered() const {
    std::vector<Edge> out;
    for (const auto& [pair, by] : edges_) {
        std::map<uint64_t, Edge, std::greater<uint64_t>> groups;  // by count, the largest first
        for (const auto& [who, t] : by) {
            Edge& e = groups[t.count];
            e.from = pair.first;
            e.to = pair.second;
            e.count = t.count;
            e.cycles = add_sat(e.cycles, t.cycles);
            e.contributors.push_back(who);
        }
        for (auto& [count, e] : groups) out.push_back(std::move(e));
    }
    auto number = [&](size_t index) { return index == 0 ? size_t{0} : nodes_[index - 1].number; };
    std::stable_sort(out.begin(), out.end(), [&](const Edge& a, const Edge& b) {
        if (number(a.from) != number(b.from)) return number(a.from) < number(b.from);
        if (number(a.to) != number(b.to)) return number(a.to) < number(b.to);
        return a.count > b.count;
    });
    return out;
}

const char* Builder::who_text() const {
    switch (who_) {
    case Who::kThreads: return "threads";
    case Who::kRanks: return "ranks";
    default: return "rank:threads";
    }
}

std::string Builder::title(const std::vector<Input>& inputs) const {
    const Input& in = inputs.front();
    if (inputs.size() == 1) {
        uint32_t threads = in.doc.event_flow->threads;
        return fmt::format("event flow graph of {}{}, {} thread{}", program_name(in.doc),
                           in.rank_given ? fmt::format(", rank {}", in.rank) : std::string(), threads,
                           threads == 1 ? "" : "s");
    }
    std::vector<int64_t> ranks;
    for (const Input& i : inputs) ranks.push_back(i.rank);
    return fmt::format("merged event flow graph of {}, {} processes (ranks {})", program_name(in.doc), inputs.size(),
                       contributor_runs(ranks));
}

std::string Builder::text(const std::vector<Input>& inputs, const std::string& size_mode) const {
    const bool merged = inputs.size() > 1;
    std::string out = heading(merged ? "Merged event flow graph (IPM's application-level graph)"
                                     : "Event flow graph (IPM's event signature flow graph)");
    if (!merged) {
        const Input& in = inputs.front();
        out += field_line("Document", in.path);
        out += field_line("Program", command_text(in.doc.run));
        out += field_line("Rank", in.rank_given ? std::to_string(in.rank)
                                                : std::string("none (partners relative to rank 0)"));
        out += field_line("Threads", std::to_string(in.doc.event_flow->threads));
    } else {
        out += field_line("Documents", std::to_string(inputs.size()));
        std::string program = command_text(inputs.front().doc.run);
        for (const Input& in : inputs)
            if (command_text(in.doc.run) != program) program = "several (the documents' commands differ)";
        out += field_line("Program", program);
    }
    out += field_line("Components", join(components_));
    if (chosen("size"))
        out += field_line("Sizes", size_mode == "magnitude" ? "by magnitude (power-of-two buckets)" : "exact");
    out += field_line("Edge labels", fmt::format("count x ({}); contributors with equal counts share an edge",
                                                 who_text()));
    out += field_line("Time unit", inputs.front().doc.event_flow->time_unit);
    if (merged) {
        Table t;
        t.column("Rank", Table::kRight);
        t.column("Threads", Table::kRight);
        t.column("Rank from", Table::kLeft);
        t.column("Document", Table::kLeft);
        for (const Input& in : inputs)
            t.row({std::to_string(in.rank), std::to_string(in.doc.event_flow->threads),
                   in.rank_given ? "attribute" : "position", in.path});
        out += "\n" + t.render();
    }

    const std::string who = who_text();
    std::string header = who;
    header[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(header[0])));
    out += "\n" + heading("Nodes (in order of first occurrence; START: each thread's start)");
    Table n;
    n.column("Node", Table::kLeft);
    n.column("Label", Table::kLeft);
    n.column("Entries", Table::kRight);
    n.column(header, Table::kLeft);
    for (const Node& node : nodes_)
        if (node.used)
            n.row({"N" + std::to_string(node.number), one_line(node.lines), commas(node.entries),
                   contributors_text(node.contributors)});
    out += n.render();

    out += "\n" + heading(fmt::format("Edges (count x ({}); cycles between the two events, summed)", who));
    Table e;
    e.column("From", Table::kLeft);
    e.column("To", Table::kLeft);
    e.column("Label", Table::kLeft);
    e.column("Cycles", Table::kRight);
    for (const Edge& edge : clustered())
        e.row({node_name(edge.from), node_name(edge.to),
               fmt::format("{}x ({})", edge.count, contributors_text(edge.contributors)), commas(edge.cycles)});
    out += e.render();
    return out;
}

std::string Builder::dot(const std::vector<Input>& inputs) const {
    std::string out = "digraph events {\n";
    out += fmt::format(
        "  graph [fontname=\"Helvetica\", fontsize=10, labelloc=\"t\", label=\"{}\\ncomponents: {}{}; edges: count x "
        "({})\"];\n",
        dot_escape(title(inputs)), join(components_), magnitude_ && chosen("size") ? " (sizes by magnitude)" : "",
        who_text());
    out += "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n";
    out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    out += "  start [shape=circle, label=\"START\"];\n";
    for (const Node& node : nodes_) {
        if (!node.used) continue;
        std::vector<std::string> lines;
        for (const std::string& l : node.lines) lines.push_back(dot_escape(l));
        out += fmt::format("  n{} [label=\"{}\"];\n", node.number, join(lines, "\\n"));
    }
    auto name = [&](size_t index) {
        return index == 0 ? std::string("start") : "n" + std::to_string(nodes_[index - 1].number);
    };
    for (const Edge& e : clustered())
        out += fmt::format("  {} -> {} [label=\"{}x ({})\"];\n", name(e.from), name(e.to), e.count,
                           contributors_text(e.contributors));
    out += "}\n";
    return out;
}

// --components: the chosen components in canonical order.
std::vector<std::string> parse_components(const std::string& spec) {
    std::set<std::string> wanted;
    for (const std::string& c : split_list(spec)) {
        if (std::find(std::begin(kComponentNames), std::end(kComponentNames), c) == std::end(kComponentNames))
            throw Error(fmt::format("--components: unknown component '{}' (the components are region, callsite, "
                                    "size, partner, thread)",
                                    c));
        wanted.insert(c);
    }
    if (wanted.empty()) throw Error("--components: no component given (region, callsite, size, partner, thread)");
    std::vector<std::string> out;
    for (const char* c : kComponentNames)
        if (wanted.count(c)) out.push_back(c);
    return out;
}

}  // namespace

std::string contributor_runs(std::vector<int64_t> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::string out;
    size_t i = 0;
    while (i < values.size()) {
        size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
        if (!out.empty()) out += ",";
        if (j - i >= 2) {
            out += fmt::format("{}-{}", values[i], values[j]);
        } else {
            for (size_t k = i; k <= j; ++k) out += (k == i ? "" : ",") + std::to_string(values[k]);
        }
        i = j + 1;
    }
    return out;
}

std::string size_magnitude_text(uint64_t bytes) {
    if (bytes == 0) return "0 B";
    int k = 63 - __builtin_clzll(bytes);
    uint64_t low = uint64_t{1} << k;
    uint64_t high = k == 63 ? UINT64_MAX : (uint64_t{1} << (k + 1)) - 1;
    return low == high ? fmt::format("{} B", low) : fmt::format("{}-{} B", low, high);
}

std::string events_text(const EventsOptions& o) {
    if (o.format != "text" && o.format != "dot" && o.format != "svg")
        throw Error("--format must be text, dot or svg, not '" + o.format + "'");
    if (o.size != "exact" && o.size != "magnitude")
        throw Error("--size must be exact or magnitude, not '" + o.size + "'");
    if (o.paths.empty()) throw Error("no document given");
    std::vector<std::string> components;
    if (o.components_given) components = parse_components(o.components);

    std::vector<Input> inputs;
    for (size_t i = 0; i < o.paths.size(); ++i) {
        Input in;
        in.path = o.paths[i];
        in.doc = load_document(in.path);
        if (!in.doc.event_flow)
            throw Error(in.path + " has no event flow graph (run with region events and --event-flow other than no)");
        in.rank_given = in.doc.event_flow->rank.has_value();
        in.rank = in.rank_given ? *in.doc.event_flow->rank : static_cast<int64_t>(i);
        inputs.push_back(std::move(in));
    }
    // One document per rank.
    for (size_t i = 0; i < inputs.size(); ++i)
        for (size_t j = i + 1; j < inputs.size(); ++j)
            if (inputs[i].rank == inputs[j].rank) {
                auto how = [](const Input& in) {
                    return in.path + (in.rank_given ? " by its rank attribute" : " by its position among the arguments");
                };
                throw Error(fmt::format("{} and {} are both rank {} ({}, {}); give one document per rank",
                                        inputs[i].path, inputs[j].path, inputs[i].rank, how(inputs[i]),
                                        how(inputs[j])));
            }
    std::stable_sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) { return a.rank < b.rank; });

    if (o.components_given) {
        for (const Input& in : inputs)
            for (const std::string& c : components)
                if (!recorded(*in.doc.event_flow, c))
                    throw Error(fmt::format("--components: {} did not record the component '{}' (it recorded {})",
                                            in.path, c, join(in.doc.event_flow->components)));
    } else {
        for (const char* c : kComponentNames) {
            bool everywhere = true;
            for (const Input& in : inputs) everywhere = everywhere && recorded(*in.doc.event_flow, c);
            if (everywhere) components.push_back(c);
        }
        if (components.empty())
            throw Error("the documents have no recorded component in common; choose some with --components");
    }

    Who who = Who::kThreads;
    if (inputs.size() > 1) {
        who = Who::kRanks;
        for (const Input& in : inputs)
            if (in.doc.event_flow->threads > 1) who = Who::kRankThreads;
    }
    Builder graph(components, o.size == "magnitude", who);
    for (const Input& in : inputs) graph.add(in);
    graph.finish();
    if (o.format == "text") return graph.text(inputs, o.size);
    std::string dot = graph.dot(inputs);
    return o.format == "svg" ? render_svg(dot) : dot;
}

void run_events(const EventsOptions& o, std::ostream& out) {
    std::string text = events_text(o);
    if (o.output.empty()) out << text;
    else write_file(o.output, text);
}

namespace {

// 'events' and 'merge' share their options; 'merge' is IPM's merge step by
// name (section 3.1) and insists on at least two processes.
void add_graph_command(CLI::App& app, Action& action, bool merge) {
    auto o = std::make_shared<EventsOptions>();
    CLI::App* cmd =
        merge ? app.add_subcommand("merge",
                                   "IPM's merged event flow graph of several processes (ranks of one job), as 'events' "
                                   "with two or more FILEs")
              : app.add_subcommand(
                    "events", "IPM's event flow graph of one process, or of several merged (text, Graphviz DOT, or SVG)");
    cmd->add_option("FILE", o->paths,
                    merge ? "Profile documents with an event flow graph, one per process (at least two)"
                          : "Profile documents with an event flow graph: one gives its graph (edges name threads), "
                            "several IPM's merged graph (edges name ranks)")
        ->required();
    cmd->add_option("--components", o->components,
                    "Project the signatures onto these components (comma list of region, callsite, size, partner, "
                    "thread; default: those every document recorded)")
        ->type_name("LIST");
    cmd->add_option("--size", o->size, "Unify sizes exactly (default) or by power-of-two magnitude")
        ->type_name("exact|magnitude")
        ->check(CLI::IsMember({"exact", "magnitude"}).description(""));
    cmd->add_option("--format", o->format,
                    "Output format: text (default), dot (Graphviz's language) or svg (runs 'dot -Tsvg')")
        ->type_name("text|dot|svg")
        ->check(CLI::IsMember({"text", "dot", "svg"}).description(""));
    cmd->add_option("-o,--output", o->output, "Write the graph to this file instead of the standard output")
        ->type_name("OUT");
    cmd->callback([o, cmd, merge, &action] {
        o->components_given = cmd->count("--components") > 0;
        action = [o, merge] {
            if (merge && o->paths.size() < 2)
                throw Error(fmt::format("merge: {} document given; merging needs one per process, at least two "
                                        "('ompsim-report events FILE' draws one process's graph)",
                                        o->paths.size()));
            run_events(*o, std::cout);
            return kExitOk;
        };
    });
}

}  // namespace

void add_events_command(CLI::App& app, Action& action) {
    add_graph_command(app, action, false);
    add_graph_command(app, action, true);
}

}  // namespace report
}  // namespace ompsim
