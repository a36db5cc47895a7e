// Calls of the C library's allocation functions sent to the preload's
// wrappers (see HeapHooks.h).
#include "HeapHooks.h"

#include "HeapHookList.h"
#include "WrapperCode.h"

namespace ompsim {
namespace heaphooks {
namespace {

#define OMPSIM_HOOK_NAME(f) #f,
const HChar* const kNames[] = {OMPSIM_HEAP_HOOKS(OMPSIM_HOOK_NAME)};
#undef OMPSIM_HOOK_NAME
constexpr UInt kCount = OMPSIM_HOOK_COUNT;
static_assert(sizeof kNames / sizeof kNames[0] == kCount, "one name per hook");

const HChar kWrapperPrefix[] = "ompsim_hook_";

bool g_on;
bool g_found;             // the C library's entries and the wrappers are known
bool g_maybe_new = true;  // a mapping came since the last search
Addr g_entry[kCount];     // in the C library (0: not found)
Addr g_wrapper[kCount];   // in the preload
Addr g_lo, g_span;        // the entries' span: most instructions are one compare

// Which hook `name` (with or without a "@VERSION" suffix, after `prefix`)
// names; kCount for none.
UInt hook_named(const HChar* name, const HChar* prefix) {
    if (!name || !has_prefix(name, prefix)) return kCount;
    name += VG_(strlen)(prefix);
    SizeT n = 0;
    while (name[n] && name[n] != '@') ++n;
    for (UInt k = 0; k < kCount; ++k)
        if (VG_(strlen)(kNames[k]) == n && VG_(strncmp)(name, kNames[k], n) == 0) return k;
    return kCount;
}

// The symbols of `di` named prefix + a hook's name (any alias) into `out`.
void read_symbols(const DebugInfo* di, const HChar* prefix, Addr* out) {
    Int n = vgPlain_DebugInfo_syms_howmany(di);
    for (Int i = 0; i < n; ++i) {
        SymbolEntry e = symbol_entry(di, i);
        if (!e.is_text || e.is_ifunc || e.avma == 0) continue;
        UInt k = hook_named(e.name, prefix);
        for (const HChar** a = e.aliases; k == kCount && a && *a; ++a) k = hook_named(*a, prefix);
        if (k < kCount && out[k] == 0) out[k] = e.avma;
    }
}

// Looks for the C library among the objects whose symbols Valgrind has
// read, and asks WrapperCode for the preload; done once both are seen. A
// function of one address with another (glibc's cfree is free) keeps the
// first hook only.
void locate() {
    g_maybe_new = false;
    const DebugInfo* libc = nullptr;
    for (const DebugInfo* di = VG_(next_DebugInfo)(nullptr); di && !libc; di = VG_(next_DebugInfo)(di)) {
        const HChar* so = VG_(DebugInfo_get_soname)(di);
        if (so && has_prefix(so, "libc.so")) libc = di;
    }
    const DebugInfo* preload = wrappers::preload();
    if (!libc || !preload) return;
    Addr entry[kCount] = {}, wrapper[kCount] = {};
    read_symbols(libc, "", entry);
    read_symbols(preload, kWrapperPrefix, wrapper);
    Addr lo = ~Addr(0), hi = 0;
    for (UInt k = 0; k < kCount; ++k) {
        for (UInt j = 0; j < k; ++j)
            if (entry[j] == entry[k]) entry[k] = 0;
        if (!entry[k] || !wrapper[k]) {
            entry[k] = wrapper[k] = 0;
            continue;
        }
        if (entry[k] < lo) lo = entry[k];
        if (entry[k] > hi) hi = entry[k];
    }
    VG_(memcpy)(g_entry, entry, sizeof entry);
    VG_(memcpy)(g_wrapper, wrapper, sizeof wrapper);
    g_lo = lo;
    g_span = hi >= lo ? hi - lo + 1 : 0;
    g_found = true;
    if (VG_(clo_verbosity) > 1) {
        UInt n = 0;
        for (UInt k = 0; k < kCount; ++k) n += g_entry[k] != 0;
        VG_(umsg)("heap wrappers: %u functions of %s sent to %s\n", n, VG_(DebugInfo_get_soname)(libc),
                  VG_(basename)(VG_(DebugInfo_get_filename)(preload)));
    }
}

}  // namespace

void enable() { g_on = true; }

void enable_now() {
    if (g_on) return;
    g_on = true;
    if (!g_found) locate();
    for (UInt k = 0; k < kCount; ++k)
        if (g_entry[k]) VG_(discard_translations_safely)(g_entry[k], 1, "ompsim.heaphooks");
}

void mapping_changed() { g_maybe_new = true; }

Addr wrapper_for(Addr a) {
    if (!g_on) return 0;
    if (!g_found && g_maybe_new) locate();
    if (a - g_lo >= g_span) return 0;
    for (UInt k = 0; k < kCount; ++k)
        if (g_entry[k] == a) return g_wrapper[k];
    return 0;
}

UWord real_functions(UWord* table) {
    if (!VG_(am_is_valid_for_client)((Addr)table, kCount * sizeof(UWord), VKI_PROT_WRITE)) return 0;
    if (!g_found) locate();
    UWord n = 0;
    for (UInt k = 0; k < kCount; ++k) {
        table[k] = g_entry[k];
        n += g_entry[k] != 0;
    }
    return n;
}

}  // namespace heaphooks
}  // namespace ompsim
