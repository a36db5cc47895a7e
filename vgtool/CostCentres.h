// Code-centric costs: one LineCC per (file, function, line), one InstrInfo
// per guest instruction of every translated superblock. The simulation
// helpers receive an InstrInfo* and bump its LineCC, as Cachegrind does, so
// attributing a cost to a source line costs one pointer load at run time.
#ifndef OMPSIM_VGTOOL_COSTCENTRES_H
#define OMPSIM_VGTOOL_COSTCENTRES_H

#include "CacheConfig.h"
#include "ValgrindApi.h"

namespace ompsim {

// served[d] counts the line references that level index d-1 missed and
// depth d served (d = 1 .. levels; levels = memory). A miss at level k
// (0-based) is therefore the sum of served[k+1 ..]. Hits (d = 0) are not
// recorded: served[0] stays 0.
struct LineCC {
    const HChar* file;
    const HChar* fn;
    UInt line;
    ULong ir, dr, dw;  // instructions, data reads, data writes executed
    ULong ir_served[kMaxLevels + 1];
    ULong dr_served[kMaxLevels + 1];
    ULong dw_served[kMaxLevels + 1];
    // Data TLBs (zero without): translations looked up, of which missed
    // DTLB1 (T1m), of which missed DTLB2 too (T2m; with one level, 0).
    ULong tlb[3];
};

struct InstrInfo {
    Addr addr;
    UInt len;
    // How many of the superblock's next InstrInfos share this one's cost
    // centre, one after another: a run of certain I1 hits in a stream may
    // cross cost centres, and the replay adds its Ir one cost centre at a
    // time (CoreSim.cpp, run_ir_by_cc()). In what was padding.
    UInt same_cc_next;
    LineCC* cc;
};

// The certain I1 hits of one straight-line piece of a translation
// (Instrumenter.cpp, flush_hits()). The generated code counts the piece's
// runs, one addition; settle_hits() adds runs times `n` to each listed cost
// centre's Ir and runs times `hits` to the I1 reference counter. Before,
// the code added to every cost centre of the piece and to the I1 counter:
// a load, an add and a store each (with the address loaded twice, VEX
// keeping no constant in a register), 223 M of the 739 M instructions of
// containers 25000 2's generated code (bench/self_profile.sh).
struct HitPiece {
    HitPiece* next;  // the translation's next piece
    ULong runs;      // added to by the generated code
    ULong settled;   // runs already added to the counters
    ULong* i1_refs;  // the I1 reference counter, or null
    ULong hits;      // certain hits per run
    UInt slot;       // in the list of live pieces (CostCentres.cpp)
    UInt n;
    struct Share {
        LineCC* cc;
        ULong n;  // of the hits, this cost centre's instructions
    } share[0];
};

struct SBInfo {
    Addr sb_addr;  // key, must be first
    Int n_instrs;
    HitPiece* pieces;
    InstrInfo instrs[0];
};

namespace cost {

void init();
// The LineCC of the source line containing `instr_addr` (created if new).
LineCC* line_cc(Addr instr_addr);
// A zeroed InstrInfo array for a new translation of the superblock at
// `sb_addr` with `n_instrs` guest instructions.
SBInfo* new_sb_info(Addr sb_addr, Int n_instrs);
void discard_sb_info(Addr sb_addr);
// A new piece of `n` shares for the translation `sb` (zeroed but for n).
HitPiece* new_hit_piece(SBInfo* sb, UInt n);
// Adds the runs of every piece since the last call to the counters. Every
// reader of the cost centres (for_each(), sorted(), zero_all()) does this
// first, and so does a discard.
void settle_hits();
// While on, discarded InstrInfo arrays are kept (events in the streams point
// at them) until free_discarded().
void defer_discards(bool on);
void free_discarded();

// Calls f(cc, ctx) for every LineCC, in no particular order.
void for_each(void (*f)(const LineCC& cc, void* ctx), void* ctx);

// Zeroes every LineCC's counters (OMPSIM_ZERO_COUNTERS).
void zero_all();

// All LineCCs sorted by file, function, line (deterministic output order).
// Returns a VG_(malloc)ed array the caller frees.
LineCC** sorted(UInt* count);

}  // namespace cost
}  // namespace ompsim

#endif
