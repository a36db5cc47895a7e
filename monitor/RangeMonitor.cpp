#include "RangeMonitor.h"

namespace ompsim {

using mon::CacheEntry;
using mon::kCacheWays;
using mon::kWideEntries;
using mon::kInline;
using mon::kNone;
using mon::kStride;
using mon::Page;
using mon::Range;
using mon::Row;
using mon::Seg;
using mon::WholeEntry;
using mon::Structure;

namespace {

constexpr unsigned kPageBits = 12;
constexpr u64 kPageMask = (u64(1) << kPageBits) - 1;
constexpr u64 kEmptyPage = ~u64(0);
// A range touching at most this many pages goes into the page table (one
// entry per page); larger ones into the big-range segments.
constexpr u64 kSmallPages = 16;
constexpr u32 kInitialPageBits = 10;
// Free rows kept beyond one per counted structure.
constexpr u32 kRowMargin = 16;
constexpr u32 kMinRowChunk = 64;

// A small range's bin, found at each access: offset off < size is in bin
// floor(off * n / size) = (off * M) >> 32 (mon::bucket_of) with M = ceil(n * 2^32 / size),
// exactly when size < 2^16: M exceeds n * 2^32 / size by less than 1, so
// the product exceeds off * n / size by less than off / 2^32 < size / 2^32,
// which is below 1 / size, the least distance from off * n / size (a
// multiple of 1 / size) up to the next whole number. A 48-byte std::map
// node has 25 bins of 2 bytes: cut to one bin, an entry served one or two
// accesses before the next field's took the slow path (containers 100000 4,
// 25 bins: 49 M of its 105 M slow records; 8.77 s -> 8.09 s). Larger
// ranges still cut the entry to a bin: a 128-bit product for every range
// under 16 MiB made matmul's and stencil's hits dearer than the bin changes
// it saved (docs/performance.md, eighth session).
constexpr u64 kInlineBinsSize = u64(1) << 16;
u64 bins_multiplier(u64 n, u64 size) { return ((n << 32) + size - 1) / size; }

// Word by word where both ends allow it: the tool is built without the
// compiler's memset and memcpy (-fno-builtin), and byte loops made the
// growth of containers' range table alone 16 M instructions.
typedef u64 __attribute__((may_alias)) Word;

void zero_bytes(void* p, size_t n) {
    u8* b = static_cast<u8*>(p);
    size_t i = 0;
    if ((reinterpret_cast<uintptr_t>(b) & 7) == 0)
        for (; i + 8 <= n; i += 8) *reinterpret_cast<Word*>(b + i) = 0;
    for (; i < n; ++i) b[i] = 0;
}

// How many of the n ascending values are <= key (the index of the first
// one above it). Branch-free: the step is a conditional move, since a page
// of small heap blocks makes every comparison a coin toss.
u32 upper_bound(const mon::PageEntry* v, u32 n, u16 key) {
    if (n == 0) return 0;
    const mon::PageEntry* b = v;
    for (u32 len = n; len > 1;) {
        u32 half = len / 2;
        b = b[half].start <= key ? b + half : b;
        len -= half;
    }
    return u32(b - v) + (b->start <= key ? 1u : 0u);
}

void copy_bytes(void* d, const void* s, size_t n) {
    u8* a = static_cast<u8*>(d);
    const u8* b = static_cast<const u8*>(s);
    size_t i = 0;
    if (((reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b)) & 7) == 0)
        for (; i + 8 <= n; i += 8) *reinterpret_cast<Word*>(a + i) = *reinterpret_cast<const Word*>(b + i);
    for (; i < n; ++i) a[i] = b[i];
}

// Copies n entries; the index, if `to` has one, is made from them.
void copy_lists(const mon::PageLists& to, const mon::PageLists& from, u32 n) {
    for (u32 i = 0; i < n; ++i) to.e[i] = from.e[i];
    if (!to.first) return;
    u32 i = 0;
    for (u32 g = 0; g < mon::kGrains; ++g) {
        while (i < n && to.e[i].start < g << mon::kGrainBits) ++i;
        to.first[g] = u8(i);
    }
}

// A range starting at offset `start` came (+1) or went (-1): the grains
// after start's count one more or one less, eight at a time (no count
// leaves 0..kIndexedCap, so no byte carries into the next; byte by byte
// this was 130 instructions a heap event).
void index_start(const mon::PageLists& l, u32 start, int delta) {
    if (!l.first) return;
    static_assert(mon::kGrains % 8 == 0, "whole words");
    Word* w = reinterpret_cast<Word*>(l.first);  // 8-aligned: 12 * cap bytes into the block
    u32 g = (start >> mon::kGrainBits) + 1;     // the first grain that changes
    const u64 ones = 0x0101010101010101ull;
    for (u32 i = g / 8; i < mon::kGrains / 8; ++i) {
        u64 m = i == g / 8 ? ones << (8 * (g % 8)) : ones;  // little-endian: byte j is grain 8 i + j
        w[i] = delta > 0 ? w[i] + m : w[i] - m;
    }
}

// How many of the page's `count` ranges start at or before offset `off`.
inline u32 starts_upto(const mon::PageLists& l, u32 count, u32 off) {
    u32 i = l.first ? l.first[off >> mon::kGrainBits] : count > kInline ? upper_bound(l.e, count, u16(off)) : 0;
    while (i < count && l.e[i].start <= off) ++i;
    return i;
}

// The last-hit cache's short lists, most recent first: entry w moves to
// the front; x goes in front and the last falls off.
template <typename T>
void move_to_front(T* a, u32 w) {
    T hit = a[w];
    for (u32 i = w; i > 0; --i) a[i] = a[i - 1];
    a[0] = hit;
}
template <typename T>
void push_front(T* a, u32 n, const T& x) {
    for (u32 i = n - 1; i > 0; --i) a[i] = a[i - 1];
    a[0] = x;
}

inline u64 min64(u64 a, u64 b) { return a < b ? a : b; }
inline u64 max64(u64 a, u64 b) { return a > b ? a : b; }

inline u32 page_hash(u64 page, u32 bits) {
    return u32((page * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

template <class T, class Less>
void heap_sort(T* a, u32 n, Less less) {
    auto sift = [&](u32 i, u32 m) {
        for (;;) {
            u32 c = 2 * i + 1;
            if (c >= m) break;
            if (c + 1 < m && less(a[c], a[c + 1])) ++c;
            if (!less(a[i], a[c])) break;
            T t = a[i];
            a[i] = a[c];
            a[c] = t;
            i = c;
        }
    };
    for (u32 i = n / 2; i-- > 0;) sift(i, n);
    for (u32 m = n; m-- > 1;) {
        T t = a[0];
        a[0] = a[m];
        a[m] = t;
        sift(0, m);
    }
}

}  // namespace

// ---------------------------------------------------------------- lifecycle

void RangeMonitor::clear_fields() {
    alloc_.alloc = nullptr;
    alloc_.release = nullptr;
    alloc_.ctx = nullptr;
    cfg_.levels = 0;
    cfg_.line_bits = 0;
    cfg_.histogram_lines = 0;
    cfg_.histogram_bins = 0;
    cfg_.slots = 0;
    dstride_ = 1;
    hstride_ = 2;
    zero_bytes(&sink_row_, sizeof sink_row_);
    zero_bytes(sink_bucket_, sizeof sink_bucket_);
    zero_bytes(cache_, sizeof cache_);
    zero_bytes(slot_whole_, sizeof slot_whole_);
    zero_bytes(used_, sizeof used_);
    zero_bytes(hint_, sizeof hint_);
    flush_cache();
    cache_thread_ = kMonitorNoThread;
    structs_ = nullptr;
    nstructs_ = cap_structs_ = ncounted_ = 0;
    ranges_ = nullptr;
    nranges_ = cap_ranges_ = live_ranges_ = 0;
    free_ids_ = nullptr;
    nfree_ids_ = 0;
    seq_ = 0;
    pages_ = nullptr;
    page_bits_ = 0;
    pages_used_ = 0;
    big_ = nullptr;
    nbig_ = cap_big_ = 0;
    segs_ = nullptr;
    nsegs_ = cap_segs_ = 0;
    big_overlap_ = false;
    nkinds_ = 0;
    zero_bytes(kind_slot_, sizeof kind_slot_);
    kind_sid_[0] = kind_size_[0] = 0;  // read, not used, for a granule of no block
    free_rows_ = nullptr;
    nfree_rows_ = 0;
    row_chunks_ = nullptr;
    rows_starved_ = false;
}

void* RangeMonitor::mem(size_t bytes) { return alloc_.alloc(alloc_.ctx, bytes); }

void RangeMonitor::unmem(void* p) {
    if (p) alloc_.release(alloc_.ctx, p);
}

template <class T>
bool RangeMonitor::grow(T*& p, u32& cap, u32 need) {
    if (need <= cap) return true;
    u32 nc = cap ? cap : 16;
    while (nc < need) nc *= 2;
    T* q = static_cast<T*>(mem(sizeof(T) * size_t(nc)));
    if (!q) return false;
    if (p) copy_bytes(q, p, sizeof(T) * size_t(cap));
    unmem(p);
    p = q;
    cap = nc;
    return true;
}

bool RangeMonitor::init(const MonitorConfig& cfg, const Allocator& a, ErrorText& err) {
    clear_fields();
    if (cfg.levels < 1 || cfg.levels > kMonitorMaxLevels) {
        error_append(err, "monitor: levels must be 1..4, got ");
        error_append_u64(err, u64(cfg.levels < 0 ? 0 : cfg.levels));
        return false;
    }
    if (cfg.line_bits < 2 || cfg.line_bits > 16) {
        error_append(err, "monitor: line size must be 4 B..64 KiB");
        return false;
    }
    if (cfg.histogram_lines && cfg.histogram_bins) {
        error_append(err, "monitor: histogram by lines or by bins, not both");
        return false;
    }
    if (cfg.histogram_lines &&
        (!is_pow2(cfg.histogram_lines) || cfg.histogram_lines > kMonitorMaxHistogramLines)) {
        error_append(err, "monitor: histogram lines must be a power of two <= ");
        error_append_u64(err, kMonitorMaxHistogramLines);
        return false;
    }
    if (cfg.histogram_bins > kMonitorMaxBins) {
        error_append(err, "monitor: histogram bins must be <= ");
        error_append_u64(err, kMonitorMaxBins);
        return false;
    }
    alloc_ = a;
    cfg_ = cfg;
    dstride_ = u32(cfg.levels) + 1;
    hstride_ = 2 * dstride_;
    if (!page_rehash(kInitialPageBits) || !ensure_rows()) {
        destroy();
        error_append(err, "monitor: out of memory");
        return false;
    }
    return true;
}

void RangeMonitor::destroy() {
    if (!alloc_.release) {
        clear_fields();
        return;
    }
    for (u32 i = 0; i < nstructs_; ++i) unmem(structs_[i].hist);
    unmem(structs_);
    if (pages_) {
        u32 n = 1u << page_bits_;
        for (u32 i = 0; i < n; ++i)
            if (pages_[i].page != kEmptyPage && pages_[i].cap) {
                unmem(pages_[i].heap);
                unmem(pages_[i].shadow());
            }
    }
    unmem(pages_);
    unmem(ranges_);
    unmem(free_ids_);
    unmem(big_);
    unmem(segs_);
    void* c = row_chunks_;
    while (c) {
        void* next = *static_cast<void**>(c);
        unmem(c);
        c = next;
    }
    clear_fields();
}

// ---------------------------------------------------------------- rows

bool RangeMonitor::ensure_rows() {
    u32 want = ncounted_ + kRowMargin;
    if (nfree_rows_ >= want) return true;
    u32 n = want - nfree_rows_;
    if (n < kMinRowChunk) n = kMinRowChunk;
    // Chunk: a next-chunk pointer padded to 16 bytes, then the rows.
    size_t head = 16;
    u8* chunk = static_cast<u8*>(mem(head + sizeof(Row) * size_t(n)));
    if (!chunk) return false;
    *reinterpret_cast<void**>(chunk) = row_chunks_;
    row_chunks_ = chunk;
    Row* rows = reinterpret_cast<Row*>(chunk + head);
    for (u32 i = 0; i < n; ++i) {
        rows[i].next = free_rows_;
        free_rows_ = &rows[i];
    }
    nfree_rows_ += n;
    return true;
}

void RangeMonitor::release_rows(Structure& s) {
    Row* r = s.rows;
    while (r) {
        Row* next = r->next;
        r->next = free_rows_;
        free_rows_ = r;
        ++nfree_rows_;
        r = next;
    }
    s.rows = nullptr;
    s.nrows = 0;
    s.cur_row = nullptr;
    s.cur_thread = kMonitorNoThread;
    zero_bytes(s.overflow.served, sizeof s.overflow.served);
    s.overflow_used = false;
}

void RangeMonitor::set_current_thread(u32 thread) {
    if (thread == cache_thread_) return;
    flush_cache();
    cache_thread_ = thread;
}

void RangeMonitor::prepare_thread(u32 thread) {
    (void)thread;
    ensure_rows();
}

Row* RangeMonitor::row_for(Structure& s, u32 thread) {
    if (s.cur_row && s.cur_thread == thread) return s.cur_row;
    Row** link = &s.rows;
    while (*link && (*link)->thread < thread) link = &(*link)->next;
    Row* r = *link;
    if (!r || r->thread != thread) {
        if (!free_rows_) {
            s.overflow_used = true;
            rows_starved_ = true;
            return &s.overflow;
        }
        r = free_rows_;
        free_rows_ = r->next;
        --nfree_rows_;
        zero_bytes(r->served, sizeof r->served);
        r->thread = thread;
        r->next = *link;
        *link = r;
        ++s.nrows;
    }
    s.cur_row = r;
    s.cur_thread = thread;
    return r;
}

// ---------------------------------------------------------------- structures

u32 RangeMonitor::add_structure(bool user_named) {
    if (nstructs_ == kMonitorNoStructure - 1) return kMonitorNoStructure;
    if (!grow(structs_, cap_structs_, nstructs_ + 1)) return kMonitorNoStructure;
    flush_cache();  // cache entries may point into the old array
    u32 id = nstructs_++;
    Structure& s = structs_[id];
    zero_bytes(&s, sizeof s);
    s.overflow.thread = kMonitorNoThread;
    s.cur_thread = kMonitorNoThread;
    s.user = user_named;
    s.res_lines = cfg_.histogram_lines;
    s.res_bins = cfg_.histogram_bins;
    bool take = cfg_.slots == 0 || ncounted_ < cfg_.slots;
    if (!take && user_named) {
        // Take the slot of the most recently added counted automatic one.
        for (u32 j = id; j-- > 0;) {
            Structure& o = structs_[j];
            if (o.counted && !o.user) {
                drop_structure_counts(o);
                o.counted = false;
                --ncounted_;
                take = true;
                break;
            }
        }
    }
    if (take) {
        s.counted = true;
        ++ncounted_;
    }
    ensure_rows();
    return id;
}

void RangeMonitor::drop_structure_counts(Structure& s) {
    release_rows(s);
    unmem(s.hist);
    s.hist = nullptr;
    s.nbuckets = s.hist_cap = 0;
    s.bins = 0;
    s.hist_shift = 0;
}

bool RangeMonitor::set_resolution(u32 id, u32 lines, u32 bins) {
    if (id >= nstructs_) return false;
    if (lines && bins) return false;
    if (lines && (!is_pow2(lines) || lines > kMonitorMaxHistogramLines)) return false;
    if (bins > kMonitorMaxBins) return false;
    flush_cache();
    Structure& s = structs_[id];
    s.res_lines = lines;
    s.res_bins = bins;
    unmem(s.hist);
    s.hist = nullptr;
    s.nbuckets = s.hist_cap = 0;
    s.bins = 0;
    s.hist_shift = 0;
    if (s.max_block) return size_hist(s, s.max_block);
    return true;
}

// Makes the histogram of s cover a block of `block` bytes (and every earlier
// one); folds adjacent buckets when the lines-mode bucket must double.
bool RangeMonitor::size_hist(Structure& s, u64 block) {
    u64 maxb = max64(s.max_block, block);
    if (!s.counted || (!s.res_lines && !s.res_bins)) {
        s.max_block = maxb;
        return true;
    }
    size_t bucket_bytes = sizeof(u64) * hstride_;
    if (s.res_bins) {
        if (!s.hist) {
            u64* h = static_cast<u64*>(mem(bucket_bytes * s.res_bins));
            if (!h) return false;
            zero_bytes(h, bucket_bytes * s.res_bins);
            s.hist = h;
            s.nbuckets = s.hist_cap = s.res_bins;
            s.bins = s.res_bins;
        }
        s.max_block = maxb;
        return true;
    }
    unsigned shift = s.hist ? s.hist_shift
                            : cfg_.line_bits + unsigned(log2_exact(s.res_lines));
    while (((maxb - 1) >> shift) + 1 > kMonitorMaxBuckets) ++shift;
    u32 nb = u32(((maxb - 1) >> shift) + 1);
    if (s.hist && shift == s.hist_shift && nb <= s.hist_cap) {
        s.nbuckets = nb;  // the new buckets are already zero
        s.max_block = maxb;
        return true;
    }
    u32 cap = nb;
    if (shift == s.hist_shift || !s.hist) {
        // Growing blocks: leave room to avoid reallocating on every new size.
        u32 c = 1;
        while (c < nb) c *= 2;
        cap = c < kMonitorMaxBuckets ? c : kMonitorMaxBuckets;
        if (cap < nb) cap = nb;
    }
    u64* h = static_cast<u64*>(mem(bucket_bytes * cap));
    if (!h) return false;
    zero_bytes(h, bucket_bytes * cap);
    if (s.hist) {
        unsigned fold = shift - s.hist_shift;
        for (u32 b = 0; b < s.nbuckets; ++b) {
            u64* from = s.hist + size_t(b) * hstride_;
            u64* to = h + size_t(b >> fold) * hstride_;
            for (u32 i = 0; i < hstride_; ++i) to[i] += from[i];
        }
        unmem(s.hist);
    }
    s.hist = h;
    s.hist_cap = cap;
    s.nbuckets = nb;
    s.hist_shift = shift;
    s.bins = 0;
    s.max_block = maxb;
    return true;
}

// ---------------------------------------------------------------- page table

u32 RangeMonitor::page_find(u64 page) const {
    u32 mask = (1u << page_bits_) - 1;
    for (u32 i = page_hash(page, page_bits_);; i = (i + 1) & mask) {
        const Page& p = pages_[i];
        if (p.page == page) return i;
        if (p.page == kEmptyPage) return kNone;
    }
}

bool RangeMonitor::page_rehash(u32 bits) {
    u32 n = 1u << bits;
    Page* t = static_cast<Page*>(mem(sizeof(Page) * size_t(n)));
    if (!t) return false;
    for (u32 i = 0; i < n; ++i) {
        zero_bytes(&t[i], sizeof(Page));
        t[i].page = kEmptyPage;
    }
    u32 mask = n - 1;
    if (pages_) {
        u32 old = 1u << page_bits_;
        for (u32 i = 0; i < old; ++i) {
            if (pages_[i].page == kEmptyPage) continue;
            u32 j = page_hash(pages_[i].page, bits);
            while (t[j].page != kEmptyPage) j = (j + 1) & mask;
            t[j] = pages_[i];
        }
        unmem(pages_);
    }
    pages_ = t;
    page_bits_ = bits;
    zero_bytes(hint_, sizeof hint_);  // the pages moved
    return true;
}

u32 RangeMonitor::page_insert(u64 page) {
    u32 found = page_find(page);
    if (found != kNone) return found;
    if (2 * (pages_used_ + 1) > (1u << page_bits_)) {
        if (page_bits_ >= 31 || !page_rehash(page_bits_ + 1)) return kNone;
    }
    u32 mask = (1u << page_bits_) - 1;
    u32 i = page_hash(page, page_bits_);
    while (pages_[i].page != kEmptyPage) i = (i + 1) & mask;
    Page& p = pages_[i];
    zero_bytes(&p, sizeof p);
    p.page = page;
    ++pages_used_;
    mark_small_segments(page);
    return i;
}

// Backward-shift deletion (linear probing keeps no tombstones).
void RangeMonitor::page_erase(u32 slot) {
    u32 mask = (1u << page_bits_) - 1;
    u32 i = slot;
    pages_[i].page = kEmptyPage;
    u32 j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (pages_[j].page == kEmptyPage) break;
        u32 k = page_hash(pages_[j].page, page_bits_);
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        pages_[i] = pages_[j];
        pages_[j].page = kEmptyPage;
        i = j;
    }
    --pages_used_;
}

bool RangeMonitor::page_add(u64 page, u32 r) {
    u32 slot = page_insert(page);
    if (slot == kNone) return false;
    Page& p = pages_[slot];
    if ((p.cap == 0 && p.count == kInline) || (p.cap && p.count == p.cap)) {
        u32 cap = p.cap ? 2 * p.cap : 2 * kInline;
        mon::PageEntry* h = static_cast<mon::PageEntry*>(mem(page_heap_bytes(cap)));
        if (!h) return false;
        copy_lists(lists_in(h, cap), page_lists(p), p.count);
        bool was_inline = p.cap == 0;
        if (p.cap) unmem(p.heap);
        p.heap = h;
        p.cap = cap;
        if (was_inline) shadow_build(p);  // in the inline entries' place, copied above
    }
    mon::PageLists l = page_lists(p);
    u64 lo = ranges_[r].lo, hi = ranges_[r].hi, base = page << kPageBits;
    bool crosses = lo < base || hi - base > kPageMask + 1;
    u32 start = u32(lo > base ? lo - base : 0), end = u32(hi - base < kPageMask + 1 ? hi - base : kPageMask + 1);
    // Within the page the offsets order the entry as the ranges' starts do,
    // so the neighbours' ranges, which the host has mostly evicted, are not
    // read; only a range from before the page ties with the others clamped
    // to offset 0, and is ordered by its range.
    u32 pos = p.count;
    if (crosses) {
        for (; pos > 0 && ranges_[l.e[pos - 1].id].lo > lo; --pos) l.move(pos, pos - 1);
    } else {
        for (; pos > 0 && l.e[pos - 1].start > start; --pos) l.move(pos, pos - 1);
    }
    l.e[pos] = mon::PageEntry{u16(start), u16(end), ranges_[r].sid | (crosses ? mon::kCrossesPage : 0), r};
    index_start(l, start, +1);
    ++p.count;
    // The clamped offsets also tell an overlap: an entry clamped to offset
    // 0 contains the page's first byte, one clamped to the page's end its
    // last.
    if (pos > 0 && l.e[pos - 1].end > start) p.overlap = 1;
    if (pos + 1 < p.count && end > l.e[pos + 1].start) p.overlap = 1;
    if (p.cap && p.shadow() && (p.overlap || !shadow_put(p, base, l.e[pos], lo, hi))) shadow_drop(p);
    return true;
}

// The kind of blocks of structure sid and `size` bytes in the pages'
// shadows, numbered at first sight; 0 when all kKinds - 1 are taken.
u32 RangeMonitor::kind_of(u32 sid, u32 size) {
    u32 i = ((sid * 0x9E3779B1u) ^ (size * 0x85EBCA6Bu)) >> (32 - mon::kKindSlotBits);
    for (;; i = (i + 1) & (mon::kKindSlots - 1)) {
        u32 k = kind_slot_[i];
        if (k == 0) break;
        if (kind_sid_[k] == sid && kind_size_[k] == size) return k;
    }
    if (nkinds_ + 1 >= mon::kKinds) return 0;
    u32 k = ++nkinds_;
    kind_sid_[k] = sid;
    kind_size_[k] = size;
    kind_slot_[i] = u8(k);
    return k;
}

namespace {
// The granules entry e covers in its page: g0 to g1.
inline void granules_of(const mon::PageEntry& e, u32* g0, u32* g1) {
    *g0 = e.start >> mon::kGranuleBits;
    *g1 = (e.end - 1u) >> mon::kGranuleBits;
}
}  // namespace

// The granules of entry e (of range [lo, hi)) in the shadow of p, the
// page at `base`; false when the range cannot be told there: it starts
// inside a granule, is larger than a page (its granules' distances to the
// start would not fit a byte), or no kind is left. A block that crosses
// into the next page is told in both: glibc's heap of 64- and 32-byte
// chunks side by side (containers) has one at nearly every page's end.
bool RangeMonitor::shadow_put(Page& p, u64 base, const mon::PageEntry& e, u64 lo, u64 hi) {
    if ((lo & ((1u << mon::kGranuleBits) - 1)) || hi - lo > kPageMask + 1) return false;
    u32 kind = kind_of(e.sid & ~mon::kCrossesPage, u32(hi - lo));
    if (!kind) return false;
    u16* sh = p.shadow();
    u32 g0, g1;
    granules_of(e, &g0, &g1);
    u32 first = u32(((base + e.start) - lo) >> mon::kGranuleBits);  // granule g0's distance to lo
    for (u32 g = g0; g <= g1; ++g) sh[g] = u16(kind << 8 | (first + g - g0));
    return true;
}

void RangeMonitor::shadow_clear(Page& p, const mon::PageEntry& e) {
    u16* sh = p.shadow();
    u32 g0, g1;
    granules_of(e, &g0, &g1);
    for (u32 g = g0; g <= g1; ++g) sh[g] = 0;
}

void RangeMonitor::shadow_drop(Page& p) {
    unmem(p.shadow());
    p.set_shadow(nullptr);
}

// A shadow for p's entries, which just moved to a heap block; none if they
// overlap or one cannot be told (shadow_put()).
void RangeMonitor::shadow_build(Page& p) {
    p.set_shadow(nullptr);
    if (p.overlap) return;
    u16* sh = static_cast<u16*>(mem(sizeof(u16) * mon::kGranules));
    if (!sh) return;
    zero_bytes(sh, sizeof(u16) * mon::kGranules);
    p.set_shadow(sh);
    const mon::PageLists l = page_lists(p);
    u64 base = p.page << kPageBits;
    for (u32 i = 0; i < p.count; ++i) {
        const mon::PageEntry& e = l.e[i];
        u64 lo = base + e.start, hi = base + e.end;
        if (e.sid & mon::kCrossesPage) {
            lo = ranges_[e.id].lo;
            hi = ranges_[e.id].hi;
        }
        if (!shadow_put(p, base, e, lo, hi)) return shadow_drop(p);
    }
}

void RangeMonitor::page_remove(u64 page, u32 r) {
    u32 slot = page_find(page);
    if (slot == kNone) return;
    Page& p = pages_[slot];
    mon::PageLists l = page_lists(p);
    // Among the entries with r's start offset (a walk over the page's 85
    // ids was 130 instructions a free in containers).
    u64 lo = ranges_[r].lo, base = page << kPageBits;
    u32 start = u32(lo > base ? lo - base : 0);
    u32 pos = start ? starts_upto(l, p.count, start - 1) : 0;
    while (pos < p.count && l.e[pos].id != r) ++pos;
    if (pos == p.count) return;
    page_remove_at(slot, pos);
}

// Entry `pos` of the page in `slot` leaves its lists.
void RangeMonitor::page_remove_at(u32 slot, u32 pos) {
    Page& p = pages_[slot];
    mon::PageLists l = page_lists(p);
    if (p.cap && p.shadow()) shadow_clear(p, l.e[pos]);
    index_start(l, l.e[pos].start, -1);
    for (u32 i = pos + 1; i < p.count; ++i) l.move(i - 1, i);
    --p.count;
    if (p.count == 0) {
        if (p.cap) {
            unmem(p.heap);
            unmem(p.shadow());
        }
        page_erase(slot);
        return;
    }
    if (p.cap && p.count <= kInline) {
        mon::PageEntry* heap = p.heap;
        u16* shadow = p.shadow();  // the inline entries take its place
        p.cap = 0;  // page_lists(p) is now the inline lists
        copy_lists(page_lists(p), l, p.count);
        unmem(heap);
        unmem(shadow);
        p.heap = nullptr;
        l = page_lists(p);
    }
    if (p.overlap) {
        p.overlap = 0;
        for (u32 i = 1; i < p.count; ++i)
            if (ranges_[l.e[i - 1].id].hi > ranges_[l.e[i].id].lo) p.overlap = 1;
    }
}

// ---------------------------------------------------------------- ranges

// Free ranges are a stack of ids beside the ranges, not a list through
// them: popping a list's head read the record, which a program that frees
// a whole container and then allocates again has long left the host's
// caches (containers 100000 4 with the monitor: a host miss per
// allocation, 215 of the main thread's 11,300 perf samples on that one
// load). With the two changes below, `make bench-heap` (that program's
// 1.5 M heap events replayed into a hosted monitor) takes 94 ns an event
// instead of 136 to 140, and the run itself 6.30 s instead of 6.40 s
// (--miss-thread=no, medians of 5, faster in 4 of 5 pairs). The stack has
// room for every range, so that free_range() cannot fail.
u32 RangeMonitor::new_range() {
    if (nfree_ids_) return free_ids_[--nfree_ids_];
    if (nranges_ == kNone - 1) return kNone;
    if (nranges_ == cap_ranges_) {
        u32 cap = cap_ranges_;
        if (!grow(ranges_, cap_ranges_, nranges_ + 1)) return kNone;
        u32* ids = static_cast<u32*>(mem(sizeof(u32) * size_t(cap_ranges_)));
        if (!ids) {
            // Keep the two capacities equal: the ranges' new room goes unused.
            cap_ranges_ = cap;
            return kNone;
        }
        copy_bytes(ids, free_ids_, sizeof(u32) * size_t(nfree_ids_));
        unmem(free_ids_);
        free_ids_ = ids;
    }
    return nranges_++;
}

// A free range's record is not written: add_range() sets every field when
// it is taken again, and no list holds it meanwhile (writing its flags cost
// a host miss per free, as reading them did).
void RangeMonitor::free_range(u32 r) { free_ids_[nfree_ids_++] = r; }

bool RangeMonitor::insert_small(u32 r) {
    u64 first = ranges_[r].lo >> kPageBits, last = (ranges_[r].hi - 1) >> kPageBits;
    for (u64 pg = first; pg <= last; ++pg) {
        if (!page_add(pg, r)) {
            for (u64 q = first; q < pg; ++q) page_remove(q, r);
            return false;
        }
    }
    return true;
}

void RangeMonitor::remove_small(u32 r) {
    u64 first = ranges_[r].lo >> kPageBits, last = (ranges_[r].hi - 1) >> kPageBits;
    for (u64 pg = first; pg <= last; ++pg) page_remove(pg, r);
}

bool RangeMonitor::insert_big(u32 r) {
    if (!grow(big_, cap_big_, nbig_ + 1)) return false;
    big_[nbig_++] = r;
    const Range& n = ranges_[r];
    forget_hints(n.lo, n.hi);
    if (!big_overlap_) {
        // Segments are the big ranges themselves: insert unless it overlaps.
        u32 lo = 0, hi = nsegs_;  // first segment with seg.hi > n.lo
        while (lo < hi) {
            u32 mid = (lo + hi) / 2;
            if (segs_[mid].hi <= n.lo) lo = mid + 1; else hi = mid;
        }
        if (lo == nsegs_ || segs_[lo].lo >= n.hi) {
            if (!grow(segs_, cap_segs_, nsegs_ + 1)) {
                --nbig_;
                return false;
            }
            for (u32 i = nsegs_; i > lo; --i) segs_[i] = segs_[i - 1];
            segs_[lo].lo = n.lo;
            segs_[lo].hi = n.hi;
            segs_[lo].range = r;
            segs_[lo].small = 0;
            ++nsegs_;
            mark_all_small_segments();
            return true;
        }
    }
    if (!rebuild_segs()) {
        --nbig_;
        rebuild_segs();
        return false;
    }
    return true;
}

// Takes r out of the big list; with disjoint big ranges also out of the
// segments, else asks for a rebuild.
bool RangeMonitor::remove_big(u32 r, bool* rebuild) {
    forget_hints(ranges_[r].lo, ranges_[r].hi);
    for (u32 i = 0; i < nbig_; ++i) {
        if (big_[i] == r) {
            big_[i] = big_[--nbig_];
            break;
        }
    }
    if (big_overlap_) {
        *rebuild = true;
        return true;
    }
    for (u32 i = 0; i < nsegs_; ++i) {
        if (segs_[i].range == r) {
            for (u32 j = i + 1; j < nsegs_; ++j) segs_[j - 1] = segs_[j];
            --nsegs_;
            break;
        }
    }
    return true;
}

// Sweep over the big ranges' endpoints: each elementary interval goes to the
// covering range of highest priority (a max-heap with lazy deletion);
// adjacent intervals with the same winner merge. O(B log B).
bool RangeMonitor::rebuild_segs() {
    u32 n = nbig_;
    if (n == 0) {
        big_overlap_ = false;
        nsegs_ = 0;
        return true;
    }
    if (!grow(segs_, cap_segs_, 2 * n)) return false;
    u8* scratch = static_cast<u8*>(mem(size_t(n) * (sizeof(u64) + 2 * sizeof(u32))));
    if (!scratch) return false;
    big_overlap_ = false;
    nsegs_ = 0;
    u64* ends = reinterpret_cast<u64*>(scratch);
    u32* order = reinterpret_cast<u32*>(scratch + size_t(n) * sizeof(u64));
    u32* heap = order + n;
    const Range* rg = ranges_;
    for (u32 i = 0; i < n; ++i) {
        order[i] = big_[i];
        ends[i] = rg[big_[i]].hi;
    }
    heap_sort(order, n, [rg](u32 a, u32 b) { return rg[a].lo < rg[b].lo; });
    heap_sort(ends, n, [](u64 a, u64 b) { return a < b; });
    auto before = [rg](u32 a, u32 b) { return rg[a].prio < rg[b].prio; };
    u32 i = 0, e = 0, hn = 0;
    u32 cur = kNone;
    u64 cur_lo = 0;
    for (;;) {
        bool have_lo = i < n, have_end = e < n;
        if (!have_lo && !have_end) break;
        u64 p = have_lo ? rg[order[i]].lo : ends[e];
        if (have_end && ends[e] < p) p = ends[e];
        while (i < n && rg[order[i]].lo == p) {
            // push
            u32 c = hn++;
            heap[c] = order[i++];
            while (c > 0 && before(heap[(c - 1) / 2], heap[c])) {
                u32 t = heap[c];
                heap[c] = heap[(c - 1) / 2];
                heap[(c - 1) / 2] = t;
                c = (c - 1) / 2;
            }
        }
        while (e < n && ends[e] == p) ++e;
        if (i - e >= 2) big_overlap_ = true;
        while (hn > 0 && rg[heap[0]].hi <= p) {
            // pop
            heap[0] = heap[--hn];
            u32 c = 0;
            for (;;) {
                u32 l = 2 * c + 1;
                if (l >= hn) break;
                if (l + 1 < hn && before(heap[l], heap[l + 1])) ++l;
                if (!before(heap[c], heap[l])) break;
                u32 t = heap[c];
                heap[c] = heap[l];
                heap[l] = t;
                c = l;
            }
        }
        u32 w = hn ? heap[0] : kNone;
        if (w != cur) {
            if (cur != kNone) {
                Seg& s = segs_[nsegs_++];
                s.lo = cur_lo;
                s.hi = p;
                s.range = cur;
                s.small = 0;
            }
            cur = w;
            cur_lo = p;
        }
    }
    unmem(scratch);
    mark_all_small_segments();
    return true;
}

// Seg::small for the segments overlapping one page that holds small ranges.
void RangeMonitor::mark_small_segments(u64 page) {
    u64 plo = page << kPageBits, phi = plo + kPageMask;
    u32 lo = 0, hi = nsegs_;  // first segment with seg.hi > plo
    while (lo < hi) {
        u32 mid = (lo + hi) / 2;
        if (segs_[mid].hi <= plo) lo = mid + 1; else hi = mid;
    }
    for (u32 i = lo; i < nsegs_ && segs_[i].lo <= phi; ++i) segs_[i].small = 1;
}

// After segments change: O(page-table slots x log segments), and only when
// big ranges come or go.
void RangeMonitor::mark_all_small_segments() {
    if (!nsegs_) return;
    u32 n = 1u << page_bits_;
    for (u32 i = 0; i < n; ++i)
        if (pages_[i].page != kEmptyPage) mark_small_segments(pages_[i].page);
}

bool RangeMonitor::add_moves_counters(u32 id, u64 size) const {
    if (id >= nstructs_) return false;
    const Structure& s = structs_[id];
    if (!s.counted || !s.res_lines || !s.hist) return false;  // no histogram to move
    u64 maxb = max64(s.max_block, size);
    unsigned shift = s.hist_shift;
    while (((maxb - 1) >> shift) + 1 > kMonitorMaxBuckets) ++shift;
    u32 nb = u32(((maxb - 1) >> shift) + 1);
    return shift != s.hist_shift || nb > s.hist_cap;
}

bool RangeMonitor::add_range(u64 lo, u64 size, u32 id) {
    if (id >= nstructs_ || size == 0 || size >= kMonitorMaxRangeSize || lo + size < lo)
        return false;
    u32 r = new_range();
    if (r == kNone) return false;
    Structure& s = structs_[id];
    const u64* hist = s.hist;
    if (!size_hist(s, size)) {
        free_range(r);
        return false;
    }
    // A lines-mode histogram that grew has moved: entries point into it.
    if (s.hist != hist) flush_cache();
    invalidate(lo, lo + size);
    Range& g = ranges_[r];
    g.lo = lo;
    g.hi = lo + size;
    g.prio = ++seq_ | (s.user ? u64(1) << 63 : 0);
    g.sid = id;
    g.link = kNone;
    g.user = s.user;
    g.mark = false;
    u64 pages = ((g.hi - 1) >> kPageBits) - (lo >> kPageBits) + 1;
    g.big = pages > kSmallPages;
    bool ok = g.big ? insert_big(r) : insert_small(r);
    if (!ok) {
        free_range(r);
        return false;
    }
    ++live_ranges_;
    ensure_rows();
    return true;
}

void RangeMonitor::remove_chain(u32 head) {
    bool rebuild = false;
    for (u32 r = head; r != kNone;) {
        u32 next = ranges_[r].link;
        invalidate(ranges_[r].lo, ranges_[r].hi);
        if (ranges_[r].big)
            remove_big(r, &rebuild);
        else
            remove_small(r);
        ranges_[r].mark = false;
        free_range(r);
        --live_ranges_;
        r = next;
    }
    if (rebuild) rebuild_segs();  // shrinking: segs_ already has room
}

// Calls f(r) for every live range r that may start at lo (f checks): in
// lo's page, only the entries whose start offset is lo's (the list is
// sorted by lo, so they are adjacent, found by starts_upto()), then the
// big ranges. Reading every range of the page instead, as remove_range()
// did, cost containers a host miss per block of the page at each free.
template <class F>
void RangeMonitor::for_each_starting_at(u64 lo, F f) const {
    u32 slot = page_find(lo >> kPageBits);
    if (slot != kNone) {
        const Page& p = pages_[slot];
        const mon::PageLists l = page_lists(p);
        u16 off = u16(lo & kPageMask);
        u32 i = off ? starts_upto(l, p.count, off - 1) : 0;
        for (; i < p.count && l.e[i].start == off; ++i) f(l.e[i].id);
    }
    for (u32 i = 0; i < nbig_; ++i) f(big_[i]);
}

// A lone range inside lo's page that starts at lo (a free of a small heap
// block, nearly every one) is removed with what its page's lists say of
// it. Reading its range, as the general way does, cost containers 100000 4
// with the monitor a host miss per free (223 of the main thread's 11,300
// perf samples on that one load; see new_range()).
u32 RangeMonitor::remove_range(u64 lo, MonitorRangeClass which) {
    u32 head = kNone, n = 0;
    auto take = [&](u32 r) {
        Range& g = ranges_[r];
        if (g.mark || g.lo != lo) return;
        if (!(which & (g.user ? kUserRanges : kAutomaticRanges))) return;
        g.mark = true;
        g.link = head;
        head = r;
        ++n;
    };
    u32 slot = page_find(lo >> kPageBits);
    if (slot != kNone) {
        const Page& p = pages_[slot];
        const mon::PageLists l = page_lists(p);
        u16 off = u16(lo & kPageMask);
        u32 i = off ? starts_upto(l, p.count, off - 1) : 0, j = i;
        while (j < p.count && l.e[j].start == off) ++j;
        if (j == i + 1 && !(l.e[i].sid & mon::kCrossesPage)) {
            // Within the page: its range starts at lo, and its structure
            // gives its class.
            if (which & (structs_[l.e[i].sid].user ? kUserRanges : kAutomaticRanges)) {
                u32 r = l.e[i].id;
                invalidate(lo, (lo & ~kPageMask) + l.e[i].end);
                page_remove_at(slot, i);
                free_range(r);
                --live_ranges_;
                ++n;
            }
        } else {
            for (u32 k = i; k < j; ++k) take(l.e[k].id);
        }
    }
    for (u32 k = 0; k < nbig_; ++k) take(big_[k]);
    remove_chain(head);
    ensure_rows();
    return n;
}

u32 RangeMonitor::structure_starting_at(u64 lo, MonitorRangeClass which) const {
    u32 best = kNone;
    u64 prio = 0;
    for_each_starting_at(lo, [&](u32 r) {
        const Range& g = ranges_[r];
        if (g.lo != lo || !(which & (g.user ? kUserRanges : kAutomaticRanges))) return;
        if (best == kNone || g.prio > prio) {
            best = g.sid;
            prio = g.prio;
        }
    });
    return best == kNone ? kMonitorNoStructure : best;
}

u32 RangeMonitor::remove_ranges_in(u64 lo, u64 size) {
    if (size == 0) return 0;
    u64 last = lo + size - 1;
    if (last < lo) last = ~u64(0);
    u32 head = kNone, n = 0;
    auto take = [&](u32 r) {
        Range& g = ranges_[r];
        if (g.mark || g.lo > last || g.hi - 1 < lo) return;
        g.mark = true;
        g.link = head;
        head = r;
        ++n;
    };
    auto take_page = [&](const Page& p) {
        const mon::PageEntry* e = page_lists(p).e;
        for (u32 i = 0; i < p.count; ++i) take(e[i].id);
    };
    u64 first_pg = lo >> kPageBits, last_pg = last >> kPageBits;
    u32 slots = 1u << page_bits_;
    if (last_pg - first_pg < u64(slots)) {
        for (u64 pg = first_pg;; ++pg) {
            u32 s = page_find(pg);
            if (s != kNone) take_page(pages_[s]);
            if (pg == last_pg) break;
        }
    } else {
        for (u32 s = 0; s < slots; ++s) {
            u64 pg = pages_[s].page;
            if (pg != kEmptyPage && pg >= first_pg && pg <= last_pg) take_page(pages_[s]);
        }
    }
    for (u32 i = 0; i < nbig_; ++i) take(big_[i]);
    remove_chain(head);
    ensure_rows();
    return n;
}

// ---------------------------------------------------------------- lookup

// Empties the slots filled since the last flush only: with 1024 slots,
// zeroing all of them (136 KB) at each thread switch made omp_loop 1024 40
// with the monitor 4.66 s -> 6.19 s.
void RangeMonitor::flush_cache() {
    for (u32 w = 0; w < kUsedWords; ++w) {
        for (u64 m = used_[w]; m; m &= m - 1) {
            u32 slot = w * 64 + u32(__builtin_ctzll(m));
            cache_[slot].len = 0;
            slot_whole_[slot].e.len = 0;
        }
        used_[w] = 0;
    }
    zero_bytes(wide_, sizeof wide_);
    zero_bytes(whole_, sizeof whole_);
}

namespace {
// Whether e's interval meets [lo, hi) (hi > lo); an empty entry meets nothing.
inline bool meets(const CacheEntry& e, u64 lo, u64 hi) {
    return e.len && (lo - e.lo < e.len || e.lo - lo < hi - lo);
}
}  // namespace

// An entry says which range wins over its interval. Adding or removing the
// range [lo, hi) changes the winner only inside [lo, hi), so only entries
// meeting it go; the rest stay valid (their structure, row and histogram
// pointers do not move here). containers with the monitor flushed the whole
// cache on each of its 1.5 M heap events and then re-resolved the stack and
// the other pages it was using.
void RangeMonitor::invalidate(u64 lo, u64 hi) {
    // A page slot is read only for addresses of its pages, so only the
    // slots of [lo, hi)'s pages can serve an address whose winner changed.
    u64 first = lo >> kPageBits, pages = ((hi - 1) >> kPageBits) - first + 1;
    if (pages < kCacheWays) {
        for (u64 p = 0; p < pages; ++p) {
            u32 slot = mon::cache_slot((first + p) << kPageBits);
            if (meets(cache_[slot], lo, hi)) cache_[slot].len = 0;
            if (meets(slot_whole_[slot].e, lo, hi)) slot_whole_[slot].e.len = 0;
        }
    } else {
        for (CacheEntry& e : cache_)
            if (meets(e, lo, hi)) e.len = 0;
        for (WholeEntry& w : slot_whole_)
            if (meets(w.e, lo, hi)) w.e.len = 0;
    }
    for (CacheEntry& e : wide_)
        if (meets(e, lo, hi)) e.len = 0;
    for (WholeEntry& w : whole_)
        if (meets(w.e, lo, hi)) w.e.len = 0;
}

// Finds the range that wins at addr and the largest interval around addr
// over which it keeps winning (conservatively: every range touching the page
// that does not contain addr is cut off). The interval stays inside addr's
// page, except in a big range's segment that no small range touches, where
// it is the whole segment (Seg::small). In bins mode it is then cut down to
// addr's bin, unless `range_size` is given: that gets the winning range's
// size (0 if the entry needs no bin) and e keeps the whole interval, for
// narrow_to_bin().
void RangeMonitor::resolve(u64 addr, u32 thread, CacheEntry& e, u64* range_size) {
    u64 ilo = addr & ~kPageMask;
    u64 ilast = ilo + kPageMask;
    u64 gfirst = 0, glast = ~u64(0);  // the segment or gap around addr
    bool wide_ok = false;             // addr is in a segment free of small ranges
    bool in_seg = false;              // addr is in a segment
    // The winner so far: its structure (kNone: none), bounds and priority.
    u32 win = kNone;
    u64 win_lo = 0, win_hi = 0, win_prio = 0;
    auto take = [&](const Range& g) {
        win = g.sid;
        win_lo = g.lo;
        win_hi = g.hi;
        win_prio = g.prio;
    };
    if (nsegs_) {
        u32 lo = 0, hi = nsegs_;  // first segment with seg.lo > addr
        while (lo < hi) {
            u32 mid = (lo + hi) / 2;
            if (segs_[mid].lo <= addr) lo = mid + 1; else hi = mid;
        }
        if (lo < nsegs_) glast = segs_[lo].lo - 1;
        if (lo > 0) {
            const Seg& s = segs_[lo - 1];
            if (addr < s.hi) {
                in_seg = true;
                take(ranges_[s.range]);
                gfirst = s.lo;
                glast = min64(glast, s.hi - 1);
                wide_ok = !s.small;
            } else {
                gfirst = s.hi;
            }
        }
        ilo = max64(ilo, gfirst);
        ilast = min64(ilast, glast);
    }
    u32 slot = page_find(addr >> kPageBits);
    if (slot != kNone) {
        bool page_clear = !in_seg && gfirst <= (addr & ~kPageMask) && glast >= (addr | kPageMask);
        hint_[mon::hint_slot(addr)] = page_clear ? slot + 1 : 0;
    }
    // A big range's segment with no small range inside is one interval,
    // whatever its size: a column walk through a big array resolves once.
    if (slot == kNone && wide_ok) {
        ilo = gfirst;
        ilast = glast;
    }
    if (slot != kNone) {
        const Page& p = pages_[slot];
        const mon::PageLists l = page_lists(p);
        if (!p.overlap) {
            // The page's offsets give the bounds (clamped to the page, as the
            // interval is); only a winner's range is read.
            const mon::PageEntry* en = l.e;
            // Most resolutions meet the page's entries cold (a walk through
            // a map visits a page's blocks once): a binary search then met
            // its lines one miss after another. Asked for together, they
            // cost about one miss.
            if (!l.first) {
                const char* b = reinterpret_cast<const char*>(en);
                for (size_t k = 0; k < sizeof(mon::PageEntry) * p.count; k += 64) __builtin_prefetch(b + k);
            }
            u64 base = addr & ~kPageMask;
            u32 off = u32(addr & kPageMask);
            u32 lo = starts_upto(l, p.count, off);  // first range with lo > addr
            if (lo < p.count) ilast = min64(ilast, base + en[lo].start - 1);
            if (lo > 0) {
                const mon::PageEntry& b = en[lo - 1];
                if (off < b.end) {
                    // A segment's range is the only rival, and a range
                    // leaving the page has bounds the page lacks: only then
                    // is the range itself read (its priority is then not
                    // needed again).
                    if (win == kNone && !(b.sid & mon::kCrossesPage)) {
                        win = b.sid;
                        win_lo = base + b.start;
                        win_hi = base + b.end;
                    } else {
                        const Range& g = ranges_[b.id];
                        if (win == kNone || g.prio > win_prio) take(g);
                    }
                    ilo = max64(ilo, base + b.start);
                    ilast = min64(ilast, base + b.end - 1);
                } else {
                    ilo = max64(ilo, base + b.end);
                }
            }
        } else {
            for (u32 i = 0; i < p.count; ++i) {
                const Range& g = ranges_[l.e[i].id];
                if (g.lo <= addr && addr < g.hi) {
                    if (g.prio > win_prio) take(g);
                } else if (g.hi <= addr) {
                    ilo = max64(ilo, g.hi);
                } else {
                    ilast = min64(ilast, g.lo - 1);
                }
            }
        }
    }
    point_at_nothing(e);
    if (win != kNone) {
        ilo = max64(ilo, win_lo);
        ilast = min64(ilast, win_hi - 1);
        Structure& s = structs_[win];
        if (s.counted) {
            e.s = &s;
            e.row = row_for(s, thread);
            e.base = win_lo;
            if (s.hist && s.bins && win_hi - win_lo >= kInlineBinsSize) {
                e.lo = ilo;
                e.len = ilast - ilo + 1;
                if (range_size) {
                    *range_size = win_hi - win_lo;
                } else {
                    narrow_to_bin(e, addr, win_hi - win_lo);
                }
                return;
            }
            point_at_histogram(s, win_hi - win_lo, e);
        }
    }
    if (range_size) *range_size = 0;
    e.lo = ilo;
    e.len = ilast - ilo + 1;
}

// e counts nowhere: its row and bucket are the sinks (mon::CacheEntry).
inline void RangeMonitor::point_at_nothing(CacheEntry& e) {
    e.s = nullptr;
    e.row = &sink_row_;
    e.base = 0;
    e.bucket = sink_bucket_;
    e.hist = nullptr;
    e.mul = 0;
}

// e's histogram pointers for a range of s of `size` bytes that needs no
// cut to a bin.
inline void RangeMonitor::point_at_histogram(Structure& s, u64 size, CacheEntry& e) {
    e.bucket = sink_bucket_;
    e.hist = s.hist;
    e.mul = 0;
    if (!s.hist) return;
    if (!s.bins) {
        e.mul = u64(1) << (32 - s.hist_shift);
        return;
    }
    if (s.mul_size != size || s.mul_bins != s.bins) {
        s.mul_size = size;
        s.mul_bins = s.bins;
        s.mul = bins_multiplier(s.bins, size);
    }
    e.mul = s.mul;
}

// The shortcut of resolve() for the commonest slow access of a heap-heavy
// program: a block inside one page of small ranges that no big range meets
// (a std::map node). resolve() left the page's place in the page table in
// hint_ and found no big range there; the page's lists then give the
// block, its bounds are the entry's interval (ranges that do not overlap
// leave no rival), and neither the segments, nor the page table, nor the
// whole entries are searched. A gap between blocks is an interval of
// nothing, found the same way. Anything else (a range leaving the page,
// overlapping ranges, a structure without a slot or a row) is left to
// resolve(). Only the tool's paths take it (record_current() and
// locate_current()); record() goes to resolve().
__attribute__((always_inline)) inline bool RangeMonitor::fill_in_page(u64 addr, CacheEntry& e) {
    u32 h = hint_[mon::hint_slot(addr)];
    if (!h) return false;
    const Page& p = pages_[h - 1];
    if (p.page != addr >> kPageBits || p.overlap) return false;  // the page moved or went
    u32 off = u32(addr & kPageMask);
    u64 base = addr & ~kPageMask;
    if (const u16* sh = p.cap ? p.shadow() : nullptr) {
        // A granule's block, or none there (then nothing counts in the
        // granule, or in its rest after a block's end: no other block
        // starts inside a granule of a page with a shadow).
        u32 g = off >> mon::kGranuleBits;
        u32 v = sh[g];
        u64 at = base + (u64(g) << mon::kGranuleBits);
        u64 lo = at - (u64(v & 0xff) << mon::kGranuleBits);  // the block's start (maybe in the page before)
        u64 size = kind_size_[v >> 8];
        if (!v || addr >= lo + size) {
            e.lo = v ? lo + size : at;
            e.len = at + (1u << mon::kGranuleBits) - e.lo;
            point_at_nothing(e);
            return true;
        }
        // The interval stays in the page: a slot's entry speaks only for
        // its pages (mon::kCacheWays).
        u64 ilo = max64(lo, base), ihi = min64(lo + size, base + kPageMask + 1);
        return fill_block(e, structs_[kind_sid_[v >> 8]], lo, size, ilo, ihi - ilo);
    }
    const mon::PageLists l = page_lists(p);
    u32 i = starts_upto(l, p.count, off);
    if (i == 0 || off >= l.e[i - 1].end) {
        // Between blocks (the allocator's headers): nothing counts there.
        e.lo = base + (i ? l.e[i - 1].end : 0);
        e.len = base + (i < p.count ? l.e[i].start : kPageMask + 1) - e.lo;
        point_at_nothing(e);
        return true;
    }
    const mon::PageEntry& b = l.e[i - 1];
    if (b.sid & mon::kCrossesPage) return false;
    return fill_block(e, structs_[b.sid], base + b.start, u64(b.end - b.start), base + b.start, u64(b.end - b.start));
}

// fill_in_page()'s entry over [ilo, ilo + ilen) for a block [lo, lo + len)
// of s: false when s has no slot, or no row for the thread (resolve() then
// decides).
__attribute__((always_inline)) inline bool RangeMonitor::fill_block(CacheEntry& e, Structure& s, u64 lo, u64 len,
                                                                   u64 ilo, u64 ilen) {
    if (!s.counted) return false;
    Row* row = s.cur_row && s.cur_thread == cache_thread_ ? s.cur_row : row_for(s, cache_thread_);
    if (row == &s.overflow) return false;
    e.lo = ilo;
    e.len = ilen;
    e.s = &s;
    e.row = row;
    e.base = lo;
    point_at_histogram(s, len, e);
    return true;
}

// The entry for addr from its page's lists (fill_in_page()), put in the
// page's slot; null when the page has no hint or the lists do not settle it.
__attribute__((always_inline)) inline mon::CacheEntry* RangeMonitor::entry_in_page(u64 addr) {
    u32 slot = mon::cache_slot(addr);
    CacheEntry& e = cache_[slot];
    if (!fill_in_page(addr, e)) return nullptr;
    mark_used(slot);
    return &e;
}

// Forgets the hints of the pages of [lo, hi), where a big range came or went.
void RangeMonitor::forget_hints(u64 lo, u64 hi) {
    u64 first = lo >> kPageBits, pages = ((hi - 1) >> kPageBits) - first + 1;
    if (pages >= mon::kHintSlots) {
        zero_bytes(hint_, sizeof hint_);
        return;
    }
    for (u64 p = 0; p < pages; ++p) hint_[mon::hint_slot((first + p) << kPageBits)] = 0;
}

// Cuts e (of a bins-mode structure, its range starting at e.base and
// `range_size` bytes long) down to addr's bin, whose counters it then
// points at: bin b = off * N / size holds the offsets from
// ceil(b * size / N) to ceil((b + 1) * size / N) - 1.
namespace {
// The bin of offset `off` in a range of `size` bytes cut into n, and the
// bin's offsets [*first, *end), in the width T.
template <class T>
u64 bin_bounds(T off, T n, T size, u64* first, u64* end) {
    T b = off * n / size;
    *first = (b * size + n - 1) / n;
    *end = ((b + 1) * size + n - 1) / n;
    return b;
}
}  // namespace

void RangeMonitor::narrow_to_bin(CacheEntry& e, u64 addr, u64 range_size) const {
    u64 n = e.s->bins, size = range_size, off = addr - e.base, first, end;
    // In 32 bits whenever every product fits (ranges up to 4 GiB / (N + 1)):
    // the three 64-bit divisions were 5 % of containers with 25 bins, where a
    // 48-byte node's bin changes on almost every access.
    u64 b = (size >> 32) == 0 && ((size + 1) * n >> 32) == 0
                ? bin_bounds<u32>(u32(off), u32(n), u32(size), &first, &end)
                : bin_bounds<u64>(off, n, size, &first, &end);
    u64 ilo = max64(e.lo, e.base + first);
    u64 ilast = min64(e.lo + e.len - 1, e.base + end - 1);
    e.lo = ilo;
    e.len = ilast - ilo + 1;
    e.bucket = e.s->hist + b * hstride_;
}

// Bins mode: the whole interval around addr, if the cache has it: a wide
// one (moved to the front) or the last one resolved in addr's page slot.
const WholeEntry* RangeMonitor::find_whole(u64 addr, u32 slot) {
    for (u32 w = 0; w < kWideEntries; ++w) {
        if (addr - whole_[w].e.lo < whole_[w].e.len) {
            move_to_front(whole_, w);
            return &whole_[0];
        }
    }
    const WholeEntry& s = slot_whole_[slot];
    return addr - s.e.lo < s.e.len ? &s : nullptr;
}

// The entry that covers addr for `thread`, found and put in the last-hit
// cache (record_slow() and locate_slow(); the caller counts).
inline mon::CacheEntry* RangeMonitor::entry_slow(u64 addr, u32 thread) {
    if (!pages_) return nullptr;  // not initialised
    if (thread != cache_thread_) {
        flush_cache();
        cache_thread_ = thread;
    }
    // Intervals wider than a page are also kept in two wide entries, most
    // recent first (record() checks wide_[0] inline), which catch the
    // accesses whose page slot holds something else. A wide hit also goes
    // into the page's slot: two arrays walked side by side (memcpy's source
    // and destination, a stencil's two grids) each enter a new page's slot
    // once, where before every access that alternated between them came
    // here (memcopy 200: 580 M of its calls, all of them wide hits).
    u32 slot = mon::cache_slot(addr);
    mark_used(slot);
    for (u32 w = 0; w < kWideEntries; ++w) {
        if (addr - wide_[w].lo < wide_[w].len) {
            move_to_front(wide_, w);
            cache_[slot] = wide_[0];
            return &wide_[0];
        }
    }
    // Bins mode: an entry covers one bin, so the whole intervals are kept
    // too. A walk that crosses a big array's bins (a column of matmul's B,
    // a random chase) then needs the bin's bounds, a division, not the
    // search of resolve(): matmul 400 with 25 bins resolved 4.6 M times,
    // chase 18 M times. So does a small block's next field: a 48-byte
    // std::map node has 25 bins of 2 bytes.
    CacheEntry& e = cache_[slot];
    u64 size;
    if (const WholeEntry* w = find_whole(addr, slot)) {
        e = w->e;
        size = w->size;
    } else {
        resolve(addr, thread, e, &size);
        if (size && e.row != &e.s->overflow) {
            slot_whole_[slot] = WholeEntry{e, size};
            if (e.len > kPageMask + 1) push_front(whole_, kWideEntries, slot_whole_[slot]);
        }
    }
    if (size) narrow_to_bin(e, addr, size);
    // An entry whose row is the overflow row is not kept: it must look for a
    // free row again once the pool is refilled.
    if (e.len > kPageMask + 1 && !(e.s && e.row == &e.s->overflow)) push_front(wide_, kWideEntries, e);
    return &e;
}

// wide_[0] covered an address its page's slot did not: the slot takes a
// copy, as entry_slow() gives it (once per page of a walk, not per access).
void RangeMonitor::adopt_wide(u32 slot) {
    mark_used(slot);
    cache_[slot] = wide_[0];
}

void RangeMonitor::record_slow(u64 addr, u32 idx, u32 thread) {
    mon::CacheEntry* e = entry_slow(addr, thread);
    if (!e || !e->s) return;
    bump(*e, addr, idx, hstride_);
    if (e->row == &e->s->overflow) e->len = 0;
}

// record_current() where the page's slot does not cover addr: the most
// recent wide entry, adopted into the slot, else a block of the page's
// lists, else the slow path (what cached() does past its first test;
// calling cached() here, its slot test repeated, cost containers 25000 2
// with 25 bins 40 M instructions more). It makes tail calls only, so that
// nothing is saved on the way to record_slow(): with fill_in_page()
// inline here, matmul 200's bin changes paid 17 instructions more a call.
void RangeMonitor::record_uncached(u64 addr, u32 idx) {
    if (addr - wide_[0].lo < wide_[0].len) {
        u32 slot = mon::cache_slot(addr);
        adopt_wide(slot);
        return bump(cache_[slot], addr, idx, hstride_);
    }
    if (hint_[mon::hint_slot(addr)]) return record_in_page(addr, idx);
    return record_slow(addr, idx, cache_thread_);
}

void RangeMonitor::record_in_page(u64 addr, u32 idx) {
    const CacheEntry* e = entry_in_page(addr);
    if (!e) return record_slow(addr, idx, cache_thread_);
    bump(*e, addr, idx, hstride_);
}

// The page's lists first, as record_uncached() does (with the miss worker,
// containers 25000 2 located 1.47 M L1 misses here, 200 instructions each
// through entry_slow()); a page with a hint meets no big range, so no wide
// entry can hold addr.
bool RangeMonitor::locate_slow(u64 addr, u32 base, u64** row, u64** hist) {
    mon::CacheEntry* e = entry_in_page(addr);
    if (!e) e = entry_slow(addr, cache_thread_);
    if (!e || !point(*e, addr, base, row, hist)) return false;
    if (e->row == &e->s->overflow) e->len = 0;
    return true;
}

void RangeMonitor::record_extra(u64 addr, u32 mask) {
    if (!pages_) return;
    u32 slot = mon::cache_slot(addr);
    CacheEntry& e = cache_[slot];
    if (addr - e.lo >= e.len) {
        mark_used(slot);
        // Resolve without disturbing the wide entries: these events are rare.
        if (cache_thread_ == kMonitorNoThread) return;
        resolve(addr, cache_thread_, e);
    }
    if (!e.s) return;
    for (u32 m = mask & ((1u << mon::kExtraCounters) - 1); m; m &= m - 1)
        ++e.row->served[mon::kCoherenceBase + u32(__builtin_ctz(m))];
    if (e.row == &e.s->overflow) e.len = 0;
}

u32 RangeMonitor::structure_at(u64 addr) {
    if (!pages_) return kMonitorNoStructure;
    u32 slot = mon::cache_slot(addr);
    CacheEntry& e = cache_[slot];
    if (addr - e.lo >= e.len) {
        mark_used(slot);
        if (cache_thread_ == kMonitorNoThread) return kMonitorNoStructure;
        resolve(addr, cache_thread_, e);
    }
    if (!e.s) return kMonitorNoStructure;
    u32 id = u32(e.s - structs_);
    if (e.row == &e.s->overflow) e.len = 0;
    return id;
}

// ---------------------------------------------------------------- results

u64 RangeMonitor::extra(u32 id, u32 which) const {
    if (id >= nstructs_ || which >= mon::kExtraCounters) return 0;
    const Structure& s = structs_[id];
    u32 idx = mon::kCoherenceBase + which;
    u64 n = s.overflow_used ? s.overflow.served[idx] : 0;
    for (const Row* r = s.rows; r; r = r->next) n += r->served[idx];
    return n;
}


u64 RangeMonitor::served(u32 id, int kind, unsigned depth) const {
    if (id >= nstructs_ || kind < 0 || kind > 1 || depth > u32(cfg_.levels)) return 0;
    const Structure& s = structs_[id];
    u32 idx = u32(kind) * dstride_ + depth;
    u64 n = s.overflow_used ? s.overflow.served[idx] : 0;
    for (const Row* r = s.rows; r; r = r->next) n += r->served[idx];
    return n;
}

u32 RangeMonitor::threads_seen(u32 id) const {
    if (id >= nstructs_) return 0;
    const Structure& s = structs_[id];
    return s.nrows + (s.overflow_used ? 1 : 0);
}

namespace {
const Row* nth_row(const Structure& s, u32 i) {
    const Row* r = s.rows;
    while (r && i > 0) {
        r = r->next;
        --i;
    }
    if (r) return r;
    return (i == 0 && s.overflow_used) ? &s.overflow : nullptr;
}
}  // namespace

u32 RangeMonitor::thread_at(u32 id, u32 i) const {
    if (id >= nstructs_) return kMonitorNoThread;
    const Row* r = nth_row(structs_[id], i);
    return r ? r->thread : kMonitorNoThread;
}

u64 RangeMonitor::served_thread(u32 id, u32 i, int kind, unsigned depth) const {
    if (id >= nstructs_ || kind < 0 || kind > 1 || depth > u32(cfg_.levels)) return 0;
    const Row* r = nth_row(structs_[id], i);
    return r ? r->served[u32(kind) * dstride_ + depth] : 0;
}

u64 RangeMonitor::extra_thread(u32 id, u32 i, u32 which) const {
    if (id >= nstructs_ || which >= mon::kExtraCounters) return 0;
    const Row* r = nth_row(structs_[id], i);
    return r ? r->served[mon::kCoherenceBase + which] : 0;
}

u32 RangeMonitor::buckets(u32 id) const {
    if (id >= nstructs_ || !structs_[id].hist) return 0;
    return structs_[id].nbuckets;
}

u64 RangeMonitor::bucket_bytes(u32 id) const {
    if (id >= nstructs_) return 0;
    const Structure& s = structs_[id];
    if (!s.res_lines || !s.counted) return 0;
    if (s.hist) return u64(1) << s.hist_shift;
    return u64(s.res_lines) << cfg_.line_bits;
}

u32 RangeMonitor::bins(u32 id) const {
    if (id >= nstructs_ || !structs_[id].counted) return 0;
    return structs_[id].res_bins;
}

u64 RangeMonitor::bucket_served(u32 id, u32 bucket, int kind, unsigned depth) const {
    if (id >= nstructs_ || kind < 0 || kind > 1 || depth > u32(cfg_.levels)) return 0;
    const Structure& s = structs_[id];
    if (!s.hist || bucket >= s.nbuckets) return 0;
    return s.hist[size_t(bucket) * hstride_ + u32(kind) * dstride_ + depth];
}

void RangeMonitor::zero() {
    flush_cache();
    for (u32 i = 0; i < nstructs_; ++i) {
        Structure& s = structs_[i];
        release_rows(s);
        if (s.hist) zero_bytes(s.hist, sizeof(u64) * hstride_ * size_t(s.hist_cap));
    }
    rows_starved_ = false;
}

}  // namespace ompsim
