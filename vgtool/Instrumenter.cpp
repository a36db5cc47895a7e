#include "Instrumenter.h"

#include "EpapiService.h"
#include "EventStream.h"
#include "HeapHooks.h"
#include "MissWorker.h"
#include "OmpIntake.h"
#include "WrapperCode.h"

extern "C" {
#include "libvex_guest_amd64.h"
#include "libvex_ir.h"
}

namespace ompsim {

namespace {

// An IR expression that is a constant or a temporary (flat IR).
using IRAtom = IRExpr;

InstrumentConfig g_cfg;

enum EventKind { kEvFetch, kEvFetchGen, kEvFetchHit, kEvFetchLast, kEvRead, kEvWrite, kEvModify };

bool is_data(EventKind k) { return k == kEvRead || k == kEvWrite || k == kEvModify; }

struct Event {
    EventKind kind;
    InstrInfo* ii;
    IRAtom* ea;
    Int size;
};

// Events wait in a short queue so that one helper call can cover an
// instruction fetch and its data access, or up to three fetches. The queue
// length changes only how often calls are merged, never the counts: a write
// merges with the read before it (read-modify-write) before any flush.
constexpr Int kQueue = 16;

// Certain I1 hits (kEvFetchHit) are counted, not simulated: per source
// line the number of such fetches, kept with the straight-line piece of the
// queue (at the end of its flush), whose runs the generated code counts
// (CostCentres.h, HitPiece), instead of two counter updates per
// instruction. The counters are settled before anything reads them.
constexpr Int kHitLines = 16;

struct State {
    Event ev[kQueue];
    Int used;
    LineCC* hit_cc[kHitLines];
    ULong hit_n[kHitLines];
    Int hit_lines;
    ULong hits;
    Addr last_fetch_line;  // line of the previous instruction's fetch; ~0 = none
    SBInfo* sb;
    Int next_instr;
    IRSB* out;
};

void emit(State& s, Int regparms, Int which, IRExpr** args, IRExpr* guard) {
    const HelperTable& h = g_cfg.helpers;
    void* fns[14] = {h.ir1, h.ir2, h.ir3, h.ir_gen, h.ir_dr, h.ir_dw, h.ir_dm, h.dr,
                     h.dw,  h.dm,  h.ir_last, h.ir1k, h.hits, h.ir_gen_k};
    tl_assert(fns[which]);
    IRDirty* di = unsafeIRDirty_0_N(regparms, h.names[which], VG_(fnptr_to_fnentry)(fns[which]), args);
    if (guard) di->guard = guard;
    addStmtToIRSB(s.out, IRStmt_Dirty(di));
}

enum { kIr1, kIr2, kIr3, kIrGen, kIrDr, kIrDw, kIrDm, kDr, kDw, kDm, kIrLast, kIr1k, kHits, kIrGenK };

IRExpr* ptr_arg(const void* p) { return mkIRExpr_HWord(reinterpret_cast<HWord>(p)); }

// *counter += n in IR (a load, an add, a store: no call).
void add_n(State& s, ULong* counter, ULong n) {
    IRExpr* addr = ptr_arg(counter);
    IRTemp old = newIRTemp(s.out->tyenv, Ity_I64);
    addStmtToIRSB(s.out, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, addr)));
    IRTemp inc = newIRTemp(s.out->tyenv, Ity_I64);
    addStmtToIRSB(s.out, IRStmt_WrTmp(inc, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
                                                        IRExpr_Const(IRConst_U64(n)))));
    addStmtToIRSB(s.out, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(inc)));
}

// The piece's certain hits: one count of its runs (CostCentres.h, HitPiece).
void flush_hits(State& s) {
    if (s.hit_lines) {
        HitPiece* p = cost::new_hit_piece(s.sb, (UInt)s.hit_lines);
        for (Int j = 0; j < s.hit_lines; ++j) p->share[j] = {s.hit_cc[j], s.hit_n[j]};
        p->i1_refs = g_cfg.i1_fetch_refs;
        p->hits = s.hits;
        add_n(s, &p->runs, 1);
    }
    s.hit_lines = 0;
    s.hits = 0;
}

