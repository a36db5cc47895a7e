// Presets, cache options and --cache-config files (see MachineConfig.h and
// docs/cache-config.md). Freestanding: no libc calls, no allocation, no
// static constructors; strings are handled as (pointer, length) slices.
#include "MachineConfig.h"

#include "MachinePresets.h"

namespace ompsim {
namespace {

constexpr u32 kU32Max = 0xffffffffu;
constexpr u64 kU64Max = ~u64(0);
// Longest piece of user text echoed in a message.
constexpr size_t kEchoMax = 48;

// ---------------------------------------------------------------------------
// Slices

struct Str {
    const char* p;
    size_t n;
};

size_t cstr_len(const char* s) {
    size_t n = 0;
    while (s[n]) ++n;
    return n;
}

Str cstr(const char* s) { return Str{s, cstr_len(s)}; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}
char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

bool eq(Str a, const char* b) {
    for (size_t i = 0; i < a.n; ++i)
        if (b[i] == 0 || a.p[i] != b[i]) return false;
    return b[a.n] == 0;
}

bool eq_nocase(Str a, const char* b) {
    for (size_t i = 0; i < a.n; ++i)
        if (b[i] == 0 || lower(a.p[i]) != lower(b[i])) return false;
    return b[a.n] == 0;
}

Str trim(Str s) {
    while (s.n && is_space(s.p[0])) { ++s.p; --s.n; }
    while (s.n && is_space(s.p[s.n - 1])) --s.n;
    return s;
}

// Appends a slice (at most kEchoMax characters, then "..."). Control
// characters (a newline in a quoted argument) print as '?': a message is one
// line.
void append_str(ErrorText& e, Str s) {
    char buf[kEchoMax + 4];
    size_t n = 0;
    for (; n < s.n && n < kEchoMax; ++n) {
        unsigned char c = static_cast<unsigned char>(s.p[n]);
        buf[n] = c < 0x20 || c == 0x7f ? '?' : s.p[n];
    }
    if (s.n > kEchoMax) { buf[n++] = '.'; buf[n++] = '.'; buf[n++] = '.'; }
    buf[n] = 0;
    error_append(e, buf);
}

// Appends a whole name (a file name as given), control characters as '?'.
void append_name(ErrorText& e, const char* name) {
    char buf[65];
    size_t n = 0;
    for (const char* p = name;; ++p) {
        if (n == sizeof buf - 1 || !*p) {
            buf[n] = 0;
            error_append(e, buf);
            n = 0;
            if (!*p) return;
        }
        unsigned char c = static_cast<unsigned char>(*p);
        buf[n++] = c < 0x20 || c == 0x7f ? '?' : *p;
    }
}

void append_quoted(ErrorText& e, Str s) {
    error_append(e, "'");
    append_str(e, s);
    error_append(e, "'");
}

// Starts a fresh message.
void restart(ErrorText& e) { e.set = false; e.text[0] = 0; }

// Copies `rule` (a message of its own) after what e already holds.
void append_rule(ErrorText& e, const ErrorText& rule) { error_append(e, rule.text); }

// ---------------------------------------------------------------------------
// Numbers

bool parse_u64_dec(Str s, u64& out) {
    if (s.n == 0) return false;
    u64 v = 0;
    for (size_t i = 0; i < s.n; ++i) {
        if (!is_digit(s.p[i])) return false;
        u64 d = u64(s.p[i] - '0');
        if (v > (kU64Max - d) / 10) return false;
        v = v * 10 + d;
    }
    out = v;
    return true;
}

bool parse_u32_dec(Str s, u32& out) {
    u64 v;
    if (!parse_u64_dec(s, v) || v > kU32Max) return false;
    out = u32(v);
    return true;
}

// "1", "0.5", "1.25" -> 100, 50, 125.
bool parse_cpi(Str s, u32& out_x100) {
    size_t i = 0;
    u64 v = 0;
    if (s.n == 0 || !is_digit(s.p[0])) return false;
    while (i < s.n && is_digit(s.p[i])) {
        v = v * 10 + u64(s.p[i] - '0');
        if (v > kU32Max) return false;
        ++i;
    }
    v *= 100;
    if (i < s.n) {
        if (s.p[i] != '.') return false;
        ++i;
        size_t digits = 0;
        u64 scale = 10;
        while (i < s.n && is_digit(s.p[i])) {
            if (++digits > 2) return false;
            v += u64(s.p[i] - '0') * scale;
            scale /= 10;
            ++i;
        }
        if (digits == 0 || i != s.n) return false;
    }
    if (v > kU32Max) return false;
    out_x100 = u32(v);
    return true;
}

// ---------------------------------------------------------------------------
// Presets (MachinePresets.cpp) and the detected host

bool preset_by_name(Str name, const MachineBuilder* b, HierarchyConfig& out) {
    if (eq(name, "host")) {
        if (!b || !b->host) return false;
        out = *b->host;
        return true;
    }
    return preset_lookup(name.p, name.n, out);
}

bool is_preset_name(Str name) {
    for (const char* const* p = preset_names(); *p; ++p)
        if (eq(name, *p)) return true;
    return false;
}

// Latency of a level added by --L2/--L3/--L4 (index 1..3) to a hierarchy
// that lacks it.
u32 default_latency(int index) {
    switch (index) {
    case 1: return 15;
    case 2: return 65;
    default: return 120;
    }
}

// ---------------------------------------------------------------------------
// Settings: one option or one line of a configuration file.

enum class Key : u8 {
    Machine, CacheConfig, Geometry, Unified, Replacement, Write, Inclusion,
    Latency, MemoryLatency, Cpi, ICache, RandomSeed,
    PrivateLevels, C2cLatency, UpgradeLatency,
    Prefetch, PrefetchDegree, PrefetchTable, PrefetchStreams,
    Tlb, TlbLatency, TlbPage, WalkLatency
};

// Which level a per-level setting addresses.
enum Target : u8 { kL1, kI1, kD1, kL2, kL3, kL4, kLL };

struct Setting {
    Key key;
    u8 target;
    bool none;     // Geometry: "none" (remove the level and those below)
    bool flag;     // Unified, ICache
    u8 choice;     // Replacement, Write, Inclusion (the enum's value)
    u32 assoc;     // Geometry
    u32 line;      // Geometry
    u32 number;    // Latency, MemoryLatency, Cpi (x100), PrivateLevels, C2cLatency,
                   // UpgradeLatency, Prefetch* (kinds mask or count), TlbLatency, WalkLatency;
                   // Tlb: entries
    u8 tlb;        // Tlb, TlbLatency: 0 = DTLB1, 1 = DTLB2
    u64 size;      // Geometry; TlbPage
    u64 seed;      // RandomSeed
    Str text;      // Machine, CacheConfig
};

struct LevelToken {
    const char* name;
    u8 target;
};

const LevelToken kLevelTokens[] = {
    {"L1", kL1}, {"L1I", kI1}, {"I1", kI1}, {"L1D", kD1}, {"D1", kD1},
    {"L2", kL2}, {"L3", kL3}, {"L4", kL4}, {"LL", kLL},
    {"LLL", kLL},  // "--L<k>-..." with k = LL
};

// Classifies a key (option name without "--"); false if not a cache setting.
bool lookup_key(Str key, Setting& s) {
    s.target = kL1;
    if (eq(key, "machine")) { s.key = Key::Machine; return true; }
    if (eq(key, "cache-config")) { s.key = Key::CacheConfig; return true; }
    if (eq(key, "L1-unified")) { s.key = Key::Unified; return true; }
    if (eq(key, "memory-latency")) { s.key = Key::MemoryLatency; return true; }
    if (eq(key, "cpi")) { s.key = Key::Cpi; return true; }
    if (eq(key, "icache")) { s.key = Key::ICache; return true; }
    if (eq(key, "random-seed")) { s.key = Key::RandomSeed; return true; }
    if (eq(key, "private-levels")) { s.key = Key::PrivateLevels; return true; }
    if (eq(key, "c2c-latency")) { s.key = Key::C2cLatency; return true; }
    if (eq(key, "upgrade-latency")) { s.key = Key::UpgradeLatency; return true; }
    if (eq(key, "tlb-page")) { s.key = Key::TlbPage; return true; }
    if (eq(key, "page-walk-latency")) { s.key = Key::WalkLatency; return true; }
    for (u8 k = 0; k < 2; ++k) {
        const char* name = k ? "DTLB2" : "DTLB1";
        const char* lat = k ? "DTLB2-latency" : "DTLB1-latency";
        s.tlb = k;
        if (eq(key, name)) { s.key = Key::Tlb; return true; }
        if (eq(key, lat)) { s.key = Key::TlbLatency; return true; }
    }
    for (const LevelToken& t : kLevelTokens) {
        size_t n = cstr_len(t.name);
        if (key.n < n) continue;
        Str head{key.p, n};
        if (!eq(head, t.name)) continue;
        s.target = t.target;
        if (key.n == n) {
            if (n == 3 && t.target == kLL) continue;  // no "--LLL="
            s.key = Key::Geometry;
            return true;
        }
        if (key.p[n] != '-') continue;
        Str tail{key.p + n + 1, key.n - n - 1};
        if (eq(tail, "replacement")) { s.key = Key::Replacement; return true; }
        if (eq(tail, "write")) { s.key = Key::Write; return true; }
        if (eq(tail, "inclusion")) { s.key = Key::Inclusion; return true; }
        if (eq(tail, "latency")) { s.key = Key::Latency; return true; }
        if (eq(tail, "prefetch")) { s.key = Key::Prefetch; return true; }
        if (eq(tail, "prefetch-degree")) { s.key = Key::PrefetchDegree; return true; }
        if (eq(tail, "prefetch-table")) { s.key = Key::PrefetchTable; return true; }
        if (eq(tail, "prefetch-streams")) { s.key = Key::PrefetchStreams; return true; }
    }
    return false;
}

// "none", or a comma list of next-line, stride, stream (any case).
bool parse_prefetch_kinds(Str v, u32& mask) {
    mask = 0;
    if (eq_nocase(v, "none")) return true;
    size_t start = 0;
    for (size_t i = 0; i <= v.n; ++i) {
        if (i < v.n && v.p[i] != ',') continue;
        Str w = trim(Str{v.p + start, i - start});
        if (eq_nocase(w, "next-line")) mask |= kPrefetchNextLine;
        else if (eq_nocase(w, "stride")) mask |= kPrefetchStride;
        else if (eq_nocase(w, "stream")) mask |= kPrefetchStream;
        else return false;
        start = i + 1;
    }
    return mask != 0;
}

// A bounded count: lo..hi.
bool parse_count(Str v, u32 lo, u32 hi, u32& out) {
    return parse_u32_dec(v, out) && out >= lo && out <= hi;
}

// "ENTRIES,ASSOC" (ASSOC a number or full) or "none".
bool parse_tlb_geometry(Str v, Setting& s, ErrorText& rule) {
    if (eq_nocase(v, "none")) {
        s.none = true;
        return true;
    }
    size_t comma = v.n;
    for (size_t i = 0; i < v.n; ++i)
        if (v.p[i] == ',') { comma = i; break; }
    Str e = trim(Str{v.p, comma < v.n ? comma : v.n});
    Str a = comma < v.n ? trim(Str{v.p + comma + 1, v.n - comma - 1}) : Str{"", 0};
    bool ok = comma < v.n && parse_u32_dec(e, s.number) && s.number >= 1;
    if (ok) {
        for (size_t i = 0; i < a.n; ++i) ok = ok && a.p[i] != ',';
        if (eq_nocase(a, "full"))
            s.assoc = s.number;
        else
            ok = ok && parse_u32_dec(a, s.assoc);
    }
    if (!ok) {
        append_quoted(rule, v);
        error_append(rule, " is not ENTRIES,ASSOC (e.g. 64,4 or 72,full) or none");
        return false;
    }
    return true;
}

const char* target_name(u8 t) {
    switch (t) {
    case kL1: return "L1";
    case kI1: return "I1";
    case kD1: return "D1";
    case kL2: return "L2";
    case kL3: return "L3";
    case kL4: return "L4";
    default: return "LL";
    }
}

bool parse_geometry(Str v, Setting& s, ErrorText& rule) {
    if (eq_nocase(v, "none")) {
        if (s.target != kL2 && s.target != kL3 && s.target != kL4) {
            error_append(rule, "'none' is accepted for L2, L3 and L4 only");
            return false;
        }
        s.none = true;
        return true;
    }
    Str f[3];
    int count = 0;
    size_t start = 0;
    for (size_t i = 0; i <= v.n; ++i) {
        if (i == v.n || v.p[i] == ',') {
            if (count == 3) { count = 4; break; }
            f[count++] = trim(Str{v.p + start, i - start});
            start = i + 1;
        }
    }
    if (count != 3) {
        append_quoted(rule, v);
        error_append(rule, " is not SIZE,ASSOC,LINE (e.g. 1M,8,64)");
        if (s.target == kL2 || s.target == kL3 || s.target == kL4)
            error_append(rule, " or none");
        return false;
    }
    if (!parse_size(f[0].p, f[0].n, s.size)) {
        error_append(rule, "bad size ");
        append_quoted(rule, f[0]);
        error_append(rule, " (e.g. 32768, 32K, 1.25M, 2MiB)");
        return false;
    }
    u64 line;
    if (!parse_size(f[2].p, f[2].n, line) || line > kU32Max) {
        error_append(rule, "bad line size ");
        append_quoted(rule, f[2]);
        error_append(rule, " (a number of bytes, e.g. 64)");
        return false;
    }
    s.line = u32(line);
    if (eq_nocase(f[1], "full")) {
        // Fully associative: one set. A zero line size is left for
        // validate() to report.
        u64 ways = s.line ? s.size / s.line : 0;
        if (ways > kU32Max) {
            error_append(rule, "full associativity gives ");
            error_append_u64(rule, ways);
            error_append(rule, " ways, more than 4294967295");
            return false;
        }
        s.assoc = u32(ways);
        return true;
    }
    if (!parse_u32_dec(f[1], s.assoc)) {
        error_append(rule, "bad associativity ");
        append_quoted(rule, f[1]);
        error_append(rule, " (a number of ways or full)");
        return false;
    }
    return true;
}

bool parse_yes_no(Str v, bool& out, ErrorText& rule) {
    if (eq(v, "yes")) { out = true; return true; }
    if (eq(v, "no")) { out = false; return true; }
    append_quoted(rule, v);
    error_append(rule, " is not yes or no");
    return false;
}

// Parses the value of a setting whose key lookup_key() accepted. On failure
// writes the rule (without any prefix) to `rule`.
bool parse_value(Str v, Setting& s, ErrorText& rule) {
    restart(rule);
    s.none = false;
    v = trim(v);
    switch (s.key) {
    case Key::Machine:
        if (!is_preset_name(v)) {
            error_append(rule, "unknown machine ");
            append_quoted(rule, v);
            error_append(rule, " (valid: ");
            for (int i = 0; preset_names()[i]; ++i) {
                if (i) error_append(rule, ", ");
                error_append(rule, preset_names()[i]);
            }
            error_append(rule, ")");
            return false;
        }
        s.text = v;
        return true;
    case Key::CacheConfig:
        if (v.n == 0) {
            error_append(rule, "needs a file name");
            return false;
        }
        s.text = v;
        return true;
    case Key::Geometry:
        return parse_geometry(v, s, rule);
    case Key::Unified:
    case Key::ICache:
        return parse_yes_no(v, s.flag, rule);
    case Key::Replacement:
        if (eq_nocase(v, "lru")) s.choice = u8(Replacement::LRU);
        else if (eq_nocase(v, "fifo")) s.choice = u8(Replacement::FIFO);
        else if (eq_nocase(v, "plru")) s.choice = u8(Replacement::PLRU);
        else if (eq_nocase(v, "random")) s.choice = u8(Replacement::Random);
        else {
            append_quoted(rule, v);
            error_append(rule, " is not lru, fifo, plru or random");
            return false;
        }
        return true;
    case Key::Write:
        if (eq_nocase(v, "wb") || eq_nocase(v, "write-back"))
            s.choice = u8(WritePolicy::WriteBack);
        else if (eq_nocase(v, "wt") || eq_nocase(v, "write-through"))
            s.choice = u8(WritePolicy::WriteThrough);
        else {
            append_quoted(rule, v);
            error_append(rule, " is not write-back (wb) or write-through (wt)");
            return false;
        }
        return true;
    case Key::Inclusion:
        if (eq_nocase(v, "nine") || eq_nocase(v, "non-inclusive"))
            s.choice = u8(Inclusion::NonInclusive);
        else if (eq_nocase(v, "inclusive"))
            s.choice = u8(Inclusion::Inclusive);
        else if (eq_nocase(v, "exclusive") || eq_nocase(v, "victim"))
            s.choice = u8(Inclusion::Exclusive);
        else {
            append_quoted(rule, v);
            error_append(rule, " is not non-inclusive (nine), inclusive or exclusive (victim)");
            return false;
        }
        return true;
    case Key::PrivateLevels:
        if (!parse_u32_dec(v, s.number) || s.number < 1 || s.number > u32(kMaxLevels)) {
            append_quoted(rule, v);
            error_append(rule, " is not a number of private levels (1 to 4)");
            return false;
        }
        return true;
    case Key::Latency:
    case Key::MemoryLatency:
    case Key::C2cLatency:
    case Key::UpgradeLatency:
        if (!parse_u32_dec(v, s.number)) {
            append_quoted(rule, v);
            error_append(rule, " is not a number of cycles (0 to 4294967295)");
            return false;
        }
        return true;
    case Key::Cpi:
        if (!parse_cpi(v, s.number)) {
            append_quoted(rule, v);
            error_append(rule, " is not a number with at most 2 decimals"
                               " (e.g. 1, 0.5, 1.25; at most 42949672.95)");
            return false;
        }
        return true;
    case Key::RandomSeed:
        if (!parse_u64_dec(v, s.seed)) {
            append_quoted(rule, v);
            error_append(rule, " is not a number (0 to 18446744073709551615)");
            return false;
        }
        return true;
    case Key::Prefetch:
        if (!parse_prefetch_kinds(v, s.number)) {
            append_quoted(rule, v);
            error_append(rule, " is not none or a comma list of next-line, stride, stream");
            return false;
        }
        return true;
    case Key::PrefetchDegree:
        if (!parse_count(v, 1, 64, s.number)) {
            append_quoted(rule, v);
            error_append(rule, " is not a prefetch degree (1 to 64 lines)");
            return false;
        }
        return true;
    case Key::PrefetchTable:
        if (!parse_count(v, 1, 65536, s.number)) {
            append_quoted(rule, v);
            error_append(rule, " is not a number of stride table entries (1 to 65536)");
            return false;
        }
        return true;
    case Key::PrefetchStreams:
        if (!parse_count(v, 1, 1024, s.number)) {
            append_quoted(rule, v);
            error_append(rule, " is not a number of streams (1 to 1024)");
            return false;
        }
        return true;
    case Key::Tlb:
        return parse_tlb_geometry(v, s, rule);
    case Key::TlbLatency:
    case Key::WalkLatency:
        if (!parse_u32_dec(v, s.number)) {
            append_quoted(rule, v);
            error_append(rule, " is not a number of cycles (0 to 4294967295)");
            return false;
        }
        return true;
    case Key::TlbPage:
        if (!parse_size(v.p, v.n, s.size) || !is_pow2(s.size) || s.size < 4096 ||
            s.size > (1ull << 30)) {
            append_quoted(rule, v);
            error_append(rule, " is not a page size (a power of two from 4K to 1G, e.g. 4K, 2M)");
            return false;
        }
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------
// Applying settings

void fail_no_level(ErrorText& rule, const HierarchyConfig& c, const char* name) {
    error_append(rule, "there is no ");
    error_append(rule, name);
    error_append(rule, " (the hierarchy has ");
    error_append_u64(rule, u64(c.levels));
    error_append(rule, c.levels == 1 ? " level)" : " levels)");
}

// The LevelConfigs a per-level setting addresses (up to two: I1 and D1).
// Returns the count, 0 with `rule` set if the level does not exist.
int resolve(HierarchyConfig& c, u8 target, LevelConfig* out[2], ErrorText& rule) {
    int index;
    switch (target) {
    case kI1:
    case kD1:
        if (!c.split_l1) {
            error_append(rule, "level 1 is unified (set L1-unified to no first, or use L1)");
            return 0;
        }
        out[0] = target == kI1 ? &c.i1 : &c.level[0];
        return 1;
    case kL1: index = 0; break;
    case kL2: index = 1; break;
    case kL3: index = 2; break;
    case kL4: index = 3; break;
    default: index = c.levels - 1; break;  // kLL
    }
    if (index < 0 || index >= c.levels || index >= kMaxLevels) {
        fail_no_level(rule, c, target_name(target));
        return 0;
    }
    if (index == 0 && c.split_l1) {
        out[0] = &c.i1;
        out[1] = &c.level[0];
        return 2;
    }
    out[0] = &c.level[index];
    return 1;
}

bool apply_geometry(HierarchyConfig& c, const Setting& s, ErrorText& rule) {
    int index = -1;
    if (s.target == kL2) index = 1;
    else if (s.target == kL3) index = 2;
    else if (s.target == kL4) index = 3;
    if (s.none) {
        if (index >= 1 && c.levels > index) c.levels = index;
        return true;
    }
    if (index >= 1 && index == c.levels) {
        // Adds the level just below the current last one.
        c.level[index] = preset_level(s.size, s.assoc, s.line, default_latency(index));
        c.levels = index + 1;
        return true;
    }
    if (index >= 1 && index > c.levels) {
        error_append(rule, "cannot add ");
        error_append(rule, target_name(s.target));
        error_append(rule, ": there is no ");
        error_append(rule, index == 2 ? "L2" : "L3");
        error_append(rule, " (the hierarchy has ");
        error_append_u64(rule, u64(c.levels));
        error_append(rule, c.levels == 1 ? " level)" : " levels)");
        return false;
    }
    LevelConfig* l[2];
    int n = resolve(c, s.target, l, rule);
    if (n == 0) return false;
    for (int i = 0; i < n; ++i) {
        l[i]->size = s.size;
        l[i]->assoc = s.assoc;
        l[i]->line = s.line;
    }
    return true;
}

void fail_no_tlb(ErrorText& rule, const HierarchyConfig& c, u8 level) {
    error_append(rule, level ? "there is no DTLB2" : "there is no DTLB1");
    error_append(rule, " (the TLB has ");
    error_append_u64(rule, u64(c.tlb.levels));
    error_append(rule, c.tlb.levels == 1 ? " level)" : " levels)");
}

// DTLB1/DTLB2 geometry: sets an existing level, adds the next one (DTLB1
// latency 0, DTLB2 7 cycles), or with none removes it and any below.
bool apply_tlb(HierarchyConfig& c, const Setting& s, ErrorText& rule) {
    int k = s.tlb;
    if (s.none) {
        if (c.tlb.levels > k) c.tlb.levels = k;
        return true;
    }
    if (k > c.tlb.levels) {
        error_append(rule, "cannot add DTLB2: there is no DTLB1");
        return false;
    }
    TlbLevelConfig& l = c.tlb.level[k];
    if (k == c.tlb.levels) {
        l.latency = k == 0 ? 0 : 7;
        c.tlb.levels = k + 1;
    }
    l.entries = s.number;
    l.assoc = s.assoc;
    return true;
}

bool apply(HierarchyConfig& c, const Setting& s, ErrorText& rule) {
    restart(rule);
    LevelConfig* l[2];
    int n;
    switch (s.key) {
    case Key::Machine:
    case Key::CacheConfig:
        return true;  // handled by builder_finish
    case Key::Geometry:
        return apply_geometry(c, s, rule);
    case Key::Unified:
        if (s.flag && c.split_l1) {
            c.split_l1 = false;  // level[0] (D1) becomes the unified L1
        } else if (!s.flag && !c.split_l1) {
            c.split_l1 = true;
            c.i1 = c.level[0];   // I1 starts as a copy of the former L1
        }
        return true;
    case Key::Replacement:
    case Key::Write:
    case Key::Inclusion:
    case Key::Latency:
        n = resolve(c, s.target, l, rule);
        if (n == 0) return false;
        for (int i = 0; i < n; ++i) {
            if (s.key == Key::Replacement) l[i]->replacement = Replacement(s.choice);
            else if (s.key == Key::Write) l[i]->write = WritePolicy(s.choice);
            else if (s.key == Key::Inclusion) l[i]->inclusion = Inclusion(s.choice);
            else l[i]->latency = s.number;
        }
        return true;
    case Key::MemoryLatency: c.memory_latency = s.number; return true;
    case Key::Cpi: c.cpi_x100 = s.number; return true;
    case Key::ICache: c.icache = s.flag; return true;
    case Key::RandomSeed: c.random_seed = s.seed; return true;
    case Key::Prefetch:
    case Key::PrefetchDegree:
    case Key::PrefetchTable:
    case Key::PrefetchStreams:
        n = resolve(c, s.target, l, rule);
        if (n == 0) return false;
        for (int i = 0; i < n; ++i) {
            PrefetchConfig& p = l[i]->prefetch;
            if (s.key == Key::Prefetch) p.kinds = u8(s.number);
            else if (s.key == Key::PrefetchDegree) p.degree = s.number;
            else if (s.key == Key::PrefetchTable) p.stride_entries = s.number;
            else p.stream_entries = s.number;
        }
        return true;
    case Key::Tlb:
        return apply_tlb(c, s, rule);
    case Key::TlbLatency:
        if (int(s.tlb) >= c.tlb.levels) {
            fail_no_tlb(rule, c, s.tlb);
            return false;
        }
        c.tlb.level[s.tlb].latency = s.number;
        return true;
    case Key::TlbPage: c.tlb.page_size = s.size; return true;
    case Key::WalkLatency: c.tlb.walk_latency = s.number; return true;
    case Key::PrivateLevels: c.private_levels = s.number; return true;
    case Key::C2cLatency: c.c2c_latency = s.number; return true;
    case Key::UpgradeLatency: c.upgrade_latency = s.number; return true;
    }
    return false;
}

// Which of the coherence settings (whose defaults depend on the final
// levels and latencies) were given explicitly.
struct Explicit {
    bool private_levels;
    bool c2c_latency;
    bool upgrade_latency;
};

void note_explicit(Explicit& x, const Setting& s) {
    if (s.key == Key::PrivateLevels) x.private_levels = true;
    if (s.key == Key::C2cLatency) x.c2c_latency = true;
    if (s.key == Key::UpgradeLatency) x.upgrade_latency = true;
}

// Fills in the defaults of the coherence settings not given, and checks
// the number of private levels against the final number of levels. The
// default is levels-1, except on the detected host while its levels are
// unchanged: then the sharing sysfs or CPUID reported.
bool finish_coherence(HierarchyConfig& c, const Explicit& x, const HierarchyConfig* host,
                      ErrorText& err) {
    if (!x.private_levels)
        c.private_levels = host && host->levels == c.levels && host->private_levels
                               ? host->private_levels
                               : default_private_levels(c.levels);
    if (c.private_levels < 1 || c.private_levels > u32(c.levels)) {
        restart(err);
        error_append(err, "--private-levels: ");
        error_append_u64(err, c.private_levels);
        error_append(err, " is not between 1 and the number of levels (");
        error_append_u64(err, u64(c.levels < 0 ? 0 : c.levels));
        error_append(err, ")");
        return false;
    }
    if (!x.c2c_latency) c.c2c_latency = first_shared_latency(c);
    if (!x.upgrade_latency) c.upgrade_latency = first_shared_latency(c);
    return true;
}

// ---------------------------------------------------------------------------
// Command-line arguments

// Splits "--key=value" (has_value false for "--key").
bool split_arg(const char* arg, Str& key, Str& value, bool& has_value) {
    if (!arg || arg[0] != '-' || arg[1] != '-') return false;
    const char* k = arg + 2;
    size_t n = 0;
    while (k[n] && k[n] != '=') ++n;
    key = Str{k, n};
    has_value = k[n] == '=';
    value = has_value ? cstr(k + n + 1) : Str{k + n, 0};
    return true;
}

void option_prefix(ErrorText& err, Str key) {
    restart(err);
    error_append(err, "--");
    append_str(err, key);
    error_append(err, ": ");
}

// ---------------------------------------------------------------------------
// Configuration files

struct FileLine {
    Str line;  // without comment and surrounding blanks
    Str key;
    Str value;
    u64 number;
    bool has_equals;
};

struct LineCursor {
    const char* text;
    size_t len;
    size_t pos;
    u64 number;
};

void cursor_start(LineCursor& c, const char* text, size_t len) {
    c.text = text;
    c.len = text ? len : 0;
    c.pos = 0;
    c.number = 0;
    // A UTF-8 byte order mark is skipped.
    if (c.len >= 3 && u8(text[0]) == 0xEF && u8(text[1]) == 0xBB && u8(text[2]) == 0xBF)
        c.pos = 3;
}

// Next non-blank, non-comment line; false at the end.
bool cursor_next(LineCursor& c, FileLine& out) {
    while (c.pos < c.len) {
        size_t b = c.pos;
        size_t e = b;
        while (e < c.len && c.text[e] != '\n') ++e;
        c.pos = e < c.len ? e + 1 : e;
        ++c.number;
        size_t stop = b;
        while (stop < e && c.text[stop] != '#') ++stop;
        Str line = trim(Str{c.text + b, stop - b});
        if (line.n == 0) continue;
        out.number = c.number;
        out.line = line;
        size_t eqpos = 0;
        while (eqpos < line.n && line.p[eqpos] != '=') ++eqpos;
        out.has_equals = eqpos < line.n;
        if (!out.has_equals) {
            out.key = line;
            out.value = Str{line.p + line.n, 0};
        } else {
            out.key = trim(Str{line.p, eqpos});
            out.value = trim(Str{line.p + eqpos + 1, line.n - eqpos - 1});
        }
        return true;
    }
    return false;
}

void file_prefix(ErrorText& err, const char* name, u64 line) {
    restart(err);
    append_name(err, name ? name : "(config)");
    error_append(err, ":");
    error_append_u64(err, line);
    error_append(err, ": ");
}

// Checks one line; on success `s` holds the parsed setting.
bool check_file_line(const char* name, const FileLine& fl, Setting& s, ErrorText& err) {
    if (!fl.has_equals || fl.key.n == 0) {
        file_prefix(err, name, fl.number);
        error_append(err, "expected 'key = value', got ");
        append_quoted(err, fl.line);
        return false;
    }
    if (!lookup_key(fl.key, s)) {
        file_prefix(err, name, fl.number);
        error_append(err, "unknown setting ");
        append_quoted(err, fl.key);
        return false;
    }
    if (s.key == Key::CacheConfig) {
        file_prefix(err, name, fl.number);
        error_append(err, "cache-config cannot be used inside a configuration file");
        return false;
    }
    ErrorText rule;
    if (!parse_value(fl.value, s, rule)) {
        file_prefix(err, name, fl.number);
        append_str(err, fl.key);
        error_append(err, ": ");
        append_rule(err, rule);
        return false;
    }
    return true;
}

// The preset builder_finish() starts from: --machine, else the last
// `machine` of the file, else desktop.
bool chosen_machine(const MachineBuilder& b, Str& machine, ErrorText& err) {
    machine = cstr("desktop");
    if (b.config_loaded) {
        LineCursor cur;
        FileLine fl;
        Setting s;
        cursor_start(cur, b.config_text, b.config_len);
        while (cursor_next(cur, fl)) {
            if (!check_file_line(b.config_name, fl, s, err)) return false;
            if (s.key == Key::Machine) machine = s.text;
        }
    }
    if (b.machine) machine = cstr(b.machine);
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API

const char* builder_machine_name(const MachineBuilder& b) {
    Str machine;
    ErrorText err;
    if (!chosen_machine(b, machine, err)) return nullptr;
    for (int i = 0; preset_names()[i]; ++i)
        if (eq(machine, preset_names()[i])) return preset_names()[i];
    return nullptr;
}

bool parse_size(const char* s, size_t len, u64& out) {
    if (!s || len == 0 || !is_digit(s[0])) return false;
    size_t i = 0;
    u64 whole = 0;
    while (i < len && is_digit(s[i])) {
        u64 d = u64(s[i] - '0');
        if (whole > (kU64Max - d) / 10) return false;
        whole = whole * 10 + d;
        ++i;
    }
    // Fraction digits up to the last non-zero one. A whole number of bytes
    // needs at most `shift` of them (shown in docs/cache-config.md), so 40
    // (the shift of T) are enough to hold any acceptable fraction.
    u8 frac[40];
    size_t fdigits = 0;
    if (i < len && s[i] == '.') {
        ++i;
        size_t first = i;
        while (i < len && is_digit(s[i])) {
            size_t pos = i - first;
            if (s[i] != '0') {
                if (pos >= sizeof(frac)) return false;
                while (fdigits < pos) frac[fdigits++] = 0;
                frac[fdigits++] = u8(s[i] - '0');
            }
            ++i;
        }
        if (i == first) return false;  // "1." or "1.K"
    }
    unsigned shift = 0;
    if (i < len) {
        switch (s[i]) {
        case 'K': case 'k': shift = 10; ++i; break;
        case 'M': case 'm': shift = 20; ++i; break;
        case 'G': case 'g': shift = 30; ++i; break;
        case 'T': case 't': shift = 40; ++i; break;
        case 'B': break;
        default: return false;
        }
        if (shift && i < len && s[i] == 'i') {
            ++i;
            if (i == len || s[i] != 'B') return false;  // "Ki" alone
        }
        if (i < len && s[i] == 'B') ++i;
        if (i != len) return false;
    }
    if (fdigits > shift) return false;
    // fraction x 2^shift, by doubling the decimal digits `shift` times; the
    // carries out of the first digit form the integer part.
    u64 carried = 0;
    for (unsigned r = 0; r < shift; ++r) {
        unsigned carry = 0;
        for (size_t j = fdigits; j-- > 0;) {
            unsigned v = unsigned(frac[j]) * 2 + carry;
            frac[j] = u8(v % 10);
            carry = v / 10;
        }
        carried = carried * 2 + carry;
    }
    for (size_t j = 0; j < fdigits; ++j)
        if (frac[j]) return false;  // not a whole number of bytes
    if (shift && whole > (kU64Max >> shift)) return false;
    u64 v = whole << shift;
    if (v > kU64Max - carried) return false;
    out = v + carried;
    return true;
}

bool machine_preset(const char* name, HierarchyConfig& out) {
    if (!name) return false;
    return preset_by_name(cstr(name), nullptr, out);
}

const char* const* machine_preset_names() { return preset_names(); }

void builder_reset(MachineBuilder& b) {
    b.machine = nullptr;
    for (int i = 0; i < kMaxCacheOptions; ++i) b.options[i] = nullptr;
    b.option_count = 0;
    b.config_path = nullptr;
    b.config_name = nullptr;
    b.config_text = nullptr;
    b.config_len = 0;
    b.config_loaded = false;
    b.host = nullptr;
}

void builder_set_host(MachineBuilder& b, const HierarchyConfig* host) { b.host = host; }

const char* builder_config_path(const MachineBuilder& b) { return b.config_path; }

OptResult builder_option(MachineBuilder& b, const char* arg, ErrorText& err) {
    Str key, value;
    bool has_value;
    Setting s;
    if (!split_arg(arg, key, value, has_value) || !lookup_key(key, s))
        return OptResult::NotMine;
    if (!has_value) {
        option_prefix(err, key);
        error_append(err, "needs a value (--");
        append_str(err, key);
        error_append(err, "=...)");
        return OptResult::Error;
    }
    ErrorText rule;
    if (!parse_value(value, s, rule)) {
        option_prefix(err, key);
        append_rule(err, rule);
        return OptResult::Error;
    }
    if (s.key == Key::Machine) {
        b.machine = value.p;
        return OptResult::Ok;
    }
    if (s.key == Key::CacheConfig) {
        b.config_path = value.p;
        b.config_loaded = false;
        return OptResult::Ok;
    }
    if (b.option_count >= kMaxCacheOptions) {
        option_prefix(err, key);
        error_append(err, "too many cache options (at most 64)");
        return OptResult::Error;
    }
    b.options[b.option_count++] = arg;
    return OptResult::Ok;
}

bool builder_config_text(MachineBuilder& b, const char* name, const char* text,
                         size_t len, ErrorText& err) {
    LineCursor cur;
    FileLine fl;
    Setting s;
    cursor_start(cur, text, len);
    while (cursor_next(cur, fl))
        if (!check_file_line(name, fl, s, err)) return false;
    b.config_name = name;
    b.config_text = text;
    b.config_len = text ? len : 0;
    b.config_loaded = true;
    return true;
}

bool builder_finish(const MachineBuilder& b, HierarchyConfig& out, ErrorText& err) {
    if (b.config_path && !b.config_loaded) {
        restart(err);
        error_append(err, "--cache-config: the text of '");
        append_name(err, b.config_path);
        error_append(err, "' was not loaded");
        return false;
    }
    bool use_file = b.config_loaded;
    LineCursor cur;
    FileLine fl;
    Setting s;
    ErrorText rule;

    // 1. The preset: --machine, else the file's last `machine`, else desktop.
    Str machine;
    if (!chosen_machine(b, machine, err)) return false;
    HierarchyConfig c;
    Explicit ex = {false, false, false};
    if (eq(machine, "host") && !b.host) {
        restart(err);
        error_append(err, "--machine=host: the host's caches were not detected");
        return false;
    }
    if (!preset_by_name(machine, &b, c)) {
        restart(err);
        error_append(err, "unknown machine ");
        append_quoted(err, machine);
        return false;
    }

    // 2. The file's settings in file order.
    if (use_file) {
        cursor_start(cur, b.config_text, b.config_len);
        while (cursor_next(cur, fl)) {
            if (!check_file_line(b.config_name, fl, s, err)) return false;
            note_explicit(ex, s);
            if (!apply(c, s, rule)) {
                file_prefix(err, b.config_name, fl.number);
                append_str(err, fl.key);
                error_append(err, ": ");
                append_rule(err, rule);
                return false;
            }
        }
    }

    // 3. The command-line overrides in order.
    // builder_option() accepted each of them, so only apply() can fail.
    for (int i = 0; i < b.option_count; ++i) {
        Str key{"", 0}, value{"", 0};
        bool has_value = false;
        restart(rule);
        if (!split_arg(b.options[i], key, value, has_value) || !lookup_key(key, s) ||
            !has_value || !parse_value(value, s, rule) || !apply(c, s, rule)) {
            option_prefix(err, key);
            append_rule(err, rule);
            return false;
        }
        note_explicit(ex, s);
    }

    if (!finish_coherence(c, ex, eq(machine, "host") ? b.host : nullptr, err)) return false;
    if (!validate(c, err)) return false;
    out = c;
    return true;
}

}  // namespace ompsim
