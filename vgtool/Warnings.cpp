// The run's reached limits, for <run><warnings> (see Warnings.h).
#include "Warnings.h"

#include "ProfileWriter.h"

namespace ompsim {
namespace warnings {

namespace {

struct Warning {
    HChar* kind;
    HChar* option;  // nullptr: a built-in bound
    ULong limit;
    HChar* message;
};

// One per kind; there are fewer kinds than this (docs/limits.md lists them).
constexpr UInt kMaxWarnings = 16;
Warning g_warnings[kMaxWarnings];
UInt g_n;

}  // namespace

void note(const HChar* kind, const HChar* option, ULong limit, const HChar* message) {
    for (UInt i = 0; i < g_n; ++i)
        if (VG_(strcmp)(g_warnings[i].kind, kind) == 0) return;
    if (g_n == kMaxWarnings) return;
    Warning& w = g_warnings[g_n++];
    w.kind = VG_(strdup)("ompsim.warnings", kind);
    w.option = option ? VG_(strdup)("ompsim.warnings", option) : nullptr;
    w.limit = limit;
    w.message = VG_(strdup)("ompsim.warnings", message);
}

UInt count() { return g_n; }

void put_xml(VgFile* fp) {
    if (g_n == 0) return;
    VG_(fprintf)(fp, "    <warnings>\n");
    for (UInt i = 0; i < g_n; ++i) {
        const Warning& w = g_warnings[i];
        VG_(fprintf)(fp, "      <warning kind=\"");
        put_xml_escaped(fp, w.kind);
        if (w.option) {
            VG_(fprintf)(fp, "\" option=\"");
            put_xml_escaped(fp, w.option);
        }
        VG_(fprintf)(fp, "\" limit=\"%llu\">", w.limit);
        put_xml_escaped(fp, w.message);
        VG_(fprintf)(fp, "</warning>\n");
    }
    VG_(fprintf)(fp, "    </warnings>\n");
}

}  // namespace warnings
}  // namespace ompsim
