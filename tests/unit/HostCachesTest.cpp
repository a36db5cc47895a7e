// --machine=host: sysfs and CPUID descriptions of recorded and constructed
// machines (tests/unit/host/*.txt, format in README.md there) decoded into
// hierarchies, the printout, and every error of docs/host-detection.md.
// Fixtures are found under $OMPSIM_SRCDIR/tests/unit/host, else next to this
// source file (relative to the working directory when compiled with a
// relative path, as from _build).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "CoherentMachine.h"
#include "BuilderSupport.h"
#include "HostCaches.h"
#include "MachineConfig.h"
#include "TestSupport.h"

using namespace ompsim;

namespace {

const char* const kRoot = "/sys/devices/system/cpu/cpu0";

std::string fixture_dir() {
    const char* d = std::getenv("OMPSIM_SRCDIR");
    if (d && *d) return std::string(d) + "/tests/unit/host";
    std::string here = __FILE__;
    size_t slash = here.rfind('/');
    return (slash == std::string::npos ? std::string(".") : here.substr(0, slash)) + "/host";
}

// A machine as the fake sysfs and the fake CPUID answer it.
struct Fixture {
    std::map<std::string, std::string> files;  // relative to cpu0: "cache/index0/size"
    std::map<std::pair<u32, u32>, std::array<u32, 4>> leaves;
    bool use_sysfs = true;
    bool use_cpuid = true;

    bool has_cpuid() const { return use_cpuid && !leaves.empty(); }
    void set(const std::string& rel, const std::string& value) { files[rel] = value; }
    void erase(const std::string& rel) { files.erase(rel); }
    void erase_index(int n) {
        std::string prefix = "cache/index" + std::to_string(n) + "/";
        for (auto it = files.begin(); it != files.end();)
            it = it->first.compare(0, prefix.size(), prefix) == 0 ? files.erase(it) : std::next(it);
    }
    void set_leaf(u32 leaf, u32 sub, std::array<u32, 4> r) { leaves[{leaf, sub}] = r; }

    HostProbe probe() {
        HostProbe p;
        p.sysfs_root = kRoot;
        p.read = use_sysfs ? read : nullptr;
        p.cpuid = has_cpuid() ? cpuid : nullptr;
        p.ctx = this;
        return p;
    }

    static HostRead read(void* ctx, const char* path, char* buf, size_t cap) {
        auto* f = static_cast<Fixture*>(ctx);
        auto it = f->files.find(path);
        if (it == f->files.end()) return HostRead::Missing;
        if (it->second == "!unreadable") return HostRead::Failed;
        std::string v = it->second + "\n";  // as sysfs: one line
        size_t n = v.size() < cap - 1 ? v.size() : cap - 1;
        std::memcpy(buf, v.data(), n);
        buf[n] = 0;
        return HostRead::Ok;
    }
    static void cpuid(void* ctx, u32 leaf, u32 sub, u32 regs[4]) {
        auto* f = static_cast<Fixture*>(ctx);
        auto it = f->leaves.find({leaf, sub});
        for (int i = 0; i < 4; ++i) regs[i] = it == f->leaves.end() ? 0 : it->second[i];
    }
};

Fixture load(const std::string& name) {
    Fixture f;
    std::string path = fixture_dir() + "/" + name;
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path << " not found (set OMPSIM_SRCDIR)";
    std::string line;
    const std::string prefix = std::string(kRoot) + "/";
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (line.compare(0, 6, "cpuid ") == 0) {
            unsigned leaf, sub, a, b, c, d;
            EXPECT_EQ(std::sscanf(line.c_str(), "cpuid %x %u: %x %x %x %x", &leaf, &sub, &a, &b, &c, &d), 6) << line;
            f.set_leaf(leaf, sub, {a, b, c, d});
            continue;
        }
        size_t colon = line.find(':');
        EXPECT_NE(colon, std::string::npos) << line;
        EXPECT_EQ(line.compare(0, prefix.size(), prefix), 0) << line;
        if (colon == std::string::npos) continue;
        f.files[line.substr(prefix.size(), colon - prefix.size())] = line.substr(colon + 1);
    }
    return f;
}

struct Detected {
    bool ok;
    HostFacts facts;
    HierarchyConfig cfg;
    std::string error;
    std::vector<std::string> lines;
};

