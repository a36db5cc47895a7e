// ompsim's Valgrind tool: registration, options, start-up and exit.
#include "Instrumenter.h"
#include "MachineConfig.h"
#include "Reports.h"
#include "SimHelpers.h"

namespace ompsim {

namespace {

// All tool state lives in static storage of trivial types: the tool runs no
// static constructors.
MachineBuilder g_builder;
HierarchyConfig g_cfg;
const HChar* g_machine_name;
const HChar* g_cachegrind_out;  // --cachegrind-out-file, null = none

void* tool_alloc(void*, size_t bytes) { return VG_(malloc)("ompsim.cachesim", bytes); }
void tool_release(void*, void* p) { VG_(free)(p); }

bool starts_with(const HChar* s, const HChar* prefix) {
    return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}

Bool process_option(const HChar* arg) {
    ErrorText err;
    error_clear(err);
    switch (builder_option(g_builder, arg, err)) {
        case OptResult::Ok:
            return True;
        case OptResult::Error:
            fatal_user_error(err.text);
        case OptResult::NotMine:
            break;
    }
    if (starts_with(arg, "--cachegrind-out-file=")) {
        g_cachegrind_out = arg + 22;
        if (!g_cachegrind_out[0]) fatal_user_error("--cachegrind-out-file: expected a file name");
        return True;
    }
    // Valgrind's core has already taken its own options; anything left that
    // we do not know is a mistake, reported on one line before the client runs.
    HChar msg[200];
    VG_(snprintf)(msg, sizeof msg, "unknown option '%s' (valgrind --tool=ompsim --help lists them)", arg);
    fatal_user_error(msg);
}

void print_usage() {
    VG_(printf)(
        "    --machine=NAME            simulated machine: desktop (default), cachegrind, teaching\n"
        "    --cache-config=FILE       read the cache hierarchy from FILE (docs/cache-config.md)\n"
        "    --L1=SIZE,ASSOC,LINE      both L1 caches (SIZE like 32K or 1.25M; ASSOC a number or 'full')\n"
        "    --L1I=... --L1D=...       instruction / data L1 (aliases --I1=, --D1=)\n"
        "    --L2=... --L3=... --L4=... lower levels; --L3=none removes L3 and below\n"
        "    --LL=...                  the last level of the hierarchy\n"
        "    --L1-unified=yes|no       one L1 for instructions and data [no]\n"
        "    --L<k>-replacement=lru|fifo|plru|random   (k = 1, 1I, 1D, 2, 3, 4, LL)\n"
        "    --L<k>-write=wb|wt        write-back+allocate or write-through+no-allocate\n"
        "    --L<k>-inclusion=nine|inclusive|exclusive\n"
        "    --L<k>-latency=CYCLES     --memory-latency=CYCLES  --cpi=X\n"
        "    --icache=yes|no           simulate instruction fetches [yes]\n"
        "    --random-seed=N           seed of the random replacement policy [1]\n"
        "    --cachegrind-out-file=F   also write Cachegrind-format costs to F (%%p = pid)\n");
}

void print_debug_usage() { VG_(printf)("    (none)\n"); }

// Reads the whole --cache-config file into Valgrind's heap.
void load_config_file(const HChar* path) {
    HChar msg[300];
    SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(r)) {
        VG_(snprintf)(msg, sizeof msg, "--cache-config: cannot open '%s'", path);
        fatal_user_error(msg);
    }
    Int fd = sr_Res(r);
    SizeT cap = 4096, len = 0;
    HChar* buf = static_cast<HChar*>(VG_(malloc)("ompsim.config", cap + 1));
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = static_cast<HChar*>(VG_(realloc)("ompsim.config", buf, cap + 1));
        }
        Int got = VG_(read)(fd, buf + len, cap - len);
        if (got < 0) {
            VG_(close)(fd);
            VG_(snprintf)(msg, sizeof msg, "--cache-config: cannot read '%s'", path);
            fatal_user_error(msg);
        }
        if (got == 0) break;
        len += got;
    }
    VG_(close)(fd);
    buf[len] = 0;
    ErrorText err;
    error_clear(err);
    if (!builder_config_text(g_builder, path, buf, len, err)) fatal_user_error(err.text);
    // The builder keeps pointers into buf: it stays allocated for the run.
}

