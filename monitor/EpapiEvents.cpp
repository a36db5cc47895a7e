#include "EpapiEvents.h"

#include "epapi.h"

namespace ompsim {

namespace {

// The quantities an event can name; see include/epapi.h's event list.
enum What { DCA, DCR, DCW, DCH, DCM, LDM, STM, ICA, ICH, ICM, TCA, TCH, TCM, INS, LD, SR, LST, CYC };

struct Preset {
    int code;
    int level;
    What what;
};

#define OMPSIM_EPAPI_ROW_(name, idx, level, what, descr) {EPAPI_##name, level, what},
const Preset kPresets[] = {EPAPI_PRESET_EVENTS(OMPSIM_EPAPI_ROW_)};
#undef OMPSIM_EPAPI_ROW_

const Preset* find(int code) {
    for (const Preset& p : kPresets)
        if (p.code == code) return &p;
    return nullptr;
}

bool data_only(What w) { return w <= STM || w == LD || w == SR || w == LST; }
bool fetch_part(What w) { return w >= ICA && w <= TCM; }

// References of kind k that reach level `level` (1-based), and those it misses.
u64 reach(const EpapiCounts& c, int k, int level) {
    if (level == 1) return c.refs[k];
    u64 n = 0;
    for (int d = level - 1; d <= c.levels; ++d) n += c.served[k][d];
    return n;
}
u64 miss(const EpapiCounts& c, int k, int level) {
    u64 n = 0;
    for (int d = level; d <= c.levels; ++d) n += c.served[k][d];
    return n;
}

// Hits are references minus misses. In the general hierarchy a reference is
// an access and a miss is a line (an access can straddle two lines), so the
// difference saturates at 0 rather than wrapping.
u64 minus(u64 a, u64 b) { return a > b ? a - b : 0; }

}  // namespace

int epapi_check(int code, int levels, bool whole_program, bool fetches_simulated) {
    const Preset* p = find(code);
    if (!p) return EPAPI_ENOTPRESET;
    if (p->level > levels) return EPAPI_ENOEVNT;
    if (fetch_part(p->what) && !fetches_simulated) return EPAPI_ENOEVNT;
    if (!whole_program && !data_only(p->what)) return EPAPI_ECNFLCT;
    return EPAPI_OK;
}

int epapi_value(const EpapiCounts& c, int code, u64* out) {
    int rc = epapi_check(code, c.levels, c.whole_program, c.fetches_simulated);
    if (rc != EPAPI_OK) return rc;
    const Preset& p = *find(code);
    const int L = p.level;
    u64 v = 0;
    switch (p.what) {
        case DCA: v = reach(c, 1, L) + reach(c, 2, L); break;
        case DCR: v = reach(c, 1, L); break;
        case DCW: v = reach(c, 2, L); break;
        case DCH: v = minus(reach(c, 1, L) + reach(c, 2, L), miss(c, 1, L) + miss(c, 2, L)); break;
        case DCM: v = miss(c, 1, L) + miss(c, 2, L); break;
        case LDM: v = miss(c, 1, L); break;
        case STM: v = miss(c, 2, L); break;
        case ICA: v = reach(c, 0, L); break;
        case ICH: v = minus(reach(c, 0, L), miss(c, 0, L)); break;
        case ICM: v = miss(c, 0, L); break;
        case TCA: v = reach(c, 0, L) + reach(c, 1, L) + reach(c, 2, L); break;
        case TCH:
            v = minus(reach(c, 0, L) + reach(c, 1, L) + reach(c, 2, L),
                      miss(c, 0, L) + miss(c, 1, L) + miss(c, 2, L));
            break;
        case TCM: v = miss(c, 0, L) + miss(c, 1, L) + miss(c, 2, L); break;
        case INS: v = c.refs[0]; break;
        case LD: v = c.refs[1]; break;
        case SR: v = c.refs[2]; break;
        case LST: v = c.refs[1] + c.refs[2]; break;
        case CYC: v = c.cycles; break;
    }
    *out = v;
    return EPAPI_OK;
}

}  // namespace ompsim