Detected detect(Fixture& f) {
    Detected d;
    ErrorText err;
    error_clear(err);
    std::memset(&d.cfg, 0, sizeof d.cfg);
    HostProbe p = f.probe();
    d.ok = host_detect(p, d.facts, d.cfg, err);
    d.error = err.text;
    if (d.ok) {
        HostLine lines[kMaxHostReportLines];
        int n = host_report(d.facts, d.cfg, lines, kMaxHostReportLines);
        for (int i = 0; i < n; ++i) d.lines.push_back(lines[i].text);
    }
    return d;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& l : v) s += l + "\n";
    return s;
}

void expect_level(const LevelConfig& l, u64 size, u32 assoc, u32 line, Inclusion inc, u32 latency,
                  const char* what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(l.size, size);
    EXPECT_EQ(l.assoc, assoc);
    EXPECT_EQ(l.line, line);
    EXPECT_EQ(l.inclusion, inc);
    EXPECT_EQ(l.latency, latency);
    EXPECT_EQ(l.replacement, Replacement::LRU);
    EXPECT_EQ(l.write, WritePolicy::WriteBack);
    EXPECT_EQ(l.prefetch.kinds, 0);
}

// Everything a hierarchy simulates (the two sources must agree on it).
void expect_same(const HierarchyConfig& a, const HierarchyConfig& b) {
    ASSERT_EQ(a.levels, b.levels);
    EXPECT_EQ(a.split_l1, b.split_l1);
    auto same = [](const LevelConfig& x, const LevelConfig& y, const char* what) {
        SCOPED_TRACE(what);
        EXPECT_EQ(x.size, y.size);
        EXPECT_EQ(x.assoc, y.assoc);
        EXPECT_EQ(x.line, y.line);
        EXPECT_EQ(x.inclusion, y.inclusion);
        EXPECT_EQ(x.latency, y.latency);
    };
    if (a.split_l1) same(a.i1, b.i1, "I1");
    for (int k = 0; k < a.levels; ++k) same(a.level[k], b.level[k], "level");
    EXPECT_EQ(a.memory_latency, b.memory_latency);
    EXPECT_EQ(a.private_levels, b.private_levels);
    EXPECT_EQ(a.c2c_latency, b.c2c_latency);
    EXPECT_EQ(a.upgrade_latency, b.upgrade_latency);
}

const u64 KiB = 1024, MiB = 1024 * 1024;

// ---------------------------------------------------------------------------
// The development machine: Intel Xeon under KVM (recorded)

TEST(HostCaches, IntelKvmFromSysfs) {
    Fixture f = load("intel_xeon_kvm.txt");
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    const HierarchyConfig& c = d.cfg;
    EXPECT_EQ(d.facts.source, HostSource::Sysfs);
    EXPECT_EQ(c.levels, 3);
    EXPECT_TRUE(c.split_l1);
    EXPECT_FALSE(c.cachegrind);
    EXPECT_TRUE(c.icache);
    expect_level(c.i1, 32 * KiB, 8, 64, Inclusion::NonInclusive, 5, "I1");
    expect_level(c.level[0], 48 * KiB, 12, 64, Inclusion::NonInclusive, 5, "D1");
    expect_level(c.level[1], 2048 * KiB, 16, 64, Inclusion::NonInclusive, 15, "L2");
    expect_level(c.level[2], 266240 * KiB, 20, 64, Inclusion::NonInclusive, 65, "L3");
    EXPECT_EQ(c.level[2].size / (64 * 20), 212992u);
    EXPECT_EQ(c.memory_latency, 250u);
    EXPECT_EQ(c.private_levels, 2u);
    EXPECT_EQ(c.c2c_latency, 65u);
    EXPECT_EQ(c.upgrade_latency, 65u);
    EXPECT_EQ(joined(d.lines),
              "--machine=host: from /sys/devices/system/cpu/cpu0/cache (4 caches)\n"
              "  D1  48 KiB, 12-way, 64 B lines, 64 sets, private (cpu 0), non-inclusive\n"
              "  I1  32 KiB, 8-way, 64 B lines, 64 sets, private (cpu 0), non-inclusive\n"
              "  L2  2 MiB, 16-way, 64 B lines, 2048 sets, private (cpu 0), non-inclusive\n"
              "  L3  260 MiB, 20-way, 64 B lines, 212992 sets, shared by cpus 0-1, non-inclusive\n"
              "  private levels: 2 of 3 (cpu 0's core: cpus 0)\n"
              "  inclusion: from CPUID leaf 0x4 EDX bit 1 (GenuineIntel family 0x6); level 1 is always "
              "non-inclusive\n"
              "  latencies: not reported by the hardware; the desktop preset's: L1 5, L2 15, L3 65, "
              "memory 250 cycles\n");
}

