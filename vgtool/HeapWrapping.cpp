#include "HeapWrapping.h"

#include "ElfFile.h"

extern "C" {
// Valgrind's core option --soname-synonyms (pub_core_options.h, not in the
// tool headers). The tool links the core statically, so it is reachable;
// m_redir.c reads it each time it reads an object's symbols, which for the
// preload is after post_clo_init (ld.so maps it as client code).
extern const HChar* vgPlain_clo_soname_synonyms;
}

namespace ompsim {
namespace heapwrap {
namespace {

// The synonym HeapWrappers.c names (VG_SO_SYN(ompsimheap)), and what it
// stands for: the C library, whose functions the wrappers wrap.
const HChar kSynonym[] = "ompsimheap";
const HChar kLibc[] = "libc.so*";

bool g_in_force;
bool g_warned;

// Whether the user's --soname-synonyms defines the synonym.
bool user_defines() {
    const HChar* s = vgPlain_clo_soname_synonyms;
    SizeT n = sizeof kSynonym - 1;
    while (s && *s) {
        if (VG_(strncmp)(s, kSynonym, n) == 0 && s[n] == '=') return true;
        while (*s && *s != ',') ++s;
        if (*s == ',') ++s;
    }
    return false;
}

// Whether the ELF file `path` names an OpenMP runtime among its needed
// libraries (DT_NEEDED entries of its dynamic section).
bool needs_openmp(const HChar* path) {
    ElfFile f;
    ElfFile::Section dyn, str;
    bool found = false;
    if (path && f.open(path) && f.section_of_type(6 /* SHT_DYNAMIC */, &dyn) && f.section(dyn.link, &str)) {
        UChar e[16];  // d_tag, d_val
        for (ULong at = 0; at + sizeof e <= dyn.size && !found; at += sizeof e) {
            if (!f.read(dyn.offset + at, e, sizeof e)) break;
            ULong tag, val;
            VG_(memcpy)(&tag, e, 8);
            VG_(memcpy)(&val, e + 8, 8);
            if (tag == 0) break;  // DT_NULL
            HChar name[64];
            if (tag == 1 /* DT_NEEDED */ && f.string(str, val, name, sizeof name)) found = openmp_runtime_name(name);
        }
    }
    f.close();
    return found;
}

}  // namespace

bool openmp_runtime_name(const HChar* needed) {
    static const HChar* const kRuntimes[] = {"libomp.so", "libgomp.so", "libiomp5.so"};
    for (const HChar* r : kRuntimes)
        if (VG_(strncmp)(needed, r, VG_(strlen)(r)) == 0) return true;
    return false;
}

void decide(bool monitor) {
    if (user_defines()) {
        g_in_force = true;
        return;
    }
    g_in_force = monitor || needs_openmp(VG_(args_the_exename));
    if (!g_in_force) return;
    const HChar* user = vgPlain_clo_soname_synonyms;
    SizeT n = sizeof kSynonym + sizeof kLibc + (user ? VG_(strlen)(user) + 1 : 0);
    HChar* s = static_cast<HChar*>(VG_(malloc)("ompsim.synonyms", n));
    VG_(snprintf)(s, (Int)n, "%s=%s%s%s", kSynonym, kLibc, user && *user ? "," : "", user ? user : "");
    vgPlain_clo_soname_synonyms = s;
}

bool in_force() { return g_in_force; }

void runtime_started() {
    if (g_in_force || g_warned) return;
    g_warned = true;
    VG_(umsg)("warning: the OpenMP runtime came in through a library, not the program: its allocations share the "
              "program's heap, whose addresses may then differ between runs (give "
              "--soname-synonyms=%s=%s to keep them apart)\n",
              kSynonym, kLibc);
}

}  // namespace heapwrap
}  // namespace ompsim
