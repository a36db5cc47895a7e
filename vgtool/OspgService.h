// The OSPG in the tool (docs/parallelism.md): the replay tells it what
// happens on each slot (forks, team members, chunks, tasks, barriers,
// taskwaits), the region service passes on the region events that split W
// nodes or open loop shares, and the intake the what-if annotations. Work
// is read from the replaying slot's counters (busy cycles of user code, or
// instructions), so the graph is as deterministic as the replay.
// profilers/OspgBuilder.h builds the graph, profilers/OspgAnalysis.h
// analyses it when the document is written.
#ifndef OMPSIM_VGTOOL_OSPGSERVICE_H
#define OMPSIM_VGTOOL_OSPGSERVICE_H

#include "RegionTypes.h"
#include "ReplayModel.h"
#include "ValgrindApi.h"

namespace ompsim {
namespace ospgsvc {

struct Options {
    bool enabled = true;         // --ospg=yes|no
    bool instructions = false;   // --ospg-work=cycles|instructions
    ULong burden = 15000;        // --ospg-burden=N
    UInt max_nodes = 4000000;    // --ospg-max-nodes=N (0: none)
    const HChar* log = nullptr;  // --ospg-log=FILE (expanded)
};
void configure(const Options& o);
bool enabled();

// ---- from the replay (slot: the replaying slot)
void unit_begin(u32 slot, Unit* u);   // a unit was pushed on the slot
void unit_end(u32 slot, Unit* u);     // the unit on top of the slot ended
void fork(u32 slot, Team* t);         // before the team's member 0 is pushed
void barrier(u32 slot);               // a team member reached a barrier
void task_created(u32 slot, Unit* task);
void spawned(u32 slot, u32 new_slot, Unit* thread);  // a non-OpenMP thread
void dependence(Unit* from, Unit* to);

void taskwait(u32 slot);              // taskwait or the end of a taskgroup
void whatif(u32 slot, u32 site, u32 label);  // kMkWhatIf

// ---- from the region service, after the region profiler saw the event;
// `owner`: the region the profiler gives the event to (an implicit
// barrier's construct).
void region(u32 slot, regions::RegionEvent ev, u32 region, regions::RegionType type, u32 flag, u32 owner);

// ---- from the intake (recording): what-if annotations
u32 label_id(const HChar* name);
u32 whatif_site(u32 label, bool begin, Addr where);

void zero();    // OMPSIM_ZERO_COUNTERS
void finish();  // the end of the replay

// ---- output: the <parallelism> section (`number` maps region ids to R
// numbers, 0 = not in the region profile) and, at the end of the run, the
// --ospg-log file.
void put_parallelism(VgFile* fp, const u32* number);

}  // namespace ospgsvc
}  // namespace ompsim

#endif