TEST(HostCaches, IntelKvmFromCpuidLeaf4) {
    Fixture f = load("intel_xeon_kvm.txt");
    Detected from_sysfs = detect(f);
    f.use_sysfs = false;
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.facts.source, HostSource::CpuidLeaf4);
    expect_same(d.cfg, from_sysfs.cfg);
    EXPECT_EQ(d.facts.threads_per_core, 1u);
    ASSERT_EQ(d.lines.size(), 8u);
    EXPECT_EQ(d.lines[0], "--machine=host: from CPUID leaf 0x4 (4 caches)");
    EXPECT_EQ(d.lines[1], "  D1  48 KiB, 12-way, 64 B lines, 64 sets, private (1 logical cpu), non-inclusive");
    EXPECT_EQ(d.lines[4],
              "  L3  260 MiB, 20-way, 64 B lines, 212992 sets, shared by up to 2 logical cpus, non-inclusive");
    EXPECT_EQ(d.lines[5], "  private levels: 2 of 3 (1 logical cpu per core)");
}

TEST(HostCaches, SysfsWithoutCacheDescriptionsFallsBackToCpuid) {
    Fixture f = load("intel_xeon_kvm.txt");
    for (int n = 0; n < 4; ++n) f.erase_index(n);
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.facts.source, HostSource::CpuidLeaf4);
    EXPECT_TRUE(d.facts.sysfs_missing);
    EXPECT_EQ(d.lines[0],
              "--machine=host: from CPUID leaf 0x4 (4 caches; /sys/devices/system/cpu/cpu0/cache has no "
              "cache descriptions)");
}

TEST(HostCaches, CpuidLeaf4FieldsDecoded) {
    // One L2 with every field distinct: 24 ways, 2 partitions, 128 B lines,
    // 512 sets, shared by up to 4, inclusive, fully associative bit clear.
    Fixture f;
    f.set_leaf(0, 0, {0x10, 0x756e6547, 0x6c65746e, 0x49656e69});
    f.set_leaf(1, 0, {0x000906a3, 0, 0, 0});
    f.set_leaf(4, 0, {0x00000143 | (3u << 14), (23u << 22) | (1u << 12) | 127u, 511u, 0x2});
    HostFacts facts;
    ErrorText err;
    HostProbe p = f.probe();
    ASSERT_TRUE(host_read_cpuid(p, facts, err)) << err.text;
    ASSERT_EQ(facts.count, 1);
    const HostCache& c = facts.cache[0];
    EXPECT_EQ(c.level, 2u);
    EXPECT_EQ(c.type, HostCacheType::Unified);
    EXPECT_EQ(c.ways, 24u);
    EXPECT_EQ(c.partitions, 2u);
    EXPECT_EQ(c.line, 128u);
    EXPECT_EQ(c.sets, 512u);
    EXPECT_EQ(c.size, 24u * 2u * 128u * 512u);
    EXPECT_EQ(c.sharing, 4u);
    EXPECT_FALSE(c.fully_assoc);
    EXPECT_EQ(c.inclusive, HostInclusive::Yes);
    EXPECT_FALSE(c.is_private);  // threads per core unknown: private means 1
    EXPECT_STREQ(facts.vendor, "GenuineIntel");
    EXPECT_EQ(facts.family, 6u);
}

// ---------------------------------------------------------------------------
// AMD Zen 4 (constructed): SMT pairs, L3 per CCD, CPUID leaf 0x8000001D

