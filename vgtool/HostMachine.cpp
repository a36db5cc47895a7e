// --machine=host: the tool's side of host detection (see HostMachine.h).
#include "HostMachine.h"

#include "ValgrindApi.h"

// Valgrind 3.19 does not install pub_tool_cpuid.h; these are its two
// declarations (libcoregrind defines them on x86 and amd64).
extern "C" {
Bool VG_(has_cpuid)(void);
void VG_(cpuid)(UInt eax, UInt ecx, UInt* eax_ret, UInt* ebx_ret, UInt* ecx_ret, UInt* edx_ret);
}

namespace ompsim {
namespace {

// Static storage of trivial types: the tool runs no static constructors.
HostFacts g_facts;
const HChar* const kSysfsRoot = "/sys/devices/system/cpu/cpu0";

HostRead read_sysfs(void* ctx, const char* path, char* buf, size_t cap) {
    const HChar* root = static_cast<const HChar*>(ctx);
    HChar full[512];
    VG_(snprintf)(full, sizeof full, "%s/%s", root, path);
    SysRes r = VG_(open)(full, VKI_O_RDONLY, 0);
    if (sr_isError(r)) {
        UWord e = sr_Err(r);
        return (e == VKI_ENOENT || e == VKI_ENOTDIR) ? HostRead::Missing : HostRead::Failed;
    }
    Int fd = sr_Res(r);
    SizeT len = 0;
    for (;;) {
        if (len + 1 >= cap) break;
        Int got = VG_(read)(fd, buf + len, cap - 1 - len);
        if (got < 0) {
            VG_(close)(fd);
            buf[0] = 0;
            return HostRead::Failed;
        }
        if (got == 0) break;
        len += got;
    }
    VG_(close)(fd);
    buf[len] = 0;
    return HostRead::Ok;
}

void run_cpuid(void*, u32 leaf, u32 subleaf, u32 regs[4]) {
    UInt a = 0, b = 0, c = 0, d = 0;
    VG_(cpuid)(leaf, subleaf, &a, &b, &c, &d);
    regs[0] = a;
    regs[1] = b;
    regs[2] = c;
    regs[3] = d;
}

}  // namespace

bool host_machine_detect(HierarchyConfig& out, ErrorText& err) {
    const HChar* root = VG_(getenv)("OMPSIM_HOST_SYSFS");
    if (!root || !root[0]) root = kSysfsRoot;
    HostProbe p;
    p.sysfs_root = root;
    p.read = read_sysfs;
    p.cpuid = VG_(has_cpuid)() ? run_cpuid : nullptr;
    p.ctx = const_cast<HChar*>(root);
    error_clear(err);
    return host_detect(p, g_facts, out, err);
}

void host_machine_print(const HierarchyConfig& detected) {
    HostLine lines[kMaxHostReportLines];
    int n = host_report(g_facts, detected, lines, kMaxHostReportLines);
    for (int i = 0; i < n; ++i) VG_(umsg)("ompsim: %s\n", lines[i].text);
}

bool host_has_sse41() {
    if (!VG_(has_cpuid)()) return false;
    u32 regs[4];
    run_cpuid(nullptr, 1, 0, regs);
    return (regs[2] >> 19) & 1;  // leaf 1, ECX bit 19: SSE4.1
}

}  // namespace ompsim
