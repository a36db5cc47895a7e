// ompsim's Valgrind tool: registration, options, start-up and exit.
#include "DataStructures.h"
#include "EpapiService.h"
#include "Instrumenter.h"
#include "EventReserve.h"
#include "EventStream.h"
#include "HostMachine.h"
#include "HostThread.h"
#include "MachineConfig.h"
#include "MissWorker.h"
#include "OmpEvents.h"
#include "OmpIntake.h"
#include "OptionValues.h"
#include "OspgService.h"
#include "OutputFiles.h"
#include "ProfileWriter.h"
#include "RegionService.h"
#include "Replay.h"
#include "ReplayWorker.h"
#include "Reports.h"
#include "SimHelpers.h"
#include "Termination.h"
#include "VarInfoFilter.h"
#include "WrapperCode.h"
#include "HeapWrapping.h"
#include "HeapHooks.h"
#include "CoreSim.h"
#include "FairScheduling.h"
#include "ompsim.h"

extern "C" {
#include "pub_tool_transtab.h"
#include "pub_tool_vkiscnums.h"
}

namespace ompsim {

namespace {

// All tool state lives in static storage of trivial types: the tool runs no
// static constructors.
MachineBuilder g_builder;
HierarchyConfig g_cfg;
const HChar* g_machine_name;
const HChar* g_cachegrind_out;  // --cachegrind-out-file, null = none
ospgsvc::Options g_ospg;         // --ospg, --ospg-work, --ospg-burden, --ospg-max-nodes, --ospg-log
const HChar* g_ospg_log;         // --ospg-log as given (%p not expanded)
const HChar* g_output_file;     // --output-file, the profile document
bool g_output_overwrite;        // --output-overwrite: names without %p may replace files
HChar* g_ospg_log_path;         // --ospg-log expanded (re-expanded in a forked child)
bool g_collect_at_start;        // --collect-atstart
bool g_collecting;              // instrumentation is on
ULong g_dumps;                  // documents written by OMPSIM_DUMP
ds::Options g_ds;               // --monitor, --histogram-*, --monitor-slots
omp::Options g_omp;             // --simulate-runtime, --trace-omp
replay::Options g_replay;       // --quantum, --cores
ULong g_stream_buffer;          // --stream-buffer (bytes)
bool g_stream_spill;            // --stream-spill
bool g_simulate_wrappers;       // --simulate-wrappers
missworker::Mode g_miss_thread; // --miss-thread
bool g_replay_thread;           // --replay-thread
u32 g_flow_components = flow::kDefaultComponents;  // --event-flow
Long g_rank = -1;               // --rank, else from the MPI launcher's environment
InstrumentConfig g_ic;          // the instrumenter's set-up (helpers switch when streaming)

// The machine's memory. The replay worker's simulation may need some (a
// core's first access, a directory that grows): the main thread allocates
// for it (HostThread.h).
void* tool_alloc(void*, size_t bytes) {
    if (hostthread::on_spawned_thread()) return hostthread::alloc_from_main(bytes);
    return VG_(malloc)("ompsim.cachesim", bytes);
}
void tool_release(void*, void* p) {
    if (hostthread::on_spawned_thread())
        hostthread::free_from_main(p);
    else
        VG_(free)(p);
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
    if (yes_no_option(arg, "--monitor", &g_ds.enabled)) return True;
    if (yes_no_option(arg, "--classify-misses", &g_ds.classify)) return True;
    if (yes_no_option(arg, "--reuse-distance", &g_ds.reuse)) return True;
    ULong num;
    bool lines = power_of_two_option(arg, "--histogram-lines", 1, kMonitorMaxHistogramLines, &num);
    bool bins = !lines && number_option(arg, "--histogram-bins", 1, kMonitorMaxBins, &num);
    if (lines || bins) {
        // The two histogram modes exclude each other; a run that asked for
        // both would silently get one, so it is refused.
        if ((lines && g_ds.histogram_bins) || (bins && g_ds.histogram_lines))
            fatal_user_error("--histogram-lines and --histogram-bins: give one of them, not both");
        if (lines) g_ds.histogram_lines = (u32)num;
        else g_ds.histogram_bins = (u32)num;
        return True;
    }
    if (number_option(arg, "--monitor-slots", 0, 1000000, &num)) {
        g_ds.slots = (u32)num;
        return True;
    }
    if (number_option(arg, "--quantum", 1, 100000000, &num)) {
        g_replay.quantum = (u32)num;
        return True;
    }
    if (number_option(arg, "--replay-perturb", 0, 4294967295ull, &num)) {
        g_replay.perturb = (u32)num;
        return True;
    }
    if (number_option(arg, "--cores", 0, kMaxCores, &num)) {
        g_replay.cores = (u32)num;
        return True;
    }
    // At most 32G: Valgrind 3.19 on amd64 Linux holds the client and the
    // tool in the low 64 GiB of the address space (aspacem's last free
    // segment ends at 0x1001ffffff), so a larger buffer could never be filled.
    if (size_option(arg, "--stream-buffer", 1ull << 20, 32ull << 30,
                    "expected a size from 1M to 32G (like 512M or 2G)", &g_stream_buffer))
        return True;
    if (yes_no_option(arg, "--stream-spill", &g_stream_spill)) return True;
    if (const HChar* v = option_value(arg, "--miss-thread")) {
        if (VG_(strcmp)(v, "auto") == 0)
            g_miss_thread = missworker::Mode::Auto;
        else if (VG_(strcmp)(v, "yes") == 0)
            g_miss_thread = missworker::Mode::On;
        else if (VG_(strcmp)(v, "no") == 0)
            g_miss_thread = missworker::Mode::Off;
        else
            fatal_user_error("--miss-thread: expected auto, yes or no");
        return True;
    }
    if (yes_no_option(arg, "--replay-thread", &g_replay_thread)) return True;
    if (yes_no_option(arg, "--simulate-wrappers", &g_simulate_wrappers)) return True;
    if (const HChar* v = option_value(arg, "--event-flow")) {
        g_flow_components = VG_(strcmp)(v, "no") == 0 ? 0 : flow::parse_components(v, (u32)VG_(strlen)(v));
        if (!g_flow_components && VG_(strcmp)(v, "no") != 0)
            fatal_user_error("--event-flow: expected no or a comma list of region, callsite, size, partner, thread");
        return True;
    }
    if (yes_no_option(arg, "--ospg", &g_ospg.enabled)) return True;
    if (const HChar* v = option_value(arg, "--ospg-work")) {
        if (VG_(strcmp)(v, "cycles") != 0 && VG_(strcmp)(v, "instructions") != 0)
            fatal_user_error("--ospg-work: expected cycles or instructions");
        g_ospg.instructions = VG_(strcmp)(v, "instructions") == 0;
        return True;
    }
    if (number_option(arg, "--ospg-burden", 0, 1000000000000ull, &num)) {
        g_ospg.burden = num;
        return True;
    }
    if (number_option(arg, "--ospg-max-nodes", 0, 0xfffffff0u, &num)) {
        g_ospg.max_nodes = (UInt)num;
        return True;
    }
    if (file_name_option(arg, "--ospg-log", &g_ospg_log)) return True;
    if (number_option(arg, "--rank", 0, 0x7fffffff, &num)) {
        g_rank = (Long)num;
        return True;
    }
    if (yes_no_option(arg, "--simulate-runtime", &g_omp.simulate_runtime)) return True;
    if (yes_no_option(arg, "--trace-omp", &g_omp.trace)) return True;
    if (file_name_option(arg, "--output-file", &g_output_file)) return True;
    if (yes_no_option(arg, "--collect-atstart", &g_collect_at_start)) return True;
    if (yes_no_option(arg, "--output-overwrite", &g_output_overwrite)) return True;
    if (file_name_option(arg, "--cachegrind-out-file", &g_cachegrind_out)) return True;
    // Valgrind's core has already taken its own options; anything left that
    // we do not know is a mistake, reported on one line before the client runs.
    HChar shown[100], msg[200];
    printable(shown, sizeof shown, arg);
    VG_(snprintf)(msg, sizeof msg, "unknown option '%s' (valgrind --tool=ompsim --help lists them)", shown);
    fatal_user_error(msg);
}

void print_usage() {
    VG_(printf)(
        "    --machine=NAME            simulated machine: desktop (default), cachegrind, teaching,\n"
        "                              golden-cove, sapphire-rapids, zen3, zen4, zen5, host\n"
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
        "    --L<k>-prefetch=none|LIST the level's prefetchers, from next-line, stride, stream [none]\n"
        "    --L<k>-prefetch-degree=N  --L<k>-prefetch-table=N  --L<k>-prefetch-streams=N\n"
        "    --DTLB1=ENTRIES,ASSOC     --DTLB2=...  data TLBs (ASSOC a number or 'full'; or none)\n"
        "    --DTLB<k>-latency=CYCLES  --page-walk-latency=CYCLES  --tlb-page=4K|2M|1G [4K]\n"
        "    --private-levels=N        levels private to each core [all but the last]\n"
        "    --c2c-latency=CYCLES      --upgrade-latency=CYCLES  MESI penalties [first shared level's]\n"
        "    --icache=yes|no           simulate instruction fetches [yes]\n"
        "    --random-seed=N           seed of the random replacement policy [1]\n"
        "    --monitor=yes|no          count per data structure (globals, heap sites, named ranges) [no]\n"
        "    --histogram-lines=K       histogram over each structure in buckets of K cache lines\n"
        "    --histogram-bins=N        histogram over each structure in N equal portions\n"
        "    --monitor-slots=N         emulate a hardware monitor with N counter slots [0 = unlimited]\n"
        "    --classify-misses=yes|no  split every cache's misses into compulsory, capacity, conflict\n"
        "                              and coherence misses, per level and data structure [no]\n"
        "    --reuse-distance=yes|no   reuse-distance histogram of every data structure [no]\n"
        "    --output-file=F           the profile document [ompsim.out.%%p.xml]\n"
        "                              (%%p = pid, %%q{VAR} = environment variable VAR)\n"
        "    --output-overwrite=yes|no output names without %%p may replace existing files [no]\n"
        "    --collect-atstart=yes|no  simulate from the start, or from OMPSIM_START_COLLECTION [yes]\n"
        "    --cores=N                 simulated cores; 0 = one per thread [0]\n"
        "    --quantum=N               instructions per turn of the deterministic replay [1000]\n"
        "    --stream-buffer=SIZE      memory for buffered per-thread events [512M]\n"
        "    --stream-spill=yes|no     beyond --stream-buffer, keep events in a temporary file (yes),\n"
        "                              or replay out of the canonical order (no) [yes]\n"
        "    --miss-thread=auto|yes|no simulate the levels below L1 of a one-thread run on a second\n"
        "                              host thread: while most misses go past L2 (auto), always, never [auto]\n"
        "    --replay-thread=yes|no    simulate the replay's batches of a multithreaded run on a second\n"
        "                              host thread [yes]\n"
        "    --simulate-runtime=yes|no simulate the OpenMP runtime's own code (not deterministic) [no]\n"
        "    --simulate-wrappers=yes|no simulate the preload library's allocation wrappers where\n"
        "                              they run (--monitor=yes, OpenMP programs) [no]\n"
        "    --trace-omp=yes|no        print every OpenMP event received (debugging) [no]\n"
        "    --event-flow=no|LIST      the event flow graph's signature components, from region,\n"
        "                              callsite, size, partner, thread [region,callsite,size,partner]\n"
        "    --rank=N                  the process's rank in an MPI job [from OMPI_COMM_WORLD_RANK,\n"
        "                              PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK or SLURM_PROCID]\n"
        "    --ospg=yes|no             the OpenMP series-parallel graph and parallelism profile [yes]\n"
        "    --ospg-work=cycles|instructions  a W node's work [cycles]\n"
        "    --ospg-burden=N           burden per P node for the burdened span [15000]\n"
        "    --ospg-max-nodes=N        at most N OSPG nodes (48 B each); 0 = no limit [4000000]\n"
        "    --ospg-log=FILE           write the whole OSPG to FILE for ompsim-report whatif (%%p = pid)\n"
        "    --cachegrind-out-file=F   also write Cachegrind-format costs to F (%%p = pid)\n");
}

void print_debug_usage() {
    VG_(printf)(
        "    --replay-perturb=SEED     pause, stall and shorten the deterministic replay at random\n"
        "                              points (and delay its worker), as other host timings would;\n"
        "                              the profile must not change (testing) [0 = off]\n");
}

// Reads the whole --cache-config file into Valgrind's heap.
void load_config_file(const HChar* path) {
    // A configuration has a few dozen lines; the bound keeps a mistaken
    // name (--cache-config=/dev/zero) from reading until memory runs out.
    const SizeT kMaxConfigBytes = 1u << 20;
    HChar msg[300], shown[200];
    printable(shown, sizeof shown, path);
    SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(r)) {
        VG_(snprintf)(msg, sizeof msg, "--cache-config: cannot open '%s'", shown);
        fatal_user_error(msg);
    }
    Int fd = sr_Res(r);
    SizeT cap = 4096, len = 0;
    HChar* buf = static_cast<HChar*>(VG_(malloc)("ompsim.config", cap + 1));
    for (;;) {
        if (len == cap) {
            if (cap >= kMaxConfigBytes) {
                HChar probe;
                if (VG_(read)(fd, &probe, 1) == 0) break;  // exactly 1M
                VG_(close)(fd);
                VG_(snprintf)(msg, sizeof msg, "--cache-config: '%s' is larger than 1M, too large for a configuration file",
                              shown);
                fatal_user_error(msg);
            }
            cap *= 2;
            buf = static_cast<HChar*>(VG_(realloc)("ompsim.config", buf, cap + 1));
        }
        Int got = VG_(read)(fd, buf + len, cap - len);
        if (got < 0) {
            VG_(close)(fd);
            VG_(snprintf)(msg, sizeof msg, "--cache-config: cannot read '%s'", shown);
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

// The rank an MPI launcher gave the process (Open MPI, PMIx, MPICH's PMI,
// MVAPICH, Slurm), or -1.
Long launcher_rank() {
    static const HChar* const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK",
                                        "SLURM_PROCID"};
    for (const HChar* var : vars) {
        const HChar* v = VG_(getenv)(var);
        if (!v || !v[0]) continue;
        HChar* end = nullptr;
        Long r = VG_(strtoll10)(v, &end);
        if (!*end && r >= 0) return r;
    }
    return -1;
}

// Called from generated code (InstrumentConfig::heap_request), below.
UWord heap_request(UWord* args);

void post_clo_init() {
    default_fair_scheduling();
    varinfo::options_done();
    regionsvc::configure_flow(g_flow_components, g_rank >= 0 ? g_rank : launcher_rank());
    if (const HChar* path = builder_config_path(g_builder)) load_config_file(path);
    ErrorText err;
    error_clear(err);
    // --machine=host (or `machine = host` in the file): detect, print, start from it.
    const HChar* chosen = builder_machine_name(g_builder);
    if (chosen && VG_(strcmp)(chosen, "host") == 0) {
        static HierarchyConfig host;  // the builder keeps a pointer to it
        if (!host_machine_detect(host, err)) fatal_user_error(err.text);
        host_machine_print(host);
        builder_set_host(g_builder, &host);
    }
    if (!builder_finish(g_builder, g_cfg, err)) fatal_user_error(err.text);
    g_machine_name = builder_machine_name(g_builder);

    Allocator a = tool_allocator();
    missworker::configure(g_miss_thread);
    replayworker::configure(g_replay_thread, g_replay.perturb);
    sim::g_config = g_cfg;
    InstrumentConfig& ic = g_ic;
    VG_(memset)(&ic, 0, sizeof ic);
    ic.heap_request = heap_request;
    if (g_cfg.cachegrind) {
        // Cachegrind's model has one access per reference, not per line, and
        // no per-core caches: nothing to classify or stack against.
        if (g_ds.classify)
            fatal_user_error("--classify-misses: not available with --machine=cachegrind (choose another machine)");
        if (g_ds.reuse)
            fatal_user_error("--reuse-distance: not available with --machine=cachegrind (choose another machine)");
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
        u32 max_cores = g_replay.cores ? g_replay.cores : kMaxCores;
        if (!sim::g_machine.init(g_cfg, max_cores, a, err)) fatal_user_error(err.text);
        sim::g_machine.set_wide_search(host_has_sse41());
        // Both need every reference of L1 (I1 and D1, or D1 only) in the
        // machine's slow path: its first-way hits stop being free, which
        // also keeps the inline L1 tests below from applying.
        if (g_ds.classify && !sim::g_machine.enable_classification(err)) fatal_user_error(err.text);
        if (g_ds.reuse) sim::g_machine.enable_observation();
        sim::g_icache = g_cfg.icache;
        sim::g_tlb_on = g_cfg.tlb.levels > 0;
        ic.helpers = sim::hierarchy_helpers();
        ic.fetch_line_bits = sim::g_machine.line_bits();
        ic.fetch_exact_single_line_check = g_cfg.icache;
        if (g_cfg.icache && sim::g_machine.certain_refetch())
            ic.i1_fetch_refs = reinterpret_cast<ULong*>(sim::g_machine.fetch_refs_counter());
        // One core, no TLB, no classification or reuse distances: helpers
        // that test L1's most recently used way first (SimHelpers.h), with
        // the monitor's recording when structures are monitored.
        if (!sim::g_tlb_on && !g_ds.classify && !g_ds.reuse && sim::fast_helpers_ready()) {
            ic.helpers = sim::fast_helpers(g_ds.enabled);
            ic.fast_helpers = !g_ds.enabled;
            missworker::set_eligible(sim::fast_helpers_may_hand_misses());
        }
    }
    instrument_init(ic);
    cost::init();
    stream::init(g_stream_buffer, g_stream_spill);
    omp::init(g_omp);
    wrappers::init(g_simulate_wrappers);
    // VEX follows direct calls and jumps into the next function within one
    // block ("chasing"): glibc's realloc(NULL, n) jumps to malloc, strdup
    // calls it. The exit to a heap wrapper needs the function's first
    // instruction to start a block (HeapHooks.h, Instrumenter.cpp), so
    // ompsim translates without chasing, as Callgrind does; set before the
    // first translation, when VEX takes its copy of the options. It cost
    // nothing (medians of 3 alternating runs, the tool as before with
    // --vex-guest-chase=no against without): containers 100000 4 with the
    // monitor 5.24 s -> 5.19 s, matmul 400 with it 1.82 s -> 1.79 s,
    // memcopy 200 with it 4.69 s -> 4.76 s, stencil 1024 40 1.34 s -> 1.30
    // s, omp_tasks 1000000 4096 2.01 s -> 1.98 s. With chasing Valgrind
    // counts more instructions in places, in every tool (why was not
    // found): --tool=lackey counts 124,700 instructions of bench's `empty`
    // with chasing and 123,548 without, Callgrind (no chasing) 123,546;
    // ld.so's intel_check_word 3,220 against 2,980. A loop with a known
    // count (7,504) counts the same both ways.
    // The warning goes with the core's own reading of the option, the last
    // one given (command line, VALGRIND_OPTS, .valgrindrc).
    if (VG_(clo_vex_control).guest_chase)
        for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_valgrind)); ++i) {
            const HChar* arg = *static_cast<HChar**>(VG_(indexXA)(VG_(args_for_valgrind), i));
            if (VG_(strcmp)(arg, "--vex-guest-chase=yes") == 0) {
                VG_(umsg)("warning: ompsim translates without chasing: --vex-guest-chase=yes ignored\n");
                break;
            }
        }
    VG_(clo_vex_control).guest_chase = False;
    heapwrap::decide(g_ds.enabled);
    replay::init(g_replay);
    ds::init(g_ds, g_cfg);
    epapi::init(g_cfg, sim::g_icache || g_cfg.cachegrind);
    g_collecting = g_collect_at_start;
    // Output files must be writable before the client runs: finding out at
    // exit would lose the whole run. Claiming them (vgtool/OutputFiles.h)
    // tests exactly that; last, so that a run refused for another reason
    // leaves no empty file.
    outfiles::set_overwrite(g_output_overwrite);
    if (g_ospg_log && !g_ospg.enabled) fatal_user_error("--ospg-log: there is no OSPG to write with --ospg=no");
    VG_(free)(outfiles::claim("--output-file", g_output_file));
    if (g_cachegrind_out) VG_(free)(outfiles::claim("--cachegrind-out-file", g_cachegrind_out));
    if (g_ospg_log) {
        // Room for a forked child's longer pid (forked_child re-expands it).
        HChar* log = outfiles::claim("--ospg-log", g_ospg_log);
        g_ospg_log_path = static_cast<HChar*>(VG_(malloc)("ompsim.ospglog", VG_(strlen)(log) + 64));
        VG_(strcpy)(g_ospg_log_path, log);
        VG_(free)(log);
        g_ospg.log = g_ospg_log_path;
    }
    ospgsvc::configure(g_ospg);
}

