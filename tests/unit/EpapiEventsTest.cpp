// The ePAPI presets against counts made by hand: a 3-level machine, 1000
// instructions, 500 reads, 200 writes, and for each kind how many references
// L2 (depth 1), L3 (depth 2) and memory (depth 3) served.
#include <gtest/gtest.h>

#include "EpapiEvents.h"
#include "epapi.h"

namespace ompsim {
namespace {

EpapiCounts hand_counts() {
    EpapiCounts c{};
    c.levels = 3;
    c.whole_program = true;
    c.fetches_simulated = true;
    c.refs[0] = 1000;  // fetches: 10 L2, 5 L3, 2 memory -> 17 L1 misses
    c.refs[1] = 500;   // reads:   40 L2, 20 L3, 10 memory -> 70
    c.refs[2] = 200;   // writes:   8 L2,  4 L3,  2 memory -> 14
    u64 served[3][4] = {{0, 10, 5, 2}, {0, 40, 20, 10}, {0, 8, 4, 2}};
    for (int k = 0; k < 3; ++k)
        for (int d = 0; d < 4; ++d) c.served[k][d] = served[k][d];
    c.cycles = 12345;
    return c;
}

u64 value(const EpapiCounts& c, int code) {
    u64 v = ~0ull;
    EXPECT_EQ(epapi_value(c, code, &v), EPAPI_OK) << std::hex << code;
    return v;
}

TEST(EpapiEvents, DataEventsPerLevel) {
    EpapiCounts c = hand_counts();
    // Level 1: every access; misses = all served below L1.
    EXPECT_EQ(value(c, EPAPI_L1_DCA), 700u);
    EXPECT_EQ(value(c, EPAPI_L1_DCR), 500u);
    EXPECT_EQ(value(c, EPAPI_L1_DCW), 200u);
    EXPECT_EQ(value(c, EPAPI_L1_DCM), 84u);
    EXPECT_EQ(value(c, EPAPI_L1_LDM), 70u);
    EXPECT_EQ(value(c, EPAPI_L1_STM), 14u);
    EXPECT_EQ(value(c, EPAPI_L1_DCH), 616u);
    // Level 2 sees L1's misses and misses what L3 and memory served.
    EXPECT_EQ(value(c, EPAPI_L2_DCA), 84u);
    EXPECT_EQ(value(c, EPAPI_L2_DCR), 70u);
    EXPECT_EQ(value(c, EPAPI_L2_DCW), 14u);
    EXPECT_EQ(value(c, EPAPI_L2_DCM), 36u);
    EXPECT_EQ(value(c, EPAPI_L2_LDM), 30u);
    EXPECT_EQ(value(c, EPAPI_L2_STM), 6u);
    EXPECT_EQ(value(c, EPAPI_L2_DCH), 48u);
    // Level 3.
    EXPECT_EQ(value(c, EPAPI_L3_DCA), 36u);
    EXPECT_EQ(value(c, EPAPI_L3_DCR), 30u);
    EXPECT_EQ(value(c, EPAPI_L3_DCW), 6u);
    EXPECT_EQ(value(c, EPAPI_L3_DCM), 12u);
    EXPECT_EQ(value(c, EPAPI_L3_LDM), 10u);
    EXPECT_EQ(value(c, EPAPI_L3_STM), 2u);
    EXPECT_EQ(value(c, EPAPI_L3_DCH), 24u);
}

TEST(EpapiEvents, InstructionAndTotalEvents) {
    EpapiCounts c = hand_counts();
    EXPECT_EQ(value(c, EPAPI_L1_ICA), 1000u);
    EXPECT_EQ(value(c, EPAPI_L1_ICM), 17u);
    EXPECT_EQ(value(c, EPAPI_L1_ICH), 983u);
    EXPECT_EQ(value(c, EPAPI_L2_ICA), 17u);
    EXPECT_EQ(value(c, EPAPI_L2_ICM), 7u);
    EXPECT_EQ(value(c, EPAPI_L3_ICA), 7u);
    EXPECT_EQ(value(c, EPAPI_L3_ICM), 2u);
    EXPECT_EQ(value(c, EPAPI_L1_TCA), 1700u);
    EXPECT_EQ(value(c, EPAPI_L1_TCM), 101u);
    EXPECT_EQ(value(c, EPAPI_L1_TCH), 1599u);
    EXPECT_EQ(value(c, EPAPI_L2_TCA), 101u);
    EXPECT_EQ(value(c, EPAPI_L2_TCM), 43u);
    EXPECT_EQ(value(c, EPAPI_L3_TCA), 43u);
    EXPECT_EQ(value(c, EPAPI_L3_TCM), 14u);
    EXPECT_EQ(value(c, EPAPI_L3_TCH), 29u);
    EXPECT_EQ(value(c, EPAPI_TOT_INS), 1000u);
    EXPECT_EQ(value(c, EPAPI_LD_INS), 500u);
    EXPECT_EQ(value(c, EPAPI_SR_INS), 200u);
    EXPECT_EQ(value(c, EPAPI_LST_INS), 700u);
    EXPECT_EQ(value(c, EPAPI_TOT_CYC), 12345u);
}

TEST(EpapiEvents, CodesArePapis) {
    // Values of papi.h (PAPI 7), so unmodified PAPI programs mean the same.
    EXPECT_EQ(EPAPI_L1_DCM, (int)0x80000000);
    EXPECT_EQ(EPAPI_L3_TCM, (int)0x80000008);
    EXPECT_EQ(EPAPI_L1_LDM, (int)0x80000017);
    EXPECT_EQ(EPAPI_TOT_INS, (int)0x80000032);
    EXPECT_EQ(EPAPI_TOT_CYC, (int)0x8000003b);
    EXPECT_EQ(EPAPI_L1_DCA, (int)0x80000040);
    EXPECT_EQ(EPAPI_L3_TCA, (int)0x8000005a);
}

TEST(EpapiEvents, Errors) {
    EpapiCounts c = hand_counts();
    u64 v = 7;
    EXPECT_EQ(epapi_value(c, (int)0x80000077, &v), EPAPI_ENOTPRESET);
    EXPECT_EQ(epapi_value(c, 42, &v), EPAPI_ENOTPRESET);
    EXPECT_EQ(v, 7u);  // untouched on error
    // A two-level machine (Cachegrind's) has no level 3.
    c.levels = 2;
    EXPECT_EQ(epapi_value(c, EPAPI_L3_TCM, &v), EPAPI_ENOEVNT);
    EXPECT_EQ(epapi_check(EPAPI_L2_DCM, 2, true, true), EPAPI_OK);
    // No instruction cache simulated: instruction-cache events do not exist.
    EXPECT_EQ(epapi_check(EPAPI_L1_ICM, 3, true, false), EPAPI_ENOEVNT);
    EXPECT_EQ(epapi_check(EPAPI_L1_TCM, 3, true, false), EPAPI_ENOEVNT);
    EXPECT_EQ(epapi_check(EPAPI_TOT_INS, 3, true, false), EPAPI_OK);
    // An address range counts data accesses only.
    EXPECT_EQ(epapi_check(EPAPI_TOT_INS, 3, false, true), EPAPI_ECNFLCT);
    EXPECT_EQ(epapi_check(EPAPI_TOT_CYC, 3, false, true), EPAPI_ECNFLCT);
    EXPECT_EQ(epapi_check(EPAPI_L2_TCA, 3, false, true), EPAPI_ECNFLCT);
    EXPECT_EQ(epapi_check(EPAPI_L2_DCM, 3, false, true), EPAPI_OK);
    EXPECT_EQ(epapi_check(EPAPI_LD_INS, 3, false, true), EPAPI_OK);
}

TEST(EpapiEvents, HitsNeverWrap) {
    // General hierarchy: a reference is an access, a miss a line, and an
    // access across two lines can miss twice.
    EpapiCounts c{};
    c.levels = 1;
    c.whole_program = true;
    c.refs[1] = 1;
    c.served[1][1] = 2;
    EXPECT_EQ(value(c, EPAPI_L1_DCM), 2u);
    EXPECT_EQ(value(c, EPAPI_L1_DCH), 0u);
}

TEST(EpapiEvents, EveryPresetHasAValueOnAThreeLevelMachine) {
    EpapiCounts c = hand_counts();
#define OMPSIM_CHECK_(name, idx, level, what, descr) value(c, EPAPI_##name);
    EPAPI_PRESET_EVENTS(OMPSIM_CHECK_)
#undef OMPSIM_CHECK_
}

}  // namespace
}  // namespace ompsim
