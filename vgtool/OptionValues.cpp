// Value rules of the tool's own options (see OptionValues.h, docs/options.md).
#include "OptionValues.h"

#include "MachineConfig.h"

namespace ompsim {

namespace {

__attribute__((noreturn)) void refuse(const HChar* name, const HChar* rule) {
    HChar msg[300];
    VG_(snprintf)(msg, sizeof msg, "%s: %s", name, rule);
    fatal_user_error(msg);
}

// Decimal digits only, at most 2^64-1. VG_(strtoll10) would also take a
// sign and leading blanks, and wraps silently on overflow
// (--cores=18446744073709551616 was accepted as 0).
bool parse_whole(const HChar* s, ULong* out) {
    if (!*s) return false;
    ULong v = 0;
    for (; *s; ++s) {
        if (*s < '0' || *s > '9') return false;
        ULong d = (ULong)(*s - '0');
        if (v > (~0ull - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

}  // namespace

void printable(HChar* out, SizeT cap, const HChar* s) {
    SizeT n = 0, len = VG_(strlen)(s);
    SizeT keep = len < cap ? len : cap - 4;
    for (; n < keep; ++n) {
        UChar c = (UChar)s[n];
        out[n] = c < 0x20 || c == 0x7f ? '?' : s[n];
    }
    if (keep < len) {
        VG_(strcpy)(out + n, "...");
        return;
    }
    out[n] = 0;
}

const HChar* option_value(const HChar* arg, const HChar* name) {
    SizeT n = VG_(strlen)(name);
    if (VG_(strncmp)(arg, name, n) != 0) return nullptr;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != 0) return nullptr;
    HChar rule[120];
    VG_(snprintf)(rule, sizeof rule, "needs a value (%s=...)", name);
    refuse(name, rule);
}

bool yes_no_option(const HChar* arg, const HChar* name, bool* out) {
    const HChar* v = option_value(arg, name);
    if (!v) return false;
    if (VG_(strcmp)(v, "yes") == 0)
        *out = true;
    else if (VG_(strcmp)(v, "no") == 0)
        *out = false;
    else
        refuse(name, "expected yes or no");
    return true;
}

bool number_option(const HChar* arg, const HChar* name, ULong lo, ULong hi, ULong* out) {
    const HChar* v = option_value(arg, name);
    if (!v) return false;
    ULong n = 0;
    if (!parse_whole(v, &n) || n < lo || n > hi) {
        HChar rule[120];
        VG_(snprintf)(rule, sizeof rule, "expected a whole number from %llu to %llu", lo, hi);
        refuse(name, rule);
    }
    *out = n;
    return true;
}

bool power_of_two_option(const HChar* arg, const HChar* name, ULong lo, ULong hi, ULong* out) {
    const HChar* v = option_value(arg, name);
    if (!v) return false;
    ULong n = 0;
    if (!parse_whole(v, &n) || n < lo || n > hi || (n & (n - 1)) != 0) {
        HChar rule[120];
        VG_(snprintf)(rule, sizeof rule, "expected a power of two from %llu to %llu", lo, hi);
        refuse(name, rule);
    }
    *out = n;
    return true;
}

bool size_option(const HChar* arg, const HChar* name, ULong lo, ULong hi, const HChar* rule,
                 ULong* out) {
    const HChar* v = option_value(arg, name);
    if (!v) return false;
    u64 bytes = 0;
    if (!parse_size(v, VG_(strlen)(v), bytes) || bytes < lo || bytes > hi) refuse(name, rule);
    *out = bytes;
    return true;
}

bool file_name_option(const HChar* arg, const HChar* name, const HChar** out) {
    const HChar* v = option_value(arg, name);
    if (!v) return false;
    if (!v[0]) refuse(name, "expected a file name");
    HChar rule[200];
    for (const HChar* p = v; *p; ++p) {
        if (*p != '%') continue;
        ++p;
        if (*p == 'p' || *p == '%') continue;
        if (*p == 'q') {
            const HChar* close = p[1] == '{' ? VG_(strchr)(p + 2, '}') : nullptr;
            if (!close || close == p + 2)
                refuse(name, "%q needs the name of an environment variable in braces (like %q{HOME})");
            HChar var[160], shown[64];
            SizeT len = (SizeT)(close - (p + 2));
            if (len >= sizeof var) len = sizeof var - 1;
            VG_(memcpy)(var, p + 2, len);
            var[len] = 0;
            if (!VG_(getenv)(var)) {
                printable(shown, sizeof shown, var);
                VG_(snprintf)(rule, sizeof rule, "%%q{%s}: the environment variable %s is not set", shown,
                              shown);
                refuse(name, rule);
            }
            p = close;
            continue;
        }
        // %n included: see the header.
        if (*p == 0) refuse(name, "'%' at the end is not %p, %q{VAR} or %% (the % sequences of file names)");
        HChar c = (UChar)*p < 0x20 || *p == 0x7f ? '?' : *p;
        VG_(snprintf)(rule, sizeof rule, "'%%%c' is not %%p, %%q{VAR} or %%%% (the %% sequences of file names)", c);
        refuse(name, rule);
    }
    *out = v;
    return true;
}

}  // namespace ompsim