// fork() copies the calling thread only: the workers finish everything
// first, and the child knows it has none (forked_child).
void before_fork(ThreadId) {
    missworker::sync();
    replayworker::sync();
}

// fork(): the child continues with the parent's state and writes its own
// outputs at its exit, under names with its own pid. A name without %p is
// the parent's: the child leaves it alone (OutputFiles.h).
void forked_child(ThreadId) {
    hostthread::forked_child();
    missworker::forked_child();
    replayworker::forked_child();
    omp::forked_child();
    outfiles::forked();
    if (!g_ospg_log_path) return;
    if (!outfiles::has_pid(g_ospg_log) && !g_output_overwrite) {
        g_ospg_log_path[0] = 0;  // OspgService writes no log with an empty name
        return;
    }
    HChar* log = VG_(expand_file_name)("--ospg-log", g_ospg_log);
    if (VG_(strlen)(log) < VG_(strlen)(g_ospg_log_path) + 64) VG_(strcpy)(g_ospg_log_path, log);
    VG_(free)(log);
}

// Instrumentation is switched off (not merely skipped at run time) while
// collection is stopped, as Cachegrind does: no cost at all outside the
// measured part.
IRSB* maybe_instrument(VgCallbackClosure* closure, IRSB* sb, const VexGuestLayout* layout,
                       const VexGuestExtents* vge, const VexArchInfo* arch, IRType gw, IRType hw) {
    if (!g_collecting) return sb;
    return instrument(closure, sb, layout, vge, arch, gw, hw);
}

