/* See fake_mpi.h: the calls do nothing but answer the rank (from the
 * launcher's environment, as a real MPI would know it) and the sizes. */
#include <stdlib.h>

#include "fake_mpi.h"

static int env_int(const char* a, const char* b, int fallback) {
    const char* v = getenv(a);
    if (!v) v = getenv(b);
    return v ? atoi(v) : fallback;
}

int MPI_Init(int* argc, char*** argv) { (void)argc; (void)argv; return 0; }
int MPI_Finalize(void) { return 0; }
int MPI_Comm_size(MPI_Comm comm, int* size) { (void)comm; *size = env_int("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 1); return 0; }
int MPI_Comm_rank(MPI_Comm comm, int* rank) { (void)comm; *rank = env_int("OMPI_COMM_WORLD_RANK", "PMI_RANK", 0); return 0; }
int MPI_Type_size(MPI_Datatype type, int* size) {
    *size = type == MPI_DOUBLE ? 8 : type == MPI_INT ? 4 : 1;
    return 0;
}
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    (void)buf; (void)count; (void)type; (void)dest; (void)tag; (void)comm;
    return 0;
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
    (void)buf; (void)count; (void)type; (void)tag; (void)comm;
    if (status) status->source = source;
    return 0;
}
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    (void)buf; (void)count; (void)type; (void)root; (void)comm;
    return 0;
}
