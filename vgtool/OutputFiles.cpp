#include "OutputFiles.h"

namespace ompsim {
namespace outfiles {

namespace {

bool g_overwrite;   // --output-overwrite=yes
bool g_forked;      // this process is a child of fork()
bool g_failed;      // an output could not be written
ULong g_stages;     // staging files made, for unique names

// Files created empty by claim(): removed again when a later claim fails,
// and when their content cannot be written.
constexpr int kMaxClaims = 8;
HChar* g_claimed[kMaxClaims];
int g_nclaimed;

const HChar* reason(Int err) {
    switch (err) {
        case VKI_ENOENT: return "no such directory";
        case VKI_ENOTDIR: return "a part of the path is not a directory";
        case VKI_EACCES:
        case VKI_EPERM: return "permission denied";
        case VKI_EROFS: return "read-only file system";
        case VKI_EISDIR: return "it is a directory";
        case VKI_ENOSPC: return "no space left on device";
        case 122: return "disk quota exceeded";  // EDQUOT (no VKI_ name in 3.19)
        case VKI_EFBIG: return "file too large";
        case VKI_EIO: return "input/output error";
        default: return "the system refused it";
    }
}

bool exists(const HChar* path, struct vg_stat* st) { return !sr_isError(VG_(stat)(path, st)); }

// A device, a pipe or anything under /dev or /proc (/dev/stdout is a link
// to whatever fd 1 is, maybe a regular file): written in place, never
// created, claimed or renamed over.
bool written_in_place(const HChar* path) {
    struct vg_stat st;
    if (!exists(path, &st)) return false;
    return !VKI_S_ISREG(st.mode) || VG_(strncmp)(path, "/dev/", 5) == 0 || VG_(strncmp)(path, "/proc/", 6) == 0;
}

bool claimed_here(const HChar* path) {
    for (int i = 0; i < g_nclaimed; ++i)
        if (VG_(strcmp)(g_claimed[i], path) == 0) return true;
    return false;
}

// Removes `path` if claim() created it and it is still empty: a run that
// wrote nothing there leaves nothing there.
void unclaim(const HChar* path) {
    struct vg_stat st;
    if (claimed_here(path) && exists(path, &st) && VKI_S_ISREG(st.mode) && st.size == 0) VG_(unlink)(path);
}

__attribute__((noreturn)) void refuse(const HChar* option, const HChar* path, const HChar* why) {
    for (int i = 0; i < g_nclaimed; ++i) unclaim(g_claimed[i]);
    HChar msg[600];
    VG_(snprintf)(msg, sizeof msg, "%s: cannot create '%s' (%s)", option, path, why);
    fatal_user_error(msg);
}

void fail(const Output& o, const HChar* why) {
    VG_(fmsg)("ompsim: %s: cannot write '%s' (%s); nothing was written under that name\n", o.option, o.path, why);
    g_failed = true;
    unclaim(o.path);
}

// Copies the staging file `in` (`size` bytes) to `out`; 0 or an errno.
Int copy(Int in, Int out, Long size) {
    const Int chunk = 1 << 16;
    HChar* buf = static_cast<HChar*>(VG_(malloc)("ompsim.outfiles", chunk));
    Int err = 0;
    Long done = 0;
    while (done < size && !err) {
        Int got = VG_(read)(in, buf, chunk);
        if (got <= 0) {
            err = got < 0 ? -got : VKI_EIO;  // the stage is shorter than fstat said
            break;
        }
        for (Int at = 0; at < got && !err;) {
            Int put = VG_(write)(out, buf + at, got - at);
            if (put <= 0) err = put < 0 ? -put : VKI_ENOSPC;
            else at += put;
        }
        done += got;
    }
    VG_(free)(buf);
    return err;
}

// Whether the file `fd` (of `size` bytes) ends in a whole line that begins
// with `last_line`: the last thing its writer prints, so a stage cut short
// by a full disk does not pass.
bool ends_with_line(Int fd, Long size, const HChar* last_line) {
    HChar end[512];
    Int n = size < (Long)sizeof end ? (Int)size : (Int)sizeof end;
    if (n == 0 || VG_(lseek)(fd, size - n, VKI_SEEK_SET) != size - n) return false;
    bool ok = VG_(read)(fd, end, n) == n && end[n - 1] == '\n';
    VG_(lseek)(fd, 0, VKI_SEEK_SET);
    if (!ok) return false;
    Int start = n - 1;
    while (start > 0 && end[start - 1] != '\n') --start;
    if (start == 0 && n < size) return false;  // a last line longer than the window
    SizeT k = VG_(strlen)(last_line);
    return (SizeT)(n - 1 - start) >= k && VG_(memcmp)(end + start, last_line, k) == 0;
}

}  // namespace

void set_overwrite(bool yes) { g_overwrite = yes; }

bool has_pid(const HChar* name_template) {
    for (const HChar* s = name_template; *s; ++s) {
        if (s[0] == '%' && s[1] == 'p') return true;
        if (s[0] == '%' && s[1]) ++s;  // "%%p" is a literal '%' and 'p'
    }
    return false;
}

HChar* claim(const HChar* option, const HChar* name_template) {
    HChar* path = VG_(expand_file_name)(option, name_template);
    bool protect = !g_overwrite && !has_pid(name_template);
    struct vg_stat st;
    if (exists(path, &st) && VKI_S_ISDIR(st.mode)) refuse(option, path, "it is a directory");
    if (written_in_place(path)) return path;
    Int flags = VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC | (protect ? VKI_O_EXCL : 0);
    SysRes r = VG_(open)(path, flags, VKI_S_IRUSR | VKI_S_IWUSR);
    if (sr_isError(r)) {
        if (sr_Err(r) == VKI_EEXIST)
            refuse(option, path,
                   "it exists, and a name without %p is never overwritten: remove it, put %p in the name "
                   "or give --output-overwrite=yes");
        refuse(option, path, reason((Int)sr_Err(r)));
    }
    VG_(close)((Int)sr_Res(r));
    if (g_nclaimed < kMaxClaims) g_claimed[g_nclaimed++] = VG_(strdup)("ompsim.outfiles", path);
    return path;
}

void forked() { g_forked = true; }

bool may_write(const HChar* option, const HChar* name_template, const HChar* path, bool claimed) {
    if (g_overwrite || has_pid(name_template) || written_in_place(path)) return true;
    if (g_forked) {
        VG_(fmsg)("ompsim: %s: '%s' has no %%p and belongs to the parent process: this forked process "
                  "(pid %d) does not write it\n",
                  option, path, VG_(getpid)());
        return false;
    }
    struct vg_stat st;
    if (!claimed && exists(path, &st)) {
        VG_(fmsg)("ompsim: %s: '%s' exists and is not overwritten (a name without %%p; give "
                  "--output-overwrite=yes to replace it)\n",
                  option, path);
        g_failed = true;
        return false;
    }
    return true;
}

bool open(Output& o, const HChar* option, const HChar* path) {
    o.option = option;
    o.path = path;
    o.fp = nullptr;
    // The stage is in the temporary directory, not next to the file: a
    // full disk there is noticed when the stage is copied, write by write
    // (the writers print through VgFile, which drops write errors).
    const HChar* dirs[2] = {VG_(tmpdir)(), nullptr};
    HChar* stage = static_cast<HChar*>(VG_(malloc)("ompsim.outfiles", VG_(strlen)(dirs[0]) + VG_(strlen)(path) + 64));
    for (int i = 0; i < 2 && !o.fp; ++i) {
        if (dirs[i])
            VG_(sprintf)(stage, "%s/ompsim-stage.%d.%llu", dirs[i], VG_(getpid)(), g_stages++);
        else
            VG_(sprintf)(stage, "%s.stage.%d.%llu", path, VG_(getpid)(), g_stages++);
        o.fp = VG_(fopen)(stage, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY, VKI_S_IRUSR | VKI_S_IWUSR);
    }
    if (!o.fp) {
        VG_(free)(stage);
        o.stage = nullptr;
        fail(o, "no temporary file could be created, neither in the temporary directory nor next to it");
        return false;
    }
    o.stage = stage;
    return true;
}

bool commit(Output& o, const HChar* last_line) {
    VG_(fclose)(o.fp);
    o.fp = nullptr;
    bool ok = false;
    Int in = VG_(fd_open)(o.stage, VKI_O_RDONLY, 0);
    struct vg_stat st;
    if (in < 0 || VG_(fstat)(in, &st) != 0) {
        fail(o, "its temporary file could not be read back");
    } else if (!ends_with_line(in, st.size, last_line)) {
        fail(o, "its temporary file is incomplete: is the temporary directory's disk full?");
    } else {
        // A regular file (or a new one) gets its content under a temporary
        // name, renamed over it when all is written; a device or a pipe is
        // written directly.
        bool direct = written_in_place(o.path);
        HChar* tmp = nullptr;
        SysRes r;
        if (direct) {
            r = VG_(open)(o.path, VKI_O_WRONLY | VKI_O_TRUNC, 0);
        } else {
            tmp = static_cast<HChar*>(VG_(malloc)("ompsim.outfiles", VG_(strlen)(o.path) + 32));
            VG_(sprintf)(tmp, "%s.tmp.%d", o.path, VG_(getpid)());
            r = VG_(open)(tmp, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY, VKI_S_IRUSR | VKI_S_IWUSR);
        }
        Int err = sr_isError(r) ? (Int)sr_Err(r) : 0;
        if (!err) {
            Int out = (Int)sr_Res(r);
            err = copy(in, out, st.size);
            VG_(close)(out);
        }
        bool renamed = !err && (!tmp || VG_(rename)(tmp, o.path) == 0);
        if (!renamed && tmp) VG_(unlink)(tmp);
        if (err) fail(o, reason(err));
        else if (!renamed) fail(o, "its temporary file could not be renamed to it");
        ok = renamed;
        if (tmp) VG_(free)(tmp);
    }
    if (in >= 0) VG_(close)(in);
    VG_(unlink)(o.stage);
    VG_(free)(o.stage);
    o.stage = nullptr;
    return ok;
}

bool any_failed() { return g_failed; }

}  // namespace outfiles
}  // namespace ompsim
