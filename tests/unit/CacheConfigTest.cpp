// validate(), level_name() and the policy names of cachesim/CacheConfig.h.
// Every validation message of docs/cache-config.md is checked verbatim here.
#include <gtest/gtest.h>

#include <string>

#include "CacheConfig.h"
#include "MachinePresets.h"

using namespace ompsim;

namespace {

// LRU, write-back, non-inclusive, no prefetcher (as the presets' levels).
LevelConfig lvl(u64 size, u32 assoc, u32 line, u32 latency = 1) {
    return preset_level(size, assoc, line, latency);
}

// A valid general hierarchy: I1/D1 32 KiB 8-way, L2 1 MiB 16-way, L3 8 MiB
// 16-way, all with 64 B lines.
HierarchyConfig general() {
    HierarchyConfig c{};
    c.levels = 3;
    c.split_l1 = true;
    c.i1 = lvl(32768, 8, 64);
    c.level[0] = lvl(32768, 8, 64);
    c.level[1] = lvl(1 << 20, 16, 64);
    c.level[2] = lvl(8 << 20, 16, 64);
    c.icache = true;
    c.cachegrind = false;
    c.random_seed = 1;
    c.memory_latency = 100;
    c.cpi_x100 = 100;
    return c;
}

HierarchyConfig cachegrind() {
    HierarchyConfig c = general();
    c.cachegrind = true;
    c.levels = 2;
    c.level[1] = lvl(8 << 20, 16, 64);
    return c;
}

// validate() must fail with exactly `msg`.
void expect_error(const HierarchyConfig& c, const std::string& msg) {
    ErrorText err;
    error_clear(err);
    EXPECT_FALSE(validate(c, err)) << "expected: " << msg;
    EXPECT_TRUE(err.set);
    EXPECT_EQ(std::string(err.text), msg);
}

void expect_ok(const HierarchyConfig& c) {
    ErrorText err;
    error_clear(err);
    EXPECT_TRUE(validate(c, err)) << err.text;
}

}  // namespace

TEST(CacheConfigNames, Policies) {
    EXPECT_STREQ(replacement_name(Replacement::LRU), "lru");
    EXPECT_STREQ(replacement_name(Replacement::FIFO), "fifo");
    EXPECT_STREQ(replacement_name(Replacement::PLRU), "plru");
    EXPECT_STREQ(replacement_name(Replacement::Random), "random");
    EXPECT_STREQ(write_policy_name(WritePolicy::WriteBack), "write-back");
    EXPECT_STREQ(write_policy_name(WritePolicy::WriteThrough), "write-through");
    EXPECT_STREQ(inclusion_name(Inclusion::NonInclusive), "non-inclusive");
    EXPECT_STREQ(inclusion_name(Inclusion::Inclusive), "inclusive");
    EXPECT_STREQ(inclusion_name(Inclusion::Exclusive), "exclusive");
}

TEST(CacheConfigNames, LevelNames) {
    HierarchyConfig c = general();
    c.levels = 4;
    EXPECT_STREQ(level_name(c, 0, true), "I1");
    EXPECT_STREQ(level_name(c, 0, false), "D1");
    EXPECT_STREQ(level_name(c, 1, false), "L2");
    EXPECT_STREQ(level_name(c, 2, false), "L3");
    EXPECT_STREQ(level_name(c, 3, false), "L4");
    EXPECT_STREQ(level_name(c, 1, true), "L2");
    c.split_l1 = false;
    EXPECT_STREQ(level_name(c, 0, false), "L1");
    EXPECT_STREQ(level_name(c, 0, true), "L1");
    HierarchyConfig g = cachegrind();
    EXPECT_STREQ(level_name(g, 0, true), "I1");
    EXPECT_STREQ(level_name(g, 0, false), "D1");
    EXPECT_STREQ(level_name(g, 1, false), "LL");
}

// --- General mode: accepted configurations --------------------------------

TEST(ValidateGeneral, AcceptsReferenceHierarchy) { expect_ok(general()); }

TEST(ValidateGeneral, AcceptsOneToFourLevels) {
    HierarchyConfig c = general();
    c.levels = 1;
    expect_ok(c);
    c.levels = 2;
    expect_ok(c);
    c.levels = 4;
    c.level[3] = lvl(64 << 20, 16, 64);
    expect_ok(c);
}