void set_collecting(bool on) {
    if (on == g_collecting) return;
    // Existing translations carry (or lack) the helper calls: drop them all.
    VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "ompsim");
    g_collecting = on;
}

// The program has a second thread or an OpenMP runtime: from now on the
// helpers append to per-thread streams and the replay drives the machine.
// Core 0 takes over what the initial thread did so far.
void start_streaming() {
    if (!omp::start_streaming()) return;
    missworker::retire();  // the replay drives every level from now on
    coresim::adopt_serial_part();
    if (!g_cfg.cachegrind) ds::enable_coherence_columns();
    g_ic.helpers = sim::stream_helpers();
    g_ic.i1_fetch_refs = nullptr;  // several cores: the replay counts I1 references
    // Certain I1 hits go to the replay as counts where its direct path can
    // read them and the machine makes them certain.
    g_ic.stream_certain = coresim::direct_replay() && sim::g_machine.certain_refetch();
    g_ic.fast_helpers = false;
    g_ic.track_owner = !g_omp.simulate_runtime;
    instrument_init(g_ic);
    VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "ompsim");
}

// The document name for dump n: ompsim.out.123.xml -> ompsim.out.123.n.xml.
HChar* output_path(ULong dump) {
    HChar* path = VG_(expand_file_name)("--output-file", g_output_file);
    if (dump == 0) return path;
    SizeT len = VG_(strlen)(path);
    HChar* out = static_cast<HChar*>(VG_(malloc)("ompsim.path", len + 32));
    if (len > 4 && VG_(strcmp)(path + len - 4, ".xml") == 0) {
        path[len - 4] = 0;
        VG_(sprintf)(out, "%s.%llu.xml", path, dump);
    } else {
        VG_(sprintf)(out, "%s.%llu", path, dump);
    }
    VG_(free)(path);
    return out;
}

