// vgtool/IdMap.h, hosted: the tool finds its OpenMP teams and tasks there
// by the runtime's ids, so a lost or stale entry would attach events to the
// wrong team or task. Checked operation by operation against
// std::unordered_map.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "IdMap.h"
#include "TrackingAllocator.h"

using ompsim::IdMap;

namespace {

void* as_value(uint64_t v) { return reinterpret_cast<void*>(static_cast<uintptr_t>(v)); }

void expect_same(const IdMap& m, const std::unordered_map<uint64_t, uint64_t>& ref,
                 const std::vector<uint64_t>& keys) {
    EXPECT_EQ(m.used, ref.size());
    for (uint64_t k : keys) {
        auto it = ref.find(k);
        EXPECT_EQ(m.get(k), it == ref.end() ? nullptr : as_value(it->second)) << "key " << k;
    }
}

}  // namespace

// Heap-like keys: 16-byte aligned addresses in a few dense arenas, so probe
// chains are long and cross the table's end; the table doubles several
// times, and erases (the backward shift) interleave with puts.
TEST(IdMap, MatchesAReferenceMapUnderChurn) {
    for (unsigned seed : {1u, 2u, 3u}) {
        TrackingAllocator ta;
        IdMap m;
        m.init(ta.get());
        std::unordered_map<uint64_t, uint64_t> ref;
        std::vector<uint64_t> keys;
        std::mt19937_64 rng(seed);
        const uint64_t arenas[3] = {0x4a000000ull, 0x10000000000ull, 0x7ff000000000ull};
        for (int i = 0; i < 4000; ++i)
            keys.push_back(arenas[i % 3] + 16 * uint64_t(rng() % 6000));
        for (int step = 0; step < 60000; ++step) {
            uint64_t k = keys[rng() % keys.size()];
            if (rng() % 3 == 0) {
                EXPECT_EQ(m.erase(k), ref.erase(k) == 1);
            } else {
                uint64_t v = rng() | 1;
                m.put(k, as_value(v));
                ref[k] = v;
            }
            if (step % 5000 == 0) expect_same(m, ref, keys);
        }
        expect_same(m, ref, keys);
        EXPECT_GT(m.cap, 1024u);  // it grew past the initial table
        for (uint64_t k : keys) EXPECT_EQ(m.erase(k), ref.erase(k) == 1);
        EXPECT_EQ(m.used, 0u);
        for (uint64_t i = 0; i < m.cap; ++i) EXPECT_EQ(m.table[i].key, 0u);
    }
}

// The cases a free meets: a key that was never there, and key 0 (no block).
TEST(IdMap, EraseOfAnAbsentKeyChangesNothing) {
    TrackingAllocator ta;
    IdMap m;
    m.init(ta.get());
    m.put(0x1000, as_value(7));
    EXPECT_FALSE(m.erase(0x2000));
    EXPECT_FALSE(m.erase(0));
    EXPECT_EQ(m.used, 1u);
    EXPECT_EQ(m.get(0x1000), as_value(7));
    EXPECT_EQ(m.get(0), nullptr);
}
