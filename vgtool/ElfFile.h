// An ELF64 file's section headers, read in the tool (Valgrind's file calls,
// no libc): the heap wrappers' section of the preload library
// (WrapperCode.h) and the libraries the program names as needed
// (HeapWrapping.h).
#ifndef OMPSIM_VGTOOL_ELFFILE_H
#define OMPSIM_VGTOOL_ELFFILE_H

#include "ValgrindApi.h"

namespace ompsim {

class ElfFile {
public:
    struct Section {
        UInt name;     // offset of its name in the section-name table
        UInt type;     // SHT_*: 6 = SHT_DYNAMIC
        UInt link;     // the string table of a dynamic section
        Addr addr;     // link-time address
        ULong offset;  // in the file
        ULong size;
    };

    // False if `path` cannot be opened or is not a little-endian ELF64 file.
    bool open(const HChar* path);
    void close();

    UInt sections() const { return shnum_; }
    bool section(UInt i, Section* s);
    // The first section called `name`.
    bool section_named(const HChar* name, Section* s);
    // The first section of type `type`.
    bool section_of_type(UInt type, Section* s);
    // The NUL-terminated string at `at` in string table `strtab`, cut to
    // n - 1 characters; false if unreadable.
    bool string(const Section& strtab, ULong at, HChar* buf, Int n);
    bool read(ULong off, void* buf, Int n);

private:
    Int fd_ = -1;
    ULong shoff_ = 0;
    UInt shnum_ = 0;
    UInt shstrndx_ = 0;
};

}  // namespace ompsim

#endif