TEST(HostCaches, AmdZen4FromSysfs) {
    Fixture f = load("amd_zen4.txt");
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    const HierarchyConfig& c = d.cfg;
    EXPECT_EQ(c.levels, 3);
    EXPECT_TRUE(c.split_l1);
    expect_level(c.i1, 32 * KiB, 8, 64, Inclusion::NonInclusive, 5, "I1");
    expect_level(c.level[0], 32 * KiB, 8, 64, Inclusion::NonInclusive, 5, "D1");
    expect_level(c.level[1], 1 * MiB, 8, 64, Inclusion::Inclusive, 15, "L2");
    expect_level(c.level[2], 32 * MiB, 16, 64, Inclusion::Exclusive, 65, "L3");
    EXPECT_EQ(c.private_levels, 2u);  // cpus 0,16 are one core's SMT pair
    EXPECT_EQ(d.facts.family, 0x19u);
    EXPECT_EQ(joined(d.lines),
              "--machine=host: from /sys/devices/system/cpu/cpu0/cache (4 caches)\n"
              "  D1  32 KiB, 8-way, 64 B lines, 64 sets, private (cpus 0,16), non-inclusive\n"
              "  I1  32 KiB, 8-way, 64 B lines, 64 sets, private (cpus 0,16), non-inclusive\n"
              "  L2  1 MiB, 8-way, 64 B lines, 2048 sets, private (cpus 0,16), inclusive\n"
              "  L3  32 MiB, 16-way, 64 B lines, 32768 sets, shared by cpus 0-7,16-23, exclusive\n"
              "  private levels: 2 of 3 (cpu 0's core: cpus 0,16)\n"
              "  inclusion: from CPUID leaf 0x8000001D EDX bit 1 (AuthenticAMD family 0x19); L3 exclusive: "
              "AMD Zen's L3 is a victim cache; level 1 is always non-inclusive\n"
              "  latencies: not reported by the hardware; the desktop preset's: L1 5, L2 15, L3 65, "
              "memory 250 cycles\n");
}

TEST(HostCaches, AmdZen4FromCpuid8000001DSameHierarchy) {
    Fixture f = load("amd_zen4.txt");
    Detected from_sysfs = detect(f);
    ASSERT_TRUE(from_sysfs.ok) << from_sysfs.error;
    f.use_sysfs = false;
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.facts.source, HostSource::CpuidAmd);
    EXPECT_EQ(d.facts.threads_per_core, 2u);
    expect_same(d.cfg, from_sysfs.cfg);
    EXPECT_EQ(d.lines[0], "--machine=host: from CPUID leaf 0x8000001D (4 caches)");
    EXPECT_EQ(d.lines[3], "  L2  1 MiB, 8-way, 64 B lines, 2048 sets, private (up to 2 logical cpus), inclusive");
    EXPECT_EQ(d.lines[4], "  L3  32 MiB, 16-way, 64 B lines, 32768 sets, shared by up to 16 logical cpus, exclusive");
    EXPECT_EQ(d.lines[5], "  private levels: 2 of 3 (2 logical cpus per core)");
}

TEST(HostCaches, AmdWithoutTopologyExtensionsHasNoCpuidCaches) {
    Fixture f = load("amd_zen4.txt");
    f.use_sysfs = false;
    f.set_leaf(0x80000001u, 0, {0, 0, 0, 0});  // TopologyExtensions (ECX bit 22) clear
    Detected d = detect(f);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error,
              "--machine=host: no sysfs to read; CPUID has no leaf 0x8000001D (AuthenticAMD without "
              "topology extensions)");
}

TEST(HostCaches, PreZenAmdL3IsNotMadeExclusive) {
    Fixture f = load("amd_zen4.txt");
    f.set_leaf(1, 0, {0x00600f20, 0, 0, 0});  // family 0x15 (Bulldozer)
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.facts.family, 0x15u);
    EXPECT_EQ(d.cfg.level[2].inclusion, Inclusion::NonInclusive);  // CPUID: not inclusive
}

TEST(HostCaches, SysfsWithoutCpuidIsNonInclusive) {
    Fixture f = load("amd_zen4.txt");
    f.use_cpuid = false;
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.cfg.level[1].inclusion, Inclusion::NonInclusive);
    EXPECT_EQ(d.cfg.level[2].inclusion, Inclusion::NonInclusive);  // vendor unknown
    EXPECT_EQ(d.lines[6], "  inclusion: not reported (no CPUID): non-inclusive; level 1 is always non-inclusive");
}

// ---------------------------------------------------------------------------
// Intel Alder Lake P-core (constructed): the desktop preset's caches