void count_hit(State& s, LineCC* cc) {
    ++s.hits;
    for (Int j = 0; j < s.hit_lines; ++j)
        if (s.hit_cc[j] == cc) {
            ++s.hit_n[j];
            return;
        }
    if (s.hit_lines == kHitLines) flush_hits(s);
    s.hit_cc[s.hit_lines] = cc;
    s.hit_n[s.hit_lines++] = 1;
}

// Streaming with certain hits: the number of certain hits without a data
// access from s.ev[from] on whose InstrInfos follow `prev` (the InstrInfos
// of a superblock are consecutive). The replay counts their Ir, one
// addition per cost centre (InstrInfo::same_cc_next): counted here, the Ir
// of code that runs while no stream records (the runtime's pool threads,
// OmpIntake.h) would be counted too; one increment per instruction in the
// replay was 5 % of omp_loop's time (a chain of stores to one counter).
// A run used to end where the cost centre changed: omp_tasks's merge()
// made a run event of its own for each source line of its loop.
Int take_hit_run(State& s, Int from, const InstrInfo* prev) {
    Int k = 0;
    for (Int j = from; j < s.used; ++j) {
        const Event& h = s.ev[j];
        if (h.kind != kEvFetchHit || h.ii != prev + 1) break;
        if (j + 1 < s.used && is_data(s.ev[j + 1].kind)) break;
        prev = h.ii;
        ++k;
    }
    return k;
}

IRTemp tmp(State& s, IRExpr* e) {
    IRTemp t = newIRTemp(s.out->tyenv, typeOfIRExpr(s.out->tyenv, e));
    addStmtToIRSB(s.out, IRStmt_WrTmp(t, e));
    return t;
}

// The event (w0, address | rest) appended at stream::g_pos in IR, the
// chunk-full call guarded: SimHelpers.cpp put() without the call, whose
// arguments were constants but for the address. omp_loop 1024 40, medians
// of 5: 4.02 s -> 3.95 s and 3.96 s -> 3.92 s with 4 threads, 3.08 s ->
// 3.03 s with one.
void append_inline(State& s, uptr w0, IRAtom* ea, uptr rest) {
    IRExpr* pos_at = ptr_arg(&stream::g_pos);
    IRTemp pos = tmp(s, IRExpr_Load(Iend_LE, Ity_I64, pos_at));
    addStmtToIRSB(s.out, IRStmt_Store(Iend_LE, IRExpr_RdTmp(pos), IRExpr_Const(IRConst_U64(w0))));
    IRTemp masked = tmp(s, IRExpr_Binop(Iop_And64, ea, IRExpr_Const(IRConst_U64(kAddrMask))));
    IRTemp w1 = tmp(s, IRExpr_Binop(Iop_Or64, IRExpr_RdTmp(masked), IRExpr_Const(IRConst_U64(rest))));
    IRTemp at1 = tmp(s, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(pos), IRExpr_Const(IRConst_U64(8))));
    addStmtToIRSB(s.out, IRStmt_Store(Iend_LE, IRExpr_RdTmp(at1), IRExpr_RdTmp(w1)));
    IRTemp next = tmp(s, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(pos), IRExpr_Const(IRConst_U64(sizeof(Ev)))));
    addStmtToIRSB(s.out, IRStmt_Store(Iend_LE, pos_at, IRExpr_RdTmp(next)));
    IRTemp end = tmp(s, IRExpr_Load(Iend_LE, Ity_I64, ptr_arg(&stream::g_end)));
    IRTemp full = tmp(s, IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(next), IRExpr_RdTmp(end)));
    IRDirty* di = unsafeIRDirty_0_N(0, "stream_chunk_filled",
                                    VG_(fnptr_to_fnentry)(reinterpret_cast<void*>(sim::stream_chunk_filled)), mkIRExprVec_0());
    di->guard = IRExpr_RdTmp(full);
    addStmtToIRSB(s.out, IRStmt_Dirty(di));
}

// Streaming with certain hits: the data event of `d` (its instruction's
// fetch given by `fetch_flag`), with the run of certain hits from
// s.ev[next] on that follows the instruction. Returns the run's length.
Int emit_data(State& s, const Event& d, uptr fetch_flag, Int next) {
    Int k = take_hit_run(s, next, d.ii);
    uptr at = reinterpret_cast<uptr>(d.ii);
    tl_assert((at & ~kInfoMask) == 0);
    uptr tag = d.kind == kEvRead ? kTagRead : d.kind == kEvWrite ? kTagWrite : kTagModify;
    uptr w0 = at | tag | uptr(k) << kRunShift;
    uptr rest = data_word(0, uptr(d.size), fetch_flag);  // the address is added in IR
    append_inline(s, w0, d.ea, rest);
    return k;
}

