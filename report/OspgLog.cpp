// OSPG logs (--ospg-log, docs/parallelism.md "The OSPG log"): a strict
// reader into an ospg::Graph plus the log's site and label tables, and the
// parallelism profile of a log computed by profilers/OspgAnalysis (the
// analysis the tool runs at the end of a run), with what-if factors
// (ompsim-report whatif) or without (ompsim-report parallelism LOG).
//
// Every malformed line is an Error "LOG:LINE: message". The profile mirrors
// the document's <parallelism> section the tool writes: figures rounded to
// whole numbers, and region sites the region profile does not hold (RID '-'
// in the log) are the program's (not listed; their serial work is the
// program's, fragments bounded by them start or end at 0).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>

#include "OspgAnalysis.h"
#include "Report.h"

namespace ompsim {
namespace report {

namespace {

void* heap_alloc(void*, size_t n) {
    void* p = std::malloc(n);
    if (!p) throw std::bad_alloc();
    return p;
}
void heap_free(void*, void* p) { std::free(p); }
const Allocator kHeap{heap_alloc, heap_free, nullptr};

struct LogSite {
    uint32_t id = 0;
    bool region = false;
    // region sites
    std::string rid;  // "R00003", or "-" (not in the region profile)
    std::string type;
    uint32_t first = 0, last = 0;
    // what-if sites
    uint32_t label = 0;
    std::string edge;  // begin | end
    uint32_t line = 0;
    std::string file;
    size_t at = 0;  // its line in the log
};

struct LogLabel {
    uint32_t id = 0;
    std::string name;
};

// The log's site and label tables (ascending ids).
struct Tables {
    std::vector<LogSite> sites;
    std::vector<LogLabel> labels;

    const LogSite* site(uint32_t id) const {
        auto it = std::lower_bound(sites.begin(), sites.end(), id,
                                   [](const LogSite& s, uint32_t v) { return s.id < v; });
        return it != sites.end() && it->id == id ? &*it : nullptr;
    }
    const LogLabel* label(uint32_t id) const {
        auto it = std::lower_bound(labels.begin(), labels.end(), id,
                                   [](const LogLabel& l, uint32_t v) { return l.id < v; });
        return it != labels.end() && it->id == id ? &*it : nullptr;
    }
    // A site the profile names: a what-if site, or a region of the region profile.
    bool named(uint32_t id) const {
        const LogSite* s = site(id);
        return s && (!s->region || s->rid != "-");
    }
};

struct Log {
    std::string path;
    std::string program;
    std::string measure;
    uint64_t burden = 0;
    bool complete = true;
    uint64_t lost_cycles = 0, lost_instr = 0;
    std::shared_ptr<Tables> tables = std::make_shared<Tables>();
    ospg::Graph graph;
    uint64_t w_nodes = 0;

    Log() { graph.init(kHeap, 0); }
    ~Log() { graph.release(); }
    Log(const Log&) = delete;
    Log& operator=(const Log&) = delete;
};

bool parse_u64(const std::string& s, uint64_t& v) {
    if (s.empty()) return false;
    v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        uint64_t d = uint64_t(c - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    return true;
}

// Fields separated by one space; with `rest`, the n-th field is the rest of
// the line (may hold spaces, may be empty). Returns fewer than n when the
// line has fewer; without `rest` more than n when it has more.
std::vector<std::string> split_fields(const std::string& line, size_t n, bool rest) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (true) {
        if (rest && out.size() + 1 == n) {
            out.push_back(line.substr(pos));
            break;
        }
        size_t sp = line.find(' ', pos);
        if (sp == std::string::npos) {
            out.push_back(line.substr(pos));
            break;
        }
        out.push_back(line.substr(pos, sp - pos));
        pos = sp + 1;
    }
    return out;
}

class Reader {
public:
    Reader(const std::string& path, Log& log) : path_(path), log_(log) {}
    void read();

private:
    enum State { kHeader, kNodes, kDeps, kEnded };
    const std::string& path_;
    Log& log_;
    size_t line_ = 0;
    State state_ = kHeader;
    bool have_program_ = false, have_measure_ = false, have_burden_ = false, have_complete_ = false;
    uint64_t n_nodes_ = 0, n_deps_ = 0, deps_read_ = 0;
    size_t nodes_line_ = 0;

