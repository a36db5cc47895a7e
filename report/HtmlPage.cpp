// ompsim-report html FILE [-o OUT.html] [--top=N] [--ospg-log=LOG]
//
// One self-contained HTML page of a profile document, for students and
// teachers: every section the document has data for (machine and totals,
// cache levels, threads and cores, data structures and their histograms,
// the region profile, the flow graph, the parallelism profile and what-if
// table, the costliest source lines), each with a caption saying what it
// shows. Charts are inline SVG, styles inline CSS; nothing is loaded from
// the network, so the page works offline and from a mail attachment. The
// small script only makes tables sortable; the page is complete without it.
// This file: the HTML helpers, the page frame and the command; the sections
// are in HtmlMachine.cpp, HtmlStructures.cpp, HtmlClasses.cpp,
// HtmlProfiles.cpp and HtmlSource.cpp.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "Report.h"
#include "Svg.h"

namespace ompsim {
namespace report {

namespace {

// Plain, readable on screen and on paper; system fonts only (no web fonts).
const char* const kStyle = R"(
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; margin: 0 auto; max-width: 1100px;
       padding: 0 16px 48px; color: #222; line-height: 1.4; }
header { border-bottom: 2px solid #4e79a7; margin-bottom: 8px; }
h1 { font-size: 1.6em; margin: 16px 0 4px; }
h2 { font-size: 1.3em; margin: 32px 0 4px; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin: 18px 0 4px; }
nav { font-size: 0.9em; }
nav a { margin-right: 12px; color: #4e79a7; }
p.caption { color: #444; margin: 4px 0 10px; max-width: 900px; }
p.note { color: #8a5a00; }
table.data { border-collapse: collapse; margin: 6px 0 12px; font-size: 0.88em; }
table.data th, table.data td { border: 1px solid #ccc; padding: 2px 8px; vertical-align: top; }
table.data th { background: #eef2f7; text-align: left; }
table.data th.sortable { cursor: pointer; }
table.data td.num, table.data th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.data td.code { font-family: "DejaVu Sans Mono", monospace; white-space: pre; }
table.fields td:first-child { font-weight: bold; }
figure { margin: 12px 0 20px; }
figure svg { width: 100%; max-width: 820px; height: auto; border: 1px solid #ddd; }
figcaption { color: #444; font-size: 0.9em; max-width: 900px; }
pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 0.85em; }
.scroll { overflow-x: auto; }
)";

// Click a header to sort its table (numbers by value, text alphabetically;
// again to reverse). Written for any browser of the last decade.
const char* const kScript = R"(
(function () {
  function value(cell, numeric) {
    var t = cell.textContent.trim();
    if (!numeric) return t.toLowerCase();
    var v = parseFloat(t.replace(/,/g, ''));
    return isNaN(v) ? -Infinity : v;
  }
  var tables = document.querySelectorAll('table.data');
  Array.prototype.forEach.call(tables, function (table) {
    var body = table.tBodies[0];
    if (!body || !table.tHead) return;  // the fields tables have no heading
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.classList.add('sortable');
      th.title = (th.title ? th.title + '; ' : '') + 'click to sort';
      th.addEventListener('click', function () {
        var numeric = th.classList.contains('num');
        var down = th.getAttribute('data-sorted') !== 'down';
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = value(a.cells[col], numeric), y = value(b.cells[col], numeric);
          return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
        th.setAttribute('data-sorted', down ? 'down' : 'up');
      });
    });
  });
})();
)";

// The parts of Graphviz's or histogram_svg's output that HTML does not want
// inline: everything before <svg (XML declaration, DOCTYPE, comments).
std::string inline_svg(const std::string& svg) {
    size_t at = svg.find("<svg");
    return at == std::string::npos ? svg : svg.substr(at);
}

}  // namespace

std::string html_escape(const std::string& s) { return svg::escape(s); }

void HtmlTable::column(const std::string& header, Table::Align align, const std::string& tip, bool code) {
    headers_.push_back(header);
    aligns_.push_back(align);
    tips_.push_back(tip);
    code_.push_back(code);
}

void HtmlTable::row(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

std::string HtmlTable::render() const {
    std::string out = fmt::format("<div class=\"scroll\"><table class=\"data\" id=\"{}\">\n<thead><tr>", html_escape(id_));
    for (size_t c = 0; c < headers_.size(); ++c) {
        out += aligns_[c] == Table::kRight ? "<th class=\"num\"" : "<th";
        if (!tips_[c].empty()) out += " title=\"" + html_escape(tips_[c]) + "\"";
        out += ">" + html_escape(headers_[c]) + "</th>";
    }
    out += "</tr></thead>\n<tbody>\n";
    for (const auto& r : rows_) {
        out += "<tr>";
        for (size_t c = 0; c < r.size(); ++c)
            out += (aligns_[c] == Table::kRight ? "<td class=\"num\">" : code_[c] ? "<td class=\"code\">" : "<td>") +
                   html_escape(r[c]) + "</td>";
        out += "</tr>\n";
    }
    return out + "</tbody></table></div>\n";
}

std::string html_figure(const std::string& id, const std::string& svg, const std::string& caption) {
    return fmt::format("<figure id=\"{}\">\n{}<figcaption>{}</figcaption>\n</figure>\n", html_escape(id),
                       inline_svg(svg), html_escape(caption));
}

std::string html_caption(const std::string& text) { return "<p class=\"caption\">" + html_escape(text) + "</p>\n"; }

std::string html_report(const sir::Document& doc, const HtmlOptions& o) {
    std::vector<HtmlSection> sections;
    for (auto part : {html_machine_sections(doc), html_structure_sections(doc), html_class_sections(doc),
                      html_profile_sections(doc, o), html_source_sections(doc, o)})
        for (HtmlSection& s : part) sections.push_back(std::move(s));

    const std::string program = program_name(doc);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<meta name=\"generator\" content=\"ompsim-report html\">\n";
    out += "<title>" + html_escape("ompsim report: " + program) + "</title>\n";
    out += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n<header>\n";
    out += "<h1>" + html_escape("ompsim report: " + program) + "</h1>\n";
    out += html_caption(fmt::format("{} on the simulated machine '{}'{}. Every number is read from the profile "
                                    "document {}; hover over a bar or point for its value, click a table heading "
                                    "to sort.",
                                    command_text(doc.run), doc.machine.name,
                                    doc.run.complete ? "" : " (an incomplete run: " + doc.run.termination + ")",
                                    basename_of(o.path)));
    out += "<nav>";
    for (const HtmlSection& s : sections)
        out += fmt::format("<a href=\"#{}\">{}</a>", html_escape(s.id), html_escape(s.title));
    out += "</nav>\n</header>\n<main>\n";
    for (const HtmlSection& s : sections) {
        out += fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", html_escape(s.id), html_escape(s.title));
        out += html_caption(s.caption);
        out += s.body;
        out += "</section>\n";
    }
    out += "</main>\n<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
    return out;
}

void add_html_command(CLI::App& app, Action& action) {
    auto o = std::make_shared<HtmlOptions>();
    CLI::App* cmd = app.add_subcommand(
        "html", "One self-contained HTML page of a document: tables, inline SVG charts, captions (works offline)");
    cmd->add_option("FILE", o->path, "Profile document")->required();
    cmd->add_option("-o,--output", o->output, "Write the page to this file instead of the standard output")
        ->type_name("OUT.html");
    cmd->add_option("--top", o->top_lines, "Source lines shown, costliest first (default 20)")
        ->type_name("N")
        ->check(CLI::Range(size_t(1), size_t(100000)).description(""));
    cmd->add_option("--ospg-log", o->ospg_log,
                    "The run's OSPG log (--ospg-log of the tool), for the what-if table (default: the log the "
                    "document names, when it is found)")
        ->type_name("LOG");
    cmd->callback([o, &action] {
        action = [o] {
            sir::Document doc = load_document(o->path);
            std::string page = html_report(doc, *o);
            if (o->output.empty()) std::cout << page;
            else write_file(o->output, page);
            return kExitOk;
        };
    });
}

}  // namespace report
}  // namespace ompsim
