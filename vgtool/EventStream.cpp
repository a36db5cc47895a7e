#include "EventStream.h"

namespace ompsim {
namespace stream {

Ev* g_pos;
Ev* g_end;

namespace {

// Where the helpers write when the running thread records nothing: events
// land in this scratch chunk and are overwritten.
EvChunk* g_scratch;
Stream* g_cur;
EvChunk* g_free;  // recycled chunks
u64 g_chunks;     // chunks allocated (in use or free)
u64 g_in_use;     // chunks holding events
u64 g_limit;      // bytes

EvChunk* new_chunk() {
    EvChunk* c = g_free;
    if (c) {
        g_free = c->next;
    } else {
        c = static_cast<EvChunk*>(VG_(malloc)("ompsim.stream", sizeof(EvChunk)));
        ++g_chunks;
    }
    c->next = nullptr;
    ++g_in_use;
    return c;
}

void free_chunk(EvChunk* c) {
    c->next = g_free;
    g_free = c;
    --g_in_use;
}

// Events recorded in `c` of stream `s` (the tail may be live in g_pos).
u32 used_in(const Stream* s, const EvChunk* c) {
    if (c != s->tail) return kChunkEvents;
    if (s->current) return u32(g_pos - s->tail->ev);
    return s->write;
}

void add_chunk(Stream* s) {
    EvChunk* c = new_chunk();
    s->events += kChunkEvents;
    s->tail->next = c;
    s->tail = c;
    s->write = 0;
}

// The helpers write at g_pos before they check it against g_end, so
// g_pos < g_end must hold whenever client code runs.
void point_helpers_at(Stream* s) {
    if (s) {
        if (s->write == kChunkEvents) add_chunk(s);
        g_pos = s->tail->ev + s->write;
        g_end = s->tail->ev + kChunkEvents;
    } else {
        g_pos = g_scratch->ev;
        g_end = g_scratch->ev + kChunkEvents;
    }
}

void save_current() {
    if (g_cur) {
        g_cur->write = u32(g_pos - g_cur->tail->ev);
        g_cur->current = false;
    }
}

}  // namespace

void init(u64 buffer_bytes) {
    g_limit = buffer_bytes;
    g_scratch = static_cast<EvChunk*>(VG_(malloc)("ompsim.stream", sizeof(EvChunk)));
    g_cur = nullptr;
    g_free = nullptr;
    point_helpers_at(nullptr);
}

Stream* create(Unit* unit) {
    Stream* s = static_cast<Stream*>(VG_(malloc)("ompsim.stream", sizeof(Stream)));
    VG_(memset)(s, 0, sizeof *s);
    s->head = s->tail = new_chunk();
    s->unit = unit;
    return s;
}

void set_current(Stream* s) {
    if (s == g_cur) return;
    save_current();
    g_cur = s;
    if (s) {
        tl_assert(!s->closed);
        s->current = true;
    }
    point_helpers_at(s);
}

void chunk_full() {
    if (!g_cur) {
        g_pos = g_scratch->ev;  // nobody reads the scratch chunk
        return;
    }
    add_chunk(g_cur);
    point_helpers_at(g_cur);
}

namespace {
// The helpers write at g_pos before they check: g_pos < g_end always holds
// between calls.
inline Ev* slot(Stream* s) {
    if (s->current) {
        Ev* e = g_pos++;
        if (g_pos == g_end) chunk_full();
        return e;
    }
    if (s->write == kChunkEvents) add_chunk(s);
    return &s->tail->ev[s->write++];
}
}  // namespace

void append_marker(Stream* s, u32 kind, uptr a, uptr b, uptr c) {
    if (!s) return;
    tl_assert(!s->closed);
    Ev* h = slot(s);
    h->w0 = uptr(kind) << 3 | kTagMarker;
    h->w1 = a;
    Ev* p = slot(s);
    p->w0 = b;
    p->w1 = c;
}

void close(Stream* s) {
    if (!s || s->closed) return;
    if (s == g_cur) set_current(nullptr);
    s->closed = true;
}

namespace {
// Gives back the oldest chunk once it is consumed; false if the stream has
// no later chunk yet.
inline bool next_chunk(Stream* s) {
    if (s->read < kChunkEvents) return true;
    if (!s->head->next) return false;
    EvChunk* done = s->head;
    s->head = done->next;
    s->read = 0;
    free_chunk(done);
    return true;
}
}  // namespace

bool peek(Stream* s, Ev& e) {
    if (!next_chunk(s) || s->read >= used_in(s, s->head)) return false;
    e = s->head->ev[s->read];
    return true;
}

u32 span(Stream* s, const Ev** first) {
    if (!next_chunk(s)) return 0;
    u32 used = used_in(s, s->head);
    if (s->read >= used) return 0;
    *first = &s->head->ev[s->read];
    return used - s->read;
}

void consume_n(Stream* s, u32 n) { s->read += n; }

bool peek_second(Stream* s, Ev& e) {
    Ev first;
    if (!peek(s, first)) return false;
    if (s->read + 1 < kChunkEvents) {
        if (s->read + 1 >= used_in(s, s->head)) return false;
        e = s->head->ev[s->read + 1];
        return true;
    }
    EvChunk* n = s->head->next;
    if (!n || used_in(s, n) == 0) return false;
    e = n->ev[0];
    return true;
}

void consume(Stream* s) { ++s->read; }

void destroy(Stream* s) {
    tl_assert(!s->current);
    for (EvChunk* c = s->head; c;) {
        EvChunk* n = c->next;
        free_chunk(c);
        c = n;
    }
    VG_(free)(s);
}

u64 bytes_in_use() { return g_in_use * sizeof(EvChunk); }
u64 bytes_limit() { return g_limit; }

}  // namespace stream
}  // namespace ompsim
