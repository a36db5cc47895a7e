// ompsim-report: the command-line reader of ompsim profile documents
// (sir/Document.h). One file per command (Summary, Annotate, Diff, Export),
// shared helpers in Format.cpp, the command line in main.cpp.
//
// Exit statuses of every command: 0 success, 2 any error (unreadable or
// invalid document, bad arguments; one line "ompsim-report: <message>" on
// stderr). 'diff' exits 1 when at least one --limit was exceeded.
#ifndef OMPSIM_REPORT_REPORT_H
#define OMPSIM_REPORT_REPORT_H

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

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

// ---------------------------------------------------------------- commands

// Each adds its subcommand to app; when that subcommand is chosen, parsing
// sets `action` to the function that runs it (returning the exit status).
using Action = std::function<int()>;
void add_summary_command(CLI::App& app, Action& action);
void add_annotate_command(CLI::App& app, Action& action);
void add_diff_command(CLI::App& app, Action& action);
void add_export_command(CLI::App& app, Action& action);

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

// format: json | csv | callgrind.
void export_document(const sir::Document& doc, const std::string& format, std::ostream& out);
std::string export_json(const sir::Document& doc);
std::string export_csv(const sir::Document& doc);
std::string export_callgrind(const sir::Document& doc);

}  // namespace report
}  // namespace ompsim

#endif
