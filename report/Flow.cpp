// ompsim-report flow FILE [--format=dot|svg] [--layer=NODE] [--output=OUT]
//
// The control-flow graph of the region profile as ompP draws it (Fürlinger
// and Moore, "Capturing and Analyzing the Execution Control Flow of OpenMP
// Applications", section 3): one box per call-graph node with its type,
// location and exclusive cycles, coloured from white to red by them; solid
// edges from each predecessor (the parent or a sibling) labelled with the
// threads that took them ("0-3|8": threads 0 to 3, 8 times in all); dotted
// edges from parent to child (the call relation). --layer shows one node and
// its children, the paper's layer-by-layer view. The output is Graphviz's
// DOT language; --format=svg runs Graphviz's `dot -Tsvg` on it.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

using u128 = unsigned __int128;

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string dot_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    }
    return out;
}

namespace {

// "R00012" and "R12" name the same region.
std::string digits_without_zeros(const std::string& digits) {
    size_t nz = digits.find_first_not_of('0');
    return nz == std::string::npos ? "0" : digits.substr(nz);
}

std::string node_ids_text(const sir::RegionProfile& p) {
    return p.nodes.size() == 1 ? "the only node is 0"
                               : fmt::format("the nodes are {} to {}", p.nodes.front().id, p.nodes.back().id);
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The first executable `name` in $PATH, or "".
std::string find_in_path(const std::string& name) {
    const char* env = std::getenv("PATH");
    std::string path = env ? env : "/usr/local/bin:/usr/bin:/bin";
    size_t begin = 0;
    for (;;) {
        size_t end = path.find(':', begin);
        std::string dir = path.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
        if (dir.empty()) dir = ".";
        std::string candidate = dir + "/" + name;
        struct stat st;
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (end == std::string::npos) return "";
        begin = end + 1;
    }
}

// A temporary file holding `text`; its name.
std::string temp_file(const std::string& text) {
    const char* dir = std::getenv("TMPDIR");
    std::string name = std::string(dir && *dir ? dir : "/tmp") + "/ompsim-flow-XXXXXX";
    std::vector<char> buf(name.begin(), name.end());
    buf.push_back('\0');
    int fd = ::mkstemp(buf.data());
    if (fd < 0) throw Error(fmt::format("cannot create a temporary file in {}: {}", dir && *dir ? dir : "/tmp",
                                        std::strerror(errno)));
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int saved = errno;
            ::close(fd);
            ::unlink(buf.data());
            throw Error(fmt::format("cannot write a temporary file: {}", std::strerror(saved)));
        }
        done += static_cast<size_t>(n);
    }
    ::close(fd);
    return buf.data();
}

std::string read_all(std::FILE* f) {
    std::string out;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    return out;
}

}  // namespace

std::string render_svg(const std::string& dot_text) {
    const std::string dot = find_in_path("dot");
    if (dot.empty())
        throw Error("--format=svg needs Graphviz's 'dot' program, which is not installed (not found in PATH); "
                    "install Graphviz, or use --format=dot and render the graph elsewhere");
    const std::string input = temp_file(dot_text);
    std::string errors;
    try {
        errors = temp_file("");
    } catch (...) {
        ::unlink(input.c_str());
        throw;
    }
    std::string command = shell_quote(dot) + " -Tsvg " + shell_quote(input) + " 2>" + shell_quote(errors);
    std::string svg;
    int status = -1;
    if (std::FILE* f = ::popen(command.c_str(), "r")) {
        svg = read_all(f);
        status = ::pclose(f);
    }
    std::string message;
    if (std::FILE* e = std::fopen(errors.c_str(), "rb")) {
        message = read_all(e);
        std::fclose(e);
    }
    ::unlink(input.c_str());
    ::unlink(errors.c_str());
    message = message.substr(0, message.find('\n'));
    if (status == -1) throw Error(fmt::format("cannot run {}: {}", dot, std::strerror(errno)));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || svg.empty())
        throw Error(fmt::format("{} -Tsvg failed ({}){}", dot,
                                WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                                  : std::string("killed by a signal"),
                                message.empty() ? "" : ": " + message));
    return svg;
}

