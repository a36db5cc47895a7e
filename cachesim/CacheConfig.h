// The description of a simulated cache hierarchy: what --machine, --L<k>=,
// --I1/--D1/--LL and --cache-config produce, and what CoherentMachine and
// CachegrindModel are built from. Plain data, no behaviour but validation.
#ifndef OMPSIM_CACHESIM_CACHECONFIG_H
#define OMPSIM_CACHESIM_CACHECONFIG_H

#include "Types.h"

namespace ompsim {

constexpr int kMaxLevels = 4;

// The most lines one level of a general hierarchy may hold: 2^28, a 16 GiB
// cache of 64 B lines. The model keeps an 8-byte tag per line and copy
// (2 GiB at the limit; a 16 GiB L3 ran in 4.5 s and 2.1 GB), and Valgrind
// 3.19 on amd64 has 64 GiB for the client and the tool together: a 1 TiB
// level used to end in Valgrind's out-of-memory dump instead of a message.
constexpr u64 kMaxLevelLines = u64(1) << 28;
// The most entries one TLB level may hold (8 MiB of tags; real data TLBs
// have at most a few thousand).
constexpr u32 kMaxTlbEntries = u32(1) << 20;

enum class Replacement : u8 { LRU, FIFO, PLRU, Random };

// WriteBack means write-back with write-allocate; WriteThrough means
// write-through with no-write-allocate (the two combinations real caches use).
enum class WritePolicy : u8 { WriteBack, WriteThrough };

// Inclusion of level k (k >= 2) with respect to the levels above it.
//  NonInclusive: filled on demand misses, nothing enforced (NINE).
//  Inclusive:    holds every line of the levels above; evicting a line
//                back-invalidates it above.
//  Exclusive:    a victim cache: filled only by lines evicted from the level
//                above; a hit moves the line up and removes it here.
enum class Inclusion : u8 { NonInclusive, Inclusive, Exclusive };

// Hardware prefetchers of one level (docs/machines.md, "Prefetchers"). A
// prefetcher is trained by the level's demand misses and by demand hits on
// lines a prefetch brought in (gem5's default training, so a level without
// prefetched lines costs nothing on its hit path); it never crosses a 4 KiB
// page (hardware prefetchers work on physical addresses).
enum : u8 {
    kPrefetchNextLine = 1,  // tagged next-line: block + 1 .. + degree
    kPrefetchStride = 2,    // per-PC reference prediction table
    kPrefetchStream = 4,    // per-page stream detection
};
struct PrefetchConfig {
    u8 kinds;              // kPrefetch* mask; 0 = no prefetcher
    u32 degree;            // lines issued per trigger, 1..64
    u32 stride_entries;    // stride table entries (indexed by PC), 1..65536
    u32 stream_entries;    // pages the stream prefetcher tracks, 1..1024
};
constexpr u32 kDefaultPrefetchDegree = 1;
constexpr u32 kDefaultStrideEntries = 256;
constexpr u32 kDefaultStreamEntries = 16;

struct LevelConfig {
    u64 size;          // bytes
    u32 assoc;         // ways; == size/line for fully associative
    u32 line;          // bytes, a power of two
    Replacement replacement;
    WritePolicy write;
    Inclusion inclusion;
    u32 latency;       // cycles to serve an access from this level
    PrefetchConfig prefetch;
};

// Data TLBs (docs/machines.md, "TLBs"): per core, up to two levels, LRU,
// one page size for the whole run (the tool cannot see which pages the
// kernel backs with huge pages).
constexpr int kMaxTlbLevels = 2;
struct TlbLevelConfig {
    u32 entries;       // translations held
    u32 assoc;         // ways; == entries for fully associative
    u32 latency;       // cycles added to an access this level serves
};
struct TlbConfig {
    int levels;        // 0 = no TLB simulated
    u64 page_size;     // bytes: a power of two, 4 KiB to 1 GiB
    TlbLevelConfig level[kMaxTlbLevels];
    u32 walk_latency;  // cycles added by a page walk (a miss in every level)
};

struct HierarchyConfig {
    // Number of levels, 1..kMaxLevels. Level 1 counts once even when split.
    int levels;
    // Level 1 split into I1 and D1 (level[0] is then D1, i1 is I1); otherwise
    // level[0] is a unified L1 that also serves instruction fetches.
    bool split_l1;
    LevelConfig i1;
    LevelConfig level[kMaxLevels];
    // Simulate instruction fetches at all (--icache=yes|no).
    bool icache;
    // Cachegrind-compatible semantics (--machine=cachegrind): exactly two
    // levels, I1/D1 + LL, Cachegrind 3.19's model and counting rules.
    bool cachegrind;
    // Seed of the random replacement policy (same seed, same victims).
    u64 random_seed;
    // Cycles of a miss in every level (memory latency) and the base CPI
    // (in 1/100 cycles per instruction) for the simulated-time model.
    u32 memory_latency;
    u32 cpi_x100;
    // Multi-core machine (CoherentMachine; unused in Cachegrind mode): levels
    // 1..private_levels are private to each core, the others are shared by
    // all cores (1..levels; the presets use levels-1, or 1 for one level).
    u32 private_levels;
    // Cycles of a cache-to-cache transfer, and of the invalidation of the
    // other copies when a core writes a line it holds Shared (default: the
    // latency of the first shared level, or the memory latency when every
    // level is private).
    u32 c2c_latency;
    u32 upgrade_latency;
    // Data TLBs (levels 0: none; always none in Cachegrind mode).
    TlbConfig tlb;
};

// Names as users type them and as documents print them.
const char* replacement_name(Replacement r);
const char* write_policy_name(WritePolicy w);
const char* inclusion_name(Inclusion i);
// Some level (I1 included) of the hierarchy has a prefetcher.
bool has_prefetchers(const HierarchyConfig& c);
// "none", or the prefetchers of a mask joined by ',': "next-line,stride".
// Writes at most 32 bytes including the NUL.
void prefetch_kinds_text(u8 kinds, char out[32]);

// Level names: "I1", "D1"/"L1", "L2", "L3", "L4" (or "LL" in Cachegrind mode).
const char* level_name(const HierarchyConfig& c, int level_index, bool icache_side);

// The default of private_levels for a hierarchy of `levels` levels:
// levels-1 when levels >= 2, else 1.
u32 default_private_levels(int levels);
// The latency of the first shared level (index private_levels), or the
// memory latency when every level is private: the default of c2c_latency
// and upgrade_latency. private_levels 0 stands for the default.
u32 first_shared_latency(const HierarchyConfig& c);
// Sets private_levels, c2c_latency and upgrade_latency to their defaults
// for the configuration's levels and latencies.
void set_coherence_defaults(HierarchyConfig& c);

// Checks the whole configuration (general hierarchies: also that
// private_levels, 0 meaning the default, does not exceed levels). On
// failure fills err with one line that names the level and the rule it
// breaks, e.g.
//   "L2: 1000000 B is not a multiple of line size x associativity (64 x 8)"
// and returns false.
bool validate(const HierarchyConfig& c, ErrorText& err);

}  // namespace ompsim

#endif
