/* Simulated event sets (see SimEventSets.h). No libc call on any path that
 * runs between a start and a stop: libc code would be simulated and counted.
 * Histogram buffers are the exception; they are allocated by
 * sim_set_histogram, before the set starts. */
#include "SimEventSets.h"

#include <stdlib.h>

#include "epapi.h"
#include "ompsim.h"

#define MAX_SETS 256
#define MAX_EVENTS 64

typedef unsigned long long u64;

struct EventSet {
    int used;
    int running;
    int n;
    int codes[MAX_EVENTS];
    unsigned long handle;       /* 0 = whole program, else the range's structure + 1 */
    u64 start[MAX_EVENTS];      /* tool counts at start (or last reset/accum) */
    u64 frozen[MAX_EVENTS];     /* counts between start and stop, once stopped */
    int hist_buckets;           /* 0: no histogram */
    u64* hist_start;            /* hist_buckets per event */
    u64* hist_frozen;
};

static struct EventSet sets[MAX_SETS];
static int active;

extern char __start_ompsim_unsimulated[] __attribute__((weak, visibility("hidden")));
extern char __stop_ompsim_unsimulated[] __attribute__((weak, visibility("hidden")));

struct PresetName {
    int code;
    const char* name;
    const char* descr;
};
#define SIM_NAME_ROW_(name, idx, level, what, descr) {EPAPI_##name, "PAPI_" #name, descr},
static const struct PresetName presets[] = {EPAPI_PRESET_EVENTS(SIM_NAME_ROW_)};
#undef SIM_NAME_ROW_
#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

static long request(unsigned long req, unsigned long a1, unsigned long a2, unsigned long a3,
                    unsigned long a4) OMPSIM_UNSIMULATED;
static long request(unsigned long req, unsigned long a1, unsigned long a2, unsigned long a3,
                    unsigned long a4) {
    return (long)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, req, a1, a2, a3, a4, 0);
}

OMPSIM_UNSIMULATED int sim_init(void) {
    if (active) return 1;
    if (request(OMPSIM_USERREQ_EPAPI_PROBE, 0, 0, 0, 0) != OMPSIM_EPAPI_MAGIC) return 0;
    if (__start_ompsim_unsimulated && __stop_ompsim_unsimulated)
        request(OMPSIM_USERREQ_UNSIMULATED_CODE, (unsigned long)__start_ompsim_unsimulated,
                (unsigned long)__stop_ompsim_unsimulated, 0, 0);
    active = 1;
    return 1;
}

OMPSIM_UNSIMULATED int sim_active(void) { return active; }

static struct EventSet* get(int es) OMPSIM_UNSIMULATED;
static struct EventSet* get(int es) {
    if (es < 0 || es >= MAX_SETS || !sets[es].used) return 0;
    return &sets[es];
}

static void free_histogram(struct EventSet* s) OMPSIM_UNSIMULATED;
static void free_histogram(struct EventSet* s) {
    free(s->hist_start);
    free(s->hist_frozen);
    s->hist_start = s->hist_frozen = 0;
    s->hist_buckets = 0;
}

OMPSIM_UNSIMULATED void sim_shutdown(void) {
    for (int i = 0; i < MAX_SETS; ++i) {
        free_histogram(&sets[i]);
        sets[i].used = 0;
    }
}

OMPSIM_UNSIMULATED int sim_create_eventset(int* es) {
    if (!active) return EPAPI_ENOINIT;
    if (!es || *es != EPAPI_NULL) return EPAPI_EINVAL;
    for (int i = 0; i < MAX_SETS; ++i) {
        if (!sets[i].used) {
            struct EventSet* s = &sets[i];
            s->used = 1;
            s->running = 0;
            s->n = 0;
            s->handle = 0;
            s->hist_buckets = 0;
            s->hist_start = s->hist_frozen = 0;
            *es = i;
            return EPAPI_OK;
        }
    }
    return EPAPI_ENOMEM;
}

