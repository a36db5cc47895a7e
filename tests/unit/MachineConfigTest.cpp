// Presets, parse_size, the cache options and --cache-config files
// (cachesim/MachineConfig.h, docs/cache-config.md).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "BuilderSupport.h"
#include "MachineConfig.h"

using namespace ompsim;
using namespace ompsim::test;

namespace {

bool size_of(const char* s, u64& out) { return parse_size(s, std::strlen(s), out); }

OptResult offer(const char* arg) {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    return builder_option(b, arg, err);
}

std::string file_error(const char* text, const char* name = "my.cfg") {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    EXPECT_FALSE(builder_config_text(b, name, text, std::strlen(text), err)) << text;
    return err.text;
}

void expect_level(const LevelConfig& l, u64 size, u32 assoc, u32 line, u32 latency) {
    EXPECT_EQ(l.size, size);
    EXPECT_EQ(l.assoc, assoc);
    EXPECT_EQ(l.line, line);
    EXPECT_EQ(l.latency, latency);
    EXPECT_EQ(l.replacement, Replacement::LRU);
    EXPECT_EQ(l.write, WritePolicy::WriteBack);
    EXPECT_EQ(l.inclusion, Inclusion::NonInclusive);
}

bool same_level(const LevelConfig& a, const LevelConfig& b) {
    return a.size == b.size && a.assoc == b.assoc && a.line == b.line &&
           a.replacement == b.replacement && a.write == b.write &&
           a.inclusion == b.inclusion && a.latency == b.latency;
}

// Field by field (memcmp would compare padding).
bool same(const HierarchyConfig& a, const HierarchyConfig& b) {
    if (a.levels != b.levels || a.split_l1 != b.split_l1 || a.icache != b.icache ||
        a.cachegrind != b.cachegrind || a.random_seed != b.random_seed ||
        a.memory_latency != b.memory_latency || a.cpi_x100 != b.cpi_x100)
        return false;
    if (a.split_l1 && !same_level(a.i1, b.i1)) return false;
    for (int k = 0; k < a.levels; ++k)
        if (!same_level(a.level[k], b.level[k])) return false;
    return true;
}

constexpr u64 KiB = 1024;
constexpr u64 MiB = 1024 * 1024;

}  // namespace

// --- parse_size -----------------------------------------------------------

TEST(ParseSize, Valid) {
    struct Case {
        const char* s;
        u64 v;
    };
    const Case cases[] = {
        {"0", 0},
        {"1", 1},
        {"32768", 32768},
        {"32K", 32768},
        {"32k", 32768},
        {"32KiB", 32768},
        {"32KB", 32768},
        {"32kB", 32768},
        {"64B", 64},
        {"1.25M", 1310720},
        {"1.25m", 1310720},
        {"1.25MiB", 1310720},
        {"2MiB", 2 * MiB},
        {"2MB", 2 * MiB},
        {"1G", 1024 * MiB},
        {"1GiB", 1024 * MiB},
        {"1T", u64(1) << 40},
        {"0.5K", 512},
        {"0.0009765625K", 1},
        {"32.0", 32},
        {"32.000K", 32768},
        {"30M", 30 * MiB},
        {"007", 7},
        {"18446744073709551615", ~u64(0)},
        {"16777215T", (u64(16777215) << 40)},
        {"17179869183.75G", ~u64(0) - (u64(1) << 28) + 1},
    };
    for (const Case& c : cases) {
        u64 v = 12345;
        EXPECT_TRUE(size_of(c.s, v)) << c.s;
        EXPECT_EQ(v, c.v) << c.s;
    }
}

TEST(ParseSize, Invalid) {
    const char* cases[] = {
        "",     "-1",   "+1",    "12Q",   "1.3K",  "1.5",   "1.",    ".5",   "1.K",
        "K",    "32 K", " 32",   "32K ",  "32KiBx", "32Ki", "32iB",  "32KBB", "32b",
        "32kib", "1,5K", "0x10", "99999999999999999999", "18446744073709551616",
        "16777216T", "17179869184G", "1.00000000000000000000000000000000000000000001T",
        "0.1B", "1e3",
    };
    for (const char* s : cases) {
        u64 v = 777;
        EXPECT_FALSE(size_of(s, v)) << "'" << s << "'";
        EXPECT_EQ(v, 777u) << s;  // untouched on failure
    }
}

TEST(ParseSize, UsesLengthNotTerminator) {
    u64 v = 0;
    EXPECT_TRUE(parse_size("32Kxyz", 3, v));
    EXPECT_EQ(v, 32 * KiB);
    EXPECT_FALSE(parse_size("32Kxyz", 4, v));
    EXPECT_FALSE(parse_size(nullptr, 0, v));
}

TEST(ParseSize, ExactFractions) {
    u64 v = 0;
    // 2^-20 T = 1 MiB: a long fraction that is still whole bytes.
    EXPECT_TRUE(size_of("0.00000095367431640625T", v));
    EXPECT_EQ(v, MiB);
    EXPECT_TRUE(size_of("0.00000095367431640625000000000000000000000000T", v));
    EXPECT_EQ(v, MiB);
    EXPECT_FALSE(size_of("0.00000095367431640626T", v));
    EXPECT_TRUE(size_of("0.001953125K", v));  // 2 bytes
    EXPECT_EQ(v, 2u);
    EXPECT_FALSE(size_of("0.0009765625", v));
}

