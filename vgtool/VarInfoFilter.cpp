#include "VarInfoFilter.h"

#include "DataStructures.h"

extern "C" {
#include "pub_tool_vkiscnums.h"
// Valgrind's core flag for --read-var-info (pub_core_options.h, not in the
// tool headers). The tool links the core statically, so it is reachable; it
// is read at every object's debug-info load, which is what makes a
// per-object choice possible (docs/performance.md, "The monitor's start-up").
extern Bool vgPlain_clo_read_var_info;
}

namespace ompsim {
namespace varinfo {

namespace {
bool g_filter;  // choose per object (--monitor=yes without --read-var-info=yes)
}

void init_from_args() {
    bool monitor = false, user = false;
    for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_valgrind)); ++i) {
        const HChar* a = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
        if (VG_(strcmp)(a, "--monitor=yes") == 0) monitor = true;
        if (VG_(strcmp)(a, "--monitor=no") == 0) monitor = false;
        if (VG_(strncmp)(a, "--read-var-info=", 16) == 0) user = true;
    }
    g_filter = monitor && !user;
    // The program and the dynamic linker are loaded before any system call,
    // so both are read: an empty program's run still takes 0.55 s with the
    // monitor against 0.40 s without (2.5 s when every object was read).
    if (g_filter) vgPlain_clo_read_var_info = True;
}

void pre_syscall(UInt sysno, UWord* args, UInt nargs) {
    if (!g_filter || sysno != __NR_mmap || nargs < 5) return;
    Int fd = (Int)args[4];
    if (fd < 0) return;
    HChar link[32], path[4096];
    VG_(sprintf)(link, "/proc/self/fd/%d", fd);
    SSizeT n = VG_(readlink)(link, path, sizeof path - 1);
    // A file whose path cannot be had is read: its globals must not be lost
    // (the flag would otherwise keep the previous mapping's choice).
    path[n > 0 ? n : 0] = 0;
    vgPlain_clo_read_var_info = n <= 0 || ds::program_object(path) ? True : False;
}

}  // namespace varinfo
}  // namespace ompsim
