#include "ElfFile.h"

namespace ompsim {

namespace {

template <typename T>
T field(const UChar* p) {
    T v;
    VG_(memcpy)(&v, p, sizeof v);
    return v;
}

constexpr Int kShdrSize = 64;

}  // namespace

bool ElfFile::open(const HChar* path) {
    close();
    SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(r)) return false;
    fd_ = (Int)sr_Res(r);
    // e_ident: ELF64, little-endian; e_shoff at 0x28, e_shentsize 0x3a,
    // e_shnum 0x3c, e_shstrndx 0x3e.
    UChar eh[64];
    if (!read(0, eh, sizeof eh) || eh[0] != 0x7f || eh[1] != 'E' || eh[2] != 'L' || eh[3] != 'F' || eh[4] != 2 ||
        eh[5] != 1 || field<UShort>(eh + 0x3a) != kShdrSize) {
        close();
        return false;
    }
    shoff_ = field<ULong>(eh + 0x28);
    shnum_ = field<UShort>(eh + 0x3c);
    shstrndx_ = field<UShort>(eh + 0x3e);
    return true;
}

void ElfFile::close() {
    if (fd_ >= 0) VG_(close)(fd_);
    fd_ = -1;
    shnum_ = 0;
}

bool ElfFile::read(ULong off, void* buf, Int n) {
    return fd_ >= 0 && VG_(lseek)(fd_, (Off64T)off, VKI_SEEK_SET) == (Off64T)off && VG_(read)(fd_, buf, n) == n;
}

// Section header: sh_name 0x00, sh_type 0x04, sh_addr 0x10, sh_offset 0x18,
// sh_size 0x20, sh_link 0x28.
bool ElfFile::section(UInt i, Section* s) {
    UChar sh[kShdrSize];
    if (i >= shnum_ || !read(shoff_ + (ULong)i * kShdrSize, sh, sizeof sh)) return false;
    s->name = field<UInt>(sh + 0x00);
    s->type = field<UInt>(sh + 0x04);
    s->addr = (Addr)field<ULong>(sh + 0x10);
    s->offset = field<ULong>(sh + 0x18);
    s->size = field<ULong>(sh + 0x20);
    s->link = field<UInt>(sh + 0x28);
    return true;
}

bool ElfFile::section_named(const HChar* name, Section* s) {
    Section names;
    if (!section(shstrndx_, &names)) return false;
    Int len = (Int)VG_(strlen)(name) + 1;
    HChar buf[64];
    if (len > (Int)sizeof buf) return false;
    for (UInt i = 0; i < shnum_; ++i) {
        if (!section(i, s) || s->name + (ULong)len > names.size) continue;
        if (read(names.offset + s->name, buf, len) && VG_(memcmp)(buf, name, len) == 0) return true;
    }
    return false;
}

bool ElfFile::section_of_type(UInt type, Section* s) {
    for (UInt i = 0; i < shnum_; ++i)
        if (section(i, s) && s->type == type) return true;
    return false;
}

bool ElfFile::string(const Section& strtab, ULong at, HChar* buf, Int n) {
    if (n <= 0 || at >= strtab.size) return false;
    ULong left = strtab.size - at;
    Int want = left < (ULong)(n - 1) ? (Int)left : n - 1;
    if (!read(strtab.offset + at, buf, want)) return false;
    buf[want] = 0;
    return true;
}

}  // namespace ompsim
