#include "OspgBuilder.h"

#include "GrowArray.h"

namespace ompsim {
namespace ospg {

namespace {
enum FrameType : u32 { kSerialFrame, kMemberFrame, kShareFrame, kChunkFrame, kTaskFrame };
}

void Builder::init(const Allocator& a, u32 max_nodes) {
    alloc_ = a;
    g_.init(a, max_nodes);
}

void Builder::release() {
    for (u32 i = 0; i < kMaxSlots; ++i)
        if (slots_[i] && alloc_.release) alloc_.release(alloc_.ctx, slots_[i]);
    for (u32 i = 0; i < nteams_ && alloc_.release; ++i) {
        if (teams_[i].seg) alloc_.release(alloc_.ctx, teams_[i].seg);
        if (teams_[i].seg_site) alloc_.release(alloc_.ctx, teams_[i].seg_site);
    }
    if (teams_ && alloc_.release) alloc_.release(alloc_.ctx, teams_);
    for (u32 i = 0; i < kMaxSlots; ++i) slots_[i] = nullptr;
    teams_ = nullptr;
    nteams_ = teams_cap_ = 0;
    g_.release();
}

Builder::Frame* Builder::top(u32 slot) {
    if (slot >= kMaxSlots || !slots_[slot] || !slots_[slot]->depth) return nullptr;
    return &slots_[slot]->frames[slots_[slot]->depth - 1];
}

void Builder::grow_team(Team& t, u32 gen) {
    if (gen < t.cap) return;
    u32 old = t.cap, cap2 = t.cap;
    grow_array(alloc_, t.seg, t.cap, gen + 1, 4);
    grow_array(alloc_, t.seg_site, cap2, gen + 1, 4);
    for (u32 i = old; i < t.cap; ++i) t.seg[i] = t.seg_site[i] = kNone;
}

u32 Builder::segment_member(Team& t, u32 gen, u32 k) {
    grow_team(t, gen);
    if (t.s_par == kNone) return kNone;
    if (t.seg[gen] == kNone) {
        u32 site = t.seg_site[gen] != kNone ? t.seg_site[gen] : g_[t.s_par].site;
        u32 s = g_.add(kS, t.s_par, site);
        if (s == kNone) return kNone;
        t.seg[gen] = s;
        for (u32 m = 0; m < t.size; ++m)
            if (g_.add(kP, s, g_[t.s_par].site) == kNone) break;
    }
    u32 p = t.seg[gen] + 1 + k;
    if (p >= g_.size() || g_[p].kind != kP || g_[p].parent != t.seg[gen]) return kNone;
    return p;
}

u32 Builder::container(Frame& f) {
    if (f.node == kNone && f.team != kNone) f.node = segment_member(teams_[f.team], f.gen, f.member);
    return f.tasks != kNone ? f.tasks : f.node;
}

void Builder::close_w(Frame& f, u32 to, Sample now) {
    u64 c = now.cycles > f.start.cycles ? now.cycles - f.start.cycles : 0;
    u64 i = now.instr > f.start.instr ? now.instr - f.start.instr : 0;
    f.start = now;
    if (!c && !i) return;
    u32 parent = container(f);
    u32 w = parent == kNone ? kNone : g_.add(kW, parent, f.label);
    if (w == kNone) {
        lost_cycles_ += c;
        lost_instr_ += i;
        return;
    }
    Node& x = g_[w];
    x.from = f.from;
    x.to = to;
    x.cycles = c;
    x.instr = i;
}

// Closes the open W node of the frame on top (at `from`, the site of what
// starts) and pushes a frame whose container is `node`; it inherits the
// what-if label of the frame below (a loop inside an annotated region is in it).
Builder::Frame* Builder::push(u32 slot, u32 type, u32 node, u32 from, Sample now) {
    if (slot >= kMaxSlots) {
        ++anomalies_;
        return nullptr;
    }
    if (!slots_[slot]) {
        slots_[slot] = static_cast<Slot*>(alloc_.alloc(alloc_.ctx, sizeof(Slot)));
        slots_[slot]->depth = 0;
    }
    Slot& s = *slots_[slot];
    u32 label = 0;
    if (s.depth) {
        Frame& below = s.frames[s.depth - 1];
        close_w(below, from, now);
        label = below.label;
    }
    if (s.depth == kMaxDepth) {
        ++anomalies_;
        return nullptr;
    }
    Frame& f = s.frames[s.depth++];
    f = Frame{};
    f.type = type;
    f.node = node;
    f.tasks = f.team = kNone;
    f.member = f.gen = 0;
    f.label = label;
    f.from = from;
    f.start = now;
    return &f;
}

// The frame on top of `slot` with its W node closed at `site`; null (an
// anomaly) when the slot runs nothing.
Builder::Frame* Builder::close_top(u32 slot, u32 site, Sample now) {
    Frame* f = top(slot);
    if (!f) {
        ++anomalies_;
        return nullptr;
    }
    close_w(*f, site, now);
    return f;
}

void Builder::begin(Sample now) {
    u32 root = g_.add(kS, kNone, kProgramSite);
    Frame* f = push(0, kSerialFrame, root, kProgramSite, now);
    if (f) f->start = Sample{0, 0};  // the program's work from its first instruction
}

u32 Builder::fork(u32 slot, u32 size, u32 site, Sample now) {
    Frame* f = top(slot);
    grow_array(alloc_, teams_, teams_cap_, nteams_ + 1, 16);
    u32 ti = nteams_++;
    Team& t = teams_[ti];
    t = Team{};
    t.size = size ? size : 1;
    t.seg = t.seg_site = nullptr;
    t.s_par = kNone;
    t.label = f ? f->label : 0;
    if (f) {
        close_w(*f, site, now);
        u32 parent = container(*f);
        t.s_par = parent == kNone ? kNone : g_.add(kS, parent, site);
    } else {
        ++anomalies_;
    }
    member_begin(slot, ti, 0, now);
    return ti;
}

void Builder::member_begin(u32 slot, u32 ti, u32 k, Sample now) {
    if (ti >= nteams_) {
        ++anomalies_;
        return;
    }
    Team& t = teams_[ti];
    u32 site = t.s_par != kNone ? g_[t.s_par].site : kProgramSite;
    Frame* f = push(slot, kMemberFrame, kNone, site, now);
    if (!f) return;
    f->team = ti;
    f->member = k < t.size ? k : 0;
    f->label = t.label;
    if (k >= t.size) ++anomalies_;
}

// Frames above the innermost member frame (loop shares and chunks whose end
// was not reported) end where the barrier begins.
void Builder::unwind_to_member(u32 slot, u32 site, Sample now) {
    for (Frame* f = top(slot); f && (f->type == kShareFrame || f->type == kChunkFrame); f = top(slot)) {
        if (f->type != kShareFrame) ++anomalies_;
        end(slot, site, now);
    }
}

void Builder::barrier(u32 slot, u32 site, Sample now) {
    unwind_to_member(slot, site, now);
    Frame* f = top(slot);
    if (!f || f->type != kMemberFrame) {
        ++anomalies_;
        return;
    }
    close_w(*f, site, now);
    Team& t = teams_[f->team];
    grow_team(t, f->gen + 1);
    if (t.seg_site[f->gen] == kNone) {
        t.seg_site[f->gen] = site;
        if (t.seg[f->gen] != kNone) g_[t.seg[f->gen]].site = site;
    }
    ++f->gen;
    f->node = kNone;   // the next segment's P node, when this member first needs it
    f->tasks = kNone;  // the barrier waited for the tasks
    f->from = site;
    f->start = now;
}

// A loop share or a dynamic chunk: a P node under the enclosing container.
void Builder::open_part(u32 slot, u32 site, Sample now, u32 type) {
    Frame* f = close_top(slot, site, now);
    if (!f) return;
    u32 parent = container(*f);
    u32 p = parent == kNone ? kNone : g_.add(kP, parent, site);
    push(slot, type, p, site, now);
}

void Builder::share_begin(u32 slot, u32 site, Sample now) { open_part(slot, site, now, kShareFrame); }

void Builder::share_end(u32 slot, Sample now) {
    Frame* f = top(slot);
    if (!f || f->type != kShareFrame) return;
    u32 site = f->node != kNone ? g_[f->node].site : kProgramSite;
    end(slot, site, now);
}

void Builder::chunk_begin(u32 slot, u32 site, Sample now) { open_part(slot, site, now, kChunkFrame); }

u32 Builder::task_create(u32 slot, u32 site, Sample now) {
    Frame* f = close_top(slot, site, now);
    if (!f) return kNone;
    if (f->tasks == kNone) {
        u32 parent = container(*f);
        f->tasks = parent == kNone ? kNone : g_.add(kS, parent, site);
        if (f->tasks == kNone) return kNone;
    }
    f->from = site;
    return g_.add(kP, f->tasks, site);
}

void Builder::task_begin(u32 slot, u32 p, Sample now) {
    u32 site = p != kNone ? g_[p].site : kProgramSite;
    Frame* f = push(slot, kTaskFrame, p, site, now);
    if (f) f->label = 0;  // a task is in a what-if region only if the annotation is inside it
}

void Builder::taskwait(u32 slot, u32 site, Sample now) {
    Frame* f = close_top(slot, site, now);
    if (!f) return;
    f->tasks = kNone;
    f->from = site;
}

void Builder::end(u32 slot, u32 site, Sample now) {
    Frame* f = close_top(slot, site, now);
    if (!f) return;
    --slots_[slot]->depth;
    Frame* below = top(slot);
    if (below) {
        below->from = site;
        below->start = now;
    }
}

void Builder::split(u32 slot, u32 site, Sample now) {
    Frame* f = top(slot);
    if (!f) return;
    close_w(*f, site, now);
    f->from = site;
}

void Builder::label(u32 slot, u32 label, u32 site, Sample now) {
    Frame* f = top(slot);
    if (!f) return;
    close_w(*f, site, now);
    f->from = site;
    f->label = label;
}

void Builder::finish(const Sample* now_of_slot, u32 nslots) {
    for (u32 s = 0; s < nslots && s < kMaxSlots; ++s) {
        Frame* f = top(s);
        if (f) close_w(*f, kProgramSite, now_of_slot[s]);
    }
}

void Builder::zero(const Sample* now_of_slot, u32 nslots) {
    g_.zero_work();
    lost_cycles_ = lost_instr_ = 0;
    for (u32 s = 0; s < nslots && s < kMaxSlots; ++s) {
        Frame* f = top(s);
        if (f) f->start = now_of_slot[s];
    }
}

}  // namespace ospg
}  // namespace ompsim
