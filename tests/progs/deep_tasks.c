/* Undeferred tasks nested DEPTH deep (tests/integration/deep_tasks.sh).
 *
 * Each task creates the next with if(0), so the encountering thread runs it
 * at once, inside its own: the units of one thread nest DEPTH + 2 deep
 * (implicit task, single, DEPTH tasks). The tool once stopped on an
 * assertion at 64 nested units (a recursive merge sort with 4 threads).
 * Prints the sum 1 + 2 + ... + DEPTH. */
#include <stdio.h>
#include <stdlib.h>

static long down(int level, int depth) {
    long sum = level;
    if (level < depth) {
        long below = 0;
#pragma omp task if (0) shared(below)
        below = down(level + 1, depth);
        sum += below;
    }
    return sum;
}

int main(int argc, char** argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 200;
    long sum = 0;
#pragma omp parallel
#pragma omp single
    sum = down(1, depth);
    printf("sum %ld\n", sum);
    return sum == (long)depth * (depth + 1) / 2 ? 0 : 1;
}
