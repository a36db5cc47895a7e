// --machine=host (see HostCaches.h and docs/host-detection.md).
// Freestanding: no libc calls, no allocation, no static constructors.
#include "HostCaches.h"

#include "MachineConfig.h"
#include "MachinePresets.h"

namespace ompsim {
namespace {

constexpr u32 kMaxCpus = 4096;  // cpus a sibling bitmap covers
// Longest sysfs value read (a cpu list of a large machine), newline included.
constexpr size_t kValueMax = 4096;

// ---------------------------------------------------------------------------
// Small text helpers (no libc)

size_t cstr_len(const char* s) {
    size_t n = 0;
    while (s[n]) ++n;
    return n;
}

bool cstr_eq(const char* a, const char* b) {
    while (*a && *a == *b) { ++a; ++b; }
    return *a == *b;
}

void cstr_copy(char* dst, size_t cap, const char* src) {
    size_t n = 0;
    while (src[n] && n + 1 < cap) { dst[n] = src[n]; ++n; }
    dst[n] = 0;
}

// Copies src, shortened to cap-4 characters and "..." when longer: the
// stored shared_cpu_list and siblings, and values echoed in messages.
void cstr_copy_shortened(char* dst, size_t cap, const char* src) {
    if (cstr_len(src) < cap) { cstr_copy(dst, cap, src); return; }
    cstr_copy(dst, cap - 3, src);
    size_t m = cstr_len(dst);
    dst[m] = '.'; dst[m + 1] = '.'; dst[m + 2] = '.'; dst[m + 3] = 0;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A bounded string builder.
struct Text {
    char* buf;
    size_t cap;
    size_t n;
};

Text text_on(char* buf, size_t cap) {
    buf[0] = 0;
    return Text{buf, cap, 0};
}

void put(Text& t, const char* s) {
    while (*s && t.n + 1 < t.cap) t.buf[t.n++] = *s++;
    t.buf[t.n] = 0;
}

void put_u64(Text& t, u64 v) {
    char d[24];
    int i = sizeof d - 1;
    d[i] = 0;
    do { d[--i] = char('0' + v % 10); v /= 10; } while (v);
    put(t, d + i);
}

void put_hex(Text& t, u64 v) {
    char d[24];
    int i = sizeof d - 1;
    d[i] = 0;
    do { d[--i] = "0123456789ABCDEF"[v & 15]; v >>= 4; } while (v);
    put(t, "0x");
    put(t, d + i);
}

// "48 KiB", "2 MiB", "1280 KiB", "100 B": the largest binary unit that
// divides the size exactly.
void put_size(Text& t, u64 bytes) {
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && bytes != 0 && bytes % 1024 == 0) { bytes /= 1024; ++u; }
    put_u64(t, bytes);
    put(t, " ");
    put(t, kUnits[u]);
}

// Trims blanks and the newline sysfs files end with (in place).
char* trim(char* s) {
    while (is_space(*s)) ++s;
    size_t n = cstr_len(s);
    while (n && is_space(s[n - 1])) s[--n] = 0;
    return s;
}

bool parse_u32(const char* s, u32& out) {
    if (!is_digit(*s)) return false;
    u64 v = 0;
    for (; *s; ++s) {
        if (!is_digit(*s)) return false;
        v = v * 10 + u64(*s - '0');
        if (v > 0xffffffffull) return false;
    }
    out = u32(v);
    return true;
}

// ---------------------------------------------------------------------------
// cpu lists ("0", "0-1", "0-7,16-23")

struct CpuSet {
    u64 bits[kMaxCpus / 64];
};

void cpus_clear(CpuSet& s) {
    for (u64& w : s.bits) w = 0;
}

bool cpus_has(const CpuSet& s, u64 cpu) {
    return cpu < kMaxCpus && (s.bits[cpu / 64] >> (cpu % 64)) & 1;
}

// Walks a cpu list; calls f(first, last) per range. False if malformed.
template <typename F>
bool cpu_list_walk(const char* s, F f) {
    if (!*s) return false;
    for (;;) {
        u64 a = 0, b;
        if (!is_digit(*s)) return false;
        while (is_digit(*s)) { a = a * 10 + u64(*s++ - '0'); if (a > 0xffffffffull) return false; }
        b = a;
        if (*s == '-') {
            ++s;
            if (!is_digit(*s)) return false;
            b = 0;
            while (is_digit(*s)) { b = b * 10 + u64(*s++ - '0'); if (b > 0xffffffffull) return false; }
            if (b < a) return false;
        }
        f(a, b);
        if (!*s) return true;
        if (*s++ != ',') return false;
    }
}

bool cpu_list_parse(const char* s, CpuSet& out) {
    cpus_clear(out);
    return cpu_list_walk(s, [&](u64 a, u64 b) {
        for (u64 c = a; c <= b && c < kMaxCpus; ++c) out.bits[c / 64] |= u64(1) << (c % 64);
    });
}

// ---------------------------------------------------------------------------
// Messages

void start(ErrorText& err) {
    err.set = false;
    err.text[0] = 0;
    error_append(err, "--machine=host: ");
}

void append_path(ErrorText& err, const HostProbe& p, const char* rel) {
    error_append(err, p.sysfs_root ? p.sysfs_root : "");
    error_append(err, "/");
    error_append(err, rel);
}

void append_hex(ErrorText& err, u64 v) {
    char buf[24];
    Text t = text_on(buf, sizeof buf);
    put_hex(t, v);
    error_append(err, buf);
}

const char* type_word(HostCacheType t) {
    switch (t) {
    case HostCacheType::Data: return "Data";
    case HostCacheType::Instruction: return "Instruction";
    case HostCacheType::Unified: return "Unified";
    }
    return "?";
}

// Where a cache's description came from, for messages:
// "/sys/devices/system/cpu/cpu0/cache/index2" or "CPUID leaf 0x4 subleaf 2".
void append_where(ErrorText& err, const HostFacts& f, const HostCache& c) {
    if (f.source == HostSource::Sysfs) {
        error_append(err, f.root);
        error_append(err, "/cache/index");
        error_append_u64(err, c.index);
    } else {
        error_append(err, f.source == HostSource::CpuidAmd ? "CPUID leaf 0x8000001D subleaf "
                                                            : "CPUID leaf 0x4 subleaf ");
        error_append_u64(err, c.index);
    }
}

// "--machine=host: L2 (/sys/.../cache/index2): "
void start_cache(ErrorText& err, const HostFacts& f, const HostCache& c) {
    start(err);
    error_append(err, host_cache_name(c));
    error_append(err, " (");
    append_where(err, f, c);
    error_append(err, "): ");
}

// ---------------------------------------------------------------------------
// sysfs

void facts_clear(HostFacts& f, const HostProbe& p) {
    cstr_copy(f.root, sizeof f.root, p.sysfs_root ? p.sysfs_root : "");
    f.source = HostSource::None;
    f.count = 0;
    f.has_cpuid = false;
    f.vendor[0] = 0;
    f.family = 0;
    f.inclusion_source = HostSource::None;
    f.threads_per_core = 0;
    f.siblings[0] = 0;
}

// "cache/index<n>/<file>"
void index_path(char* out, size_t cap, u32 n, const char* file) {
    Text t = text_on(out, cap);
    put(t, "cache/index");
    put_u64(t, n);
    put(t, "/");
    put(t, file);
}

// Reads one sysfs value (trimmed) into buf. Missing and Failed leave a
// message in err.
HostRead read_value(const HostProbe& p, const char* rel, char* buf, size_t cap, char** value,
                    ErrorText& err) {
    buf[0] = 0;
    HostRead r = p.read(p.ctx, rel, buf, cap);
    if (r == HostRead::Ok) {
        buf[cap - 1] = 0;
        if (cstr_len(buf) < cap - 1) {
            *value = trim(buf);
            return r;
        }
        r = HostRead::Failed;  // may have been cut short
    }
    start(err);
    error_append(err, "cannot read ");
    append_path(err, p, rel);
    if (r == HostRead::Missing) {
        error_append(err, " (no such file)");
    } else if (buf[0]) {
        error_append(err, " (longer than ");
        error_append_u64(err, cap - 2);
        error_append(err, " bytes)");
    } else {
        error_append(err, " (read error)");
    }
    return r;
}

void bad_value(ErrorText& err, const HostProbe& p, const char* rel, const char* value, const char* what) {
    start(err);
    append_path(err, p, rel);
    error_append(err, ": '");
    char shown[40];
    cstr_copy_shortened(shown, sizeof shown, value);
    error_append(err, shown);
    error_append(err, "' is not ");
    error_append(err, what);
}

// Reads and parses one cache description; false with err.
bool read_index(const HostProbe& p, u32 n, const CpuSet& siblings, HostCache& c, ErrorText& err) {
    char rel[64], buf[kValueMax];
    char* v = nullptr;
    c.index = n;
    c.partitions = 1;
    c.sets = 0;
    c.inclusive = HostInclusive::Unknown;

    index_path(rel, sizeof rel, n, "level");
    if (read_value(p, rel, buf, sizeof buf, &v, err) != HostRead::Ok) return false;
    if (!parse_u32(v, c.level) || c.level == 0) { bad_value(err, p, rel, v, "a cache level (1, 2, ...)"); return false; }

    index_path(rel, sizeof rel, n, "type");
    if (read_value(p, rel, buf, sizeof buf, &v, err) != HostRead::Ok) return false;
    if (cstr_eq(v, "Data")) c.type = HostCacheType::Data;
    else if (cstr_eq(v, "Instruction")) c.type = HostCacheType::Instruction;
    else if (cstr_eq(v, "Unified")) c.type = HostCacheType::Unified;
    else { bad_value(err, p, rel, v, "Data, Instruction or Unified"); return false; }

    index_path(rel, sizeof rel, n, "size");
    if (read_value(p, rel, buf, sizeof buf, &v, err) != HostRead::Ok) return false;
    if (!parse_size(v, cstr_len(v), c.size) || c.size == 0) { bad_value(err, p, rel, v, "a size (e.g. 48K)"); return false; }

    index_path(rel, sizeof rel, n, "ways_of_associativity");
    if (read_value(p, rel, buf, sizeof buf, &v, err) != HostRead::Ok) return false;
    if (!parse_u32(v, c.ways)) { bad_value(err, p, rel, v, "a number of ways"); return false; }
    c.fully_assoc = c.ways == 0;

    index_path(rel, sizeof rel, n, "coherency_line_size");
    if (read_value(p, rel, buf, sizeof buf, &v, err) != HostRead::Ok) return false;
    if (!parse_u32(v, c.line) || c.line == 0) { bad_value(err, p, rel, v, "a line size in bytes"); return false; }

    // Optional: number_of_sets (the consistency check), physical_line_partition.
    ErrorText ignored;
    error_clear(ignored);
    index_path(rel, sizeof rel, n, "number_of_sets");
    HostRead r = read_value(p, rel, buf, sizeof buf, &v, ignored);
    if (r == HostRead::Failed) { err = ignored; return false; }
    if (r == HostRead::Ok && (!parse_u32(v, c.sets) || c.sets == 0)) {
        bad_value(err, p, rel, v, "a number of sets");
        return false;
    }
    index_path(rel, sizeof rel, n, "physical_line_partition");
    r = read_value(p, rel, buf, sizeof buf, &v, ignored);
    if (r == HostRead::Failed) { err = ignored; return false; }
    if (r == HostRead::Ok) {
        if (!parse_u32(v, c.partitions)) { bad_value(err, p, rel, v, "a number of partitions"); return false; }
        if (c.partitions == 0) c.partitions = 1;
    }

    index_path(rel, sizeof rel, n, "shared_cpu_list");
    if (read_value(p, rel, buf, sizeof buf, &v, err) != HostRead::Ok) return false;
    u64 count = 0;
    bool outside = false;
    bool ok = cpu_list_walk(v, [&](u64 a, u64 b) {
        count += b - a + 1;
        for (u64 cpu = a; cpu <= b && !outside; ++cpu)
            if (!cpus_has(siblings, cpu)) outside = true;
    });
    if (!ok || count == 0) { bad_value(err, p, rel, v, "a cpu list (e.g. 0-3,8)"); return false; }
    c.sharing = count > 0xffffffffull ? 0xffffffffu : u32(count);
    c.is_private = !outside;
    cstr_copy_shortened(c.cpus, sizeof c.cpus, v);
    return true;
}

// ---------------------------------------------------------------------------
// CPUID

struct Regs {
    u32 eax, ebx, ecx, edx;
};

Regs cpuid(const HostProbe& p, u32 leaf, u32 subleaf) {
    u32 r[4] = {0, 0, 0, 0};
    p.cpuid(p.ctx, leaf, subleaf, r);
    return Regs{r[0], r[1], r[2], r[3]};
}

bool is_amd_like(const char* vendor) {
    return cstr_eq(vendor, "AuthenticAMD") || cstr_eq(vendor, "HygonGenuine");
}

// AMD Zen (family 0x17 and later, and Hygon's Zen-based family 0x18): the
// L3 is a victim cache of the L2s it serves.
bool amd_victim_l3(const HostFacts& f) {
    return f.has_cpuid && is_amd_like(f.vendor) && f.family >= 0x17;
}

// ---------------------------------------------------------------------------
// Mapping

const HostCache* find(const HostFacts& f, u32 level, HostCacheType type) {
    for (int i = 0; i < f.count; ++i)
        if (f.cache[i].level == level && f.cache[i].type == type) return &f.cache[i];
    return nullptr;
}

// Checks one cache on its own: a size, line and associativity ompsim can
// simulate, and consistent with the set count when that was reported.
bool check_cache(const HostFacts& f, const HostCache& c, ErrorText& err) {
    if (!is_pow2(c.line) || c.line < 16 || c.line > 4096) {
        start_cache(err, f, c);
        error_append(err, "line size ");
        error_append_u64(err, c.line);
        error_append(err, " B is not a power of two between 16 and 4096");
        return false;
    }
    if (c.fully_assoc) {
        if (c.size % c.line != 0) {
            start_cache(err, f, c);
            error_append(err, "size ");
            error_append_u64(err, c.size);
            error_append(err, " B of a fully associative cache is not a multiple of the line size (");
            error_append_u64(err, c.line);
            error_append(err, " B)");
            return false;
        }
        if (c.size / c.line > 0xffffffffull) {
            start_cache(err, f, c);
            error_append(err, "a fully associative cache of more than 4294967295 lines");
            return false;
        }
        return true;
    }
    u64 way_bytes = u64(c.ways) * c.line * c.partitions;
    if (c.sets != 0) {
        u64 expect = way_bytes * c.sets;
        if (expect != c.size) {
            start_cache(err, f, c);
            error_append(err, "size ");
            error_append_u64(err, c.size);
            error_append(err, " B differs from sets x ways x line x partitions (");
            error_append_u64(err, c.sets);
            error_append(err, " x ");
            error_append_u64(err, c.ways);
            error_append(err, " x ");
            error_append_u64(err, c.line);
            error_append(err, " x ");
            error_append_u64(err, c.partitions);
            error_append(err, " = ");
            error_append_u64(err, expect);
            error_append(err, " B): the description is inconsistent");
            return false;
        }
    } else if (c.size % way_bytes != 0) {
        start_cache(err, f, c);
        error_append(err, "size ");
        error_append_u64(err, c.size);
        error_append(err, " B is not a multiple of ways x line x partitions (");
        error_append_u64(err, c.ways);
        error_append(err, " x ");
        error_append_u64(err, c.line);
        error_append(err, " x ");
        error_append_u64(err, c.partitions);
        error_append(err, ")");
        return false;
    }
    return true;
}

LevelConfig level_of(const HostFacts& f, const HostCache& c) {
    u32 assoc = c.fully_assoc ? u32(c.size / c.line) : c.ways;
    LevelConfig l = preset_level(c.size, assoc, c.line, kHostLatency[c.level - 1]);
    if (c.level == 1) l.inclusion = Inclusion::NonInclusive;
    else if (c.level == 3 && amd_victim_l3(f)) l.inclusion = Inclusion::Exclusive;
    else if (c.inclusive == HostInclusive::Yes) l.inclusion = Inclusion::Inclusive;
    else l.inclusion = Inclusion::NonInclusive;
    return l;
}

// Levels 1..N whose every cache is used by cpu0's core only.
u32 private_levels_of(const HostFacts& f, int levels) {
    u32 p = 0;
    for (int k = 1; k <= levels; ++k) {
        bool all = true;
        for (int i = 0; i < f.count; ++i)
            if (f.cache[i].level == u32(k) && !f.cache[i].is_private) all = false;
        if (!all) break;
        p = u32(k);
    }
    return p ? p : 1;
}

}  // namespace

const char* host_cache_name(const HostCache& c) {
    switch (c.level) {
    case 1:
        return c.type == HostCacheType::Data ? "D1" : c.type == HostCacheType::Instruction ? "I1" : "L1";
    case 2: return "L2";
    case 3: return "L3";
    case 4: return "L4";
    case 5: return "L5";
    case 6: return "L6";
    case 7: return "L7";
    default: return "L?";
    }
}

HostRead host_read_sysfs(const HostProbe& p, HostFacts& f, ErrorText& err) {
    facts_clear(f, p);
    error_clear(err);
    if (!p.read) {
        start(err);
        error_append(err, "no sysfs to read");
        return HostRead::Missing;
    }
    // cpu0's SMT siblings: a cache they alone share is private to the core.
    static_assert(sizeof(CpuSet) <= 512, "CpuSet on the stack");
    CpuSet siblings;
    cpus_clear(siblings);
    siblings.bits[0] = 1;  // cpu 0 at least
    {
        char buf[kValueMax];
        char* v = nullptr;
        const char* rel = "topology/thread_siblings_list";
        HostRead r = read_value(p, rel, buf, sizeof buf, &v, err);
        if (r == HostRead::Failed) return r;
        if (r == HostRead::Ok) {
            if (!cpu_list_parse(v, siblings)) {
                bad_value(err, p, rel, v, "a cpu list (e.g. 0,8)");
                return HostRead::Failed;
            }
            cstr_copy_shortened(f.siblings, sizeof f.siblings, v);
        } else {
            cstr_copy(f.siblings, sizeof f.siblings, "0");
        }
        error_clear(err);
    }
    for (u32 n = 0;; ++n) {
        // An index directory is absent when neither its level nor its type
        // can be found; anything else missing is an incomplete description.
        char rel[64], buf[64];
        index_path(rel, sizeof rel, n, "level");
        HostRead r1 = p.read(p.ctx, rel, buf, sizeof buf);
        index_path(rel, sizeof rel, n, "type");
        HostRead r2 = p.read(p.ctx, rel, buf, sizeof buf);
        if (r1 == HostRead::Missing && r2 == HostRead::Missing) break;
        if (f.count == kMaxHostCaches) {
            start(err);
            error_append(err, "more than ");
            error_append_u64(err, kMaxHostCaches);
            error_append(err, " caches in ");
            append_path(err, p, "cache");
            return HostRead::Failed;
        }
        if (!read_index(p, n, siblings, f.cache[f.count], err)) return HostRead::Failed;
        ++f.count;
    }
    if (f.count == 0) {
        start(err);
        error_append(err, "no cache descriptions in ");
        append_path(err, p, "cache");
        return HostRead::Missing;
    }
    f.source = HostSource::Sysfs;
    return HostRead::Ok;
}

bool host_read_cpuid(const HostProbe& p, HostFacts& f, ErrorText& err) {
    facts_clear(f, p);
    error_clear(err);
    if (!p.cpuid) {
        start(err);
        error_append(err, "no CPUID instruction");
        return false;
    }
    Regs r = cpuid(p, 0, 0);
    u32 max_basic = r.eax;
    u32 words[3] = {r.ebx, r.edx, r.ecx};
    for (int w = 0; w < 3; ++w)
        for (int b = 0; b < 4; ++b) {
            char ch = char((words[w] >> (8 * b)) & 0xff);
            f.vendor[w * 4 + b] = (ch >= 32 && ch < 127) ? ch : '?';
        }
    f.vendor[12] = 0;
    f.has_cpuid = true;
    if (max_basic >= 1) {
        u32 eax = cpuid(p, 1, 0).eax;
        u32 base = (eax >> 8) & 0xf;
        f.family = base == 0xf ? base + ((eax >> 20) & 0xff) : base;
    }
    u32 max_ext = cpuid(p, 0x80000000u, 0).eax;
    if (!(max_ext & 0x80000000u)) max_ext = 0;

    u32 leaf;
    if (is_amd_like(f.vendor)) {
        bool topoext = max_ext >= 0x80000001u && ((cpuid(p, 0x80000001u, 0).ecx >> 22) & 1);
        if (!topoext || max_ext < 0x8000001Du) {
            start(err);
            error_append(err, "CPUID has no leaf 0x8000001D (");
            error_append(err, f.vendor);
            error_append(err, " without topology extensions)");
            return false;
        }
        leaf = 0x8000001Du;
        f.source = HostSource::CpuidAmd;
        if (max_ext >= 0x8000001Eu) f.threads_per_core = ((cpuid(p, 0x8000001Eu, 0).ebx >> 8) & 0xff) + 1;
    } else {
        if (max_basic < 4) {
            start(err);
            error_append(err, "CPUID has no leaf 0x4 (");
            error_append(err, f.vendor);
            error_append(err, ", highest leaf ");
            append_hex(err, max_basic);
            error_append(err, ")");
            return false;
        }
        leaf = 4;
        f.source = HostSource::CpuidLeaf4;
        if (max_basic >= 0xB) {
            Regs t = cpuid(p, 0xB, 0);
            if (((t.ecx >> 8) & 0xff) == 1) f.threads_per_core = t.ebx & 0xffff;
        }
    }
    for (u32 sub = 0;; ++sub) {
        Regs c = cpuid(p, leaf, sub);
        u32 type = c.eax & 0x1f;
        if (type == 0) break;
        HostCache h;
        h.index = sub;
        h.level = (c.eax >> 5) & 7;
        if (f.count == kMaxHostCaches || type > 3 || h.level == 0) {
            start(err);
            error_append(err, "CPUID leaf ");
            append_hex(err, leaf);
            error_append(err, " subleaf ");
            error_append_u64(err, sub);
            if (f.count == kMaxHostCaches) {
                error_append(err, ": more than ");
                error_append_u64(err, kMaxHostCaches);
                error_append(err, " caches");
            } else {
                error_append(err, ": unknown cache type ");
                error_append_u64(err, type);
                error_append(err, " or level ");
                error_append_u64(err, h.level);
            }
            f.count = 0;
            f.source = HostSource::None;
            return false;
        }
        h.type = type == 1 ? HostCacheType::Data : type == 2 ? HostCacheType::Instruction : HostCacheType::Unified;
        h.fully_assoc = (c.eax >> 9) & 1;
        h.sharing = ((c.eax >> 14) & 0xfff) + 1;
        h.line = (c.ebx & 0xfff) + 1;
        h.partitions = ((c.ebx >> 12) & 0x3ff) + 1;
        h.ways = ((c.ebx >> 22) & 0x3ff) + 1;
        h.sets = c.ecx + 1;  // 32 bits: up to 2^32
        u64 sets = u64(c.ecx) + 1;
        h.size = u64(h.ways) * h.partitions * h.line * sets;
        if (sets > 0xffffffffull) h.sets = 0;  // not representable; size still exact
        h.inclusive = ((c.edx >> 1) & 1) ? HostInclusive::Yes : HostInclusive::No;
        h.is_private = f.threads_per_core ? h.sharing <= f.threads_per_core : h.sharing == 1;
        h.cpus[0] = 0;
        f.cache[f.count++] = h;
    }
    if (f.count == 0) {
        start(err);
        error_append(err, "CPUID leaf ");
        append_hex(err, leaf);
        error_append(err, " lists no caches");
        f.source = HostSource::None;
        return false;
    }
    f.inclusion_source = f.source;
    return true;
}

void host_merge_cpuid(HostFacts& s, const HostFacts& c) {
    if (!c.has_cpuid) return;
    s.has_cpuid = true;
    cstr_copy(s.vendor, sizeof s.vendor, c.vendor);
    s.family = c.family;
    s.threads_per_core = c.threads_per_core;
    if (c.count == 0) return;
    bool any = false;
    for (int i = 0; i < s.count; ++i) {
        const HostCache* m = find(c, s.cache[i].level, s.cache[i].type);
        if (!m) continue;
        s.cache[i].inclusive = m->inclusive;
        any = true;
    }
    if (any) s.inclusion_source = c.source;
}


bool host_hierarchy(const HostFacts& f, HierarchyConfig& out, ErrorText& err) {
    error_clear(err);
    if (f.count == 0) {
        start(err);
        error_append(err, "no caches were found");
        return false;
    }
    // Each cache on its own, then the levels they form.
    int levels = 0;
    for (int i = 0; i < f.count; ++i) {
        const HostCache& c = f.cache[i];
        if (c.level > u32(kMaxLevels)) {
            start_cache(err, f, c);
            error_append(err, "a level-");
            error_append_u64(err, c.level);
            error_append(err, " cache; ompsim simulates at most 4 levels");
            return false;
        }
        if (c.level > 1 && c.type != HostCacheType::Unified) {
            start_cache(err, f, c);
            error_append(err, c.type == HostCacheType::Data ? "a Data" : "an Instruction");
            error_append(err, " cache below level 1; ompsim needs unified caches below level 1");
            return false;
        }
        for (int j = 0; j < i; ++j) {
            const HostCache& o = f.cache[j];
            if (o.level == c.level && o.type == c.type) {
                start_cache(err, f, c);
                error_append(err, "a second ");
                error_append(err, type_word(c.type));
                error_append(err, " cache at level ");
                error_append_u64(err, c.level);
                error_append(err, " (the first is ");
                append_where(err, f, o);
                error_append(err, "); ompsim simulates one per level");
                return false;
            }
        }
        if (!check_cache(f, c, err)) return false;
        if (int(c.level) > levels) levels = int(c.level);
    }
    for (int k = 2; k <= levels; ++k) {
        if (find(f, u32(k), HostCacheType::Unified)) continue;
        start(err);
        error_append(err, "there is no level-");
        error_append_u64(err, u64(k));
        error_append(err, " cache but a level-");
        error_append_u64(err, u64(levels));
        error_append(err, " one; the levels must follow each other");
        return false;
    }
    const HostCache* d = find(f, 1, HostCacheType::Data);
    const HostCache* i = find(f, 1, HostCacheType::Instruction);
    const HostCache* u = find(f, 1, HostCacheType::Unified);
    if (u && (d || i)) {
        start_cache(err, f, *u);
        error_append(err, "a unified L1 next to a split one (D1 or I1); ompsim simulates one or the other");
        return false;
    }
    if (!u && !(d && i)) {
        if (!d && !i) {
            start(err);
            error_append(err, "there is no level-1 cache");
        } else {
            start_cache(err, f, d ? *d : *i);
            error_append(err, d ? "a Data L1 without an Instruction L1" : "an Instruction L1 without a Data L1");
            error_append(err, "; ompsim needs both, or a unified L1");
        }
        return false;
    }
    const HostCache& first = u ? *u : *d;
    for (int k = 0; k < f.count; ++k) {
        const HostCache& c = f.cache[k];
        if (c.line == first.line) continue;
        start_cache(err, f, c);
        error_append(err, "line size ");
        error_append_u64(err, c.line);
        error_append(err, " B differs from the ");
        error_append_u64(err, first.line);
        error_append(err, " B of ");
        error_append(err, host_cache_name(first));
        error_append(err, "; ompsim needs one line size at every level");
        return false;
    }

    HierarchyConfig c;
    preset_clear(c);
    c.levels = levels;
    c.split_l1 = !u;
    if (u) {
        c.level[0] = level_of(f, *u);
    } else {
        c.i1 = level_of(f, *i);
        c.level[0] = level_of(f, *d);
    }
    for (int k = 2; k <= levels; ++k) c.level[k - 1] = level_of(f, *find(f, u32(k), HostCacheType::Unified));
    c.memory_latency = kHostMemoryLatency;
    c.private_levels = private_levels_of(f, levels);
    c.c2c_latency = first_shared_latency(c);
    c.upgrade_latency = c.c2c_latency;
    ErrorText rule;
    error_clear(rule);
    if (!validate(c, rule)) {
        start(err);
        error_append(err, rule.text);
        return false;
    }
    out = c;
    return true;
}

bool host_detect(const HostProbe& p, HostFacts& f, HierarchyConfig& out, ErrorText& err) {
    // CPUID first (vendor, family, inclusion; the caches if sysfs has none).
    static_assert(sizeof(HostFacts) < 8192, "two HostFacts on the stack");
    HostFacts cpu;
    ErrorText cpu_err;
    bool cpu_ok = host_read_cpuid(p, cpu, cpu_err);
    HostRead r = host_read_sysfs(p, f, err);
    if (r == HostRead::Failed) return false;
    if (r == HostRead::Missing) {
        if (!cpu_ok) {
            // Neither source: say why for both.
            ErrorText both;
            error_clear(both);
            error_append(both, err.text);
            error_append(both, "; ");
            const char* c = cpu_err.text;
            const char* prefix = "--machine=host: ";
            size_t n = cstr_len(prefix);
            size_t k = 0;
            while (k < n && c[k] == prefix[k]) ++k;
            error_append(both, k == n ? c + n : c);
            err = both;
            return false;
        }
        f = cpu;
        f.sysfs_missing = p.read != nullptr;
        error_clear(err);
        return host_hierarchy(f, out, err);
    }
    f.sysfs_missing = false;
    host_merge_cpuid(f, cpu);
    return host_hierarchy(f, out, err);
}

namespace {

void put_sharing(Text& t, const HostFacts& f, const HostCache& c) {
    if (f.source == HostSource::Sysfs) {
        bool one = true;
        for (const char* s = c.cpus; *s; ++s)
            if (!is_digit(*s)) one = false;
        if (c.is_private) {
            put(t, one ? "private (cpu " : "private (cpus ");
            put(t, c.cpus);
            put(t, ")");
        } else {
            put(t, "shared by cpus ");
            put(t, c.cpus);
        }
        return;
    }
    if (c.is_private) {
        if (c.sharing == 1) {
            put(t, "private (1 logical cpu)");
        } else {
            put(t, "private (up to ");
            put_u64(t, c.sharing);
            put(t, " logical cpus)");
        }
    } else {
        put(t, "shared by up to ");
        put_u64(t, c.sharing);
        put(t, " logical cpus");
    }
}

const char* leaf_name(HostSource s) {
    return s == HostSource::CpuidAmd ? "CPUID leaf 0x8000001D" : "CPUID leaf 0x4";
}

}  // namespace

int host_report(const HostFacts& f, const HierarchyConfig& cfg, HostLine* lines, int max) {
    int n = 0;
    HostLine l;
    auto emit = [&]() {
        if (n < max) lines[n++] = l;
    };
    Text t = text_on(l.text, sizeof l.text);

    // The source.
    put(t, "--machine=host: from ");
    if (f.source == HostSource::Sysfs) {
        put(t, f.root);
        put(t, "/cache");
    } else {
        put(t, leaf_name(f.source));
    }
    put(t, " (");
    put_u64(t, u64(f.count));
    put(t, f.count == 1 ? " cache" : " caches");
    if (f.source != HostSource::Sysfs && f.sysfs_missing) {
        put(t, "; ");
        put(t, f.root);
        put(t, "/cache has no cache descriptions");
    }
    put(t, ")");
    emit();

    // One line per cache, in the order of the source.
    for (int i = 0; i < f.count; ++i) {
        const HostCache& c = f.cache[i];
        t = text_on(l.text, sizeof l.text);
        const char* name = host_cache_name(c);
        put(t, "  ");
        put(t, name);
        for (size_t k = cstr_len(name); k < 4; ++k) put(t, " ");
        put_size(t, c.size);
        put(t, ", ");
        if (c.fully_assoc) {
            put(t, "fully associative");
        } else {
            put_u64(t, c.ways);
            put(t, "-way");
        }
        put(t, ", ");
        put_u64(t, c.line);
        put(t, " B lines, ");
        u64 sets = c.sets;
        if (!sets) {
            u64 way_bytes = u64(c.fully_assoc ? c.size / c.line : c.ways) * c.line * c.partitions;
            sets = way_bytes ? c.size / way_bytes : 0;
        }
        put_u64(t, sets);
        put(t, sets == 1 ? " set, " : " sets, ");
        if (c.partitions > 1) {
            put_u64(t, c.partitions);
            put(t, " line partitions, ");
        }
        put_sharing(t, f, c);
        put(t, ", ");
        put(t, inclusion_name(level_of(f, c).inclusion));
        emit();
    }

    // Sharing, inclusion and latency: how they were decided.
    u32 levels = u32(cfg.levels);
    t = text_on(l.text, sizeof l.text);
    put(t, "  private levels: ");
    put_u64(t, cfg.private_levels);
    put(t, " of ");
    put_u64(t, levels);
    if (f.source == HostSource::Sysfs) {
        put(t, " (cpu 0's core: cpus ");
        put(t, f.siblings);
        put(t, ")");
    } else if (f.threads_per_core) {
        put(t, " (");
        put_u64(t, f.threads_per_core);
        put(t, f.threads_per_core == 1 ? " logical cpu per core)" : " logical cpus per core)");
    } else {
        put(t, " (logical cpus per core unknown: private means 1 logical cpu)");
    }
    emit();

    t = text_on(l.text, sizeof l.text);
    put(t, "  inclusion: ");
    if (f.inclusion_source != HostSource::None) {
        put(t, "from ");
        put(t, leaf_name(f.inclusion_source));
        put(t, " EDX bit 1");
    } else {
        put(t, f.has_cpuid ? "not reported by CPUID" : "not reported (no CPUID)");
        put(t, ": non-inclusive");
    }
    if (f.has_cpuid) {
        put(t, " (");
        put(t, f.vendor);
        put(t, " family ");
        put_hex(t, f.family);
        put(t, ")");
    }
    if (amd_victim_l3(f) && levels >= 3) put(t, "; L3 exclusive: AMD Zen's L3 is a victim cache");
    put(t, "; level 1 is always non-inclusive");
    emit();

    t = text_on(l.text, sizeof l.text);
    put(t, "  latencies: not reported by the hardware; the desktop preset's:");
    for (u32 k = 0; k < levels && k < u32(kMaxLevels); ++k) {
        put(t, k ? ", L" : " L");
        put_u64(t, k + 1);
        put(t, " ");
        put_u64(t, cfg.level[k].latency);
    }
    put(t, ", memory ");
    put_u64(t, cfg.memory_latency);
    put(t, " cycles");
    emit();
    return n;
}

}  // namespace ompsim
