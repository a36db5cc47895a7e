// ompsim-report export FILE --format=json|csv|callgrind [-o OUT]
//
// json: the whole document, keys in document order (see export_json).
// csv: one record per source line, "file,function,line,<events>", a header
//      record first, RFC 4180 quoting, '\n' line ends; --table=threads,
//      cores or coherence gives the parts of a multi-threaded run instead,
//      --table=prefetch the prefetchers and their counts per cache,
//      --table=tlbs the data TLBs and their counts, --table=classes the
//      miss classes per cache (and core), --table=reuse the reuse-distance
//      bins and --table=mrc the miss-ratio curves of the structures.
// callgrind: the Callgrind profile format, for callgrind_annotate and
//      KCachegrind (no call graph: ompsim records none).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "Report.h"

namespace ompsim {
namespace report {

namespace {

using Json = nlohmann::ordered_json;

Json costs_json(const sir::Document& doc, const std::vector<uint64_t>& costs) {
    Json j = Json::object();
    for (size_t i = 0; i < doc.events.size() && i < costs.size(); ++i) j[doc.events[i]] = costs[i];
    return j;
}

std::string costs_text(const std::vector<uint64_t>& costs) {
    std::string out;
    for (size_t i = 0; i < costs.size(); ++i) out += (i ? " " : "") + std::to_string(costs[i]);
    return out;
}

const char* const kKindNames[4] = {"fetch", "read", "write", "writeback"};

// A value of a Callgrind header or name line: one line whatever it holds.
std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

Json data_costs_json(const sir::DataStructures& ds, const std::vector<uint64_t>& costs) {
    Json j = Json::object();
    for (size_t i = 0; i < ds.events.size() && i < costs.size(); ++i) j[ds.events[i]] = costs[i];
    return j;
}

Json histogram_json(const sir::DataStructures& ds, const sir::DataHistogram& h) {
    Json j;
    if (h.by_bins()) {
        j["bins"] = h.bins;
    } else {
        j["bucket_bytes"] = h.bucket_bytes;
        j["buckets"] = h.buckets;
    }
    j["entries"] = Json::array();
    for (const auto& b : h.entries) j["entries"].push_back(Json{{"index", b.index}, {"costs", data_costs_json(ds, b.costs)}});
    return j;
}

// --reuse-distance: the bins and the miss-ratio curve they imply.
Json reuse_json(const sir::ReuseDistance& r) {
    Json j;
    j["line_size"] = r.line_size;
    j["accesses"] = r.accesses;
    j["cold"] = r.cold;
    j["bins"] = Json::array();
    for (const auto& b : r.bins) j["bins"].push_back(Json{{"min", b.min}, {"max", b.max}, {"count", b.count}});
    j["curve"] = Json::array();
    for (const auto& p : r.curve())
        j["curve"].push_back(Json{{"lines", p.lines}, {"bytes", p.lines * r.line_size}, {"misses", p.misses},
                                  {"miss_ratio", p.ratio}});
    return j;
}

Json structure_json(const sir::DataStructures& ds, const sir::DataStructure& s) {
    Json j;
    put_structure_identity(j, s);
    j["costs"] = data_costs_json(ds, s.costs);
    j["threads"] = Json::array();
    for (const auto& t : s.threads)
        j["threads"].push_back(Json{{"id", t.id == sir::kOtherThread ? Json("other") : Json(t.id)},
                                    {"costs", data_costs_json(ds, t.costs)}});
    j["histogram"] = s.histogram ? histogram_json(ds, *s.histogram) : Json(nullptr);
    j["reuse_distance"] = s.reuse ? reuse_json(*s.reuse) : Json(nullptr);
    return j;
}

// The <data-structures> section; null when the run was without --monitor=yes.
Json data_structures_json(const sir::Document& doc) {
    if (!doc.data_structures) return Json(nullptr);
    const sir::DataStructures& ds = *doc.data_structures;
    Json j;
    j["events"] = ds.events;
    j["mode"] = ds.mode;
    j["resolution"] = ds.resolution;
    j["slots"] = ds.slots;
    j["structures"] = Json::array();
    for (const auto& s : ds.structures) j["structures"].push_back(structure_json(ds, s));
    return j;
}

Json determinism_json(const sir::Run& run) {
    if (!run.determinism) return Json(nullptr);
    const sir::Determinism& d = *run.determinism;
    Json j;
    j["scheduler"] = d.scheduler;
    j["quantum"] = d.quantum;
    j["simulate_runtime"] = d.simulate_runtime;
    j["threads"] = d.threads;
    j["reasons"] = d.reasons;
    return j;
}

Json coherence_json(const sir::Document& doc) {
    if (!doc.coherence) return Json(nullptr);
    Json j;
    for (const auto& f : sir::kCoherenceTotalsFields) j[f.column] = (*doc.coherence).*f.member;
    return j;
}

// The prefetch counters of a <cache-stats>; null on a machine without prefetchers.
Json prefetch_stats_json(const std::optional<sir::PrefetchStats>& p) {
    if (!p) return Json(nullptr);
    Json j;
    for (const auto& f : sir::kPrefetchStatsFields) j[f.column] = (*p).*f.member;
    return j;
}

void put_cache_counters(Json& sj, const sir::CacheStats& s) {
    sj["name"] = s.name;
    for (int k = 0; k < 4; ++k) {
        sj[std::string(kKindNames[k]) + "_refs"] = s.refs[k];
        sj[std::string(kKindNames[k]) + "_misses"] = s.misses[k];
    }
    sj["evictions"] = s.evictions;
    sj["writebacks"] = s.writebacks;
    sj["back_invalidations"] = s.back_invalidations;
    sj["victims_in"] = s.victims_in;
    sj["prefetch"] = prefetch_stats_json(s.prefetch);
    // --classify-misses: the four classes; null without.
    if (const auto& m = s.classes) {
        Json mj;
        for (const auto& f : sir::kMissClassFields) mj[f.column] = (*m).*f.member;
        sj["miss_classes"] = mj;
    } else {
        sj["miss_classes"] = Json(nullptr);
    }
}

// A cache's prefetchers; null for a level without one.
Json cache_prefetch_json(const std::optional<sir::CachePrefetch>& p) {
    if (!p) return Json(nullptr);
    Json j;
    j["prefetchers"] = p->kinds;
    j["degree"] = p->degree;
    j["table"] = p->table;
    j["streams"] = p->streams;
    return j;
}

// The machine's data TLBs; null without them.
Json tlbs_json(const std::optional<sir::Tlbs>& t) {
    if (!t) return Json(nullptr);
    Json j;
    j["page_size"] = t->page_size;
    j["walk_latency"] = t->walk_latency;
    j["levels"] = Json::array();
    for (const auto& l : t->levels)
        j["levels"].push_back(Json{{"name", l.name},
                                   {"level", l.level},
                                   {"entries", l.entries},
                                   {"assoc", l.assoc},
                                   {"latency", l.latency}});
    return j;
}

// <tlb-stats>, one per TLB level; null without TLBs.
Json tlb_stats_json(const sir::Document& doc) {
    if (!doc.machine.tlbs) return Json(nullptr);
    Json j = Json::array();
    for (const auto& t : doc.tlb_stats) {
        Json tj;
        tj["name"] = t.name;
        for (const auto& f : sir::kTlbStatsFields) tj[f.column] = t.*f.member;
        j.push_back(tj);
    }
    return j;
}

Json threads_json(const sir::Document& doc) {
    if (!doc.threads) return Json(nullptr);
    Json j = Json::array();
    for (const auto& t : *doc.threads) {
        Json tj;
        tj["id"] = t.id;
        tj["valgrind_tid"] = t.valgrind_tid;
        tj["omp_thread"] = t.omp_thread;
        tj["core"] = t.core;
        tj["costs"] = costs_json(doc, t.costs);
        j.push_back(tj);
    }
    return j;
}

Json cache_coherence_json(const std::optional<sir::CacheCoherence>& c) {
    if (!c) return Json(nullptr);
    Json j;
    for (const auto& f : sir::kCacheCoherenceFields) j[f.column] = (*c).*f.member;
    return j;
}

Json cores_json(const sir::Document& doc) {
    if (!doc.cores) return Json(nullptr);
    Json j = Json::array();
    for (const auto& c : *doc.cores) {
        Json cj;
        cj["id"] = c.id;
        cj["instructions"] = c.instructions;
        cj["cycles"] = c.cycles;
        cj["busy_cycles"] = c.busy_cycles;
        cj["wait_cycles"] = c.wait_cycles;
        cj["cache_stats"] = Json::array();
        for (const auto& s : c.cache_stats) {
            Json sj;
            put_cache_counters(sj, s.stats);
            sj["coherence"] = cache_coherence_json(s.coherence);
            cj["cache_stats"].push_back(sj);
        }
        j.push_back(cj);
    }
    return j;
}

// ---- CSV tables

std::string csv_threads(const sir::Document& doc) {
    std::string out = "thread,valgrind_tid,omp_thread,core";
    for (const auto& e : doc.events) out += "," + csv_field(e);
    out += "\n";
    for (const auto& t : *doc.threads) {
        out += fmt::format("{},{},{},{}", t.id, t.valgrind_tid, t.omp_thread, t.core);
        for (uint64_t v : t.costs) out += "," + std::to_string(v);
        out += "\n";
    }
    return out;
}

std::string csv_cores(const sir::Document& doc) {
    std::string out = "core,instructions,cycles,busy_cycles,wait_cycles,cache";
    for (const char* k : kKindNames) out += fmt::format(",{0}_refs,{0}_misses", k);
    out += ",evictions,writebacks,back_invalidations,victims_in";
    for (const auto& f : sir::kCacheCoherenceFields) out += std::string(",") + f.column;
    // With prefetchers, their counters last (documents without keep their columns).
    const bool prefetch = doc.machine.has_prefetch();
    if (prefetch)
        for (const auto& f : sir::kPrefetchStatsFields) out += std::string(",") + f.column;
    out += "\n";
    for (const auto& c : *doc.cores)
        for (const auto& cs : c.cache_stats) {
            const sir::CacheStats& s = cs.stats;
            out += fmt::format("{},{},{},{},{},{}", c.id, c.instructions, c.cycles, c.busy_cycles, c.wait_cycles,
                               csv_field(s.name));
            for (int k = 0; k < 4; ++k) out += fmt::format(",{},{}", s.refs[k], s.misses[k]);
            out += fmt::format(",{},{},{},{}", s.evictions, s.writebacks, s.back_invalidations, s.victims_in);
            for (const auto& f : sir::kCacheCoherenceFields)  // empty fields: no coherence counters
                out += cs.coherence ? "," + std::to_string((*cs.coherence).*f.member) : ",";
            if (prefetch)
                for (const auto& f : sir::kPrefetchStatsFields)
                    out += s.prefetch ? "," + std::to_string((*s.prefetch).*f.member) : ",";
            out += "\n";
        }
    return out;
}

// One record per cache of <machine>: its prefetchers (empty fields for a
// level without) and the prefetch counters of its <cache-stats>.
std::string csv_prefetch(const sir::Document& doc) {
    std::string out = "cache,level,prefetchers,degree,table,streams";
    for (const auto& f : sir::kPrefetchStatsFields) out += std::string(",") + f.column;
    out += "\n";
    for (size_t i = 0; i < doc.machine.caches.size(); ++i) {
        const sir::Cache& c = doc.machine.caches[i];
        out += csv_field(c.name) + "," + std::to_string(c.level);
        if (c.prefetch)
            out += fmt::format(",{},{},{},{}", csv_field(join(c.prefetch->kinds, ",")), c.prefetch->degree,
                               c.prefetch->table, c.prefetch->streams);
        else
            out += ",,,,";
        const sir::CacheStats* s = i < doc.cache_stats.size() ? &doc.cache_stats[i] : nullptr;
        for (const auto& f : sir::kPrefetchStatsFields)
            out += s && s->prefetch ? "," + std::to_string((*s->prefetch).*f.member) : ",";
        out += "\n";
    }
    return out;
}

// One record per TLB level: its geometry, the machine's page size and walk
// latency, and its <tlb-stats>.
std::string csv_tlbs(const sir::Document& doc) {
    std::string out = "tlb,level,entries,assoc,latency,page_size,walk_latency";
    for (const auto& f : sir::kTlbStatsFields) out += std::string(",") + f.column;
    out += "\n";
    const sir::Tlbs& t = *doc.machine.tlbs;
    for (size_t i = 0; i < t.levels.size(); ++i) {
        const sir::Tlb& l = t.levels[i];
        out += fmt::format("{},{},{},{},{},{},{}", csv_field(l.name), l.level, l.entries, l.assoc, l.latency,
                           t.page_size, t.walk_latency);
        for (const auto& f : sir::kTlbStatsFields)
            out += i < doc.tlb_stats.size() ? "," + std::to_string(doc.tlb_stats[i].*f.member) : ",";
        out += "\n";
    }
    return out;
}

// One record per cache of <totals>, then per core and private cache: the
// four miss classes and the demand misses they add up to.
std::string csv_classes(const sir::Document& doc) {
    std::string out = "core,cache,demand_misses";
    for (const auto& f : sir::kMissClassFields) out += std::string(",") + f.column;
    out += "\n";
    auto row = [&out](const std::string& core, const sir::CacheStats& s) {
        out += core + "," + csv_field(s.name) + "," + std::to_string(s.demand_misses());
        for (const auto& f : sir::kMissClassFields)
            out += s.classes ? "," + std::to_string((*s.classes).*f.member) : ",";
        out += "\n";
    };
    for (const auto& s : doc.cache_stats) row("", s);
    if (doc.cores)
        for (const auto& c : *doc.cores)
            for (const auto& cs : c.cache_stats) row(std::to_string(c.id), cs.stats);
    return out;
}

// --reuse-distance: per structure its bins (min "cold" for the cold
// references), or the miss-ratio curve at capacities of 1, 2, 4, ... lines.
std::string csv_reuse(const sir::Document& doc, bool curve) {
    std::string out = curve ? "structure,kind,name,file,line,lines,bytes,misses,miss_ratio\n"
                            : "structure,kind,name,file,line,min,max,count\n";
    const auto& list = doc.data_structures->structures;
    for (size_t i = 0; i < list.size(); ++i) {
        const sir::DataStructure& s = list[i];
        if (!s.reuse) continue;
        const std::string id = fmt::format("{},{},{},{},{}", i, csv_field(s.kind), csv_field(s.name),
                                           csv_field(s.file), s.line);
        if (curve) {
            for (const auto& p : s.reuse->curve())
                out += fmt::format("{},{},{},{},{:.6f}\n", id, p.lines, p.lines * s.reuse->line_size, p.misses, p.ratio);
            continue;
        }
        for (const auto& b : s.reuse->bins) out += fmt::format("{},{},{},{}\n", id, b.min, b.max, b.count);
        out += fmt::format("{},cold,cold,{}\n", id, s.reuse->cold);
    }
    return out;
}

bool has_reuse(const sir::Document& doc) {
    if (!doc.data_structures) return false;
    for (const auto& s : doc.data_structures->structures)
        if (s.reuse) return true;
    return false;
}

std::string csv_coherence(const sir::Document& doc) {
    std::string header, values;
    for (const auto& f : sir::kCoherenceTotalsFields) {
        header += std::string(header.empty() ? "" : ",") + f.column;
        values += (values.empty() ? "" : ",") + std::to_string((*doc.coherence).*f.member);
    }
    return header + "\n" + values + "\n";
}

}  // namespace

void put_structure_identity(Json& j, const sir::DataStructure& s) {
    j["kind"] = s.kind;
    j["name"] = s.name;
    j["file"] = s.file;
    j["line"] = s.line;
    j["address"] = fmt::format("0x{:x}", s.address);
    j["size"] = s.size;
    j["blocks"] = s.blocks;
    j["bytes"] = s.bytes;
    j["counted"] = s.counted;
    j["site"] = s.site ? Json(*s.site) : Json(nullptr);
}

std::string export_json(const sir::Document& doc) {
    Json j;
    j["format_version"] = doc.format_version;
    j["tool_version"] = doc.tool_version;
    Json run;
    run["complete"] = doc.run.complete;
    run["termination"] = doc.run.termination;
    run["exit_status"] = doc.run.exit_status;
    run["signal"] = doc.run.signal;
    run["label"] = doc.run.label;
    run["dump"] = doc.run.dump;
    run["deterministic"] = doc.run.deterministic;
    run["exe"] = doc.run.exe;
    run["args"] = doc.run.args;
    run["determinism"] = determinism_json(doc.run);
    j["run"] = run;
    Json m;
    m["name"] = doc.machine.name;
    m["model"] = doc.machine.model;
    m["levels"] = doc.machine.levels;
    m["split_l1"] = doc.machine.split_l1;
    m["icache"] = doc.machine.icache;
    m["random_seed"] = doc.machine.random_seed;
    m["cpi"] = doc.machine.cpi;
    m["memory_latency"] = doc.machine.memory_latency;
    const auto& mc = doc.machine.multicore;
    m["cores"] = mc ? Json(mc->cores) : Json(nullptr);
    m["private_levels"] = mc ? Json(mc->private_levels) : Json(nullptr);
    m["coherence"] = mc ? Json(mc->coherence) : Json(nullptr);
    m["c2c_latency"] = mc && mc->c2c_latency ? Json(*mc->c2c_latency) : Json(nullptr);
    m["upgrade_latency"] = mc && mc->upgrade_latency ? Json(*mc->upgrade_latency) : Json(nullptr);
    m["caches"] = Json::array();
    for (const auto& c : doc.machine.caches) {
        Json cj;
        cj["name"] = c.name;
        cj["level"] = c.level;
        cj["side"] = c.side;
        cj["size"] = c.size;
        cj["assoc"] = c.assoc;
        cj["line_size"] = c.line_size;
        cj["sets"] = c.sets;
        cj["replacement"] = c.replacement;
        cj["write_policy"] = c.write_policy;
        cj["inclusion"] = c.inclusion;
        cj["latency"] = c.latency;
        cj["prefetch"] = cache_prefetch_json(c.prefetch);
        m["caches"].push_back(cj);
    }
    m["tlbs"] = tlbs_json(doc.machine.tlbs);
    j["machine"] = m;
    j["events"] = doc.events;
    j["totals"] = costs_json(doc, doc.totals);
    j["cache_stats"] = Json::array();
    for (const auto& s : doc.cache_stats) {
        Json sj;
        put_cache_counters(sj, s);
        j["cache_stats"].push_back(sj);
    }
    j["memory"] = Json{{"reads", doc.memory_reads}, {"writes", doc.memory_writes}};
    j["coherence"] = coherence_json(doc);
    j["tlb_stats"] = tlb_stats_json(doc);
    j["files"] = Json::array();
    for (const auto& f : doc.files) {
        Json fj;
        fj["path"] = f.path;
        fj["regions"] = Json::array();
        for (const auto& r : f.regions) {
            Json rj;
            rj["type"] = r.type;
            rj["name"] = r.name;
            rj["first_line"] = r.first_line;
            rj["last_line"] = r.last_line;
            rj["costs"] = costs_json(doc, r.costs);
            rj["lines"] = Json::array();
            for (const auto& l : r.lines) rj["lines"].push_back(Json{{"number", l.number}, {"costs", costs_json(doc, l.costs)}});
            fj["regions"].push_back(rj);
        }
        j["files"].push_back(fj);
    }
    j["threads"] = threads_json(doc);
    j["cores"] = cores_json(doc);
    j["data_structures"] = data_structures_json(doc);
    return j.dump(2) + "\n";
}

// Why the document has no data for a CSV table ("" when it has).
std::string missing_table(const sir::Document& doc, const std::string& table) {
    if (table == "threads" && !doc.threads) return "no threads (a single-threaded run); --table=threads";
    if (table == "cores" && !doc.cores) return "no cores (a single-threaded run); --table=cores";
    if (table == "coherence" && !doc.coherence)
        return "no coherence totals (a run without cache coherence); --table=coherence";
    if (table == "prefetch" && !doc.machine.has_prefetch())
        return "no prefetchers (a machine without hardware prefetchers); --table=prefetch";
    if (table == "tlbs" && !doc.machine.tlbs) return "no TLBs (a machine without data TLBs); --table=tlbs";
    if (table == "classes" && (doc.cache_stats.empty() || !doc.cache_stats[0].classes))
        return "no miss classes (a run without --classify-misses=yes); --table=classes";
    if ((table == "reuse" || table == "mrc") && !has_reuse(doc))
        return "no reuse distances (a run without --reuse-distance=yes and --monitor=yes); --table=" + table;
    return "";
}

std::string export_csv(const sir::Document& doc, const std::string& table) {
    std::string missing = missing_table(doc, table);
    if (!missing.empty()) throw Error("the document has " + missing);
    if (table.empty() || table == "lines") return export_csv(doc);
    if (table == "threads") return csv_threads(doc);
    if (table == "cores") return csv_cores(doc);
    if (table == "coherence") return csv_coherence(doc);
    if (table == "prefetch") return csv_prefetch(doc);
    if (table == "tlbs") return csv_tlbs(doc);
    if (table == "classes") return csv_classes(doc);
    if (table == "reuse" || table == "mrc") return csv_reuse(doc, table == "mrc");
    throw Error("--table must be lines, threads, cores, coherence, prefetch, tlbs, classes, reuse or mrc, not '" +
                table + "'");
}

std::string export_csv(const sir::Document& doc) {
    std::string out = "file,function,line";
    for (const auto& e : doc.events) out += "," + csv_field(e);
    out += "\n";
    for (const auto& f : doc.files)
        for (const auto& r : f.regions)
            for (const auto& l : r.lines) {
                out += csv_field(f.path) + "," + csv_field(r.name) + "," + std::to_string(l.number);
                for (uint64_t v : l.costs) out += "," + std::to_string(v);
                out += "\n";
            }
    return out;
}

std::string export_callgrind(const sir::Document& doc) {
    std::string out;
    out += "# callgrind format\n";
    out += "version: 1\n";
    out += "creator: ompsim-report\n";
    out += "pid: 0\n";
    out += "cmd: " + one_line(command_text(doc.run)) + "\n";
    out += "part: 1\n";
    out += "desc: Machine: " + one_line(doc.machine.name) + " (" + doc.machine.model + ")\n";
    for (const auto& c : doc.machine.caches)
        out += fmt::format("desc: {} cache: {} B, {} B, {}-way associative, {}, latency {}\n", c.name, c.size,
                           c.line_size, c.assoc, c.replacement, c.latency);
    if (!doc.run.complete) out += "desc: Run: incomplete (" + doc.run.termination + ")\n";
    out += "\npositions: line\n";
    out += "events: " + join(doc.events) + "\n";
    for (const auto& f : doc.files) {
        out += "\nfl=" + one_line(f.path) + "\n";
        for (const auto& r : f.regions) {
            out += "fn=" + one_line(r.name) + "\n";
            for (const auto& l : r.lines) out += std::to_string(l.number) + " " + costs_text(l.costs) + "\n";
        }
    }
    out += "\nsummary: " + costs_text(doc.totals) + "\n";
    out += "totals: " + costs_text(doc.totals) + "\n";
    return out;
}

void export_document(const sir::Document& doc, const std::string& format, std::ostream& out,
                     const std::string& table) {
    if (!table.empty() && format != "csv")
        throw Error("--table applies to --format=csv only (json has every part, callgrind the lines)");
    if (format == "json") out << export_json(doc);
    else if (format == "csv") out << export_csv(doc, table);
    else if (format == "callgrind") out << export_callgrind(doc);
    else throw Error("--format must be json, csv or callgrind, not '" + format + "'");
}

void add_export_command(CLI::App& app, Action& action) {
    struct Options {
        std::string path, format, output, table;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("export", "Write the profile as JSON, CSV or a Callgrind profile");
    cmd->add_option("FILE", o->path, "Profile document")->required();
    cmd->add_option("--format", o->format,
                    "json: the whole document; csv: one row per source line; callgrind: for callgrind_annotate "
                    "and KCachegrind")
        ->type_name("json|csv|callgrind")
        ->required()
        ->check(CLI::IsMember({"json", "csv", "callgrind"}).description(""));
    cmd->add_option("--table", o->table,
                    "csv only: lines (default: one record per source line), threads (per thread), cores (per core "
                    "and private cache), coherence (the coherence totals), prefetch (per cache: prefetchers and "
                    "prefetch counters), tlbs (per data TLB level), classes (miss classes per cache), reuse "
                    "(reuse-distance bins per structure), mrc (miss-ratio curve per structure)")
        ->type_name("lines|threads|cores|coherence|prefetch|tlbs|classes|reuse|mrc")
        ->check(CLI::IsMember({"lines", "threads", "cores", "coherence", "prefetch", "tlbs", "classes", "reuse", "mrc"})
                    .description(""));
    cmd->add_option("-o,--output", o->output, "Write to OUT instead of standard output")->type_name("OUT");
    cmd->callback([o, &action] {
        action = [o] {
            sir::Document doc = load_document(o->path);
            std::string missing = missing_table(doc, o->table);
            if (!missing.empty() && o->format == "csv") throw Error(o->path + ": " + missing);
            std::ostringstream text;
            export_document(doc, o->format, text, o->table);
            if (o->output.empty() || o->output == "-") {
                std::cout << text.str();
                return kExitOk;
            }
            std::ofstream file(o->output, std::ios::binary | std::ios::trunc);
            if (!file) throw Error(fmt::format("cannot write {}: {}", o->output, std::strerror(errno)));
            file << text.str();
            file.close();
            if (!file) throw Error(fmt::format("cannot write {}: {}", o->output, std::strerror(errno)));
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
