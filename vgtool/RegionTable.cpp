#include "RegionTable.h"

#include "ToolArray.h"

namespace ompsim {
namespace regiontab {

namespace {

Region* g_regions;
u32 g_n, g_cap;

// Lookups by (type, key): regions are few (constructs and functions of one
// program), and each event looks its region up once: a small open-addressed
// table keeps that cheap for -finstrument-functions programs.
struct Slot {
    Addr key;
    u32 id_plus_1;
};
Slot* g_index;
u32 g_index_cap;

u64 mix(regions::RegionType t, Addr key) {
    u64 h = (u64)key * 0x9e3779b97f4a7c15ull ^ ((u64)t << 59);
    return h ^ (h >> 29);
}

const HChar* dup(const HChar* s) { return VG_(strdup)("ompsim.regions", s ? s : ""); }

void locate(Region& r, Addr where) {
    UInt line = 0;
    regiontab::locate(where, &r.file, &r.fn, &line);
    r.first = r.last = line;
}

void rehash();

// `name`: user regions are keyed by a hash of their name, which two names
// may share: the name decides.
u32 lookup(regions::RegionType t, Addr key, const HChar* name = nullptr) {
    if (!g_index_cap) return regions::kNoRegion;
    for (u32 i = (u32)mix(t, key) & (g_index_cap - 1);; i = (i + 1) & (g_index_cap - 1)) {
        if (!g_index[i].id_plus_1) return regions::kNoRegion;
        const Region& r = g_regions[g_index[i].id_plus_1 - 1];
        if (r.key == key && r.type == t && (!name || VG_(strcmp)(r.name, name) == 0)) return g_index[i].id_plus_1 - 1;
    }
}

Addr name_key(const HChar* name) {
    u64 h = 1469598103934665603ull;  // FNV-1a
    for (const HChar* c = name; *c; ++c) h = (h ^ (u8)*c) * 1099511628211ull;
    return (Addr)h;
}

void index(u32 id) {
    if (2 * (g_n + 1) > g_index_cap) rehash();
    const Region& r = g_regions[id];
    u32 i = (u32)mix(r.type, r.key) & (g_index_cap - 1);
    while (g_index[i].id_plus_1) i = (i + 1) & (g_index_cap - 1);
    g_index[i] = Slot{r.key, id + 1};
}

void rehash() {
    u32 cap = g_index_cap ? 2 * g_index_cap : 256;
    g_index = static_cast<Slot*>(VG_(calloc)("ompsim.regions", cap, sizeof(Slot)));
    g_index_cap = cap;
    for (u32 id = 0; id < g_n; ++id) {
        const Region& r = g_regions[id];
        u32 i = (u32)mix(r.type, r.key) & (cap - 1);
        while (g_index[i].id_plus_1) i = (i + 1) & (cap - 1);
        g_index[i] = Slot{r.key, id + 1};
    }
}

u32 add(regions::RegionType t, Addr key, const HChar* name, Addr where) {
    reserve(g_regions, g_cap, g_n + 1, 64, "ompsim.regions");
    Region& r = g_regions[g_n];
    VG_(memset)(&r, 0, sizeof r);
    r.type = t;
    r.key = key;
    r.name = name;
    locate(r, where);
    r.last_widened = where;
    index(g_n);
    return g_n++;
}

}  // namespace

void locate(Addr where, const HChar** file_out, const HChar** fn_out, UInt* line_out) {
    *file_out = "";
    *fn_out = "";
    *line_out = 0;
    if (!where) return;
    DiEpoch ep = VG_(current_DiEpoch)();
    const HChar *file = nullptr, *dir = nullptr, *fn = nullptr;
    UInt line = 0;
    if (VG_(get_filename_linenum)(ep, where, &file, &dir, &line)) {
        HChar* path = static_cast<HChar*>(VG_(malloc)("ompsim.regions", VG_(strlen)(dir) + VG_(strlen)(file) + 2));
        if (dir[0])
            VG_(sprintf)(path, "%s/%s", dir, file);
        else
            VG_(sprintf)(path, "%s", file);
        *file_out = path;
        *line_out = line;
    }
    if (VG_(get_fnname)(ep, where, &fn)) *fn_out = dup(fn);
}

u32 construct(regions::RegionType type, Addr code) {
    u32 id = lookup(type, code);
    return id != regions::kNoRegion ? id : add(type, code, "", code);
}

u32 construct_keyed(regions::RegionType type, Addr key, Addr where) {
    u32 id = lookup(type, key);
    if (id == regions::kNoRegion) return add(type, key, "", where);
    widen(id, where);
    return id;
}

u32 function(Addr entry) {
    u32 id = lookup(regions::kFunction, entry);
    if (id != regions::kNoRegion) return id;
    const HChar* fn = nullptr;
    id = add(regions::kFunction, entry, "", entry);
    if (VG_(get_fnname)(VG_(current_DiEpoch)(), entry, &fn)) g_regions[id].name = dup(fn);
    return id;
}

u32 find_user(const HChar* name) { return lookup(regions::kUser, name_key(name), name); }

u32 user(const HChar* name, Addr where) {
    u32 id = find_user(name);
    if (id != regions::kNoRegion) return id;
    const HChar* copy = dup(name);
    return add(regions::kUser, name_key(copy), copy, where);
}

void widen(u32 id, Addr where) {
    if (id >= g_n || !where) return;
    Region& r = g_regions[id];
    if (where == r.last_widened) return;
    r.last_widened = where;
    if (!r.file[0]) {  // begun without a code pointer: the end's location will do
        locate(r, where);
        return;
    }
    DiEpoch ep = VG_(current_DiEpoch)();
    const HChar *file = nullptr, *dir = nullptr;
    UInt line = 0;
    if (!VG_(get_filename_linenum)(ep, where, &file, &dir, &line)) return;
    SizeT dl = VG_(strlen)(dir), fl = VG_(strlen)(file);
    // Same file only (an inlined function's lines say nothing about the construct).
    bool same = dl ? VG_(strncmp)(r.file, dir, dl) == 0 && r.file[dl] == '/' && VG_(strcmp)(r.file + dl + 1, file) == 0
                   : VG_(strcmp)(r.file, file) == 0;
    if (!same || fl == 0) return;
    if (!r.first || line < r.first) r.first = line;
    if (line > r.last) r.last = line;
}

bool end_located(u32 id) { return id >= g_n || g_regions[id].end_located; }

void widen_to_end(u32 id, Addr site) {
    if (id >= g_n) return;
    g_regions[id].end_located = true;
    widen(id, site);
}

const Region& get(u32 id) { return g_regions[id]; }
u32 count() { return g_n; }

}  // namespace regiontab
}  // namespace ompsim
