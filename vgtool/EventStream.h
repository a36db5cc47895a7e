// Per-thread event streams (ARCHITECTURE.md, "Data flow"): once a program has
// more than one thread, the simulation helpers no longer drive the machine
// model; they append one 16-byte event per instruction fetch or data access
// to the stream the running thread records into, and the replay scheduler
// (Replay.h) consumes the streams in a canonical order.
//
// A stream is one logical piece of work whose content does not depend on
// timing: the initial thread's serial code, an implicit task (team, thread
// number), a dynamic-schedule chunk, a single construct's body, an explicit
// task. The OpenMP intake (OmpIntake.h) switches the recording thread from
// stream to stream as the runtime reports those boundaries, so nothing in a
// stream says which operating-system thread recorded it.
//
// Memory: streams are chains of fixed chunks from a shared pool, given back
// as soon as the replay has consumed them. --stream-buffer bounds the
// total: beyond it, a stream's full chunks that the replay is not reading
// go to a temporary file and come back when the replay reaches them
// (--stream-spill=yes, the default), so the replay keeps its canonical
// order whatever the threads record ahead of it.
#ifndef OMPSIM_VGTOOL_EVENTSTREAM_H
#define OMPSIM_VGTOOL_EVENTSTREAM_H

#include "CostCentres.h"