// --- Presets --------------------------------------------------------------

TEST(Presets, Names) {
    const char* const* n = machine_preset_names();
    ASSERT_NE(n, nullptr);
    std::vector<std::string> names;
    for (; *n; ++n) names.push_back(*n);
    EXPECT_EQ(names, (std::vector<std::string>{"cachegrind", "desktop", "golden-cove", "host",
                                               "sapphire-rapids", "teaching", "zen3", "zen4",
                                               "zen5"}));
    HierarchyConfig c;
    EXPECT_FALSE(machine_preset("laptop", c));
    EXPECT_FALSE(machine_preset("", c));
    EXPECT_FALSE(machine_preset("Desktop", c));
    EXPECT_FALSE(machine_preset(nullptr, c));
}

TEST(Presets, AllValidate) {
    for (const char* const* n = machine_preset_names(); *n; ++n) {
        HierarchyConfig c;
        if (std::string(*n) == "host") {  // detected at run time, not a preset
            EXPECT_FALSE(machine_preset(*n, c));
            continue;
        }
        ASSERT_TRUE(machine_preset(*n, c)) << *n;
        ErrorText err;
        error_clear(err);
        EXPECT_TRUE(validate(c, err)) << *n << ": " << err.text;
    }
}

TEST(Presets, Desktop) {
    HierarchyConfig c;
    ASSERT_TRUE(machine_preset("desktop", c));
    EXPECT_FALSE(c.cachegrind);
    EXPECT_EQ(c.levels, 3);
    EXPECT_TRUE(c.split_l1);
    expect_level(c.i1, 32 * KiB, 8, 64, 5);
    expect_level(c.level[0], 48 * KiB, 12, 64, 5);
    expect_level(c.level[1], 1280 * KiB, 10, 64, 15);
    expect_level(c.level[2], 30 * MiB, 12, 64, 65);
    EXPECT_EQ(c.level[2].size / (c.level[2].line * c.level[2].assoc), 40960u);
    EXPECT_EQ(c.memory_latency, 250u);
    EXPECT_EQ(c.cpi_x100, 100u);
    EXPECT_TRUE(c.icache);
    EXPECT_EQ(c.random_seed, 1u);
}

TEST(Presets, Cachegrind) {
    HierarchyConfig c;
    ASSERT_TRUE(machine_preset("cachegrind", c));
    EXPECT_TRUE(c.cachegrind);
    EXPECT_EQ(c.levels, 2);
    EXPECT_TRUE(c.split_l1);
    expect_level(c.i1, 32 * KiB, 8, 64, 1);
    expect_level(c.level[0], 32 * KiB, 8, 64, 1);
    expect_level(c.level[1], 8 * MiB, 16, 64, 10);
    EXPECT_EQ(c.memory_latency, 100u);
    EXPECT_EQ(c.cpi_x100, 100u);
    EXPECT_TRUE(c.icache);
    EXPECT_EQ(c.random_seed, 1u);
}

TEST(Presets, Teaching) {
    HierarchyConfig c;
    ASSERT_TRUE(machine_preset("teaching", c));
    EXPECT_FALSE(c.cachegrind);
    EXPECT_EQ(c.levels, 2);
    EXPECT_TRUE(c.split_l1);
    expect_level(c.i1, 4 * KiB, 2, 64, 4);
    expect_level(c.level[0], 4 * KiB, 2, 64, 4);
    expect_level(c.level[1], 64 * KiB, 8, 64, 12);
    EXPECT_EQ(c.memory_latency, 100u);
    EXPECT_EQ(c.cpi_x100, 100u);
    EXPECT_TRUE(c.icache);
}

TEST(Builder, DefaultIsDesktop) {
    HierarchyConfig d;
    ASSERT_TRUE(machine_preset("desktop", d));
    HierarchyConfig c = ok({});
    EXPECT_TRUE(same(c, d));
}

// --- Which arguments are cache options ------------------------------------

TEST(Options, NotMine) {
    const char* args[] = {"--tool=ompsim", "--verbose", "-v", "L2=1M,8,64", "-L2=1M,8,64",
                          "--L5=1M,8,64", "--L2x=1", "--L2-foo=1", "--LLLL-latency=3", "--LLL=1M,8,64",
                          "--machines=desktop", "--l2=1M,8,64", "--L1-Unified=yes", "",
                          "--", "--=3", "--L2 =1M,8,64", "--cpu=1"};
    for (const char* a : args) EXPECT_EQ(offer(a), OptResult::NotMine) << a;
    EXPECT_EQ(offer(nullptr), OptResult::NotMine);
}

TEST(Options, NeedAValue) {
    EXPECT_EQ(option_error("--L2"), "--L2: needs a value (--L2=...)");
    EXPECT_EQ(option_error("--machine"), "--machine: needs a value (--machine=...)");
    EXPECT_EQ(option_error("--cache-config"), "--cache-config: needs a value (--cache-config=...)");
    EXPECT_EQ(option_error("--LL-latency"), "--LL-latency: needs a value (--LL-latency=...)");
}

