/* Memory that held a monitored structure is given back and something else
 * takes its addresses; the structure must not get the newcomer's accesses
 * (tests/integration/clients.sh, with --monitor=yes). Every store writes one
 * byte per 64-byte line (volatile, one store instruction each):
 *   big_block  malloc(1 MiB) (glibc mmaps it), 16384 stores, free (munmap);
 *              then an anonymous mmap at the same pages, 2 x 16384 stores
 *   "mapped"   a named 1 MiB mmap, 16384 stores, munmap without forgetting
 *              the name; a new mmap at the same address, 2 x 16384 stores
 *   small_a    malloc(4096), 64 stores, free; small_b then mallocs 4096
 *              (the same block, usually) and stores 2 x 64 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "ompsim.h"

#define SIZE (1 << 20)

static void touch_lines(char* p, size_t n) {
    for (size_t i = 0; i < n; i += 64) *(volatile char*)(p + i) = 1;
}

/* Allocation sites of their own, named by their function (noipa: never
 * inlined nor folded into one by identical-code folding; the empty asm keeps
 * malloc from being a tail call, which would take the function off the
 * stack). */
#define SITE(name, bytes)                                    \
    __attribute__((noipa)) static char* name(void) {         \
        char* p = malloc(bytes);                             \
        __asm__ volatile("" ::: "memory");                   \
        return p;                                            \
    }
SITE(big_block, SIZE)
SITE(small_a, 4096)
SITE(small_b, 4096)

static char* map_at(void* where, size_t n) {
    int fixed = where ? MAP_FIXED : 0;
    char* p = mmap(where, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | fixed, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    return p;
}

int main(void) {
    char* h = big_block();
    touch_lines(h, SIZE);
    uintptr_t page = (uintptr_t)h & ~(uintptr_t)4095;
    free(h);
    char* again = map_at((void*)page, SIZE + 4096);
    touch_lines(again, SIZE);
    touch_lines(again, SIZE);
    munmap(again, SIZE + 4096);

    char* m = map_at(NULL, SIZE);
    OMPSIM_NAME_RANGE(m, SIZE, "mapped");
    touch_lines(m, SIZE);
    munmap(m, SIZE);
    char* m2 = map_at(m, SIZE);
    touch_lines(m2, SIZE);
    touch_lines(m2, SIZE);

    char* a = small_a();
    touch_lines(a, 4096);
    free(a);
    char* b = small_b();
    touch_lines(b, 4096);
    touch_lines(b, 4096);
    printf("same block %s\n", a == b ? "yes" : "no");
    free(b);
    return 0;
}
