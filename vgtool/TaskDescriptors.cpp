#include "TaskDescriptors.h"

#include "ToolArray.h"

namespace ompsim {
namespace descriptors {

namespace {

constexpr Addr kLine = 64;
// Free lists for blocks of 1..kClasses lines (libomp's largest fast-memory
// bucket is 64 lines); longer blocks are never reused.
constexpr u32 kClasses = 64;

struct FreeList {
    Addr* blocks;
    u32 n, cap;
};

FreeList g_free[kClasses + 1];
Addr g_next = kBase;

Addr lines_of(Addr lo, Addr len) { return ((lo & (kLine - 1)) + len + kLine - 1) / kLine; }

}  // namespace

Addr take(Addr lo, Addr len) {
    Addr lines = lines_of(lo, len), block;
    FreeList* f = lines <= kClasses ? &g_free[lines] : nullptr;
    if (f && f->n) {
        block = f->blocks[--f->n];
    } else {
        block = g_next;
        g_next += lines * kLine;
    }
    return block + (lo & (kLine - 1));
}

void give_back(Addr canon, Addr lo, Addr len) {
    Addr lines = lines_of(lo, len);
    if (lines > kClasses) return;
    FreeList& f = g_free[lines];
    reserve(f.blocks, f.cap, f.n + 1, 64, "ompsim.descriptors");
    f.blocks[f.n++] = canon & ~(kLine - 1);
}

}  // namespace descriptors
}  // namespace ompsim