TEST(Options, AllValidOnesAreAccepted) {
    const char* args[] = {
        "--machine=desktop", "--machine=cachegrind", "--machine=teaching",
        "--cache-config=x.cfg",
        "--L1=32K,8,64", "--L1I=32K,8,64", "--I1=32K,8,64", "--L1D=48K,12,64",
        "--D1=48K,12,64", "--L2=1M,8,64", "--L3=8M,full,64", "--L4=none", "--LL=8M,16,64",
        "--L2=none", "--L3=NONE", "--L1-unified=yes", "--L1-unified=no",
        "--L1-replacement=lru", "--L1I-replacement=FIFO", "--I1-replacement=plru",
        "--L1D-replacement=random", "--D1-replacement=lru", "--L2-replacement=fifo",
        "--L3-replacement=plru", "--L4-replacement=random", "--LL-replacement=lru",
        "--LLL-replacement=lru",
        "--L2-write=wb", "--L2-write=write-back", "--L2-write=wt", "--L2-write=write-through",
        "--L3-inclusion=nine", "--L3-inclusion=non-inclusive", "--L3-inclusion=inclusive",
        "--L3-inclusion=exclusive", "--L3-inclusion=victim", "--L2-latency=0",
        "--L2-latency=4294967295", "--memory-latency=300", "--cpi=1", "--cpi=0.5",
        "--cpi=1.25", "--cpi=0", "--cpi=42949672.95", "--icache=yes", "--icache=no",
        "--random-seed=0", "--random-seed=18446744073709551615", "--L2= 1M , 8 , 64 ",
    };
    for (const char* a : args) EXPECT_EQ(offer(a), OptResult::Ok) << a;
}

TEST(Options, Machine) {
    EXPECT_EQ(option_error("--machine=laptop"),
              "--machine: unknown machine 'laptop' (valid: cachegrind, desktop, golden-cove, "
              "host, sapphire-rapids, teaching, zen3, zen4, zen5)");
    EXPECT_EQ(option_error("--machine="),
              "--machine: unknown machine '' (valid: cachegrind, desktop, golden-cove, host, "
              "sapphire-rapids, teaching, zen3, zen4, zen5)");
    HierarchyConfig c = ok({"--machine=teaching"});
    EXPECT_EQ(c.level[1].size, 64 * KiB);
    c = ok({"--machine=teaching", "--machine=cachegrind"});  // last wins
    EXPECT_TRUE(c.cachegrind);
}

TEST(Options, GeometrySyntax) {
    EXPECT_EQ(option_error("--L2=1M,8"), "--L2: '1M,8' is not SIZE,ASSOC,LINE (e.g. 1M,8,64) or none");
    EXPECT_EQ(option_error("--L2=1M,8,64,1"),
              "--L2: '1M,8,64,1' is not SIZE,ASSOC,LINE (e.g. 1M,8,64) or none");
    EXPECT_EQ(option_error("--L2="), "--L2: '' is not SIZE,ASSOC,LINE (e.g. 1M,8,64) or none");
    EXPECT_EQ(option_error("--LL=1M"), "--LL: '1M' is not SIZE,ASSOC,LINE (e.g. 1M,8,64)");
    EXPECT_EQ(option_error("--L2=1Q,8,64"), "--L2: bad size '1Q' (e.g. 32768, 32K, 1.25M, 2MiB)");
    EXPECT_EQ(option_error("--L2=1.3K,8,64"),
              "--L2: bad size '1.3K' (e.g. 32768, 32K, 1.25M, 2MiB)");
    EXPECT_EQ(option_error("--L2=-1,8,64"), "--L2: bad size '-1' (e.g. 32768, 32K, 1.25M, 2MiB)");
    EXPECT_EQ(option_error("--L2=,8,64"), "--L2: bad size '' (e.g. 32768, 32K, 1.25M, 2MiB)");
    EXPECT_EQ(option_error("--L2=99999999999999999999,8,64"),
              "--L2: bad size '99999999999999999999' (e.g. 32768, 32K, 1.25M, 2MiB)");
    EXPECT_EQ(option_error("--L2=1M,eight,64"),
              "--L2: bad associativity 'eight' (a number of ways or full)");
    EXPECT_EQ(option_error("--L2=1M,-8,64"),
              "--L2: bad associativity '-8' (a number of ways or full)");
    EXPECT_EQ(option_error("--L2=1M,4294967296,64"),
              "--L2: bad associativity '4294967296' (a number of ways or full)");
    EXPECT_EQ(option_error("--L2=1M,8,64x"), "--L2: bad line size '64x' (a number of bytes, e.g. 64)");
    EXPECT_EQ(option_error("--L2=1M,8,4294967296"),
              "--L2: bad line size '4294967296' (a number of bytes, e.g. 64)");
    EXPECT_EQ(option_error("--L3=1T,full,16"),
              "--L3: full associativity gives 68719476736 ways, more than 4294967295");
    EXPECT_EQ(option_error("--L1=none"), "--L1: 'none' is accepted for L2, L3 and L4 only");
    EXPECT_EQ(option_error("--LL=none"), "--LL: 'none' is accepted for L2, L3 and L4 only");
    EXPECT_EQ(option_error("--I1=none"), "--I1: 'none' is accepted for L2, L3 and L4 only");
}

