/* Globals in the program and in its own shared library (so_table.c), each
 * element written once and read once (tests/integration/so_globals.sh). */
#include <stdio.h>

void so_fill(void);
long so_sum(void);

double main_table[2048] __attribute__((aligned(64)));

int main(void) {
    so_fill();
    for (int i = 0; i < 2048; ++i) main_table[i] = i;
    long sum = so_sum();
    for (int i = 0; i < 2048; ++i) sum += (long)main_table[i];
    printf("%ld\n", sum);
    return 0;
}
