#include "ReplayWorker.h"

#include "CoreSim.h"
#include "DataStructures.h"
#include "EventReserve.h"
#include "HostThread.h"
#include "ReplacementPolicy.h"

namespace ompsim {
namespace replayworker {

namespace {

enum : u32 { kBatch, kEnter, kRelocate };

// One command, two to a host cache line; a relocation (120 bytes) goes in
// g_relocs at the command's index. A batch is a turn's piece of up to
// --quantum (1000) instructions, so commands are about a microsecond of the
// worker's time apart.
struct alignas(32) Command {
    u32 kind;
    u32 a, b;  // batch: events, quantum; enter: slot, core
    u32 pad;
    const Ev* ev;
    u64 pad2;
};
static_assert(sizeof(Command) == 32, "two commands to a host cache line");
// The replay pauses when half of it is still to run (backlogged()): at
// 2,048 commands (about 2 ms) the worker ran dry more often; with 8,192,
// omp_loop 1024 40 (4 threads) 2.54 s -> 2.48 s, medians of 7 (7 of 7
// pairs faster), its peak 182 -> 191 MB; omp_tasks 1000000 4096 level;
// 32,768 commands gained nothing more (2.45 s -> 2.44 s).
constexpr u64 kRing = 1u << 14;
// Commands published and finished, the worker's sleep and stop.
hostthread::Doorbell g_bell;

Command* g_ring;
StackRelocation* g_relocs;
hostthread::Producer g_p;
u64 g_batches;
bool g_configured = true;
bool g_started;
bool g_failed;  // the thread could not be made: the main thread simulates
u64 g_delay_state;  // --replay-perturb: the worker's own random delays (0: none)

// After about one command in eight, up to 1,023 pause instructions (the
// Random policy's xorshift64, as the replay's own perturbation).
void perturb_delay() {
    u64 r = repl::xorshift64_next(g_delay_state);
    if (r >> 61) return;
    for (u32 k = u32(r >> 20) & 1023; k > 0; --k) __builtin_ia32_pause();
}

void worker_main() {
    Command* const ring = g_ring;
    u64 t = g_bell.tail.v, h;  // start() set it (not 0 in a forked child)
    while (g_bell.wait_for_work(t, &h, evreserve::warm_one_page)) {
        while (t != h) {
            const Command& c = ring[t & (kRing - 1)];
            switch (c.kind) {
                case kBatch:
                    coresim::simulate_batch(c.ev, c.a, c.b);
                    break;
                case kEnter:
                    coresim::enter_core(c.a, c.b);
                    break;
                default:
                    coresim::apply_relocation(g_relocs[t & (kRing - 1)]);
                    break;
            }
            if (__builtin_expect(g_delay_state != 0, 0)) perturb_delay();
            // Each command is a batch's worth of work: finished at once, so
            // that a sync() waits for no more than the last one.
            g_bell.finish(++t);
        }
    }
    g_bell.exiting();
}

bool start() {
    if (!g_ring) {
        void* p = VG_(malloc)("ompsim.replayworker", kRing * sizeof(Command) + 64);
        g_ring = reinterpret_cast<Command*>((reinterpret_cast<uptr>(p) + 63) & ~uptr(63));
        g_relocs = static_cast<StackRelocation*>(VG_(malloc)("ompsim.replayworker", kRing * sizeof(StackRelocation)));
    }
    // The counts go on from where they were (a forked child's chunks wait
    // for counts of its parent's, EventStream.cpp).
    g_bell.reset(g_p.head);
    g_p.tail_seen = g_p.synced = g_p.head;
    if (!hostthread::spawn(worker_main)) return false;
    g_started = true;
    return true;
}

// Publishes and wakes a sleeping worker (fenced: Doorbell).
void publish() { g_bell.publish(g_p.head, true); }

Command& slot() {
    g_p.wait_for_room(g_bell, kRing);
    hostthread::serve();
    return g_ring[g_p.head & (kRing - 1)];
}

// Published every eighth command (and by flush() when the replay stops,
// by every wait): each publication is a sequentially consistent store to
// the line the worker polls, and one per batch took 2 % of the main
// thread's samples on omp_tasks 1000000 4096 (430 K batches). A worker
// with nothing to do waits at most for seven more batches to be planned.
void push() {
    if ((++g_p.head & 7) == 0) publish();
}

}  // namespace

void configure(bool on, u32 perturb) {
    g_configured = on && hostthread::cpus() >= 2;
    g_delay_state = perturb ? (u64(perturb) << 32 | 0x7f4a7c15u) : 0;
}

void flush() {
    if (g_started && g_bell.head.v != g_p.head) publish();
}

bool use() {
    // Once running, only the monitor decides (direct_replay() does not
    // change after start-up): the call is made for every batch.
    if (__builtin_expect(g_started && !ds::g_on, 1)) return true;
    if (g_configured && !g_failed && coresim::direct_replay() && !ds::g_on) {
        if (__builtin_expect(g_started, 1) || start()) return true;
        g_failed = true;
        return false;
    }
    sync();
    return false;
}

void enter(u32 slot_index, u32 core) {
    Command& c = slot();
    c.kind = kEnter;
    c.a = slot_index;
    c.b = core;
    push();
}

void relocate(const StackRelocation& r) {
    Command& c = slot();
    c.kind = kRelocate;
    g_relocs[g_p.head & (kRing - 1)] = r;
    push();
}

void batch(const Ev* ev, u32 n, u32 quantum) {
    Command& c = slot();
    c.kind = kBatch;
    c.a = n;
    c.b = quantum;
    c.ev = ev;
    push();
    ++g_batches;
}

bool backlogged() { return g_p.head - g_p.tail_seen >= kRing / 2 && g_p.backlog(g_bell) >= kRing / 2; }

void sync() { g_p.wait_all(g_bell); }

void retire() {
    sync();
    if (!g_started) return;
    g_bell.stop_worker();
    g_started = false;
    g_failed = true;  // the end: whatever comes after runs on the main thread
}

void forked_child() {
    // The worker is not in the child; before_fork() synced. The child makes
    // its own when it replays again.
    g_started = false;
}

bool running() { return g_started; }
void nudge() { g_bell.nudge(); }

u64 handed() { return g_p.head; }
u64 finished() { return g_started ? __atomic_load_n(&g_bell.tail.v, __ATOMIC_ACQUIRE) : g_p.head; }
u64 batches() { return g_batches; }

}  // namespace replayworker
}  // namespace ompsim