void post_clo_init() {
    if (const HChar* path = builder_config_path(g_builder)) load_config_file(path);
    ErrorText err;
    error_clear(err);
    if (!builder_finish(g_builder, g_cfg, err)) fatal_user_error(err.text);
    g_machine_name = builder_machine_name(g_builder);

    Allocator a = tool_allocator();
    InstrumentConfig ic;
    VG_(memset)(&ic, 0, sizeof ic);
    if (g_cfg.cachegrind) {
        if (!sim::g_cg.init(g_cfg, a, err)) fatal_user_error(err.text);
        UInt min_line = sim::g_cg.min_line_size();
        // As Cachegrind: a register wider than the smallest line could make
        // one access touch three lines, which the model cannot represent.
        Int widest = VG_(machine_get_size_of_largest_guest_register)();
        if ((Int)min_line < widest) {
            HChar msg[200];
            VG_(snprintf)(msg, sizeof msg,
                          "--machine=cachegrind: the smallest line size (%u B) must be at least the "
                          "widest register (%d B)",
                          min_line, widest);
            fatal_user_error(msg);
        }
        ic.helpers = sim::cachegrind_helpers();
        ic.cachegrind = true;
        ic.fetch_line_bits = (UInt)log2_exact(g_cfg.i1.line);
        ic.fetch_exact_single_line_check = true;
        ic.cg_single_line_ok = g_cfg.i1.line == g_cfg.level[1].line;
        ic.clamp_dirty_size = min_line;
    } else {
        if (!sim::g_hier.init(g_cfg, a, err)) fatal_user_error(err.text);
        sim::g_icache = g_cfg.icache;
        ic.helpers = sim::hierarchy_helpers();
        ic.fetch_line_bits = sim::g_hier.line_bits();
        ic.fetch_exact_single_line_check = g_cfg.icache;
    }
    instrument_init(ic);
    cost::init();
}

void fini(Int /*exitcode*/) {
    UInt n = 0;
    LineCC** ccs = cost::sorted(&n);
    Totals t;
    VG_(memset)(&t, 0, sizeof t);
    for (UInt i = 0; i < n; ++i) add_totals(t, *ccs[i]);
    if (g_cachegrind_out) write_cachegrind_file(g_cachegrind_out, g_cfg, ccs, n);
    if (VG_(clo_verbosity) > 0) {
        print_machine(g_cfg, g_machine_name);
        VG_(umsg)("\n");
        print_summary(g_cfg, t);
    }
    VG_(free)(ccs);
}

void pre_clo_init() {
    VG_(details_name)("ompsim");
    VG_(details_version)(PACKAGE_VERSION);
    VG_(details_description)("a cache hierarchy and OpenMP machine simulator");
    VG_(details_copyright_author)("Copyright (C) 2026, the ompsim developers.");
    VG_(details_bug_reports_to)("the ompsim issue tracker");
    VG_(details_avg_translation_sizeB)(500);

    VG_(basic_tool_funcs)(post_clo_init, instrument, fini);
    VG_(needs_superblock_discards)(discard_superblock);
    VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage);

    builder_reset(g_builder);
    g_machine_name = nullptr;
    g_cachegrind_out = nullptr;
}

}  // namespace

Allocator tool_allocator() {
    Allocator a = {tool_alloc, tool_release, nullptr};
    return a;
}

void fatal_user_error(const char* message) {
    VG_(fmsg)("ompsim: %s\n", message);
    VG_(exit)(1);
}

}  // namespace ompsim

extern "C" {
static void ompsim_pre_clo_init(void) { ompsim::pre_clo_init(); }
VG_DETERMINE_INTERFACE_VERSION(ompsim_pre_clo_init)
}