TEST(HostCaches, AlderLakePcoreFromSysfs) {
    Fixture f = load("intel_alderlake_pcore.txt");
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    const HierarchyConfig& c = d.cfg;
    EXPECT_EQ(c.levels, 3);
    expect_level(c.i1, 32 * KiB, 8, 64, Inclusion::NonInclusive, 5, "I1");
    expect_level(c.level[0], 48 * KiB, 12, 64, Inclusion::NonInclusive, 5, "D1");
    expect_level(c.level[1], 1280 * KiB, 10, 64, Inclusion::NonInclusive, 15, "L2");
    expect_level(c.level[2], 30 * MiB, 12, 64, Inclusion::NonInclusive, 65, "L3");
    EXPECT_EQ(c.level[2].size / (64 * 12), 40960u);
    EXPECT_EQ(c.private_levels, 2u);  // cpus 0-1 are cpu 0's SMT pair
    EXPECT_EQ(d.lines[3], "  L2  1280 KiB, 10-way, 64 B lines, 2048 sets, private (cpus 0-1), non-inclusive");
    EXPECT_EQ(d.lines[4], "  L3  30 MiB, 12-way, 64 B lines, 40960 sets, shared by cpus 0-23, non-inclusive");

    // The desktop preset describes the same machine.
    HierarchyConfig desktop;
    ASSERT_TRUE(machine_preset("desktop", desktop));
    expect_same(c, desktop);

    f.use_sysfs = false;
    Detected cpu = detect(f);
    ASSERT_TRUE(cpu.ok) << cpu.error;
    expect_same(cpu.cfg, c);
}

TEST(HostCaches, WithoutSmtSiblingsListOnlyCpu0IsPrivate) {
    Fixture f = load("intel_alderlake_pcore.txt");
    f.erase("topology/thread_siblings_list");
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.cfg.private_levels, 1u);  // shared with cpu 1: not private
    EXPECT_EQ(d.lines[1], "  D1  48 KiB, 12-way, 64 B lines, 64 sets, shared by cpus 0-1, non-inclusive");
    EXPECT_EQ(d.lines[5], "  private levels: 1 of 3 (cpu 0's core: cpus 0)");
}

// ---------------------------------------------------------------------------
// Broken descriptions: one-line errors naming the file or the level

TEST(HostCaches, MissingFile) {
    Fixture f = load("missing_file.txt");
    Detected d = detect(f);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error,
              "--machine=host: cannot read "
              "/sys/devices/system/cpu/cpu0/cache/index2/ways_of_associativity (no such file)");
}

TEST(HostCaches, UnreadableFile) {
    Fixture f = load("unreadable_file.txt");
    Detected d = detect(f);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error, "--machine=host: cannot read /sys/devices/system/cpu/cpu0/cache/index1/size (read error)");
}

TEST(HostCaches, UnreadableSiblingsList) {
    Fixture f = load("intel_xeon_kvm.txt");
    f.set("topology/thread_siblings_list", "!unreadable");
    Detected d = detect(f);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error,
              "--machine=host: cannot read /sys/devices/system/cpu/cpu0/topology/thread_siblings_list (read "
              "error)");
}

TEST(HostCaches, OverlongValue) {
    Fixture f = load("intel_xeon_kvm.txt");
    std::string list;
    for (int c = 0; list.size() < 5000; c += 2) list += (c ? "," : "") + std::to_string(c);
    f.set("cache/index3/shared_cpu_list", list);
    Detected d = detect(f);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error,
              "--machine=host: cannot read /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list (longer "
              "than 4094 bytes)");
}

TEST(HostCaches, InconsistentNumbers) {
    Fixture f = load("inconsistent.txt");
    Detected d = detect(f);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error,
              "--machine=host: L2 (/sys/devices/system/cpu/cpu0/cache/index2): size 1048576 B differs from "
              "sets x ways x line x partitions (2048 x 16 x 64 x 1 = 2097152 B): the description is "
              "inconsistent");
}

