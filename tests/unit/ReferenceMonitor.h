// An obviously correct model of monitor/RangeMonitor for the differential
// tests: every range in one std::map, every access scans all of them, every
// histogram is kept per byte offset (lines mode) and summed on demand, and
// the slot rule is evaluated at query time. Slow, simple, independent.
#ifndef OMPSIM_TESTS_REFERENCEMONITOR_H
#define OMPSIM_TESTS_REFERENCEMONITOR_H

#include <array>
#include <map>
#include <vector>

#include "RangeMonitor.h"

namespace ompsim {
namespace test {

class ReferenceMonitor {
public:
    using Counts = std::array<u64, 2 * (kMonitorMaxLevels + 1)>;

    ReferenceMonitor(int levels, unsigned line_bits, u32 lines, u32 bins, u32 slots)
        : levels_(levels), line_bits_(line_bits), lines_(lines), bins_(bins), slots_(slots) {}

    u32 add_structure(bool user) {
        S s;
        s.user = user;
        s.lines = lines_;
        s.bins = bins_;
        structs_.push_back(s);
        return u32(structs_.size() - 1);
    }

    bool set_resolution(u32 id, u32 lines, u32 bins) {
        if (id >= structs_.size() || (lines && bins)) return false;
        if (lines && (lines & (lines - 1))) return false;
        if (lines > kMonitorMaxHistogramLines || bins > kMonitorMaxBins) return false;
        structs_[id].lines = lines;
        structs_[id].bins = bins;
        structs_[id].hist.clear();
        return true;
    }

    bool add_range(u64 lo, u64 size, u32 id) {
        if (id >= structs_.size() || size == 0 || size >= kMonitorMaxRangeSize || lo + size < lo)
            return false;
        ranges_[++seq_] = Range{lo, lo + size, id, structs_[id].user};
        if (size > structs_[id].max_block) structs_[id].max_block = size;
        return true;
    }

    u32 remove_range(u64 lo, MonitorRangeClass which = kAllRanges) {
        u32 n = 0;
        for (auto it = ranges_.begin(); it != ranges_.end();) {
            const Range& r = it->second;
            if (r.lo == lo && (which & (r.user ? kUserRanges : kAutomaticRanges))) {
                it = ranges_.erase(it);
                ++n;
            } else {
                ++it;
            }
        }
        return n;
    }

    u32 remove_ranges_in(u64 lo, u64 size) {
        if (size == 0) return 0;
        u64 last = lo + size - 1 < lo ? ~u64(0) : lo + size - 1;
        u32 n = 0;
        for (auto it = ranges_.begin(); it != ranges_.end();) {
            const Range& r = it->second;
            if (r.lo <= last && r.hi - 1 >= lo) {
                it = ranges_.erase(it);
                ++n;
            } else {
                ++it;
            }
        }
        return n;
    }

    // The range that owns addr: user-named beat automatic, then the newest.
    const void* owner(u64 addr, u32* id) const {
        const Range* best = nullptr;
        for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it) {
            const Range& r = it->second;
            if (addr < r.lo || addr >= r.hi) continue;
            if (!best || (r.user && !best->user)) best = &r;
        }
        if (best) *id = best->id;
        return best;
    }

    void record(u64 addr, AccessKind kind, unsigned depth, u32 thread) {
        if (kind != kRead && kind != kWrite) return;
        if (depth > unsigned(levels_)) depth = unsigned(levels_);
        u32 id = 0;
        const Range* r = static_cast<const Range*>(owner(addr, &id));
        if (!r) return;
        S& s = structs_[id];
        size_t i = (kind == kWrite ? 1 : 0) * size_t(levels_ + 1) + depth;
        ++s.total[i];
        ++s.threads[thread][i];
        u64 off = addr - r->lo;
        if (s.bins)
            ++s.hist[off * s.bins / (r->hi - r->lo)][i];
        else if (s.lines)
            ++s.hist[off][i];
    }

    void zero() {
        for (S& s : structs_) {
            s.total = Counts{};
            s.threads.clear();
            s.hist.clear();
        }
    }

    u32 structures() const { return u32(structs_.size()); }

