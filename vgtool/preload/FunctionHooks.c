/* Functions of programs built with -finstrument-functions as regions of the
 * region profile (ompP's FUNCTION regions; docs/regions.md). The compiler
 * calls __cyg_profile_func_enter/_exit at every function's entry and exit;
 * the C library defines both as one empty function (two names, one
 * address), so Valgrind's redirection, which works by address, cannot tell
 * them apart. The preload defines both instead: being preloaded, its
 * definitions come first in the dynamic linker's search (an unversioned
 * definition satisfies the program's GLIBC_2.2.5 reference, as preloaded
 * allocators do). The code is in the unsimulated section; natively and
 * under other tools this library is not loaded and the C library's empty
 * hooks run.
 *
 * The exit hook's return address lies inside the instrumented function, near
 * its end: the tool widens the function's line range with it. */
#include "OmpPreload.h"

void __cyg_profile_func_enter(void* fn, void* site) OMPSIM_UNSIM;
void __cyg_profile_func_enter(void* fn, void* site) {
    if (ompsim_omp_active()) ompsim_omp_event(OMP_EV_FUNC_ENTER, (omp_word)fn, (omp_word)site, 0, 0);
}

void __cyg_profile_func_exit(void* fn, void* site) OMPSIM_UNSIM;
void __cyg_profile_func_exit(void* fn, void* site) {
    (void)site;
    if (ompsim_omp_active())
        ompsim_omp_event(OMP_EV_FUNC_EXIT, (omp_word)fn, (omp_word)__builtin_return_address(0) - 1, 0, 0);
}