TEST(Options, GeometryValues) {
    HierarchyConfig c = ok({"--L2=2MiB, 16 ,64", "--L1D=64K,16,64", "--I1=16K,4,64"});
    EXPECT_EQ(c.level[1].size, 2 * MiB);
    EXPECT_EQ(c.level[1].assoc, 16u);
    EXPECT_EQ(c.level[1].latency, 15u);  // policies and latency are kept
    EXPECT_EQ(c.level[0].size, 64 * KiB);
    EXPECT_EQ(c.level[0].assoc, 16u);
    EXPECT_EQ(c.i1.size, 16 * KiB);
    EXPECT_EQ(c.i1.assoc, 4u);

    c = ok({"--L1=64K,8,64"});
    EXPECT_EQ(c.i1.size, 64 * KiB);
    EXPECT_EQ(c.level[0].size, 64 * KiB);
    c = ok({"--L1D=16K,4,64", "--D1=8K,2,64", "--L1I=8K,2,64"});
    EXPECT_EQ(c.level[0].size, 8 * KiB);
    EXPECT_EQ(c.i1.size, 8 * KiB);

    c = ok({"--L3=16M,full,64"});
    EXPECT_EQ(c.level[2].assoc, 16u * 1024 * 1024 / 64);
    c = ok({"--LL=16M,16,64"});
    EXPECT_EQ(c.level[2].size, 16 * MiB);
    c = ok({"--machine=teaching", "--LL=128K,8,64"});
    EXPECT_EQ(c.level[1].size, 128 * KiB);
}

TEST(Options, GeometryRulesAreCheckedAtFinish) {
    // Syntax is fine, so builder_option accepts; validate() rejects.
    EXPECT_EQ(offer("--L2=1000000,8,64"), OptResult::Ok);
    EXPECT_EQ(fails({"--L2=1000000,8,64"}),
              "L2: 1000000 B is not a multiple of line size x associativity (64 x 8)");
    EXPECT_EQ(offer("--L2=0,8,64"), OptResult::Ok);
    EXPECT_EQ(fails({"--L2=0,8,64"}), "L2: size must not be 0");
    EXPECT_EQ(fails({"--L2=1M,8,128"}),
              "L2: line size 128 B differs from the 64 B of I1; general hierarchies need one "
              "line size at every level; use --machine=cachegrind for Cachegrind's mixed sizes");
    EXPECT_EQ(fails({"--L1D=48K,full,0"}),
              "D1: line size 0 B is not a power of two between 16 and 4096");
    EXPECT_EQ(fails({"--machine=cachegrind", "--LL=12M,16,64"}),
              "LL: the set count 12288 is not a power of two (Cachegrind requires one)");
}

TEST(Options, AddingAndRemovingLevels) {
    // Adding L3 to the two-level teaching machine.
    HierarchyConfig c = ok({"--machine=teaching", "--L3=1M,16,64"});
    EXPECT_EQ(c.levels, 3);
    expect_level(c.level[2], 1 * MiB, 16, 64, 65);
    c = ok({"--machine=teaching", "--L3=1M,16,64", "--L4=8M,16,64"});
    EXPECT_EQ(c.levels, 4);
    expect_level(c.level[3], 8 * MiB, 16, 64, 120);
    c = ok({"--machine=teaching", "--L3=1M,16,64", "--LL=2M,16,64"});
    EXPECT_EQ(c.level[2].size, 2 * MiB);
    EXPECT_EQ(c.level[1].size, 64 * KiB);

    EXPECT_EQ(fails({"--machine=teaching", "--L4=8M,16,64"}),
              "--L4: cannot add L4: there is no L3 (the hierarchy has 2 levels)");

    // Removing.
    c = ok({"--L3=none"});
    EXPECT_EQ(c.levels, 2);
    c = ok({"--L2=none"});
    EXPECT_EQ(c.levels, 1);
    c = ok({"--L4=none"});  // nothing to remove
    EXPECT_EQ(c.levels, 3);
    c = ok({"--L2=none", "--LL=1M,8,64"});  // LL is now level 1 (I1 and D1)
    EXPECT_EQ(c.levels, 1);
    EXPECT_EQ(c.i1.size, 1 * MiB);
    EXPECT_EQ(c.level[0].size, 1 * MiB);
    EXPECT_EQ(fails({"--L2=none", "--L3=8M,16,64"}),
              "--L3: cannot add L3: there is no L2 (the hierarchy has 1 level)");

    // Removing then re-adding gives a fresh level with default policies.
    c = ok({"--L3-replacement=fifo", "--L3=none", "--L3=4M,16,64"});
    EXPECT_EQ(c.levels, 3);
    expect_level(c.level[2], 4 * MiB, 16, 64, 65);
    c = ok({"--L2=none", "--L2=512K,8,64"});
    expect_level(c.level[1], 512 * KiB, 8, 64, 15);

    // A third level is not Cachegrind's model.
    EXPECT_EQ(fails({"--machine=cachegrind", "--L3=16M,16,64"}),
              "cachegrind mode needs exactly 2 levels (I1/D1 and LL), not 3");
}

