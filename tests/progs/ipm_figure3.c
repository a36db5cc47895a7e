/* The IPM paper's Figure 3 (Fürlinger and Skinner, "Capturing and Visualizing
 * Event Flow Graphs of MPI Applications", 2009) with OMPSIM_EVENT standing in
 * for the MPI calls: run once per rank (the rank from OMPI_COMM_WORLD_RANK,
 * PMI_RANK or FIG3_RANK), odd ranks send 10 doubles to rank - 1 ten times,
 * even ranks receive them from rank + 1. Expected per rank (derived from the
 * program, tests/integration/event_flow.py): S0 -> Init -> Comm_size ->
 * Comm_rank -> Send|Recv once, Send|Recv -> itself 9 times, -> Finalize once;
 * merged over 4 ranks: the paper's graph, "9x (0,2)" Recv 80 B (+1),
 * "9x (1,3)" Send 80 B (-1). The markers "@name" give the call sites' lines. */
#include <stdlib.h>

#include "ompsim.h"

static int rank_from_env(void) {
    const char* vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "FIG3_RANK"};
    for (int i = 0; i < 3; i++) {
        const char* v = getenv(vars[i]);
        if (v) return atoi(v);
    }
    return 0;
}

int main(void) {
    int rank = rank_from_env();
    OMPSIM_EVENT("MPI_Init", 0, -1);      /* @init */
    OMPSIM_EVENT("MPI_Comm_size", 0, -1); /* @size */
    OMPSIM_EVENT("MPI_Comm_rank", 0, -1); /* @rank */
    for (int i = 0; i < 10; i++) {
        if (rank % 2)
            OMPSIM_EVENT("MPI_Send", 10 * sizeof(double), rank - 1); /* @send */
        else
            OMPSIM_EVENT("MPI_Recv", 10 * sizeof(double), rank + 1); /* @recv */
    }
    OMPSIM_EVENT("MPI_Finalize", 0, -1); /* @finalize */
    return 0;
}