    bool counted(u32 id) const {
        if (slots_ == 0) return true;
        u32 rank = 0;
        const S& me = structs_[id];
        for (u32 j = 0; j < structs_.size(); ++j) {
            if (j == id) continue;
            const S& o = structs_[j];
            if ((o.user && !me.user) || (o.user == me.user && j < id)) ++rank;
        }
        return rank < slots_;
    }

    u64 served(u32 id, int kind, unsigned depth) const {
        if (!counted(id)) return 0;
        return structs_[id].total[size_t(kind) * (levels_ + 1) + depth];
    }

    std::vector<u32> threads(u32 id) const {
        std::vector<u32> t;
        if (!counted(id)) return t;
        for (const auto& kv : structs_[id].threads) t.push_back(kv.first);
        return t;
    }

    u64 served_thread(u32 id, u32 thread, int kind, unsigned depth) const {
        if (!counted(id)) return 0;
        auto it = structs_[id].threads.find(thread);
        if (it == structs_[id].threads.end()) return 0;
        return it->second[size_t(kind) * (levels_ + 1) + depth];
    }

    unsigned shift(u32 id) const {
        const S& s = structs_[id];
        unsigned sh = line_bits_;
        for (u32 l = s.lines; l > 1; l >>= 1) ++sh;
        while (((s.max_block - 1) >> sh) + 1 > kMonitorMaxBuckets) ++sh;
        return sh;
    }

    u32 buckets(u32 id) const {
        const S& s = structs_[id];
        if (!counted(id) || s.max_block == 0) return 0;
        if (s.bins) return s.bins;
        if (!s.lines) return 0;
        return u32(((s.max_block - 1) >> shift(id)) + 1);
    }

    u64 bucket_bytes(u32 id) const {
        const S& s = structs_[id];
        if (!counted(id) || !s.lines) return 0;
        if (s.max_block == 0) return u64(s.lines) << line_bits_;
        return u64(1) << shift(id);
    }

    u64 bucket_served(u32 id, u32 b, int kind, unsigned depth) const {
        const S& s = structs_[id];
        if (b >= buckets(id)) return 0;
        size_t i = size_t(kind) * (levels_ + 1) + depth;
        if (s.bins) {
            auto it = s.hist.find(b);
            return it == s.hist.end() ? 0 : it->second[i];
        }
        u64 sum = 0;
        unsigned sh = shift(id);
        for (const auto& kv : s.hist)
            if ((kv.first >> sh) == b) sum += kv.second[i];
        return sum;
    }

    // The whole histogram at once: buckets(id) x 2 x (levels+1) counters,
    // bucket-major (what bucket_served() gives one at a time).
    std::vector<u64> histogram(u32 id) const {
        const S& s = structs_[id];
        size_t stride = 2 * size_t(levels_ + 1);
        std::vector<u64> h(buckets(id) * stride, 0);
        if (h.empty()) return h;
        unsigned sh = s.bins ? 0 : shift(id);
        for (const auto& kv : s.hist) {
            u64 b = s.bins ? kv.first : kv.first >> sh;
            for (size_t k = 0; k < 2; ++k)
                for (size_t d = 0; d <= size_t(levels_); ++d)
                    h[b * stride + k * (levels_ + 1) + d] += kv.second[k * (levels_ + 1) + d];
        }
        return h;
    }

    // Live ranges (for generating operations).
    std::vector<std::pair<u64, u64>> live() const {
        std::vector<std::pair<u64, u64>> v;
        for (const auto& kv : ranges_) v.emplace_back(kv.second.lo, kv.second.hi);
        return v;
    }
    size_t live_ranges() const { return ranges_.size(); }

private:
    struct Range {
        u64 lo, hi;
        u32 id;
        bool user;
    };
    struct S {
        bool user = false;
        u32 lines = 0, bins = 0;
        u64 max_block = 0;
        Counts total{};
        std::map<u32, Counts> threads;
        std::map<u64, Counts> hist;  // bins: bucket -> counts; lines: byte offset -> counts
    };

    int levels_;
    unsigned line_bits_;
    u32 lines_, bins_, slots_;
    u64 seq_ = 0;
    std::map<u64, Range> ranges_;  // add order -> range
    std::vector<S> structs_;
};

}  // namespace test
}  // namespace ompsim

#endif
