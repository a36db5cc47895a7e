// The recording side of OpenMP support: turns the preload's OpenMP events
// (OmpEvents.h) and Valgrind's thread events into logical units, streams and
// markers (ReplayModel.h), and decides which stream the running thread
// records into. docs/openmp.md describes the rules; the important ones:
//  - an implicit task, a dynamic chunk, a single body and an explicit task
//    each get their own stream, so the replay can give them to a core by
//    their logical identity (thread number, iteration range, creation order);
//  - while a thread waits (barrier, lock, taskwait...) it records nothing
//    unless it runs a task there; worker threads outside implicit tasks
//    record nothing (the runtime's pool);
//  - runtime code itself is never instrumented unless --simulate-runtime=yes.
#ifndef OMPSIM_VGTOOL_OMPINTAKE_H
#define OMPSIM_VGTOOL_OMPINTAKE_H

#include "ReplayModel.h"

namespace ompsim {
namespace omp {

struct Options {
    bool simulate_runtime;  // --simulate-runtime
    bool trace;             // --trace-omp: one line per OpenMP event on stderr
};

void init(const Options& o);
const Options& options();
// True once the program has more than one thread or an OpenMP runtime: the
// helpers record into streams from then on.
bool streaming();
// Switches to streaming (idempotent); the caller installs the stream helpers.
// Returns true if it was not streaming before.
bool start_streaming();

// Client request OMPSIM_USERREQ_OMP_EVENT from thread `tid`.
void handle_event(ThreadId tid, const UWord* args);
// OMPSIM_REGION_BEGIN/END of thread `tid` (name: a string in the client;
// where: the request's code address).
void user_region(ThreadId tid, bool begin, const HChar* name, Addr where);
// OMPSIM_EVENT of thread `tid` (an MPI call reported by the preload too): a
// point event for the event flow graph, `partner` < 0 for none.
void point_event(ThreadId tid, const HChar* name, ULong size, Long partner, Addr where);
// OMPSIM_WHATIF_BEGIN/END(label) at `where` (OspgService.h).
void whatif(ThreadId tid, bool begin, const HChar* label, Addr where);
// Valgrind's thread events.
void thread_created(ThreadId parent, ThreadId child);
void thread_exiting(ThreadId tid);
void thread_running(ThreadId tid);
// Program end: every stream is closed (nothing more will be recorded).
void close_all();
// fork(), in the child: its runtime registers again under the child's pid
// (RuntimeRegistration.h).
void forked_child();

// Whether instruction `a` belongs to the OpenMP runtime (libomp, libgomp)
// and is therefore not instrumented (unless --simulate-runtime=yes).
bool runtime_code(Addr a);

// Code of the C library, the dynamic linker and the tool's preload runs
// for whoever called it: for the runtime (a futex wait, a mutex of the
// thread pool: timing-dependent) or for the program. While streaming, every
// superblock of the runtime or of the program says which one is running now
// (a guarded call when it changes), and the C library's code is recorded
// only on the program's behalf.
enum CodeOwner { kOwnerProgram = 0, kOwnerRuntime = 1, kOwnerNeutral = 2 };
CodeOwner owner_of(Addr a);
// Code never recorded once threads run: PLT stubs and the dynamic linker
// (lazy binding happens in whichever thread calls first).
bool unrecorded_code(Addr a);
// The running thread's current owner, read by the instrumented code.
extern UInt g_owner;
void enter_owner(UInt owner);

}  // namespace omp
}  // namespace ompsim

#endif
