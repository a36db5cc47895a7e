#include "StackRelocation.h"

namespace ompsim {

namespace {

bool moved(const Unit* u) {
    return u->kind == UnitKind::Chunk || u->kind == UnitKind::Single || u->kind == UnitKind::Task;
}

// An anchor is missing while the unit that will record it may still run.
bool missing(const Unit* a) { return a && !a->ref_sp && a->s && !a->s->closed; }

}  // namespace

bool relocation_ready(const Unit* u, const Unit* home) {
    if (!moved(u)) return true;
    return !missing(home) && !missing(u->home) && !(u->kind == UnitKind::Task && missing(u));
}

StackRelocation relocation_for(Unit* u, const Unit* home, u32 open_tasks) {
    StackRelocation rel{};
    u32 nd = 0, nf = 0;
    Addr env_lo = ~Addr(0), env_hi = 0;
    auto add_desc = [&](Addr lo, Addr len, Addr canon) {
        if (len) rel.desc[nd++] = StackRange{lo, len, canon - lo};
    };
    auto add = [&](Addr lo, Addr hi, Addr delta) {
        if (hi <= lo) return;
        rel.frames[nf++] = StackRange{lo, hi - lo, delta};
        env_lo = lo < env_lo ? lo : env_lo;
        env_hi = hi > env_hi ? hi : env_hi;
    };
    auto done = [&]() {
        if (env_hi > env_lo) {
            rel.frames_lo = env_lo;
            rel.frames_span = env_hi - env_lo;
        }
        return rel;
    };
    add_desc(u->desc_lo, u->desc_len, u->desc_canon);
    add_desc(u->child_lo, u->child_len, u->child_canon);
    if (!moved(u) || !u->stack_hi || !home || !home->ref_sp || !u->home || !u->home->ref_sp) return done();
    Addr delta = home->ref_sp - u->home->ref_sp;
    if (u->kind != UnitKind::Task) {
        u->frames_delta = delta;
        u->frames_moved = true;
    }
    if (u->kind == UnitKind::Task && u->ref_sp) {
        if (!u->canon_sp) u->canon_sp = home->ref_sp - kTaskFrames * (open_tasks + 1);
        add(u->stack_lo, u->ref_sp, u->canon_sp - u->ref_sp);
        const Unit* p = u->parent;
        if (p && p->kind == UnitKind::Task && p->ref_sp && p->canon_sp)
            add(p->stack_lo, p->ref_sp, p->canon_sp - p->ref_sp);
        else if (p && p->frames_moved && p->stack_hi)
            // Created in a single body or a chunk: the shared variables are
            // in the frames around it, on the stack of the thread that
            // recorded it (whichever reached the single first), which this
            // task's thread need not be; moved as the replay moved them.
            add(p->stack_lo, p->stack_hi, p->frames_delta);
    }
    // The last range moving by nothing moves nothing: a task replayed on
    // the thread that recorded it.
    if (delta) add(u->stack_lo, u->stack_hi, delta);
    return done();
}

}  // namespace ompsim