void write_document(const RunInfo& run) {
    UInt n = 0;
    LineCC** ccs = cost::sorted(&n);
    bool dump = run.termination[0] == 'd';
    HChar* path = output_path(dump ? run.dump + 1 : 0);
    // Only the final document's name was claimed at start.
    if (outfiles::may_write("--output-file", g_output_file, path, !dump))
        write_profile(path, run, g_cfg, g_machine_name, ccs, n);
    VG_(free)(path);
    VG_(free)(ccs);
}

Bool handle_client_request(ThreadId tid, UWord* args, UWord* ret) {
    if (!VG_IS_TOOL_USERREQ('O', 'M', args[0])) return False;
    // Everything else but OpenMP events reads or changes what the
    // simulation sees: the replay first catches up with what was recorded.
    // Heap requests do so only with --monitor=yes: catching up at every
    // malloc and free made an OpenMP program's allocation loop about 3x
    // slower than a serial one's.
    bool heap = args[0] == OMPSIM_USERREQ_HEAP_ALLOC || args[0] == OMPSIM_USERREQ_HEAP_FREE;
    if (heap && !ds::tracks_heap()) return True;
    if (args[0] == OMPSIM_USERREQ_HEAP_TRACKING) {
        *ret = ds::tracks_heap() ? 1 : 0;
        return True;
    }
    if (args[0] == OMPSIM_USERREQ_HEAP_REAL_FNS) {
        *ret = heaphooks::real_functions(reinterpret_cast<UWord*>(args[1]));
        return True;
    }
    // A heap block coming or going moves none of the monitor's counters the
    // miss worker may hold, but for the cases ds::heap_alloc() waits for.
    if (!heap) missworker::sync();
    if (args[0] != OMPSIM_USERREQ_OMP_EVENT) {
        replay::catch_up();
        replayworker::sync();
    }
    switch (args[0]) {
        case OMPSIM_USERREQ_START_COLLECTION:
            set_collecting(true);
            break;
        case OMPSIM_USERREQ_STOP_COLLECTION:
            set_collecting(false);
            break;
        case OMPSIM_USERREQ_ZERO_COUNTERS:
            epapi::before_zero();
            ds::zero();
            cost::zero_all();
            if (!g_cfg.cachegrind) {
                sim::g_machine.reset_stats();
                sim::reset_tlb_stats();
            }
            coresim::zero_counters();
            regionsvc::zero();
            ospgsvc::zero();
            break;
        case OMPSIM_USERREQ_HEAP_ALLOC:
            ds::heap_alloc(tid, (Addr)args[1], (SizeT)args[2]);
            break;
        case OMPSIM_USERREQ_HEAP_FREE:
            ds::heap_free((Addr)args[1]);
            break;
        case OMPSIM_USERREQ_NAME_RANGE:
            ds::name_range((Addr)args[1], (SizeT)args[2], reinterpret_cast<const HChar*>(args[3]));
            break;
        case OMPSIM_USERREQ_FORGET_RANGE:
            ds::forget_range((Addr)args[1]);
            break;
        case OMPSIM_USERREQ_SET_RESOLUTION:
            ds::set_resolution((Addr)args[1], (UInt)args[2], (UInt)args[3]);
            break;
        case OMPSIM_USERREQ_DUMP: {
            const HChar* label = args[1] ? reinterpret_cast<const HChar*>(args[1]) : "";
            RunInfo run = {false, "dump", 0, 0, label, g_dumps};
            write_document(run);
            ++g_dumps;
            break;
        }
        case OMPSIM_USERREQ_REGION_BEGIN:
        case OMPSIM_USERREQ_REGION_END:
            // Region events need the replay's clocks, serial programs too.
            start_streaming();
            omp::user_region(tid, args[0] == OMPSIM_USERREQ_REGION_BEGIN,
                             args[1] ? reinterpret_cast<const HChar*>(args[1]) : "(unnamed)", VG_(get_IP)(tid));
            break;
        case OMPSIM_USERREQ_WHATIF_BEGIN:
        case OMPSIM_USERREQ_WHATIF_END:
            start_streaming();
            omp::whatif(tid, args[0] == OMPSIM_USERREQ_WHATIF_BEGIN,
                        args[1] ? reinterpret_cast<const HChar*>(args[1]) : "(unnamed)", VG_(get_IP)(tid));
            break;
        case OMPSIM_USERREQ_EVENT:
            start_streaming();
            omp::point_event(tid, args[1] ? reinterpret_cast<const HChar*>(args[1]) : "(unnamed)", (ULong)args[2],
                             (Long)args[3], args[4] ? (Addr)args[4] : VG_(get_IP)(tid));
            break;
        case OMPSIM_USERREQ_OMP_EVENT:
            if (args[1] == OMP_EV_RUNTIME_START || args[1] == OMP_EV_TOOL_INIT || args[1] == OMP_EV_FUNC_ENTER)
                start_streaming();
            omp::handle_event(tid, args);
            break;
        default:
            if (epapi::handle_request(args, ret)) return True;
            VG_(umsg)("warning: unknown ompsim client request 0x%lx ignored\n", args[0]);
            *ret = 0;
            return True;
    }
    *ret = 0;
    return True;
}

