#include "Reports.h"

#include "OutputFiles.h"
#include "SimHelpers.h"

namespace ompsim {

void add_totals(Totals& t, const LineCC& cc) {
    t.ir += cc.ir;
    t.dr += cc.dr;
    t.dw += cc.dw;
    for (int d = 0; d <= kMaxLevels; ++d) {
        t.ir_served[d] += cc.ir_served[d];
        t.dr_served[d] += cc.dr_served[d];
        t.dw_served[d] += cc.dw_served[d];
    }
    for (int i = 0; i < 3; ++i) t.tlb[i] += cc.tlb[i];
}

namespace {

UInt width_of(ULong n) {
    UInt w = 1;
    while (n >= 10) { n /= 10; ++w; }
    return w + (w - 1) / 3;  // room for thousands separators
}

double pct(ULong part, ULong whole) { return whole ? part * 100.0 / whole : 0.0; }

void describe_size(HChar* buf, ULong bytes) {
    if (bytes % (1024ULL * 1024) == 0)
        VG_(sprintf)(buf, "%llu MiB", bytes / (1024ULL * 1024));
    else if (bytes % 1024 == 0)
        VG_(sprintf)(buf, "%llu KiB", bytes / 1024);
    else
        VG_(sprintf)(buf, "%llu B", bytes);
}

void print_level(const HierarchyConfig& cfg, int k, bool icache_side) {
    const LevelConfig& l = (k == 0 && icache_side) ? cfg.i1 : cfg.level[k];
    HChar size[32];
    describe_size(size, l.size);
    u64 sets = l.size / l.line / l.assoc;
    if (cfg.cachegrind) {
        VG_(umsg)("  %-3s %s, %u B lines, %u-way, %llu sets\n", level_name(cfg, k, icache_side), size,
                  l.line, l.assoc, sets);
        return;
    }
    VG_(umsg)("  %-3s %s, %u B lines, %u-way, %llu sets, %s, %s, %s, %u cycles\n",
              level_name(cfg, k, icache_side), size, l.line, l.assoc, sets,
              replacement_name(l.replacement), write_policy_name(l.write), inclusion_name(l.inclusion),
              l.latency);
}

// Cachegrind's own end-of-run summary, so users comparing the two tools see
// the same lines.
void print_cachegrind_summary(const Totals& t) {
    ULong ir_m1 = misses_at(t.ir_served, 2, 0), ir_ml = misses_at(t.ir_served, 2, 1);
    ULong dr_m1 = misses_at(t.dr_served, 2, 0), dr_ml = misses_at(t.dr_served, 2, 1);
    ULong dw_m1 = misses_at(t.dw_served, 2, 0), dw_ml = misses_at(t.dw_served, 2, 1);
    UInt l1 = width_of(t.ir), l2 = width_of(t.dr), l3 = width_of(t.dw);
    HChar fmt[128];
    VG_(sprintf)(fmt, "%%s %%,%ullu\n", l1);
    VG_(umsg)(fmt, "I refs:       ", t.ir);
    VG_(umsg)(fmt, "I1  misses:   ", ir_m1);
    VG_(umsg)(fmt, "LLi misses:   ", ir_ml);
    VG_(umsg)("I1  miss rate: %*.2f%%\n", l1, pct(ir_m1, t.ir ? t.ir : 1));
    VG_(umsg)("LLi miss rate: %*.2f%%\n", l1, pct(ir_ml, t.ir ? t.ir : 1));
    VG_(umsg)("\n");
    VG_(sprintf)(fmt, "%%s %%,%ullu  (%%,%ullu rd   + %%,%ullu wr)\n", l1, l2, l3);
    ULong d = t.dr + t.dw;
    VG_(umsg)(fmt, "D refs:       ", d, t.dr, t.dw);
    VG_(umsg)(fmt, "D1  misses:   ", dr_m1 + dw_m1, dr_m1, dw_m1);
    VG_(umsg)(fmt, "LLd misses:   ", dr_ml + dw_ml, dr_ml, dw_ml);
    VG_(umsg)("D1  miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n", l1, pct(dr_m1 + dw_m1, d ? d : 1),
              l2, pct(dr_m1, t.dr ? t.dr : 1), l3, pct(dw_m1, t.dw ? t.dw : 1));
    VG_(umsg)("LLd miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n", l1, pct(dr_ml + dw_ml, d ? d : 1),
              l2, pct(dr_ml, t.dr ? t.dr : 1), l3, pct(dw_ml, t.dw ? t.dw : 1));
    VG_(umsg)("\n");
    VG_(umsg)(fmt, "LL refs:      ", ir_m1 + dr_m1 + dw_m1, ir_m1 + dr_m1, dw_m1);
    VG_(umsg)(fmt, "LL misses:    ", ir_ml + dr_ml + dw_ml, ir_ml + dr_ml, dw_ml);
    VG_(umsg)("LL miss rate:  %*.1f%% (%*.1f%%     + %*.1f%%  )\n", l1,
              pct(ir_ml + dr_ml + dw_ml, t.ir + d ? t.ir + d : 1), l2,
              pct(ir_ml + dr_ml, t.ir + t.dr ? t.ir + t.dr : 1), l3, pct(dw_ml, t.dw ? t.dw : 1));
}

void print_level_row(const HChar* name, const HChar* kind, ULong refs, ULong misses) {
    VG_(umsg)("  %-4s %-9s %,18llu %,16llu %8.2f%%\n", name, kind, refs, misses, pct(misses, refs));
}

void print_hierarchy_summary(const HierarchyConfig& cfg, const Totals& t) {
    const CoherentMachine& h = sim::g_machine;
    VG_(umsg)("Instructions:     %,llu\n", t.ir);
    VG_(umsg)("Data reads:       %,llu\n", t.dr);
    VG_(umsg)("Data writes:      %,llu\n", t.dw);
    VG_(umsg)("\n");
    VG_(umsg)("  %-4s %-9s %18s %16s %9s\n", "", "", "line refs", "misses", "miss rate");
    static const HChar* const kinds[kNumKinds] = {"fetch", "read", "write", "writeback", "prefetch"};
    for (int k = 0; k < cfg.levels; ++k) {
        for (int side = 0; side < 2; ++side) {
            bool icache_side = side == 0;
            if (icache_side && !(k == 0 && cfg.split_l1)) continue;
            LevelStats s = h.total_stats(k, icache_side);
            const HChar* name = level_name(cfg, k, icache_side);
            for (unsigned kind = 0; kind < kNumKinds; ++kind) {
                if (s.refs[kind] == 0) continue;
                print_level_row(name, kinds[kind], s.refs[kind], s.misses[kind]);
            }
            if (s.evictions || s.writebacks || s.back_invalidations || s.victims_in)
                VG_(umsg)("  %-4s evictions %,llu, write-backs %,llu, back-invalidations %,llu, victims in %,llu\n",
                          name, s.evictions, s.writebacks, s.back_invalidations, s.victims_in);
            if (s.prefetches_issued)
                VG_(umsg)("  %-4s prefetches issued %,llu, useful %,llu, evicted unused %,llu\n", name,
                          s.prefetches_issued, s.prefetches_useful, s.prefetches_polluting);
        }
    }
    VG_(umsg)("  %-4s lines read %,llu, lines written %,llu\n", "mem", h.memory_reads(),
              h.memory_writes());
    for (int k = 0; k < cfg.tlb.levels; ++k) {
        TlbStats ts = sim::tlb_totals(k);
        print_level_row(k ? "TLB2" : "TLB1", "lookup", ts.refs, ts.misses);
    }
}

}  // namespace

void print_machine(const HierarchyConfig& cfg, const HChar* machine_name) {
    VG_(umsg)("Machine: %s%s, %d level%s%s\n", machine_name,
              cfg.cachegrind ? " (Cachegrind-compatible model)" : "", cfg.levels,
              cfg.levels == 1 ? "" : "s", cfg.split_l1 ? ", split L1" : ", unified L1");
    for (int k = 0; k < cfg.levels; ++k) {
        if (k == 0 && cfg.split_l1) print_level(cfg, 0, true);
        print_level(cfg, k, false);
    }
}

void print_summary(const HierarchyConfig& cfg, const Totals& t) {
    if (cfg.cachegrind)
        print_cachegrind_summary(t);
    else
        print_hierarchy_summary(cfg, t);
}

bool write_cachegrind_file(const HChar* path_template, const HierarchyConfig& cfg, LineCC** ccs,
                           UInt n) {
    const HChar* option = "--cachegrind-out-file";
    HChar* path = VG_(expand_file_name)(option, path_template);
    outfiles::Output out;
    if (!outfiles::may_write(option, path_template, path, true) || !outfiles::open(out, option, path)) {
        VG_(free)(path);
        return false;
    }
    VgFile* fp = out.fp;
    int levels = cfg.levels;
    for (int k = 0; k < levels; ++k) {
        for (int side = 0; side < 2; ++side) {
            bool icache_side = side == 0;
            if (icache_side && !(k == 0 && cfg.split_l1)) continue;
            const LevelConfig& l = icache_side ? cfg.i1 : cfg.level[k];
            const HChar* name = level_name(cfg, k, icache_side);
            HChar label[16];
            VG_(sprintf)(label, "%s cache:", name);
            if (l.assoc == 1)
                VG_(fprintf)(fp, "desc: %-18s %llu B, %u B, direct-mapped\n", label, l.size, l.line);
            else
                VG_(fprintf)(fp, "desc: %-18s %llu B, %u B, %u-way associative\n", label, l.size,
                             l.line, l.assoc);
        }
    }
    VG_(fprintf)(fp, "cmd: %s", VG_(args_the_exename));
    for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); ++i)
        VG_(fprintf)(fp, " %s", *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
    VG_(fprintf)(fp, "\nevents: Ir");
    // Cachegrind's names in Cachegrind mode; I<k>mr/D<k>mr/D<k>mw otherwise.
    auto names = [&](const HChar* prefix, const HChar* suffix) {
        for (int k = 0; k < levels; ++k) {
            if (cfg.cachegrind && k == 1)
                VG_(fprintf)(fp, " %sL%s", prefix, suffix);
            else
                VG_(fprintf)(fp, " %s%d%s", prefix, k + 1, suffix);
        }
    };
    names("I", "mr");
    VG_(fprintf)(fp, " Dr");
    names("D", "mr");
    VG_(fprintf)(fp, " Dw");
    names("D", "mw");
    VG_(fprintf)(fp, "\n");

    Totals t;
    VG_(memset)(&t, 0, sizeof t);
    const HChar* cur_file = nullptr;
    const HChar* cur_fn = nullptr;
    for (UInt i = 0; i < n; ++i) {
        const LineCC& cc = *ccs[i];
        if (cc.ir == 0 && cc.dr == 0 && cc.dw == 0) continue;
        bool new_file = cc.file != cur_file;
        if (new_file) {
            cur_file = cc.file;
            VG_(fprintf)(fp, "fl=%s\n", cur_file);
        }
        if (new_file || cc.fn != cur_fn) {
            cur_fn = cc.fn;
            VG_(fprintf)(fp, "fn=%s\n", cur_fn);
        }
        VG_(fprintf)(fp, "%u %llu", cc.line, cc.ir);
        for (int k = 0; k < levels; ++k) VG_(fprintf)(fp, " %llu", misses_at(cc.ir_served, levels, k));
        VG_(fprintf)(fp, " %llu", cc.dr);
        for (int k = 0; k < levels; ++k) VG_(fprintf)(fp, " %llu", misses_at(cc.dr_served, levels, k));
        VG_(fprintf)(fp, " %llu", cc.dw);
        for (int k = 0; k < levels; ++k) VG_(fprintf)(fp, " %llu", misses_at(cc.dw_served, levels, k));
        VG_(fprintf)(fp, "\n");
        add_totals(t, cc);
    }
    VG_(fprintf)(fp, "summary: %llu", t.ir);
    for (int k = 0; k < levels; ++k) VG_(fprintf)(fp, " %llu", misses_at(t.ir_served, levels, k));
    VG_(fprintf)(fp, " %llu", t.dr);
    for (int k = 0; k < levels; ++k) VG_(fprintf)(fp, " %llu", misses_at(t.dr_served, levels, k));
    VG_(fprintf)(fp, " %llu", t.dw);
    for (int k = 0; k < levels; ++k) VG_(fprintf)(fp, " %llu", misses_at(t.dw_served, levels, k));
    VG_(fprintf)(fp, "\n");
    bool ok = outfiles::commit(out, "summary: ");
    VG_(free)(path);
    return ok;
}

}  // namespace ompsim
