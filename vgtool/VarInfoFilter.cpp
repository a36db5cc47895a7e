#include "VarInfoFilter.h"

#include "DataStructures.h"

extern "C" {
#include "pub_tool_vkiscnums.h"
// Valgrind's core flag for --read-var-info (pub_core_options.h, not in the
// tool headers). The tool links the core statically, so it is reachable; it
// is read at every object's debug-info load, which is what makes a
// per-object choice possible (docs/performance.md, "The monitor's start-up").
extern Bool vgPlain_clo_read_var_info;
// The same for --keep-debuginfo, and the core's debug-info notifications
// (pub_core_debuginfo.h) that the mmap and munmap wrappers call: with them
// the tool reads a start-up object again.
extern Bool vgPlain_clo_keep_debuginfo;
ULong vgPlain_di_notify_mmap(Addr a, Bool allow_SkFileV, Int use_fd);
void vgPlain_di_notify_munmap(Addr a, SizeT len);
}

namespace ompsim {
namespace varinfo {

namespace {
bool g_filter;  // choose per object (--monitor=yes without --read-var-info=yes)
bool g_reread;  // read the program again at start-up (options_done())
// Start-up mappings: the program's few, the dynamic linker's, the stack.
constexpr Int kMaxStartupSegments = 128;
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
}

void options_done() {
    // With --keep-debuginfo=yes a discarded object's info is archived, not
    // dropped: read both start-up objects with their variables, as before.
    // Without the filter the flag is the user's (--read-var-info) or off.
    if (!g_filter) return;
    g_reread = !vgPlain_clo_keep_debuginfo;
    vgPlain_clo_read_var_info = g_reread ? False : True;
}

ULong startup_handle(Addr a, ULong di_handle) {
    if (!g_reread || di_handle == 0) return di_handle;
    NSegment const* seg = VG_(am_find_nsegment)(a);
    const HChar* file = seg ? VG_(am_get_filename)(seg) : nullptr;
    if (!file || !ds::program_object(file)) return di_handle;
    // The object's mappings, in address order, as Valgrind announced them.
    Addr all[kMaxStartupSegments], mine[kMaxStartupSegments];
    Int n = VG_(am_get_segment_starts)(SkFileC, all, kMaxStartupSegments), k = 0;
    for (Int i = 0; i < n; ++i) {
        NSegment const* s = VG_(am_find_nsegment)(all[i]);
        const HChar* f = s ? VG_(am_get_filename)(s) : nullptr;
        if (f && VG_(strcmp)(f, file) == 0) mine[k++] = all[i];
    }
    const DebugInfo* di = VG_(next_DebugInfo)(nullptr);
    while (di && !(VG_(DebugInfo_get_filename)(di) && VG_(strcmp)(VG_(DebugInfo_get_filename)(di), file) == 0))
        di = VG_(next_DebugInfo)(di);
    ULong handle = 0;
    if (di && k > 0 && VG_(DebugInfo_get_text_size)(di) > 0) {
        DiscardsAllowed allowed;
        vgPlain_di_notify_munmap(VG_(DebugInfo_get_text_avma)(di), VG_(DebugInfo_get_text_size)(di));
        vgPlain_clo_read_var_info = True;
        for (Int i = 0; i < k; ++i) {
            ULong h = vgPlain_di_notify_mmap(mine[i], False, -1);
            if (h) handle = h;
        }
        vgPlain_clo_read_var_info = False;
    }
    if (handle) return handle;
    // Not read again (its mappings or its debug info not found): the info
    // read without variables stays, and the user hears of the lost globals.
    VG_(umsg)("warning: the variable info of %s could not be read: no global structures from it\n", file);
    return di_handle;
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
