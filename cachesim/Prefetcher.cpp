#include "Prefetcher.h"

namespace ompsim {

namespace {
constexpr u64 kEmpty = ~0ull;
constexpr unsigned kPageBits = 12;  // proposals stay inside a 4 KiB page
}  // namespace

void Prefetcher::clear() {
    stride_ = nullptr;
    stream_ = nullptr;
    clock_ = 0;
    stride_entries_ = 0;
    stream_entries_ = 0;
    degree_ = 0;
    page_shift_ = 0;
    kinds_ = 0;
    alloc_ = Allocator{nullptr, nullptr, nullptr};
}

bool Prefetcher::init(const PrefetchConfig& cfg, unsigned line_bits, const Allocator& a) {
    clear();
    alloc_ = a;
    kinds_ = cfg.kinds;
    degree_ = cfg.degree ? cfg.degree : 1;
    if (degree_ > 64) degree_ = 64;
    page_shift_ = line_bits < kPageBits ? kPageBits - line_bits : 0;
    if (kinds_ & kPrefetchStride) {
        stride_entries_ = cfg.stride_entries ? cfg.stride_entries : 1;
        stride_ = static_cast<StrideEntry*>(a.alloc(a.ctx, stride_entries_ * sizeof(StrideEntry)));
        if (!stride_) return false;
        for (u32 i = 0; i < stride_entries_; ++i) stride_[i] = StrideEntry{kEmpty, 0, 0};
    }
    if (kinds_ & kPrefetchStream) {
        stream_entries_ = cfg.stream_entries ? cfg.stream_entries : 1;
        stream_ = static_cast<StreamEntry*>(a.alloc(a.ctx, stream_entries_ * sizeof(StreamEntry)));
        if (!stream_) {
            destroy();
            return false;
        }
        for (u32 i = 0; i < stream_entries_; ++i) stream_[i] = StreamEntry{kEmpty, 0, 0, 0};
    }
    return true;
}

void Prefetcher::destroy() {
    if (alloc_.release) {
        if (stride_) alloc_.release(alloc_.ctx, stride_);
        if (stream_) alloc_.release(alloc_.ctx, stream_);
    }
    clear();
}

// b + step, b + 2 step, ... b + degree x step, stopping at the page edge.
void Prefetcher::propose(u64 block, int64_t step, u64* out, u32& n) const {
    u64 page = block >> page_shift_;
    u64 b = block;
    for (u32 i = 0; i < degree_; ++i) {
        b += u64(step);
        if ((b >> page_shift_) != page) return;
        bool dup = false;
        for (u32 j = 0; j < n && !dup; ++j) dup = out[j] == b;
        if (!dup) out[n++] = b;
    }
}

void Prefetcher::train_stride(u64 pc, u64 block, u64* out, u32& n) {
    // PCs of x86 instructions are byte addresses; a multiplicative hash
    // spreads neighbouring loads over the table.
    StrideEntry& e = stride_[((pc * 0x9E3779B97F4A7C15ull) >> 32) % stride_entries_];
    if (e.pc != pc) {
        e = StrideEntry{pc, block, 0};
        return;
    }
    int64_t s = int64_t(block - e.last);
    e.last = block;
    if (s == 0) return;
    if (s == e.stride)
        propose(block, s, out, n);
    else
        e.stride = s;
}

void Prefetcher::train_stream(u64 block, u64* out, u32& n) {
    u64 page = block >> page_shift_;
    ++clock_;
    StreamEntry* victim = &stream_[0];
    for (u32 i = 0; i < stream_entries_; ++i) {
        StreamEntry& e = stream_[i];
        if (e.page == page) {
            e.stamp = clock_;
            if (block == e.last) return;
            int d = block > e.last ? 1 : -1;
            e.last = block;
            bool go = e.dir == 0 || e.dir == d;
            e.dir = d;
            if (go) propose(block, d, out, n);
            return;
        }
        // Empty entries have stamp 0 and are taken first.
        if (e.stamp < victim->stamp) victim = &e;
    }
    *victim = StreamEntry{page, block, clock_, 0};
}

u32 Prefetcher::train(u64 pc, u64 block, u64 out[kMaxPrefetchProposals]) {
    u32 n = 0;
    if (kinds_ & kPrefetchNextLine) propose(block, 1, out, n);
    if (kinds_ & kPrefetchStride) train_stride(pc, block, out, n);
    if (kinds_ & kPrefetchStream) train_stream(block, out, n);
    return n;
}

}  // namespace ompsim
