// Growing arrays in the tool's heap (VG_(realloc)), for the OpenMP intake,
// the replay and the descriptor heap: none of them is on a per-access path.
#ifndef OMPSIM_VGTOOL_TOOLARRAY_H
#define OMPSIM_VGTOOL_TOOLARRAY_H

#include "Types.h"
#include "ValgrindApi.h"

namespace ompsim {

// Makes room for `need` elements in `arr` (capacity `cap`), doubling from
// `first`; the new elements are zero.
template <typename T>
void reserve(T*& arr, u32& cap, u32 need, u32 first, const HChar* cost_centre) {
    if (need <= cap) return;
    u32 n = cap ? cap : first;
    while (n < need) n *= 2;
    arr = static_cast<T*>(VG_(realloc)(cost_centre, arr, n * sizeof(T)));
    VG_(memset)(arr + cap, 0, (n - cap) * sizeof(T));
    cap = n;
}

}  // namespace ompsim

#endif
