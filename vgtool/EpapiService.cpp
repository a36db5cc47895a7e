#include "EpapiService.h"

#include "CostCentres.h"
#include "DataStructures.h"
#include "EpapiEvents.h"
#include "ProfileWriter.h"
#include "epapi.h"
#include "ompsim.h"

namespace ompsim {
namespace epapi {

namespace {

HierarchyConfig g_cfg;
bool g_fetches;

// Unsimulated code ranges: one per object that carries ePAPI code (libepapi,
// the preload library); a handful at most.
constexpr int kMaxUnsimulated = 16;
Addr g_lo[kMaxUnsimulated], g_hi[kMaxUnsimulated];
int g_nunsim;

// What OMPSIM_ZERO_COUNTERS took away: whole program, and per structure
// (indexed by structure id; 2 x (levels+1) served counts each).
EpapiCounts g_base;
ULong* g_ds_base;
u32 g_ds_base_n;

void add(EpapiCounts& to, const EpapiCounts& c) {
    for (int k = 0; k < 3; ++k) {
        to.refs[k] += c.refs[k];
        for (int d = 0; d <= kEpapiMaxLevels; ++d) to.served[k][d] += c.served[k][d];
    }
    to.cycles += c.cycles;
}

EpapiCounts empty(bool whole) {
    EpapiCounts c;
    VG_(memset)(&c, 0, sizeof c);
    c.levels = g_cfg.levels;
    c.whole_program = whole;
    c.fetches_simulated = g_fetches;
    return c;
}

EpapiCounts program_now() {
    EpapiCounts c = empty(true);
    cost::for_each([](const LineCC& cc, void* ctx) {
        EpapiCounts& c = *static_cast<EpapiCounts*>(ctx);
        c.refs[0] += cc.ir;
        c.refs[1] += cc.dr;
        c.refs[2] += cc.dw;
        for (int d = 1; d <= g_cfg.levels; ++d) {
            c.served[0][d] += cc.ir_served[d];
            c.served[1][d] += cc.dr_served[d];
            c.served[2][d] += cc.dw_served[d];
        }
        c.cycles += cycles_of(cc, g_cfg);
    }, &c);
    return c;
}

// A structure's counts from served[kind][depth] (kind 0 read, 1 write).
template <typename Served>
EpapiCounts structure_counts(Served served) {
    EpapiCounts c = empty(false);
    for (int k = 0; k < 2; ++k)
        for (int d = 0; d <= g_cfg.levels; ++d) {
            ULong n = served(k, d);
            c.served[k + 1][d] = n;
            c.refs[k + 1] += n;
        }
    return c;
}

ULong ds_base(u32 id, int k, int d) {
    return id < g_ds_base_n ? g_ds_base[(id * 2 + k) * (kEpapiMaxLevels + 1) + d] : 0;
}

EpapiCounts counts(UWord handle) {
    if (handle == 0) {
        EpapiCounts c = program_now();
        add(c, g_base);
        return c;
    }
    u32 id = (u32)(handle - 1);
    return structure_counts([id](int k, int d) { return ds::g_mon.served(id, k, d) + ds_base(id, k, d); });
}

bool valid_handle(UWord handle) { return handle == 0 || (handle - 1) < ds::g_mon.structures(); }

Word range(Addr a, SizeT n) {
    if (n == 0) return EPAPI_EINVAL;
    u32 id = ds::find_range(a, n);
    if (id == kMonitorNoStructure) {
        HChar name[48];
        VG_(sprintf)(name, "epapi range 0x%lx", a);
        id = ds::add_user_range(a, n, name);
    }
    if (id == kMonitorNoStructure) return EPAPI_ENOMEM;
    return (Word)id + 1;
}

Word histogram(UWord handle, int code, u64* out, UWord n) {
    if (handle == 0 || !valid_handle(handle)) return EPAPI_EINVAL;
    u32 id = (u32)(handle - 1);
    Word rc = epapi_check(code, g_cfg.levels, false, g_fetches);
    if (rc != EPAPI_OK) return rc;
    u32 nb = ds::g_mon.buckets(id);
    if (n < nb) return nb;
    for (u32 b = 0; b < nb; ++b) {
        EpapiCounts c = structure_counts([id, b](int k, int d) { return ds::g_mon.bucket_served(id, b, k, d); });
        epapi_value(c, code, &out[b]);
    }
    return nb;
}

}  // namespace

void init(const HierarchyConfig& cfg, bool fetches_simulated) {
    g_cfg = cfg;
    g_fetches = fetches_simulated;
    g_base = empty(true);
}

bool unsimulated(Addr a) {
    for (int i = 0; i < g_nunsim; ++i)
        if (a >= g_lo[i] && a < g_hi[i]) return true;
    return false;
}

void before_zero() {
    add(g_base, program_now());
    u32 n = ds::g_mon.structures();
    if (n == 0) return;
    const u32 row = 2 * (kEpapiMaxLevels + 1);
    if (n > g_ds_base_n) {
        g_ds_base = static_cast<ULong*>(VG_(realloc)("ompsim.epapi.base", g_ds_base, n * row * sizeof(ULong)));
        VG_(memset)(g_ds_base + g_ds_base_n * row, 0, (n - g_ds_base_n) * row * sizeof(ULong));
        g_ds_base_n = n;
    }
    for (u32 id = 0; id < n; ++id)
        for (int k = 0; k < 2; ++k)
            for (int d = 0; d <= g_cfg.levels; ++d)
                g_ds_base[(id * 2 + k) * (kEpapiMaxLevels + 1) + d] += ds::g_mon.served(id, k, d);
}

bool handle_request(UWord* args, UWord* ret) {
    switch (args[0]) {
        case OMPSIM_USERREQ_EPAPI_PROBE:
            *ret = OMPSIM_EPAPI_MAGIC;
            return true;
        case OMPSIM_USERREQ_UNSIMULATED_CODE: {
            Addr lo = args[1], hi = args[2];
            *ret = 0;
            if (lo >= hi || unsimulated(lo)) return true;
            if (g_nunsim == kMaxUnsimulated) {
                VG_(umsg)("warning: more than %d unsimulated code ranges; ePAPI code at 0x%lx is simulated\n",
                          kMaxUnsimulated, lo);
                return true;
            }
            g_lo[g_nunsim] = lo;
            g_hi[g_nunsim] = hi;
            ++g_nunsim;
            VG_(discard_translations_safely)(lo, hi - lo, "ompsim.epapi");
            return true;
        }
        case OMPSIM_USERREQ_EPAPI_RANGE:
            *ret = (UWord)range(args[1], args[2]);
            return true;
        case OMPSIM_USERREQ_EPAPI_QUERY:
            *ret = valid_handle(args[1])
                       ? (UWord)(Word)epapi_check((int)args[2], g_cfg.levels, args[1] == 0, g_fetches)
                       : (UWord)(Word)EPAPI_EINVAL;
            return true;
        case OMPSIM_USERREQ_EPAPI_READ: {
            if (!valid_handle(args[1])) {
                *ret = (UWord)(Word)EPAPI_EINVAL;
                return true;
            }
            const int* codes = reinterpret_cast<const int*>(args[2]);
            u64* out = reinterpret_cast<u64*>(args[4]);
            EpapiCounts c = counts(args[1]);
            Word rc = EPAPI_OK;
            for (UWord i = 0; i < args[3]; ++i) {
                int e = epapi_value(c, codes[i], &out[i]);
                if (e != EPAPI_OK) {
                    out[i] = 0;
                    if (rc == EPAPI_OK) rc = e;
                }
            }
            *ret = (UWord)rc;
            return true;
        }
        case OMPSIM_USERREQ_EPAPI_HISTOGRAM:
            *ret = (UWord)histogram(args[1], (int)args[2], reinterpret_cast<u64*>(args[3]), args[4]);
            return true;
        case OMPSIM_USERREQ_EPAPI_RESOLUTION: {
            UWord h = args[1];
            bool ok = h != 0 && valid_handle(h) && ds::g_mon.set_resolution((u32)(h - 1), (u32)args[2], (u32)args[3]);
            *ret = ok ? (UWord)ds::g_mon.buckets((u32)(h - 1)) : (UWord)(Word)EPAPI_EINVAL;
            return true;
        }
        default:
            return false;
    }
}

}  // namespace epapi
}  // namespace ompsim
