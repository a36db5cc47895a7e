#include "EventSites.h"

#include "IdMap.h"
#include "RegionTable.h"
#include "ToolArray.h"

namespace ompsim {
namespace eventsites {

namespace {

const HChar** g_names;
u32 g_nnames, g_names_cap;
Site* g_sites;
u32 g_nsites, g_sites_cap;
IdMap g_name_index, g_site_index;  // hash -> id + 1
bool g_init;

u64 name_hash(const HChar* s) {
    u64 h = 1469598103934665603ull;  // FNV-1a
    for (const HChar* c = s; *c; ++c) h = (h ^ (u8)*c) * 1099511628211ull;
    return h | 1;  // IdMap keys are nonzero
}

u64 site_hash(u32 name_id, Addr where) { return ((u64)where * 0x9e3779b97f4a7c15ull ^ name_id) | 1; }

void init() {
    if (g_init) return;
    g_init = true;
    g_name_index.init(tool_allocator());
    g_site_index.init(tool_allocator());
}

// Two names (or sites) may share a hash: the hash finds the usual one, a
// scan the rest.
u32 name_id(const HChar* name) {
    u64 h = name_hash(name);
    uptr hit = (uptr)g_name_index.get(h);
    if (hit && VG_(strcmp)(g_names[hit - 1], name) == 0) return (u32)hit - 1;
    for (u32 i = 0; hit && i < g_nnames; ++i)
        if (VG_(strcmp)(g_names[i], name) == 0) return i;
    reserve(g_names, g_names_cap, g_nnames + 1, 16, "ompsim.eventsites");
    g_names[g_nnames] = VG_(strdup)("ompsim.eventsites", name);
    if (!hit) g_name_index.put(h, (void*)(uptr)(g_nnames + 1));
    return g_nnames++;
}

}  // namespace

u32 site(const HChar* name, Addr where) {
    init();
    u32 n = name_id(name);
    u64 h = site_hash(n, where);
    uptr hit = (uptr)g_site_index.get(h);
    if (hit && g_sites[hit - 1].name == n && g_sites[hit - 1].where == where) return (u32)hit - 1;
    for (u32 i = 0; hit && i < g_nsites; ++i)
        if (g_sites[i].name == n && g_sites[i].where == where) return i;
    reserve(g_sites, g_sites_cap, g_nsites + 1, 16, "ompsim.eventsites");
    Site& s = g_sites[g_nsites];
    s.name = n;
    s.where = where;
    regiontab::locate(where, &s.file, &s.fn, &s.line);
    if (!hit) g_site_index.put(h, (void*)(uptr)(g_nsites + 1));
    return g_nsites++;
}

const Site& get(u32 site) { return g_sites[site]; }
const HChar* name(u32 name_id) { return g_names[name_id]; }

}  // namespace eventsites
}  // namespace ompsim
