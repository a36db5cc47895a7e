/* The IPM paper's Figure 3 program as an MPI program (built against
 * fake_mpi.h and libmpi.so.40 from fake_mpi.c): the tool's preload wraps the
 * MPI calls, so the event flow graph needs no OMPSIM_EVENT. Odd ranks send
 * 10 doubles to rank - 1 ten times, even ranks receive them from rank + 1;
 * a broadcast of 3 ints from root 0 and a receive from MPI_ANY_SOURCE (no
 * partner) follow. Expected (tests/integration/event_flow.py mpi): the same
 * graph as ipm_figure3.c's, then MPI_Bcast 12 B partner 0 and MPI_Recv 4 B
 * with no partner, each at its line (@markers). */
#include "fake_mpi.h"

int main(int argc, char** argv) {
    int rank, size, value = 0;
    double buf[10] = {0};
    MPI_Init(&argc, &argv);                /* @init */
    MPI_Comm_size(MPI_COMM_WORLD, &size);  /* @size */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);  /* @rank */
    for (int i = 0; i < 10; i++) {
        if (rank % 2)
            MPI_Send(buf, 10, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD); /* @send */
        else
            MPI_Recv(buf, 10, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, 0); /* @recv */
    }
    int three[3] = {1, 2, 3};
    MPI_Bcast(three, 3, MPI_INT, 0, MPI_COMM_WORLD); /* @bcast */
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, 0); /* @any */
    MPI_Finalize(); /* @finalize */
    return size > 0 ? 0 : 1;
}
