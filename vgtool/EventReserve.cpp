#include "EventReserve.h"

#include "ReplayWorker.h"

namespace ompsim {
namespace evreserve {

namespace {

constexpr SizeT kPage = 4096;
// Blocks allocated ahead: 1,024 of 64 KiB, 64 MiB at most resident and
// not yet holding events. The main thread allocates them half a reserve at
// a time, so that the worker is woken once per 32 MiB, not per block.
// omp_tasks 1000000 4096 (4 threads, 8,300 blocks; medians of 7
// alternating runs): 256 blocks, 6,059 taken resident and 2,096 not,
// 2.19 s -> 2.11 s; 1,024, 7,050 and 1,253, 2.15 s -> 2.04 s (7 of 7
// pairs faster), its peak 595 -> 643 MB; 2,048, 8,193 and 142, no faster
// (2.14 s -> 2.10 s). omp_loop 1024 40 level (2.67 s, 2.64 s). With
// the reserve growing as below (a fixed 1,024 took the atomic example's
// peak from 45 to 110 MB): omp_tasks 2.27 s -> 2.06 s, 7 of 7 pairs
// faster, 6,661 blocks taken resident and 1,710 not; the atomic example
// 45 MB both.
constexpr u64 kArrays = 1024;
constexpr u64 kMinArrays = 16;

SizeT g_bytes;
void* g_ring[kArrays];
// Counts that only grow: blocks allocated into the ring (main thread),
// made resident (worker), taken (main thread). taken <= warm <= made and
// made - taken <= kArrays, so the worker's block and the ones the main
// thread writes into the ring never meet.
volatile u64 g_made;
volatile u64 g_warm;
u64 g_taken;
u64 g_cold;
SizeT g_page;  // the worker's next page in block g_warm

void top_up() {
    // Half as many ahead as the run has taken so far: a small program's
    // few arrays (3 for the atomic example) do not bring 64 MiB.
    u64 want = (g_taken + g_cold) / 2;
    want = want < kMinArrays ? kMinArrays : want > kArrays ? kArrays : want;
    if (g_made - g_taken > want / 2) return;
    u64 made = g_made;
    while (made - g_taken < want) {
        g_ring[made % kArrays] = VG_(malloc)("ompsim.stream", g_bytes);
        ++made;
    }
    // Sequentially consistent, as the worker's test before it sleeps
    // (Doorbell::wait_for_work): either it sees the blocks or the main
    // thread sees it asleep and wakes it.
    __atomic_store_n(&g_made, made, __ATOMIC_SEQ_CST);
    replayworker::nudge();
}

}  // namespace

void init(SizeT block_bytes) { g_bytes = block_bytes; }

void* new_block() {
    if (replayworker::running()) top_up();
    if (g_taken < __atomic_load_n(&g_warm, __ATOMIC_ACQUIRE)) return g_ring[g_taken++ % kArrays];
    ++g_cold;
    return VG_(malloc)("ompsim.stream", g_bytes);
}

bool warm_one_page() {
    u64 warm = g_warm;
    if (warm == __atomic_load_n(&g_made, __ATOMIC_SEQ_CST)) return false;
    volatile char* b = static_cast<char*>(g_ring[warm % kArrays]);
    // A write makes the page resident; the block's contents are the main
    // thread's to write, and nothing reads them before it has.
    // Offsets 0, 4 KiB, ... and the last byte: every page the block
    // spans, whatever its alignment.
    if (g_page < g_bytes) {
        b[g_page] = 0;
        g_page += kPage;
        return true;
    }
    b[g_bytes - 1] = 0;
    g_page = 0;
    __atomic_store_n(&g_warm, warm + 1, __ATOMIC_RELEASE);
    return true;
}

u64 taken_warm() { return g_taken; }
u64 taken_cold() { return g_cold; }

}  // namespace evreserve
}  // namespace ompsim