TEST(HostCaches, MalformedValues) {
    struct Case {
        const char* file;
        const char* value;
        const char* error;
    } cases[] = {
        {"cache/index0/size", "48X",
         "--machine=host: /sys/devices/system/cpu/cpu0/cache/index0/size: '48X' is not a size (e.g. 48K)"},
        {"cache/index0/type", "Trace",
         "--machine=host: /sys/devices/system/cpu/cpu0/cache/index0/type: 'Trace' is not Data, Instruction or "
         "Unified"},
        {"cache/index2/level", "two",
         "--machine=host: /sys/devices/system/cpu/cpu0/cache/index2/level: 'two' is not a cache level (1, 2, "
         "...)"},
        {"cache/index3/shared_cpu_list", "0-",
         "--machine=host: /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list: '0-' is not a cpu list "
         "(e.g. 0-3,8)"},
        {"cache/index3/shared_cpu_list", "3-1",
         "--machine=host: /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list: '3-1' is not a cpu list "
         "(e.g. 0-3,8)"},
        {"cache/index1/ways_of_associativity", "-8",
         "--machine=host: /sys/devices/system/cpu/cpu0/cache/index1/ways_of_associativity: '-8' is not a "
         "number of ways"},
        {"cache/index1/coherency_line_size", "0",
         "--machine=host: /sys/devices/system/cpu/cpu0/cache/index1/coherency_line_size: '0' is not a line "
         "size in bytes"},
    };
    for (const Case& c : cases) {
        Fixture f = load("intel_xeon_kvm.txt");
        f.set(c.file, c.value);
        Detected d = detect(f);
        EXPECT_FALSE(d.ok) << c.file;
        EXPECT_EQ(d.error, c.error);
    }
}

TEST(HostCaches, GeometriesOmpsimCannotSimulate) {
    struct Case {
        const char* what;
        void (*change)(Fixture&);
        const char* error;
    } cases[] = {
        {"line sizes differ",
         [](Fixture& f) {
             f.set("cache/index3/coherency_line_size", "128");
             f.set("cache/index3/number_of_sets", "106496");
         },
         "--machine=host: L3 (/sys/devices/system/cpu/cpu0/cache/index3): line size 128 B differs from the "
         "64 B of D1; ompsim needs one line size at every level"},
        {"a line of 48 B",
         [](Fixture& f) {
             f.set("cache/index2/coherency_line_size", "48");
             f.set("cache/index2/size", "1536K");
         },
         "--machine=host: L2 (/sys/devices/system/cpu/cpu0/cache/index2): line size 48 B is not a power of "
         "two between 16 and 4096"},
        {"a level-5 cache after an L4",
         [](Fixture& f) {
             for (int n : {4, 5})
                 for (const char* k : {"type:Unified", "size:524288K", "ways_of_associativity:16",
                                       "coherency_line_size:64", "number_of_sets:524288", "shared_cpu_list:0-1"}) {
                     std::string kv = k;
                     size_t colon = kv.find(':');
                     f.set("cache/index" + std::to_string(n) + "/" + kv.substr(0, colon), kv.substr(colon + 1));
                     f.set("cache/index" + std::to_string(n) + "/level", n == 4 ? "4" : "5");
                 }
         },
         "--machine=host: L5 (/sys/devices/system/cpu/cpu0/cache/index5): a level-5 cache; ompsim simulates "
         "at most 4 levels"},
        {"a gap", [](Fixture& f) { f.set("cache/index2/level", "4"); },
         "--machine=host: there is no level-2 cache but a level-4 one; the levels must follow each other"},
        {"a data L2", [](Fixture& f) { f.set("cache/index2/type", "Data"); },
         "--machine=host: L2 (/sys/devices/system/cpu/cpu0/cache/index2): a Data cache below level 1; ompsim "
         "needs unified caches below level 1"},
        {"two L2", [](Fixture& f) { f.set("cache/index3/level", "2"); },
         "--machine=host: L2 (/sys/devices/system/cpu/cpu0/cache/index3): a second Unified cache at level 2 "
         "(the first is /sys/devices/system/cpu/cpu0/cache/index2); ompsim simulates one per level"},
        {"no I1", [](Fixture& f) { f.erase_index(1); f.erase_index(2); f.erase_index(3); },
         "--machine=host: D1 (/sys/devices/system/cpu/cpu0/cache/index0): a Data L1 without an Instruction "
         "L1; ompsim needs both, or a unified L1"},
        {"size not a multiple of ways x line",
         [](Fixture& f) {
             f.erase("cache/index2/number_of_sets");
             f.set("cache/index2/size", "1000K");
             f.set("cache/index2/ways_of_associativity", "15");
         },
         "--machine=host: L2 (/sys/devices/system/cpu/cpu0/cache/index2): size 1024000 B is not a multiple of "
         "ways x line x partitions (15 x 64 x 1)"},
    };
    for (const Case& c : cases) {
        Fixture f = load("intel_xeon_kvm.txt");
        c.change(f);
        Detected d = detect(f);
        EXPECT_FALSE(d.ok) << c.what;
        EXPECT_EQ(d.error, c.error) << c.what;
    }
}

