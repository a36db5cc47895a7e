// The document's multi-core parts (docs/output-format.md): the replay's
// determinism, the machine's cores, coherence totals, and the <threads> and
// <cores> sections. Written only once the program ran threads (streaming);
// a single-threaded run's document has none of them.
#include "ThreadsWriter.h"

#include "CoreSim.h"
#include "OmpIntake.h"
#include "ProfileWriter.h"
#include "Replay.h"
#include "SimHelpers.h"

namespace ompsim {

namespace {

bool multicore() { return omp::streaming(); }

bool coherent(const HierarchyConfig& cfg) { return multicore() && !cfg.cachegrind; }

}  // namespace

bool run_deterministic(const omp::Options& o) {
    if (!multicore()) return true;
    return replay::deterministic() && !o.simulate_runtime;
}

void put_determinism(VgFile* fp, const omp::Options& o) {
    if (!multicore()) return;
    VG_(fprintf)(fp, "    <determinism scheduler=\"round-robin\" quantum=\"%u\" simulate-runtime=\"%s\" threads=\"%u\"",
                 replay::quantum(), o.simulate_runtime ? "yes" : "no", coresim::slots_used());
    const HChar* const* reasons;
    u32 n = replay::reasons(&reasons);
    if (!n && !o.simulate_runtime) {
        VG_(fprintf)(fp, "/>\n");
        return;
    }
    VG_(fprintf)(fp, ">\n");
    if (o.simulate_runtime)
        VG_(fprintf)(fp, "      <reason>the OpenMP runtime's own code was simulated (--simulate-runtime=yes): "
                         "its spin loops depend on timing</reason>\n");
    for (u32 i = 0; i < n; ++i) {
        VG_(fprintf)(fp, "      <reason>");
        put_xml_escaped(fp, reasons[i]);
        VG_(fprintf)(fp, "</reason>\n");
    }
    VG_(fprintf)(fp, "    </determinism>\n");
}

void put_machine_cores(VgFile* fp, const HierarchyConfig& cfg) {
    if (!multicore()) return;
    if (cfg.cachegrind) {
        VG_(fprintf)(fp, " cores=\"%u\" private-levels=\"0\" coherence=\"none\"", coresim::cores_used());
        return;
    }
    VG_(fprintf)(fp, " cores=\"%u\" private-levels=\"%u\" coherence=\"mesi\" c2c-latency=\"%u\" upgrade-latency=\"%u\"",
                 coresim::cores_used(), cfg.private_levels, cfg.c2c_latency, cfg.upgrade_latency);
}

void put_coherence_totals(VgFile* fp, const HierarchyConfig& cfg) {
    if (!coherent(cfg)) return;
    ULong cm = 0, fs = 0, inv = 0, c2c = 0, up = 0;
    for (u32 core = 0; core < coresim::cores_used(); ++core)
        for (u32 k = 0; k < cfg.private_levels; ++k) {
            const CoherenceStats& s = sim::g_machine.coherence(core, (int)k);
            cm += s.coherence_misses;
            fs += s.false_sharing_misses;
            inv += s.invalidations_received;
            c2c += s.c2c_in;
            up += s.upgrades;
        }
    VG_(fprintf)(fp, "    <coherence coherence-misses=\"%llu\" false-sharing-misses=\"%llu\" invalidations=\"%llu\" "
                     "c2c-transfers=\"%llu\" upgrades=\"%llu\"/>\n",
                 cm, fs, inv, c2c, up);
}

void put_threads_and_cores(VgFile* fp, const HierarchyConfig& cfg) {
    if (!multicore()) return;
    VG_(fprintf)(fp, "  <threads>\n");
    for (u32 t = 0; t < coresim::slots_used(); ++t) {
        const CoreCounters& c = coresim::counters(t);
        // Replayed threads are logical (a slot runs implicit task t of every
        // team): no Valgrind thread id belongs to them.
        VG_(fprintf)(fp, "    <thread id=\"%u\" valgrind-tid=\"0\" omp-thread=\"%u\" core=\"%u\">\n      <costs>", t,
                     t, replay::core_of_slot(t));
        LineCC cc = coresim::as_line(c);
        put_line_costs(fp, cc, cfg);
        VG_(fprintf)(fp, "</costs>\n    </thread>\n");
    }
    VG_(fprintf)(fp, "  </threads>\n  <cores>\n");
    for (u32 core = 0; core < coresim::cores_used(); ++core) {
        const CoreClock& k = coresim::clock(core);
        ULong instrs = 0;
        for (u32 t = 0; t < coresim::slots_used(); ++t)
            if (replay::core_of_slot(t) == core) instrs += coresim::counters(t).ir;
        VG_(fprintf)(fp, "    <core id=\"%u\" instructions=\"%llu\" cycles=\"%llu\" busy-cycles=\"%llu\" wait-cycles=\"%llu\">\n",
                     core, instrs, k.clock / 100, k.busy / 100, k.wait / 100);
        if (!cfg.cachegrind) {
            for (u32 lvl = 0; lvl < cfg.private_levels; ++lvl) {
                for (int side = 0; side < 2; ++side) {
                    bool icache_side = side == 0;
                    if (icache_side && !(lvl == 0 && cfg.split_l1)) continue;
                    const LevelStats& s = sim::g_machine.stats(core, (int)lvl, icache_side);
                    put_stats_open(fp, "      ", level_name(cfg, (int)lvl, icache_side), s);
                    // Coherence is tracked for the core's private levels as a whole
                    // per level; the instruction side never sees invalidations of data.
                    CoherenceStats z;
                    VG_(memset)(&z, 0, sizeof z);
                    const CoherenceStats& cs = icache_side ? z : sim::g_machine.coherence(core, (int)lvl);
                    VG_(fprintf)(fp, " coherence-misses=\"%llu\" false-sharing-misses=\"%llu\" "
                                     "invalidations-received=\"%llu\" invalidations-sent=\"%llu\" c2c-in=\"%llu\" "
                                     "c2c-out=\"%llu\" upgrades=\"%llu\"/>\n",
                                 cs.coherence_misses, cs.false_sharing_misses, cs.invalidations_received,
                                 cs.invalidations_sent, cs.c2c_in, cs.c2c_out, cs.upgrades);
                }
            }
        }
        VG_(fprintf)(fp, "    </core>\n");
    }
    VG_(fprintf)(fp, "  </cores>\n");
}

}  // namespace ompsim
