// Which data structures the program has, found without asking: global and
// static variables from the debug information, heap blocks grouped by
// allocation site (reported by the preload library), and ranges the program
// names with OMPSIM_NAME_RANGE. Their counters live in the RangeMonitor
// (monitor/), which the simulation helpers feed with every data access.
#ifndef OMPSIM_VGTOOL_DATASTRUCTURES_H
#define OMPSIM_VGTOOL_DATASTRUCTURES_H

#include "CacheConfig.h"
#include "CoherentMachine.h"
#include "RangeMonitor.h"
#include "ValgrindApi.h"

namespace ompsim {
namespace ds {

struct Options {
    bool enabled;         // --monitor=yes|no
    u32 histogram_lines;  // --histogram-lines=k
    u32 histogram_bins;   // --histogram-bins=N
    u32 slots;            // --monitor-slots=N
    bool classify;        // --classify-misses=yes: the class columns D<k>comp ..
    bool reuse;           // --reuse-distance=yes: reuse-distance histograms
};

extern RangeMonitor g_mon;
extern bool g_on;          // some structure is monitored (--monitor=yes or a named range)
extern u32 g_thread;       // the running Valgrind thread

// Hot path: one simulated line of a data access (kind kRead or kWrite).
inline void record(u64 addr, AccessKind kind, unsigned depth) {
    if (g_on) g_mon.record_current(addr, kind, depth);
}
// The same where the caller knows the monitor is on: the one-core fast
// helpers with the monitor (sim::fast_helpers(true)) are chosen only then,
// and it never goes off.
inline void record_on(u64 addr, AccessKind kind, unsigned depth) { g_mon.record_current(addr, kind, depth); }
// What record_flags() and record_multicore() do beyond the counts: the
// extra counters of the flags (kPrefetchHit; kCoherenceMiss and
// kFalseSharing when `coherence`) and, for an observed access (kObserved:
// --classify-misses, --reuse-distance), the miss classes of the levels it
// missed and its reuse distance on the current core's stack.
void record_events(u64 addr, u32 r, bool coherence);
// The same with the flags the general machine returned (CoherentMachine.h):
// a prefetch hit also counts in the structure's Dpf column.
inline void record_flags(u64 addr, AccessKind kind, u32 r) {
    if (g_on) {
        g_mon.record_current(addr, kind, r & kDepthMask);
        if (r & (kPrefetchHit | kObserved)) record_events(addr, r, false);
    }
}
// A translation of the page of addr that missed DTLB1 (depth 1) or every
// TLB level of two (depth 2).
// Where a reference of the current thread at addr counts, for the miss
// worker to add its depth later (RangeMonitor::locate_current()); false
// if nothing counts it.
inline bool locate(u64 addr, AccessKind kind, ULong** row, ULong** hist) {
    return g_on && g_mon.locate_current(addr, kind, reinterpret_cast<u64**>(row), reinterpret_cast<u64**>(hist));
}
inline void record_tlb(u64 addr, u32 depth) {
    if (g_on) g_mon.record_extra(addr, (1u << kExtraTlb1Miss) | (depth > 1 ? 1u << kExtraTlb2Miss : 0u));
}

// Multi-core machine (replay): one line of an access with the flags the
// machine returned (CoherentMachine.h); coherence misses are counted per
// structure as well.
// Inline: the replay calls it for every data access with the monitor on,
// and the call was a tenth of what the monitor cost there.
inline void record_multicore(u64 addr, AccessKind kind, unsigned depth, u32 flags) {
    if (!g_on) return;
    g_mon.record_current(addr, kind, depth);
    if (flags & (kCoherenceMiss | kFalseSharing | kPrefetchHit | kObserved)) record_events(addr, flags, true);
}

void init(const Options& o, const HierarchyConfig& cfg);
void set_thread(ThreadId tid);
// Replay: accesses from now on are replay slot `slot`'s (OpenMP thread
// `slot` of the outermost team). Its rows are numbered slot + 1, so the
// initial thread (Valgrind thread 1) and slot 0 share one row.
void set_replay_thread(u32 slot);
// Replay: the accesses from now on are simulated on `core` (its reuse stack).
void set_core(u32 core);
// The document gets the coherence columns (Dcm Dfs) from now on.
void enable_coherence_columns();

// Client requests.
// Whether heap blocks become data structures (--monitor=yes); if not, the
// heap requests change nothing and need no replay before them.
bool tracks_heap();
void heap_alloc(ThreadId tid, Addr p, SizeT n);
void heap_free(Addr p);
void name_range(Addr p, SizeT n, const HChar* name);
void forget_range(Addr p);
void set_resolution(Addr p, UInt lines, UInt bins);
// OMPSIM_ZERO_COUNTERS: every structure's counts and histogram restart.
void zero();

// For ePAPI: a user-named range (switching the monitor on), and the global
// or named range that is exactly [p, p+n). kMonitorNoStructure if none.
u32 add_user_range(Addr p, SizeT n, const HChar* name);
u32 find_range(Addr p, SizeT n);

// Memory events: globals of newly mapped objects; unmapped memory loses
// whatever was monitored there.
void new_mapping(Addr a, SizeT len, ULong di_handle);
void unmapped(Addr a, SizeT len);

// Whether the object file at `path` is the program's own: its globals are
// monitored. System libraries and ompsim's client-side objects are not.
bool program_object(const HChar* path);

// The <data-structures> section of the document (docs/output-format.md);
// `events` names the cost columns ("Dr D1mr .. Dw D1mw ..").
void write_xml(VgFile* fp, const HierarchyConfig& cfg, const HChar* events);

}  // namespace ds
}  // namespace ompsim

#endif