TEST(Options, Unified) {
    HierarchyConfig c = ok({"--L1-unified=yes"});
    EXPECT_FALSE(c.split_l1);
    EXPECT_EQ(c.level[0].size, 48 * KiB);  // D1 becomes L1
    c = ok({"--L1-unified=yes", "--L1=64K,8,64"});
    EXPECT_EQ(c.level[0].size, 64 * KiB);
    c = ok({"--L1-unified=yes", "--L1=64K,8,64", "--L1-unified=no"});
    EXPECT_TRUE(c.split_l1);
    EXPECT_EQ(c.i1.size, 64 * KiB);  // I1 starts as a copy of L1
    EXPECT_EQ(c.level[0].size, 64 * KiB);
    EXPECT_EQ(option_error("--L1-unified=maybe"), "--L1-unified: 'maybe' is not yes or no");
    EXPECT_EQ(option_error("--L1-unified=YES"), "--L1-unified: 'YES' is not yes or no");
    EXPECT_EQ(fails({"--L1-unified=yes", "--I1=32K,8,64"}),
              "--I1: level 1 is unified (set L1-unified to no first, or use L1)");
    EXPECT_EQ(fails({"--L1-unified=yes", "--L1D-latency=3"}),
              "--L1D-latency: level 1 is unified (set L1-unified to no first, or use L1)");
    EXPECT_EQ(fails({"--machine=cachegrind", "--L1-unified=yes"}),
              "cachegrind mode needs a split level 1 (I1 and D1), not a unified L1");
}

TEST(Options, Policies) {
    HierarchyConfig c = ok({"--L1-replacement=fifo", "--L2-write=wt", "--L3-inclusion=inclusive",
                            "--L2-latency=20", "--LL-latency=70"});
    EXPECT_EQ(c.i1.replacement, Replacement::FIFO);
    EXPECT_EQ(c.level[0].replacement, Replacement::FIFO);
    EXPECT_EQ(c.level[1].write, WritePolicy::WriteThrough);
    EXPECT_EQ(c.level[2].inclusion, Inclusion::Inclusive);
    EXPECT_EQ(c.level[1].latency, 20u);
    EXPECT_EQ(c.level[2].latency, 70u);

    c = ok({"--D1=32K,8,64", "--I1-replacement=random", "--L1D-replacement=plru", "--D1-latency=4",
            "--L1I-latency=3", "--L3-replacement=PLRU", "--L3=32M,16,64"});
    EXPECT_EQ(c.i1.replacement, Replacement::Random);
    EXPECT_EQ(c.level[0].replacement, Replacement::PLRU);
    EXPECT_EQ(c.i1.latency, 3u);
    EXPECT_EQ(c.level[0].latency, 4u);
    EXPECT_EQ(c.level[2].replacement, Replacement::PLRU);

    c = ok({"--L3-inclusion=victim", "--L2-inclusion=nine", "--L2-write=write-through",
            "--L2-write=write-back"});
    EXPECT_EQ(c.level[2].inclusion, Inclusion::Exclusive);
    EXPECT_EQ(c.level[1].inclusion, Inclusion::NonInclusive);
    EXPECT_EQ(c.level[1].write, WritePolicy::WriteBack);

    // The level must exist when the setting is applied.
    EXPECT_EQ(fails({"--L4-latency=100"}), "--L4-latency: there is no L4 (the hierarchy has 3 levels)");
    EXPECT_EQ(fails({"--machine=teaching", "--L3-inclusion=inclusive"}),
              "--L3-inclusion: there is no L3 (the hierarchy has 2 levels)");
    EXPECT_EQ(fails({"--L2=none", "--L2-write=wt"}),
              "--L2-write: there is no L2 (the hierarchy has 1 level)");

    // Semantic errors come from validate().
    EXPECT_EQ(fails({"--L1-inclusion=inclusive"}), "I1: level 1 must be non-inclusive, not inclusive");
    EXPECT_EQ(fails({"--L3-replacement=plru"}),
              "L3: plru replacement needs a power-of-two associativity, not 12");
    EXPECT_EQ(fails({"--L3-inclusion=exclusive", "--L3-write=wt"}),
              "L3: an exclusive level must be write-back, not write-through");
    EXPECT_EQ(fails({"--machine=cachegrind", "--LL-replacement=fifo"}),
              "LL: Cachegrind's model is fixed (lru, write-back, non-inclusive); fifo "
              "replacement is not available with --machine=cachegrind");

    EXPECT_EQ(option_error("--L2-replacement=mru"),
              "--L2-replacement: 'mru' is not lru, fifo, plru or random");
    EXPECT_EQ(option_error("--L2-write=copy-back"),
              "--L2-write: 'copy-back' is not write-back (wb) or write-through (wt)");
    EXPECT_EQ(option_error("--L2-inclusion=mostly"),
              "--L2-inclusion: 'mostly' is not non-inclusive (nine), inclusive or exclusive (victim)");
    EXPECT_EQ(option_error("--L2-latency=-1"),
              "--L2-latency: '-1' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(option_error("--L2-latency=4294967296"),
              "--L2-latency: '4294967296' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(option_error("--L2-latency="),
              "--L2-latency: '' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(option_error("--L2-latency=12c"),
              "--L2-latency: '12c' is not a number of cycles (0 to 4294967295)");
}

