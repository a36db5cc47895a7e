// The heap wrappers' code range (see WrapperCode.h).
#include "WrapperCode.h"

namespace ompsim {
namespace wrappers {
namespace {

const HChar kPreloadName[] = "vgpreload_ompsim-amd64-linux.so";
const HChar kSection[] = "ompsim_heap_wrappers";

bool g_skip;                  // --simulate-wrappers=no
bool g_located;               // the preload's symbols were seen (found or not)
Addr g_lo, g_hi;              // the section in the client's address space

bool read_at(Int fd, ULong off, void* buf, Int n) {
    return VG_(lseek)(fd, (Off64T)off, VKI_SEEK_SET) == (Off64T)off && VG_(read)(fd, buf, n) == n;
}

template <typename T>
T field(const UChar* p) {
    T v;
    VG_(memcpy)(&v, p, sizeof v);
    return v;
}

// The link-time address and size of section `kSection` in the ELF64 file
// `path`; false if the file cannot be read or has no such section.
bool section_in_file(const HChar* path, Addr& addr, SizeT& size) {
    SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(r)) return false;
    Int fd = (Int)sr_Res(r);
    bool found = false;
    UChar eh[64], sh[64];
    // e_ident ELF64 little-endian; e_shoff at 0x28, e_shentsize 0x3a,
    // e_shnum 0x3c, e_shstrndx 0x3e. Section header: sh_name 0x00,
    // sh_addr 0x10, sh_offset 0x18, sh_size 0x20.
    if (read_at(fd, 0, eh, sizeof eh) && eh[0] == 0x7f && eh[1] == 'E' && eh[2] == 'L' && eh[3] == 'F' &&
        eh[4] == 2 && eh[5] == 1 && field<UShort>(eh + 0x3a) == sizeof sh) {
        ULong shoff = field<ULong>(eh + 0x28);
        UInt shnum = field<UShort>(eh + 0x3c), strndx = field<UShort>(eh + 0x3e);
        if (strndx < shnum && read_at(fd, shoff + (ULong)strndx * sizeof sh, sh, sizeof sh)) {
            ULong names = field<ULong>(sh + 0x18), names_size = field<ULong>(sh + 0x20);
            for (UInt i = 0; i < shnum && !found; ++i) {
                HChar name[sizeof kSection];
                if (!read_at(fd, shoff + (ULong)i * sizeof sh, sh, sizeof sh)) break;
                UInt at = field<UInt>(sh + 0x00);
                if (at + sizeof name > names_size || !read_at(fd, names + at, name, sizeof name)) continue;
                if (VG_(memcmp)(name, kSection, sizeof name) != 0) continue;
                addr = (Addr)field<ULong>(sh + 0x10);
                size = (SizeT)field<ULong>(sh + 0x20);
                found = size > 0;
            }
        }
    }
    VG_(close)(fd);
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

}  // namespace

void init(bool simulated) { g_skip = !simulated; }

bool in_wrappers(Addr a) {
    if (!g_located) locate();
    return a - g_lo < g_hi - g_lo;
}

bool skipped(Addr a) { return g_skip && in_wrappers(a); }

}  // namespace wrappers
}  // namespace ompsim
