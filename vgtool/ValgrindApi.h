// The one place that includes Valgrind's C tool headers into C++.
// Only vgtool/ includes this; cachesim/ and monitor/ never do.
#ifndef OMPSIM_VGTOOL_VALGRINDAPI_H
#define OMPSIM_VGTOOL_VALGRINDAPI_H

extern "C" {
#include "pub_tool_basics.h"
}
// The kernel-interface header defines a C++ template when compiled as C++,
// which is not allowed inside extern "C"; it declares no functions, so it is
// included first, outside, and its include guard keeps the others from
// including it again.
#include "pub_tool_vki.h"
extern "C" {
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_oset.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_transtab.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

// Valgrind's symbol-table walk (pub_core_debuginfo.h, not in the tool
// headers; the tool links the core statically). On amd64-linux a symbol's
// SymAVMAs is its one address; 3.19 passes isText, isIFunc and isGlobal.
Int vgPlain_DebugInfo_syms_howmany(const DebugInfo* di);
void vgPlain_DebugInfo_syms_getidx(const DebugInfo* di, Int idx, Addr* avma, UInt* size, const HChar** pri_name,
                                   const HChar*** sec_names, Bool* is_text, Bool* is_ifunc, Bool* is_global);
}

#include "Types.h"

namespace ompsim {

// cachesim/ allocates through this: Valgrind's own heap, never libc.
Allocator tool_allocator();

// Whether `s` starts with `prefix` (sonames, symbol names).
inline bool has_prefix(const HChar* s, const HChar* prefix) {
    return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}

// Entry i (0 .. vgPlain_DebugInfo_syms_howmany(di) - 1) of an object's
// symbol table.
struct SymbolEntry {
    Addr avma = 0;
    UInt size = 0;
    const HChar* name = nullptr;
    const HChar** aliases = nullptr;  // null-terminated, or null
    Bool is_text = False, is_ifunc = False, is_global = False;
};
inline SymbolEntry symbol_entry(const DebugInfo* di, Int i) {
    SymbolEntry e;
    vgPlain_DebugInfo_syms_getidx(di, i, &e.avma, &e.size, &e.name, &e.aliases, &e.is_text, &e.is_ifunc,
                                  &e.is_global);
    return e;
}

// Prints "valgrind: ompsim: <message>" as one line and exits with status 1.
// Used for every user error (bad option, impossible geometry, unreadable file).
__attribute__((noreturn)) void fatal_user_error(const char* message);

// Valgrind 3.19's core (m_transtab.c), not in the tool headers: discarding
// translations is allowed only while the core runs a client request, since
// a discard from a helper called by generated code would free the running
// block. Code that runs outside generated code as a client request does (a
// system call wrapper, a start-up callback) may allow it for a while.
extern "C" Bool vgPlain_ok_to_discard_translations;
struct DiscardsAllowed {
    Bool was = vgPlain_ok_to_discard_translations;
    DiscardsAllowed() { vgPlain_ok_to_discard_translations = True; }
    ~DiscardsAllowed() { vgPlain_ok_to_discard_translations = was; }
    DiscardsAllowed(const DiscardsAllowed&) = delete;
    DiscardsAllowed& operator=(const DiscardsAllowed&) = delete;
};

}  // namespace ompsim

#endif
