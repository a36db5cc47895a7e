#include "CachegrindModel.h"

namespace ompsim {

static bool init_cache(CgCache& c, const LevelConfig& lc, const Allocator& a, ErrorText& err) {
    u64 sets = lc.size / lc.line / lc.assoc;
    u64 n = sets * lc.assoc;
    c.tags = static_cast<u64*>(a.alloc(a.ctx, n * sizeof(u64)));
    if (!c.tags) {
        error_append(err, "out of memory for the cache tags");
        return false;
    }
    // Zero, not "invalid": Cachegrind starts every tag at 0 (see header).
    for (u64 i = 0; i < n; ++i) c.tags[i] = 0;
    c.assoc = lc.assoc;
    c.sets_mask = static_cast<u32>(sets - 1);
    c.line_bits = static_cast<u32>(log2_exact(lc.line));
    return true;
}

bool CachegrindModel::init(const HierarchyConfig& cfg, const Allocator& a, ErrorText& err) {
    i1_.tags = d1_.tags = ll_.tags = nullptr;
    return init_cache(i1_, cfg.i1, a, err) && init_cache(d1_, cfg.level[0], a, err) &&
           init_cache(ll_, cfg.level[1], a, err);
}

void CachegrindModel::destroy(const Allocator& a) {
    CgCache* all[3] = {&i1_, &d1_, &ll_};
    for (CgCache* c : all) {
        if (c->tags) a.release(a.ctx, c->tags);
        c->tags = nullptr;
    }
}

u32 CachegrindModel::min_line_size() const {
    u32 m = i1_.line_bits;
    if (d1_.line_bits < m) m = d1_.line_bits;
    if (ll_.line_bits < m) m = ll_.line_bits;
    return 1u << m;
}

}  // namespace ompsim
