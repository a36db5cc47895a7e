// The ompsim profile document ("SIR" in the spirit of the Standard
// Intermediate Program Representation): one XML file per process, written
// by the tool at exit (or on a dump request), read by ompsim-report.
// docs/output-format.md documents it and docs/ompsim-profile.xsd is its
// schema. This is the hosted, in-memory form.
//
// Format version 1, element by element (attributes in this order; the tool
// writes exactly this layout, two-space indentation, '\n' line ends, no
// time stamps, no host names, so one run gives the same bytes every time):
//
// <?xml version="1.0" encoding="UTF-8"?>
// <ompsim-profile format-version="1" tool="ompsim" tool-version="0.1.0">
//   <run complete="true" termination="exit" exit-status="0" signal="0"
//        label="final" dump="0" deterministic="true">
//     <command exe="/abs/prog"><arg>first</arg><arg>second</arg></command>
//   </run>
//   <machine name="desktop" model="hierarchy" levels="3" split-l1="true"
//            icache="true" random-seed="1" cpi="1.00" memory-latency="250">
//     <cache name="I1" level="1" side="instruction" size="32768" assoc="8"
//            line-size="64" sets="64" replacement="lru" write-policy="write-back"
//            inclusion="non-inclusive" latency="5"/>
//     ... one <cache> per cache (I1 and D1 at level 1 when split; side is
//     "instruction", "data" or "unified")
//   </machine>
//   <events>Ir I1mr I2mr I3mr Dr D1mr D2mr D3mr Dw D1mw D2mw D3mw Cycles</events>
//   <totals>
//     <costs>v v v ...</costs>                      one value per event
//     <cache-stats name="D1" fetch-refs="" fetch-misses="" read-refs=""
//                  read-misses="" write-refs="" write-misses=""
//                  writeback-refs="" writeback-misses="" evictions=""
//                  writebacks="" back-invalidations="" victims-in=""/>
//     ... one per cache, in <machine> order
//     <memory reads="" writes=""/>
//   </totals>
//   <program>
//     <file path="/abs/src.c">                     files sorted by path
//       <region type="function" name="main" first-line="3" last-line="20">
//         <costs>v v ...</costs>                    sum of its lines
//         <line number="5">v v ...</line>           lines sorted by number
//       </region>                                   regions sorted by name
//     </file>
//   </program>
// </ompsim-profile>
//
// Events: "Ir" instructions, "Dr"/"Dw" data reads/writes executed, and per
// cache level k (1-based): "I<k>mr" instruction-fetch misses, "D<k>mr" data
// read misses, "D<k>mw" data write misses (line references that missed that
// level); in Cachegrind mode the last level is "L" (I1mr ILmr ... as
// Cachegrind). With data TLBs, "T1m" (data accesses whose translation missed
// DTLB1) and "T2m" (missed DTLB2 too: page walks) before Cycles.
// "Cycles" is simulated time: cpi * Ir plus, for every line
// reference that missed level 1, the latency of the level that served it
// (memory-latency when no level had it). Level-1 hits cost nothing beyond
// the CPI (the pipeline hides them). Cycles are rounded down per line; the
// totals are the sum of the lines, so totals always equal the sum of regions.
// A file "???" collects code without debug information.
//
// run: complete="false" when the client was killed by a signal (termination
// "signal", signal = its number) or when the document is an intermediate
// dump (termination "dump"). label is "final" at exit or the user's dump
// label; dump counts the dumps before this one.
//
// With --monitor=yes the tool adds, after </program>, the costs of each data
// structure (docs/monitor.md; an optional addition within format version 1):
//
//   <data-structures events="Dr D1mr D2mr Dw D1mw D2mw" mode="lines"
//                    resolution="4" slots="0">
//     <data-structure kind="global" name="buf" file="a.c" line="16"
//                     address="0x10e000" size="4096" blocks="1" bytes="4096"
//                     counted="true">
//       <site>f (a.c:3) | main (a.c:9)</site>      heap sites only
//       <costs>v v ...</costs>                       one value per column
//       <thread id="1"><costs>v v ...</costs></thread>   id or "other"
//       <histogram bucket-bytes="256" buckets="16">  or <histogram bins="25">
//         <bucket index="0">v v ...</bucket>         non-zero buckets only
//       </histogram>
//     </data-structure>
//   </data-structures>
//
// The columns (`events`) are the document's data events: Dr counts the line
// references of reads, D<k>mr those that missed level k, likewise Dw and
// D<k>mw for writes; on a multi-core machine two more may follow, Dcm
// (coherence misses at the private levels, summed) and Dfs (those of them
// that were false sharing). The threads add up to the structure's costs; the
// buckets add up to at most them (exactly, unless a client request changed
// the resolution after counting began).
//
// Multi-core runs (OpenMP: one simulated core per thread, MESI coherence,
// deterministic replay) add optional parts, all absent for single-threaded
// runs, whose documents do not change:
//
//   <run ...>
//     <command .../>
//     <determinism scheduler="round-robin" quantum="1000" simulate-runtime="no" threads="4">
//       <reason>why the run is not deterministic</reason>     0..n, only with deterministic="false"
//     </determinism>                                 <determinism .../> without reasons
//   </run>
//   <machine ... memory-latency="100" cores="4" private-levels="2"
//            coherence="mesi" c2c-latency="65" upgrade-latency="65">
//            (cores, private-levels 0..levels, coherence mesi|none; the
//            latencies always with mesi, optional with none)
//   <totals>
//     ... <memory .../>
//     <coherence coherence-misses="" false-sharing-misses="" invalidations=""
//                c2c-transfers="" upgrades=""/>
//   </totals>
//   <program>...</program>
//   <threads>                                        after </program>
//     <thread id="0" valgrind-tid="1" omp-thread="0" core="0">   omp-thread -1: not OpenMP;
//                                                    valgrind-tid 0: none (a replayed logical thread)
//       <costs>v v ...</costs>                       one value per event
//     </thread>                                      ascending id; the threads add up to <totals>
//   </threads>
//   <cores>
//     <core id="0" instructions="" cycles="" busy-cycles="" wait-cycles="">
//       <cache-stats name="D1" ...as in <totals>... coherence-misses=""
//                    false-sharing-misses="" invalidations-received=""
//                    invalidations-sent="" c2c-in="" c2c-out="" upgrades=""/>
//       ... one per private cache (level <= private-levels), in <machine> order
//     </core>                                        ascending id
//   </cores>
//   <data-structures ...>
//
// Machines with hardware prefetchers or data TLBs add optional parts, all
// absent otherwise (docs/output-format.md, "Prefetchers and TLBs"):
//
//   <machine ...>
//     <cache name="D1" ... latency="4" prefetch="next-line,stride"
//            prefetch-degree="2" prefetch-table="256" prefetch-streams="16"/>
//            (all four or none; prefetch: next-line, stride, stream, each at
//            most once, in that order; degree 1..64, table 1..65536,
//            streams 1..1024)
//     <tlbs page-size="4096" walk-latency="30">   after the caches
//       <tlb name="DTLB1" level="1" entries="64" assoc="4" latency="0"/>
//       <tlb name="DTLB2" level="2" entries="2048" assoc="16" latency="7"/>   optional
//     </tlbs>
//   </machine>
//   <events>Ir ... Dw D1mw D2mw D3mw T1m T2m Cycles</events>   one T event per TLB level
//   <totals>
//     <cache-stats ... victims-in="" prefetch-refs="" prefetch-misses=""
//                  prefetches-issued="" prefetches-useful="" prefetches-polluting=""/>
//            (every <cache-stats>, in <totals> and <cores>, when a cache has
//            a prefetcher; the coherence attributes of a core's follow them)
//     <memory .../> <coherence .../>
//     <tlb-stats name="DTLB1" refs="" misses=""/>   one per TLB level
//     <tlb-stats name="DTLB2" refs="" misses=""/>
//   </totals>
//   <data-structures events="Dr D1mr .. Dw D1mw .. [Dcm Dfs] [Dpf] [T1m [T2m]]" ...>
//            (Dpf iff a cache has a prefetcher; T1m, T2m iff <events> has them)
//
// T2m <= T1m; DTLB2 refs = DTLB1 misses; the totals' T1m = DTLB1 misses and
// T2m = DTLB2 misses; prefetch-misses <= prefetch-refs, useful + polluting
// <= issued, issued 0 on a level without a prefetcher; in the data-structure
// section Dpf <= Dr + Dw and T1m <= Dr + Dw.
//
// Runs with OpenMP constructs, user regions (OMPSIM_REGION_BEGIN) or
// -finstrument-functions hooks end in ompP's view of the run, in simulated
// cycles (docs/output-format.md, "<region-profile>"):
//
//   <region-profile time-unit="cycles" threads="2" columns="execT execC ..."
//                   states="work serial ..." events="Ir I1mr ...">
//     <region id="R00001" type="PARALLEL" file="a.c" function="main"
//             first-line="17" last-line="30" name=""/>   regions first, by id
//     <node id="0" region="" parent="">                  the root (the program)
//       <thread id="0" columns="..." states="..." costs="..."/>   ascending id
//     </node>
//     <node id="1" region="R00001" parent="0">           parents before children
//       <thread .../>
//       <pred from="0" thread="0" count="1"/>            ascending (from, thread)
//     </node>
//   </region-profile>                                    the last child of the root
//
// For every node and every thread listed in it, the states of the node and
// of its descendants add up to the thread's execT in the node, and its execC
// is the sum of the thread's <pred> counts (the root: no <pred>, execC 1).
//
// Runs with region events end in the event flow graph of the run (IPM's
// event signature flow graph, Fürlinger and Skinner 2009), after the region
// profile (docs/output-format.md, "<event-flow>"):
//
//   <event-flow components="region callsite size partner" time-unit="cycles"
//               threads="4" rank="2">                   rank: only when known
//     <callsite id="C1" node="3" file="" function="" line="0"/>   C1, C2, ...
//     <signature id="S1" region="R00002" callsite="C1" size="0"/>  S1, S2, ...
//     <signature id="S2" event="MPI_Send" callsite="C2" size="80" partner="1"/>
//     <edge from="S0" to="S1" thread="0" count="1" cycles="0"/>
//   </event-flow>                                ascending (from, to, thread)
//
// S0 is the start signature of every thread (never listed). Per thread the
// edges are one walk from S0: one edge from S0 with count 1, and every
// signature entered as often as left, but for the thread's last one.
//
// OpenMP runs end in the parallelism profile of the run's series-parallel
// graph (OMP-WHIP's, docs/parallelism.md), after the event flow graph if
// there is one, else after the region profile (docs/output-format.md,
// "<parallelism>"):
//
//   <parallelism measure="cycles" burden="15000" nodes="41" w-nodes="24"
//                dependences="0" complete="true" lost-work="0" log="ospg.log">   log: optional
//     <program work="7500" span="1800" burdened-span="46800" serial="1500"/>
//     <site id="1" region="R00002"/>                      ascending id from 1
//     <site id="3" label="1" edge="begin" file="prime.c" line="15"/>
//     <label id="1" name="inner"/>                         ascending id from 1
//     <directive site="2" instances="1" work="6000" span="300" burdened-span="45300"
//                serial="300"/>                            ascending site
//     <fragment from="0" to="1" label="0" count="1" work="1000" serial="1000"/>
//   </parallelism>                    fragments: most serial first, then (from, to, label)
//
// The serial work of the program and of its directives adds up to the
// program's span, and so does that of the fragments (the critical path).
//
// --classify-misses adds miss-compulsory miss-capacity miss-conflict
// miss-coherence to every <cache-stats> (they add up to the demand misses)
// and the columns D<k>comp D<k>cap D<k>conf D<k>coh to <data-structures>
// (they add up to D<k>mr + D<k>mw); --reuse-distance adds
//   <reuse-distance line-size="64" accesses="" cold="">  after <histogram>
//     <bin min="4" max="7" count=""/>                    log2 bins, non-zero, ascending
//   </reuse-distance>
// (docs/output-format.md, "Miss classes and reuse distances").
//
// The reader checks ids (unique, below `cores`), the threads' sum, and the
// coherence sums: <coherence> equals the sums over the cores' private caches,
// and every invalidation and cache-to-cache transfer has a sender and a
// receiver (docs/output-format.md, "Multi-core runs").
#ifndef OMPSIM_SIR_DOCUMENT_H
#define OMPSIM_SIR_DOCUMENT_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ompsim {
namespace sir {

constexpr int kFormatVersion = 1;

// <determinism>: how a multi-threaded run was scheduled, and why it may not
// be deterministic.
struct Determinism {
    std::string scheduler;               // "round-robin"
    uint64_t quantum = 0;                // instructions per scheduling quantum
    std::string simulate_runtime = "no";  // yes | no
    uint32_t threads = 0;
    std::vector<std::string> reasons;    // only when the run is not deterministic
};

// <warning> in <run><warnings>: a limit of the tool that the run reached
// (docs/limits.md); the document covers less than the run, as `message` says.
struct RunWarning {
    std::string kind;                   // stream-buffer, ospg-max-nodes, ...: a-z, 0-9 and '-'
    std::optional<std::string> option;  // the option that sets the limit ("--..."); none: a built-in bound
    uint64_t limit = 0;                 // the limit's value (bytes, nodes, ...)
    std::string message;                // what it means for the document; not empty
};

struct Run {
    bool complete = true;
    std::string termination = "exit";  // exit | signal | dump
    int exit_status = 0;
    int signal = 0;
    std::string label = "final";
    uint64_t dump = 0;
    bool deterministic = true;
    std::string exe;
    std::vector<std::string> args;
    std::optional<Determinism> determinism;  // multi-threaded runs
    std::vector<RunWarning> warnings;        // <warnings> (last in <run>): limits reached; none: no element
};

// The hardware prefetchers a cache level can have, in the order the
// `prefetch` attribute lists them.
extern const char* const kPrefetchKinds[3];  // "next-line", "stride", "stream"

// The prefetchers of one cache level: the attributes prefetch="next-line,stride"
// prefetch-degree="" prefetch-table="" prefetch-streams="" of <cache> (all four
// or none; a level without a prefetcher has none).
struct CachePrefetch {
    std::vector<std::string> kinds;  // a non-empty subset of kPrefetchKinds, in that order
    uint32_t degree = 1;             // lines fetched ahead per prefetch, 1..64
    uint32_t table = 1;              // entries of the stride prefetcher's table, 1..65536
    uint32_t streams = 1;            // streams the stream prefetcher tracks, 1..1024
};

struct Cache {
    std::string name;  // I1, D1, L1, L2, L3, L4, LL
    int level = 1;
    std::string side;  // instruction | data | unified
    uint64_t size = 0;
    uint32_t assoc = 0;
    uint32_t line_size = 0;
    uint64_t sets = 0;
    std::string replacement;   // lru | fifo | plru | random
    std::string write_policy;  // write-back | write-through
    std::string inclusion;     // non-inclusive | inclusive | exclusive
    uint32_t latency = 0;
    std::optional<CachePrefetch> prefetch;  // none: the level has no prefetcher
};

// One data TLB level (<tlb> in <tlbs>).
struct Tlb {
    std::string name;  // DTLB1 (level 1), DTLB2 (level 2)
    int level = 1;
    uint32_t entries = 0;  // >= 1, a multiple of assoc
    uint32_t assoc = 0;    // 1..entries
    uint32_t latency = 0;  // cycles of a look-up that hits this level
};

// <tlbs>: the data TLBs of each core, one or two levels.
struct Tlbs {
    uint64_t page_size = 4096;  // a power of two, 4096 to 1073741824
    uint32_t walk_latency = 0;  // cycles of a page walk (a miss in every level)
    std::vector<Tlb> levels;    // DTLB1, then DTLB2
};

// The multi-core attributes of <machine>: one simulated core per thread,
// levels 1..private_levels private to each core, the levels below shared
// (private_levels 0: every cache shared, as in the cachegrind model).
struct MultiCore {
    uint32_t cores = 1;
    int private_levels = 1;
    std::string coherence = "mesi";          // mesi | none
    std::optional<uint32_t> c2c_latency;      // cycles of a cache-to-cache transfer; always with mesi
    std::optional<uint32_t> upgrade_latency;  // cycles of an upgrade (S -> M); always with mesi
};

struct Machine {
    std::string name;
    std::string model;  // hierarchy | cachegrind
    int levels = 0;
    bool split_l1 = true;
    bool icache = true;
    uint64_t random_seed = 0;
    std::string cpi;  // as written, two decimals ("1.00")
    uint32_t memory_latency = 0;
    std::vector<Cache> caches;
    std::optional<MultiCore> multicore;  // the attributes cores="" ... (all or none)
    std::optional<Tlbs> tlbs;            // <tlbs>: machines with data TLBs

