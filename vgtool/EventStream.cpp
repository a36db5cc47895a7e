#include "EventStream.h"

#include "EventReserve.h"
#include "ReplayWorker.h"

#include "ToolArray.h"

namespace ompsim {
namespace stream {

Ev* g_pos;
Ev* g_end;

namespace {

constexpr SizeT kChunkBytes = kChunkEvents * sizeof(Ev);
// Where an event array starts in its block (see "recycled" below).
constexpr SizeT kArrayOffset = 16;

// Where the helpers write when the running thread records nothing: events
// land in this scratch chunk and are overwritten.
EvChunk* g_scratch;
Stream* g_cur;
EvChunk* g_free;  // recycled chunk headers (their ev null)
Ev** g_free_ev;   // recycled event arrays, a stack
u32 g_free_ev_n, g_free_ev_cap;
u64 g_in_use;     // event arrays holding events
u64 g_limit;      // bytes

// The spill file: a temporary file, unlinked once open, in slots of one
// chunk's events; slots are reused, the last freed first.
bool g_spill_on;      // --stream-spill=yes and the file works
Int g_spill_fd = -1;
u64 g_spill_slots;    // slots the file has
u64* g_free_slots;
u32 g_free_slots_n, g_free_slots_cap;
u64 g_spilled;        // chunks written

// Event arrays are recycled, never freed. Each starts kArrayOffset (16)
// bytes into its block, where the events of the former chunks (header and events in one
// block) started: at the block's start, omp_loop 1024 40 with 4 threads
// took 4.51 s instead of 4.37 s (medians of 5 alternating runs), the
// replay's reads and the recording's writes meeting other alignments.
//
// The replay worker (ReplayWorker.h) may still be reading an array the
// replay has consumed: such an array waits in g_retired, with the count of
// commands handed over when it was freed, until the worker has finished
// that many. g_in_use counts it free at once, so the buffer limit decides
// the same with and without the worker.
struct Retired {
    Ev* ev;
    u64 handed;
};
Retired* g_retired;
u32 g_retired_first, g_retired_n, g_retired_cap;

void push_free(Ev* ev) {
    reserve(g_free_ev, g_free_ev_cap, g_free_ev_n + 1, 64, "ompsim.stream");
    g_free_ev[g_free_ev_n++] = ev;
}

void reclaim_retired() {
    if (g_retired_first == g_retired_n) return;
    u64 finished = replayworker::finished();
    while (g_retired_first < g_retired_n && g_retired[g_retired_first].handed <= finished)
        push_free(g_retired[g_retired_first++].ev);
    if (g_retired_first == g_retired_n) g_retired_first = g_retired_n = 0;
}

Ev* new_events() {
    ++g_in_use;
    reclaim_retired();
    if (g_free_ev_n) return g_free_ev[--g_free_ev_n];
    return reinterpret_cast<Ev*>(static_cast<char*>(evreserve::new_block()) + kArrayOffset);
}

void free_events(Ev* ev) {
    --g_in_use;
    u64 handed = replayworker::handed();
    if (replayworker::finished() >= handed) {
        push_free(ev);
        return;
    }
    reserve(g_retired, g_retired_cap, g_retired_n + 1, 64, "ompsim.stream");
    g_retired[g_retired_n++] = Retired{ev, handed};
}

EvChunk* new_chunk() {
    EvChunk* c = g_free;
    if (c)
        g_free = c->next;
    else
        c = static_cast<EvChunk*>(VG_(malloc)("ompsim.stream", sizeof(EvChunk)));
    c->next = nullptr;
    c->ev = new_events();
    c->disk = 0;
    return c;
}

void free_slot(u64 slot) {
    reserve(g_free_slots, g_free_slots_cap, g_free_slots_n + 1, 64, "ompsim.stream");
    g_free_slots[g_free_slots_n++] = slot;
}

void free_chunk(EvChunk* c) {
    if (c->ev) free_events(c->ev);
    if (c->disk) free_slot(c->disk - 1);
    c->ev = nullptr;
    c->disk = 0;
    c->next = g_free;
    g_free = c;
}

// Whole transfers of `n` bytes at `offset`; false on any error.
bool file_io(bool write, void* buf, SizeT n, u64 offset) {
    if (VG_(lseek)(g_spill_fd, Off64T(offset), VKI_SEEK_SET) != Off64T(offset)) return false;
    char* p = static_cast<char*>(buf);
    while (n) {
        Int chunk = Int(n > (1u << 30) ? (1u << 30) : n);
        Int r = write ? VG_(write)(g_spill_fd, p, chunk) : VG_(read)(g_spill_fd, p, chunk);
        if (r <= 0) return false;
        p += r;
        n -= SizeT(r);
    }
    return true;
}

// Opens the spill file in the temporary directory; false (spilling stays
// off) if it cannot be created.
bool open_spill_file() {
    HChar path[4096];
    for (u32 attempt = 0; attempt < 16; ++attempt) {
        VG_(snprintf)(path, sizeof path, "%s/ompsim-stream-%d-%u", VG_(tmpdir)(), VG_(getpid)(), attempt);
        SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_EXCL | VKI_O_RDWR, VKI_S_IRUSR | VKI_S_IWUSR);
        if (sr_isError(r)) continue;
        g_spill_fd = Int(sr_Res(r));
        VG_(unlink)(path);  // gone with the process, whatever its end
        return true;
    }
    return false;
}

void spill_failed() {
    g_spill_on = false;
    VG_(umsg)("warning: the replay's spill file in %s could not be written: --stream-buffer is a hard limit from now on\n",
              VG_(tmpdir)());
}

// Writes the events of `c` (full, not being read) to the spill file and
// gives their memory back.
void spill(EvChunk* c) {
    if (g_spill_fd < 0 && !open_spill_file()) {
        spill_failed();
        return;
    }
    u64 slot = g_free_slots_n ? g_free_slots[--g_free_slots_n] : g_spill_slots++;
    if (!file_io(true, c->ev, kChunkBytes, slot * kChunkBytes)) {
        free_slot(slot);
        spill_failed();
        return;
    }
    free_events(c->ev);
    c->ev = nullptr;
    c->disk = slot + 1;
    ++g_spilled;
}

// The events of `c` back in memory (the replay is about to read them).
void load(EvChunk* c) {
    if (c->ev) return;
    Ev* ev = new_events();
    if (!file_io(false, ev, kChunkBytes, (c->disk - 1) * kChunkBytes)) {
        VG_(fmsg)("ompsim: the replay's spill file in %s could not be read back\n", VG_(tmpdir)());
        VG_(exit)(1);
    }
    free_slot(c->disk - 1);
    c->ev = ev;
    c->disk = 0;
}

// Events recorded in `c` of stream `s` (the tail may be live in g_pos).
u32 used_in(const Stream* s, const EvChunk* c) {
    if (c != s->tail) return kChunkEvents;
    if (s->current) return u32(g_pos - s->tail->ev);
    return s->write;
}

bool over_limit() { return g_spill_on && (g_in_use + 1) * kChunkBytes > g_limit; }

// Whether `c` of `s` may go to the spill file: it holds events nobody will
// append to or read before it comes back. The replay reads (and may
// rewrite, at the end of a turn) the head of a stream it has touched.
bool spillable(const Stream* s, const EvChunk* c) {
    return c->ev && (c != s->tail || s->closed) && !(c == s->head && s->touched);
}

void add_chunk(Stream* s) {
    // Beyond the limit the chunk just filled goes to the spill file.
    if (over_limit() && (s->tail != s->head || !s->touched)) spill(s->tail);
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

void init(u64 buffer_bytes, bool spill) {
    g_limit = buffer_bytes;
    g_spill_on = spill;
    evreserve::init(kChunkBytes + kArrayOffset);
    g_scratch = static_cast<EvChunk*>(VG_(malloc)("ompsim.stream", sizeof(EvChunk)));
    g_scratch->next = nullptr;
    g_scratch->ev = static_cast<Ev*>(VG_(malloc)("ompsim.stream", kChunkBytes));
    g_scratch->disk = 0;
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
// One event appended to `s`. As the helpers do, the event is written before
// the chunk-full check (g_pos < g_end always holds between calls): a full
// chunk may go to the spill file at once.
inline void put_event(Stream* s, uptr w0, uptr w1) {
    if (s->current) {
        g_pos->w0 = w0;
        g_pos->w1 = w1;
        if (++g_pos == g_end) chunk_full();
        return;
    }
    if (s->write == kChunkEvents) add_chunk(s);
    Ev& e = s->tail->ev[s->write++];
    e.w0 = w0;
    e.w1 = w1;
}
}  // namespace

void append_marker(Stream* s, u32 kind, uptr a, uptr b, uptr c) {
    if (!s) return;
    tl_assert(!s->closed);
    put_event(s, uptr(kind) << 3 | kTagMarker, a);
    put_event(s, b, c);
}

void close(Stream* s) {
    if (!s || s->closed) return;
    if (s == g_cur) set_current(nullptr);
    s->closed = true;
    // Beyond the limit a closed stream the replay has not reached goes to
    // the spill file whole (the many small streams of a task program).
    for (EvChunk* c = s->head; c && over_limit(); c = c->next)
        if (spillable(s, c)) spill(c);
}

namespace {
// Gives back the oldest chunk once it is consumed; false if the stream has
// no later chunk yet.
inline bool next_chunk(Stream* s) {
    if (!s->touched) {
        s->touched = true;
        load(s->head);
    }
    if (s->read < kChunkEvents) return true;
    if (!s->head->next) return false;
    EvChunk* done = s->head;
    s->head = done->next;
    s->read = 0;
    free_chunk(done);
    load(s->head);
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
    load(n);
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

u64 bytes_in_use() { return g_in_use * kChunkBytes; }
u64 bytes_limit() { return g_limit; }
bool spilling() { return g_spill_on; }
u64 spilled_chunks() { return g_spilled; }
u64 spill_file_bytes() { return g_spill_slots * kChunkBytes; }

}  // namespace stream
}  // namespace ompsim
