// The event flow graph (profilers/EventFlow.h) on hand-made event sequences:
// the IPM paper's Figure 3 program seen from one rank, the choice of
// components, call sites, zeroing, and random sequences against a brute-force
// model (a map from (previous signature, signature, thread) to counts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "EventFlow.h"
#include "TrackingAllocator.h"

using namespace ompsim;
using namespace ompsim::flow;

namespace {


Event point(u32 name, u32 site, u64 size, int64_t partner = -1, u32 node = 0) {
    return Event{name, true, partner >= 0, node, site, size, partner};
}
Event entry(u32 region, u32 node) { return Event{region, false, false, node, kNoSite, 0, 0}; }

struct Flow {
    TrackingAllocator heap;  // before f: frees f's tables after f is gone
    EventFlow f;
    explicit Flow(u32 components = kDefaultComponents) { EXPECT_TRUE(f.init(heap.get(), components)); }
    // (from, to, thread) -> count
    std::map<std::tuple<u32, u32, u32>, u64> edges() const {
        std::map<std::tuple<u32, u32, u32>, u64> m;
        for (u32 i = 0; i < f.edge_count(); ++i)
            if (f.edge(i).count) m[{f.edge(i).from, f.edge(i).to, f.edge(i).thread}] = f.edge(i).count;
        return m;
    }
};

enum Names : u32 { kInit, kSizeCall, kRankCall, kSend, kRecv, kFinalize };

// Rank 1 of the paper's Figure 3: MPI_Init, MPI_Comm_size, MPI_Comm_rank,
// ten MPI_Send of 10 doubles to rank 0, MPI_Finalize.
void figure3_rank1(EventFlow& f) {
    u64 t = 0;
    f.event(0, point(kInit, 1, 0), t += 100);
    f.event(0, point(kSizeCall, 2, 0), t += 10);
    f.event(0, point(kRankCall, 3, 0), t += 10);
    for (int i = 0; i < 10; ++i) f.event(0, point(kSend, 4, 80, 0), t += 50);
    f.event(0, point(kFinalize, 5, 0), t += 7);
}

TEST(EventFlow, Figure3OneRank) {
    Flow fl;
    figure3_rank1(fl.f);
    ASSERT_EQ(5u, fl.f.signature_count());
    ASSERT_EQ(5u, fl.f.callsite_count());
    std::map<std::tuple<u32, u32, u32>, u64> want = {
        {{kStart, 1, 0}, 1}, {{1, 2, 0}, 1}, {{2, 3, 0}, 1}, {{3, 4, 0}, 1}, {{4, 4, 0}, 9}, {{4, 5, 0}, 1}};
    EXPECT_EQ(want, fl.edges());
    const Signature& send = fl.f.signature(4);
    EXPECT_EQ(u32(kSend), send.what);
    EXPECT_TRUE(send.point);
    EXPECT_EQ(80u, send.size);
    EXPECT_TRUE(send.has_partner);
    EXPECT_EQ(0, send.partner);
    EXPECT_FALSE(fl.f.signature(1).has_partner);
    // Cycles between events: the self loop spans nine gaps of 50.
    for (u32 i = 0; i < fl.f.edge_count(); ++i) {
        const Edge& e = fl.f.edge(i);
        if (e.from == 4 && e.to == 4) {
            EXPECT_EQ(450u, e.cycles);
        } else if (e.from == kStart) {
            EXPECT_EQ(100u, e.cycles);
        } else if (e.to == 5) {
            EXPECT_EQ(7u, e.cycles);
        }
    }
}

// IPM's Figure 4 rows: fewer components, fewer nodes. With the size alone,
// the four size-0 calls are one node.
TEST(EventFlow, ComponentsChooseTheNodes) {
    Flow sizes(kSize);
    figure3_rank1(sizes.f);
    ASSERT_EQ(2u, sizes.f.signature_count());
    std::map<std::tuple<u32, u32, u32>, u64> want = {{{kStart, 1, 0}, 1}, {{1, 1, 0}, 2}, {{1, 2, 0}, 1},
                                                     {{2, 2, 0}, 9}, {{2, 1, 0}, 1}};
    EXPECT_EQ(want, sizes.edges());
    EXPECT_EQ(0u, sizes.f.callsite_count());

    Flow partner(kPartner);
    figure3_rank1(partner.f);
    EXPECT_EQ(2u, partner.f.signature_count());  // no partner, partner 0
}

TEST(EventFlow, CallsitesSeparateOneEventCalledFromTwoPlaces) {
    Flow fl;
    fl.f.event(0, point(kSend, 7, 8, 1), 1);
    fl.f.event(0, point(kSend, 9, 8, 1), 2);
    fl.f.event(0, point(kSend, 7, 8, 1), 3);
    EXPECT_EQ(2u, fl.f.signature_count());
    EXPECT_EQ(2u, fl.f.callsite_count());
    EXPECT_EQ(7u, fl.f.callsite(1).site);
    Flow no_site(kRegion | kSize | kPartner);
    no_site.f.event(0, point(kSend, 7, 8, 1), 1);
    no_site.f.event(0, point(kSend, 9, 8, 1), 2);
    EXPECT_EQ(1u, no_site.f.signature_count());
}

// A region entered from two call paths: two call sites (the nodes), one region.
TEST(EventFlow, RegionEntriesAreCalledFromTheirNode) {
    Flow fl;
    fl.f.event(0, entry(3, 5), 1);
    fl.f.event(0, entry(3, 8), 2);
    fl.f.event(0, entry(3, 5), 3);
    EXPECT_EQ(2u, fl.f.signature_count());
    EXPECT_EQ(kNoSite, fl.f.callsite(1).site);
    EXPECT_EQ(5u, fl.f.callsite(1).node);
    Flow region(kRegion);
    region.f.event(0, entry(3, 5), 1);
    region.f.event(0, entry(3, 8), 2);
    region.f.event(0, point(3, 1, 0), 3);  // an event whose name id equals a region id is not that region
    EXPECT_EQ(2u, region.f.signature_count());
}

TEST(EventFlow, ThreadsShareNodesUnlessTheThreadIsAComponent) {
    Flow shared;
    Flow split(kDefaultComponents | kThread);
    for (Flow* fl : {&shared, &split})
        for (u32 t = 0; t < 4; ++t) {
            fl->f.event(t, entry(1, 1), 10);
            fl->f.event(t, entry(2, 2), 20);
        }
    EXPECT_EQ(2u, shared.f.signature_count());
    EXPECT_EQ(8u, split.f.signature_count());
    EXPECT_EQ(8u, shared.f.edge_count());  // per thread: S0 -> 1 -> 2
    EXPECT_EQ(2u, split.f.signature(5).thread);  // threads 0, 1, 2 made S1..S6
}

TEST(EventFlow, ZeroForgetsCountsAndRestartsAtTheStart) {
    Flow fl;
    fl.f.event(0, point(kInit, 1, 0), 10);
    fl.f.event(0, point(kSend, 2, 8), 20);
    fl.f.zero(0, 25);
    fl.f.event(0, point(kSend, 2, 8), 40);
    fl.f.event(0, point(kFinalize, 3, 0), 41);
    std::map<std::tuple<u32, u32, u32>, u64> want = {{{kStart, 2, 0}, 1}, {{2, 3, 0}, 1}};
    EXPECT_EQ(want, fl.edges());
    for (u32 i = 0; i < fl.f.edge_count(); ++i)
        if (fl.f.edge(i).from == kStart && fl.f.edge(i).count) {
            EXPECT_EQ(15u, fl.f.edge(i).cycles);
        }
}

TEST(EventFlow, ParsesComponentLists) {
    auto parse = [](const std::string& s) { return parse_components(s.c_str(), (u32)s.size()); };
    EXPECT_EQ(u32(kRegion | kSize), parse("region,size"));
    EXPECT_EQ(kAllComponents, parse("thread,partner,size,callsite,region"));
    EXPECT_EQ(0u, parse(""));
    EXPECT_EQ(0u, parse("region,"));
    EXPECT_EQ(0u, parse("regions"));
    EXPECT_EQ(0u, parse("size,,region"));
    EXPECT_STREQ("callsite", component_name(1));
}

// Random interleavings of 3 threads over a few events, against a brute-force
// count of (previous signature, signature, thread) in which signatures are
// the chosen components of the events as a tuple. Checks the walk rule the
// document reader relies on: per thread one S0 edge, and every signature
// left as often as entered but the last.
TEST(EventFlow, RandomSequencesMatchABruteForceCount) {
    std::mt19937 rng(7);
    for (u32 components : {kDefaultComponents, u32(kRegion), u32(kSize | kThread), kAllComponents}) {
        Flow fl(components);
        using Key = std::tuple<u32, bool, u32, u32, u32, u64, int64_t>;
        std::map<Key, u32> ids;
        std::map<std::pair<u32, u32>, u32> sites;
        std::map<std::tuple<u32, u32, u32>, u64> want;
        std::map<u32, u32> prev;
        for (int i = 0; i < 5000; ++i) {
            u32 t = rng() % 3;
            bool pt = rng() % 2;
            Event e = pt ? point(rng() % 3, rng() % 2, (rng() % 3) * 8, int64_t(rng() % 3) - 1, rng() % 2)
                         : entry(rng() % 4, rng() % 3);
            fl.f.event(t, e, i);
            u32 site = 0;
            if (components & kCallsite) {
                auto it = sites.emplace(std::make_pair(e.node, e.point ? e.site : kNoSite), (u32)sites.size() + 1);
                site = it.first->second;
            }
            Key k{components & kRegion ? e.what : 0,
                  (components & kRegion) && e.point,
                  site,
                  components & kThread ? t : 0,
                  (components & kPartner) && e.has_partner ? 1u : 0u,
                  components & kSize ? e.size : 0,
                  (components & kPartner) && e.has_partner ? e.partner : 0};
            u32 id = ids.emplace(k, (u32)ids.size() + 1).first->second;
            ++want[{prev[t], id, t}];
            prev[t] = id;
        }
        EXPECT_EQ(ids.size(), fl.f.signature_count());
        EXPECT_EQ(sites.size(), fl.f.callsite_count());
        EXPECT_EQ(want, fl.edges());
        for (u32 t = 0; t < 3; ++t) {
            std::map<u32, int64_t> balance;
            u64 from_start = 0;
            for (const auto& [key, count] : want) {
                if (std::get<2>(key) != t) continue;
                if (std::get<0>(key) == kStart) from_start += count;
                balance[std::get<1>(key)] += count;
                if (std::get<0>(key) != kStart) balance[std::get<0>(key)] -= count;
            }
            EXPECT_EQ(1u, from_start);
            int last = 0;
            for (const auto& [sig, b] : balance) {
                EXPECT_TRUE(b == 0 || b == 1);
                last += b == 1;
            }
            EXPECT_EQ(1, last);
        }
    }
}

}  // namespace
