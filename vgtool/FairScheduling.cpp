#include "FairScheduling.h"

#include "ValgrindApi.h"

extern "C" {
// Valgrind 3.19's core option (pub_core_options.h, not in the tool headers):
// enum FairSchedType { disable_fair_sched, enable_fair_sched, try_fair_sched }.
extern int vgPlain_clo_fair_sched;
}

namespace ompsim {

void default_fair_scheduling() {
    // Every core option the core parsed, from the rc files and
    // VALGRIND_OPTS as well as the command line.
    static const HChar kOption[] = "--fair-sched=";
    XArray* args = VG_(args_for_valgrind);
    for (Word i = 0; args && i < VG_(sizeXA)(args); ++i) {
        const HChar* arg = *(const HChar**)VG_(indexXA)(args, i);
        if (VG_(strncmp)(arg, kOption, sizeof kOption - 1) == 0) return;
    }
    const int kTryFairSched = 2;
    vgPlain_clo_fair_sched = kTryFairSched;
}

}  // namespace ompsim
