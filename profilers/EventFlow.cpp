#include "EventFlow.h"

#include "GrowArray.h"

namespace ompsim {
namespace flow {

namespace {

const char* const kNames[kComponentCount] = {"region", "callsite", "size", "partner", "thread"};

enum TableKind : u32 { kSigTable, kSiteTable, kEdgeTable };

u64 mix(u64 h, u64 v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

u64 finish_hash(u64 h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

u64 hash_sig(const Signature& s) {
    u64 h = mix(s.what, (u64)s.point << 1 | (u64)s.has_partner);
    h = mix(h, s.callsite);
    h = mix(h, s.thread);
    h = mix(h, s.size);
    return finish_hash(mix(h, (u64)s.partner));
}

u64 hash_site(u32 node, u32 site) { return finish_hash(mix(node, site)); }
u64 hash_edge(u32 from, u32 to, u32 thread) { return finish_hash(mix(mix(from, to), thread)); }

bool same_sig(const Signature& a, const Signature& b) {
    return a.what == b.what && a.point == b.point && a.has_partner == b.has_partner && a.callsite == b.callsite &&
           a.thread == b.thread && a.size == b.size && a.partner == b.partner;
}

struct EdgeKey {
    u32 from, to, thread;
};


}  // namespace

const char* component_name(u32 i) { return i < kComponentCount ? kNames[i] : "?"; }

u32 parse_components(const char* list, u32 len) {
    u32 mask = 0, i = 0;
    while (i < len) {
        u32 j = i;
        while (j < len && list[j] != ',') ++j;
        u32 bit = 0;
        for (u32 k = 0; k < kComponentCount && !bit; ++k) {
            const char* n = kNames[k];
            u32 m = 0;
            while (n[m] && i + m < j && n[m] == list[i + m]) ++m;
            if (!n[m] && i + m == j) bit = 1u << k;
        }
        if (!bit) return 0;
        mask |= bit;
        i = j + 1;
        if (j + 1 == len) return 0;  // a trailing comma
    }
    return mask;
}

void* EventFlow::mem(size_t bytes) {
    void* p = alloc_.alloc(alloc_.ctx, bytes);
    u8* b = static_cast<u8*>(p);
    for (size_t i = 0; i < bytes; ++i) b[i] = 0;
    return p;
}

bool EventFlow::init(const Allocator& a, u32 components) {
    if (!components || (components & ~kAllComponents)) return false;
    alloc_ = a;
    components_ = components;
    return true;
}

u64 EventFlow::hash_of(u32 kind, u32 entry) const {
    switch (kind) {
        case kSigTable:
            return hash_sig(sigs_[entry]);
        case kSiteTable:
            return hash_site(sites_[entry].node, sites_[entry].site);
        default:
            return hash_edge(edges_[entry].from, edges_[entry].to, edges_[entry].thread);
    }
}

bool EventFlow::equal(u32 kind, u32 entry, const void* key) const {
    switch (kind) {
        case kSigTable:
            return same_sig(sigs_[entry], *static_cast<const Signature*>(key));
        case kSiteTable: {
            const Callsite& k = *static_cast<const Callsite*>(key);
            return sites_[entry].node == k.node && sites_[entry].site == k.site;
        }
        default: {
            const EdgeKey& k = *static_cast<const EdgeKey*>(key);
            const Edge& e = edges_[entry];
            return e.from == k.from && e.to == k.to && e.thread == k.thread;
        }
    }
}

// The entry (0-based) whose key is `key`, or ~0u.
u32 EventFlow::find(const Table& t, u64 hash, u32 kind, const void* key) const {
    if (!t.cap) return ~0u;
    for (u32 i = (u32)hash & (t.cap - 1);; i = (i + 1) & (t.cap - 1)) {
        if (!t.slot[i]) return ~0u;
        if (equal(kind, t.slot[i] - 1, key)) return t.slot[i] - 1;
    }
}

void EventFlow::insert(Table& t, u64 hash, u32 entry) {
    u32 i = (u32)hash & (t.cap - 1);
    while (t.slot[i]) i = (i + 1) & (t.cap - 1);
    t.slot[i] = entry + 1;
}

// Keeps the table at most half full for `n` entries.
void EventFlow::rehash(Table& t, u32 kind, u32 n) {
    if (2 * n <= t.cap) return;
    u32 cap = t.cap ? 2 * t.cap : 64;
    if (t.slot && alloc_.release) alloc_.release(alloc_.ctx, t.slot);
    t.slot = static_cast<u32*>(mem(cap * sizeof(u32)));
    t.cap = cap;
    for (u32 e = 0; e + 1 < n; ++e) insert(t, hash_of(kind, e), e);
}

template <typename T, typename Key>
u32 EventFlow::intern(Table& t, u32 kind, T*& arr, u32& n, u32& cap, const Key& key, const T& fresh, u64 h) {
    u32 i = find(t, h, kind, &key);
    if (i != ~0u) return i;
    grow_array(alloc_, arr, cap, n + 1, 16);
    arr[n++] = fresh;
    rehash(t, kind, n);
    insert(t, h, n - 1);
    return n - 1;
}

u32 EventFlow::callsite_id(u32 node, u32 site) {
    Callsite key{node, site};
    return intern(site_index_, kSiteTable, sites_, nsites_, sites_cap_, key, key, hash_site(node, site)) + 1;
}

u32 EventFlow::signature_id(const Signature& s) {
    return intern(sig_index_, kSigTable, sigs_, nsigs_, sigs_cap_, s, s, hash_sig(s)) + 1;
}

Edge& EventFlow::edge_of(u32 from, u32 to, u32 thread) {
    EdgeKey key{from, to, thread};
    // The index first: intern may move the array.
    u32 i = intern(edge_index_, kEdgeTable, edges_, nedges_, edges_cap_, key, Edge{from, to, thread, 0, 0},
                   hash_edge(from, to, thread));
    return edges_[i];
}

EventFlow::Cursor& EventFlow::cursor(u32 thread) {
    if (thread >= ncursors_) {
        grow_array(alloc_, cursors_, cursors_cap_, thread + 1, 16);
        ncursors_ = thread + 1;  // new cursors start at S0, clock 0
    }
    return cursors_[thread];
}

void EventFlow::event(u32 thread, const Event& e, u64 cycles) {
    Signature s{};
    if (components_ & kRegion) {
        s.what = e.what;
        s.point = e.point;
    }
    if (components_ & kCallsite) s.callsite = callsite_id(e.node, e.point ? e.site : kNoSite);
    if (components_ & kSize) s.size = e.size;
    if ((components_ & kPartner) && e.has_partner) {
        s.has_partner = true;
        s.partner = e.partner;
    }
    if (components_ & kThread) s.thread = thread;
    u32 id = signature_id(s);
    Cursor& c = cursor(thread);
    Edge& edge = edge_of(c.prev, id, thread);
    ++edge.count;
    edge.cycles += cycles > c.last ? cycles - c.last : 0;
    c.prev = id;
    c.last = cycles;
}

void EventFlow::zero(u32 thread, u64 cycles) {
    if (thread == 0)
        for (u32 i = 0; i < nedges_; ++i) edges_[i].count = edges_[i].cycles = 0;
    Cursor& c = cursor(thread);
    c.prev = kStart;
    c.last = cycles;
}

}  // namespace flow
}  // namespace ompsim
