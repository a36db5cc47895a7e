// The monitor's heap bookkeeping alone, hosted (make bench-heap).
//
// Runs the insert and erase phases of kernels/containers.cpp (std::map and
// std::unordered_map of N random keys, ROUNDS times) with operator new and
// delete logged, then replays the log into a RangeMonitor as the tool's
// heap requests do (vgtool/DataStructures.cpp): an allocation first
// removes any range left at its address (a missed free), then adds its
// block to its site's structure; a free removes the range at its address.
// Sites are told apart by block size here (the tool takes a stack trace).
// Prints the best of REPS replays in nanoseconds per event.
//
// Inside the tool the same events cost about four times more (the
// simulation and the client evict the page lists between two heap events:
// docs/performance.md, twenty-fourth session), so this measures the
// bookkeeping's own work, not the tool's time.
//
//   heap_events [N [ROUNDS [REPS]]]     defaults 100000 4 7
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <unordered_map>
#include <vector>

#include "RangeMonitor.h"

using namespace ompsim;

// operator new and delete below are malloc and free, which GCC's check of
// matching pairs cannot see through once they are inlined into the STL.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {

struct HeapEvent {
    u64 addr;
    u64 size;  // 0: a free
};
HeapEvent* g_log;
size_t g_events, g_cap;
bool g_logging;

void log_event(void* p, size_t n) {
    if (!g_logging) return;
    if (g_events == g_cap) {
        g_cap = g_cap ? 2 * g_cap : size_t(1) << 20;
        g_log = static_cast<HeapEvent*>(std::realloc(g_log, g_cap * sizeof(HeapEvent)));
        if (!g_log) std::abort();
    }
    g_log[g_events++] = HeapEvent{reinterpret_cast<u64>(p), n};
}

void workload(long n, int rounds) {
    unsigned long long x = 88172645463325252ull;
    for (int r = 0; r < rounds; ++r) {
        std::vector<long> keys;
        std::map<long, long> tree;
        std::unordered_map<long, long> hash;
        for (long i = 0; i < n; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            long k = static_cast<long>(x % static_cast<unsigned long long>(4 * n));
            keys.push_back(k);
            tree[k] += i;
            hash.emplace(k, i);
        }
        for (long i = 0; i < n; i += 2) tree.erase(keys[static_cast<size_t>(i)]);
    }
}

void* host_alloc(void*, size_t n) { return std::malloc(n); }
void host_release(void*, void* p) { std::free(p); }

}  // namespace

void* operator new(size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    log_event(p, n ? n : 1);
    return p;
}
void operator delete(void* p) noexcept {
    if (p) log_event(p, 0);
    std::free(p);
}
void operator delete(void* p, size_t) noexcept { operator delete(p); }

int main(int argc, char** argv) {
    long n = argc > 1 ? std::atol(argv[1]) : 100000;
    int rounds = argc > 2 ? std::atoi(argv[2]) : 4;
    int reps = argc > 3 ? std::atoi(argv[3]) : 7;
    if (n < 1 || rounds < 1 || reps < 1) {
        std::fprintf(stderr, "heap_events: expected N ROUNDS REPS >= 1\n");
        return 2;
    }
    g_logging = true;
    workload(n, rounds);
    g_logging = false;

    double best = 1e30;
    u32 live = 0;
    for (int rep = 0; rep < reps; ++rep) {
        RangeMonitor* m = static_cast<RangeMonitor*>(std::calloc(1, sizeof(RangeMonitor)));
        MonitorConfig cfg = {3, 6, 0, 25, 0};  // the default machine's levels and lines, 25 bins
        Allocator a = {host_alloc, host_release, nullptr};
        ErrorText err;
        error_clear(err);
        if (!m || !m->init(cfg, a, err)) {
            std::fprintf(stderr, "heap_events: %s\n", m ? err.text : "out of memory");
            return 1;
        }
        // One structure per block size, as one per allocation site.
        std::map<u64, u32> site;
        std::vector<u32> sid(g_events);
        for (size_t i = 0; i < g_events; ++i) {
            if (!g_log[i].size) continue;
            auto it = site.find(g_log[i].size);
            if (it == site.end()) it = site.emplace(g_log[i].size, m->add_structure(false)).first;
            sid[i] = it->second;
        }
        m->prepare_thread(1);
        m->set_current_thread(1);
        auto t0 = std::chrono::steady_clock::now();
        for (size_t i = 0; i < g_events; ++i) {
            const HeapEvent& e = g_log[i];
            m->remove_range(e.addr, kAutomaticRanges);
            if (e.size) m->add_range(e.addr, e.size, sid[i]);
        }
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (s < best) best = s;
        live = m->live_ranges();
        m->destroy();
        std::free(m);
    }
    std::printf("%zu heap events (%u blocks live at the end): best of %d replays %.3f s, %.1f ns an event\n",
                g_events, live, reps, best, best * 1e9 / double(g_events));
    return 0;
}
