/* Part of vgpreload_ompsim-amd64-linux.so: a heap of its own for the memory
 * the OpenMP runtime allocates once it has registered the OMPT tool.
 *
 * Why: libomp allocates and frees with malloc from every thread (team and
 * task structures, lock tables), so the state of glibc's arenas after a
 * parallel region depended on timing, and with it the address of the
 * program's next allocation (in examples/openmp/critical.c, the stdout
 * buffer of its first printf moved by a few lines in about 1 run of 6).
 * Served from here, the runtime's blocks never touch the program's heap.
 *
 * The heap wrappers (HeapWrappers.c) serve a request from here when it
 * comes from the runtime's code (their return address lies in the runtime's
 * executable segment, found when the runtime calls ompt_start_tool), so
 * serial programs and other tools never do. The check is a compare on the
 * return address; asking the tool whose behalf the code runs on would cost
 * a client request on every allocation of the program too (libomp calls
 * malloc directly from its own code: __kmp_allocate, __kmp_thread_malloc).
 * Blocks are size classes of 16 << k bytes (up to 1 MiB) with a 16-byte
 * header, from a 4 GiB reservation (address space only; pages are touched
 * as used); larger requests still go to glibc. One spin lock: the runtime
 * allocates rarely (libomp 14 keeps its own pools for tasks and threads).
 *
 * Everything here is in the unsimulated section (OmpPreload.h). */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include "OmpPreload.h"

#define RT_CLASSES 17 /* 16 B .. 1 MiB */
#define RT_HEADER 16
#define RT_RESERVE (4UL << 30)

struct RtHeader {
    unsigned long cls;  /* size class */
    unsigned long back; /* bytes from the block's start to the user pointer */
};

/* Read by the heap wrappers' inline tests (HeapWrappers.c). */
OMPSIM_HID int ompsim_rt_heap_on;
OMPSIM_HID unsigned long ompsim_rt_code_lo, ompsim_rt_code_hi; /* the runtime's executable segment */
OMPSIM_HID char* ompsim_rt_base; /* the reservation, once made */
OMPSIM_HID char* ompsim_rt_end;
static char* rt_next;
static void* rt_free_list[RT_CLASSES];
static volatile int rt_lock;

static void lock(void) {
    while (__atomic_test_and_set(&rt_lock, __ATOMIC_ACQUIRE))
        while (rt_lock) __builtin_ia32_pause();
}
static void unlock(void) { __atomic_clear(&rt_lock, __ATOMIC_RELEASE); }

struct Segment {
    unsigned long addr, lo, hi;
};

static OMPSIM_UNSIM int find_segment(struct dl_phdr_info* info, size_t size, void* arg) {
    struct Segment* seg = (struct Segment*)arg;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        unsigned long lo = info->dlpi_addr + ph->p_vaddr;
        if (seg->addr - lo < ph->p_memsz) {
            seg->lo = lo;
            seg->hi = lo + ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

OMPSIM_UNSIM OMPSIM_HID void ompsim_rt_heap_start(const void* runtime_code) {
    struct Segment seg = {(unsigned long)runtime_code, 0, 0};
    if (!dl_iterate_phdr(find_segment, &seg)) return; /* the runtime keeps using glibc's heap */
    ompsim_rt_code_lo = seg.lo;
    ompsim_rt_code_hi = seg.hi;
    ompsim_rt_heap_on = 1;
}

static OMPSIM_UNSIM int class_of(size_t n) {
    int c = 0;
    size_t size = 16;
    while (size < n) {
        size <<= 1;
        if (++c == RT_CLASSES) return -1;
    }
    return c;
}

/* A block of class c (header included), or NULL. Called with the lock held. */
static OMPSIM_UNSIM char* take(int c) {
    void* b = rt_free_list[c];
    if (b) {
        rt_free_list[c] = *(void**)b;
        return (char*)b;
    }
    if (!ompsim_rt_base) {
        void* m = mmap(NULL, RT_RESERVE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) return NULL;
        ompsim_rt_base = rt_next = (char*)m;
        ompsim_rt_end = ompsim_rt_base + RT_RESERVE;
    }
    size_t size = (size_t)16 << c;
    if ((size_t)(ompsim_rt_end - rt_next) < size) return NULL;
    char* r = rt_next;
    rt_next += size;
    return r;
}

/* n bytes aligned to `align` (a power of two, at least 16); NULL if this
 * heap cannot serve it (the caller then uses glibc). */
OMPSIM_UNSIM OMPSIM_HID void* ompsim_rt_alloc(size_t n, size_t align) {
    if (align < 16) align = 16;
    if (n > ((size_t)16 << (RT_CLASSES - 1)) || align > 4096) return NULL;
    int c = class_of(n + RT_HEADER + align - 16);
    if (c < 0) return NULL;
    lock();
    char* b = take(c);
    unlock();
    if (!b) return NULL;
    char* p = (char*)(((unsigned long)b + RT_HEADER + align - 1) & ~(unsigned long)(align - 1));
    struct RtHeader* h = (struct RtHeader*)(p - RT_HEADER);
    h->cls = (unsigned long)c;
    h->back = (unsigned long)(p - b);
    return p;
}

OMPSIM_UNSIM OMPSIM_HID size_t ompsim_rt_usable(const void* p) {
    const struct RtHeader* h = (const struct RtHeader*)((const char*)p - RT_HEADER);
    return ((size_t)16 << h->cls) - h->back;
}

OMPSIM_UNSIM OMPSIM_HID void ompsim_rt_free(void* p) {
    struct RtHeader* h = (struct RtHeader*)((char*)p - RT_HEADER);
    int c = (int)h->cls;
    char* b = (char*)p - h->back;
    lock();
    *(void**)b = rt_free_list[c];
    rt_free_list[c] = b;
    unlock();
}
