// --machine=host: the host's cache hierarchy from the text of Linux's sysfs
// cache descriptions or from CPUID registers, turned into a HierarchyConfig.
// Freestanding like the rest of cachesim/ (the tool reads the files and
// executes CPUID, vgtool/HostMachine; the unit tests feed recorded trees).
// docs/host-detection.md documents what is read, the mapping rules, the
// printout and every message.
#ifndef OMPSIM_CACHESIM_HOSTCACHES_H
#define OMPSIM_CACHESIM_HOSTCACHES_H

#include "CacheConfig.h"
#include "Types.h"

namespace ompsim {

// At most this many caches are read for cpu0 (sysfs index0..index15, or
// CPUID subleaves 0..15); more is an error.
constexpr int kMaxHostCaches = 16;

// The latencies --machine=host uses (the hardware does not report any):
// the desktop preset's (docs/cache-config.md), 120 for an L4.
constexpr u32 kHostLatency[kMaxLevels] = {5, 15, 65, 120};
constexpr u32 kHostMemoryLatency = 250;

enum class HostCacheType : u8 { Data, Instruction, Unified };
enum class HostSource : u8 { None, Sysfs, CpuidLeaf4, CpuidAmd };
// CPUID's "cache inclusiveness" bit (EDX bit 1) of a cache, if known.
enum class HostInclusive : u8 { Unknown, Yes, No };

// One cache of cpu0 as sysfs or CPUID describes it.
struct HostCache {
    u32 index;            // sysfs indexN, or the CPUID subleaf
    u32 level;            // 1..
    HostCacheType type;
    u64 size;             // bytes
    u32 ways;             // as reported; 0 = fully associative (sysfs)
    bool fully_assoc;     // ways 0 (sysfs) or CPUID EAX bit 9
    u32 line;             // coherency line size, bytes
    u32 sets;             // 0 = not reported (sysfs without number_of_sets)
    u32 partitions;       // physical line partitions, 1 when not reported
    HostInclusive inclusive;
    bool is_private;      // used by cpu0's core only (cpu0 and its SMT siblings)
    u32 sharing;          // sysfs: the cpus of shared_cpu_list; CPUID: at most this many logical cpus
    char cpus[48];        // sysfs: shared_cpu_list as given ("..." when longer); CPUID: ""
};

struct HostFacts {
    HostSource source;    // where the caches come from
    int count;
    HostCache cache[kMaxHostCaches];
    // CPUID (whether or not the caches come from it).
    bool has_cpuid;
    char vendor[13];      // "GenuineIntel", "AuthenticAMD", ...
    u32 family;           // display family (base + extended)
    HostSource inclusion_source;  // the CPUID leaf inclusion came from, None if unknown
    u32 threads_per_core; // CPUID: SMT threads of a core, 0 = unknown
    char siblings[48];    // sysfs: cpu0's thread_siblings_list ("" if not read)
    char root[96];        // the probe's sysfs_root (messages and printout)
    bool sysfs_missing;   // host_detect fell back to CPUID: sysfs had no cache descriptions
};

// How sysfs and CPUID are reached: the tool reads files and executes CPUID;
// the unit tests answer from recorded fixtures.
enum class HostRead : u8 { Ok, Missing, Failed };
struct HostProbe {
    // The directory of cpu0, "/sys/devices/system/cpu/cpu0": used in
    // messages and the printout only (read() gets relative paths).
    const char* sysfs_root;
    // Reads the file sysfs_root/path ("cache/index0/size") into buf,
    // NUL-terminated, at most cap-1 bytes. Missing: no such file (or
    // directory); Failed: it exists but cannot be read. Null: no sysfs.
    HostRead (*read)(void* ctx, const char* path, char* buf, size_t cap);
    // Executes CPUID (leaf in EAX, subleaf in ECX): regs = EAX, EBX, ECX,
    // EDX. Null: no CPUID (not x86, or the CPU lacks it).
    void (*cpuid)(void* ctx, u32 leaf, u32 subleaf, u32 regs[4]);
    void* ctx;
};

// Reads cpu0's caches from sysfs (cache/index0, index1, ... until an index
// directory is absent) and topology/thread_siblings_list. Missing when
// there is no cache/index0 at all (err says so: the caller falls back to
// CPUID); Failed with err when a description is incomplete, unreadable or
// malformed.
HostRead host_read_sysfs(const HostProbe& p, HostFacts& f, ErrorText& err);

// Reads vendor and family (leaves 0 and 1), then the caches from Intel's
// leaf 4 or, on AMD and Hygon, leaf 0x8000001D. False with err if CPUID
// lacks those leaves (vendor and family may still be filled in: has_cpuid).
bool host_read_cpuid(const HostProbe& p, HostFacts& f, ErrorText& err);

// Copies vendor, family and the inclusion bits of the CPUID caches (matched
// by level and type) into facts read from sysfs.
void host_merge_cpuid(HostFacts& sysfs, const HostFacts& cpuid);

// The hierarchy the facts describe (mapping rules: docs/host-detection.md),
// validated. False with a one-line err naming the level and what the
// source said.
bool host_hierarchy(const HostFacts& f, HierarchyConfig& out, ErrorText& err);

// All of the above: sysfs first, CPUID when sysfs has no cache
// descriptions; CPUID also supplies vendor, family and inclusion.
bool host_detect(const HostProbe& p, HostFacts& f, HierarchyConfig& out, ErrorText& err);

// The printout (docs/host-detection.md, "What is printed"): one line per
// entry, without the "ompsim: " prefix or a newline. Returns the number of
// lines written (at most max; kMaxHostReportLines always suffices).
constexpr int kMaxHostReportLines = kMaxHostCaches + 4;
struct HostLine {
    char text[224];
};
int host_report(const HostFacts& f, const HierarchyConfig& c, HostLine* lines, int max);

// "D1", "I1", "L1" (unified level 1), "L2", "L3", ... for a cache.
const char* host_cache_name(const HostCache& c);

}  // namespace ompsim

#endif