TEST(Options, GlobalNumbers) {
    HierarchyConfig c = ok({"--memory-latency=300", "--cpi=0.75", "--icache=no",
                            "--random-seed=18446744073709551615"});
    EXPECT_EQ(c.memory_latency, 300u);
    EXPECT_EQ(c.cpi_x100, 75u);
    EXPECT_FALSE(c.icache);
    EXPECT_EQ(c.random_seed, ~u64(0));

    struct Cpi {
        const char* arg;
        u32 x100;
    };
    const Cpi cpis[] = {{"--cpi=1", 100}, {"--cpi=0.5", 50}, {"--cpi=1.25", 125},
                        {"--cpi=2.0", 200}, {"--cpi=0.05", 5}, {"--cpi=0", 0},
                        {"--cpi=42949672.95", 4294967295u}};
    for (const Cpi& p : cpis) EXPECT_EQ(ok({p.arg}).cpi_x100, p.x100) << p.arg;

    const char* bad_cpi[] = {"1.234", "1.", ".5", "-1", "", "1,5", "1.5x", "42949672.96",
                             "99999999999999999999", "1e2"};
    for (const char* v : bad_cpi) {
        std::string arg = std::string("--cpi=") + v;
        EXPECT_EQ(option_error(arg.c_str()),
                  std::string("--cpi: '") + v +
                      "' is not a number with at most 2 decimals (e.g. 1, 0.5, 1.25; at most "
                      "42949672.95)");
    }
    EXPECT_EQ(option_error("--memory-latency=-5"),
              "--memory-latency: '-5' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(option_error("--memory-latency=99999999999"),
              "--memory-latency: '99999999999' is not a number of cycles (0 to 4294967295)");
    EXPECT_EQ(option_error("--random-seed=18446744073709551616"),
              "--random-seed: '18446744073709551616' is not a number (0 to 18446744073709551615)");
    EXPECT_EQ(option_error("--random-seed=-1"),
              "--random-seed: '-1' is not a number (0 to 18446744073709551615)");
    EXPECT_EQ(option_error("--random-seed=0x10"),
              "--random-seed: '0x10' is not a number (0 to 18446744073709551615)");
    EXPECT_EQ(option_error("--icache=1"), "--icache: '1' is not yes or no");
}

TEST(Options, LongValuesAreShortenedInMessages) {
    std::string arg = "--L2-replacement=" + std::string(100, 'x');
    EXPECT_EQ(option_error(arg.c_str()),
              "--L2-replacement: '" + std::string(48, 'x') + "...' is not lru, fifo, plru or random");
}

// A message is one line: control characters of echoed text print as '?'.
TEST(Options, ControlCharactersAreEchoedAsQuestionMarks) {
    EXPECT_EQ(option_error("--L2=1\nM,8,64"), "--L2: bad size '1?M' (e.g. 32768, 32K, 1.25M, 2MiB)");
    EXPECT_EQ(option_error("--L2-replacement=l\tr\x7fu"),
              "--L2-replacement: 'l?r?u' is not lru, fifo, plru or random");
    EXPECT_EQ(file_error("L2 = 1M, e\x01ight, 64\n", "lab\n.cfg"),
              "lab?.cfg:1: L2: bad associativity 'e?ight' (a number of ways or full)");
}

TEST(Options, AtMost64Overrides) {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    for (int i = 0; i < kMaxCacheOptions; ++i)
        ASSERT_EQ(builder_option(b, "--L2-latency=16", err), OptResult::Ok);
    // --machine and --cache-config are not overrides and do not count.
    EXPECT_EQ(builder_option(b, "--machine=teaching", err), OptResult::Ok);
    EXPECT_EQ(builder_option(b, "--cache-config=a.cfg", err), OptResult::Ok);
    EXPECT_EQ(builder_option(b, "--L2-latency=17", err), OptResult::Error);
    EXPECT_STREQ(err.text, "--L2-latency: too many cache options (at most 64)");
}

TEST(Options, LLLSpelling) {
    // "--L<k>-..." with k = LL is accepted as well as "--LL-...".
    HierarchyConfig c = ok({"--LLL-latency=70", "--LLL-inclusion=inclusive"});
    EXPECT_EQ(c.level[2].latency, 70u);
    EXPECT_EQ(c.level[2].inclusion, Inclusion::Inclusive);
}

TEST(Builder, MachineName) {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    EXPECT_STREQ(builder_machine_name(b), "desktop");
    const char* text = "machine = teaching\n";
    ASSERT_TRUE(builder_config_text(b, "f", text, std::strlen(text), err));
    EXPECT_STREQ(builder_machine_name(b), "teaching");
    std::string arg = "--machine=cachegrind";
    ASSERT_EQ(builder_option(b, arg.c_str(), err), OptResult::Ok);
    const char* name = builder_machine_name(b);
    EXPECT_STREQ(name, "cachegrind");
    EXPECT_NE(name, arg.c_str() + 10);  // static storage, not the argument
}

// --- Order of application -------------------------------------------------

TEST(Order, PresetThenFileThenOptions) {
    // --machine after --L2 still selects the preset first.
    HierarchyConfig c = ok({"--L2=256K,8,64", "--machine=teaching"});
    EXPECT_EQ(c.level[1].size, 256 * KiB);
    EXPECT_EQ(c.level[0].size, 4 * KiB);
    EXPECT_EQ(c.levels, 2);

    // Options later on the command line override earlier ones.
    c = ok({"--L2-latency=20", "--L2-latency=30"});
    EXPECT_EQ(c.level[1].latency, 30u);

    // The command line overrides the file, whatever the order of the calls.
    const char* file = "L2 = 2M, 16, 64\nL2-latency = 18\nmemory-latency = 200\n";
    c = ok({"--L2-latency=22"}, file);
    EXPECT_EQ(c.level[1].size, 2 * MiB);
    EXPECT_EQ(c.level[1].latency, 22u);
    EXPECT_EQ(c.memory_latency, 200u);

    // The file's machine is the preset unless --machine is given.
    c = ok({}, "L2-latency = 9\nmachine = teaching\n");
    EXPECT_EQ(c.level[0].size, 4 * KiB);
    EXPECT_EQ(c.level[1].latency, 9u);
    c = ok({"--machine=cachegrind"}, "machine = teaching\n");
    EXPECT_TRUE(c.cachegrind);
    c = ok({}, "machine = teaching\nmachine = cachegrind\n");
    EXPECT_TRUE(c.cachegrind);

    // File settings apply in file order.
    c = ok({}, "L3 = none\nL3 = 4M, 16, 64\n");
    EXPECT_EQ(c.levels, 3);
    EXPECT_EQ(c.level[2].size, 4 * MiB);
}

