#include "RuntimeRegistration.h"

#include "ValgrindApi.h"

namespace ompsim {
namespace omp {

namespace {

// The value's fields: "0x<flag address>-<flag value>-<library file>", both
// numbers in hexadecimal (VG_(strtoull16) takes the "0x"). False if it is
// not that.
bool parse(const HChar* s, Addr* addr, ULong* value) {
    HChar* end;
    ULong a = VG_(strtoull16)(s, &end);
    if (end == s || *end != '-') return false;
    const HChar* v = end + 1;
    *value = VG_(strtoull16)(v, &end);
    if (end == v || *end != '-') return false;
    *addr = Addr(a);
    return true;
}

}  // namespace

bool forget_dead_registration() {
    // libomp names it with getuid(); the tool's API has the effective uid,
    // the same unless the program is set-uid (then nothing is found).
    HChar path[96];
    VG_(snprintf)(path, sizeof path, "/dev/shm/__KMP_REGISTERED_LIB_%d_%d", VG_(getpid)(), VG_(geteuid)());
    SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(r)) return false;
    Int fd = Int(sr_Res(r));
    HChar buf[256];
    Int n = VG_(read)(fd, buf, sizeof buf - 1);
    VG_(close)(fd);
    buf[n > 0 ? n : 0] = 0;
    Addr flag = 0;
    ULong value = 0;
    // Unreadable as a registration: libomp takes its owner for alive (an
    // unknown format of another version), and so does the tool.
    if (!parse(buf, &flag, &value) || !flag || !value) return false;
    // libomp's test (__kmp_is_address_mapped): a readable and writable
    // mapping holds the address, and the flag there has the value.
    bool alive = VG_(am_is_valid_for_client)(flag, sizeof(ULong), VKI_PROT_READ | VKI_PROT_WRITE) &&
                 *reinterpret_cast<const ULong*>(flag) == value;
    if (alive) return false;
    return VG_(unlink)(path) == 0;
}

}  // namespace omp
}  // namespace ompsim