uint32_t parse_layer(const sir::RegionProfile& p, const std::string& spec) {
    if (all_digits(spec)) {
        if (spec.size() <= 10) {
            unsigned long long id = std::stoull(spec);
            if (id <= UINT32_MAX && p.node(static_cast<uint32_t>(id))) return static_cast<uint32_t>(id);
        }
        throw Error(fmt::format("--layer {}: no call-graph node {} ({}; see the Node column of 'ompsim-report "
                                "regions')",
                                spec, spec, node_ids_text(p)));
    }
    if (spec.size() >= 2 && (spec[0] == 'R' || spec[0] == 'r') && all_digits(spec.substr(1))) {
        const std::string number = digits_without_zeros(spec.substr(1));
        const sir::ProfRegion* region = nullptr;
        for (const sir::ProfRegion& r : p.regions)
            if (digits_without_zeros(r.id.substr(1)) == number) region = &r;
        if (!region)
            throw Error(fmt::format("--layer {}: no region {} ({})", spec, spec,
                                    p.regions.empty() ? std::string("the profile has no regions")
                                                      : fmt::format("the regions are {} to {}", p.regions.front().id,
                                                                    p.regions.back().id)));
        for (const sir::ProfNode& n : p.nodes)
            if (n.region == region->id) return n.id;
        throw Error(fmt::format("--layer {}: region {} has no call-graph node", spec, region->id));
    }
    throw Error(fmt::format("--layer must be a call-graph node id (0, 1, ...) or a region id (R00001, ...), not '{}'",
                            spec));
}

std::string thread_groups(const std::vector<std::pair<uint32_t, uint64_t>>& counts) {
    std::string out;
    size_t i = 0;
    while (i < counts.size()) {
        size_t j = i;
        u128 sum = counts[i].second;
        while (j + 1 < counts.size() && counts[j + 1].first == counts[j].first + 1 &&
               counts[j + 1].second == counts[i].second) {
            ++j;
            sum += counts[j].second;
        }
        if (!out.empty()) out += ", ";
        out += j == i ? std::to_string(counts[i].first)
                      : fmt::format("{}-{}", counts[i].first, counts[j].first);
        // A sum beyond 64 bits (never in practice) is shown in full all the same.
        std::string digits;
        do {
            digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(sum % 10)));
            sum /= 10;
        } while (sum);
        out += "|" + digits;
        i = j + 1;
    }
    return out;
}

std::string fill_color(uint64_t value, uint64_t max) {
    unsigned shade = 0;  // how much green and blue are taken away
    if (max > 0) {
        if (value > max) value = max;
        shade = static_cast<unsigned>((u128(value) * 255 * 2 + max) / (u128(max) * 2));
    }
    unsigned gb = 255 - shade;
    return fmt::format("#ff{:02x}{:02x}", gb, gb);
}