    // The caches every core has a copy of: those of level <= private-levels
    // (none without `multicore`), in <machine> order.
    std::vector<const Cache*> private_caches() const;
    // Whether any cache has a prefetcher (then every <cache-stats> has the
    // prefetch counters and <data-structures> the column Dpf).
    bool has_prefetch() const;
    // The number of TLB levels, 0 without <tlbs> (the events T1m .. T<n>m).
    int tlb_levels() const;
};

// Kinds in cache-stats, in attribute order.
enum Kind { kFetch = 0, kRead = 1, kWrite = 2, kWriteback = 3 };

// The prefetch attributes of a <cache-stats> (all five on every <cache-stats>
// of a machine with a prefetcher, none otherwise).
struct PrefetchStats {
    uint64_t prefetch_refs = 0;         // prefetch requests that reached this level
    uint64_t prefetch_misses = 0;       // those that missed here (<= prefetch_refs)
    uint64_t prefetches_issued = 0;     // requests this level's own prefetcher issued (0 without one)
    uint64_t prefetches_useful = 0;     // prefetched lines a demand access used
    uint64_t prefetches_polluting = 0;  // prefetched lines evicted before any use (useful + polluting <= issued)
};

// --classify-misses=yes: the four attributes miss-compulsory miss-capacity
// miss-conflict miss-coherence of every <cache-stats> (all or none), which
// partition the level's demand misses (fetch + read + write misses;
// docs/output-format.md, "Miss classes and reuse distances").
struct MissClasses {
    uint64_t compulsory = 0;  // first demand reference of the line to this cache (per core if private)
    uint64_t capacity = 0;    // else: also missed in a fully associative LRU cache of equal lines
    uint64_t conflict = 0;    // else: hit there
    uint64_t coherence = 0;   // lost to another core's write (private caches; takes precedence)