// InstrumentConfig::heap_request: a heap wrapper's request, handled in a
// helper instead of through the scheduler (HEAP_TRACKING, which returns a
// value, and everything else still go there).
UWord heap_request(UWord* args) {
    if (args[0] != OMPSIM_USERREQ_HEAP_ALLOC && args[0] != OMPSIM_USERREQ_HEAP_FREE) return 0;
    UWord ret = 0;
    handle_client_request(VG_(get_running_tid)(), args, &ret);
    return 1;
}

// Valgrind 3.19 gives fini() no exit code and no signal: Termination.h
// reads them from the client's system calls.
void pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs) {
    termination::pre_syscall(tid, sysno, args, nargs);
    varinfo::pre_syscall(sysno, args, nargs);
}
void post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs, SysRes res) {
    termination::post_syscall(tid, sysno, args, nargs, res);
}
void pre_deliver_signal(ThreadId tid, Int sig, Bool) { termination::pre_deliver_signal(tid, sig); }

void new_mem_startup(Addr a, SizeT len, Bool, Bool, Bool, ULong di_handle) {
    ds::new_mapping(a, len, varinfo::startup_handle(a, di_handle));
}
// A mapping's globals come and go as structures: the miss worker may hold
// counts for a structure's rows (MissWorker.h).
void new_mem_mmap(Addr a, SizeT len, Bool, Bool, Bool, ULong di_handle) {
    wrappers::mapping_changed();
    heaphooks::mapping_changed();
    missworker::sync();
    ds::new_mapping(a, len, di_handle);
}
void change_mem_mprotect(Addr, SizeT, Bool, Bool, Bool) {
    wrappers::mapping_changed();
    heaphooks::mapping_changed();
}
void die_mem_munmap(Addr a, SizeT len) {
    missworker::sync();
    ds::unmapped(a, len);
}
void start_client_code(ThreadId tid, ULong) {
    omp::thread_running(tid);
    if (!omp::streaming()) ds::set_thread(tid);
}

