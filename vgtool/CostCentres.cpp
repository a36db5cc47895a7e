#include "CostCentres.h"

#include <stddef.h>

namespace ompsim {
namespace cost {

namespace {

struct CodeLoc {
    const HChar* file;
    const HChar* fn;
    UInt line;
};

OSet* g_lines;    // LineCC, ordered by file, fn, line
OSet* g_strings;  // HChar*, interned file and function names
OSet* g_sbs;      // SBInfo keyed by superblock address

Word cmp_loc(const void* key, const void* elem) {
    const CodeLoc* a = static_cast<const CodeLoc*>(key);
    const LineCC* b = static_cast<const LineCC*>(elem);
    Word r = VG_(strcmp)(a->file, b->file);
    if (r) return r;
    r = VG_(strcmp)(a->fn, b->fn);
    if (r) return r;
    return a->line < b->line ? -1 : a->line > b->line ? 1 : 0;
}

Word cmp_string(const void* key, const void* elem) {
    return VG_(strcmp)(*static_cast<const HChar* const*>(key),
                       *static_cast<const HChar* const*>(elem));
}

const HChar* intern(const HChar* s) {
    HChar** found = static_cast<HChar**>(VG_(OSetGen_Lookup)(g_strings, &s));
    if (found) return *found;
    HChar** node = static_cast<HChar**>(VG_(OSetGen_AllocNode)(g_strings, sizeof(HChar*)));
    *node = VG_(strdup)("ompsim.cost.str", s);
    VG_(OSetGen_Insert)(g_strings, node);
    return *node;
}

}  // namespace

void init() {
    g_lines = VG_(OSetGen_Create)(offsetof(LineCC, file), cmp_loc, VG_(malloc), "ompsim.cost.lines",
                                  VG_(free));
    g_strings = VG_(OSetGen_Create)(0, cmp_string, VG_(malloc), "ompsim.cost.strings", VG_(free));
    g_sbs = VG_(OSetGen_Create)(offsetof(SBInfo, sb_addr), nullptr, VG_(malloc), "ompsim.cost.sbs",
                                VG_(free));
}

LineCC* line_cc(Addr instr_addr) {
    DiEpoch ep = VG_(current_DiEpoch)();
    const HChar *file = nullptr, *dir = nullptr, *fn = nullptr;
    UInt line = 0;
    // Same naming as Cachegrind so that --cachegrind-out-file output and
    // cg_annotate agree line for line: "???" where debug info is missing,
    // "dir/file" when a directory is known.
    if (!VG_(get_filename_linenum)(ep, instr_addr, &file, &dir, &line)) {
        file = "???";
        dir = "";
        line = 0;
    }
    if (!VG_(get_fnname)(ep, instr_addr, &fn)) fn = "???";

    // On the stack for the usual length, and copied rather than formatted:
    // a VG_(malloc), a VG_(sprintf) and a VG_(free) for each instruction
    // translated were 42 M instructions of containers 25000 2 (21,064 calls).
    HChar local[512];
    SizeT ldir = VG_(strlen)(dir), lfile = VG_(strlen)(file);
    SizeT need = ldir + 1 + lfile + 1;
    HChar* path = need <= sizeof local ? local : static_cast<HChar*>(VG_(malloc)("ompsim.cost.path", need));
    HChar* at = path;
    if (ldir) {
        VG_(memcpy)(at, dir, ldir);
        at += ldir;
        *at++ = '/';
    }
    VG_(memcpy)(at, file, lfile + 1);

    CodeLoc loc = {path, fn, line};
    LineCC* cc = static_cast<LineCC*>(VG_(OSetGen_Lookup)(g_lines, &loc));
    if (!cc) {
        cc = static_cast<LineCC*>(VG_(OSetGen_AllocNode)(g_lines, sizeof(LineCC)));
        VG_(memset)(cc, 0, sizeof(LineCC));
        cc->file = intern(path);
        cc->fn = intern(fn);
        cc->line = line;
        VG_(OSetGen_Insert)(g_lines, cc);
    }
    if (path != local) VG_(free)(path);
    return cc;
}

SBInfo* new_sb_info(Addr sb_addr, Int n_instrs) {
    // A superblock can be translated again only after its old translation
    // was discarded, which removes the entry; stale entries would mean a
    // missed discard, so replace rather than trust them.
    discard_sb_info(sb_addr);
    SizeT bytes = sizeof(SBInfo) + n_instrs * sizeof(InstrInfo);
    SBInfo* sb = static_cast<SBInfo*>(VG_(OSetGen_AllocNode)(g_sbs, bytes));
    VG_(memset)(sb, 0, bytes);
    sb->sb_addr = sb_addr;
    sb->n_instrs = n_instrs;
    VG_(OSetGen_Insert)(g_sbs, sb);
    return sb;
}

// While events wait in streams (EventStream.h) they point at InstrInfos:
// a discarded translation's array is kept until the streams are empty.
namespace {
XArray* g_graveyard;  // SBInfo* removed while discards were deferred
bool g_defer;
}  // namespace

namespace {
// Every live piece, for settle_hits(): a readers' loop over an array (an
// ePAPI read settles all of them), each piece knowing its place for the
// swap that removes it.
HitPiece** g_pieces;
UInt g_npieces, g_pieces_cap;

void settle(HitPiece* p) {
    ULong d = p->runs - p->settled;
    if (!d) return;
    p->settled = p->runs;
    for (UInt j = 0; j < p->n; ++j) p->share[j].cc->ir += d * p->share[j].n;
    if (p->i1_refs) *p->i1_refs += d * p->hits;
}

// Its runs so far count; its code runs no more.
void settle_and_free_pieces(SBInfo* sb) {
    for (HitPiece* p = sb->pieces; p;) {
        HitPiece* next = p->next;
        settle(p);
        HitPiece* last = g_pieces[--g_npieces];
        g_pieces[p->slot] = last;
        last->slot = p->slot;
        VG_(free)(p);
        p = next;
    }
    sb->pieces = nullptr;
}
}  // namespace

HitPiece* new_hit_piece(SBInfo* sb, UInt n) {
    SizeT bytes = sizeof(HitPiece) + n * sizeof(HitPiece::Share);
    HitPiece* p = static_cast<HitPiece*>(VG_(malloc)("ompsim.cost.piece", bytes));
    VG_(memset)(p, 0, bytes);
    p->n = n;
    p->next = sb->pieces;
    sb->pieces = p;
    if (g_npieces == g_pieces_cap) {
        g_pieces_cap = g_pieces_cap ? 2 * g_pieces_cap : 1024;
        g_pieces = static_cast<HitPiece**>(
            VG_(realloc)("ompsim.cost.pieces", g_pieces, g_pieces_cap * sizeof(HitPiece*)));
    }
    p->slot = g_npieces;
    g_pieces[g_npieces++] = p;
    return p;
}

void settle_hits() {
    for (UInt i = 0; i < g_npieces; ++i) settle(g_pieces[i]);
}

void discard_sb_info(Addr sb_addr) {
    SBInfo* sb = static_cast<SBInfo*>(VG_(OSetGen_Remove)(g_sbs, &sb_addr));
    if (!sb) return;
    settle_and_free_pieces(sb);
    if (g_defer) {
        if (!g_graveyard) g_graveyard = VG_(newXA)(VG_(malloc), "ompsim.graveyard", VG_(free), sizeof(SBInfo*));
        VG_(addToXA)(g_graveyard, &sb);
        return;
    }
    VG_(OSetGen_FreeNode)(g_sbs, sb);
}

void defer_discards(bool on) { g_defer = on; }

void free_discarded() {
    if (!g_graveyard) return;
    for (Word i = 0; i < VG_(sizeXA)(g_graveyard); ++i)
        VG_(OSetGen_FreeNode)(g_sbs, *static_cast<SBInfo**>(VG_(indexXA)(g_graveyard, i)));
    VG_(deleteXA)(g_graveyard);
    g_graveyard = nullptr;
}

void for_each(void (*f)(const LineCC& cc, void* ctx), void* ctx) {
    settle_hits();
    VG_(OSetGen_ResetIter)(g_lines);
    while (LineCC* cc = static_cast<LineCC*>(VG_(OSetGen_Next)(g_lines))) f(*cc, ctx);
}

void zero_all() {
    settle_hits();  // runs before the zeroing are not counted after it
    VG_(OSetGen_ResetIter)(g_lines);
    while (LineCC* cc = static_cast<LineCC*>(VG_(OSetGen_Next)(g_lines))) {
        cc->ir = cc->dr = cc->dw = 0;
        for (int d = 0; d <= kMaxLevels; ++d) cc->ir_served[d] = cc->dr_served[d] = cc->dw_served[d] = 0;
        cc->tlb[0] = cc->tlb[1] = cc->tlb[2] = 0;
    }
}

LineCC** sorted(UInt* count) {
    settle_hits();
    UInt n = VG_(OSetGen_Size)(g_lines);
    LineCC** out = static_cast<LineCC**>(VG_(malloc)("ompsim.cost.sorted", (n + 1) * sizeof(LineCC*)));
    UInt i = 0;
    VG_(OSetGen_ResetIter)(g_lines);
    while (LineCC* cc = static_cast<LineCC*>(VG_(OSetGen_Next)(g_lines))) out[i++] = cc;
    *count = i;
    return out;
}

}  // namespace cost
}  // namespace ompsim