TEST(ValidateGeneral, AcceptsUnifiedL1) {
    HierarchyConfig c = general();
    c.split_l1 = false;
    c.i1 = lvl(0, 0, 0);  // ignored when unified
    expect_ok(c);
}

TEST(ValidateGeneral, AcceptsNonPowerOfTwoSetsAndWays) {
    HierarchyConfig c = general();
    c.level[0] = lvl(48 * 1024, 12, 64);        // 64 sets, 12 ways
    c.level[1] = lvl(1280 * 1024, 10, 64);      // 2048 sets, 10 ways
    c.level[2] = lvl(30u << 20, 12, 64);        // 40960 sets
    expect_ok(c);
}

TEST(ValidateGeneral, AcceptsFullyAssociative) {
    HierarchyConfig c = general();
    c.level[1] = lvl(4096, 64, 64);
    expect_ok(c);
}

TEST(ValidateGeneral, AcceptsLineBounds) {
    HierarchyConfig c = general();
    c.levels = 1;
    c.split_l1 = false;
    c.level[0] = lvl(4096, 4, 16);
    expect_ok(c);
    c.level[0] = lvl(65536, 4, 4096);
    expect_ok(c);
}

TEST(ValidateGeneral, AcceptsPoliciesAndFreeLatencies) {
    HierarchyConfig c = general();
    c.i1.replacement = Replacement::PLRU;
    c.level[0].replacement = Replacement::Random;
    c.level[0].write = WritePolicy::WriteThrough;
    c.level[1].replacement = Replacement::FIFO;
    c.level[1].inclusion = Inclusion::Inclusive;
    c.level[1].write = WritePolicy::WriteThrough;
    c.level[2].inclusion = Inclusion::Exclusive;
    c.level[2].latency = 0;
    c.memory_latency = 0;
    c.cpi_x100 = 0;
    expect_ok(c);
}

// --- General mode: every rule --------------------------------------------

TEST(ValidateGeneral, LevelCount) {
    HierarchyConfig c = general();
    c.levels = 0;
    expect_error(c, "the hierarchy must have 1 to 4 levels, not 0");
    c.levels = 5;
    expect_error(c, "the hierarchy must have 1 to 4 levels, not 5");
    c.levels = -1;
    expect_error(c, "the hierarchy must have 1 to 4 levels, not -1");
}

TEST(ValidateGeneral, LineSizeRange) {
    HierarchyConfig c = general();
    c.level[1].line = 48;
    expect_error(c, "L2: line size 48 B is not a power of two between 16 and 4096");
    c.level[1].line = 8;
    expect_error(c, "L2: line size 8 B is not a power of two between 16 and 4096");
    c.level[1].line = 8192;
    expect_error(c, "L2: line size 8192 B is not a power of two between 16 and 4096");
    c.level[1].line = 0;
    expect_error(c, "L2: line size 0 B is not a power of two between 16 and 4096");
}

TEST(ValidateGeneral, SizeZero) {
    HierarchyConfig c = general();
    c.level[2].size = 0;
    expect_error(c, "L3: size must not be 0");
}

// At most 2^28 lines per level (kMaxLevelLines): 16 GiB of 64 B lines is
// the largest L3, one more set of 16 lines is refused; 1 TiB of 16 B lines
// is 2^36 lines.
TEST(ValidateGeneral, LinesPerLevelLimit) {
    HierarchyConfig c = general();
    c.level[2] = lvl(u64(16) << 30, 16, 64);
    expect_ok(c);
    c.level[2] = lvl((u64(16) << 30) + 16 * 64, 16, 64);
    expect_error(c, "L3: size 17179870208 B is 268435472 lines, more than the 268435456 a level may hold");
    c.level[2] = lvl(u64(1) << 40, 16, 16);
    c.i1.line = c.level[0].line = c.level[1].line = 16;
    expect_error(c, "L3: size 1099511627776 B is 68719476736 lines, more than the 268435456 a level may hold");
}

TEST(ValidateGeneral, AssocZero) {
    HierarchyConfig c = general();
    c.i1.assoc = 0;
    expect_error(c, "I1: associativity must be at least 1");
}

