/* Prints the CPUID leaves --machine=host reads, in the fixture format of
   tests/unit/host (see README.md there). */
#include <stdio.h>
#include <cpuid.h>
static void show(unsigned leaf, unsigned sub) {
    unsigned a, b, c, d;
    __cpuid_count(leaf, sub, a, b, c, d);
    printf("cpuid 0x%08x %u: %08x %08x %08x %08x\n", leaf, sub, a, b, c, d);
}
int main(void) {
    unsigned a, b, c, d, max, ext, sub;
    __cpuid_count(0, 0, max, b, c, d);
    show(0, 0);
    show(1, 0);
    if (max >= 4)
        for (sub = 0; sub < 16; ++sub) {
            show(4, sub);
            __cpuid_count(4, sub, a, b, c, d);
            if (!(a & 31)) break;
        }
    if (max >= 0xb) show(0xb, 0);
    __cpuid_count(0x80000000, 0, ext, b, c, d);
    show(0x80000000, 0);
    if (ext >= 0x80000001) show(0x80000001, 0);
    if (ext >= 0x8000001d)
        for (sub = 0; sub < 16; ++sub) {
            show(0x8000001d, sub);
            __cpuid_count(0x8000001d, sub, a, b, c, d);
            if (!(a & 31)) break;
        }
    if (ext >= 0x8000001e) show(0x8000001e, 0);
    return 0;
}