    uint64_t total() const { return compulsory + capacity + conflict + coherence; }
};

// The classes in document order; `suffix` names a class's column
// D<k><suffix> in <data-structures>.
struct MissClassField {
    const char* attribute;  // on <cache-stats>
    const char* column;     // in ompsim-report's JSON and CSV exports
    const char* suffix;     // data-structure column D<k><suffix>
    const char* label;      // a table heading
    uint64_t MissClasses::*member;
};
inline constexpr MissClassField kMissClassFields[] = {
    {"miss-compulsory", "miss_compulsory", "comp", "compulsory", &MissClasses::compulsory},
    {"miss-capacity", "miss_capacity", "cap", "capacity", &MissClasses::capacity},
    {"miss-conflict", "miss_conflict", "conf", "conflict", &MissClasses::conflict},
    {"miss-coherence", "miss_coherence", "coh", "coherence", &MissClasses::coherence},
};
constexpr int kMissClasses = 4;

struct CacheStats {
    std::string name;
    uint64_t refs[4] = {0, 0, 0, 0};
    uint64_t misses[4] = {0, 0, 0, 0};
    uint64_t evictions = 0;
    uint64_t writebacks = 0;
    uint64_t back_invalidations = 0;
    uint64_t victims_in = 0;
    std::optional<PrefetchStats> prefetch;  // machines with a prefetcher
    std::optional<MissClasses> classes;     // --classify-misses=yes