OMPSIM_UNSIMULATED int sim_query_event(int code) {
    if (!active) return EPAPI_ENOINIT;
    return (int)request(OMPSIM_USERREQ_EPAPI_QUERY, 0, (unsigned long)(unsigned)code, 0, 0);
}

OMPSIM_UNSIMULATED int sim_add_event(int es, int code) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (s->running) return EPAPI_EISRUN;
    if (s->hist_buckets) return EPAPI_ECNFLCT; /* histogram buffers are sized per event */
    for (int i = 0; i < s->n; ++i)
        if (s->codes[i] == code) return EPAPI_ECNFLCT;
    if (s->n == MAX_EVENTS) return EPAPI_ECNFLCT;
    int rc = (int)request(OMPSIM_USERREQ_EPAPI_QUERY, s->handle, (unsigned long)(unsigned)code, 0, 0);
    if (rc != EPAPI_OK) return rc;
    s->codes[s->n] = code;
    s->frozen[s->n] = 0;
    s->n++;
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_remove_event(int es, int code) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (s->running) return EPAPI_EISRUN;
    for (int i = 0; i < s->n; ++i) {
        if (s->codes[i] == code) {
            for (int j = i + 1; j < s->n; ++j) {
                s->codes[j - 1] = s->codes[j];
                s->frozen[j - 1] = s->frozen[j];
            }
            s->n--;
            free_histogram(s);
            return EPAPI_OK;
        }
    }
    return EPAPI_EINVAL;
}

OMPSIM_UNSIMULATED int sim_num_events(int es) {
    struct EventSet* s = get(es);
    return s ? s->n : EPAPI_ENOEVST;
}

OMPSIM_UNSIMULATED int sim_list_events(int es, int* codes, int* n) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (!n || *n < 0) return EPAPI_EINVAL;
    for (int i = 0; i < s->n && i < *n; ++i) codes[i] = s->codes[i];
    *n = s->n;
    return EPAPI_OK;
}

/* The tool's counts of the set's events now, into out[0..n). */
static int now(struct EventSet* s, u64* out) OMPSIM_UNSIMULATED;
static int now(struct EventSet* s, u64* out) {
    return (int)request(OMPSIM_USERREQ_EPAPI_READ, s->handle, (unsigned long)s->codes,
                        (unsigned long)s->n, (unsigned long)out);
}

static int hist_now(struct EventSet* s, u64* out) OMPSIM_UNSIMULATED;
static int hist_now(struct EventSet* s, u64* out) {
    for (int i = 0; i < s->n; ++i) {
        long nb = request(OMPSIM_USERREQ_EPAPI_HISTOGRAM, s->handle, (unsigned long)(unsigned)s->codes[i],
                          (unsigned long)(out + (size_t)i * s->hist_buckets), (unsigned long)s->hist_buckets);
        if (nb < 0) return (int)nb;
        if (nb != s->hist_buckets) return EPAPI_EBUF; /* resolution changed behind our back */
    }
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_start(int es) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (s->running) return EPAPI_EISRUN;
    if (s->n == 0) return EPAPI_EINVAL;
    int rc = s->hist_buckets ? hist_now(s, s->hist_start) : EPAPI_OK;
    if (rc == EPAPI_OK) rc = now(s, s->start);
    if (rc != EPAPI_OK) return rc;
    s->running = 1;
    return EPAPI_OK;
}

static u64 since(u64 now_v, u64 start) OMPSIM_UNSIMULATED;
static u64 since(u64 now_v, u64 start) { return now_v > start ? now_v - start : 0; }