// --- --cache-config and configuration files --------------------------------

TEST(ConfigFile, PathIsStored) {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    EXPECT_EQ(builder_config_path(b), nullptr);
    const char* arg = "--cache-config=/tmp/my machine.cfg";
    EXPECT_EQ(builder_option(b, arg, err), OptResult::Ok);
    EXPECT_STREQ(builder_config_path(b), "/tmp/my machine.cfg");
    EXPECT_EQ(builder_config_path(b), arg + 15);  // points into the argument
    EXPECT_EQ(option_error("--cache-config="), "--cache-config: needs a file name");

    // Finishing without the file's text is an error.
    HierarchyConfig c;
    EXPECT_FALSE(builder_finish(b, c, err));
    EXPECT_STREQ(err.text, "--cache-config: the text of '/tmp/my machine.cfg' was not loaded");
    const char* text = "L2-latency = 7\n";
    ASSERT_TRUE(builder_config_text(b, "/tmp/my machine.cfg", text, std::strlen(text), err));
    ASSERT_TRUE(builder_finish(b, c, err)) << err.text;
    EXPECT_EQ(c.level[1].latency, 7u);
}

TEST(ConfigFile, FullSyntax) {
    const char* file =
        "\xEF\xBB\xBF# A machine for the lab.\r\n"
        "\r\n"
        "machine = desktop   # the base\r\n"
        "   L1-unified=no\n"
        "L1D = 32K,8,64\n"
        "L2 = 1M , 8 ,64\n"
        "\t\n"
        "L3 = 16MiB, 16, 64\n"
        "L3-inclusion = inclusive\n"
        "L3-replacement = plru\n"
        "LL-latency = 60\n"
        "L4 = 64M, 16, 64\n"
        "L4-write = write-through\n"
        "I1-latency = 4\n"
        "memory-latency = 300\n"
        "cpi = 0.8\n"
        "icache = no\n"
        "random-seed = 42\n"
        "#L2 = garbage, which is ignored\n"
        "   # indented comment\n"
        "L2-replacement = fifo";  // no final newline
    HierarchyConfig c = ok({}, file);
    EXPECT_EQ(c.levels, 4);
    EXPECT_EQ(c.level[0].size, 32 * KiB);
    EXPECT_EQ(c.level[1].size, 1 * MiB);
    EXPECT_EQ(c.level[1].assoc, 8u);
    EXPECT_EQ(c.level[1].replacement, Replacement::FIFO);
    EXPECT_EQ(c.level[2].size, 16 * MiB);
    EXPECT_EQ(c.level[2].inclusion, Inclusion::Inclusive);
    EXPECT_EQ(c.level[2].replacement, Replacement::PLRU);
    EXPECT_EQ(c.level[2].latency, 60u);
    EXPECT_EQ(c.level[3].size, 64 * MiB);
    EXPECT_EQ(c.level[3].latency, 120u);
    EXPECT_EQ(c.level[3].write, WritePolicy::WriteThrough);
    EXPECT_EQ(c.i1.latency, 4u);
    EXPECT_EQ(c.memory_latency, 300u);
    EXPECT_EQ(c.cpi_x100, 80u);
    EXPECT_FALSE(c.icache);
    EXPECT_EQ(c.random_seed, 42u);
}

TEST(ConfigFile, FullSyntaxPolicies) {
    const char* file =
        "L4 = 64M, 16, 64\n"
        "L4-write = write-through\n"
        "I1-latency = 4\n"
        "memory-latency = 300\n"
        "cpi = 0.8\n"
        "icache = no\n"
        "random-seed = 42\n";
    HierarchyConfig c = ok({}, file);
    EXPECT_EQ(c.level[3].write, WritePolicy::WriteThrough);
    EXPECT_EQ(c.i1.latency, 4u);
    EXPECT_EQ(c.level[0].latency, 5u);
    EXPECT_EQ(c.memory_latency, 300u);
    EXPECT_EQ(c.cpi_x100, 80u);
    EXPECT_FALSE(c.icache);
    EXPECT_EQ(c.random_seed, 42u);
}

TEST(ConfigFile, EmptyFiles) {
    HierarchyConfig d;
    ASSERT_TRUE(machine_preset("desktop", d));
    HierarchyConfig c = ok({}, "");
    EXPECT_TRUE(same(c, d));
    c = ok({}, "# nothing\n\n   \n");
    EXPECT_TRUE(same(c, d));
}

