#include "HostThread.h"

extern "C" {
#include "pub_tool_vkiscnums.h"
}

namespace {

long sys3(long n, long a, long b, long c) {
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}
long sys4(long n, long a, long b, long c, long d) {
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return r;
}
constexpr long kFutexWaitPrivate = 128, kFutexWakePrivate = 129;

// The body of the thread being started: the clone trampoline calls
// ompsim_host_thread_main(), which reads it (the parent writes it before
// clone(), which orders the two).
void (*g_body)();

// The stacks of the threads spawned so far (a run starts at most one miss
// worker and one replay worker; a forked child starts afresh).
constexpr unsigned kMaxStacks = 8;
struct Stack {
    ompsim::uptr lo, hi;
};
Stack g_stacks[kMaxStacks];
unsigned g_nstacks;

}  // namespace

extern "C" void ompsim_host_thread_main() { g_body(); }

namespace ompsim {
namespace hostthread {

namespace {

// clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
// CLONE_SYSVSEM) onto `stack_top`; the child calls the body and exits.
// Returns the child's id or a negative errno.
long clone_thread(void* stack_top) {
    long ret;
    register long r10 __asm__("r10") = 0;
    register long r8 __asm__("r8") = 0;
    __asm__ volatile(
        "syscall\n\t"
        "test %%rax, %%rax\n\t"
        "jnz 1f\n\t"
        "xor %%ebp, %%ebp\n\t"
        "call ompsim_host_thread_main\n\t"
        "mov %[exit], %%eax\n\t"
        "xor %%edi, %%edi\n\t"
        "syscall\n\t"
        "hlt\n\t"
        "1:\n\t"
        : "=a"(ret)
        : "a"(long(__NR_clone)), "D"(0x100L | 0x200L | 0x400L | 0x800L | 0x10000L | 0x40000L), "S"(stack_top),
          "d"(0L), "r"(r10), "r"(r8), [exit] "i"(__NR_exit)
        : "rcx", "r11", "memory");
    return ret;
}

}  // namespace

u32 cpus() {
    u64 mask[16] = {};
    long n = sys3(__NR_sched_getaffinity, 0, sizeof mask, reinterpret_cast<long>(mask));
    u32 c = 0;
    for (long i = 0; n > 0 && i < n / 8; ++i) c += u32(__builtin_popcountll(mask[i]));
    return c;
}

bool spawn(void (*body)()) {
    constexpr SizeT kStack = 256 << 10;
    if (g_nstacks == kMaxStacks) return false;
    char* stack = static_cast<char*>(VG_(malloc)("ompsim.hostthread", kStack));
    uptr top = (reinterpret_cast<uptr>(stack) + kStack - 64) & ~uptr(15);
    g_body = body;
    // Every signal blocked while the thread is made: it inherits the mask.
    u64 all = ~0ull, old = 0;
    sys4(__NR_rt_sigprocmask, 2 /* SIG_SETMASK */, reinterpret_cast<long>(&all), reinterpret_cast<long>(&old), 8);
    long tid = clone_thread(reinterpret_cast<void*>(top));
    sys4(__NR_rt_sigprocmask, 2, reinterpret_cast<long>(&old), 0, 8);
    if (tid <= 0) {
        VG_(free)(stack);
        return false;
    }
    g_stacks[g_nstacks++] = Stack{reinterpret_cast<uptr>(stack), reinterpret_cast<uptr>(stack) + kStack};
    return true;
}

// The request: 0 none, 1 waiting, 2 done (the spawned thread reads the
// result and sets 0). One at a time: only one spawned thread runs at once
// (the miss worker retires before the replay worker starts).
volatile u32 g_request;
namespace {
SizeT g_req_bytes;  // alloc: bytes; free: 0
void* g_req_ptr;    // free: the block; alloc: the result
}  // namespace

void serve_request() {
    if (g_req_bytes)
        g_req_ptr = VG_(malloc)("ompsim.cachesim", g_req_bytes);
    else
        VG_(free)(g_req_ptr);
    __atomic_store_n(&g_request, 2u, __ATOMIC_RELEASE);
}

namespace {
void* ask(SizeT bytes, void* p) {
    g_req_bytes = bytes;
    g_req_ptr = p;
    __atomic_store_n(&g_request, 1u, __ATOMIC_RELEASE);
    while (__atomic_load_n(&g_request, __ATOMIC_ACQUIRE) != 2) __builtin_ia32_pause();
    void* r = g_req_ptr;
    __atomic_store_n(&g_request, 0u, __ATOMIC_RELEASE);
    return r;
}
}  // namespace

void* alloc_from_main(SizeT bytes) { return ask(bytes ? bytes : 1, nullptr); }
void free_from_main(void* p) { ask(0, p); }

bool on_spawned_thread() {
    uptr sp = reinterpret_cast<uptr>(__builtin_frame_address(0));
    for (unsigned i = 0; i < g_nstacks; ++i)
        if (sp - g_stacks[i].lo < g_stacks[i].hi - g_stacks[i].lo) return true;
    return false;
}

void forked_child() { g_nstacks = 0; }

namespace {
// Idle turns (pause) before a worker sleeps, about 0.1 ms where this was
// measured (20 us on a host whose pause takes 10 ns): sleeping sooner made
// the main thread wake the miss worker at nearly every publication (256
// turns and every 512 entries: chase 3.73 s -> 4.16 s, containers 2.58 s
// -> 3.11 s, for a third less CPU time). The replay worker with 8,192:
// omp_tasks 1000000 4096 level (2.11 s, 2.10 s).
constexpr u32 kIdleTurns = 2048;
// The miss worker naps instead: 256 pauses, then up to 100 naps (about 10
// ms) before it sleeps on the futex. A nap leaves the CPU to the main
// thread, which a spinning worker slowed (the two CPUs of this host share a
// core or its power; see wait_turn() below), and the main thread has no
// worker to wake while it naps. The miss worker spun 12 to 13 % of the
// samples of memcopy, containers and chase. Medians of alternating runs:
// memcopy 200 3.73 s -> 3.66 s (5 of 7 pairs faster), with the monitor 5.18
// s -> 4.98 s (4 of 5); containers 100000 4 3.54 s -> 3.42 s (5 of 7), with
// the monitor 6.12 s -> 5.99 s (3 of 5); chase level (4.30 s, 4.28 s). The
// replay worker keeps its spin: with naps it starts later on new commands
// (omp_tasks 1000000 4096 2.14 s -> 2.20 s). Up to 2,000 naps (0.2 s) first:
// the same gains, but matmul, whose worker stops being used after its first
// misses, paid 0.06 s of system time for the worker's naps (0.03 s -> 0.09
// s; 0.05 s with 100 naps: memcopy 3.71 s -> 3.59 s, containers 3.09 s ->
// 3.02 s, 3 of 5 pairs faster each).
constexpr u32 kNapSpins = 256;
constexpr u32 kNaps = 100;

// 20 us asked for, about 100 us with the kernel's default timer slack.
void nap() {
    struct {
        long sec, nsec;
    } t = {0, 20000};
    sys3(__NR_nanosleep, reinterpret_cast<long>(&t), 0, 0);
}
}  // namespace

bool Doorbell::wait_for_work(u64 t, u64* h, bool (*idle_work)(), bool naps) {
    u32 idle = 0;
    for (;;) {
        u64 x = __atomic_load_n(&head.v, __ATOMIC_ACQUIRE);
        if (x != t) {
            *h = x;
            return true;
        }
        if (__atomic_load_n(&stop.v, __ATOMIC_ACQUIRE)) return false;
        if (idle_work && idle_work()) {
            idle = 0;
            continue;
        }
        if (++idle < (naps ? kNapSpins : kIdleTurns)) {
            __builtin_ia32_pause();
            continue;
        }
        if (naps && idle < kNapSpins + kNaps) {
            nap();
            continue;
        }
        __atomic_store_n(&sleeping.v, 1u, __ATOMIC_SEQ_CST);
        // idle_work() reads what the main thread stores before nudge().
        if (__atomic_load_n(&head.v, __ATOMIC_SEQ_CST) == t && !__atomic_load_n(&stop.v, __ATOMIC_SEQ_CST) &&
            !(idle_work && idle_work()))
            futex_wait(&sleeping.v, 1);
        __atomic_store_n(&sleeping.v, 0u, __ATOMIC_SEQ_CST);
        idle = 0;
    }
}

void Doorbell::publish(u64 h, bool fenced, u64 lazy) {
    if (fenced) {
        __atomic_store_n(&head.v, h, __ATOMIC_SEQ_CST);
        if (!__atomic_load_n(&sleeping.v, __ATOMIC_SEQ_CST)) return;
    } else {
        __atomic_store_n(&head.v, h, __ATOMIC_RELEASE);
        if (!__atomic_load_n(&sleeping.v, __ATOMIC_RELAXED)) return;
        // The worker does not write tail while it sleeps.
        if (h - __atomic_load_n(&tail.v, __ATOMIC_RELAXED) < lazy) return;
    }
    wake();
}

void Doorbell::nudge() {
    if (__atomic_load_n(&sleeping.v, __ATOMIC_SEQ_CST)) wake();
}

void Doorbell::wake() {
    __atomic_store_n(&sleeping.v, 0u, __ATOMIC_SEQ_CST);
    futex_wake(&sleeping.v);
}

void Doorbell::stop_worker() {
    __atomic_store_n(&stop.v, 1u, __ATOMIC_SEQ_CST);
    wake();
    while (__atomic_load_n(&stop.v, __ATOMIC_ACQUIRE) != 2) __builtin_ia32_pause();
}

namespace {
// The main thread's turn in a wait for a worker: a pause, and after
// kMainSpins of them a nap per turn. This host's two CPUs share a core or
// its power: a thread spinning on pause beside native stencil 2048 200 made
// it 10 % slower (1.01 s -> 1.12 s, medians of 5), and the main thread spun
// through the replay's last 0.3 s on omp_tasks, where it waits for the
// worker's backlog, and at its region markers. omp_tasks 1000000 4096 (4
// threads), medians of alternating runs: 2.27 s -> 2.14 s (7 of 7 pairs
// faster), 2.31 s -> 2.24 s (7 of 9), 2.15 s -> 2.08 s (6 of 7); napping
// after 1,024 pauses or after 8,192 gained nothing (2.26 s and 2.27 s, 2.35
// s and 2.33 s). Sleeping on a futex that the worker wakes at the tail
// waited for gained nothing either (2.16 s and 2.18 s; 2.14 s both),
// although it wakes sooner, nor did naps of 24 us instead of 100 (a timer
// slack of 1 us for the wait, 4 us asked for: 2.12 s and 2.14 s).
constexpr u32 kMainSpins = 4096;
void wait_turn(u32* turns) {
    if (++*turns <= kMainSpins)
        __builtin_ia32_pause();
    else
        nap();
}
}  // namespace

void Producer::wait_for_room_slow(Doorbell& bell, u64 ring) {
    bell.publish(head, true);
    u32 turns = 0;
    while (backlog(bell) >= ring) {
        serve();
        wait_turn(&turns);
    }
}

bool Producer::wait_all(Doorbell& bell) {
    if (head == synced) return false;
    bell.publish(head, true);
    u32 turns = 0;
    while (backlog(bell) != 0) {
        serve();
        wait_turn(&turns);
    }
    synced = head;
    return true;
}

void Doorbell::reset(u64 at) {
    head.v = tail.v = at;
    stop.v = 0;
    sleeping.v = 0;
}

void futex_wait(volatile u32* word, u32 expected) {
    sys4(__NR_futex, reinterpret_cast<long>(word), kFutexWaitPrivate, expected, 0);
}

void futex_wake(volatile u32* word) { sys3(__NR_futex, reinterpret_cast<long>(word), kFutexWakePrivate, 1); }

}  // namespace hostthread
}  // namespace ompsim
