// A map from the preload's nonzero 64-bit ids (parallel regions, tasks) to
// the tool's objects: open addressing with linear probing, grown at half
// load. Lookups happen once per OpenMP event, never per memory access.
#ifndef OMPSIM_VGTOOL_IDMAP_H
#define OMPSIM_VGTOOL_IDMAP_H

#include "ValgrindApi.h"

namespace ompsim {

struct IdMap {
    struct Entry {
        u64 key;  // 0 = empty
        void* value;
    };
    Entry* table;
    u64 cap, used;

    void init() {
        cap = 1024;
        used = 0;
        table = alloc(cap);
    }
    void* get(u64 key) const {
        if (!key) return nullptr;
        for (u64 i = hash(key) & (cap - 1);; i = (i + 1) & (cap - 1)) {
            if (table[i].key == key) return table[i].value;
            if (!table[i].key) return nullptr;
        }
    }
    void put(u64 key, void* value) {
        if (!key) return;
        if (2 * (used + 1) > cap) grow();
        for (u64 i = hash(key) & (cap - 1);; i = (i + 1) & (cap - 1)) {
            if (table[i].key == key || !table[i].key) {
                if (!table[i].key) ++used;
                table[i].key = key;
                table[i].value = value;
                return;
            }
        }
    }

private:
    static u64 hash(u64 k) { return (k * 0x9E3779B97F4A7C15ull) >> 17; }
    static Entry* alloc(u64 n) {
        Entry* t = static_cast<Entry*>(VG_(malloc)("ompsim.idmap", n * sizeof(Entry)));
        VG_(memset)(t, 0, n * sizeof(Entry));
        return t;
    }
    void grow() {
        Entry* old = table;
        u64 old_cap = cap;
        cap *= 2;
        used = 0;
        table = alloc(cap);
        for (u64 i = 0; i < old_cap; ++i)
            if (old[i].key) put(old[i].key, old[i].value);
        VG_(free)(old);
    }
};

}  // namespace ompsim

#endif