TEST(ValidateGeneral, AssocAboveLineCount) {
    HierarchyConfig c = general();
    c.level[1] = lvl(512, 16, 64);
    expect_error(c, "L2: associativity 16 exceeds the 8 lines of the cache (size / line)");
    c.level[1] = lvl(32, 1, 64);  // smaller than one line
    expect_error(c, "L2: associativity 1 exceeds the 0 lines of the cache (size / line)");
}

TEST(ValidateGeneral, SizeNotMultiple) {
    HierarchyConfig c = general();
    c.level[1] = lvl(1000000, 8, 64);
    expect_error(c, "L2: 1000000 B is not a multiple of line size x associativity (64 x 8)");
    c.level[1] = lvl(100, 1, 64);
    expect_error(c, "L2: 100 B is not a multiple of line size x associativity (64 x 1)");
}

TEST(ValidateGeneral, PlruNeedsPowerOfTwoAssoc) {
    HierarchyConfig c = general();
    c.level[2] = lvl(30u << 20, 12, 64);
    c.level[2].replacement = Replacement::PLRU;
    expect_error(c, "L3: plru replacement needs a power-of-two associativity, not 12");
}

TEST(ValidateGeneral, OneLineSize) {
    HierarchyConfig c = general();
    c.level[1] = lvl(1 << 20, 16, 128);
    expect_error(c,
                 "L2: line size 128 B differs from the 64 B of I1; general hierarchies need "
                 "one line size at every level; use --machine=cachegrind for Cachegrind's "
                 "mixed sizes");
    c = general();
    c.level[0] = lvl(32768, 8, 32);
    expect_error(c,
                 "D1: line size 32 B differs from the 64 B of I1; general hierarchies need "
                 "one line size at every level; use --machine=cachegrind for Cachegrind's "
                 "mixed sizes");
    c = general();
    c.split_l1 = false;
    c.level[2] = lvl(8 << 20, 16, 256);
    expect_error(c,
                 "L3: line size 256 B differs from the 64 B of L1; general hierarchies need "
                 "one line size at every level; use --machine=cachegrind for Cachegrind's "
                 "mixed sizes");
}

TEST(ValidateGeneral, LevelOneIsNonInclusive) {
    HierarchyConfig c = general();
    c.level[0].inclusion = Inclusion::Inclusive;
    expect_error(c, "D1: level 1 must be non-inclusive, not inclusive");
    c = general();
    c.i1.inclusion = Inclusion::Exclusive;
    expect_error(c, "I1: level 1 must be non-inclusive, not exclusive");
    c = general();
    c.split_l1 = false;
    c.level[0].inclusion = Inclusion::Exclusive;
    expect_error(c, "L1: level 1 must be non-inclusive, not exclusive");
}

TEST(ValidateGeneral, ExclusiveIsWriteBack) {
    HierarchyConfig c = general();
    c.level[2].inclusion = Inclusion::Exclusive;
    c.level[2].write = WritePolicy::WriteThrough;
    expect_error(c, "L3: an exclusive level must be write-back, not write-through");
}

TEST(ValidateGeneral, FirstLevelFromTheTopIsReported) {
    HierarchyConfig c = general();
    c.level[2].size = 0;
    c.level[0].assoc = 0;
    c.i1.line = 48;
    expect_error(c, "I1: line size 48 B is not a power of two between 16 and 4096");
    c.i1.line = 64;
    expect_error(c, "D1: associativity must be at least 1");
}

TEST(ValidateGeneral, LevelsBelowTheCountAreIgnored) {
    HierarchyConfig c = general();
    c.levels = 2;
    c.level[2] = lvl(0, 0, 0);
    c.level[3] = lvl(0, 0, 0);
    expect_ok(c);
}

// --- Cachegrind mode ------------------------------------------------------

TEST(ValidateCachegrind, AcceptsReference) { expect_ok(cachegrind()); }

TEST(ValidateCachegrind, AcceptsMixedLineSizes) {
    HierarchyConfig c = cachegrind();
    c.i1 = lvl(32768, 8, 32);
    c.level[0] = lvl(65536, 2, 64);
    c.level[1] = lvl(8 << 20, 16, 8192);  // no upper bound on line size
    expect_ok(c);
}