OMPSIM_UNSIMULATED int sim_read(int es, long long* values) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (!values) return EPAPI_EINVAL;
    if (!s->running) {
        for (int i = 0; i < s->n; ++i) values[i] = (long long)s->frozen[i];
        return EPAPI_OK;
    }
    u64 v[MAX_EVENTS];
    int rc = now(s, v);
    if (rc != EPAPI_OK) return rc;
    for (int i = 0; i < s->n; ++i) values[i] = (long long)since(v[i], s->start[i]);
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_stop(int es, long long* values) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (!s->running) return EPAPI_ENOTRUN;
    u64 v[MAX_EVENTS];
    int rc = now(s, v);
    if (rc != EPAPI_OK) return rc;
    if (s->hist_buckets) {
        rc = hist_now(s, s->hist_frozen);
        if (rc != EPAPI_OK) return rc;
        for (size_t b = 0; b < (size_t)s->n * s->hist_buckets; ++b)
            s->hist_frozen[b] = since(s->hist_frozen[b], s->hist_start[b]);
    }
    for (int i = 0; i < s->n; ++i) {
        s->frozen[i] = since(v[i], s->start[i]);
        if (values) values[i] = (long long)s->frozen[i];
    }
    s->running = 0;
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_accum(int es, long long* values) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (!values) return EPAPI_EINVAL;
    if (!s->running) return EPAPI_ENOTRUN;
    u64 v[MAX_EVENTS];
    int rc = now(s, v);
    if (rc != EPAPI_OK) return rc;
    for (int i = 0; i < s->n; ++i) {
        values[i] += (long long)since(v[i], s->start[i]);
        s->start[i] = v[i];
    }
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_reset(int es) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    for (int i = 0; i < s->n; ++i) s->frozen[i] = 0;
    if (s->hist_buckets)
        for (size_t b = 0; b < (size_t)s->n * s->hist_buckets; ++b) s->hist_frozen[b] = 0;
    if (!s->running) return EPAPI_OK;
    int rc = s->hist_buckets ? hist_now(s, s->hist_start) : EPAPI_OK;
    return rc == EPAPI_OK ? now(s, s->start) : rc;
}

OMPSIM_UNSIMULATED int sim_state(int es, int* running) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    *running = s->running;
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_cleanup_eventset(int es) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (s->running) return EPAPI_EISRUN;
    s->n = 0;
    s->handle = 0;
    free_histogram(s);
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_destroy_eventset(int* es) {
    if (!es) return EPAPI_EINVAL;
    struct EventSet* s = get(*es);
    if (!s) return EPAPI_ENOEVST;
    if (s->running) return EPAPI_EISRUN;
    if (s->n) return EPAPI_EINVAL; /* as PAPI: clean up first */
    free_histogram(s);
    s->used = 0;
    *es = EPAPI_NULL;
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_set_range(int es, const void* addr, size_t len) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (s->running) return EPAPI_EISRUN;
    if (!addr || len == 0) return EPAPI_EINVAL;
    long h = request(OMPSIM_USERREQ_EPAPI_RANGE, (unsigned long)addr, (unsigned long)len, 0, 0);
    if (h < 0) return (int)h;
    for (int i = 0; i < s->n; ++i) {
        int rc = (int)request(OMPSIM_USERREQ_EPAPI_QUERY, (unsigned long)h,
                              (unsigned long)(unsigned)s->codes[i], 0, 0);
        if (rc != EPAPI_OK) return rc;
    }
    free_histogram(s);
    s->handle = (unsigned long)h;
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_set_histogram(int es, unsigned lines, unsigned bins) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (s->running) return EPAPI_EISRUN;
    if (s->handle == 0 || s->n == 0) return EPAPI_EINVAL; /* needs a range and events */
    if ((lines == 0) == (bins == 0)) return EPAPI_EINVAL;
    if (lines && ((lines & (lines - 1)) || lines > (1u << 20))) return EPAPI_EINVAL;
    if (bins > 65536) return EPAPI_EINVAL;
    long nb = request(OMPSIM_USERREQ_EPAPI_RESOLUTION, s->handle, lines, bins, 0);
    if (nb < 0) return (int)nb;
    if (nb == 0) return EPAPI_EINVAL;
    size_t cells = (size_t)nb * (size_t)s->n;
    s->hist_start = calloc(cells, sizeof(u64));
    s->hist_frozen = calloc(cells, sizeof(u64));
    if (!s->hist_start || !s->hist_frozen) {
        free_histogram(s);
        return EPAPI_ENOMEM;
    }
    s->hist_buckets = (int)nb;
    return EPAPI_OK;
}

