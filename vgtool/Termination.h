// How the client ended, for the document's <run> (docs/output-format.md).
// Valgrind 3.19 tells a tool neither the exit status (fini gets 0) nor the
// signal that killed the program, so both are read from the client's own
// system calls:
// - exit_group (exit, _exit, the return from main, from any thread) gives
//   the status;
// - a signal the process sends itself (abort, raise, kill on its own pid)
//   with the default, fatal action is the one that killed it if nothing else
//   happened before the end: it is forgotten at the next system call other
//   than the signal-mask changes that deliver it (glibc's raise blocks
//   signals around the send), and when a handler runs for it. A fault
//   (SIGSEGV) or a signal from another process stays unknown (0): the tool
//   interface does not report default-action deaths.
#ifndef OMPSIM_VGTOOL_TERMINATION_H
#define OMPSIM_VGTOOL_TERMINATION_H

#include "ValgrindApi.h"

namespace ompsim {
namespace termination {

void pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs);
void post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs, SysRes res);
void pre_deliver_signal(ThreadId tid, Int sig);  // a handler is about to run

bool exited();       // the client called exit_group
Int exit_status();   // its status (0 to 255)
Int signal();        // the signal that killed it, 0 when unknown or exited

}  // namespace termination
}  // namespace ompsim

#endif
