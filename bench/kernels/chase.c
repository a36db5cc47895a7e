/* Pointer chasing through a random cyclic permutation of N nodes (bench). */
#include <stdio.h>
#include <stdlib.h>
struct node { struct node* next; long pad[7]; };
int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 1 << 20, steps = argc > 2 ? atol(argv[2]) : 4 << 20;
    struct node* v = malloc(sizeof(struct node) * n);
    long* perm = malloc(sizeof(long) * n);
    unsigned long long x = 88172645463325252ull;
    for (long i = 0; i < n; ++i) perm[i] = i;
    for (long i = n - 1; i > 0; --i) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        long j = (long)(x % (unsigned long long)(i + 1));
        long t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    for (long i = 0; i < n; ++i) v[perm[i]].next = &v[perm[(i + 1) % n]];
    struct node* p = &v[perm[0]];
    for (long s = 0; s < steps; ++s) p = p->next;
    printf("%ld\n", (long)(p - v));
    free(v); free(perm);
    return 0;
}
