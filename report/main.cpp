// ompsim-report: reads ompsim profile documents.
//
//   ompsim-report summary FILE
//   ompsim-report annotate FILE [--source] [--show EV1,EV2,...] [--threshold PCT]
//   ompsim-report diff BASE NEW [--limit EVENT=PCT%|EVENT=ABS]... [--format=text|json]
//   ompsim-report export FILE --format=json|csv|callgrind [-o OUT]
//   ompsim-report arrays FILE [--level=L] [--sort=KEY] [--limit=N] [--format=text|json]
//   ompsim-report histogram FILE NAME [--level=L] [--svg=OUT.svg] [--format=text|csv]
//   ompsim-report reuse FILE NAME [--format=text|csv]
//   ompsim-report regions FILE [--events=EV1,EV2] [--states-by-node]
//   ompsim-report flow FILE [--format=dot|svg] [--layer=NODE] [--output=OUT]
//   ompsim-report events FILE... [--components=LIST] [--size=exact|magnitude]
//                        [--format=text|dot|svg] [--output=OUT]
//   ompsim-report merge FILE FILE... (the options of events)
//   ompsim-report parallelism FILE|LOG [--measure=cycles|instructions] [--burden=N]
//   ompsim-report whatif LOG --region LABEL[:FACTOR]|FILE:FIRST-LAST[:FACTOR]... [--measure=...] [--burden=N]
//   ompsim-report html FILE [-o OUT.html] [--top=N] [--ospg-log=LOG]
//
// Exit status: 0 success; 1 'diff' found a limit exceeded; 2 any error, with
// one line "ompsim-report: <message>" on stderr.
#include <CLI/CLI.hpp>

#include <iostream>

#include "Report.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

using namespace ompsim::report;

namespace {

int fail(std::string message) {
    for (char& c : message)
        if (c == '\n' || c == '\r') c = ' ';
    std::cout.flush();
    std::cerr << "ompsim-report: " << message << std::endl;
    return kExitError;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Reads the profile documents of the ompsim Valgrind tool (ompsim.out.<pid>.xml).", "ompsim-report"};
    app.set_version_flag("--version", "ompsim-report " PACKAGE_VERSION);
    app.require_subcommand(1);
    Action action;
    add_summary_command(app, action);
    add_annotate_command(app, action);
    add_diff_command(app, action);
    add_export_command(app, action);
    add_arrays_command(app, action);
    add_histogram_command(app, action);
    add_reuse_command(app, action);
    add_regions_command(app, action);
    add_flow_command(app, action);
    add_events_command(app, action);
    add_parallelism_command(app, action);
    add_whatif_command(app, action);
    add_html_command(app, action);
    // After the subcommands, which would inherit it.
    app.footer(
        "Run 'ompsim-report COMMAND --help' for the options of a command.\n"
        "Exit status: 0 success; 1 'diff' found a limit exceeded; 2 any error\n"
        "(unreadable or invalid document, bad arguments).");

    // CLI11 would only say "A subcommand is required" for a misspelt one.
    if (argc < 2) return fail("no command given; commands: summary annotate diff export arrays histogram reuse regions flow events merge parallelism whatif html (see 'ompsim-report --help')");
    if (argv[1][0] != '-') {
        std::string name = argv[1];
        bool known = false;
        for (const CLI::App* sub : app.get_subcommands({})) known = known || sub->get_name() == name;
        if (!known) return fail("unknown command '" + name + "'; commands: summary annotate diff export arrays histogram reuse regions flow events merge parallelism whatif html");
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string message = e.what();
        if (!app.get_subcommands().empty())
            message += "; see 'ompsim-report " + app.get_subcommands()[0]->get_name() + " --help'";
        else
            message += "; see 'ompsim-report --help'";
        return fail(message);
    }
    if (!action) return fail("no command given; see 'ompsim-report --help'");
    try {
        int status = action();
        std::cout.flush();
        if (!std::cout) return fail("cannot write the standard output");
        return status;
    } catch (const Error& e) {
        return fail(e.what());
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what());
    }
}
