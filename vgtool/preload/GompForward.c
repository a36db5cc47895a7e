/* Part of vgpreload_ompsim-amd64-linux.so: gcc-built OpenMP programs run on
 * LLVM's libomp under Valgrind, with nothing for the user to do
 * (docs/openmp.md, "Programs built with gcc").
 *
 * GCC 12's libgomp has no OMPT, so ompsim would see none of a gcc-built
 * program's OpenMP events. libomp implements libgomp's ABI (the GOMP_*
 * entry points and the omp_* API). GompForwardStubs.S replaces (Valgrind
 * function replacement, soname libgomp.so.1) every function libgomp exports
 * by a stub that jumps to libomp's function of the same name: libgomp stays
 * loaded (its constructor runs as usual) but none of its functions runs.
 * The list of functions is GompForwardList.h, generated from the two
 * libraries' symbol tables by GompForwardGen.sh.
 *
 * libomp is loaded on the first forwarded call (dlopen("libomp.so.5")),
 * which also looks every function up (dlvsym with the version gcc-built
 * programs bind to, see GompForwardList.h); a stub then jumps through its
 * slot with no other cost. A program that never calls libgomp
 * (every serial program) executes exactly what it executes without this
 * file: replacements only apply to libgomp's functions, and nothing here
 * runs at load time. Functions libgomp has and libomp lacks (OpenACC,
 * offloading, GOMP_error, ...) stop the program with a one-line message.
 *
 * The redirections are made by Valgrind's core for any tool that preloads
 * this library, so Cachegrind with LD_PRELOAD of it runs the same client.
 * The stubs and this file's code are in the unsimulated section. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "OmpPreload.h"

/* The names and versions of GompForwardList.h, in one block of characters
 * found through 16-bit offsets: a table of pointers would cost the dynamic
 * loader one relocation per string at the start of every program, serial
 * ones included. */
struct Strings {
#define GOMP_FWD(name, version) \
    char name##_n[sizeof #name]; \
    char name##_v[sizeof version];
#define GOMP_MISSING(name) char name##_n[sizeof #name];
#include "GompForwardList.h"
#undef GOMP_FWD
#undef GOMP_MISSING
};
static const struct Strings strings = {
#define GOMP_FWD(name, version) #name, version,
#define GOMP_MISSING(name) #name,
#include "GompForwardList.h"
#undef GOMP_FWD
#undef GOMP_MISSING
};
#define NO_VERSION 0xffff /* libomp lacks the function */
static const struct {
    unsigned short name, version;
} funcs[] = {
#define GOMP_FWD(name, version) {offsetof(struct Strings, name##_n), offsetof(struct Strings, name##_v)},
#define GOMP_MISSING(name) {offsetof(struct Strings, name##_n), NO_VERSION},
#include "GompForwardList.h"
#undef GOMP_FWD
#undef GOMP_MISSING
};
_Static_assert(sizeof(struct Strings) < NO_VERSION, "16-bit offsets");
#define FUNC_NAME(i) ((const char*)&strings + funcs[i].name)
#define FUNC_VERSION(i) ((const char*)&strings + funcs[i].version)
#define NFUNCS (sizeof funcs / sizeof funcs[0])

/* libomp's functions, filled in on first use; read by the stubs. */
OMPSIM_HID void* ompsim_gomp_slots[NFUNCS];

static void* g_libomp;

static void die(const char* fmt, const char* a, const char* b) OMPSIM_UNSIM __attribute__((noreturn));
static void die(const char* fmt, const char* a, const char* b) {
    char line[512];
    int n = snprintf(line, sizeof line, fmt, a, b);
    if (n < 0) n = 0;
    if (n > (int)sizeof line - 1) n = sizeof line - 1;
    ssize_t w = write(2, line, n);
    (void)w;
    fflush(NULL); /* what the program printed so far */
    _exit(1);
}

static void* lookup(void* h, unsigned i) OMPSIM_UNSIM;
static void* lookup(void* h, unsigned i) {
    const char* version = FUNC_VERSION(i);
    void* f = version[0] ? dlvsym(h, FUNC_NAME(i), version) : 0;
    return f ? f : dlsym(h, FUNC_NAME(i));
}

/* Called by a stub whose slot is empty, with the stub's number; every
 * argument register of the original call is saved by the stub. Returns
 * libomp's function, which the stub then jumps to.
 *
 * The first call loads libomp and fills every slot at once: the dynamic
 * loader's instructions (simulated, as the program's own) then all run in
 * the thread that makes the program's first OpenMP call, before it starts
 * any team, rather than in whichever thread happens to call a function
 * first. */
OMPSIM_HID void* ompsim_gomp_resolve(unsigned i) OMPSIM_UNSIM;
OMPSIM_HID void* ompsim_gomp_resolve(unsigned i) {
    void* h = __atomic_load_n(&g_libomp, __ATOMIC_ACQUIRE);
    if (!h) {
        /* Registers the unsimulated section under ompsim: the stubs and
         * this code are not counted from here on. */
        (void)ompsim_omp_active();
        /* Before dlopen: libomp starts its OMPT tool while loading. */
        ompsim_gomp_forwarded = 1;
        h = dlopen("libomp.so.5", RTLD_NOW | RTLD_GLOBAL);
        if (!h)
            die("ompsim: this gcc-built OpenMP program runs on LLVM's libomp under Valgrind, but %s "
                "(on Debian: apt-get install libomp5)%s\n",
                dlerror(), "");
        for (unsigned k = 0; k < NFUNCS; ++k)
            if (funcs[k].version != NO_VERSION) __atomic_store_n(&ompsim_gomp_slots[k], lookup(h, k), __ATOMIC_RELEASE);
        __atomic_store_n(&g_libomp, h, __ATOMIC_RELEASE);
    }
    void* f = __atomic_load_n(&ompsim_gomp_slots[i], __ATOMIC_ACQUIRE);
    if (!f) die("ompsim: libgomp's %s has no counterpart in libomp.so.5%s\n", FUNC_NAME(i), "");
    return f;
}

/* Called (jumped to) by the stub of a function libomp lacks. */
OMPSIM_HID void ompsim_gomp_missing(unsigned i) OMPSIM_UNSIM __attribute__((noreturn));
OMPSIM_HID void ompsim_gomp_missing(unsigned i) {
    die("ompsim: %s is a libgomp function that libomp lacks; gcc-built OpenMP programs run on libomp under "
        "Valgrind with ompsim's preload library, so this program cannot run here (%s)\n",
        FUNC_NAME(i), "see docs/openmp.md, \"Programs built with gcc\"");
}