TEST(HostCaches, NoSysfsAndNoCpuid) {
    Fixture f = load("intel_xeon_kvm.txt");
    f.use_sysfs = false;
    f.use_cpuid = false;
    Detected d = detect(f);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error, "--machine=host: no sysfs to read; no CPUID instruction");

    Fixture g = load("intel_xeon_kvm.txt");
    for (int n = 0; n < 4; ++n) g.erase_index(n);
    g.use_cpuid = false;
    d = detect(g);
    EXPECT_FALSE(d.ok);
    EXPECT_EQ(d.error,
              "--machine=host: no cache descriptions in /sys/devices/system/cpu/cpu0/cache; no CPUID "
              "instruction");
}

// ---------------------------------------------------------------------------
// Other shapes ompsim can simulate

TEST(HostCaches, UnifiedL1AndFullyAssociative) {
    Fixture f = load("intel_xeon_kvm.txt");
    // index0: a unified 32 KiB L1; index1: a fully associative L2 (sysfs:
    // 0 ways), without number_of_sets; no index2, index3.
    f.set("cache/index0/type", "Unified");
    f.set("cache/index0/size", "32K");
    f.set("cache/index0/ways_of_associativity", "8");
    f.set("cache/index1/level", "2");
    f.set("cache/index1/type", "Unified");
    f.set("cache/index1/size", "2048K");
    f.set("cache/index1/ways_of_associativity", "0");
    f.erase("cache/index1/number_of_sets");
    f.erase_index(2);
    f.erase_index(3);
    f.use_cpuid = false;
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.cfg.levels, 2);
    EXPECT_FALSE(d.cfg.split_l1);
    expect_level(d.cfg.level[0], 32 * KiB, 8, 64, Inclusion::NonInclusive, 5, "L1");
    expect_level(d.cfg.level[1], 2 * MiB, 32768, 64, Inclusion::NonInclusive, 15, "L2");
    EXPECT_EQ(d.cfg.private_levels, 2u);
    EXPECT_EQ(d.lines[0], "--machine=host: from /sys/devices/system/cpu/cpu0/cache (2 caches)");
    EXPECT_EQ(d.lines[1], "  L1  32 KiB, 8-way, 64 B lines, 64 sets, private (cpu 0), non-inclusive");
    EXPECT_EQ(d.lines[2], "  L2  2 MiB, fully associative, 64 B lines, 1 set, private (cpu 0), non-inclusive");
}

TEST(HostCaches, IndexesStopAtTheFirstAbsentOne) {
    Fixture f = load("intel_xeon_kvm.txt");
    f.erase_index(2);  // index3 is then not looked at: an L1-only machine
    f.use_cpuid = false;
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.cfg.levels, 1);
    EXPECT_EQ(d.facts.count, 2);
}

TEST(HostCaches, FourLevelsAndInclusiveL3) {
    Fixture f = load("intel_xeon_kvm.txt");
    // An L4 (eDRAM-like) shared by both cpus; CPUID says L3 inclusive.
    for (const char* k : {"level:4", "type:Unified", "size:131072K", "ways_of_associativity:16",
                          "coherency_line_size:64", "number_of_sets:131072", "shared_cpu_list:0-1"}) {
        std::string kv = k;
        size_t colon = kv.find(':');
        f.set("cache/index4/" + kv.substr(0, colon), kv.substr(colon + 1));
    }
    f.set_leaf(4, 3, {0x04004163, 0x04c0003f, 0x00033fff, 0x2});
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.cfg.levels, 4);
    expect_level(d.cfg.level[2], 266240 * KiB, 20, 64, Inclusion::Inclusive, 65, "L3");
    expect_level(d.cfg.level[3], 128 * MiB, 16, 64, Inclusion::NonInclusive, 120, "L4");
    EXPECT_EQ(d.cfg.private_levels, 2u);
    EXPECT_EQ(d.lines.back(),
              "  latencies: not reported by the hardware; the desktop preset's: L1 5, L2 15, L3 65, L4 120, "
              "memory 250 cycles");
}

