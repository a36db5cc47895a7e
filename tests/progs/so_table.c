/* A shared library of the program's own, outside the system directories:
 * its global array is one of the program's data structures, so the monitor
 * must read this object's variable information although it reads none for
 * libc (tests/integration/so_globals.sh).
 * - The table is only touched here: a reference from the program would
 *   make the linker copy it into the program (a copy relocation), and the
 *   library would use the copy.
 * - It has an initialiser, so it is in .data: the dynamic linker zeroes the
 *   tail of .bss's first page, which would add writes. */
int so_table[4096] __attribute__((aligned(64))) = {1};

void so_fill(void) {
    for (int i = 0; i < 4096; ++i) so_table[i] = i; /* one 4-byte store each */
}

long so_sum(void) {
    long sum = 0;
    for (int i = 0; i < 4096; ++i) sum += so_table[i]; /* one 4-byte load each */
    return sum;
}