    // fetch + read + write misses (what the classes partition).
    uint64_t demand_misses() const { return misses[kFetch] + misses[kRead] + misses[kWrite]; }
};

// <tlb-stats> in <totals>: one TLB level over the whole run.
struct TlbStats {
    std::string name;     // DTLB1, DTLB2
    uint64_t refs = 0;    // translations looked up at this level (DTLB2: the DTLB1 misses)
    uint64_t misses = 0;  // those that missed it (DTLB1: T1m, DTLB2: T2m)
};

// <coherence> in <totals>: the whole run.
struct CoherenceTotals {
    uint64_t coherence_misses = 0;
    uint64_t false_sharing_misses = 0;  // part of coherence_misses
    uint64_t invalidations = 0;
    uint64_t c2c_transfers = 0;
    uint64_t upgrades = 0;
};

// The coherence attributes of a core's <cache-stats> (all or none).
struct CacheCoherence {
    uint64_t coherence_misses = 0;
    uint64_t false_sharing_misses = 0;
    uint64_t invalidations_received = 0;
    uint64_t invalidations_sent = 0;
    uint64_t c2c_in = 0;
    uint64_t c2c_out = 0;
    uint64_t upgrades = 0;
};

// The counters of <coherence> and of a core's coherence attributes, in
// document order: the attribute, the name in ompsim-report's JSON and CSV
// exports, the member. The writer, the reader and the exports go through
// these lists, so a counter is added in one place.
template <typename T>
struct CounterField {
    const char* attribute;
    const char* column;
    uint64_t T::*member;
};

inline constexpr CounterField<CoherenceTotals> kCoherenceTotalsFields[] = {
    {"coherence-misses", "coherence_misses", &CoherenceTotals::coherence_misses},
    {"false-sharing-misses", "false_sharing_misses", &CoherenceTotals::false_sharing_misses},
    {"invalidations", "invalidations", &CoherenceTotals::invalidations},
    {"c2c-transfers", "c2c_transfers", &CoherenceTotals::c2c_transfers},
    {"upgrades", "upgrades", &CoherenceTotals::upgrades},
};

inline constexpr CounterField<CacheCoherence> kCacheCoherenceFields[] = {
    {"coherence-misses", "coherence_misses", &CacheCoherence::coherence_misses},
    {"false-sharing-misses", "false_sharing_misses", &CacheCoherence::false_sharing_misses},
    {"invalidations-received", "invalidations_received", &CacheCoherence::invalidations_received},
    {"invalidations-sent", "invalidations_sent", &CacheCoherence::invalidations_sent},
    {"c2c-in", "c2c_in", &CacheCoherence::c2c_in},
    {"c2c-out", "c2c_out", &CacheCoherence::c2c_out},
    {"upgrades", "upgrades", &CacheCoherence::upgrades},
};

// The prefetch attributes of <cache-stats> (after victims-in) and the
// counters of <tlb-stats> (after name), in document order.
inline constexpr CounterField<PrefetchStats> kPrefetchStatsFields[] = {
    {"prefetch-refs", "prefetch_refs", &PrefetchStats::prefetch_refs},
    {"prefetch-misses", "prefetch_misses", &PrefetchStats::prefetch_misses},
    {"prefetches-issued", "prefetches_issued", &PrefetchStats::prefetches_issued},
    {"prefetches-useful", "prefetches_useful", &PrefetchStats::prefetches_useful},
    {"prefetches-polluting", "prefetches_polluting", &PrefetchStats::prefetches_polluting},
};

inline constexpr CounterField<TlbStats> kTlbStatsFields[] = {
    {"refs", "refs", &TlbStats::refs},
    {"misses", "misses", &TlbStats::misses},
};

struct CoreCacheStats {
    CacheStats stats;
    std::optional<CacheCoherence> coherence;
};

// <core>: one simulated core.
struct Core {
    uint32_t id = 0;
    uint64_t instructions = 0;
    uint64_t cycles = 0;
    uint64_t busy_cycles = 0;
    uint64_t wait_cycles = 0;
    std::vector<CoreCacheStats> cache_stats;  // one per private cache, in <machine> order
};

// <thread> in <threads>: the costs of one thread of the program.
constexpr int kNotOpenMP = -1;

struct Thread {
    uint32_t id = 0;            // ompsim's thread number (0 = the initial thread)
    uint32_t valgrind_tid = 0;  // Valgrind's thread id (as in <data-structures>); 0: none
    int omp_thread = 0;         // OpenMP thread number, kNotOpenMP for other threads
    uint32_t core = 0;          // the simulated core it ran on
    std::vector<uint64_t> costs;  // one value per event
};

struct Line {
    uint32_t number = 0;
    std::vector<uint64_t> costs;
};

struct Region {
    std::string type = "function";
    std::string name;
    uint32_t first_line = 0;
    uint32_t last_line = 0;
    std::vector<uint64_t> costs;
    std::vector<Line> lines;
};

struct File {
    std::string path;
    std::vector<Region> regions;
};

// ---- the data-structure section (<data-structures>, written with --monitor=yes)

// One <bucket>: a non-zero histogram bucket.
struct DataBucket {
    uint32_t index = 0;
    std::vector<uint64_t> costs;  // one value per column of the section
};

// The histogram of one structure over the offset inside each block. Lines
// mode: bucket = offset / bucket_bytes, `buckets` buckets (bins == 0). Bins
// mode: bucket = offset * bins / block size (bucket_bytes == buckets == 0).
struct DataHistogram {
    uint64_t bucket_bytes = 0;
    uint32_t buckets = 0;
    uint32_t bins = 0;
    std::vector<DataBucket> entries;  // ascending index, each index once; zero buckets may be left out

