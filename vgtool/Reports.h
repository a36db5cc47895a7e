// What the tool writes at exit: the readable per-level summary on stderr and,
// on request, a Cachegrind-format file for cg_annotate / KCachegrind.
#ifndef OMPSIM_VGTOOL_REPORTS_H
#define OMPSIM_VGTOOL_REPORTS_H

#include "CacheConfig.h"
#include "CostCentres.h"

namespace ompsim {

// Program-wide totals summed over all LineCCs.
struct Totals {
    ULong ir, dr, dw;
    ULong ir_served[kMaxLevels + 1];
    ULong dr_served[kMaxLevels + 1];
    ULong dw_served[kMaxLevels + 1];
    ULong tlb[3];
};

void add_totals(Totals& t, const LineCC& cc);

// Misses at 0-based level k of the served histogram (see LineCC).
inline ULong misses_at(const ULong* served, int levels, int k) {
    ULong m = 0;
    for (int d = k + 1; d <= levels; ++d) m += served[d];
    return m;
}

void print_machine(const HierarchyConfig& cfg, const HChar* machine_name);
void print_summary(const HierarchyConfig& cfg, const Totals& t);
// Returns false if the file could not be written (message already printed).
bool write_cachegrind_file(const HChar* path_template, const HierarchyConfig& cfg, LineCC** ccs,
                           UInt n);

}  // namespace ompsim

#endif
