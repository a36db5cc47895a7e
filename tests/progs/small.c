/* small.c - trivial program: almost all cost is dynamic-linker / libc
 * startup and exit; the user code is a handful of instructions.
 * Deterministic; prints one checksum line. */
#include <stdio.h>

int main(void)
{
    volatile int x = 0;
    for (int i = 0; i < 10; i++)
        x += i;
    printf("small checksum %d\n", x);
    return 0;
}