    bool by_bins() const { return bins != 0; }
    // How many buckets the histogram has (bins or buckets).
    uint32_t size() const { return bins ? bins : buckets; }
};

// The thread id written as "other": accesses the monitor could not give a
// row of their own (docs/monitor.md, "Per-thread counters").
constexpr uint32_t kOtherThread = UINT32_MAX;

struct DataThread {
    uint32_t id = 0;  // Valgrind's thread id, or kOtherThread
    std::vector<uint64_t> costs;
};

// --reuse-distance=yes: a structure's histogram of LRU stack (reuse)
// distances in lines, in log2 bins: bin 0 is distance 0, bin i >= 1 the
// distances 2^(i-1) .. 2^i - 1 (<bin min="" max="" count=""/>).
struct ReuseBin {
    uint64_t min = 0;
    uint64_t max = 0;
    uint64_t count = 0;  // > 0
};

// (capacity in lines, misses, miss ratio) of a fully associative LRU cache.
struct MrcPoint {
    uint64_t lines = 0;
    uint64_t misses = 0;
    double ratio = 0;
};

struct ReuseDistance {
    uint32_t line_size = 0;      // bytes per line (the level-1 line size)
    uint64_t accesses = 0;       // = cold + the counts = the structure's Dr + Dw
    uint64_t cold = 0;           // first references on the core's stack (infinite distance)
    std::vector<ReuseBin> bins;  // ascending, non-zero counts only

