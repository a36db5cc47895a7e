// ompsim-report: the command-line reader of ompsim profile documents
// (sir/Document.h). One file per command (Summary, Annotate, Diff, Export,
// Arrays, Histogram with HistogramSvg, Regions, Flow, Events), shared helpers in
// Format.cpp and, for the data-structure commands, Structures.cpp (for the
// region-profile commands, Regions.cpp); the command line in main.cpp.
//
// Exit statuses of every command: 0 success, 2 any error (unreadable or
// invalid document, bad arguments; one line "ompsim-report: <message>" on
// stderr). 'diff' exits 1 when at least one --limit was exceeded.
#ifndef OMPSIM_REPORT_REPORT_H
#define OMPSIM_REPORT_REPORT_H

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "Document.h"

namespace CLI {
class App;
}

namespace ompsim {
namespace report {

constexpr int kExitOk = 0;
constexpr int kExitLimitExceeded = 1;
constexpr int kExitError = 2;

// Any error that ends the program with status 2; what() is the message
// printed after "ompsim-report: ".
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------- Format.cpp

// Loads and validates a document; throws Error with the LoadError text
// ("FILE:LINE: message") when it cannot.
sir::Document load_document(const std::string& path);

// 1234567 -> "1,234,567".
std::string commas(uint64_t value);
// new - old with a sign and thousands separators: "+1,000", "-5", "0".
std::string signed_change(uint64_t old_value, uint64_t new_value);
// new / old: "1.333"; "inf" when old is 0 and new > 0; "-" when both are 0.
std::string factor_text(uint64_t old_value, uint64_t new_value);
// (new - old) / old in percent: "+33.33%", "-1.50%", "0.00%"; "+inf%" when
// old is 0 and new > 0; "-" when both are 0.
std::string change_percent_text(uint64_t old_value, uint64_t new_value);
// part / whole in percent with one decimal ("66.7%"); "-" when whole is 0.
std::string share_text(uint64_t part, uint64_t whole);
// A size in bytes: "32 KiB", "1 MiB", "96 B".
std::string size_text(uint64_t bytes);
// The command of a run as a shell would read it ('quoted' where needed).
std::string command_text(const sir::Run& run);
// A field of a CSV record, quoted as RFC 4180 asks when it contains a comma,
// a double quote, CR or LF (quotes doubled).
std::string csv_field(const std::string& field);
// Splits "a,b,,c" at commas, dropping empty items and surrounding blanks.
std::vector<std::string> split_list(const std::string& text);
// "Ir I1mr ..." (the names separated by blanks).
std::string join(const std::vector<std::string>& items, const std::string& sep = " ");
// "dir/file.c" -> "file.c".
std::string basename_of(const std::string& path);
// The index of the event that ranks hot code: Cycles when present, else the
// first event (Ir).
int rank_event(const sir::Document& doc);

// A function (region) of a document with the file that holds it.
struct FunctionRef {
    const sir::File* file = nullptr;
    const sir::Region* region = nullptr;
    std::string label() const;  // "path:name"
};
std::vector<FunctionRef> functions_of(const sir::Document& doc);

// A text table: columns left or right aligned, separated by two blanks, a
// header line and a line of dashes under it. No trailing blanks.
class Table {
public:
    enum Align { kLeft, kRight };
    void column(const std::string& header, Align align);
    void row(std::vector<std::string> cells);
    bool empty() const { return rows_.empty(); }
    std::string render(const std::string& indent = "") const;

private:
    std::vector<std::string> headers_;
    std::vector<Align> aligns_;
    std::vector<std::vector<std::string>> rows_;
};

// "Label:" padded to 18 columns, then the value (the layout of the program
// totals, "Instructions:     30").
std::string field_line(const std::string& label, const std::string& value);
// Writes `text` to `path` (replacing it); throws Error with the reason.
void write_file(const std::string& path, const std::string& text);
// "-- Title" section heading.
std::string heading(const std::string& title);

// ------------------------------------------------------------------ Diff.cpp

// One --limit EVENT=PCT% or EVENT=ABS.
struct Limit {
    std::string event;
    bool percent = false;  // PCT% (relative increase) or ABS (absolute increase)
    long double value = 0;
    std::string text;  // the value as given: "2%", "1000"
};
// Parses the syntax only (the event is checked against a document later);
// false with a message on a malformed limit.
bool parse_limit(const std::string& spec, Limit& limit, std::string& error);
// True when the increase from old to new is beyond the limit. Decreases
// never exceed; a percentage limit is exceeded by any increase from 0.
bool limit_exceeded(const Limit& limit, uint64_t old_value, uint64_t new_value);

// ------------------------------------------------------------ Structures.cpp

// The <data-structures> section of a document; throws Error (naming `path`
// and --monitor=yes) when it has none.
const sir::DataStructures& data_structures_of(const sir::Document& doc, const std::string& path);
// The cache levels the section's columns cover (2 for "Dr D1mr D2mr Dw D1mw D2mw").
int data_levels(const sir::DataStructures& ds);
// The data cache at a level as <machine> names it ("D1", "L2", "LL"); "L<k>"
// when the machine lists none.
std::string level_name(const sir::Document& doc, int level);
// --level: "2", "D1", "L2", "LL" (the last level), case-insensitive; throws
// Error for anything else and for a level the section has no columns for.
int parse_level(const sir::Document& doc, const std::string& spec);

// The counts of one cost vector of the section at one level (1-based).
// References reaching a level: every reference at level 1, the misses of
// the level above below it; hits = references reaching it - its misses.
struct LevelCounts {
    uint64_t reads = 0, writes = 0;            // all references (Dr, Dw)
    uint64_t read_refs = 0, write_refs = 0;    // references reaching the level
    uint64_t read_misses = 0, write_misses = 0;
    uint64_t read_hits() const;
    uint64_t write_hits() const;
};
LevelCounts level_counts(const sir::DataStructures& ds, const std::vector<uint64_t>& costs, int level);

// "file:line" of a structure (declared or allocated at); "-" when unknown.
std::string location_text(const sir::DataStructure& s);
// The structure a user names: its exact name, NAME@FILE:LINE (FILE may be
// the end of the path after a '/'), or its index as "#N" or "N". Throws Error
// when nothing matches or the name is ambiguous (listing the candidates).
size_t find_structure(const sir::DataStructures& ds, const std::string& spec);

// -------------------------------------------- multi-core runs (Summary.cpp)

// The "Deterministic" value of the summary: "yes", "no", or with a
// <determinism> element "yes (round-robin, quantum 1000)" / "NO: reason"
// (one line per reason, the later ones indented to follow the first).
std::string determinism_text(const sir::Run& run);
// The coherence counters of a core summed over its private caches.
sir::CacheCoherence core_coherence(const sir::Core& core);
// A data structure with false-sharing misses (the Dfs column).
struct FalseSharing {
    size_t index = 0;
    std::string name;  // as the summary names it (see structure_display_name)
    uint64_t false_sharing = 0, coherence = 0;
};
// Every structure with Dfs > 0, most false-sharing misses first (ties in
// document order); empty when the section has no Dcm/Dfs columns.
std::vector<FalseSharing> false_sharing_of(const sir::DataStructures& ds);
// The name of structure i for a message: its name, NAME@FILE:LINE when
// another structure has the same name, "#i" when it has none.
std::string structure_display_name(const sir::DataStructures& ds, size_t i);
// The findings of the summary, one line each: "false sharing: NAME N
// false-sharing misses of M coherence misses" per structure with Dfs > 0,
// or "no false sharing detected" when the columns exist and Dfs is 0
// everywhere; empty without the columns.
std::vector<std::string> findings(const sir::Document& doc);

// --------------------------------------- the region profile (Regions.cpp)

// The <region-profile> section of a document; throws Error (naming `path`
// and how to get one) when it has none.
const sir::RegionProfile& region_profile_of(const sir::Document& doc, const std::string& path);
// The program's name (the executable without its directory).
std::string program_name(const sir::Document& doc);
// "regions.c (17-20)": the file without its directory ("???" when unknown)
// and the lines (left out when unknown).
std::string region_location(const sir::ProfRegion& r);
// ompP's label of a region: "R00003 regions.c (17-20)", with " ('name')" for
// a named region and " (unnamed)" for a critical without a name.
std::string region_label(const sir::ProfRegion& r);
// The type of a node's region; "ROOT" for the root.
std::string type_of(const sir::RegionProfile& p, const sir::ProfNode& n);
// The columns of ompP's flat profile for a region type (execT execC first).
std::vector<std::string> columns_for_type(const std::string& type);
// A node summed over its threads: inclusive = execT, exclusive = the sum of
// its states (its own time, children left out), entries = execC.
struct NodeTimes {
    uint64_t inclusive = 0, exclusive = 0, entries = 0;
};
NodeTimes node_times(const sir::RegionProfile& p, const sir::ProfNode& n);
// ompP's overhead analysis of one PARALLEL node, summed over the threads,
// over the node and its descendants up to nested PARALLEL nodes (which have
// their own): total = its execT; synchronization = the states of BARRIER,
// TASKWAIT and TASKGROUP nodes + enterT of CRITICAL, LOCK and ORDERED;
// imbalance = exitBarT of LOOP, SECTIONS and the PARALLEL; limited
// parallelism = exitBarT of SINGLE; thread management = startupT + shutdwnT
// of the PARALLEL.
struct Overheads {
    uint64_t total = 0;
    uint64_t synchronization = 0, imbalance = 0, limited_parallelism = 0, thread_management = 0;
    uint64_t sum() const;
};
Overheads parallel_overheads(const sir::RegionProfile& p, const sir::ProfNode& parallel);

struct RegionsOptions {
    std::string path;
    std::string events;         // --events=A,B
    bool events_given = false;  // false: D1mr and the last level's Dmr
    bool states_by_node = false;
};
std::string regions_text(const sir::Document& doc, const RegionsOptions& options);
void run_regions(const RegionsOptions& options, std::ostream& out);

// ------------------------------------------------- the flow graph (Flow.cpp)

// A DOT string's content: quotes and backslashes escaped, control characters
// (which a label cannot hold) shown as '?'.
std::string dot_escape(const std::string& s);
// The DOT text rendered by Graphviz's `dot -Tsvg` (found in PATH); throws
// Error when 'dot' is not installed or fails.
std::string render_svg(const std::string& dot_text);

struct FlowOptions {
    std::string path;
    std::string format = "dot";  // dot | svg
    std::string layer;           // "" = the whole graph; a node id or a region id
    std::string output;          // "" = stdout
};
// --layer: a node id ("3") or a region id ("R00003", or "R3": its first node);
// throws Error for anything else or an id the profile does not have.
uint32_t parse_layer(const sir::RegionProfile& p, const std::string& spec);
// ompP's edge label: the threads and counts of one edge, threads with equal
// counts and consecutive ids grouped as "first-last|sum" ("0-3|8, 5|1").
std::string thread_groups(const std::vector<std::pair<uint32_t, uint64_t>>& counts);
// The fill of a node: white (#ffffff) for 0 to red (#ff0000) for `max`,
// linear: green and blue = 255 - round(255 * value / max).
std::string fill_color(uint64_t value, uint64_t max);
// The control-flow graph in Graphviz's DOT language: every node, or with
// `layer` set one node and its children.
std::string flow_dot(const sir::Document& doc, const std::optional<uint32_t>& layer);
void run_flow(const FlowOptions& options, std::ostream& out);

// ---------------------------------- the event flow graph (Events.cpp)

struct EventsOptions {
    std::vector<std::string> paths;  // one document, or several merged (IPM's application-level graph)
    std::string components;          // --components=a,b; "" with components_given false: the
    bool components_given = false;   // components every document recorded
    std::string size = "exact";      // exact | magnitude (power-of-two buckets)
    std::string format = "text";     // text | dot | svg
    std::string output;              // "" = stdout
};
// Contributors of an edge or node (ranks or threads), ascending: runs of 3
// or more consecutive numbers as "first-last", the others one by one, all
// separated by ',': "0-3", "0,2", "0,1,5-7".
std::string contributor_runs(std::vector<int64_t> values);
// The power-of-two bucket of a size: "64-127 B", "1 B", "0 B".
std::string size_magnitude_text(uint64_t bytes);
// The graph as text (tables of nodes and edges) or DOT.
std::string events_text(const EventsOptions& options);
void run_events(const EventsOptions& options, std::ostream& out);

// ------------------------------------- the parallelism profile (OMP-WHIP)

// A site of a parallelism profile as text ("program" for 0; a region like
// "R00003 LOOP prime.c:14-18"; a what-if annotation like
// "what-if 'inner' begin prime.c:15").
using SiteNamer = std::function<std::string(uint32_t site)>;

// Parallelism.cpp: the profile as ompsim-report parallelism prints it
// (title: the first line), from a document or from an analysed OSPG log.
void print_parallelism(const sir::Parallelism& p, const SiteNamer& name, const std::string& title,
                       std::ostream& out);
// The namer of a document's <parallelism> sites (regions resolved in its region profile).
SiteNamer document_site_namer(const sir::Document& doc);

// OspgLog.cpp: an OSPG log (--ospg-log, docs/parallelism.md) read, checked
// and analysed by profilers/OspgAnalysis, as a document's section would be.
struct WhatIfRegion {             // --region LABEL[:FACTOR] or FILE:FIRST-LAST[:FACTOR]
    std::string label;            // empty: by lines
    std::string file;
    uint32_t first = 0, last = 0;
    double factor = 16;
};
struct OspgProfile {
    sir::Parallelism parallelism; // its figures (what-if: with the factors applied to spans)
    SiteNamer site_name;
    std::string program;
};
bool is_ospg_log(const std::string& path);  // starts with "ompsim-ospg "
// The log read once and analysed for each what-if set (an empty set: as
// measured). measure: "" = the log's; burden: nullopt = the log's.
std::vector<OspgProfile> profiles_from_log(const std::string& path, const std::string& measure,
                                           std::optional<uint64_t> burden,
                                           const std::vector<std::vector<WhatIfRegion>>& whatifs);
// Parallelism.cpp: num / den with two decimals, rounded half up, thousands
// separators ("2.17", "1,234.50"; "-" when den is 0), and a header line
// ("Label:" padded to 23 columns), as every parallelism figure is printed.
std::string ratio_text(unsigned __int128 num, unsigned __int128 den);
std::string profile_field(const std::string& label, const std::string& value);

// ------------------------------------ the HTML report (Html*.cpp, issue 9)

// Text for HTML content and quoted attributes (& < > " ' escaped; svg::escape).
std::string html_escape(const std::string& s);

// An HTML table of text cells (escaped), right-aligned columns marked
// class="num" (the page's script sorts them as numbers), code columns
// class="code" (monospace, blanks kept). `id` names it for autograders
// (docs/ompsim-report.md, "html").
class HtmlTable {
public:
    explicit HtmlTable(std::string id) : id_(std::move(id)) {}
    void column(const std::string& header, Table::Align align, const std::string& tip = "", bool code = false);
    void row(std::vector<std::string> cells);
    bool empty() const { return rows_.empty(); }
    std::string render() const;

private:
    std::string id_;
    std::vector<std::string> headers_, tips_;
    std::vector<Table::Align> aligns_;
    std::vector<bool> code_;
    std::vector<std::vector<std::string>> rows_;
};

// <figure id=ID> with an inline SVG (its XML declaration and DOCTYPE
// dropped) and a caption (text).
std::string html_figure(const std::string& id, const std::string& svg, const std::string& caption);
// <p class="caption">: the short explanation under a heading (text).
std::string html_caption(const std::string& text);

// One part of the page: <section id=ID> with an <h2>, the caption that
// explains what it shows, and its body (HTML).
struct HtmlSection {
    std::string id, title, caption, body;
};

struct HtmlOptions {
    std::string path;
    std::string output;     // "" = stdout
    size_t top_lines = 20;  // --top: source lines shown
    std::string ospg_log;   // --ospg-log: the run's OSPG log for the what-if table ("" = the document's log, if found)
};
// The sections, each only when the document has its data.
// HtmlMachine.cpp: the run, machine and totals, cache levels, threads and cores.
std::vector<HtmlSection> html_machine_sections(const sir::Document& doc);
// HtmlStructures.cpp: the data structures, their histograms, miss classes and reuse distances.
std::vector<HtmlSection> html_structure_sections(const sir::Document& doc);
// HtmlClasses.cpp: the miss classes (3C) of the caches and structures, reuse distances and miss-ratio curves.
std::vector<HtmlSection> html_class_sections(const sir::Document& doc);
// HtmlProfiles.cpp: the region profile, the flow graph, the parallelism profile and what-if table.
std::vector<HtmlSection> html_profile_sections(const sir::Document& doc, const HtmlOptions& options);
// HtmlSource.cpp: the costliest source lines.
std::vector<HtmlSection> html_source_sections(const sir::Document& doc, const HtmlOptions& options);
// HtmlPage.cpp: the whole self-contained page.
std::string html_report(const sir::Document& doc, const HtmlOptions& options);

// ---------------------------------------------------------------- commands

// Each adds its subcommand to app; when that subcommand is chosen, parsing
// sets `action` to the function that runs it (returning the exit status).
using Action = std::function<int()>;
void add_summary_command(CLI::App& app, Action& action);
void add_annotate_command(CLI::App& app, Action& action);
void add_diff_command(CLI::App& app, Action& action);
void add_export_command(CLI::App& app, Action& action);
void add_arrays_command(CLI::App& app, Action& action);
void add_histogram_command(CLI::App& app, Action& action);
void add_regions_command(CLI::App& app, Action& action);
void add_flow_command(CLI::App& app, Action& action);
void add_events_command(CLI::App& app, Action& action);
void add_parallelism_command(CLI::App& app, Action& action);  // Parallelism.cpp
void add_whatif_command(CLI::App& app, Action& action);       // WhatIf.cpp
void add_html_command(CLI::App& app, Action& action);         // HtmlPage.cpp
void add_reuse_command(CLI::App& app, Action& action);        // Reuse.cpp

// The commands themselves (output to `out`; errors thrown as Error).
void run_summary(const std::string& path, std::ostream& out);

struct AnnotateOptions {
    std::string path;
    bool source = false;
    std::string show;        // "EV1,EV2"; empty: every event
    double threshold = 0.1;  // percent
    int context = 4;
};
void run_annotate(const AnnotateOptions& options, std::ostream& out);

struct DiffOptions {
    std::string base;
    std::string fresh;  // NEW
    std::vector<std::string> limits;
    std::string format = "text";  // text | json
};
// Returns kExitOk or kExitLimitExceeded. LIMIT EXCEEDED lines go to `out`
// in text format and to `messages` in json format.
int run_diff(const DiffOptions& options, std::ostream& out, std::ostream& messages);

struct ArraysOptions {
    std::string path;
    std::string level = "1";
    std::string sort = "misses";  // see kArraysSortKeys in Arrays.cpp
    size_t limit = 0;             // rows shown; 0 = all
    std::string format = "text";  // text | json
};
void run_arrays(const ArraysOptions& options, std::ostream& out);

struct HistogramOptions {
    std::string path;
    std::string name;  // NAME, NAME@FILE:LINE, #INDEX
    std::string level = "1";
    std::string svg;              // write the chart here too ("" = no SVG)
    std::string format = "text";  // text | csv
};
void run_histogram(const HistogramOptions& options, std::ostream& out);

// One row of a histogram chart: a bucket at the chosen level.
struct HistogramRow {
    uint32_t index = 0;
    bool has_offsets = false;  // false for an empty portion (a block smaller than the bins)
    uint64_t first_offset = 0, last_offset = 0;
    uint64_t read_hits = 0, read_misses = 0, write_hits = 0, write_misses = 0;
    uint64_t total() const { return read_hits + read_misses + write_hits + write_misses; }
};
// Every bucket of the structure's histogram, zero buckets included.
std::vector<HistogramRow> histogram_rows(const sir::DataStructures& ds, const sir::DataStructure& s, int level);
// The text chart and the CSV of `rows`.
std::string histogram_text(const sir::Document& doc, const sir::DataStructure& s, int level,
                           const std::vector<HistogramRow>& rows);
std::string histogram_csv(const std::vector<HistogramRow>& rows);
// A standalone SVG grouped bar chart of `rows` (HistogramSvg.cpp): read hits,
// read misses, write hits, write misses per bucket, as the EP-Cache paper's
// figure 3.
std::string histogram_svg(const sir::Document& doc, const sir::DataStructure& s, int level,
                          const std::vector<HistogramRow>& rows);

// format: json | csv | callgrind; table (csv only): lines | threads | cores | coherence | prefetch | tlbs.
void export_document(const sir::Document& doc, const std::string& format, std::ostream& out,
                     const std::string& table = "");
std::string export_json(const sir::Document& doc);
// What identifies a data structure (kind, name, declaration, address, size,
// blocks, bytes, counted, site): the fields `export json` and `arrays
// --format=json` share, added to j in that order.
void put_structure_identity(nlohmann::ordered_json& j, const sir::DataStructure& s);
std::string export_csv(const sir::Document& doc);  // the lines table
// One CSV table: "lines" (one record per source line), "threads" (per
// thread), "cores" (per core and private cache), "coherence" (the totals),
// "prefetch" (per cache: its prefetchers and prefetch counters), "tlbs" (per
// data TLB level: geometry and counts). Throws Error for a table the
// document has no data for.
std::string export_csv(const sir::Document& doc, const std::string& table);
std::string export_callgrind(const sir::Document& doc);

}  // namespace report
}  // namespace ompsim

#endif