// Streaming with certain hits: the fetch s.ev[*i] (no data access of its
// own) and the run of certain hits after it as one event (helper `which`:
// kIr1k or kIrGenK), *i past them. False, nothing emitted, if there is no
// run.
bool fetch_with_run(State& s, Int* i, const Event* next, Int which) {
    if (!g_cfg.stream_certain || (next && is_data(next->kind))) return false;
    const Event& e = s.ev[*i];
    Int k = take_hit_run(s, *i + 1, e.ii);
    if (!k) return false;
    emit(s, 2, which, mkIRExprVec_2(ptr_arg(e.ii), mkIRExpr_HWord((HWord)k)), nullptr);
    *i += 1 + k;
    return true;
}

// Emits the queued events; with `hits`, the certain hits counted so far
// too. Those need a count of their own only where the code may leave the
// piece (a side exit, the end) or the runtime's owner changes: kept across
// a full queue, a guarded access or a load-linked, the hits of containers
// 25000 2 made 3,743 pieces instead of 4,135 (5,716 M -> 5,708 M
// instructions in all, bench/self_profile.sh).
void flush(State& s, bool hits = true) {
    Int i = 0;
    while (i < s.used) {
        Event& e = s.ev[i];
        Event* e2 = i + 1 < s.used ? &s.ev[i + 1] : nullptr;
        Event* e3 = i + 2 < s.used ? &s.ev[i + 2] : nullptr;
        IRExpr* ii = ptr_arg(e.ii);
        switch (e.kind) {
            case kEvFetchHit:
                if (!g_cfg.stream_certain) {
                    count_hit(s, e.ii->cc);
                    i += 1;
                } else if (e2 && is_data(e2->kind)) {
                    tl_assert(e2->ii == e.ii);
                    i += 2;
                    i += emit_data(s, *e2, kCertainFetch, i);
                } else {
                    Int k = take_hit_run(s, i, e.ii - 1);
                    emit(s, 2, kHits, mkIRExprVec_2(ii, mkIRExpr_HWord((HWord)k)), nullptr);
                    i += k;
                }
                break;
            case kEvFetch:
                if (fetch_with_run(s, &i, e2, kIr1k)) break;
                if (e2 && is_data(e2->kind)) {
                    // The data event after an instruction's fetch belongs to it.
                    tl_assert(e2->ii == e.ii);
                    if (g_cfg.stream_certain) {
                        i += 2;
                        i += emit_data(s, *e2, kWithFetch, i);
                        break;
                    }
                    Int which = e2->kind == kEvRead ? kIrDr : e2->kind == kEvWrite ? kIrDw : kIrDm;
                    emit(s, 3, which, mkIRExprVec_3(ii, e2->ea, mkIRExpr_HWord(e2->size)), nullptr);
                    i += 2;
                } else if (e2 && e3 && e2->kind == kEvFetch && e3->kind == kEvFetch) {
                    emit(s, 3, kIr3, mkIRExprVec_3(ii, ptr_arg(e2->ii), ptr_arg(e3->ii)), nullptr);
                    i += 3;
                } else if (e2 && e2->kind == kEvFetch) {
                    emit(s, 2, kIr2, mkIRExprVec_2(ii, ptr_arg(e2->ii)), nullptr);
                    i += 2;
                } else {
                    emit(s, 1, kIr1, mkIRExprVec_1(ii), nullptr);
                    i += 1;
                }
                break;
            case kEvFetchGen:
                // Its last line is the certain hits' (add_fetch()): they
                // ride with it, as with a single-line fetch. merge()'s loop
                // in omp_tasks has such an instruction, a run event of its
                // own each iteration before.
                if (fetch_with_run(s, &i, e2, kIrGenK)) break;
                emit(s, 1, kIrGen, mkIRExprVec_1(ii), nullptr);
                i += 1;
                break;
            case kEvFetchLast:
                count_hit(s, e.ii->cc);
                emit(s, 1, kIrLast, mkIRExprVec_1(ii), nullptr);
                i += 1;
                break;
            case kEvRead:
            case kEvWrite:
            case kEvModify: {
                if (g_cfg.stream_certain) {
                    i += 1;
                    i += emit_data(s, e, 0, i);
                    break;
                }
                Int which = e.kind == kEvRead ? kDr : e.kind == kEvWrite ? kDw : kDm;
                emit(s, 3, which, mkIRExprVec_3(ii, e.ea, mkIRExpr_HWord(e.size)), nullptr);
                i += 1;
                break;
            }
        }
    }
    if (hits) flush_hits(s);
    s.used = 0;
}