    // The bin index of a distance: 0 for 0, else floor(log2 d) + 1.
    static int bin_of(uint64_t distance);
    // Misses of a fully associative LRU cache of `lines` lines: cold plus the
    // references with distance >= lines. Exact when `lines` is a power of two
    // (a bin boundary); otherwise that of the largest power of two below it
    // (an upper bound). lines 0: accesses.
    uint64_t misses_at(uint64_t lines) const;
    // misses_at / accesses (0 when there are no accesses).
    double miss_ratio(uint64_t lines) const;
    // The curve at capacities 1, 2, 4, ... up to the first one beyond the
    // largest distance (where only the cold misses remain).
    std::vector<MrcPoint> curve() const;
};

struct DataStructure {
    std::string kind;  // global | heap | user
    std::string name;
    std::string file;   // declared at (global, user) or allocated at (heap); "" when unknown
    uint32_t line = 0;  // 0 when unknown
    uint64_t address = 0;  // start (global, user); 0 for heap sites
    uint64_t size = 0;     // extent; the largest block of a heap site
    uint64_t blocks = 0;   // allocations of a heap site; 1 otherwise
    uint64_t bytes = 0;    // bytes allocated at a heap site in all; the size otherwise
    bool counted = true;   // false: no monitor slot, the costs are zero
    std::optional<std::string> site;  // heap: up to 3 frames "fn (file:line)" joined by " | "
    std::vector<uint64_t> costs;      // one value per column of the section
    std::vector<DataThread> threads;  // ascending id, "other" last
    std::optional<DataHistogram> histogram;
    std::optional<ReuseDistance> reuse;  // --reuse-distance=yes, counted structures with references
};

struct DataStructures {
    std::vector<std::string> events;  // the columns: the document's Dr, D<k>mr, Dw, D<k>mw events [, Dcm, Dfs]
                                      // [, Dpf] [, T1m [, T2m]] [, D1comp D1cap D1conf D1coh, D2comp ...]
    std::string mode = "static";      // static | lines | bins
    uint32_t resolution = 0;          // lines per bucket (lines), portions (bins), 0 (static)
    uint32_t slots = 0;               // monitor slots; 0 = unlimited
    std::vector<DataStructure> structures;  // in the tool's order (globals, then heap sites, ...)

