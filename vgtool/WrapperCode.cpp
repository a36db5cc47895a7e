// The heap wrappers' code range (see WrapperCode.h).
#include "WrapperCode.h"

#include "ElfFile.h"

namespace ompsim {
namespace wrappers {
namespace {

const HChar kPreloadName[] = "vgpreload_ompsim-amd64-linux.so";
const HChar kSection[] = "ompsim_heap_wrappers";

bool g_skip;                  // --simulate-wrappers=no
bool g_located;               // the preload's symbols were seen (found or not)
const DebugInfo* g_preload;   // its symbols, once seen
// A mapping came or changed since the last search: only then can the
// preload's symbols have been read. Searching at every translation until
// ld.so maps the preload was 48,333 searches (a basename() each per
// object) in containers 25000 2, 21 M instructions.
bool g_maybe_new = true;
Addr g_lo, g_hi;              // the section in the client's address space

// The link-time address and size of section `kSection` in the ELF64 file
// `path`; false if the file cannot be read or has no such section.
bool section_in_file(const HChar* path, Addr& addr, SizeT& size) {
    ElfFile f;
    ElfFile::Section s;
    bool found = f.open(path) && f.section_named(kSection, &s) && s.size > 0;
    f.close();
    if (found) {
        addr = s.addr;
        size = (SizeT)s.size;
    }
    return found;
}

// Looks for the preload among the objects whose symbols Valgrind has read
// (a few at most: ld.so maps it first). Its symbols are read when it is
// mapped, before any of its code runs; the search stops once it is seen,
// and from then on an address is one compare (the monitor asks for every
// frame of every allocation's stack).
void locate() {
    for (const DebugInfo* di = VG_(next_DebugInfo)(nullptr); di; di = VG_(next_DebugInfo)(di)) {
        const HChar* path = VG_(DebugInfo_get_filename)(di);
        if (!path || VG_(strcmp)(VG_(basename)(path), kPreloadName) != 0) continue;
        g_located = true;
        g_preload = di;
        Addr addr = 0;
        SizeT size = 0;
        if (!section_in_file(path, addr, size)) {
            VG_(umsg)("warning: no section %s in %s: the heap wrappers count as the program's code\n", kSection,
                      path);
            return;
        }
        g_lo = addr + (Addr)VG_(DebugInfo_get_text_bias)(di);
        g_hi = g_lo + size;
        return;
    }
}

// The search, once per new mapping until the preload is seen.
void locate_if_new() {
    if (!g_located && g_maybe_new) {
        g_maybe_new = false;
        locate();
    }
}

}  // namespace

void init(bool simulated) { g_skip = !simulated; }

void mapping_changed() { g_maybe_new = true; }

bool in_wrappers(Addr a) {
    locate_if_new();
    return a - g_lo < g_hi - g_lo;
}

const DebugInfo* preload() {
    locate_if_new();
    return g_preload;
}

bool bounds(Addr* lo, Addr* span) {
    locate_if_new();
    *lo = g_lo;
    *span = g_hi - g_lo;
    return *span != 0;
}

bool skipped(Addr a) { return g_skip && in_wrappers(a); }

}  // namespace wrappers
}  // namespace ompsim
