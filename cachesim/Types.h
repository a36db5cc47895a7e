// Basic types shared by everything compiled into the tool.
//
// This header, like all of cachesim/, is compiled twice: freestanding into the
// Valgrind tool (no libc, no libstdc++, no exceptions, no RTTI) and hosted
// into the unit tests and ompsim-report. It therefore includes only
// freestanding headers and never allocates by itself: memory comes through
// an Allocator supplied by the host (VG_(malloc) in the tool, malloc in tests).
#ifndef OMPSIM_CACHESIM_TYPES_H
#define OMPSIM_CACHESIM_TYPES_H

#include <stddef.h>
#include <stdint.h>

namespace ompsim {

using u8 = uint8_t;
using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;
using uptr = uintptr_t;

// Where cachesim/ gets memory. alloc never returns null in the tool (Valgrind
// aborts on exhaustion); hosted callers may return null, which init() reports.
struct Allocator {
    void* (*alloc)(void* ctx, size_t bytes);
    void (*release)(void* ctx, void* p);
    void* ctx;
};

// A fixed-size buffer for one-line error messages (no heap, no exceptions).
struct ErrorText {
    char text[256];
    bool set;
};

inline void error_clear(ErrorText& e) { e.text[0] = 0; e.set = false; }

// Appends to the message; used like a tiny printf without libc.
void error_append(ErrorText& e, const char* s);
void error_append_u64(ErrorText& e, u64 v);

inline bool is_pow2(u64 v) { return v != 0 && (v & (v - 1)) == 0; }

// log2 of a power of two; -1 otherwise.
inline int log2_exact(u64 v) {
    if (!is_pow2(v)) return -1;
    int n = 0;
    while (v > 1) { v >>= 1; ++n; }
    return n;
}

// The size of a hash table asked to hold `entries`: log2 of the smallest
// power of two >= entries, from 6 (64 slots) to 40.
inline u32 table_log2(u64 entries) {
    u32 lg = 6;
    while ((1ull << lg) < entries && lg < 40) ++lg;
    return lg;
}

// An Allocator that allocates nothing (a table that owns no memory).
constexpr Allocator kNoAllocator = {nullptr, nullptr, nullptr};

}  // namespace ompsim

#endif
