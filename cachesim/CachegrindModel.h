// Cachegrind 3.19's cache model, reproduced for --machine=cachegrind.
//
// Behaviour that parity depends on (each checked against cachegrind on the
// programs in tests/progs/):
//  - I1, D1 and LL are set-associative LRU caches whose sets are kept in
//    MRU-to-LRU order; the MRU way is compared first.
//  - The tag is the whole line number, and every tag starts as 0, so line 0
//    of the address space "hits" in a cold cache exactly as in Cachegrind.
//  - An access that straddles two lines references both lines, counts as
//    one access, and misses if either line misses. On an L1 miss, LL is
//    referenced with the same (address, size): both of its lines again.
//  - LL is touched only on L1 misses; nothing is ever invalidated.
//  - Write policy does not exist: a write is a reference like a read.
// Only the depth that served the access is returned: 0 = L1 hit, 1 = LL
// hit, 2 = LL miss; callers turn that into Cachegrind's m1/mL counters.
#ifndef OMPSIM_CACHESIM_CACHEGRINDMODEL_H
#define OMPSIM_CACHESIM_CACHEGRINDMODEL_H

#include "CacheConfig.h"

namespace ompsim {

struct CgCache {
    u64* tags;          // sets * assoc line numbers, each set MRU first
    u32 assoc;
    u32 sets_mask;      // sets - 1 (Cachegrind requires a power-of-two set count)
    u32 line_bits;

    // True if the reference to `block` in `set` missed; the set is updated
    // either way (hit: moved to MRU; miss: installed as MRU, LRU dropped).
    inline bool set_ref_is_miss(u64 set_index, u64 block) {
        u64* set = tags + set_index * assoc;
        if (set[0] == block) return false;
        for (u32 i = 1; i < assoc; ++i) {
            if (set[i] == block) {
                for (u32 j = i; j > 0; --j) set[j] = set[j - 1];
                set[0] = block;
                return false;
            }
        }
        for (u32 j = assoc - 1; j > 0; --j) set[j] = set[j - 1];
        set[0] = block;
        return true;
    }

    // Reference of `size` bytes at `addr` (size <= line size): at most two
    // lines. Both lines are always referenced because the LRU state changes.
    inline bool ref_is_miss(u64 addr, u64 size) {
        u64 b1 = addr >> line_bits;
        u64 b2 = (addr + size - 1) >> line_bits;
        if (b1 == b2) return set_ref_is_miss(b1 & sets_mask, b1);
        bool m1 = set_ref_is_miss(b1 & sets_mask, b1);
        bool m2 = set_ref_is_miss(b2 & sets_mask, b2);
        return m1 || m2;
    }
};

class CachegrindModel {
public:
    bool init(const HierarchyConfig& cfg, const Allocator& a, ErrorText& err);
    void destroy(const Allocator& a);

    // Cachegrind's "IrNoX" case, decided when instrumenting: the instruction
    // lies within one I1 line and I1 and LL have the same line size.
    bool fetch_is_single_line(u64 addr, u64 size) const {
        return i1_.line_bits == ll_.line_bits &&
               (addr >> i1_.line_bits) == ((addr + size - 1) >> i1_.line_bits);
    }
    inline unsigned fetch_single_line(u64 addr) {
        u64 block = addr >> i1_.line_bits;
        if (!i1_.set_ref_is_miss(block & i1_.sets_mask, block)) return 0;
        return ll_.set_ref_is_miss(block & ll_.sets_mask, block) ? 2 : 1;
    }
    inline unsigned fetch(u64 addr, u64 size) {
        if (!i1_.ref_is_miss(addr, size)) return 0;
        return ll_.ref_is_miss(addr, size) ? 2 : 1;
    }
    inline unsigned data(u64 addr, u64 size) {
        if (!d1_.ref_is_miss(addr, size)) return 0;
        return ll_.ref_is_miss(addr, size) ? 2 : 1;
    }
    // Smallest line size of the three caches: Cachegrind clamps the size of
    // large dirty-helper accesses (FXSAVE, XSAVE...) to it and refuses to run
    // when a guest register is wider than it.
    u32 min_line_size() const;

private:
    CgCache i1_, d1_, ll_;
};

}  // namespace ompsim

#endif
