#include "MissWorker.h"

#include "HostThread.h"
#include "SimHelpers.h"

namespace ompsim {
namespace missworker {

bool g_async;
bool g_below_l2;
bool g_watching;
u64 g_window_misses, g_window_deep;

namespace {

// One handed-over miss: block << 2 | kind, and the cost centre's served
// counters (null for L1's dirty victim, kind kWriteback). Below L2
// (push_below_l2()) the same with kBelowL2Bit in `served`: the reference's
// part below L2, or a line L2 evicted dirty. With the
// monitor, a miss in a counted structure is followed by the structure's
// counters: kind kWriteback with the row's counters for the miss's kind in
// the rest of `bk` and the histogram bucket's (or null) | 1 in `served`.
// 16 bytes: with 32-byte entries (a victim field in each) matmul 400 with
// --miss-thread=yes took 2.40 s instead of 2.31 s.
struct Entry {
    u64 bk;
    ULong* served;
};
constexpr uptr kBelowL2Bit = 2;
constexpr u64 kRing = 1u << 14;  // 256 KiB
// The main thread publishes its position every kPublish entries (and at
// sync()): publishing each one moved the position's host cache line to
// the worker's core and back at every miss (matmul 400 with
// --miss-thread=yes: 6.3 s against 2.4 s); every 128 rather than 64:
// stencil 1024 40 1.62 s -> 1.54 s, memcopy 200 3.79 s -> 3.62 s.
constexpr u64 kPublish = 128;
// A worker that went to sleep (nothing to do for kIdleTurns) is woken by
// the periodic publication only once half the ring waits for it: woken at
// every 128, it slept again after each short burst, and the main thread
// paid a futex wake each time (containers 100000 4 with the monitor: 170 K
// wakes). Wall-time medians of 3, waking at 128 -> 4096 -> 8192 entries:
// containers with the monitor 9.39 s -> 9.09 s (128 -> 8192 in a second
// set: 9.89 s -> 9.40 s), without 3.49 s -> 3.40 s -> 3.37 s; chase,
// memcopy and stencil level. The worker's CPU time fell: chase user time
// 8.13 s -> 7.13 s -> 6.65 s, containers with the monitor 15.5 s -> 12.3 s.
constexpr u64 kLazyWake = kRing / 2;
// Entries published and finished, the worker's sleep and stop.
hostthread::Doorbell g_bell;
// Worker: misses run, of which `g_deep` went beyond L2 (each word on a host
// cache line of its own).
hostthread::Doorbell::Word g_done;
hostthread::Doorbell::Word g_deep;

Entry* g_ring;
hostthread::Producer g_p;  // the main thread's side (the worker keeps g_ring and g_pending in registers)
bool g_started;    // the worker thread runs
bool g_eligible;   // set_eligible(), until retire()
Mode g_mode = Mode::Auto;

// Worker: served counts not yet added to the cost centres. A cost centre's
// counters share host cache lines with the ones the main thread increments
// at every access; adding there from the worker moved those lines at every
// miss. Direct-mapped; a collision adds the older count out.
struct Pending {
    ULong* p;
    ULong n;
};
constexpr u32 kPendingBits = 14;
Pending* g_pending;

u64 g_window_start_done, g_window_start_deep;
// For -v: entries pushed below L2, switches between below L2 and the
// whole lower half.
u64 g_below_l2_entries, g_switches;

void add_pending(Pending* table, ULong* p) {
    u32 i = u32((reinterpret_cast<uptr>(p) >> 3) * 0x9E3779B1u) >> (32 - kPendingBits);
    Pending& e = table[i];
    if (e.p == p) {
        ++e.n;
        return;
    }
    if (e.p) *e.p += e.n;
    e.p = p;
    e.n = 1;
}

// Called by the main thread only while the worker is idle (after sync()).
void flush_pending() {
    for (u32 i = 0; i < (1u << kPendingBits); ++i) {
        if (!g_pending[i].p) continue;
        *g_pending[i].p += g_pending[i].n;
        g_pending[i].p = nullptr;
    }
}

// The worker's body (hostthread::spawn()): runs entries as they are
// published, sleeps when there are none for a while (Doorbell).
void worker_main() {
    CoherentMachine& m = sim::g_machine;
    Entry* const ring = g_ring;
    Pending* const pending = g_pending;
    u64 t = 0, misses = 0, deep = 0, h;
    u32 k = 0;  // the depth of the last miss
    constexpr bool kNaps = true;  // idle: naps, not spins (HostThread.cpp)
    while (g_bell.wait_for_work(t, &h, nullptr, kNaps)) {
        while (t != h) {
            const Entry& e = ring[t & (kRing - 1)];
            u32 kind = u32(e.bk & 3);
            uptr served = reinterpret_cast<uptr>(e.served);
            if (kind != kWriteback) {
                if (served & kBelowL2Bit)
                    k = m.below_l2(AccessKind(kind), e.bk >> 2);
                else
                    k = m.miss_lower_half(AccessKind(kind), e.bk >> 2);
                add_pending(pending, reinterpret_cast<ULong*>(served & ~kBelowL2Bit) + k);
                ++misses;
                deep += k >= 2;
            } else if (served & 1) {
                // The monitor's counters of the miss before (its victim's
                // write-back may come between).
                add_pending(pending, reinterpret_cast<ULong*>(e.bk & ~u64(3)) + k);
                if (ULong* hist = reinterpret_cast<ULong*>(reinterpret_cast<uptr>(e.served) & ~uptr(1)))
                    add_pending(pending, hist + k);
            } else if (served & kBelowL2Bit) {
                m.writeback_below_l2(e.bk >> 2);
            } else {
                m.writeback_l1_victim(e.bk >> 2);
            }
            ++t;
        }
        __atomic_store_n(&g_deep.v, deep, __ATOMIC_RELAXED);
        __atomic_store_n(&g_done.v, misses, __ATOMIC_RELAXED);
        g_bell.finish(t);
    }
    g_bell.exiting();
}

bool start() {
    g_ring = static_cast<Entry*>(VG_(malloc)("ompsim.missworker", kRing * sizeof(Entry)));
    g_pending = static_cast<Pending*>(VG_(calloc)("ompsim.missworker", 1u << kPendingBits, sizeof(Pending)));
    if (!hostthread::spawn(worker_main)) return false;
    g_started = true;
    return true;
}

// Publishes the entries pushed so far and wakes a sleeping worker.
// `fenced`: sequentially consistent, as the worker's protocol needs
// (Doorbell), so the wake cannot be missed. The periodic publishing in
// put() goes without the barrier, which waits for every store before it
// (memcopy 200: 3.85 s with it, 3.74 s without, medians of 3), and wakes a
// sleeping worker only at kLazyWake entries; a wake missed there is caught
// by the next publication, and every wait of the main thread (sync(), a
// full ring) publishes fenced first.
void publish(bool fenced) { g_bell.publish(g_p.head, fenced, fenced ? 0 : kLazyWake); }

inline void put(u64 bk, ULong* served) {
    g_p.wait_for_room(g_bell, kRing);
    u64 h = g_p.head;
    // The line four entries ahead, for writing: the worker read it last,
    // and the store would wait for it (matmul 400: 2.32 s -> 2.16 s).
    if ((h & 3) == 0) __asm__ volatile("prefetchw %0" : : "m"(g_ring[(h + 64) & (kRing - 1)]));
    Entry& e = g_ring[h & (kRing - 1)];
    e.bk = bk;
    e.served = served;
    g_p.head = h + 1;
    if ((g_p.head & (kPublish - 1)) == 0) publish(false);
}

// Auto mode, the worker in use: at the end of a window, back to the main
// thread when fewer than a quarter of the misses went beyond L2.
void end_async_window() {
    u64 done = __atomic_load_n(&g_done.v, __ATOMIC_RELAXED);
    u64 deep = __atomic_load_n(&g_deep.v, __ATOMIC_RELAXED);
    u64 n = done - g_window_start_done, d = deep - g_window_start_deep;
    g_window_start_done = done;
    g_window_start_deep = deep;
    // The worker may lag by up to a ring (16 K entries): a window that it
    // has mostly not run yet decides nothing.
    if (n >= kWindow / 2 && d * 4 < n) {
        sync();
        g_window_misses = g_window_deep = 0;
        if (sim::g_machine.splits_below_l2()) {
            g_below_l2 = true;
            ++g_switches;
            return;
        }
        g_async = false;
        g_watching = true;
    }
}

}  // namespace

void configure(Mode m) {
    g_mode = m;
    if (m == Mode::Off) return;
    // One CPU for this process: a second thread would only take turns.
    if (hostthread::cpus() < 2) g_mode = Mode::Off;
}

void set_eligible(bool on) {
    g_eligible = on && g_mode != Mode::Off;
    g_below_l2 = g_eligible && g_mode == Mode::Auto && sim::g_machine.splits_below_l2();
    g_async = g_eligible && (g_mode == Mode::On || g_below_l2);
    g_watching = g_eligible && g_mode == Mode::Auto && !g_below_l2;
}

namespace {
// Neither used nor watched any more: the main thread finishes every miss.
void stop_using() {
    g_eligible = g_async = g_below_l2 = g_watching = false;
    g_mode = Mode::Off;
}
}  // namespace

u32 push(AccessKind kind, u64 block, u64 dirty_victim, ULong* served) {
    if (__builtin_expect(!g_started, 0) && !start()) {
        // No thread: the main thread finishes this miss and all later ones.
        stop_using();
        return sim::g_machine.finish_miss(kind, block, dirty_victim);
    }
    put(block << 2 | kind, served);
    if (dirty_victim != CoherentMachine::kNoVictim) put(dirty_victim << 2 | kWriteback, nullptr);
    if (g_mode == Mode::Auto && ++g_window_misses == kWindow) {
        g_window_misses = 0;
        end_async_window();
    }
    return kPushed;
}

u32 push_below_l2(AccessKind kind, const CoherentMachine::LowerWork& w, u32 depth, ULong* served) {
    if (__builtin_expect(!g_started, 0) && w.n && !start()) {
        // No thread: the main thread runs the entries now and every later
        // miss whole.
        stop_using();
        return sim::g_machine.run_below_l2(kind, w, depth);
    }
    u32 r = depth;
    g_below_l2_entries += w.n;
    for (u32 i = 0; i < w.n; ++i) {
        u64 op = w.op[i];
        if (op & CoherentMachine::LowerWork::kReference) {
            put((op & ~CoherentMachine::LowerWork::kReference) << 2 | kind,
                reinterpret_cast<ULong*>(reinterpret_cast<uptr>(served) | kBelowL2Bit));
            r = kPushed;
        } else {
            put(op << 2 | kWriteback, reinterpret_cast<ULong*>(kBelowL2Bit));
        }
    }
    // Auto mode's window, counted here: the worker's count of deep misses
    // would include none of the L2 hits.
    g_window_deep += r == kPushed;
    if (++g_window_misses == kWindow) below_l2_window_end();
    return r;
}

void below_l2_window_end() {
    bool deep = g_window_deep * 2 >= kWindow;
    g_window_misses = g_window_deep = 0;
    if (!deep) return;
    // Whole misses from now on: the worker's entries so far touch only
    // the levels below L2, and L2 is the worker's after them.
    g_below_l2 = false;
    ++g_switches;
    g_window_start_done = __atomic_load_n(&g_done.v, __ATOMIC_RELAXED);
    g_window_start_deep = __atomic_load_n(&g_deep.v, __ATOMIC_RELAXED);
}

// A second entry for each miss: handing the monitor's counters over costs
// memcopy 200 with the monitor 4 % (5.83 s, 5.59 s without them: figures
// wrong, for the cost only); flagging the miss's own entry instead when the
// counters are the last ones saved 1 % (5.77 s -> 5.72 s, medians of 5),
// not worth the protocol.
void push_counters(ULong* row, ULong* hist) {
    put(reinterpret_cast<u64>(row) | kWriteback, reinterpret_cast<ULong*>(reinterpret_cast<uptr>(hist) | 1));
}

void watch_window_end() {
    bool deep = g_window_deep * 2 >= kWindow;
    g_window_misses = g_window_deep = 0;
    if (!deep) return;
    g_async = true;
    g_watching = false;
    g_window_start_done = __atomic_load_n(&g_done.v, __ATOMIC_RELAXED);
    g_window_start_deep = __atomic_load_n(&g_deep.v, __ATOMIC_RELAXED);
}

void sync() {
    if (g_p.wait_all(g_bell)) flush_pending();
}

void retire() {
    sync();
    stop_using();
    if (!g_started) return;
    g_bell.stop_worker();
    g_started = false;
}

void forked_child() {
    // The worker is not in the child (fork copies the calling thread only);
    // atfork's pre handler synced, so nothing is pending.
    g_started = false;
    stop_using();
}

u64 pushed() { return g_p.head; }
u64 pushed_below_l2() { return g_below_l2_entries; }
u64 switches() { return g_switches; }

}  // namespace missworker
}  // namespace ompsim
