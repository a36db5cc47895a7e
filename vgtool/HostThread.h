// A second host thread inside the tool, for the simulation work that can
// run beside the client (MissWorker.h, ReplayWorker.h).
//
// The thread is a raw clone() of the tool's process with every signal
// blocked: the kernel never picks it for a signal (Valgrind's handlers would
// not know it), it never runs Valgrind code and calls no function of
// Valgrind's core, not even VG_(malloc) (the core is not thread-safe; the
// main thread allocates on its behalf, ReplayWorker.h). It sleeps on a
// futex when it has nothing to do.
#ifndef OMPSIM_VGTOOL_HOSTTHREAD_H
#define OMPSIM_VGTOOL_HOSTTHREAD_H

#include "ValgrindApi.h"

namespace ompsim {
namespace hostthread {

// CPUs this process may run on (sched_getaffinity): with one, a second
// thread would only take turns with the first.
u32 cpus();

// Starts a thread that runs body() on a stack of its own and exits when it
// returns (exit, not exit_group: the process goes on). False if clone()
// failed. The stack is never freed: a thread that ended may still be on it
// for its last instructions.
bool spawn(void (*body)());

// Whether the caller runs on a thread spawn() made (its stack).
bool on_spawned_thread();
// fork(): the child has none of the threads.
void forked_child();

// Memory for a spawned thread (the Allocator of the machine it drives,
// ToolMain.cpp): it asks, and waits until the main thread, in serve(),
// calls VG_(malloc) or VG_(free) for it. The machine allocates only on its
// slow paths (a core's first access, a directory that grows), so the wait
// is rare; the main thread serves wherever it waits for a worker and
// wherever it hands one work.
void* alloc_from_main(SizeT bytes);
void free_from_main(void* p);
// Main thread: does the pending request, if any. Cheap when there is none.
extern volatile u32 g_request;  // 1 while a request waits
void serve_request();
inline void serve() {
    if (__builtin_expect(__atomic_load_n(&g_request, __ATOMIC_ACQUIRE) == 1, 0)) serve_request();
}

// Sleeps while *word == expected (a spurious wake is possible), and wakes
// one sleeper on word.
void futex_wait(volatile u32* word, u32 expected);
void futex_wake(volatile u32* word);

// Where a worker and the main thread meet: how much work the main thread
// has published (head) and the worker has finished (tail), whether the
// worker sleeps, whether it is to stop. Each word on a host cache line of
// its own: one thread writes it, the other reads it.
struct Doorbell {
    struct alignas(64) Word {
        volatile u64 v;
    };
    struct alignas(64) Flag {
        volatile u32 v;
    };
    Word head;
    Word tail;
    Flag sleeping;  // futex word: 1 while the worker sleeps
    Flag stop;      // 1: leave; the worker answers 2 just before it exits

    // Worker: waits until head differs from t and returns it in *h; false
    // when told to stop. It spins, then sleeps on the futex: it stores
    // `sleeping`, then reads `head`, both sequentially consistent, as the
    // main thread does the other way round in publish(fenced), so either
    // the worker sees the new head or the main thread sees it sleep.
    // With `idle`, the worker calls it between its turns of spinning, and
    // does not sleep while it returns true (it did a piece of work). With
    // `naps`, it spins a short while, then naps for a while, then sleeps.
    bool wait_for_work(u64 t, u64* h, bool (*idle)() = nullptr, bool naps = false);
    void finish(u64 t) { __atomic_store_n(&tail.v, t, __ATOMIC_RELEASE); }
    void exiting() { __atomic_store_n(&stop.v, 2u, __ATOMIC_RELEASE); }
    // Main thread: publishes `h` and wakes a sleeping worker. Unfenced, a
    // wake can be missed; the next fenced publication makes up for it.
    // Unfenced with `lazy`, a sleeping worker is left asleep until it has
    // `lazy` entries or more to do.
    void publish(u64 h, bool fenced, u64 lazy = 0);
    // Main thread: wakes the worker if it sleeps (it has idle work).
    void nudge();
    // Main thread: clears `sleeping` and wakes the worker.
    void wake();
    // Main thread: tells the worker to leave and waits until it has.
    void stop_worker();
    void reset(u64 at);
};

// The main thread's side of a ring of work for a Doorbell's worker, on a
// host cache line of its own: the worker reads the ring beside it, and a
// line written at every push and read by the other core at every entry
// cost the miss worker's containers run 25 % (3.1 s against 2.5 s).
struct alignas(64) Producer {
    u64 head;       // entries pushed
    u64 tail_seen;  // the worker's tail as last read
    u64 synced;     // head at the last wait_all()

    // Waits (publishing first, serving the worker's allocations) until the
    // worker has finished all but `ring` - 1 entries: room for one more.
    void wait_for_room(Doorbell& bell, u64 ring) {
        if (__builtin_expect(head - tail_seen >= ring, 0)) wait_for_room_slow(bell, ring);
    }
    void wait_for_room_slow(Doorbell& bell, u64 ring);
    // Waits until the worker has finished everything pushed; false at once
    // if nothing was pushed since the last call.
    bool wait_all(Doorbell& bell);
    u64 backlog(Doorbell& bell) {
        tail_seen = __atomic_load_n(&bell.tail.v, __ATOMIC_ACQUIRE);
        return head - tail_seen;
    }
};

}  // namespace hostthread
}  // namespace ompsim

#endif
