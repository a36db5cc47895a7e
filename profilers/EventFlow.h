// IPM's event signature flow graph (Fürlinger and Skinner, "Capturing and
// Visualizing Event Flow Graphs of MPI Applications", 2009) of one process:
// every event of a thread gets a signature built from the chosen components;
// the graph's nodes are the signatures, its edges the pairs (signature of the
// thread's previous event, signature of this one) with how often each pair
// occurred and the cycles between the two events. Each thread starts at the
// start signature S0 (kStart). docs/regions.md ("Event flow graphs") has the
// rules; ompsim-report events merges the graphs of several processes.
//
// Events are region entries (the region profiler's call graph nodes) and
// point events (OMPSIM_EVENT, MPI calls) with a data size and a partner.
// Signatures, call sites and edges live in small open-addressed tables: a
// program has few distinct signatures, and an event costs one lookup in
// each (measured: 3 lookups per event; region events are rare next to
// memory accesses).
//
// Compiled twice like cachesim/: no libc, memory through an Allocator.
#ifndef OMPSIM_PROFILERS_EVENTFLOW_H
#define OMPSIM_PROFILERS_EVENTFLOW_H

#include "RegionTypes.h"

namespace ompsim {
namespace flow {

// The signature components (a mask of them is what is recorded).
enum Component : u32 {
    kRegion = 1,    // what happened: the region entered, or the point event's name
    kCallsite = 2,  // where: the call path (call graph node) and a point event's call site
    kSize = 4,      // the data size in bytes
    kPartner = 8,   // the partner rank (point events that have one)
    kThread = 16,   // the thread
};
constexpr u32 kAllComponents = kRegion | kCallsite | kSize | kPartner | kThread;
constexpr u32 kDefaultComponents = kRegion | kCallsite | kSize | kPartner;
constexpr u32 kComponentCount = 5;
// "region", "callsite", ... for the component with bit `1 << i`.
const char* component_name(u32 i);
// Parses "region,callsite,..." into a mask; 0 if a name is unknown or the list is empty.
u32 parse_components(const char* list, u32 len);

constexpr u32 kStart = 0;     // the signature every thread starts at (S0)
constexpr u32 kNoSite = 0xffffffffu;

// One event as the tool sees it.
struct Event {
    u32 what;       // region entry: the tool's region id; point event: its name id
    bool point;     // a point event (else a region entry)
    bool has_partner;
    u32 node;       // the call graph node: the one entered, or the one the point event is in
    u32 site;       // a point event's call site id (the tool's); kNoSite for region entries
    u64 size;       // bytes (0 for region entries)
    int64_t partner;    // when has_partner
};

struct Callsite {
    u32 node;
    u32 site;
};

// A signature: the components not recorded are 0 (or false).
struct Signature {
    u32 what;
    bool point;
    bool has_partner;
    u32 callsite;   // 1-based index of the call site; 0 without the component
    u32 thread;
    u64 size;
    int64_t partner;
};

struct Edge {
    u32 from, to;   // signature ids (kStart or 1-based)
    u32 thread;
    u64 count;
    u64 cycles;     // the thread's cycles from the `from` event to the `to` event
};

class EventFlow {
public:
    bool init(const Allocator& a, u32 components);
    u32 components() const { return components_; }

    // `thread`'s next event, at its clock `cycles`.
    void event(u32 thread, const Event& e, u64 cycles);
    // OMPSIM_ZERO_COUNTERS: every count is forgotten and each thread starts
    // over at S0 from `cycles` (its clock).
    void zero(u32 thread, u64 cycles);

    // Signatures are 1-based (1..signature_count()), in order of first occurrence.
    u32 signature_count() const { return nsigs_; }
    const Signature& signature(u32 id) const { return sigs_[id - 1]; }
    // Call sites are 1-based, in order of first occurrence.
    u32 callsite_count() const { return nsites_; }
    const Callsite& callsite(u32 id) const { return sites_[id - 1]; }
    // Edges in order of first occurrence (counts may be 0 after zero()).
    u32 edge_count() const { return nedges_; }
    const Edge& edge(u32 i) const { return edges_[i]; }

private:
    struct Cursor {
        u32 prev;     // signature of the thread's last event
        u64 last;     // its clock then
    };
    struct Table {
        u32* slot;    // 1-based entry index, 0 = empty
        u32 cap;
    };

    void* mem(size_t bytes);
    u32 find(const Table& t, u64 hash, u32 kind, const void* key) const;
    void insert(Table& t, u64 hash, u32 entry);
    void rehash(Table& t, u32 kind, u32 n);
    // The index of `key` (hash h) in arr[0, n), appended (as `fresh`) if new.
    template <typename T, typename Key>
    u32 intern(Table& t, u32 kind, T*& arr, u32& n, u32& cap, const Key& key, const T& fresh, u64 h);
    u64 hash_of(u32 kind, u32 entry) const;
    bool equal(u32 kind, u32 entry, const void* key) const;
    u32 callsite_id(u32 node, u32 site);
    u32 signature_id(const Signature& s);
    Edge& edge_of(u32 from, u32 to, u32 thread);
    Cursor& cursor(u32 thread);

    Allocator alloc_{};
    u32 components_ = 0;
    Signature* sigs_ = nullptr;
    u32 nsigs_ = 0, sigs_cap_ = 0;
    Callsite* sites_ = nullptr;
    u32 nsites_ = 0, sites_cap_ = 0;
    Edge* edges_ = nullptr;
    u32 nedges_ = 0, edges_cap_ = 0;
    Cursor* cursors_ = nullptr;
    u32 ncursors_ = 0, cursors_cap_ = 0;
    Table sig_index_{}, site_index_{}, edge_index_{};
};

}  // namespace flow
}  // namespace ompsim

#endif