TEST(ValidateCachegrind, AcceptsNonPowerOfTwoWays) {
    HierarchyConfig c = cachegrind();
    c.level[1] = lvl(12 << 20, 24, 64);  // 8192 sets
    expect_ok(c);
}

TEST(ValidateCachegrind, Structure) {
    HierarchyConfig c = cachegrind();
    c.levels = 3;
    expect_error(c, "cachegrind mode needs exactly 2 levels (I1/D1 and LL), not 3");
    c.levels = 1;
    expect_error(c, "cachegrind mode needs exactly 2 levels (I1/D1 and LL), not 1");
    c = cachegrind();
    c.split_l1 = false;
    expect_error(c, "cachegrind mode needs a split level 1 (I1 and D1), not a unified L1");
}

TEST(ValidateCachegrind, LinePowerOfTwo) {
    HierarchyConfig c = cachegrind();
    c.level[1].line = 48;
    expect_error(c, "LL: line size 48 B is not a power of two");
    c.level[1].line = 0;
    expect_error(c, "LL: line size 0 B is not a power of two");
}

TEST(ValidateCachegrind, LineAtLeast16) {
    HierarchyConfig c = cachegrind();
    c.i1 = lvl(32768, 8, 8);
    expect_error(c, "I1: line size 8 B is smaller than 16 B");
}

TEST(ValidateCachegrind, SizeAboveLine) {
    HierarchyConfig c = cachegrind();
    c.level[0] = lvl(64, 1, 64);
    expect_error(c, "D1: size 64 B must be larger than the line size (64 B)");
    c.level[0] = lvl(0, 1, 64);
    expect_error(c, "D1: size 0 B must be larger than the line size (64 B)");
}

TEST(ValidateCachegrind, SizeFitsCachegrindsInt) {
    HierarchyConfig c = cachegrind();
    c.level[1] = lvl(u64(1) << 32, 16, 64);
    expect_error(c, "LL: size 4294967296 B exceeds Cachegrind's limit of 2147483647 B");
    c.level[1] = lvl(u64(1) << 30, 16, 64);
    expect_ok(c);
}

TEST(ValidateCachegrind, Assoc) {
    HierarchyConfig c = cachegrind();
    c.level[1].assoc = 0;
    expect_error(c, "LL: associativity must be at least 1");
    c.level[0] = lvl(512, 16, 64);
    expect_error(c, "D1: associativity 16 exceeds the 8 lines of the cache (size / line)");
}

TEST(ValidateCachegrind, SizeMultiple) {
    HierarchyConfig c = cachegrind();
    c.level[1] = lvl(1000000, 8, 64);
    expect_error(c, "LL: 1000000 B is not a multiple of line size x associativity (64 x 8)");
}

TEST(ValidateCachegrind, SetCountPowerOfTwo) {
    HierarchyConfig c = cachegrind();
    c.level[1] = lvl(12 << 20, 16, 64);
    expect_error(c, "LL: the set count 12288 is not a power of two (Cachegrind requires one)");
}

TEST(ValidateCachegrind, FixedPolicies) {
    HierarchyConfig c = cachegrind();
    c.level[1].replacement = Replacement::FIFO;
    expect_error(c,
                 "LL: Cachegrind's model is fixed (lru, write-back, non-inclusive); fifo "
                 "replacement is not available with --machine=cachegrind");
    c = cachegrind();
    c.level[0].write = WritePolicy::WriteThrough;
    expect_error(c,
                 "D1: Cachegrind's model is fixed (lru, write-back, non-inclusive); "
                 "write-through is not available with --machine=cachegrind");
    c = cachegrind();
    c.level[1].inclusion = Inclusion::Inclusive;
    expect_error(c,
                 "LL: Cachegrind's model is fixed (lru, write-back, non-inclusive); "
                 "inclusive is not available with --machine=cachegrind");
    c = cachegrind();
    c.i1.replacement = Replacement::PLRU;
    expect_error(c,
                 "I1: Cachegrind's model is fixed (lru, write-back, non-inclusive); plru "
                 "replacement is not available with --machine=cachegrind");
}

TEST(ValidateCachegrind, GeneralRulesDoNotApply) {
    // Line 8192 and a line size differing between levels break general
    // rules only.
    HierarchyConfig c = cachegrind();
    c.level[1] = lvl(64 << 20, 8, 8192);
    expect_ok(c);
}