    // Whether the columns have "Dcm Dfs" (coherence and false-sharing misses).
    bool has_coherence() const;
    // Whether the columns have "Dpf" (references served by a prefetched line).
    bool has_prefetch() const;
    // The number of TLB columns (T1m, T2m) at the end.
    int tlb_levels() const;
    // The number of leading columns of the form "Dr D1mr .. Dw D1mw .." (all
    // of them but Dcm, Dfs, Dpf, T1m and T2m).
    size_t level_columns() const;
    // Index of a column, or -1.
    int column(const std::string& name) const;
    // Whether the columns have the miss classes D<k>comp D<k>cap D<k>conf
    // D<k>coh (--classify-misses=yes), and the index of level k's (1-based)
    // class c (0..3, kMissClassFields order), or -1.
    bool has_miss_classes() const;
    int class_column(int level, int c) const;
    // The four classes of level k in a cost vector of this section (zeros
    // without the columns).
    MissClasses classes(const std::vector<uint64_t>& costs, int level) const;
};

// ---- the region profile (<region-profile>: OpenMP regions, call graph, flow, states)

// One <region>: a construct, user region or function.
struct ProfRegion {
    std::string id;        // "R00001": R and five or more digits
    std::string type;      // PARALLEL LOOP SECTIONS SINGLE MASTER CRITICAL LOCK BARRIER TASK TASKWAIT
                           // TASKGROUP ORDERED REDUCTION REGION FUNCTION
    std::string file;      // "" when unknown
    std::string function;  // "" when unknown
    uint32_t first_line = 0;  // 0 when unknown
    uint32_t last_line = 0;
    std::string name;      // a user region's, function's or named critical's name; else ""
};

// The figures of one thread in one node.
struct NodeThread {
    uint32_t id = 0;                // the thread (as in <threads>), below RegionProfile::threads
    std::vector<uint64_t> columns;  // as named by RegionProfile::columns (execT, execC, ...)
    std::vector<uint64_t> states;   // exclusive cycles in the node per state (RegionProfile::states)
    std::vector<uint64_t> costs;    // the events while in the node, children included
};

// One predecessor of a node: `thread` entered the node `count` (> 0) times
// coming from node `from` (the parent, or a sibling it left just before).
struct Pred {
    uint32_t from = 0;
    uint32_t thread = 0;
    uint64_t count = 0;
};

// One <node>: a region in the context of its parent node.
struct ProfNode {
    uint32_t id = 0;                 // 0: the root, the program itself
    std::string region;              // a ProfRegion id; "" for the root
    std::optional<uint32_t> parent;  // a smaller node id; none for the root
    std::vector<NodeThread> threads;  // ascending id
    std::vector<Pred> preds;          // ascending (from, thread); none for the root

    const NodeThread* thread(uint32_t id) const;
};

struct RegionProfile {
    std::string time_unit = "cycles";
    uint32_t threads = 0;
    std::vector<std::string> columns;  // execT execC bodyT bodyC enterT exitT exitBarT startupT shutdwnT taskT
    std::vector<std::string> states;   // work serial reduction implicit-barrier ... idle
    std::vector<std::string> events;   // the document's <events>
    std::vector<ProfRegion> regions;   // ascending id
    std::vector<ProfNode> nodes;       // ascending id, nodes[0] the root

    // Index of a column or state, or -1.
    int column(const std::string& name) const;
    int state(const std::string& name) const;
    // The region with id `id`, or null.
    const ProfRegion* region(const std::string& id) const;
    // The node with id `id`, or null.
    const ProfNode* node(uint32_t id) const;
};

// ---- the event flow graph (<event-flow>: IPM's event signature flow graph)

// The components a signature can be built from, in canonical order.
//   region   what happened: a region entered (a <region> of the region
//            profile) or a named point event (OMPSIM_EVENT, an MPI call)
//   callsite where: the region-profile node (call path) the event happened
//            in (a region entry: the node entered) and the source line
//   size     the event's data size in bytes (region entries: 0)
//   partner  the partner rank of a point event that has one
//   thread   the thread (otherwise threads share nodes; edges keep threads)
extern const char* const kFlowComponents[5];

// One <callsite>: a call path (node) plus, for point events, the line of the call.
struct FlowCallsite {
    std::string id;        // "C1", "C2", ... (consecutive: callsites[k] is C(k+1))
    uint32_t node = 0;     // a node of the region profile
    std::string file;      // "" for region entries and when unknown
    std::string function;  // "" for region entries and when unknown
    uint32_t line = 0;     // 0 for region entries and when unknown
};

// One <signature>: a node of the event flow graph. Attributes exist only for
// recorded components (EventFlow::components).
struct FlowSignature {
    std::string id;                  // "S1", "S2", ... (consecutive: signatures[k] is S(k+1))
    std::string region;              // region component, a region entry: a ProfRegion id; else ""
    std::string event;               // region component, a point event: its name; else ""
    std::string callsite;            // callsite component: a FlowCallsite id; else ""
    std::optional<uint64_t> size;    // size component
    std::optional<int64_t> partner;  // partner component, when the event has a partner
    std::optional<uint32_t> thread;  // thread component
};

// One <edge>: `thread` went `count` (> 0) times from signature `from` (S0:
// the thread's start) to `to`, spending `cycles` between the two events.
struct FlowEdge {
    uint32_t from = 0;  // 0 = S0, else k for "Sk"
    uint32_t to = 0;    // k >= 1 for "Sk"
    uint32_t thread = 0;
    uint64_t count = 0;
    uint64_t cycles = 0;
};

struct EventFlow {
    std::vector<std::string> components;  // a non-empty subset of kFlowComponents, canonical order
    std::string time_unit = "cycles";
    uint32_t threads = 0;                 // as the region profile's
    std::optional<int64_t> rank;          // the process's rank (MPI), when known
    std::vector<FlowCallsite> callsites;  // only with the callsite component
    std::vector<FlowSignature> signatures;
    std::vector<FlowEdge> edges;          // ascending (from, to, thread), no two alike

