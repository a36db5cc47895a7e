#include "ProfileWriter.h"

#include "DataStructures.h"
#include "OutputFiles.h"
#include "RegionsWriter.h"
#include "Reports.h"
#include "SimHelpers.h"
#include "ThreadsWriter.h"
#include "Warnings.h"

namespace ompsim {

namespace {

constexpr int kMaxEvents = 3 + 3 * kMaxLevels + kMaxTlbLevels + 1;

struct Costs {
    ULong v[kMaxEvents];
};

int event_count(const HierarchyConfig& cfg) { return 3 + 3 * cfg.levels + cfg.tlb.levels + 1; }

// Event names in document order: Ir I<k>mr.. Dr D<k>mr.. Dw D<k>mw.., the
// TLB misses T1m [T2m] when there are TLBs, Cycles; with Cachegrind's "L"
// for the last level in Cachegrind mode.
void event_name(const HierarchyConfig& cfg, int index, HChar* out) {
    int levels = cfg.levels;
    int group = index / (levels + 1), k = index % (levels + 1);
    if (index == event_count(cfg) - 1) {
        VG_(strcpy)(out, "Cycles");
        return;
    }
    if (group >= 3) {
        VG_(sprintf)(out, "T%dm", index - 3 * (levels + 1) + 1);
        return;
    }
    static const HChar* const base[3] = {"Ir", "Dr", "Dw"};
    static const HChar* const prefix[3] = {"I", "D", "D"};
    static const HChar* const suffix[3] = {"mr", "mr", "mw"};
    if (k == 0) {
        VG_(strcpy)(out, base[group]);
    } else if (cfg.cachegrind && k == levels) {
        VG_(sprintf)(out, "%sL%s", prefix[group], suffix[group]);
    } else {
        VG_(sprintf)(out, "%s%d%s", prefix[group], k, suffix[group]);
    }
}

void costs_of(const LineCC& cc, const HierarchyConfig& cfg, Costs& c) {
    int levels = cfg.levels, i = 0;
    const ULong* served[3] = {cc.ir_served, cc.dr_served, cc.dw_served};
    const ULong counts[3] = {cc.ir, cc.dr, cc.dw};
    for (int g = 0; g < 3; ++g) {
        c.v[i++] = counts[g];
        for (int k = 0; k < levels; ++k) c.v[i++] = misses_at(served[g], levels, k);
    }
    for (int t = 0; t < cfg.tlb.levels; ++t) c.v[i++] = cc.tlb[1 + t];
    c.v[i] = cycles_of(cc, cfg);
}

}  // namespace

void put_event_names(VgFile* fp, const HierarchyConfig& cfg) {
    for (int i = 0; i < event_count(cfg); ++i) {
        HChar name[16];
        event_name(cfg, i, name);
        VG_(fprintf)(fp, i ? " %s" : "%s", name);
    }
}

// Escapes & < > " and replaces control bytes (XML 1.0 cannot hold them).
void put_xml_escaped(VgFile* fp, const HChar* s) {
    HChar buf[256];
    Int n = 0;
    auto flush = [&]() {
        buf[n] = 0;
        VG_(fprintf)(fp, "%s", buf);
        n = 0;
    };
    for (; *s; ++s) {
        if (n > (Int)sizeof(buf) - 8) flush();
        unsigned char ch = (unsigned char)*s;
        const HChar* rep = nullptr;
        switch (ch) {
            case '&': rep = "&amp;"; break;
            case '<': rep = "&lt;"; break;
            case '>': rep = "&gt;"; break;
            case '"': rep = "&quot;"; break;
            default: break;
        }
        if (rep) {
            while (*rep) buf[n++] = *rep++;
        } else {
            buf[n++] = (ch < 0x20 && ch != '\t') ? '?' : (HChar)ch;
        }
    }
    flush();
}

namespace {

void put_costs(VgFile* fp, const Costs& c, int n) {
    for (int i = 0; i < n; ++i) VG_(fprintf)(fp, i ? " %llu" : "%llu", c.v[i]);
}

const HChar* yes_no(bool b) { return b ? "true" : "false"; }

void put_cache(VgFile* fp, const HierarchyConfig& cfg, int k, bool icache_side) {
    const LevelConfig& l = icache_side ? cfg.i1 : cfg.level[k];
    const HChar* side = k > 0 ? "unified" : icache_side ? "instruction" : cfg.split_l1 ? "data" : "unified";
    VG_(fprintf)(fp, "    <cache name=\"%s\" level=\"%d\" side=\"%s\" size=\"%llu\" assoc=\"%u\" "
                     "line-size=\"%u\" sets=\"%llu\" replacement=\"%s\" write-policy=\"%s\" "
                     "inclusion=\"%s\" latency=\"%u\"",
                 level_name(cfg, k, icache_side), k + 1, side, (ULong)l.size, l.assoc, l.line,
                 (ULong)(l.size / l.line / l.assoc), replacement_name(l.replacement),
                 write_policy_name(l.write), inclusion_name(l.inclusion), l.latency);
    if (l.prefetch.kinds) {
        char kinds[32];
        prefetch_kinds_text(l.prefetch.kinds, kinds);
        VG_(fprintf)(fp, " prefetch=\"%s\" prefetch-degree=\"%u\" prefetch-table=\"%u\" prefetch-streams=\"%u\"",
                     kinds, l.prefetch.degree, l.prefetch.stride_entries, l.prefetch.stream_entries);
    }
    VG_(fprintf)(fp, "/>\n");
}

void put_tlbs(VgFile* fp, const TlbConfig& t) {
    if (t.levels == 0) return;
    VG_(fprintf)(fp, "    <tlbs page-size=\"%llu\" walk-latency=\"%u\">\n", (ULong)t.page_size, t.walk_latency);
    for (int k = 0; k < t.levels; ++k)
        VG_(fprintf)(fp, "      <tlb name=\"DTLB%d\" level=\"%d\" entries=\"%u\" assoc=\"%u\" latency=\"%u\"/>\n",
                     k + 1, k + 1, t.level[k].entries, t.level[k].assoc, t.level[k].latency);
    VG_(fprintf)(fp, "    </tlbs>\n");
}

void put_tlb_stats(VgFile* fp, const TlbConfig& t) {
    for (int k = 0; k < t.levels; ++k) {
        TlbStats s = sim::tlb_totals(k);
        VG_(fprintf)(fp, "    <tlb-stats name=\"DTLB%d\" refs=\"%llu\" misses=\"%llu\"/>\n", k + 1,
                     (ULong)s.refs, (ULong)s.misses);
    }
}

void put_stats(VgFile* fp, const HChar* name, const LevelStats& s) {
    put_stats_open(fp, "    ", name, s);
    VG_(fprintf)(fp, "/>\n");
}

// Cachegrind's model keeps no per-cache counters: they follow from its
// counting rules (one reference per access at L1, LL referenced by the L1
// misses), so they are derived from the program totals.
void cachegrind_stats(const Totals& t, LevelStats out[3]) {
    VG_(memset)(out, 0, 3 * sizeof(LevelStats));
    ULong im1 = misses_at(t.ir_served, 2, 0), iml = misses_at(t.ir_served, 2, 1);
    ULong rm1 = misses_at(t.dr_served, 2, 0), rml = misses_at(t.dr_served, 2, 1);
    ULong wm1 = misses_at(t.dw_served, 2, 0), wml = misses_at(t.dw_served, 2, 1);
    out[0].refs[kFetch] = t.ir, out[0].misses[kFetch] = im1;                         // I1
    out[1].refs[kRead] = t.dr, out[1].misses[kRead] = rm1;                           // D1
    out[1].refs[kWrite] = t.dw, out[1].misses[kWrite] = wm1;
    out[2].refs[kFetch] = im1, out[2].misses[kFetch] = iml;                          // LL
    out[2].refs[kRead] = rm1, out[2].misses[kRead] = rml;
    out[2].refs[kWrite] = wm1, out[2].misses[kWrite] = wml;
}

bool is_zero(const LineCC& cc) { return cc.ir == 0 && cc.dr == 0 && cc.dw == 0; }

}  // namespace

void put_stats_open(VgFile* fp, const HChar* indent, const HChar* name, const LevelStats& s) {
    VG_(fprintf)(fp, "%s<cache-stats name=\"%s\" fetch-refs=\"%llu\" fetch-misses=\"%llu\" "
                     "read-refs=\"%llu\" read-misses=\"%llu\" write-refs=\"%llu\" write-misses=\"%llu\" "
                     "writeback-refs=\"%llu\" writeback-misses=\"%llu\" evictions=\"%llu\" "
                     "writebacks=\"%llu\" back-invalidations=\"%llu\" victims-in=\"%llu\"",
                 indent, name, (ULong)s.refs[kFetch], (ULong)s.misses[kFetch], (ULong)s.refs[kRead],
                 (ULong)s.misses[kRead], (ULong)s.refs[kWrite], (ULong)s.misses[kWrite],
                 (ULong)s.refs[kWriteback], (ULong)s.misses[kWriteback], (ULong)s.evictions,
                 (ULong)s.writebacks, (ULong)s.back_invalidations, (ULong)s.victims_in);
    // With prefetchers anywhere, every cache-stats has their five counters.
    if (!sim::g_config.cachegrind && has_prefetchers(sim::g_config))
        VG_(fprintf)(fp, " prefetch-refs=\"%llu\" prefetch-misses=\"%llu\" prefetches-issued=\"%llu\" "
                         "prefetches-useful=\"%llu\" prefetches-polluting=\"%llu\"",
                     (ULong)s.refs[kPrefetch], (ULong)s.misses[kPrefetch], (ULong)s.prefetches_issued,
                     (ULong)s.prefetches_useful, (ULong)s.prefetches_polluting);
    // --classify-misses: the four classes of the demand misses.
    if (!sim::g_config.cachegrind && sim::g_machine.classifying())
        VG_(fprintf)(fp, " miss-compulsory=\"%llu\" miss-capacity=\"%llu\" miss-conflict=\"%llu\" miss-coherence=\"%llu\"",
                     (ULong)s.miss_class[kCompulsory], (ULong)s.miss_class[kCapacity],
                     (ULong)s.miss_class[kConflict], (ULong)s.miss_class[kCoherenceClass]);
}

void put_line_costs(VgFile* fp, const LineCC& cc, const HierarchyConfig& cfg) {
    Costs c;
    costs_of(cc, cfg, c);
    put_costs(fp, c, event_count(cfg));
}

ULong cycles_of(const LineCC& cc, const HierarchyConfig& cfg) {
    ULong cycles = cc.ir * (ULong)cfg.cpi_x100 / 100;
    for (int d = 1; d <= cfg.levels; ++d) {
        ULong lat = d < cfg.levels ? cfg.level[d].latency : cfg.memory_latency;
        cycles += (cc.ir_served[d] + cc.dr_served[d] + cc.dw_served[d]) * lat;
    }
    // Translations: each costs the latency of the TLB level that served it,
    // or the walk (tlb[1] missed DTLB1, tlb[2] missed DTLB2 as well).
    const TlbConfig& t = cfg.tlb;
    if (t.levels >= 1) {
        ULong walks = cc.tlb[t.levels];
        cycles += (cc.tlb[0] - cc.tlb[1]) * t.level[0].latency + walks * t.walk_latency;
        if (t.levels == 2) cycles += (cc.tlb[1] - cc.tlb[2]) * t.level[1].latency;
    }
    return cycles;
}

bool write_profile(const HChar* path, const RunInfo& run, const HierarchyConfig& cfg,
                   const HChar* machine_name, LineCC** ccs, UInt n) {
    outfiles::Output out;
    if (!outfiles::open(out, "--output-file", path)) return false;
    VgFile* fp = out.fp;
    int ne = event_count(cfg);
    Costs c;

    VG_(fprintf)(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    VG_(fprintf)(fp, "<ompsim-profile format-version=\"1\" tool=\"ompsim\" tool-version=\"%s\">\n",
                 PACKAGE_VERSION);
    VG_(fprintf)(fp, "  <run complete=\"%s\" termination=\"%s\" exit-status=\"%d\" signal=\"%d\" label=\"",
                 yes_no(run.complete), run.termination, run.exit_status, run.signal);
    put_xml_escaped(fp, run.label);
    VG_(fprintf)(fp, "\" dump=\"%llu\" deterministic=\"%s\">\n", run.dump,
                 yes_no(run_deterministic(omp::options())));
    VG_(fprintf)(fp, "    <command exe=\"");
    put_xml_escaped(fp, VG_(args_the_exename));
    VG_(fprintf)(fp, "\">");
    for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); ++i) {
        VG_(fprintf)(fp, "<arg>");
        put_xml_escaped(fp, *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
        VG_(fprintf)(fp, "</arg>");
    }
    VG_(fprintf)(fp, "</command>\n");
    put_determinism(fp, omp::options());
    warnings::put_xml(fp);  // the limits the run reached (docs/limits.md)
    VG_(fprintf)(fp, "  </run>\n");

    VG_(fprintf)(fp, "  <machine name=\"");
    put_xml_escaped(fp, machine_name);
    VG_(fprintf)(fp, "\" model=\"%s\" levels=\"%d\" split-l1=\"%s\" icache=\"%s\" random-seed=\"%llu\" "
                     "cpi=\"%u.%02u\" memory-latency=\"%u\"",
                 cfg.cachegrind ? "cachegrind" : "hierarchy", cfg.levels, yes_no(cfg.split_l1),
                 yes_no(cfg.icache), (ULong)cfg.random_seed, cfg.cpi_x100 / 100, cfg.cpi_x100 % 100,
                 cfg.memory_latency);
    put_machine_cores(fp, cfg);
    VG_(fprintf)(fp, ">\n");
    for (int k = 0; k < cfg.levels; ++k) {
        if (k == 0 && cfg.split_l1) put_cache(fp, cfg, 0, true);
        put_cache(fp, cfg, k, false);
    }
    put_tlbs(fp, cfg.tlb);
    VG_(fprintf)(fp, "  </machine>\n  <events>");
    put_event_names(fp, cfg);
    VG_(fprintf)(fp, "</events>\n");

    // Totals are the sum of the per-line vectors (cycles included), so a
    // reader can check them.
    Costs total;
    VG_(memset)(&total, 0, sizeof total);
    Totals t;
    VG_(memset)(&t, 0, sizeof t);
    for (UInt i = 0; i < n; ++i) {
        if (is_zero(*ccs[i])) continue;
        costs_of(*ccs[i], cfg, c);
        for (int e = 0; e < ne; ++e) total.v[e] += c.v[e];
        add_totals(t, *ccs[i]);
    }
    VG_(fprintf)(fp, "  <totals>\n    <costs>");
    put_costs(fp, total, ne);
    VG_(fprintf)(fp, "</costs>\n");
    if (cfg.cachegrind) {
        LevelStats s[3];
        cachegrind_stats(t, s);
        put_stats(fp, "I1", s[0]);
        put_stats(fp, "D1", s[1]);
        put_stats(fp, "LL", s[2]);
        VG_(fprintf)(fp, "    <memory reads=\"%llu\" writes=\"0\"/>\n",
                     s[2].misses[kFetch] + s[2].misses[kRead] + s[2].misses[kWrite]);
    } else {
        const CoherentMachine& h = sim::g_machine;
        for (int k = 0; k < cfg.levels; ++k) {
            if (k == 0 && cfg.split_l1) put_stats(fp, level_name(cfg, 0, true), h.total_stats(0, true));
            put_stats(fp, level_name(cfg, k, false), h.total_stats(k, false));
        }
        VG_(fprintf)(fp, "    <memory reads=\"%llu\" writes=\"%llu\"/>\n", (ULong)h.memory_reads(),
                     (ULong)h.memory_writes());
        put_coherence_totals(fp, cfg);
        put_tlb_stats(fp, cfg.tlb);
    }
    VG_(fprintf)(fp, "  </totals>\n  <program>\n");

    // The cost centres come sorted by file, function, line: each run of
    // equal (file, function) is one function region.
    const HChar* open_file = nullptr;
    UInt i = 0;
    while (i < n) {
        UInt j = i;
        Costs region;
        VG_(memset)(&region, 0, sizeof region);
        UInt first = 0, last = 0;
        bool any = false;
        for (; j < n && ccs[j]->file == ccs[i]->file && ccs[j]->fn == ccs[i]->fn; ++j) {
            if (is_zero(*ccs[j])) continue;
            costs_of(*ccs[j], cfg, c);
            for (int e = 0; e < ne; ++e) region.v[e] += c.v[e];
            if (!any) first = ccs[j]->line;
            last = ccs[j]->line;
            any = true;
        }
        if (any) {
            if (open_file != ccs[i]->file) {
                if (open_file) VG_(fprintf)(fp, "    </file>\n");
                open_file = ccs[i]->file;
                VG_(fprintf)(fp, "    <file path=\"");
                put_xml_escaped(fp, open_file);
                VG_(fprintf)(fp, "\">\n");
            }
            VG_(fprintf)(fp, "      <region type=\"function\" name=\"");
            put_xml_escaped(fp, ccs[i]->fn);
            VG_(fprintf)(fp, "\" first-line=\"%u\" last-line=\"%u\">\n        <costs>", first, last);
            put_costs(fp, region, ne);
            VG_(fprintf)(fp, "</costs>\n");
            for (UInt k = i; k < j; ++k) {
                if (is_zero(*ccs[k])) continue;
                costs_of(*ccs[k], cfg, c);
                VG_(fprintf)(fp, "        <line number=\"%u\">", ccs[k]->line);
                put_costs(fp, c, ne);
                VG_(fprintf)(fp, "</line>\n");
            }
            VG_(fprintf)(fp, "      </region>\n");
        }
        i = j;
    }
    if (open_file) VG_(fprintf)(fp, "    </file>\n");
    VG_(fprintf)(fp, "  </program>\n");
    put_threads_and_cores(fp, cfg);
    // The data-structure columns are the document's Dr.. and Dw.. events.
    HChar ds_events[8 * (2 * kMaxLevels + 2)];
    ds_events[0] = 0;
    for (int i = cfg.levels + 1; i < 3 * (cfg.levels + 1); ++i) {
        HChar name[16];
        event_name(cfg, i, name);
        if (ds_events[0]) VG_(strcat)(ds_events, " ");
        VG_(strcat)(ds_events, name);
    }
    ds::write_xml(fp, cfg, ds_events);
    put_region_profile(fp, cfg);
    VG_(fprintf)(fp, "</ompsim-profile>\n");
    // Only a document that reached the disk whole is announced.
    if (!outfiles::commit(out, "</ompsim-profile>")) return false;
    if (VG_(clo_verbosity) > 0) VG_(umsg)("Profile document: %s\n", path);
    return true;
}

}  // namespace ompsim