Event& push(State& s) {
    if (s.used == kQueue) flush(s, false);
    Event& e = s.ev[s.used++];
    e.ea = nullptr;
    e.size = 0;
    return e;
}

bool fetch_single_line(Addr a, UInt len) {
    if (!g_cfg.fetch_exact_single_line_check) return true;
    if (g_cfg.cachegrind && !g_cfg.cg_single_line_ok) return false;
    return (a >> g_cfg.fetch_line_bits) == ((a + len - 1) >> g_cfg.fetch_line_bits);
}

void add_fetch(State& s, InstrInfo* ii) {
    Event& e = push(s);
    bool single = fetch_single_line(ii->addr, ii->len);
    e.kind = single ? kEvFetch : kEvFetchGen;
    e.ii = ii;
    Addr line = ii->addr >> g_cfg.fetch_line_bits;
    Addr last = (ii->addr + ii->len - 1) >> g_cfg.fetch_line_bits;
    if ((g_cfg.i1_fetch_refs || g_cfg.stream_certain) && line == s.last_fetch_line) {
        if (single) e.kind = kEvFetchHit;
        // Two lines, the first a certain hit: only the second is tested.
        else if (last == line + 1 && g_cfg.helpers.ir_last) e.kind = kEvFetchLast;
    }
    // An instruction that straddles lines fetches them in order, so its last
    // line is the one the next instruction can hit for certain: matmul's
    // inner loop has one such instruction, and the ones after it in the
    // same line each cost a helper call before.
    s.last_fetch_line = single ? line : last;
}

void add_read(State& s, InstrInfo* ii, Int size, IRAtom* ea) {
    tl_assert(isIRAtom(ea));
    tl_assert((UInt)size <= kSizeMask);  // the streams' size field
    Event& e = push(s);
    e.kind = kEvRead;
    e.ii = ii;
    e.ea = ea;
    e.size = size;
}

void add_write(State& s, InstrInfo* ii, Int size, IRAtom* ea) {
    tl_assert(isIRAtom(ea));
    tl_assert((UInt)size <= kSizeMask);
    // A write of the same size to the same address expression right after a
    // read by the same instruction is a read-modify-write ("add [mem], r",
    // and the store half of a CAS): one "modify" event.
    if (s.used > 0) {
        Event& last = s.ev[s.used - 1];
        if (last.kind == kEvRead && last.size == size && last.ii == ii && eqIRAtom(last.ea, ea)) {
            last.kind = kEvModify;
            return;
        }
    }
    Event& e = push(s);
    e.kind = kEvWrite;
    e.ii = ii;
    e.ea = ea;
    e.size = size;
}

// Guarded (conditional) loads and stores count only when the guard holds:
// flush the queue and emit a call that carries the guard.
void add_guarded(State& s, InstrInfo* ii, Int size, IRAtom* ea, IRAtom* guard, bool write) {
    tl_assert(isIRAtom(ea) && isIRAtom(guard));
    flush(s, false);
    emit(s, 3, write ? kDw : kDr, mkIRExprVec_3(ptr_arg(ii), ea, mkIRExpr_HWord(size)), guard);
}

InstrInfo* new_instr(State& s, Addr addr, UInt len) {
    tl_assert(s.next_instr < s.sb->n_instrs);
    InstrInfo* ii = &s.sb->instrs[s.next_instr++];
    ii->addr = addr;
    ii->len = len;
    ii->cc = cost::line_cc(addr);
    return ii;
}

// ePAPI's own bookkeeping (EpapiService.h), the OpenMP runtime's code
// (spin loops of timing-dependent length: OmpIntake.h) and the heap
// wrappers (WrapperCode.h) are not simulated.
bool skipped(Addr a) {
    return epapi::unsimulated(a) || omp::runtime_code(a) || omp::unrecorded_code(a) || wrappers::skipped(a);
}