TEST(HostCaches, EveryLevelPrivateOnOneCpu) {
    Fixture f = load("intel_xeon_kvm.txt");
    f.set("cache/index3/shared_cpu_list", "0");
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.cfg.private_levels, 3u);
    EXPECT_EQ(d.cfg.c2c_latency, 250u);  // every level private: the memory latency
}

TEST(HostCaches, LongCpuListsAreShortenedInThePrintout) {
    Fixture f = load("intel_xeon_kvm.txt");
    std::string list;
    for (int c = 0; c < 64; c += 2) list += (c ? "," : "") + std::to_string(c);
    f.set("cache/index3/shared_cpu_list", list);
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.facts.cache[3].sharing, 32u);
    EXPECT_EQ(std::string(d.facts.cache[3].cpus), list.substr(0, 44) + "...");
}

// The detected hierarchy as the builder uses it: options apply on top.
TEST(HostCaches, BuilderStartsFromTheDetectedHost) {
    Fixture f = load("amd_zen4.txt");
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    ASSERT_EQ(builder_option(b, "--machine=host", err), OptResult::Ok) << err.text;
    ASSERT_EQ(builder_option(b, "--L3-latency=50", err), OptResult::Ok) << err.text;
    EXPECT_STREQ(builder_machine_name(b), "host");
    builder_set_host(b, &d.cfg);
    HierarchyConfig out;
    ASSERT_TRUE(builder_finish(b, out, err)) << err.text;
    EXPECT_EQ(out.level[2].size, 32 * MiB);
    EXPECT_EQ(out.level[2].inclusion, Inclusion::Exclusive);
    EXPECT_EQ(out.level[2].latency, 50u);
}

// The Zen 4 hierarchy (inclusive L2 above an exclusive shared L3) runs in
// the multi-core simulator: a line two cores read ends up in both L2s, and
// L2 victims move into the L3.
TEST(HostCaches, Zen4HierarchySimulates) {
    Fixture f = load("amd_zen4.txt");
    Detected d = detect(f);
    ASSERT_TRUE(d.ok) << d.error;
    CoherentMachine m;
    ErrorText err;
    error_clear(err);
    ASSERT_TRUE(m.init(d.cfg, 2, test::kHeap, err)) << err.text;
    EXPECT_EQ(m.private_levels(), 2);
    const u64 all = ~0ull;
    EXPECT_EQ(m.access(0, kRead, 100, all) & kDepthMask, 3u);  // from memory (depth = levels)
    m.access(1, kRead, 100, all);
    EXPECT_TRUE(m.contains(1, 1, false, 100, nullptr));  // in core 1's inclusive L2
    // Fill core 0's L2 set of block 100 (2048 sets, 8 ways) to evict it.
    for (u64 i = 1; i <= 16; ++i) m.access(0, kRead, 100 + i * 2048, all);
    EXPECT_GT(m.total_stats(2, false).victims_in, 0u);
    m.destroy();
}

}  // namespace

// The builder starts --machine=host from the detected hierarchy and keeps
// its number of private levels while the levels are unchanged (a
// single-cpu host: every level private), else the usual default.
TEST(HostCaches, BuilderKeepsDetectedPrivateLevels) {
    HierarchyConfig host;
    ASSERT_TRUE(machine_preset("desktop", host));
    host.private_levels = 3;
    test::Build r = test::build({"--machine=host"}, nullptr, "test.cfg", &host);
    ASSERT_TRUE(r.ok) << r.err;
    EXPECT_EQ(r.cfg.private_levels, 3u);
    r = test::build({"--machine=host", "--L3=none"}, nullptr, "test.cfg", &host);
    ASSERT_TRUE(r.ok) << r.err;
    EXPECT_EQ(r.cfg.private_levels, 1u);
    r = test::build({"--machine=host", "--private-levels=2"}, nullptr, "test.cfg", &host);
    ASSERT_TRUE(r.ok) << r.err;
    EXPECT_EQ(r.cfg.private_levels, 2u);
    r = test::build({"--machine=host"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.err, "--machine=host: the host's caches were not detected");
}
