/* Ends the way argv[1] says: "exit N" (exit status N), "segv" (SIGSEGV
 * after some work), "abort" (SIGABRT). The document must say how the run
 * ended (tests/integration/termination.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char data[1 << 16];

int main(int argc, char** argv) {
    memset(data, 1, sizeof data);
    if (argc > 2 && strcmp(argv[1], "exit") == 0) exit(atoi(argv[2]));
    if (argc > 1 && strcmp(argv[1], "segv") == 0) {
        puts("crashing");
        fflush(stdout);
        *(volatile int*)(long)(data[0] - 1) = 1; /* address 0 */
    }
    if (argc > 1 && strcmp(argv[1], "abort") == 0) abort();
    return 0;
}
