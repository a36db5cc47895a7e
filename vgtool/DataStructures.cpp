#include "DataStructures.h"

#include "Instrumenter.h"
#include "MissWorker.h"

#include <stddef.h>

#include "CoherentMachine.h"
#include "CoreSim.h"
#include "ProfileWriter.h"
#include "ReuseDistance.h"
#include "SimHelpers.h"
#include "WrapperCode.h"

namespace ompsim {
namespace ds {

RangeMonitor g_mon;
bool g_coherence_columns;  // multi-core runs: Dcm Dfs after the data events
bool g_on;
u32 g_thread;

namespace {
// Automatic discovery (globals, heap sites): --monitor=yes. g_on can become
// true without it, when the program names a range.
bool g_auto;

void turn_on() {
    if (g_on) return;
    g_on = true;
    // The fast helpers count L1 hits without telling the monitor.
    instrument_monitor_started();
    g_mon.prepare_thread(g_thread);
    g_mon.set_current_thread(g_thread);
}
}  // namespace

namespace {

// Frames that identify an allocation site: enough to tell apart the same
// helper called from different places, few enough to group a loop's blocks.
constexpr UInt kSiteFrames = 3;

enum Kind : UChar { kGlobal, kHeap, kUser };
const HChar* const kKindName[] = {"global", "heap", "user"};

struct Info {
    Kind kind;
    const HChar* name;
    const HChar* file;
    UInt line;
    Addr addr;      // globals and user ranges; first block for heap sites
    ULong size;     // extent; largest block for heap sites
    ULong blocks;   // allocations (heap), 1 otherwise
    ULong bytes;    // bytes allocated in all (heap)
    Addr ips[kSiteFrames];
    UInt nips;
    ULong* reuse;   // --reuse-distance: kReuseBins distance bins, then cold; null until referenced
};

struct SiteKey {
    ULong hash;
    UInt n;
    Addr ips[kSiteFrames];
};
struct SiteNode {
    SiteKey key;
    u32 sid;
};

Options g_opt;
Info* g_info;
u32 g_ninfo, g_cap;
OSet* g_sites;   // SiteNode by SiteKey
// Live heap blocks are the monitor's automatic ranges themselves
// (RangeMonitor::remove_range(), structure_starting_at()): a hash of them
// beside it, as there was, took a host miss per malloc and per free on
// containers' 1.5 M heap events (heap_free() 3.4 % of its samples).
ULong g_handles[64];
UInt g_nhandles;

void* mon_alloc(void*, size_t n) { return VG_(malloc)("ompsim.monitor", n); }
void mon_release(void*, void* p) { VG_(free)(p); }

Word cmp_site(const void* key, const void* elem) {
    const SiteKey* a = static_cast<const SiteKey*>(key);
    const SiteKey* b = &static_cast<const SiteNode*>(elem)->key;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (UInt i = 0; i < a->n; ++i)
        if (a->ips[i] != b->ips[i]) return a->ips[i] < b->ips[i] ? -1 : 1;
    return 0;
}

Info& new_info(u32 sid, Kind kind) {
    if (sid >= g_cap) {
        u32 cap = g_cap ? g_cap * 2 : 64;
        while (cap <= sid) cap *= 2;
        g_info = static_cast<Info*>(VG_(realloc)("ompsim.ds.info", g_info, cap * sizeof(Info)));
        g_cap = cap;
    }
    if (sid >= g_ninfo) g_ninfo = sid + 1;
    Info& i = g_info[sid];
    VG_(memset)(&i, 0, sizeof i);
    i.kind = kind;
    i.name = "";
    i.file = "";
    return i;
}

// "declared at FILE:LINE" from Valgrind's description of a data address.
void declared_at(Addr a, const HChar** file, UInt* line) {
    *file = "";
    *line = 0;
    XArray* d1 = VG_(newXA)(VG_(malloc), "ompsim.ds.d1", VG_(free), sizeof(HChar));
    XArray* d2 = VG_(newXA)(VG_(malloc), "ompsim.ds.d2", VG_(free), sizeof(HChar));
    if (VG_(get_data_description)(d1, d2, VG_(current_DiEpoch)(), a)) {
        HChar zero = 0;
        VG_(addToXA)(d2, &zero);
        const HChar* text = static_cast<const HChar*>(VG_(indexXA)(d2, 0));
        const HChar* at = VG_(strstr)(text, "declared at ");
        if (at) {
            at += 12;
            const HChar* colon = VG_(strrchr)(at, ':');
            if (colon) {
                SizeT len = colon - at;
                HChar* f = static_cast<HChar*>(VG_(malloc)("ompsim.ds.file", len + 1));
                VG_(memcpy)(f, at, len);
                f[len] = 0;
                *file = f;
                *line = (UInt)VG_(strtoll10)(colon + 1, nullptr);
            }
        }
    }
    VG_(deleteXA)(d1);
    VG_(deleteXA)(d2);
}

// Whether `ip` is in libstdc++'s operator new or new[] (any variant).
// They are not wrapped (the C library's malloc, aligned_alloc and the rest
// they call are): when a wrapper's call to the real function was a trip
// through Valgrind's scheduler, a C++ allocation paid two (containers
// 100000 4: 4.63 s -> 4.31 s without them). Their frames, the first ones above the
// wrapper's, are left out of the site, which starts at the code that said
// `new`, as before. A few return addresses inside them are all there is:
// a small cache keeps the answers.
bool in_cxx_new(DiEpoch ep, Addr ip) {
    constexpr UInt kSlots = 64;
    static Addr known_ip[kSlots];
    static bool known_new[kSlots];
    UInt k = UInt(ip ^ (ip >> 6)) & (kSlots - 1);
    if (known_ip[k] == ip) return known_new[k];
    bool is_new = false;
    DebugInfo* di = VG_(find_DebugInfo)(ep, ip);
    const HChar* so = di ? VG_(DebugInfo_get_soname)(di) : nullptr;
    const HChar* fn = nullptr;
    if (so && VG_(strncmp)(so, "libstdc++.so", 12) == 0 && VG_(get_fnname)(ep, ip - 1, &fn))
        is_new = VG_(strncmp)(fn, "operator new", 12) == 0 || VG_(strncmp)(fn, "_Znw", 4) == 0 ||
                 VG_(strncmp)(fn, "_Zna", 4) == 0;
    known_ip[k] = ip;
    known_new[k] = is_new;
    return is_new;
}

}  // namespace

// System libraries (libc, ld.so, libstdc++) hold hundreds of internal
// globals, and evaluating their DWARF location expressions makes Valgrind
// 3.19 print warnings for newer DWARF opcodes. ompsim's own client-side
// objects (the preload libraries, a shared libepapi) hold bookkeeping, not
// the program's data.
bool program_object(const HChar* path) {
    if (!path) return false;
    if (VG_(strncmp)(path, "/lib", 4) == 0 || VG_(strncmp)(path, "/usr/lib", 8) == 0) return false;
    return !VG_(strstr)(path, "vgpreload_ompsim") && !VG_(strstr)(path, "libepapi.so");
}

void init(const Options& o, const HierarchyConfig& cfg) {
    g_opt = o;
    g_auto = o.enabled;
    g_on = o.enabled;
    g_thread = 1;
    // The monitor is set up even with --monitor=no: named ranges and ePAPI
    // ranges switch it on when the program asks (turn_on()).
    MonitorConfig mc;
    mc.levels = cfg.levels;
    mc.line_bits = (unsigned)log2_exact(cfg.level[0].line);
    mc.histogram_lines = o.histogram_lines;
    mc.histogram_bins = o.histogram_bins;
    mc.slots = o.slots;
    ErrorText err;
    error_clear(err);
    Allocator a = {mon_alloc, mon_release, nullptr};
    if (!g_mon.init(mc, a, err)) fatal_user_error(err.text);
    g_mon.prepare_thread(1);
    g_mon.set_current_thread(1);
    g_sites = VG_(OSetGen_Create)(offsetof(SiteNode, key), cmp_site, VG_(malloc), "ompsim.ds.sites", VG_(free));
}

void set_thread(ThreadId tid) {
    if (tid == g_thread) return;
    g_thread = tid;
    // Off, the monitor needs no row and no flush of its last-hit cache:
    // turn_on() names the thread. The replay switches threads at every
    // batch (omp_loop, 4 threads: 0.6 % of the samples in flush_cache()).
    if (!g_on) return;
    g_mon.prepare_thread(tid);
    g_mon.set_current_thread(tid);
}

void set_replay_thread(u32 slot) { set_thread(slot + 1); }

namespace {

// --reuse-distance: one LRU stack per simulated core (a core's private
// caches see only its references), made on the core's first access.
ReuseStack* g_stacks[kMaxCores];
u32 g_core;

ReuseStack& stack_of(u32 core) {
    if (!g_stacks[core]) {
        g_stacks[core] = static_cast<ReuseStack*>(VG_(malloc)("ompsim.ds.reuse", sizeof(ReuseStack)));
        if (!g_stacks[core]->init(tool_allocator())) fatal_user_error("--reuse-distance: out of memory");
    }
    return *g_stacks[core];
}

// The reference's distance on the current core's stack counts in the
// structure at addr (every data reference is on the stack, monitored or not).
void record_reuse(u64 addr) {
    u64 d = stack_of(g_core).reference(addr >> sim::g_machine.line_bits());
    u32 sid = g_mon.structure_at(addr);
    if (sid == kMonitorNoStructure || sid >= g_ninfo) return;
    Info& in = g_info[sid];
    if (!in.reuse) {
        in.reuse = static_cast<ULong*>(VG_(malloc)("ompsim.ds.reuse", (kReuseBins + 1) * sizeof(ULong)));
        VG_(memset)(in.reuse, 0, (kReuseBins + 1) * sizeof(ULong));
    }
    in.reuse[d == kColdDistance ? kReuseBins : reuse_bin(d)]++;
}

}  // namespace

void set_core(u32 core) { g_core = core < kMaxCores ? core : kMaxCores - 1; }

void record_events(u64 addr, u32 r, bool coherence) {
    u32 extra = 0;
    if (coherence && (r & kCoherenceMiss)) extra |= 1u << kExtraCoherence;
    if (coherence && (r & kFalseSharing)) extra |= 1u << kExtraFalseSharing;
    if (r & kPrefetchHit) extra |= 1u << kExtraPrefetchHit;
    if (r & kObserved) {
        if (g_opt.classify) {
            // The levels a data access missed are those above its depth.
            unsigned depth = r & kDepthMask;
            for (unsigned k = 0; k < depth && k < kMonitorMaxLevels; ++k)
                extra |= 1u << (kExtraClassBase + 4 * k + sim::g_machine.last_class(int(k)));
        }
        if (g_opt.reuse) record_reuse(addr);
    }
    if (extra) g_mon.record_extra(addr, extra);
}

void enable_coherence_columns() { g_coherence_columns = true; }

void heap_alloc(ThreadId tid, Addr p, SizeT n) {
    if (!g_auto || n == 0) return;
    DiEpoch ep = VG_(current_DiEpoch)();
    // The site's frames follow the wrapper's and operator new's, and
    // unwinding costs about 150 instructions a frame (containers: 7 frames,
    // 1,100 instructions an allocation): the first kSiteFrames + 2 frames
    // usually hold it, and only when they do not is the deeper trace taken.
    Addr raw[kSiteFrames + 4];
    SiteKey key;
    UInt depth = kSiteFrames + 2;
    for (;;) {
        UInt got = VG_(get_StackTrace)(tid, raw, depth, nullptr, nullptr, 0);
        VG_(memset)(&key, 0, sizeof key);
        for (UInt i = 0; i < got && key.n < kSiteFrames; ++i) {
            if (wrappers::in_wrappers(raw[i])) continue;  // the wrapper itself
            if (key.n == 0 && in_cxx_new(ep, raw[i])) continue;
            key.ips[key.n++] = raw[i];
        }
        if (key.n == kSiteFrames || got < depth || depth == kSiteFrames + 4) break;
        depth = kSiteFrames + 4;
    }
    key.hash = 1469598103934665603ULL;
    for (UInt i = 0; i < key.n; ++i) key.hash = (key.hash ^ key.ips[i]) * 1099511628211ULL;

    SiteNode* site = static_cast<SiteNode*>(VG_(OSetGen_Lookup)(g_sites, &key));
    if (!site) {
        missworker::sync();  // a new structure may move the others' overflow rows
        site = static_cast<SiteNode*>(VG_(OSetGen_AllocNode)(g_sites, sizeof(SiteNode)));
        site->key = key;
        site->sid = g_mon.add_structure(false);
        VG_(OSetGen_Insert)(g_sites, site);
        Info& in = new_info(site->sid, kHeap);
        in.addr = p;
        in.nips = key.n;
        for (UInt i = 0; i < key.n; ++i) in.ips[i] = key.ips[i];
        // Named after the allocating function and line, like a variable.
        const HChar* fn = nullptr;
        const HChar *file = nullptr, *dir = nullptr;
        UInt line = 0;
        if (key.n && VG_(get_fnname)(ep, key.ips[0] - 1, &fn)) in.name = VG_(strdup)("ompsim.ds.name", fn);
        if (key.n && VG_(get_filename_linenum)(ep, key.ips[0] - 1, &file, &dir, &line)) {
            in.file = VG_(strdup)("ompsim.ds.file", file);
            in.line = line;
        }
    }
    Info& in = g_info[site->sid];
    in.blocks++;
    in.bytes += n;
    if (n > in.size) in.size = n;
    // A block at an address that is still live (a missed free) is replaced.
    heap_free(p);
    if (g_mon.add_moves_counters(site->sid, n)) missworker::sync();
    g_mon.add_range(p, n, site->sid);
}

bool tracks_heap() { return g_auto; }

void heap_free(Addr p) {
    if (!g_auto) return;
    g_mon.remove_range(p, kAutomaticRanges);
}

void name_range(Addr p, SizeT n, const HChar* name) { add_user_range(p, n, name); }

u32 add_user_range(Addr p, SizeT n, const HChar* name) {
    if (n == 0) return kMonitorNoStructure;
    turn_on();
    u32 sid = g_mon.add_structure(true);
    if (sid == kMonitorNoStructure) return sid;
    Info& in = new_info(sid, kUser);
    in.name = VG_(strdup)("ompsim.ds.name", name ? name : "");
    in.addr = p;
    in.size = n;
    in.blocks = 1;
    declared_at(p, &in.file, &in.line);
    if (!g_mon.add_range(p, n, sid)) return kMonitorNoStructure;
    return sid;
}

u32 find_range(Addr p, SizeT n) {
    for (u32 i = g_ninfo; i-- > 0;)
        if (g_info[i].kind != kHeap && g_info[i].addr == p && g_info[i].size == n) return i;
    return kMonitorNoStructure;
}

void zero() {
    if (!g_on) return;
    g_mon.zero();
    for (u32 i = 0; i < g_ninfo; ++i)
        if (g_info[i].reuse) VG_(memset)(g_info[i].reuse, 0, (kReuseBins + 1) * sizeof(ULong));
}

void forget_range(Addr p) {
    if (g_on) g_mon.remove_range(p, kUserRanges);
}

void set_resolution(Addr p, UInt lines, UInt bins) {
    if (!g_on) return;
    // The structure whose range starts at p: a user range or global first
    // (most recent first), then a heap block.
    for (u32 i = g_ninfo; i-- > 0;) {
        if (g_info[i].kind != kHeap && g_info[i].addr == p) {
            g_mon.set_resolution(i, lines, bins);
            return;
        }
    }
    u32 sid = g_mon.structure_starting_at(p, kAutomaticRanges);
    if (sid != kMonitorNoStructure) g_mon.set_resolution(sid, lines, bins);
}

void new_mapping(Addr a, SizeT, ULong di_handle) {
    if (!g_auto || di_handle == 0) return;
    for (UInt i = 0; i < g_nhandles; ++i)
        if (g_handles[i] == di_handle) return;
    if (g_nhandles < 64) g_handles[g_nhandles++] = di_handle;
    // The program's own objects only.
    NSegment const* seg = VG_(am_find_nsegment)(a);
    if (!program_object(seg ? VG_(am_get_filename)(seg) : nullptr)) return;
    DiEpoch ep = VG_(current_DiEpoch)();
    XArray* blocks = VG_(di_get_global_blocks_from_dihandle)(di_handle, False);
    for (Word i = 0; i < VG_(sizeXA)(blocks); ++i) {
        GlobalBlock* gb = static_cast<GlobalBlock*>(VG_(indexXA)(blocks, i));
        // Arrays and anything of a cache line or more; lone scalars would
        // only crowd the report.
        if (!gb->isVec && gb->szB < 64) continue;
        u32 sid = g_mon.add_structure(false);
        Info& in = new_info(sid, kGlobal);
        const HChar* sym = nullptr;
        PtrdiffT off = 0;
        in.name = VG_(get_datasym_and_offset)(ep, gb->addr, &sym, &off) && off == 0
                      ? VG_(strdup)("ompsim.ds.name", sym)
                      : VG_(strdup)("ompsim.ds.name", gb->name);
        in.addr = gb->addr;
        in.size = gb->szB;
        in.blocks = 1;
        declared_at(gb->addr, &in.file, &in.line);
        g_mon.add_range(gb->addr, gb->szB, sid);
    }
    VG_(deleteXA)(blocks);
}

void unmapped(Addr a, SizeT len) {
    if (g_on) g_mon.remove_ranges_in(a, len);
}

namespace {

void put_text(VgFile* fp, const HChar* s) { put_xml_escaped(fp, s); }

// Data events of a structure, in document order: Dr D1mr.. Dw D1mw..
void put_served(VgFile* fp, int levels, const ULong* rd, const ULong* wr) {
    const ULong* sv[2] = {rd, wr};
    bool first = true;
    for (int k = 0; k < 2; ++k) {
        ULong refs = 0;
        for (int d = 0; d <= levels; ++d) refs += sv[k][d];
        VG_(fprintf)(fp, first ? "%llu" : " %llu", refs);
        first = false;
        for (int lvl = 0; lvl < levels; ++lvl) {
            ULong m = 0;
            for (int d = lvl + 1; d <= levels; ++d) m += sv[k][d];
            VG_(fprintf)(fp, " %llu", m);
        }
    }
}

}  // namespace

// The extra counters after the data events (docs/output-format.md): Dcm Dfs
// on a multi-core machine, Dpf with prefetchers, T1m [T2m] with TLBs.
struct ExtraColumns {
    u32 which[mon::kExtraCounters];
    u32 n;
};

ExtraColumns extra_columns(const HierarchyConfig& cfg) {
    ExtraColumns x{{}, 0};
    if (g_coherence_columns) {
        x.which[x.n++] = kExtraCoherence;
        x.which[x.n++] = kExtraFalseSharing;
    }
    if (has_prefetchers(cfg)) x.which[x.n++] = kExtraPrefetchHit;
    if (cfg.tlb.levels >= 1) x.which[x.n++] = kExtraTlb1Miss;
    if (cfg.tlb.levels >= 2) x.which[x.n++] = kExtraTlb2Miss;
    return x;
}

const HChar* const kExtraNames[kExtraClassBase] = {"Dcm", "Dfs", "Dpf", "T1m", "T2m"};
const HChar* const kClassSuffix[kNumMissClasses] = {"comp", "cap", "conf", "coh"};

// --classify-misses: the class columns D<k>comp D<k>cap D<k>conf D<k>coh of
// every level, after the other extra columns.
void append_class_columns(ExtraColumns& x, int levels) {
    if (!g_opt.classify) return;
    for (int k = 0; k < levels; ++k)
        for (u32 c = 0; c < kNumMissClasses; ++c) x.which[x.n++] = kExtraClassBase + 4 * u32(k) + c;
}

const HChar* extra_name(u32 which, HChar* buf) {
    if (which < kExtraClassBase) return kExtraNames[which];
    u32 i = which - kExtraClassBase;
    VG_(sprintf)(buf, "D%u%s", i / 4 + 1, kClassSuffix[i % 4]);
    return buf;
}

// --reuse-distance: <reuse-distance> of a structure (docs/output-format.md).
void put_reuse(VgFile* fp, const ULong* h) {
    ULong accesses = 0;
    for (u32 b = 0; b <= kReuseBins; ++b) accesses += h[b];
    VG_(fprintf)(fp, "      <reuse-distance line-size=\"%u\" accesses=\"%llu\" cold=\"%llu\">\n",
                 1u << sim::g_machine.line_bits(), accesses, h[kReuseBins]);
    for (u32 b = 0; b < kReuseBins; ++b) {
        if (!h[b]) continue;
        ULong lo = b == 0 ? 0 : 1ull << (b - 1);
        ULong hi = b == 0 ? 0 : (1ull << b) - 1;  // b < 64
        VG_(fprintf)(fp, "        <bin min=\"%llu\" max=\"%llu\" count=\"%llu\"/>\n", lo, hi, h[b]);
    }
    VG_(fprintf)(fp, "      </reuse-distance>\n");
}

void write_xml(VgFile* fp, const HierarchyConfig& cfg, const HChar* events) {
    if (!g_on) return;
    int levels = cfg.levels;
    const HChar* mode = g_opt.histogram_lines ? "lines" : g_opt.histogram_bins ? "bins" : "static";
    ExtraColumns x = extra_columns(cfg);
    append_class_columns(x, levels);
    HChar extra_names[32 + 12 * kExtraClassCounters];
    extra_names[0] = 0;
    for (u32 i = 0; i < x.n; ++i) {
        HChar buf[16];
        VG_(strcat)(extra_names, " ");
        VG_(strcat)(extra_names, extra_name(x.which[i], buf));
    }
    VG_(fprintf)(fp, "  <data-structures events=\"%s%s\" mode=\"%s\" resolution=\"%u\" slots=\"%u\">\n",
                 events, extra_names, mode, g_opt.histogram_lines ? g_opt.histogram_lines : g_opt.histogram_bins,
                 g_opt.slots);
    DiEpoch ep = VG_(current_DiEpoch)();
    for (u32 id = 0; id < g_ninfo; ++id) {
        const Info& in = g_info[id];
        ULong rd[kMonitorMaxLevels + 1], wr[kMonitorMaxLevels + 1];
        ULong total = 0;
        for (int d = 0; d <= levels; ++d) {
            rd[d] = g_mon.served(id, 0, d);
            wr[d] = g_mon.served(id, 1, d);
            total += rd[d] + wr[d];
        }
        if (total == 0 && in.kind != kUser) continue;
        VG_(fprintf)(fp, "    <data-structure kind=\"%s\" name=\"", kKindName[in.kind]);
        put_text(fp, in.name);
        VG_(fprintf)(fp, "\" file=\"");
        put_text(fp, in.file);
        VG_(fprintf)(fp, "\" line=\"%u\" address=\"0x%lx\" size=\"%llu\" blocks=\"%llu\" bytes=\"%llu\" counted=\"%s\">\n",
                     in.line, in.kind == kHeap ? 0UL : in.addr, in.size, in.blocks,
                     in.kind == kHeap ? in.bytes : in.size, g_mon.counted(id) ? "true" : "false");
        if (in.kind == kHeap) {
            VG_(fprintf)(fp, "      <site>");
            for (UInt f = 0; f < in.nips; ++f) {
                const HChar *fn = nullptr, *file = nullptr, *dir = nullptr;
                UInt line = 0;
                if (f) VG_(fprintf)(fp, " | ");
                put_text(fp, VG_(get_fnname)(ep, in.ips[f] - 1, &fn) ? fn : "???");
                if (VG_(get_filename_linenum)(ep, in.ips[f] - 1, &file, &dir, &line)) {
                    VG_(fprintf)(fp, " (");
                    put_text(fp, file);
                    VG_(fprintf)(fp, ":%u)", line);
                }
            }
            VG_(fprintf)(fp, "</site>\n");
        }
        VG_(fprintf)(fp, "      <costs>");
        put_served(fp, levels, rd, wr);
        for (u32 i = 0; i < x.n; ++i) VG_(fprintf)(fp, " %llu", (ULong)g_mon.extra(id, x.which[i]));
        VG_(fprintf)(fp, "</costs>\n");
        for (u32 t = 0; t < g_mon.threads_seen(id); ++t) {
            u32 thread = g_mon.thread_at(id, t);
            for (int d = 0; d <= levels; ++d) {
                rd[d] = g_mon.served_thread(id, t, 0, d);
                wr[d] = g_mon.served_thread(id, t, 1, d);
            }
            if (thread == kMonitorNoThread)
                VG_(fprintf)(fp, "      <thread id=\"other\"><costs>");
            else
                VG_(fprintf)(fp, "      <thread id=\"%u\"><costs>", thread);
            put_served(fp, levels, rd, wr);
            for (u32 i = 0; i < x.n; ++i) VG_(fprintf)(fp, " %llu", (ULong)g_mon.extra_thread(id, t, x.which[i]));
            VG_(fprintf)(fp, "</costs></thread>\n");
        }
        u32 nb = g_mon.buckets(id);
        if (nb) {
            if (g_mon.bins(id))
                VG_(fprintf)(fp, "      <histogram bins=\"%u\">\n", g_mon.bins(id));
            else
                VG_(fprintf)(fp, "      <histogram bucket-bytes=\"%llu\" buckets=\"%u\">\n",
                             (ULong)g_mon.bucket_bytes(id), nb);
            for (u32 b = 0; b < nb; ++b) {
                ULong sum = 0;
                for (int d = 0; d <= levels; ++d) {
                    rd[d] = g_mon.bucket_served(id, b, 0, d);
                    wr[d] = g_mon.bucket_served(id, b, 1, d);
                    sum += rd[d] + wr[d];
                }
                if (sum == 0) continue;
                VG_(fprintf)(fp, "        <bucket index=\"%u\">", b);
                put_served(fp, levels, rd, wr);
                // The extra counters are not histogrammed (RangeMonitor.h).
                for (u32 i = 0; i < x.n; ++i) VG_(fprintf)(fp, " 0");
                VG_(fprintf)(fp, "</bucket>\n");
            }
            VG_(fprintf)(fp, "      </histogram>\n");
        }
        if (g_opt.reuse && in.reuse && g_mon.counted(id)) put_reuse(fp, in.reuse);
        VG_(fprintf)(fp, "    </data-structure>\n");
    }
    VG_(fprintf)(fp, "  </data-structures>\n");
}

}  // namespace ds
}  // namespace ompsim