OMPSIM_UNSIMULATED int sim_histogram_size(int es) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    return s->hist_buckets ? s->hist_buckets : EPAPI_EINVAL;
}

OMPSIM_UNSIMULATED int sim_read_histogram(int es, int code, long long* buckets, int n) {
    struct EventSet* s = get(es);
    if (!s) return EPAPI_ENOEVST;
    if (!s->hist_buckets || !buckets) return EPAPI_EINVAL;
    if (n < s->hist_buckets) return EPAPI_EBUF;
    int e = 0;
    while (e < s->n && s->codes[e] != code) ++e;
    if (e == s->n) return EPAPI_EINVAL;
    size_t nb = (size_t)s->hist_buckets;
    if (!s->running) {
        for (size_t b = 0; b < nb; ++b) buckets[b] = (long long)s->hist_frozen[e * nb + b];
        return s->hist_buckets;
    }
    /* Running: the tool's buckets now, less those at start. The buffer of
     * the caller holds the tool's answer first (u64 and long long have the
     * same size). */
    long got = request(OMPSIM_USERREQ_EPAPI_HISTOGRAM, s->handle, (unsigned long)(unsigned)code,
                       (unsigned long)buckets, (unsigned long)nb);
    if (got < 0) return (int)got;
    if ((size_t)got != nb) return EPAPI_EBUF;
    for (size_t b = 0; b < nb; ++b)
        buckets[b] = (long long)since((u64)buckets[b], s->hist_start[e * nb + b]);
    return s->hist_buckets;
}

OMPSIM_UNSIMULATED int sim_name_to_code(const char* name, int* code) {
    if (!name || !code) return EPAPI_EINVAL;
    const char* n = name;
    if (n[0] == 'E' && n[1] == 'P' && n[2] == 'A' && n[3] == 'P' && n[4] == 'I' && n[5] == '_') n += 1;
    for (int i = 0; i < NPRESETS; ++i) {
        const char* a = presets[i].name;
        const char* b = n;
        while (*a && *a == *b) ++a, ++b;
        if (*a == 0 && *b == 0) {
            *code = presets[i].code;
            return EPAPI_OK;
        }
    }
    return EPAPI_ENOEVNT;
}

OMPSIM_UNSIMULATED int sim_code_to_name(int code, char* out, size_t size) {
    if (!out || size == 0) return EPAPI_EINVAL;
    for (int i = 0; i < NPRESETS; ++i) {
        if (presets[i].code == code) {
            size_t k = 0;
            for (; presets[i].name[k] && k + 1 < size; ++k) out[k] = presets[i].name[k];
            out[k] = 0;
            return EPAPI_OK;
        }
    }
    return EPAPI_ENOTPRESET;
}

OMPSIM_UNSIMULATED const char* sim_description(int code) {
    for (int i = 0; i < NPRESETS; ++i)
        if (presets[i].code == code) return presets[i].descr;
    return 0;
}

OMPSIM_UNSIMULATED const char* sim_strerror(int rc) {
    switch (rc) {
        case EPAPI_OK: return "No error";
        case EPAPI_EINVAL: return "Invalid argument";
        case EPAPI_ENOMEM: return "Insufficient memory";
        case EPAPI_ESYS: return "A System/C library call failed";
        case EPAPI_ENOEVNT: return "Event does not exist";
        case EPAPI_ECNFLCT: return "Event exists, but cannot be counted here (range or conflict)";
        case EPAPI_ENOTRUN: return "EventSet is currently not running";
        case EPAPI_EISRUN: return "EventSet is currently counting";
        case EPAPI_ENOEVST: return "No such EventSet available";
        case EPAPI_ENOTPRESET: return "Event in argument is not a valid preset";
        case EPAPI_ENOINIT: return "Library has not been initialized";
        case EPAPI_ENOSUPP: return "Not supported";
        case EPAPI_EBUF: return "Buffer size exceeded";
        default: return "Unknown error code";
    }
}
