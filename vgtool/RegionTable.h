// The regions the run met (OpenMP constructs, user regions, functions), each
// with a small id the stream markers carry: a construct is its type and code
// pointer, a function its entry address, a user region its name. Locations
// (file, function, first and last line) are looked up once per region, and
// widened by the code pointers of a construct's end (a loop's work end, a
// critical's release), so a construct shows ompP's line range.
#ifndef OMPSIM_VGTOOL_REGIONTABLE_H
#define OMPSIM_VGTOOL_REGIONTABLE_H

#include "RegionTypes.h"
#include "ValgrindApi.h"

namespace ompsim {
namespace regiontab {

struct Region {
    regions::RegionType type;
    Addr key;
    const HChar* name;  // user regions and functions ("" otherwise)
    const HChar* file;  // "" when unknown
    const HChar* fn;
    UInt first, last;   // 0 when unknown
    Addr last_widened;  // the last end address looked up (most are repeats)
    bool end_located;   // widen_to_end() has run
};

// The id of the construct of `type` at code address `code` (0: none).
u32 construct(regions::RegionType type, Addr code);
// The construct of `type` known by `key` (any value unique among that type's
// keys: e.g. "the k-th worksharing construct of parallel region R"), located
// at code address `where` (0: not yet; a later widen() locates it).
u32 construct_keyed(regions::RegionType type, Addr key, Addr where);
// The function entered at `entry`; `where` is any address inside it.
u32 function(Addr entry);
// The user region named `name` (a string in the client), begun at `where`.
u32 user(const HChar* name, Addr where);
// The user region named `name` if it exists, else kNoRegion.
u32 find_user(const HChar* name);
// Extends the region's line range by the line of `where` (same file only).
void widen(u32 id, Addr where);
// Whether widen_to_end() has located the region's end.
bool end_located(u32 id);
// widen() by the call site of the construct's end, found once: a critical's
// or an ordered's body ends at one place in the code.
void widen_to_end(u32 id, Addr site);

// The source location of code address `where`: the file's path, the
// function and the line ("", "", 0 when unknown). The strings live forever.
void locate(Addr where, const HChar** file, const HChar** fn, UInt* line);

const Region& get(u32 id);
u32 count();

}  // namespace regiontab
}  // namespace ompsim

#endif
