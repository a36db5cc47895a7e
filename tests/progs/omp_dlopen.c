/* A serial program that loads libomp_sum.so (omp_sum.c) with dlopen: the
 * OpenMP runtime comes in after start-up, where the tool's search of the
 * program's needed libraries cannot see it (tests/integration/wrappers.sh:
 * the heap wrappers go in force when the runtime starts). Allocates before
 * and after, and prints 499500 and the sum of the blocks' first bytes. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: omp_dlopen LIBOMP_SUM\n");
        return 2;
    }
    char* before = malloc(100);
    void* lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "omp_dlopen: %s\n", dlerror());
        return 1;
    }
    int (*sum)(int) = (int (*)(int))dlsym(lib, "omp_sum");
    if (!sum) return 1;
    printf("%d\n", sum(1000));
    int total = 0;
    for (int i = 0; i < 100; ++i) {
        char* p = malloc(32 + i);
        p[0] = (char)i;
        total += p[0];
        free(p);
    }
    before[0] = 1;
    printf("%d\n", total + before[0]);
    free(before);
    return 0;
}