TEST(ConfigFile, SyntaxErrors) {
    EXPECT_EQ(file_error("# hi\nL2 = 1M,8,64\nfoo = 3\n"), "my.cfg:3: unknown setting 'foo'");
    EXPECT_EQ(file_error("--L2 = 1M,8,64\n"), "my.cfg:1: unknown setting '--L2'");
    EXPECT_EQ(file_error("L2 1M,8,64\n"), "my.cfg:1: expected 'key = value', got 'L2 1M,8,64'");
    EXPECT_EQ(file_error("\n\n = 5   # comment\n"), "my.cfg:3: expected 'key = value', got '= 5'");
    EXPECT_EQ(file_error("cache-config = other.cfg\n"),
              "my.cfg:1: cache-config cannot be used inside a configuration file");
    EXPECT_EQ(file_error("L2 = 1M,8\n"), "my.cfg:1: L2: '1M,8' is not SIZE,ASSOC,LINE (e.g. 1M,8,64) or none");
    EXPECT_EQ(file_error("\r\n\r\nL2 = 1.3K, 8, 64\r\n"),
              "my.cfg:3: L2: bad size '1.3K' (e.g. 32768, 32K, 1.25M, 2MiB)");
    EXPECT_EQ(file_error("machine = laptop\n"),
              "my.cfg:1: machine: unknown machine 'laptop' (valid: cachegrind, desktop, "
              "golden-cove, host, sapphire-rapids, teaching, zen3, zen4, zen5)");
    EXPECT_EQ(file_error("L3-inclusion = sometimes\n", "lab/x.cfg"),
              "lab/x.cfg:1: L3-inclusion: 'sometimes' is not non-inclusive (nine), inclusive or "
              "exclusive (victim)");
    EXPECT_EQ(file_error("cpi =\n"),
              "my.cfg:1: cpi: '' is not a number with at most 2 decimals (e.g. 1, 0.5, 1.25; at "
              "most 42949672.95)");
    // Line numbers count every line, blank and comment lines included.
    EXPECT_EQ(file_error("#1\n\n#3\nicache = yes\n\nicache = maybe\n"),
              "my.cfg:6: icache: 'maybe' is not yes or no");
}

TEST(ConfigFile, ApplyErrorsNameTheLine) {
    EXPECT_EQ(fails({}, "machine = teaching\n\nL4 = 8M, 16, 64\n"),
              "test.cfg:3: L4: cannot add L4: there is no L3 (the hierarchy has 2 levels)");
    EXPECT_EQ(fails({}, "L1-unified = yes\nD1-latency = 3\n"),
              "test.cfg:2: D1-latency: level 1 is unified (set L1-unified to no first, or use L1)");
    // Validation errors name the level only.
    EXPECT_EQ(fails({}, "L2 = 1000000, 8, 64\n"),
              "L2: 1000000 B is not a multiple of line size x associativity (64 x 8)");
}

TEST(ConfigFile, FailedTextIsNotAttached) {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    const char* bad = "L2-latency = x\n";
    EXPECT_FALSE(builder_config_text(b, "f", bad, std::strlen(bad), err));
    HierarchyConfig c;
    EXPECT_TRUE(builder_finish(b, c, err)) << err.text;  // no file: desktop
    EXPECT_EQ(c.level[1].latency, 15u);
}

TEST(ConfigFile, LengthIsRespected) {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    const char* text = "L2-latency = 7\nthis is not parsed";
    ASSERT_TRUE(builder_config_text(b, "f", text, 15, err)) << err.text;
    HierarchyConfig c;
    ASSERT_TRUE(builder_finish(b, c, err)) << err.text;
    EXPECT_EQ(c.level[1].latency, 7u);
}

// --- The examples of docs/cache-config.md ----------------------------------

TEST(DocExamples, ConfigFile) {
    const char* file =
        "# A desktop with a smaller, inclusive L3 and an L4.\n"
        "machine = desktop\n"
        "\n"
        "L3 = 16M, 16, 64          # 16384 sets\n"
        "L3-inclusion = inclusive\n"
        "L3-latency = 50\n"
        "\n"
        "L4 = 128M, 16, 64         # added: L3 exists\n"
        "L4-latency = 120\n"
        "\n"
        "memory-latency = 300\n"
        "cpi = 0.8\n";
    HierarchyConfig c = ok({}, file);
    EXPECT_EQ(c.levels, 4);
    EXPECT_EQ(c.level[2].size / (64 * 16), 16384u);
    EXPECT_EQ(c.level[2].inclusion, Inclusion::Inclusive);
    EXPECT_EQ(c.level[2].latency, 50u);
    EXPECT_EQ(c.level[3].size, 128 * MiB);
    EXPECT_EQ(c.memory_latency, 300u);
    EXPECT_EQ(c.cpi_x100, 80u);
}

TEST(DocExamples, IntermediateStatesAreNotValidated) {
    HierarchyConfig c = ok({"--L2=2M,16,128", "--L1=32K,8,128", "--L3=none"});
    EXPECT_EQ(c.levels, 2);
    EXPECT_EQ(c.i1.line, 128u);
    c = ok({"--L3=none", "--LL=2M,8,64"});
    EXPECT_EQ(c.level[1].size, 2 * MiB);
    c = ok({"--machine=cachegrind", "--L2=4M,16,64", "--L1=64K,8,64"});
    EXPECT_EQ(c.level[1].size, 4 * MiB);
    EXPECT_EQ(c.i1.size, 64 * KiB);
    EXPECT_EQ(c.level[0].size, 64 * KiB);
}
