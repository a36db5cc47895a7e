#include "HeapWrapping.h"

#include "ElfFile.h"
#include "HeapHooks.h"

namespace ompsim {
namespace heapwrap {
namespace {

// The program's libraries are searched breadth-first for an OpenMP
// runtime among their needed libraries, as ld.so would find them: the
// object's DT_RUNPATH (else DT_RPATH, $ORIGIN expanded), LD_LIBRARY_PATH,
// then the system's directories (libraries only /etc/ld.so.cache knows
// are not found: runtime_started() covers those).
constexpr Int kPath = 512;
constexpr Int kName = 128;
constexpr Int kObjects = 32;  // objects read at most (a C++ program: 1 to 3)
constexpr Int kNeeded = 64;   // needed entries per object at most

const HChar* const kSystemDirs[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
                                    "/lib", "/usr/lib", "/usr/local/lib"};
// The OpenMP runtimes' libraries, and libraries that never bring one in
// (not read).
const HChar* const kRuntimes[] = {"libomp.so", "libgomp.so", "libiomp5.so"};
const HChar* const kSkipped[] = {"libc.so", "libm.so", "ld-linux", "libstdc++.so", "libgcc_s.so", "libpthread.so",
                                 "libdl.so", "librt.so"};

struct Dynamic {
    HChar needed[kNeeded][kName];
    Int nneeded;
    HChar runpath[kPath];  // DT_RUNPATH, else DT_RPATH; "" if none
};

template <size_t N>
bool starts_with_any(const HChar* s, const HChar* const (&prefixes)[N]) {
    for (const HChar* p : prefixes)
        if (has_prefix(s, p)) return true;
    return false;
}

// The needed libraries and the search path of the ELF file `path`.
bool read_dynamic(const HChar* path, Dynamic* d) {
    d->nneeded = 0;
    d->runpath[0] = 0;
    ElfFile f;
    ElfFile::Section dyn, str;
    if (!f.open(path) || !f.section_of_type(6 /* SHT_DYNAMIC */, &dyn) || !f.section(dyn.link, &str)) {
        f.close();
        return false;
    }
    bool runpath = false;
    UChar e[16];  // d_tag, d_val
    for (ULong at = 0; at + sizeof e <= dyn.size; at += sizeof e) {
        if (!f.read(dyn.offset + at, e, sizeof e)) break;
        ULong tag, val;
        VG_(memcpy)(&tag, e, 8);
        VG_(memcpy)(&val, e + 8, 8);
        if (tag == 0) break;  // DT_NULL
        if (tag == 1 /* DT_NEEDED */ && d->nneeded < kNeeded) {
            if (f.string(str, val, d->needed[d->nneeded], kName)) ++d->nneeded;
        } else if (tag == 29 /* DT_RUNPATH */ || (tag == 15 /* DT_RPATH */ && !runpath)) {
            if (f.string(str, val, d->runpath, kPath)) runpath = tag == 29;
        }
    }
    f.close();
    return true;
}

// dir/name into out, "$ORIGIN" in dir standing for `origin`; false if too long.
bool join(const HChar* dir, Int dirlen, const HChar* origin, const HChar* name, HChar* out) {
    Int n = 0;
    for (Int i = 0; i < dirlen; ++i) {
        if (VG_(strncmp)(dir + i, "$ORIGIN", 7) == 0) {
            for (const HChar* o = origin; *o; ++o)
                if (n < kPath - 1) out[n++] = *o;
            i += 6;
        } else if (n < kPath - 1) {
            out[n++] = dir[i];
        }
    }
    Int len = (Int)VG_(strlen)(name);
    if (n + 1 + len >= kPath) return false;
    out[n++] = '/';
    VG_(memcpy)(out + n, name, len + 1);
    return true;
}

// The first of the colon-separated directories `dirs` that holds `name`.
bool find_in(const HChar* dirs, const HChar* origin, const HChar* name, HChar* out) {
    while (dirs && *dirs) {
        const HChar* end = dirs;
        while (*end && *end != ':') ++end;
        ElfFile f;
        if (end > dirs && join(dirs, (Int)(end - dirs), origin, name, out) && f.open(out)) {
            f.close();
            return true;
        }
        dirs = *end ? end + 1 : end;
    }
    return false;
}

bool find_library(const HChar* name, const Dynamic& by, const HChar* origin, HChar* out) {
    if (VG_(strchr)(name, '/')) {
        if ((Int)VG_(strlen)(name) >= kPath) return false;
        VG_(strcpy)(out, name);
        return true;
    }
    if (find_in(by.runpath, origin, name, out) || find_in(VG_(getenv)("LD_LIBRARY_PATH"), origin, name, out))
        return true;
    for (const HChar* dir : kSystemDirs)
        if (find_in(dir, origin, name, out)) return true;
    return false;
}

// Whether the program `exe` or a library it needs names an OpenMP runtime
// among its needed libraries.
bool needs_openmp(const HChar* exe) {
    static HChar queue[kObjects][kPath];  // the objects to read, in order
    static HChar seen[kObjects][kName];   // the needed names queued
    static Dynamic d;
    if (!exe || (Int)VG_(strlen)(exe) >= kPath) return false;
    Int nqueued = 1, nseen = 0;
    VG_(strcpy)(queue[0], exe);
    for (Int q = 0; q < nqueued; ++q) {
        if (!read_dynamic(queue[q], &d)) continue;
        HChar origin[kPath];
        VG_(strcpy)(origin, queue[q]);
        HChar* slash = VG_(strrchr)(origin, '/');
        if (slash) *slash = 0;
        else VG_(strcpy)(origin, ".");
        for (Int i = 0; i < d.nneeded; ++i) {
            const HChar* name = d.needed[i];
            if (starts_with_any(name, kRuntimes)) return true;
            bool skip = nqueued == kObjects || starts_with_any(name, kSkipped);
            for (Int j = 0; j < nseen && !skip; ++j) skip = VG_(strcmp)(seen[j], name) == 0;
            if (skip || !find_library(name, d, origin, queue[nqueued])) continue;
            VG_(strcpy)(seen[nseen++], name);
            ++nqueued;
        }
    }
    return false;
}

}  // namespace

void decide(bool monitor) {
    if (monitor || needs_openmp(VG_(args_the_exename))) heaphooks::enable();
}

// A runtime the search above did not find (one that only ld.so's cache
// knows, or dlopen brought in): the wrappers go in force now, before its
// first allocation from a heap of its own.
void runtime_started() { heaphooks::enable_now(); }

}  // namespace heapwrap
}  // namespace ompsim