namespace ompsim {

// Event encoding. w0 holds an InstrInfo* (8-byte aligned) with the tag in
// its low 3 bits; w1 holds the data address with the size in bits 48..61,
// in bit 62 "the instruction's fetch comes first and is a certain I1 hit"
// and in bit 63 "the instruction's fetch comes first" (one event for the
// common fetch + access pair). A marker's w0 is kind << 3 | kTagMarker and
// its payload follows in the next event slot.
//
// Certain I1 hits (InstrumentConfig::stream_certain): an instruction
// fetched from the line of the previous instruction of its superblock. The
// replay adds it to its cost centre's Ir, to the slot's instructions and to
// its core's I1 references, and simulates the fetch only when the previous
// instruction's fetch ran in an earlier batch (another slot may have used
// the core in between). A run of such instructions without data accesses,
// consecutive InstrInfos of one superblock, is a first InstrInfo and a
// count; a run right after a data access of the instruction before it
// rides in the data event's w0, bits 48 to 63 (an InstrInfo lies below
// 2^47), and one after a fetch in the fetch event's w1: a quarter of
// omp_loop's events were such runs. A run is cut where the slot's quantum ends: the replay rewrites the
// event in place as the run's rest (kTagFetchHits).
enum EvTag : uptr {
    kTagFetch1 = 0,   // single-line fetch of w0's instruction, followed by w1
                      // certain hits (the next w1 InstrInfos)
    kTagFetch2 = 1,   // single-line fetches of w0's and w1's instructions
    kTagFetchGen = 2, // fetch that may straddle lines, followed by w1 certain hits
    kTagRead = 3,
    kTagWrite = 4,
    kTagModify = 5,
    kTagFetchHits = 6, // w1 >= 1 certain hits: w0's instruction and the next ones
    kTagMarker = 7,
};
constexpr uptr kTagMask = 7;
constexpr unsigned kRunShift = 48;  // a data event's run of certain hits, in w0
constexpr uptr kInfoMask = ((uptr(1) << kRunShift) - 1) & ~kTagMask;
constexpr uptr kWithFetch = uptr(1) << 63;
constexpr uptr kCertainFetch = uptr(1) << 62;
constexpr unsigned kSizeShift = 48;
constexpr uptr kSizeMask = 0x3fff;  // sizes below 16 KiB (instrument() checks)
constexpr uptr kAddrMask = (uptr(1) << kSizeShift) - 1;
// A data event's w1: the address, the size and the fetch flag.
inline uptr data_word(uptr a, uptr size, uptr fetch_flag) {
    return (a & kAddrMask) | (size << kSizeShift) | fetch_flag;
}

struct Ev {
    uptr w0;
    uptr w1;
};

// Adds `k` certain hits from `n` on to the run of `e` (an event, not a
// marker's payload) if that run ends right before n: the same
// instructions as `e` followed by a run event of its own. False if `e`
// carries no run (a marker, a double fetch) or ends elsewhere.
inline bool continue_run(Ev& e, const InstrInfo* n, uptr k) {
    uptr tag = e.w0 & kTagMask;
    const InstrInfo* in = reinterpret_cast<const InstrInfo*>(e.w0 & kInfoMask);
    auto at = [&](uptr count) { return in + count == n; };
    if (tag >= kTagRead && tag <= kTagModify) {
        uptr run = e.w0 >> kRunShift;
        if (!at(1 + run) || run + k >= (uptr(1) << (64 - kRunShift))) return false;
        e.w0 += k << kRunShift;
        return true;
    }
    if (tag == kTagFetch1 || tag == kTagFetchGen || tag == kTagFetchHits) {
        if (!at((tag != kTagFetchHits) + e.w1)) return false;
        e.w1 += k;
        return true;
    }
    return false;
}

// Chunks of 64 KiB of events: large enough that the chunk-full check is
// rare, small enough that a consumed stream gives memory back quickly.
// (4094 events: the chunk and its header once shared 64 KiB. The replay
// runs a chunk's events in batches, so the number is part of what the
// documents depend on.)
constexpr u32 kChunkEvents = 4094;
struct EvChunk {
    EvChunk* next;
    Ev* ev;            // kChunkEvents events, or null while they are in the spill file
    u64 disk;          // while ev is null: the file slot holding them + 1
};

struct Unit;  // Replay.h: what a stream stands for (task, chunk, ...)

struct Stream {
    EvChunk* head;     // oldest chunk still holding unconsumed events
    EvChunk* tail;     // chunk being appended to
    u32 write;         // events used in tail (valid while not current)
    u32 read;          // index of the next event to replay in head
    bool closed;       // nothing more will be appended
    bool current;      // the running thread records into it (g_pos is live)
    bool touched;      // the replay has read from it (its head stays in memory)
    Unit* unit;        // owner (Replay.h)
    u64 events;        // appended so far (for limits and reports)
    // With the replay worker: the rest of a run of certain hits that a turn
    // cut, the event at `read` as the worker will have rewritten it
    // (CoreSim.h, run_batch); w0 0: none.
    Ev cut;
};

namespace stream {

// The recording position of the running thread's current stream: the
// helpers write here without a call (see SimHelpers.cpp).
extern Ev* g_pos;
extern Ev* g_end;

// Options: --stream-buffer (bytes, total over all streams) and
// --stream-spill (beyond it, full chunks go to a temporary file).
void init(u64 buffer_bytes, bool spill);
Stream* create(Unit* unit);
// Makes `s` the stream the running thread records into (null: record
// nothing, e.g. a worker thread in the runtime's pool). The previous current
// stream keeps its position.
void set_current(Stream* s);
// Called by the helpers when g_pos reaches g_end.
void chunk_full();
// A marker of `kind` with a 3-word payload, appended to `s` (which need not
// be current).
void append_marker(Stream* s, u32 kind, uptr a, uptr b, uptr c);
void close(Stream* s);

// Replay side: the next event of `s`, or false if none is recorded yet.
// A marker comes back as its header; next_payload() then gives its payload.
bool peek(Stream* s, Ev& e);
// The event after the next one (a marker's payload), not consuming either.
bool peek_second(Stream* s, Ev& e);
void consume(Stream* s);
// The unconsumed events of `s` that lie together in its oldest chunk (at
// least one when peek() would find one): *first points at the next one.
// The replay runs them in a loop without a call per event.
u32 span(Stream* s, const Ev** first);
void consume_n(Stream* s, u32 n);
void destroy(Stream* s);

// Bytes of chunk memory in use, and the limit.
u64 bytes_in_use();
u64 bytes_limit();
// Whether full chunks go to the spill file beyond the limit (the option is
// on and the file works): the buffers then stay near the limit.
bool spilling();
// Chunks written to the spill file so far, and the file's largest size.
u64 spilled_chunks();
u64 spill_file_bytes();

}  // namespace stream
}  // namespace ompsim

#endif
