// Turns each superblock of guest code into one that also calls the
// simulation helpers for every instruction fetch, load and store.
#ifndef OMPSIM_VGTOOL_INSTRUMENTER_H
#define OMPSIM_VGTOOL_INSTRUMENTER_H

#include "SimHelpers.h"

namespace ompsim {

struct InstrumentConfig {
    HelperTable helpers;
    bool cachegrind;        // Cachegrind's counting rules
    unsigned fetch_line_bits;  // line size of the cache instruction fetches go to
    bool fetch_exact_single_line_check;  // false: every fetch is "single line" (no I-cache)
    bool cg_single_line_ok;  // Cachegrind: I1 and LL line sizes equal (IrNoX possible)
    UInt clamp_dirty_size;  // Cachegrind clamps dirty-helper accesses to this; 0 = no clamp
    bool track_owner;       // streaming: superblocks of the program and of the OpenMP
                            // runtime say who runs (OmpIntake.h, CodeOwner)
    // The general machine, one core, split L1 without an I1 prefetcher: a
    // fetch of the line the previous instruction of the superblock was
    // fetched from is a certain I1 hit on its most recently used way (only
    // fetches touch I1, and nothing runs between two instructions of a
    // superblock), which changes nothing but two counters: Ir of the
    // instruction's cost centre and `i1_fetch_refs`. Such fetches are
    // counted inline, without a helper call. Null: every fetch is simulated.
    ULong* i1_fetch_refs;
    // Streaming (EventStream.h) on a machine where such a fetch is a certain
    // hit for the core that runs the instruction (CoherentMachine::
    // certain_refetch): the event stream carries certain hits as counts
    // (helpers ir1k, hits and cd*) and the replay, which knows the core,
    // counts their Ir and I1 references without simulating them.
    bool stream_certain;
    // `helpers` are sim::fast_helpers(false), which do not record for the
    // monitor: instrument_monitor_started() switches to fast_helpers(true).
    bool fast_helpers;
    // Handles a heap wrapper's client request (args as the core passes
    // them), returning 1, or returns 0 for any other request. Null: every
    // client request goes through Valgrind's scheduler. Otherwise a block of
    // the heap wrappers (WrapperCode.h) that ends in a client request calls
    // it first and goes on to the next instruction when it returns 1: one
    // of a heap event's two trips through the scheduler (the other is the
    // wrapper's call of the real function) is gone.
    UWord (*heap_request)(UWord* args);
};

// A structure became monitored: from now on every access goes to helpers
// that tell the monitor (existing translations are discarded).
void instrument_monitor_started();

void instrument_init(const InstrumentConfig& cfg);

IRSB* instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                 const VexGuestExtents* vge, const VexArchInfo* archinfo_host, IRType gWordTy,
                 IRType hWordTy);

void discard_superblock(Addr orig_addr, VexGuestExtents vge);

}  // namespace ompsim

#endif