void pre_thread_create(ThreadId parent, ThreadId child) {
    // Valgrind also announces the initial thread (parent 0).
    if (parent == 0) return;
    // A plain pthread_create (no OpenMP runtime, no client request before
    // it) starts streaming here, inside the clone system call. Valgrind's
    // core allows discarding translations only while it runs a client
    // request (DiscardsAllowed, ValgrindApi.h); the clone wrapper runs
    // outside generated code as a client request does, so the discard is as
    // safe. Without this every program creating a POSIX thread stopped the
    // tool with "Assertion 'VG_(ok_to_discard_translations)' failed".
    {
        DiscardsAllowed allowed;
        start_streaming();
    }
    omp::thread_created(parent, child);
}

void pre_thread_exit(ThreadId tid) { omp::thread_exiting(tid); }

void fini(Int /*exitcode*/) {
    missworker::retire();
    if (VG_(clo_verbosity) > 1)
        VG_(dmsg)("miss thread: %llu L1 misses and dirty victims handed over, %llu entries of them below L2; %llu "
                  "switches\n",
                  (ULong)missworker::pushed(), (ULong)missworker::pushed_below_l2(), (ULong)missworker::switches());
    omp::close_all();
    replay::finish();
    replayworker::retire();
    if (VG_(clo_verbosity) > 1)
        VG_(dmsg)("replay thread: %llu batches handed over; event arrays: %llu made resident by it, %llu new "
                  "on the main thread\n",
                  (ULong)replayworker::batches(), (ULong)evreserve::taken_warm(), (ULong)evreserve::taken_cold());
    if (g_replay.perturb && VG_(clo_verbosity) > 1)
        VG_(dmsg)("replay perturbed %llu times (--replay-perturb)\n", (ULong)replay::perturbations());
    if (stream::spilled_chunks() && VG_(clo_verbosity) > 0)
        VG_(umsg)("note: the replay's event buffers reached --stream-buffer=%llu: %llu chunks of events went to a "
                  "temporary file in %s (at most %llu MiB); the profile is not affected\n",
                  (ULong)g_stream_buffer, (ULong)stream::spilled_chunks(), VG_(tmpdir)(),
                  (ULong)((stream::spill_file_bytes() + (1 << 20) - 1) >> 20));
    bool exited = termination::exited();
    RunInfo run = {exited, exited ? "exit" : "signal", termination::exit_status(), termination::signal(), "final",
                   g_dumps};
    write_document(run);
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
    // An output that could not be written is a failed run (the message is
    // out): status 1, unless the program's own status already says failure.
    if (outfiles::any_failed() && exited && termination::exit_status() == 0) VG_(exit)(1);
}

