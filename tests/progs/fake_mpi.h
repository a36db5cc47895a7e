/* A stand-in for an MPI library, enough for tests/progs/ipm_figure3_mpi.c:
 * the tool's preload wraps the MPI calls of any library whose soname is
 * libmpi.so*, and the tests must not need an MPI installation. Handles are
 * ints, as in MPICH. fake_mpi.c is built as libmpi.so.40 (Open MPI's soname). */
#ifndef FAKE_MPI_H
#define FAKE_MPI_H

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef struct { int source, tag, error; } MPI_Status;

#define MPI_COMM_WORLD 0x44000000
#define MPI_CHAR 1
#define MPI_INT 2
#define MPI_DOUBLE 3
#define MPI_ANY_SOURCE (-2)

int MPI_Init(int* argc, char*** argv);
int MPI_Finalize(void);
int MPI_Comm_size(MPI_Comm comm, int* size);
int MPI_Comm_rank(MPI_Comm comm, int* rank);
int MPI_Type_size(MPI_Datatype type, int* size);
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status);
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);

#endif
