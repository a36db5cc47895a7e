// Writes the profile document (format: sir/Document.h, docs/output-format.md)
// from inside the tool, without libc: the same bytes sir::to_xml produces for
// the same content, so a baseline compares byte for byte.
#ifndef OMPSIM_VGTOOL_PROFILEWRITER_H
#define OMPSIM_VGTOOL_PROFILEWRITER_H

#include "CacheConfig.h"
#include "CostCentres.h"
#include "LevelStats.h"

namespace ompsim {

struct RunInfo {
    bool complete;
    const HChar* termination;  // "exit", "signal" or "dump"
    Int exit_status;
    Int signal;                // 0 when unknown
    const HChar* label;        // "final" or the dump label
    ULong dump;                // dumps written before this document
};

// Writes the document to `path` (through outfiles: whole or not at all);
// false (and one line on stderr) if it cannot be written.
bool write_profile(const HChar* path, const RunInfo& run, const HierarchyConfig& cfg,
                   const HChar* machine_name, LineCC** ccs, UInt n);

// Writes s with & < > " escaped and control bytes replaced by '?'.
void put_xml_escaped(VgFile* fp, const HChar* s);

// `<cache-stats name=.. ...` without the closing "/>" (callers add attributes).
void put_stats_open(VgFile* fp, const HChar* indent, const HChar* name, const LevelStats& s);
// The document's event names, separated by one space (as in <events>).
void put_event_names(VgFile* fp, const HierarchyConfig& cfg);
// The cost vector of one cost centre, in <events> order.
void put_line_costs(VgFile* fp, const LineCC& cc, const HierarchyConfig& cfg);

// Simulated cycles of one cost centre (see sir/Document.h: CPI x Ir plus the
// latency of the serving level for every reference that missed level 1).
ULong cycles_of(const LineCC& cc, const HierarchyConfig& cfg);

}  // namespace ompsim

#endif
