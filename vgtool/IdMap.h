// A map from nonzero 64-bit keys (the preload's parallel-region and task
// ids, the hashes of event sites and of their names) to the tool's objects: open
// addressing with linear probing, grown at half load. Lookups happen once
// per OpenMP event or site, never per memory access.
#ifndef OMPSIM_VGTOOL_IDMAP_H
#define OMPSIM_VGTOOL_IDMAP_H

#include "Types.h"

namespace ompsim {

struct IdMap {
    struct Entry {
        u64 key;  // 0 = empty
        void* value;
    };
    Entry* table;
    u64 cap, used;
    Allocator mem;

    // No libc and no Valgrind here (a hosted unit test drives it too): the
    // table comes from `a`, which the tool makes tool_allocator().
    void init(const Allocator& a) {
        mem = a;
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

    // Backward-shift deletion: the entries after the hole that may live in
    // it move up, so lookups never need tombstones. False if key was absent.
    bool erase(u64 key) {
        if (!key) return false;
        u64 mask = cap - 1, i = hash(key) & mask;
        for (;; i = (i + 1) & mask) {
            if (!table[i].key) return false;
            if (table[i].key == key) break;
        }
        for (u64 j = (i + 1) & mask; table[j].key; j = (j + 1) & mask) {
            u64 home = hash(table[j].key) & mask;
            // table[j] may fill the hole at i unless its home lies in (i, j].
            bool stays = i < j ? (home > i && home <= j) : (home > i || home <= j);
            if (stays) continue;
            table[i] = table[j];
            i = j;
        }
        table[i].key = 0;
        table[i].value = nullptr;
        --used;
        return true;
    }

private:
    static u64 hash(u64 k) { return (k * 0x9E3779B97F4A7C15ull) >> 17; }
    Entry* alloc(u64 n) const {
        Entry* t = static_cast<Entry*>(mem.alloc(mem.ctx, n * sizeof(Entry)));
        for (u64 i = 0; i < n; ++i) t[i] = Entry{0, nullptr};
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
        mem.release(mem.ctx, old);
    }
};

}  // namespace ompsim

#endif
