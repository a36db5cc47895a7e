/* Very large heaps, touched sparsely (tests/integration/clients.sh):
 *   reserve   reserves 32 GiB of address space (mmap PROT_NONE, NORESERVE),
 *             opens one page in each GiB and writes one long there (32
 *             stores), then mallocs 8 GiB and writes one long every 256 MiB
 *             (32 stores); prints "stores 64"
 *   allocs N  N small blocks (16 to 48 bytes) from malloc, one store each,
 *             kept alive together and freed in reverse order; prints
 *             "blocks N" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define GiB (1UL << 30)

static int reserve(void) {
    size_t span = 32 * GiB;
    char* r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) {
        perror("mmap 32 GiB");
        return 2;
    }
    int stores = 0;
    for (size_t off = 0; off < span; off += GiB) {
        if (mprotect(r + off, 4096, PROT_READ | PROT_WRITE) != 0) {
            perror("mprotect");
            return 2;
        }
        *(volatile long*)(r + off) = (long)off;
        ++stores;
    }
    size_t big = 8 * GiB;
    char* h = malloc(big);
    if (!h) {
        perror("malloc 8 GiB");
        return 2;
    }
    for (size_t off = 0; off < big; off += 256UL << 20) {
        *(volatile long*)(h + off) = (long)off;
        ++stores;
    }
    free(h);
    munmap(r, span);
    printf("stores %d\n", stores);
    return 0;
}

static int allocs(long n) {
    void** p = malloc(n * sizeof *p);
    if (!p) return 2;
    for (long i = 0; i < n; ++i) {
        p[i] = malloc(16 + (i % 3) * 16);
        if (!p[i]) return 2;
        *(volatile char*)p[i] = (char)i;
    }
    for (long i = n - 1; i >= 0; --i) free(p[i]);
    free(p);
    printf("blocks %ld\n", n);
    return 0;
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "reserve") == 0) return reserve();
    if (argc > 2 && strcmp(argv[1], "allocs") == 0) return allocs(atol(argv[2]));
    fputs("usage: big_heap reserve | allocs N\n", stderr);
    return 2;
}