std::string flow_dot(const sir::Document& doc, const std::optional<uint32_t>& layer) {
    const sir::RegionProfile& p = *doc.region_profile;
    std::map<uint32_t, std::vector<const sir::ProfNode*>> children;
    for (const sir::ProfNode& n : p.nodes)
        if (n.parent) children[*n.parent].push_back(&n);
    auto has_children = [&](uint32_t id) { return children.count(id) > 0; };

    std::vector<const sir::ProfNode*> shown;
    const sir::ProfNode* top = nullptr;
    if (layer) {
        top = p.node(*layer);
        shown.push_back(top);
        for (const sir::ProfNode* c : children[top->id]) shown.push_back(c);
    } else {
        for (const sir::ProfNode& n : p.nodes) shown.push_back(&n);
    }
    std::map<uint32_t, bool> is_shown;
    uint64_t max = 0;
    for (const sir::ProfNode* n : shown) {
        is_shown[n->id] = true;
        max = std::max(max, node_times(p, *n).exclusive);
    }

    const std::string program = program_name(doc);
    auto label_of = [&](const sir::ProfNode& n) {
        std::string cycles = commas(node_times(p, n).exclusive) + " cycles";
        if (!n.parent)
            return fmt::format("{}\\n{} thread{}\\n{}", dot_escape(program), p.threads, p.threads == 1 ? "" : "s",
                               cycles);
        const sir::ProfRegion& r = *p.region(n.region);
        std::string mark;
        if (layer && &n == top) mark = " (^)";
        else if (layer && has_children(n.id)) mark = " (+)";
        std::string where = region_location(r) + (r.name.empty() ? "" : " ('" + r.name + "')");
        return fmt::format("{}{} {}\\n{}\\n{}", dot_escape(r.id), mark, dot_escape(r.type), dot_escape(where), cycles);
    };

    std::string what;
    if (layer) {
        std::string name = top->parent ? top->region + " " + type_of(p, *top) : program;
        what = fmt::format("layer of node {} ({}) and its children; (^): has a parent, (+): has children", top->id,
                           name);
    } else {
        what = fmt::format("control flow of {} ({} thread{})", program, p.threads, p.threads == 1 ? "" : "s");
    }
    std::string out = "digraph flow {\n";
    out += fmt::format(
        "  graph [fontname=\"Helvetica\", fontsize=10, labelloc=\"t\", label=\"{}\\nsolid: control flow (threads|times), "
        "dotted: parent to child; fill: exclusive cycles summed over the threads, white 0 to red {}\"];\n",
        dot_escape(what), commas(max));
    out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n";
    out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    for (const sir::ProfNode* n : shown)
        out += fmt::format("  n{} [label=\"{}\", fillcolor=\"{}\"];\n", n->id, label_of(*n),
                           fill_color(node_times(p, *n).exclusive, max));
    for (const sir::ProfNode* n : shown) {
        if (!n->parent || n == top) continue;  // the top of a layer: its edges come from outside it
        if (is_shown.count(*n->parent))
            out += fmt::format("  n{} -> n{} [style=dotted];\n", *n->parent, n->id);
        // Solid edges, one per predecessor: its threads and counts.
        std::map<uint32_t, std::vector<std::pair<uint32_t, uint64_t>>> from;
        for (const sir::Pred& q : n->preds) from[q.from].emplace_back(q.thread, q.count);
        for (const auto& [source, counts] : from) {
            if (!is_shown.count(source)) continue;
            // Edges between siblings do not rank the graph (the call edges do).
            out += fmt::format("  n{} -> n{} [label=\"{}\"{}];\n", source, n->id, thread_groups(counts),
                               source == *n->parent ? "" : ", constraint=false");
        }
    }
    out += "}\n";
    return out;
}

void run_flow(const FlowOptions& o, std::ostream& out) {
    if (o.format != "dot" && o.format != "svg") throw Error("--format must be dot or svg, not '" + o.format + "'");
    sir::Document doc = load_document(o.path);
    const sir::RegionProfile& p = region_profile_of(doc, o.path);
    std::optional<uint32_t> layer;
    if (!o.layer.empty()) layer = parse_layer(p, o.layer);
    std::string text = flow_dot(doc, layer);
    if (o.format == "svg") text = render_svg(text);
    if (o.output.empty()) out << text;
    else write_file(o.output, text);
}

void add_flow_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<FlowOptions>();
    CLI::App* cmd = app.add_subcommand(
        "flow", "ompP's control-flow graph of the OpenMP regions (Graphviz DOT, or SVG through Graphviz)");
    cmd->add_option("FILE", o->path, "Profile document with a region profile")->required();
    cmd->add_option("--format", o->format, "Output format: dot (default, Graphviz's language) or svg (runs 'dot -Tsvg')")
        ->type_name("dot|svg")
        ->check(CLI::IsMember({"dot", "svg"}).description(""));
    auto* layer = cmd->add_option("--layer", o->layer,
                                  "Only this node and its children: a call-graph node id or a region id (its first "
                                  "node)");
    layer->type_name("NODE|R00001");
    cmd->add_option("-o,--output", o->output, "Write the graph to this file instead of the standard output")
        ->type_name("OUT");
    cmd->callback([o, cmd, &action] {
        // --layer= (empty) is a mistake, not "the whole graph".
        if (cmd->count("--layer") > 0 && o->layer.empty())
            throw CLI::ValidationError("--layer", "needs a node id or a region id");
        action = [o] {
            run_flow(*o, std::cout);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
