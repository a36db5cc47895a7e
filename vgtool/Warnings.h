// The limits a run reached (docs/limits.md). Every bounded structure of the
// tool that fills up keeps working in a degraded way (the replay leaves the
// canonical order, the OSPG stops adding nodes, a histogram coarsens...) and
// notes it here once; the profile document then says so in
// <run><warnings><warning kind=".." option=".." limit="..">what it means</warning>,
// so a reader of the document learns what it does not cover.
#ifndef OMPSIM_VGTOOL_WARNINGS_H
#define OMPSIM_VGTOOL_WARNINGS_H

#include "ValgrindApi.h"

namespace ompsim {
namespace warnings {

// A limit was reached. kind: a short stable name (a-z, 0-9, '-'), the key a
// reader matches on; option: the option that sets the limit, or nullptr for
// a built-in bound; limit: its value (bytes, nodes, ...); message: what it
// means for the document (copied). The first note of a kind is kept, later
// ones of the same kind are ignored (one warning per limit).
void note(const HChar* kind, const HChar* option, ULong limit, const HChar* message);

// How many warnings were noted.
UInt count();

// Writes "    <warnings>...</warnings>\n" (inside <run>, after <determinism>);
// nothing when no limit was reached, so runs within their limits write the
// document they always did.
void put_xml(VgFile* fp);

}  // namespace warnings
}  // namespace ompsim

#endif
