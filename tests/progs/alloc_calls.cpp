// alloc_calls.cpp - every allocation function the preload library wraps
// (vgtool/preload/HeapWrappers.c), 1,000 times each: malloc, calloc,
// realloc (from NULL, growing, shrinking), posix_memalign, aligned_alloc,
// memalign, free; and C++ new/new[]/aligned new with their deletes, which
// libstdc++ implements with them.
// tests/integration/wrappers.sh compares its per-function instruction
// counts with Cachegrind's, which runs it without the preload library.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <malloc.h>
#include <new>

struct alignas(64) Line {
    long v[8];
};

// Every block passes through here, so the compiler cannot drop a pair of
// allocation and release.
void* volatile sink;
// realloc's NULL, read at run time: GCC turns realloc(nullptr, n) into
// malloc(n). glibc's realloc(NULL, n) ends in a jump to malloc, which
// VEX's chasing would have taken into realloc's translation, past the
// exit to malloc's wrapper (vgtool/HeapHooks.h).
char* volatile null_block;

int main() {
    unsigned long sum = 0;
    for (int i = 0; i < 1000; ++i) {
        char* a = static_cast<char*>(std::malloc(40 + i % 64));
        char* b = static_cast<char*>(std::calloc(8, 16));
        char* c = static_cast<char*>(std::realloc(null_block, 24));
        c = static_cast<char*>(std::realloc(c, 4000));
        c = static_cast<char*>(std::realloc(c, 100));
        void* d = nullptr;
        if (posix_memalign(&d, 64, 256) != 0) return 1;
        void* e = aligned_alloc(128, 512);
        void* f = memalign(32, 96);
        long* g = new long(i);
        long* h = new long[10];
        Line* k = new Line();
        for (void* p : {(void*)a, (void*)b, (void*)c, d, e, f, (void*)g, (void*)h, (void*)k}) sink = p;
        a[0] = 1;
        c[99] = 2;
        h[9] = *g;
        sum += (unsigned long)(a[0] + b[127] + c[99]) + (unsigned long)h[9] + (unsigned long)k->v[7];
        delete k;
        delete[] h;
        delete g;
        std::free(f);
        std::free(e);
        std::free(d);
        std::free(c);
        std::free(b);
        std::free(a);
    }
    std::printf("%lu\n", sum);
    return 0;
}
