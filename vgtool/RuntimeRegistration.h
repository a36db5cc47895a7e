// libomp's record of itself in /dev/shm, left behind by a process that died.
//
// At its start libomp registers in a shared-memory file named after the
// process, /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>, holding the address
// and value of a flag of its own ("0x49d5980-cafe5d75-libomp.so.5"), and
// removes it at exit. A process killed before its exit leaves the file, and
// a later process given the same pid finds it: libomp then reads
// /proc/<pid>/maps to learn whether that neighbour still runs, and removes
// the file when the flag is not there. That read allocates (fopen's FILE,
// 472 bytes, and its 1,024-byte buffer) from the program's heap, before the
// program's own first allocation: every later block of the program moved by
// 0x5f0 bytes, and with them the simulated cache sets (omp_serial_teams: 3
// misses moved between two lines, 42 write-backs fewer). It happened in 2 of
// 30 runs of tests/integration/replay_perturbed.sh beside
// replay_thread.sh, whose killed clients leave such files (419 of them had
// gathered here), and it failed CI twice.
//
// So when the runtime starts (OMPT's ompt_start_tool, which libomp calls
// before it registers) the tool removes a file for this process that
// libomp itself would find dead: the flag's address not in a readable and
// writable mapping of this process, or not holding the recorded value. A live registration (a second
// copy of the runtime in the process) is left alone, so libomp's check for
// duplicate runtimes still works. A forked child registers again under its
// own pid (libomp's fork handler makes it initialize anew), so the tool
// does the same in the child at the fork (OmpIntake.h, forked_child()).
#ifndef OMPSIM_VGTOOL_RUNTIMEREGISTRATION_H
#define OMPSIM_VGTOOL_RUNTIMEREGISTRATION_H

namespace ompsim {
namespace omp {

// Removes a dead registration of libomp for this process, if there is one.
// True if it removed one.
bool forget_dead_registration();

}  // namespace omp
}  // namespace ompsim

#endif