    bool has(const std::string& component) const;
};

// <parallelism>: the inherent parallelism of the run, OMP-WHIP's profile of
// the OpenMP series-parallel graph (docs/parallelism.md). All figures are in
// `measure` units (simulated cycles of user code, or instructions), integers.
struct ParallelismSite {
    uint32_t id = 0;              // 1.. (0 is the program, never listed)
    // Either a region of the region profile ("R00003")...
    std::string region;
    // ...or a what-if annotation's begin or end (OMPSIM_WHATIF_BEGIN/END).
    uint32_t label = 0;           // a ParallelismLabel id
    std::string edge;             // "begin" or "end" (what-if sites only)
    std::string file;             // what-if sites: where the annotation is
    uint32_t line = 0;
};

struct ParallelismLabel {
    uint32_t id = 0;              // 1..
    std::string name;
};

struct ParallelismDirective {     // one static directive (a site that made nodes)
    uint32_t site = 0;
    uint64_t instances = 0;       // outermost dynamic instances
    uint64_t work = 0, span = 0, burdened_span = 0;
    uint64_t serial = 0;          // critical-path serial work of the W nodes it holds
};

struct ParallelismFragment {      // critical-path W nodes with the same boundaries and label
    uint32_t from = 0, to = 0;    // site ids (0: the program's start or end)
    uint32_t label = 0;           // 0: none
    uint64_t count = 0;           // W nodes
    uint64_t work = 0;
    uint64_t serial = 0;          // = work without what-if factors
};

struct Parallelism {
    std::string measure = "cycles";   // "cycles" or "instructions"
    uint64_t burden = 0;              // per P node on a chain, in `measure` units
    uint64_t nodes = 0, w_nodes = 0, dependences = 0;
    bool complete = true;             // false: the node limit was reached
    uint64_t lost_work = 0;           // work no W node holds (complete = false)
    std::string log;                  // the --ospg-log file, if one was written
    uint64_t work = 0, span = 0, burdened_span = 0;  // the program
    uint64_t serial = 0;              // critical-path serial work outside every directive
    std::vector<ParallelismSite> sites;          // ascending id
    std::vector<ParallelismLabel> labels;        // ascending id
    std::vector<ParallelismDirective> directives;  // ascending site
    std::vector<ParallelismFragment> fragments;  // most serial first, then (from, to, label)
};

struct Document {
    int format_version = kFormatVersion;
    std::string tool_version;
    Run run;
    Machine machine;
    std::vector<std::string> events;
    std::vector<uint64_t> totals;
    std::vector<CacheStats> cache_stats;
    uint64_t memory_reads = 0;
    uint64_t memory_writes = 0;
    std::optional<CoherenceTotals> coherence;  // multi-core machines with coherence
    std::vector<TlbStats> tlb_stats;           // one per TLB level of <machine> (none without TLBs)
    std::vector<File> files;
    std::optional<std::vector<Thread>> threads;  // multi-threaded runs; ascending id
    std::optional<std::vector<Core>> cores;      // multi-core machines; ascending id
    std::optional<DataStructures> data_structures;  // only with --monitor=yes
    std::optional<RegionProfile> region_profile;    // runs with OpenMP regions, user regions or function hooks
    std::optional<EventFlow> event_flow;            // with the region profile, unless --event-flow=no
    std::optional<Parallelism> parallelism;         // OpenMP runs, unless --ospg=no

    // Index of an event name in `events`, or -1.
    int event_index(const std::string& name) const;
};

// Where and why a document could not be read: "FILE:LINE: message".
struct LoadError {
    std::string file;
    int line = 0;  // 0 when no line applies (unreadable file)
    std::string message;
    std::string to_string() const;
};

// Reads and validates a document: well-formed XML, the root element and
// format version (a newer version is refused with a message saying so),
// every required element and attribute, numbers that parse, cost vectors as
// long as the event list, totals equal to the sum of the lines, and in the
// data-structure section the columns, the thread and bucket sums, bucket
// indexes and miss counts that shrink level by level; in the multi-core
// parts the ids, the threads' sum and the coherence sums; in the region
// profile the lists' lengths, ids, order, the parents and predecessors and the
// sums of execT and execC; in the event flow graph the references, order and
// each thread's walk; in the parallelism profile the references, order,
// spans at most the work and burdened spans at least the span, and the two
// sums equal to the span; with prefetchers and TLBs the attributes' values,
// the T events and columns, the prefetch and TLB counters' rules. Foreign XML,
// truncated files and corrupt values are errors, never partial documents.
bool load_file(const std::string& path, Document& doc, LoadError& err);
bool load_text(const std::string& text, const std::string& name, Document& doc, LoadError& err);

// The canonical text of a document: byte-identical to what the tool writes.
std::string to_xml(const Document& doc);
bool save_file(const std::string& path, const Document& doc, std::string& error);

}  // namespace sir
}  // namespace ompsim

#endif
