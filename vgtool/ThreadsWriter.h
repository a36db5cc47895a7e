// The multi-core parts of the profile document (ThreadsWriter.cpp).
#ifndef OMPSIM_VGTOOL_THREADSWRITER_H
#define OMPSIM_VGTOOL_THREADSWRITER_H

#include "CacheConfig.h"
#include "OmpIntake.h"

namespace ompsim {

// The run's deterministic="..." value.
bool run_deterministic(const omp::Options& o);
// <determinism> inside <run>.
void put_determinism(VgFile* fp, const omp::Options& o);
// cores=, private-levels=, coherence=... attributes of <machine>.
void put_machine_cores(VgFile* fp, const HierarchyConfig& cfg);
// <coherence> inside <totals>.
void put_coherence_totals(VgFile* fp, const HierarchyConfig& cfg);
// <threads> and <cores> after <totals>.
void put_threads_and_cores(VgFile* fp, const HierarchyConfig& cfg);

}  // namespace ompsim

#endif