Int clamp(Int size) {
    return (g_cfg.clamp_dirty_size && size > (Int)g_cfg.clamp_dirty_size) ? (Int)g_cfg.clamp_dirty_size
                                                                          : size;
}

VG_REGPARM(1) void enter_owner_helper(UWord owner) { omp::enter_owner((UInt)owner); }

// At the start of a superblock of the program or of the runtime: if the
// running thread's owner differs, tell the intake (a load, a compare and a
// rarely taken call).
void mark_owner(IRSB* out, omp::CodeOwner owner) {
    IRTemp cur = newIRTemp(out->tyenv, Ity_I32);
    addStmtToIRSB(out, IRStmt_WrTmp(cur, IRExpr_Load(Iend_LE, Ity_I32,
                                                     mkIRExpr_HWord(reinterpret_cast<HWord>(&omp::g_owner)))));
    IRTemp differs = newIRTemp(out->tyenv, Ity_I1);
    addStmtToIRSB(out, IRStmt_WrTmp(differs, IRExpr_Binop(Iop_CmpNE32, IRExpr_RdTmp(cur),
                                                          IRExpr_Const(IRConst_U32((UInt)owner)))));
    IRDirty* di = unsafeIRDirty_0_N(1, "enter_owner", VG_(fnptr_to_fnentry)(reinterpret_cast<void*>(enter_owner_helper)),
                                    mkIRExprVec_1(mkIRExpr_HWord((HWord)owner)));
    di->guard = IRExpr_RdTmp(differs);
    addStmtToIRSB(out, IRStmt_Dirty(di));
}

}  // namespace

namespace {

// The first instruction of one of the C library's allocation functions:
// a call from anywhere but the wrappers' code (return address at the top
// of the stack outside it) goes to the preload's wrapper (HeapHooks.h),
// before the instruction is counted. The exit is built from the guest's
// own RSP and memory; it is not an access of the program.
void add_heap_hook(IRSB* out, Addr wrapper) {
    Addr lo, span;
    if (!wrappers::bounds(&lo, &span)) return;
    IRTemp sp = newIRTemp(out->tyenv, Ity_I64), ra = newIRTemp(out->tyenv, Ity_I64);
    IRTemp off = newIRTemp(out->tyenv, Ity_I64), outside = newIRTemp(out->tyenv, Ity_I1);
    addStmtToIRSB(out, IRStmt_WrTmp(sp, IRExpr_Get(offsetof(VexGuestAMD64State, guest_RSP), Ity_I64)));
    addStmtToIRSB(out, IRStmt_WrTmp(ra, IRExpr_Load(Iend_LE, Ity_I64, IRExpr_RdTmp(sp))));
    addStmtToIRSB(out, IRStmt_WrTmp(off, IRExpr_Binop(Iop_Sub64, IRExpr_RdTmp(ra), IRExpr_Const(IRConst_U64(lo)))));
    // ra - lo >= span, unsigned: span <= ra - lo.
    addStmtToIRSB(out, IRStmt_WrTmp(outside, IRExpr_Binop(Iop_CmpLE64U, IRExpr_Const(IRConst_U64(span)),
                                                          IRExpr_RdTmp(off))));
    addStmtToIRSB(out, IRStmt_Exit(IRExpr_RdTmp(outside), Ijk_Boring, IRConst_U64(wrapper),
                                   offsetof(VexGuestAMD64State, guest_RIP)));
}

// A heap wrapper's block that ends in a client request (its magic sequence)
// first offers the request to g_cfg.heap_request in a helper and, if it was
// handled, continues at the instruction after the sequence, as the
// scheduler would have after handling it. containers 20000 1 with the
// monitor: 155,286 trips through the scheduler, two per heap event, against
// 4,349 without the monitor (--stats=yes). The handler takes a stack trace:
// the guest's instruction pointer is set to where the scheduler would have
// left it, and the stack and frame pointers are declared read, so their
// updates are not moved past the call.
void add_heap_request(IRSB* out, const IRSB* sb_in, Addr last_imark) {
    if (!g_cfg.heap_request || !wrappers::in_wrappers(last_imark)) return;
    if (sb_in->next->tag != Iex_Const || sb_in->next->Iex.Const.con->tag != Ico_U64) return;
    ULong next = sb_in->next->Iex.Const.con->Ico.U64;
    const Int rip = offsetof(VexGuestAMD64State, guest_RIP);
    addStmtToIRSB(out, IRStmt_Put(rip, IRExpr_Const(IRConst_U64(next))));
    IRTemp args = newIRTemp(out->tyenv, Ity_I64), handled = newIRTemp(out->tyenv, Ity_I64);
    IRTemp taken = newIRTemp(out->tyenv, Ity_I1);
    addStmtToIRSB(out, IRStmt_WrTmp(args, IRExpr_Get(offsetof(VexGuestAMD64State, guest_RAX), Ity_I64)));
    IRDirty* d = unsafeIRDirty_1_N(handled, 1, "heap_request",
                                   VG_(fnptr_to_fnentry)(reinterpret_cast<void*>(g_cfg.heap_request)),
                                   mkIRExprVec_1(IRExpr_RdTmp(args)));
    const Int read[3] = {rip, (Int)offsetof(VexGuestAMD64State, guest_RSP),
                         (Int)offsetof(VexGuestAMD64State, guest_RBP)};
    d->nFxState = 3;
    for (Int k = 0; k < 3; ++k) {
        VG_(memset)(&d->fxState[k], 0, sizeof d->fxState[k]);
        d->fxState[k].fx = Ifx_Read;
        d->fxState[k].offset = read[k];
        d->fxState[k].size = 8;
    }
    addStmtToIRSB(out, IRStmt_Dirty(d));
    addStmtToIRSB(out, IRStmt_WrTmp(taken, IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(handled),
                                                        IRExpr_Const(IRConst_U64(0)))));
    addStmtToIRSB(out, IRStmt_Exit(IRExpr_RdTmp(taken), Ijk_Boring, IRConst_U64(next), rip));
}

}  // namespace

