#pragma once
// Growing arrays for the profilers' tables. The profilers run inside the tool
// (no libc, no libstdc++), so arrays are grown through the caller's Allocator:
// doubled until they hold `need` elements, the new tail value-initialised.
#include "Types.h"

namespace ompsim {

template <typename T>
void grow_array(const Allocator& a, T*& arr, u32& cap, u32 need, u32 first) {
    if (need <= cap) return;
    u32 n = cap ? 2 * cap : first;
    while (n < need) n *= 2;
    T* fresh = static_cast<T*>(a.alloc(a.ctx, n * sizeof(T)));
    for (u32 i = 0; i < cap; ++i) fresh[i] = arr[i];
    for (u32 i = cap; i < n; ++i) fresh[i] = T{};
    if (arr && a.release) a.release(a.ctx, arr);
    arr = fresh;
    cap = n;
}

}  // namespace ompsim
