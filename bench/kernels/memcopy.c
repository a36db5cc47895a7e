/* memcpy/memset of mixed sizes over a 16 MiB buffer (bench). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    size_t size = 16u << 20;
    unsigned char* a = malloc(size);
    unsigned char* b = malloc(size);
    memset(a, 1, size);
    unsigned long sum = 0;
    for (int r = 0; r < rounds; ++r) {
        size_t chunk = (size_t)64 << (r % 10);
        for (size_t off = 0; off + chunk <= size; off += chunk * 2) memcpy(b + off, a + off + (r & 7), chunk - 8);
        memset(a + (r * 4096) % size, r, 4096);
        sum += b[(r * 12345) % (size - 1)];
    }
    printf("%lu\n", sum);
    free(a); free(b);
    return 0;
}
