// Which objects Valgrind reads DWARF variable info for under --monitor=yes.
// The monitor takes global variables (address, size, name) only from the
// program's own objects (ds::program_object), but VG_(needs_var_info) makes
// Valgrind 3.19 read the variable info of every object it maps, and with
// glibc's debug files installed (libc6-dbg) that was 2.5 s of a 3.0 s run of
// an empty program. The reader runs when an object's mapping is announced
// (di_notify_mmap, from the mmap system call's wrapper), and it tests the
// core flag behind --read-var-info at that moment; the filter sets that flag
// before each file-backed mmap, from the mapped file's path.
#ifndef OMPSIM_VGTOOL_VARINFOFILTER_H
#define OMPSIM_VGTOOL_VARINFOFILTER_H

#include "ValgrindApi.h"

namespace ompsim {
namespace varinfo {

// Called from pre_clo_init: reads the variable info of the program's own
// objects when `--monitor=yes` is among Valgrind's arguments. A user's
// explicit --read-var-info=yes|no is left to Valgrind (every object or none).
void init_from_args();

// Called from post_clo_init, before Valgrind reads the objects mapped at
// start-up (the program and the dynamic linker, in one loop with no tool
// callback in between): they are read without variable info, and
// startup_handle() reads the program's again with it. The dynamic linker's
// variables (glibc's debug file, which Debian's valgrind package installs)
// took 0.27 s of every monitored run, 0.39 s of an empty program's 0.40 s
// against 0.22 s without them.
void options_done();

// Called from new_mem_startup with a start-up mapping and the handle of the
// debug info read when it was announced (0: none): for a program object,
// discards that debug info, reads the object again with its variables and
// returns the new handle; otherwise returns `di_handle`.
ULong startup_handle(Addr a, ULong di_handle);

// Called before every system call: on a file-backed mmap, turns the reader
// on for a program object and off for anything else.
void pre_syscall(UInt sysno, UWord* args, UInt nargs);

}  // namespace varinfo
}  // namespace ompsim

#endif