void pre_clo_init() {
    VG_(details_name)("ompsim");
    VG_(details_version)(PACKAGE_VERSION);
    VG_(details_description)("a cache hierarchy and OpenMP machine simulator");
    VG_(details_copyright_author)("Copyright (C) 2026, the ompsim developers.");
    VG_(details_bug_reports_to)("the ompsim issue tracker");
    VG_(details_avg_translation_sizeB)(500);

    VG_(basic_tool_funcs)(post_clo_init, maybe_instrument, fini);
    VG_(needs_superblock_discards)(discard_superblock);
    VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage);
    VG_(needs_client_requests)(handle_client_request);
    VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
    // Global variables with their sizes come from the DWARF variable info,
    // read only for the objects the monitor takes globals from: the filter
    // is chosen from the arguments here, before options are processed, and
    // set for the start-up objects in post_clo_init (VarInfoFilter.h).
    varinfo::init_from_args();
    VG_(track_new_mem_startup)(new_mem_startup);
    VG_(track_new_mem_mmap)(new_mem_mmap);
    VG_(track_die_mem_munmap)(die_mem_munmap);
    VG_(track_change_mem_mprotect)(change_mem_mprotect);
    VG_(track_start_client_code)(start_client_code);
    VG_(track_pre_thread_ll_create)(pre_thread_create);
    VG_(track_pre_thread_ll_exit)(pre_thread_exit);
    VG_(atfork)(before_fork, nullptr, forked_child);
    VG_(track_pre_deliver_signal)(pre_deliver_signal);

    builder_reset(g_builder);
    g_machine_name = nullptr;
    g_cachegrind_out = nullptr;
    g_output_file = "ompsim.out.%p.xml";
    g_output_overwrite = false;
    g_ospg_log_path = nullptr;
    g_collect_at_start = true;
    g_collecting = true;
    g_dumps = 0;
    // Off by default until sir/ and ompsim-report read <data-structures>
    // (issue 4 in progress): --monitor=yes enables it.
    g_ds.enabled = false;
    g_ds.histogram_lines = 0;
    g_ds.histogram_bins = 0;
    g_ds.slots = 0;
    g_ds.classify = false;
    g_ds.reuse = false;
    g_omp.simulate_runtime = false;
    g_omp.trace = false;
    g_replay.quantum = 1000;
    g_replay.cores = 0;
    g_replay.perturb = 0;
    g_stream_buffer = 512ull << 20;
    g_stream_spill = true;
    g_simulate_wrappers = false;
    g_miss_thread = missworker::Mode::Auto;
    g_replay_thread = true;
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