void instrument_init(const InstrumentConfig& cfg) { g_cfg = cfg; }

void instrument_monitor_started() {
    if (!g_cfg.fast_helpers) return;
    // The miss worker goes on: the monitored helpers hand it each miss's
    // counters (a client request, which waited for it, turned the monitor on).
    g_cfg.fast_helpers = false;
    g_cfg.helpers = sim::fast_helpers(true);
    VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "ompsim");
}

IRSB* instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout*,
                 const VexGuestExtents* vge, const VexArchInfo*, IRType gWordTy, IRType hWordTy) {
    if (gWordTy != hWordTy) VG_(tool_panic)((HChar*)"host/guest word size mismatch");

    State s;
    s.used = 0;
    s.hit_lines = 0;
    s.hits = 0;
    s.last_fetch_line = ~Addr(0);
    s.out = deepCopyIRSBExceptStmts(sb_in);

    Int i = 0;
    while (i < sb_in->stmts_used && sb_in->stmts[i]->tag != Ist_IMark) {
        addStmtToIRSB(s.out, sb_in->stmts[i]);
        ++i;
    }
    // Instructions of ePAPI's own bookkeeping are neither simulated nor
    // counted (EpapiService.h): they get no InstrInfo and no events.
    Int n_instrs = 0;
    for (Int j = i; j < sb_in->stmts_used; ++j)
        if (sb_in->stmts[j]->tag == Ist_IMark && !skipped(sb_in->stmts[j]->Ist.IMark.addr))
            ++n_instrs;
    tl_assert(closure->readdr == vge->base[0]);
    s.sb = cost::new_sb_info(closure->readdr, n_instrs);
    s.next_instr = 0;

    // Superblocks may run on across calls and jumps into another object:
    // every change between the program's and the runtime's code is marked
    // where it happens, after the events before it.
    omp::CodeOwner last_owner = omp::kOwnerNeutral;

    IRTypeEnv* tyenv = sb_in->tyenv;
    InstrInfo* cur = nullptr;
    bool skip = false;
    Addr last_imark = 0;
    for (; i < sb_in->stmts_used; ++i) {
        IRStmt* st = sb_in->stmts[i];
        if (st->tag == Ist_IMark) {
            Addr a = st->Ist.IMark.addr;
            // Only before the block's first instruction: VEX has already
            // dropped the register writes that later ones overwrite (its
            // first optimisation runs before the tool's instrumentation),
            // so further in the guest state is exact only where VEX itself
            // put an exit; ompsim translates without chasing for that
            // (post_clo_init in ToolMain.cpp), so a function's first
            // instruction starts a block.
            if (last_imark == 0) {
                if (Addr w = heaphooks::wrapper_for(a)) add_heap_hook(s.out, w);
            }
            last_imark = a;
            if (g_cfg.track_owner) {
                omp::CodeOwner owner = omp::owner_of(a);
                if (owner != omp::kOwnerNeutral && owner != last_owner) {
                    flush(s);
                    mark_owner(s.out, owner);
                    last_owner = owner;
                    s.last_fetch_line = ~Addr(0);
                }
            }
            skip = skipped(a);
            if (skip) s.last_fetch_line = ~Addr(0);
        }
        if (skip) {
            if (st->tag == Ist_Exit) flush(s);
            addStmtToIRSB(s.out, st);
            continue;
        }
        switch (st->tag) {
            case Ist_IMark: {
                UInt len = st->Ist.IMark.len;
                // VEX reports length 0 for an undecodable instruction.
                if (len == 0) len = VG_MIN_INSTR_SZB;
                cur = new_instr(s, st->Ist.IMark.addr, len);
                add_fetch(s, cur);
                break;
            }
            case Ist_WrTmp: {
                IRExpr* data = st->Ist.WrTmp.data;
                if (data->tag == Iex_Load)
                    add_read(s, cur, sizeofIRType(data->Iex.Load.ty), data->Iex.Load.addr);
                break;
            }
            case Ist_Store: {
                IRExpr* data = st->Ist.Store.data;
                add_write(s, cur, sizeofIRType(typeOfIRExpr(tyenv, data)), st->Ist.Store.addr);
                break;
            }
            case Ist_StoreG: {
                IRStoreG* sg = st->Ist.StoreG.details;
                add_guarded(s, cur, sizeofIRType(typeOfIRExpr(tyenv, sg->data)), sg->addr, sg->guard,
                            true);
                break;
            }
            case Ist_LoadG: {
                IRLoadG* lg = st->Ist.LoadG.details;
                IRType loaded = Ity_INVALID, widened = Ity_INVALID;
                typeOfIRLoadGOp(lg->cvt, &widened, &loaded);
                add_guarded(s, cur, sizeofIRType(loaded), lg->addr, lg->guard, false);
                break;
            }
            case Ist_Dirty: {
                IRDirty* d = st->Ist.Dirty.details;
                if (d->mFx != Ifx_None) {
                    Int size = clamp(d->mSize);
                    if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify) add_read(s, cur, size, d->mAddr);
                    if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify) add_write(s, cur, size, d->mAddr);
                }
                break;
            }
            case Ist_CAS: {
                // A compare-and-swap reads and (possibly) writes its location;
                // counted as a read and a write, which merge into one modify.
                IRCAS* cas = st->Ist.CAS.details;
                Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
                if (cas->dataHi) size *= 2;
                size = clamp(size);
                add_read(s, cur, size, cas->addr);
                add_write(s, cur, size, cas->addr);
                break;
            }
            case Ist_LLSC: {
                if (st->Ist.LLSC.storedata == nullptr) {
                    add_read(s, cur, sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)),
                             st->Ist.LLSC.addr);
                    flush(s, false);
                } else {
                    add_write(s, cur, sizeofIRType(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata)),
                              st->Ist.LLSC.addr);
                }
                break;
            }
            case Ist_Exit:
                // The side exit may be taken: everything before it must be counted.
                flush(s);
                break;
            default:
                break;
        }
        addStmtToIRSB(s.out, st);
    }
    flush(s);
    if (last_imark && sb_in->jumpkind == Ijk_ClientReq) add_heap_request(s.out, sb_in, last_imark);
    tl_assert(s.next_instr == s.sb->n_instrs);
    for (Int i = s.sb->n_instrs - 2; i >= 0; --i) {
        InstrInfo& in = s.sb->instrs[i];
        const InstrInfo& next = s.sb->instrs[i + 1];
        in.same_cc_next = next.cc == in.cc ? next.same_cc_next + 1 : 0;
    }
    return s.out;
}

void discard_superblock(Addr, VexGuestExtents vge) {
    tl_assert(vge.n_used > 0);
    cost::discard_sb_info(vge.base[0]);
}

}  // namespace ompsim