    [[noreturn]] void fail(const std::string& message) const { fail_at(line_, message); }
    [[noreturn]] void fail_at(size_t line, const std::string& message) const {
        throw Error(fmt::format("{}:{}: {}", path_, line, message));
    }
    std::vector<std::string> fields(const std::string& line, size_t n, bool rest, const char* form) const {
        std::vector<std::string> f = split_fields(line, n, rest);
        if (f.size() != n) fail(fmt::format("'{}' needs {} fields: {}", f[0], n, form));
        return f;
    }
    uint64_t number(const std::string& text, const char* what, uint64_t max = UINT64_MAX) const {
        uint64_t v = 0;
        if (!parse_u64(text, v) || v > max) {
            if (max == UINT32_MAX)
                fail(fmt::format("{} must be a whole number below 2^32, not '{}'", what, text));
            fail(fmt::format("{} must be a whole number, not '{}'", what, text));
        }
        return v;
    }
    uint32_t id(const std::string& text, const char* what) const {
        return uint32_t(number(text, what, UINT32_MAX));
    }
    void check_site(uint32_t site, const char* what) const {
        if (site != 0 && !log_.tables->site(site))
            fail(fmt::format("{} {} is not defined (no 'site {}' line)", what, site, site));
    }
    void check_label(uint32_t label) const {
        if (label != 0 && !log_.tables->label(label))
            fail(fmt::format("label {} is not defined (no 'label {}' line)", label, label));
    }
    void header(const std::string& tag, const std::string& line);
    void site(const std::string& line);
    void label(const std::string& line);
    void nodes(const std::string& line);
    void node(const std::string& tag, const std::string& line);
    void dependence(const std::string& line);
    void end();
};

void Reader::read() {
    std::ifstream in(path_, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot open: {}", path_, std::strerror(errno)));
    std::string line;
    while (std::getline(in, line)) {
        ++line_;
        if (line_ == 1) {
            if (line.compare(0, 12, "ompsim-ospg ") != 0)
                fail("not an OSPG log: the first line is not 'ompsim-ospg 1' (written by ompsim --ospg-log)");
            if (line != "ompsim-ospg 1") fail(fmt::format("{}: this ompsim-report reads version 1", line));
            continue;
        }
        if (!line.empty() && line[0] == '#') continue;
        if (state_ == kEnded) fail("data after the 'end' line");
        if (line.empty()) fail("empty line");
        std::string tag = line.substr(0, line.find(' '));
        if (tag == "S" || tag == "P" || tag == "W") node(tag, line);
        else if (tag == "D") dependence(line);
        else if (tag == "end") end();
        else if (tag == "nodes") nodes(line);
        else if (tag == "program" || tag == "measure" || tag == "burden" || tag == "complete" || tag == "site" ||
                 tag == "label")
            header(tag, line);
        else fail(fmt::format("unknown record '{}'", tag));
    }
    if (in.bad()) throw Error(fmt::format("{}: cannot read: {}", path_, std::strerror(errno)));
    if (line_ == 0) throw Error(fmt::format("{}: empty file (not an OSPG log)", path_));
    if (state_ != kEnded) fail("truncated: no 'end' line");
}

void Reader::header(const std::string& tag, const std::string& line) {
    if (state_ != kHeader) fail(fmt::format("'{}' after the 'nodes' line (line {})", tag, nodes_line_));
    auto once = [&](bool& seen) {
        if (seen) fail(fmt::format("a second '{}' line", tag));
        seen = true;
    };
    if (tag == "program") {
        once(have_program_);
        log_.program = line.size() > 8 ? line.substr(8) : "";
    } else if (tag == "measure") {
        once(have_measure_);
        auto f = fields(line, 2, false, "measure cycles|instructions");
        if (f[1] != "cycles" && f[1] != "instructions")
            fail(fmt::format("measure must be cycles or instructions, not '{}'", f[1]));
        log_.measure = f[1];
    } else if (tag == "burden") {
        once(have_burden_);
        auto f = fields(line, 2, false, "burden N");
        log_.burden = number(f[1], "the burden");
    } else if (tag == "complete") {
        once(have_complete_);
        auto f = fields(line, 4, false, "complete yes|no LOST_CYCLES LOST_INSTRUCTIONS");
        if (f[1] != "yes" && f[1] != "no") fail(fmt::format("complete must be yes or no, not '{}'", f[1]));
        log_.complete = f[1] == "yes";
        log_.lost_cycles = number(f[2], "LOST_CYCLES");
        log_.lost_instr = number(f[3], "LOST_INSTRUCTIONS");
    } else if (tag == "site") {
        site(line);
    } else {
        label(line);
    }
}

void Reader::site(const std::string& line) {
    std::vector<std::string> f = split_fields(line, 3, false);
    if (f.size() < 3) fail("'site' needs its id and kind: site ID region ... or site ID whatif ...");
    LogSite s;
    s.at = line_;
    s.id = id(f[1], "the site id");
    if (s.id == 0) fail("site 0 is the program and is not listed");
    const auto& sites = log_.tables->sites;
    if (!sites.empty() && s.id <= sites.back().id)
        fail(fmt::format("site {} after site {}: site ids must ascend", s.id, sites.back().id));
    if (f[2] == "region") {
        f = fields(line, 8, true, "site ID region RID TYPE FIRST LAST FILE");
        s.region = true;
        s.rid = f[3];
        bool rid_ok = s.rid == "-" || (s.rid.size() > 1 && s.rid[0] == 'R' &&
                                        s.rid.find_first_not_of("0123456789", 1) == std::string::npos);
        if (!rid_ok) fail(fmt::format("the region must be a region id like R00003 or '-', not '{}'", s.rid));
        s.type = f[4];
        if (s.type.empty()) fail("the region type is empty");
        s.first = id(f[5], "FIRST");
        s.last = id(f[6], "LAST");
        if (s.first > s.last) fail(fmt::format("FIRST {} is after LAST {}", s.first, s.last));
        s.file = f[7];
    } else if (f[2] == "whatif") {
        f = fields(line, 7, true, "site ID whatif LABEL begin|end LINE FILE");
        s.label = id(f[3], "LABEL");
        if (s.label == 0) fail("a what-if site needs a label (0 is none)");
        s.edge = f[4];
        if (s.edge != "begin" && s.edge != "end") fail(fmt::format("the edge must be begin or end, not '{}'", s.edge));
        s.line = id(f[5], "LINE");
        s.file = f[6];
    } else {
        fail(fmt::format("site kind must be region or whatif, not '{}'", f[2]));
    }
    log_.tables->sites.push_back(std::move(s));
}

void Reader::label(const std::string& line) {
    auto f = fields(line, 3, true, "label ID NAME");
    LogLabel l;
    l.id = id(f[1], "the label id");
    if (l.id == 0) fail("label 0 is none and is not listed");
    auto& labels = log_.tables->labels;
    if (!labels.empty() && l.id <= labels.back().id)
        fail(fmt::format("label {} after label {}: label ids must ascend", l.id, labels.back().id));
    l.name = f[2];
    for (const LogLabel& o : labels)
        if (o.name == l.name) fail(fmt::format("label name '{}' is already label {}", l.name, o.id));
    labels.push_back(std::move(l));
}

void Reader::nodes(const std::string& line) {
    if (state_ != kHeader) fail(fmt::format("a second 'nodes' line (the first is line {})", nodes_line_));
    const char* missing = !have_program_   ? "program"
                          : !have_measure_ ? "measure"
                          : !have_burden_  ? "burden"
                          : !have_complete_ ? "complete"
                                            : nullptr;
    if (missing) fail(fmt::format("'nodes' before the '{}' line", missing));
    // The what-if sites' labels (labels may follow the sites).
    for (const LogSite& s : log_.tables->sites)
        if (!s.region && !log_.tables->label(s.label))
            fail_at(s.at, fmt::format("label {} is not defined (no 'label {}' line)", s.label, s.label));
    auto f = fields(line, 3, false, "nodes N D");
    n_nodes_ = number(f[1], "the node count N", UINT32_MAX - 2);
    n_deps_ = number(f[2], "the dependence count D", UINT32_MAX);
    if (n_nodes_ == 0) fail("a graph has at least its root node (N is 0)");
    nodes_line_ = line_;
    state_ = kNodes;
}

void Reader::node(const std::string& tag, const std::string& line) {
    if (state_ == kHeader) fail(fmt::format("'{}' before the 'nodes' line", tag));
    if (state_ == kDeps)
        fail(fmt::format("more node lines than the {} announced on line {}", n_nodes_, nodes_line_));
    ospg::Graph& g = log_.graph;
    const uint32_t index = g.size();
    std::vector<std::string> f;
    if (tag == "W") f = fields(line, 7, false, "W PARENT CYCLES INSTRUCTIONS LABEL FROM TO");
    else f = fields(line, 3, false, tag == "S" ? "S PARENT SITE" : "P PARENT SITE");
    if (index == 0) {
        if (line != "S - 0") fail(fmt::format("the root (node 0) must be 'S - 0', not '{}'", line));
        g.add(ospg::kS, ospg::kNone, 0);
    } else {
        if (f[1] == "-") fail(fmt::format("only the root (node 0) has no parent; this is node {}", index));
        uint32_t parent = id(f[1], "PARENT");
        if (parent >= index) fail(fmt::format("parent {} is not an earlier node (this is node {})", parent, index));
        if (g[parent].kind == ospg::kW) fail(fmt::format("parent {} is a W node", parent));
        if (tag == "W") {
            uint64_t cycles = number(f[2], "CYCLES");
            uint64_t instr = number(f[3], "INSTRUCTIONS");
            uint32_t label = id(f[4], "LABEL");
            uint32_t from = id(f[5], "FROM");
            uint32_t to = id(f[6], "TO");
            check_label(label);
            check_site(from, "FROM site");
            check_site(to, "TO site");
            uint32_t i = g.add(ospg::kW, parent, label);
            g[i].cycles = cycles;
            g[i].instr = instr;
            g[i].from = from;
            g[i].to = to;
            ++log_.w_nodes;
        } else {
            uint32_t site = id(f[2], "SITE");
            check_site(site, "site");
            g.add(tag == "S" ? ospg::kS : ospg::kP, parent, site);
        }
    }
    if (g.size() == n_nodes_) state_ = kDeps;
}

void Reader::dependence(const std::string& line) {
    if (state_ == kHeader) fail("'D' before the 'nodes' line");
    if (state_ == kNodes)
        fail(fmt::format("'D' after {} of the {} node lines announced on line {}", log_.graph.size(), n_nodes_,
                         nodes_line_));
    if (deps_read_ == n_deps_)
        fail(fmt::format("more dependence lines than the {} announced on line {}", n_deps_, nodes_line_));
    auto f = fields(line, 3, false, "D FROM TO");
    uint32_t from = id(f[1], "FROM"), to = id(f[2], "TO");
    const ospg::Graph& g = log_.graph;
    for (uint32_t x : {from, to}) {
        if (x >= g.size()) fail(fmt::format("D {} {}: no node {} (the graph has {})", from, to, x, g.size()));
        if (g[x].kind != ospg::kP)
            fail(fmt::format("D {} {}: node {} is {} node, not a task's P node", from, to, x,
                             g[x].kind == ospg::kW ? "a W" : "an S"));
    }
    if (from >= to) fail(fmt::format("D {} {}: FROM must be an earlier node than TO", from, to));
    log_.graph.add_dependence(from, to);
    ++deps_read_;
}

void Reader::end() {
    if (state_ == kHeader) fail("'end' before the 'nodes' line");
    if (state_ == kNodes)
        fail(fmt::format("'end' after {} of the {} node lines announced on line {}", log_.graph.size(), n_nodes_,
                         nodes_line_));
    if (deps_read_ < n_deps_)
        fail(fmt::format("'end' after {} of the {} dependence lines announced on line {}", deps_read_, n_deps_,
                         nodes_line_));
    state_ = kEnded;
}

std::shared_ptr<const Log> load_log(const std::string& path) {
    auto log = std::make_shared<Log>();
    log->path = path;
    Reader(path, *log).read();
    return log;
}

std::string lines_text(uint32_t first, uint32_t last) {
    if (first == 0 && last == 0) return "";
    return first == last ? fmt::format(":{}", first) : fmt::format(":{}-{}", first, last);
}

std::string site_text(const Tables& t, uint32_t id) {
    if (id == ospg::kProgramSite) return "program";
    const LogSite* s = t.site(id);
    if (!s) return fmt::format("site {}", id);
    std::string file = s->file.empty() ? "???" : basename_of(s->file);
    if (s->region) {
        std::string where = file + lines_text(s->first, s->last);
        return s->rid == "-" ? fmt::format("{} {}", s->type, where) : fmt::format("{} {} {}", s->rid, s->type, where);
    }
    const LogLabel* l = t.label(s->label);
    return fmt::format("what-if '{}' {} {}{}", l ? l->name : std::to_string(s->label), s->edge, file,
                       s->line ? fmt::format(":{}", s->line) : std::string());
}

// A --region resolved against the log.
struct Selector {
    double factor = 1;
    uint32_t label = 0;               // by label
    std::vector<uint32_t> sites;      // by lines: the sites inside them, ascending
    bool selects(const ospg::Node& w) const {
        if (label) return w.site == label;
        if (w.from == ospg::kProgramSite || w.to == ospg::kProgramSite) return false;
        return std::binary_search(sites.begin(), sites.end(), w.from) &&
               std::binary_search(sites.begin(), sites.end(), w.to);
    }
};

double factor_of(void* ctx, const ospg::Node& w) {
    const auto& selectors = *static_cast<const std::vector<Selector>*>(ctx);
    double f = 1;
    for (const Selector& s : selectors)
        if (s.selects(w)) f *= s.factor;
    return f;
}

bool file_matches(const std::string& site_file, const std::string& given) {
    if (given.find('/') != std::string::npos) return site_file == given;
    return basename_of(site_file) == given;
}

std::vector<Selector> resolve(const Log& log, const std::vector<WhatIfRegion>& whatif) {
    std::vector<Selector> out;
    const Tables& t = *log.tables;
    for (const WhatIfRegion& r : whatif) {
        Selector s;
        s.factor = r.factor;
        if (!(r.factor > 0)) throw Error(fmt::format("--region: factor must be a positive number: '{}'", r.factor));
        if (!r.label.empty()) {
            for (const LogLabel& l : t.labels)
                if (l.name == r.label) s.label = l.id;
            if (!s.label) {
                std::vector<std::string> names;
                for (const LogLabel& l : t.labels) names.push_back(l.name);
                throw Error(fmt::format("--region: no what-if label '{}' in {} (labels: {})", r.label, log.path,
                                        names.empty() ? std::string("none") : join(names, ", ")));
            }
        } else {
            for (const LogSite& site : t.sites) {
                if (!file_matches(site.file, r.file)) continue;
                uint32_t lo = site.region ? site.first : site.line;
                uint32_t hi = site.region ? site.last : site.line;
                if (lo >= r.first && hi <= r.last && lo > 0) s.sites.push_back(site.id);
            }
            bool any = false;
            const ospg::Graph& g = log.graph;
            for (uint32_t i = 0; i < g.size() && !any; ++i) any = g[i].kind == ospg::kW && s.selects(g[i]);
            if (!any)
                throw Error(fmt::format("--region {}:{}-{}: no fragment of {} lies between two events in those lines "
                                        "(no W node whose FROM and TO sites are in them)",
                                        r.file, r.first, r.last, log.path));
        }
        out.push_back(std::move(s));
    }
    return out;
}

// As the tool rounds its figures.
uint64_t whole(double v) {
    if (!(v > 0)) return 0;
    return v + 0.5 >= 18446744073709551615.0 ? UINT64_MAX : uint64_t(v + 0.5);
}

}  // namespace

bool is_ospg_log(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[12];
    if (!in.read(head, sizeof head)) return false;
    return std::memcmp(head, "ompsim-ospg ", sizeof head) == 0;
}

namespace {

bool named_in(void* tables, uint32_t site) { return static_cast<const Tables*>(tables)->named(site); }

OspgProfile analyse(const std::shared_ptr<const Log>& log, const std::string& measure, std::optional<uint64_t> burden,
                    const std::vector<WhatIfRegion>& whatif) {
    const std::string& path = log->path;
    const std::string m = measure.empty() ? log->measure : measure;
    if (m != "cycles" && m != "instructions")
        throw Error(fmt::format("--measure must be cycles or instructions, not '{}'", m));
    const uint64_t b = burden ? *burden : log->burden;
    std::vector<Selector> selectors = resolve(*log, whatif);

    ospg::AnalysisOptions o;
    o.instructions = m == "instructions";
    o.burden = double(b);
    if (!selectors.empty()) {
        o.factor = factor_of;
        o.ctx = &selectors;
    }
    ospg::Analysis a;
    if (!a.run(log->graph, o, kHeap)) {
        a.release();
        throw Error(fmt::format("{}: out of memory analysing the graph", path));
    }
    const Tables& t = *log->tables;
    a.fold_unnamed(named_in, const_cast<Tables*>(&t));

    OspgProfile out;
    out.program = log->program;
    sir::Parallelism& p = out.parallelism;
    p.measure = m;
    p.burden = b;
    p.nodes = log->graph.size();
    p.w_nodes = log->w_nodes;
    p.dependences = log->graph.dependence_count();
    p.complete = log->complete;
    p.lost_work = o.instructions ? log->lost_instr : log->lost_cycles;
    p.log = path;
    p.work = whole(a.work());
    p.span = whole(a.span());
    p.burdened_span = whole(a.burdened_span());
    p.serial = whole(a.site(ospg::kProgramSite).serial);
    for (const LogSite& s : t.sites) {
        if (!t.named(s.id)) continue;
        sir::ParallelismSite ps;
        ps.id = s.id;
        if (s.region) {
            ps.region = s.rid;
        } else {
            ps.label = s.label;
            ps.edge = s.edge;
            ps.file = s.file;
            ps.line = s.line;
        }
        p.sites.push_back(std::move(ps));
    }
    for (const LogLabel& l : t.labels) p.labels.push_back(sir::ParallelismLabel{l.id, l.name});
    for (uint32_t s = 1; s < a.site_count(); ++s) {
        const ospg::SiteFigures& f = a.site(s);
        if (!f.instances) continue;
        p.directives.push_back(sir::ParallelismDirective{s, f.instances, whole(f.work), whole(f.span),
                                                         whole(f.burdened_span), whole(f.serial)});
    }
    for (uint32_t i = 0; i < a.fragment_count(); ++i) {
        const ospg::Fragment& f = a.fragment(i);
        p.fragments.push_back(
            sir::ParallelismFragment{f.from, f.to, f.label, f.count, whole(f.work), whole(f.serial)});
    }
    a.release();
    std::shared_ptr<const Tables> tables = log->tables;
    out.site_name = [tables](uint32_t site) { return site_text(*tables, site); };
    return out;
}

}  // namespace

std::vector<OspgProfile> profiles_from_log(const std::string& path, const std::string& measure,
                                           std::optional<uint64_t> burden,
                                           const std::vector<std::vector<WhatIfRegion>>& whatifs) {
    std::shared_ptr<const Log> log = load_log(path);
    std::vector<OspgProfile> out;
    for (const std::vector<WhatIfRegion>& w : whatifs) out.push_back(analyse(log, measure, burden, w));
    return out;
}

}  // namespace report
}  // namespace ompsim
