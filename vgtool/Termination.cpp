#include "Termination.h"

extern "C" {
#include "pub_tool_vkiscnums.h"
}

namespace ompsim {
namespace termination {

namespace {

constexpr Int kSignals = 65;  // 1 to 64

bool g_exited;
Int g_status;
Int g_pending;                 // a fatal signal the process sent itself, 0 = none
// The thread that sent it: only its own later system calls say the signal
// did not end the run (another thread's futex or sched_yield between the
// send and the delivery once made a program killed by raise() in its
// serial part after a parallel region report signal 0).
ThreadId g_pending_tid;
UWord g_handler[kSignals];     // the client's disposition: 0 default, 1 ignore, else a handler
bool g_oneshot[kSignals];      // SA_RESETHAND: back to the default when it runs

// Whether the default action of `sig` ends the process.
bool fatal_by_default(Int sig) {
    switch (sig) {
        case VKI_SIGCHLD: case VKI_SIGCONT: case VKI_SIGURG: case VKI_SIGWINCH:
        case VKI_SIGSTOP: case VKI_SIGTSTP: case VKI_SIGTTIN: case VKI_SIGTTOU:
            return false;
        default:
            return sig > 0 && sig < kSignals;
    }
}

void sent_to_self(ThreadId tid, Int sig) {
    if (fatal_by_default(sig) && g_handler[sig] == 0) {
        g_pending = sig;
        g_pending_tid = tid;
    }
}

}  // namespace

void pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs) {
    Int self = VG_(getpid)();
    bool own = tid == g_pending_tid;  // the sender of the pending signal
    switch (sysno) {
        case __NR_exit_group:
            g_exited = true;
            g_status = nargs > 0 ? (Int)(args[0] & 0xff) : 0;
            return;
        // The calls between sending a signal to oneself and its delivery:
        // glibc's raise reads the ids, blocks every signal, sends, and
        // restores the mask (the delivery happens there).
        case __NR_rt_sigprocmask:
        case __NR_getpid:
        case __NR_gettid:
            return;
        case __NR_kill:  // kill(pid, sig): the own pid or the own group (0)
            if (own) g_pending = 0;
            if ((Int)args[0] == self || args[0] == 0) sent_to_self(tid, (Int)args[1]);
            return;
        case __NR_tgkill:             // tgkill(tgid, tid, sig)
        case __NR_rt_tgsigqueueinfo:  // (tgid, tid, sig, info)
            if (own) g_pending = 0;
            if ((Int)args[0] == self) sent_to_self(tid, (Int)args[2]);
            return;
        case __NR_rt_sigqueueinfo:  // (tgid, sig, info)
            if (own) g_pending = 0;
            if ((Int)args[0] == self) sent_to_self(tid, (Int)args[1]);
            return;
        default:
            if (own) g_pending = 0;
    }
}

void post_syscall(ThreadId, UInt sysno, UWord* args, UInt, SysRes res) {
    // rt_sigaction(sig, act, oldact, size): Valgrind's wrapper checked that
    // `act` can be read before it succeeded.
    if (sysno != __NR_rt_sigaction || sr_isError(res) || args[1] == 0) return;
    Int sig = (Int)args[0];
    if (sig <= 0 || sig >= kSignals) return;
    const vki_sigaction_toK_t* act = reinterpret_cast<const vki_sigaction_toK_t*>(args[1]);
    g_handler[sig] = (UWord)act->ksa_handler;
    g_oneshot[sig] = (act->sa_flags & VKI_SA_RESETHAND) != 0;
}

void pre_deliver_signal(ThreadId, Int sig) {
    if (sig == g_pending) g_pending = 0;  // handled, so not what ended the run
    if (sig > 0 && sig < kSignals && g_oneshot[sig]) g_handler[sig] = 0;
}

bool exited() { return g_exited; }
Int exit_status() { return g_exited ? g_status : 0; }
Int signal() { return g_exited ? 0 : g_pending; }

}  // namespace termination
}  // namespace ompsim
