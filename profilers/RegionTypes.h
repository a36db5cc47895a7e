// Region types and region events shared by the tool (which records them as
// stream markers) and the region profiler (which turns the replayed events
// into ompP's profiles, flow graphs and the OpenMP states).
//
// Compiled twice like cachesim/: freestanding into the tool and hosted.
#ifndef OMPSIM_PROFILERS_REGIONTYPES_H
#define OMPSIM_PROFILERS_REGIONTYPES_H

#include "Types.h"

namespace ompsim {
namespace regions {

// The construct kinds as ompP names them (docs/regions.md), plus REGION
// (user regions, OMPSIM_REGION_BEGIN/END) and FUNCTION (-finstrument-functions).
enum RegionType : u8 {
    kParallel,
    kLoop,
    kSections,
    kSingle,
    kMaster,
    kCritical,
    kLock,
    kBarrier,    // an explicit barrier, or an implicit one no construct owns
    kTask,
    kTaskwait,
    kTaskgroup,
    kOrdered,
    kReduction,
    kUser,
    kFunction,
    kRegionTypes
};

constexpr u32 kNoRegion = 0xffffffffu;

const char* type_name(RegionType t);
// The type whose name is `name` (as type_name gives it); kRegionTypes if none.
RegionType type_from_name(const char* name);

// What happened on a thread, in replay order (the tool's kMkRegion markers).
enum RegionEvent : u8 {
    kEnter,           // a construct starts (region, type)
    kTeamBegin,       // an implicit task of the team `team` (the parallel's region) begins
    kTeamEnd,         // that implicit task ends
    kBodyBegin,       // critical/ordered: the lock is held; single: its body starts
    kBodyEnd,         // the body ends (critical/ordered: about to release)
    kWorkEnd,         // loop/sections/single: the thread's share is done (a barrier may follow)
    kBarrierBegin,    // a barrier: implicit (flag) or explicit
    kBarrierEnd,
    kExit,            // the innermost construct ends (REGION/FUNCTION: the named one)
    kPoint,           // a point event (OMPSIM_EVENT, an MPI call) for the event flow graph
                      // only: the region profiler never sees it (RegionService.h)
    kRegionEvents
};

// The OpenMP states of the collector API (Itzkowitz et al.), one per cycle
// of every thread. Work, serial and reduction add up to "OpenMP Work"; the
// waits and overhead to "OpenMP Wait"; idle is a worker waiting for work.
enum State : u8 {
    kWork,
    kSerial,
    kReductionState,
    kImplicitBarrierWait,
    kExplicitBarrierWait,
    kTaskwaitWait,
    kLockWait,
    kCriticalWait,
    kOrderedWait,
    kOverhead,
    kIdle,
    kStates
};

const char* state_name(State s);
inline bool is_work_state(State s) { return s == kWork || s == kSerial || s == kReductionState; }

// ompP's columns (times in cycles, counts), per region and thread.
enum Column : u8 {
    kExecT,      // enter to exit
    kExecC,      // times entered
    kBodyT,      // critical/ordered: holding the lock; single: running its body;
                 // parallel: the implicit task up to its end barrier
    kBodyC,      // single: times this thread ran the body
    kEnterT,     // critical/ordered/lock: waiting to get in
    kExitT,      // critical/ordered: leaving (releasing)
    kExitBarT,   // loop/sections/single/parallel: the implicit barrier at the end
    kStartupT,   // parallel, initial thread: fork to its implicit task
    kShutdownT,  // parallel, initial thread: end of its implicit task to the join
    kTaskT,      // explicit tasks this thread ran while in the region (barrier, taskwait...)
    kColumns
};

const char* column_name(Column c);

}  // namespace regions
}  // namespace ompsim

#endif
