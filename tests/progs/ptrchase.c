/* ptrchase.c - pointer chasing through a randomly permuted singly linked
 * cyclic list.  16384 nodes of 64 bytes = 1 MiB (>> 32 KiB L1, < 8 MiB LL).
 * The permutation comes from a fixed-seed 64-bit LCG (no rand()), so the
 * access pattern is fully deterministic.  Prints one checksum line. */
#include <stdio.h>
#include <stdint.h>

#define NODES 16384
#define LAPS 3

struct node {
    struct node *next;
    uint64_t id;
    uint64_t pad[6];
};

static struct node nodes[NODES] __attribute__((aligned(64)));
static uint32_t perm[NODES];

static uint64_t lcg_state = 0x2545F4914F6CDD1DULL;
static uint32_t lcg_next(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg_state >> 33);
}

int main(void)
{
    for (uint32_t i = 0; i < NODES; i++) {
        perm[i] = i;
        nodes[i].id = (uint64_t)i * 2654435761u;
        for (int k = 0; k < 6; k++)
            nodes[i].pad[k] = i + (uint64_t)k;
    }
    /* Fisher-Yates shuffle */
    for (uint32_t i = NODES - 1; i > 0; i--) {
        uint32_t j = lcg_next() % (i + 1);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (uint32_t i = 0; i < NODES; i++)
        nodes[perm[i]].next = &nodes[perm[(i + 1) % NODES]];

    uint64_t sum = 0;
    uint64_t steps = 0;
    struct node *p = &nodes[perm[0]];
    for (int lap = 0; lap < LAPS; lap++) {
        for (uint32_t i = 0; i < NODES; i++) {
            sum = sum * 31 + p->id;
            steps++;
            p = p->next;
        }
    }
    /* p must be back at the start after whole laps */
    printf("ptrchase checksum %llu steps %llu back_at_start %d\n",
           (unsigned long long)sum, (unsigned long long)steps,
           p == &nodes[perm[0]]);
    return 0;
}
