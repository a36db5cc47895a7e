/* MPI calls as point events of the event flow graph (IPM's view of an MPI
 * program, docs/regions.md "Event flow graphs"): Valgrind function wrappers
 * of the MPI library (soname libmpi.so*: Open MPI's libmpi.so.40, MPICH's
 * libmpi.so.12) report each call with its data size (count times the
 * datatype's size) and partner rank (destination, source or root; none for
 * MPI_ANY_SOURCE and MPI_PROC_NULL, which are negative in every
 * implementation), at the program's call site, then make the call.
 *
 * The arguments are taken as words: MPI_Comm and MPI_Datatype are pointers
 * in Open MPI and ints in MPICH, and a word passes either through unchanged
 * (an int is the low half of its register). The wrappers run in the
 * unsimulated section, so they cost the simulated program nothing; the
 * datatype's size comes from the library's MPI_Type_size, which is
 * simulated (a few instructions per call). */
#include <dlfcn.h>

#include "OmpPreload.h"
#include "ompsim.h"
#include <valgrind/valgrind.h>

#define LIBMPI libmpiZdsoZa

typedef int (*type_size_fn)(W type, int* size);

static type_size_fn g_type_size;

/* count elements of `type`, in bytes (0 when the size is unknown). */
static OMPSIM_UNSIM unsigned long bytes_of(W count, W type) {
    if (!g_type_size) g_type_size = (type_size_fn)dlsym(RTLD_DEFAULT, "MPI_Type_size");
    int size = 0;
    if (!g_type_size || g_type_size(type, &size) != 0 || size < 0 || (int)count < 0) return 0;
    return (unsigned long)(int)count * (unsigned long)size;
}

/* The event, located at the caller of the wrapper (the program's call). */
static OMPSIM_UNSIM void report(const char* name, unsigned long bytes, W partner, const void* ra) {
    if (!ompsim_omp_active()) return;
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_EVENT, name, bytes, (long)(int)partner,
                                    (omp_word)ra - 1, 0);
}

#define MPI_WRAPPER(fn, params)                                  \
    int I_WRAP_SONAME_FNNAME_ZU(LIBMPI, fn) params OMPSIM_UNSIM; \
    int I_WRAP_SONAME_FNNAME_ZU(LIBMPI, fn) params

/* The parameter lists and calls of wrappers with n word arguments. */
#define P0 (void)
#define P1 (W a1)
#define P2 (W a1, W a2)
#define P3 (W a1, W a2, W a3)
#define P4 (W a1, W a2, W a3, W a4)
#define P5 (W a1, W a2, W a3, W a4, W a5)
#define P6 (W a1, W a2, W a3, W a4, W a5, W a6)
#define P7 (W a1, W a2, W a3, W a4, W a5, W a6, W a7)
#define P8 (W a1, W a2, W a3, W a4, W a5, W a6, W a7, W a8)
#define P12 (W a1, W a2, W a3, W a4, W a5, W a6, W a7, W a8, W a9, W a10, W a11, W a12)
#define C0 CALL_FN_W_v(r, orig)
#define C1 CALL_FN_W_W(r, orig, a1)
#define C2 CALL_FN_W_WW(r, orig, a1, a2)
#define C3 CALL_FN_W_WWW(r, orig, a1, a2, a3)
#define C4 CALL_FN_W_WWWW(r, orig, a1, a2, a3, a4)
#define C5 CALL_FN_W_5W(r, orig, a1, a2, a3, a4, a5)
#define C6 CALL_FN_W_6W(r, orig, a1, a2, a3, a4, a5, a6)
#define C7 CALL_FN_W_7W(r, orig, a1, a2, a3, a4, a5, a6, a7)
#define C8 CALL_FN_W_8W(r, orig, a1, a2, a3, a4, a5, a6, a7, a8)
#define C12 CALL_FN_W_12W(r, orig, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

/* A wrapper of `fn` with n word arguments a1..an: reports `bytes` and
 * `partner` (expressions of the arguments), then calls the library. */
#define WRAP(fn, n, bytes, partner)                               \
    MPI_WRAPPER(fn, P##n) {                                       \
        OrigFn orig;                                              \
        W r;                                                      \
        VALGRIND_GET_ORIG_FN(orig);                               \
        report(#fn, bytes, partner, __builtin_return_address(0)); \
        C##n;                                                     \
        return (int)r;                                            \
    }

#define NONE (-1)

/* Set-up and queries. */
WRAP(MPI_Init, 2, 0, NONE)                        /* argc, argv */
WRAP(MPI_Init_thread, 4, 0, NONE)                 /* argc, argv, required, provided */
WRAP(MPI_Finalize, 0, 0, NONE)
WRAP(MPI_Comm_size, 2, 0, NONE)                   /* comm, size */
WRAP(MPI_Comm_rank, 2, 0, NONE)                   /* comm, rank */
/* Point to point: buf, count, type, peer, tag, comm[, status|request]. */
WRAP(MPI_Send, 6, bytes_of(a2, a3), a4)
WRAP(MPI_Ssend, 6, bytes_of(a2, a3), a4)
WRAP(MPI_Rsend, 6, bytes_of(a2, a3), a4)
WRAP(MPI_Bsend, 6, bytes_of(a2, a3), a4)
WRAP(MPI_Isend, 7, bytes_of(a2, a3), a4)
WRAP(MPI_Issend, 7, bytes_of(a2, a3), a4)
WRAP(MPI_Recv, 7, bytes_of(a2, a3), a4)
WRAP(MPI_Irecv, 7, bytes_of(a2, a3), a4)
/* sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
 * status: the size and partner of the send side. */
WRAP(MPI_Sendrecv, 12, bytes_of(a2, a3), a4)
/* Completion. */
WRAP(MPI_Wait, 2, 0, NONE)                        /* request, status */
WRAP(MPI_Waitall, 3, 0, NONE)                     /* count, requests, statuses */
/* Collectives: the partner is the root where there is one. */
WRAP(MPI_Barrier, 1, 0, NONE)                     /* comm */
WRAP(MPI_Bcast, 5, bytes_of(a2, a3), a4)          /* buf, count, type, root, comm */
WRAP(MPI_Reduce, 7, bytes_of(a3, a4), a6)         /* send, recv, count, type, op, root, comm */
WRAP(MPI_Allreduce, 6, bytes_of(a3, a4), NONE)    /* send, recv, count, type, op, comm */
WRAP(MPI_Gather, 8, bytes_of(a2, a3), a7)         /* send, scount, stype, recv, rcount, rtype, root, comm */
WRAP(MPI_Scatter, 8, bytes_of(a5, a6), a7)        /* what each rank receives */
WRAP(MPI_Allgather, 7, bytes_of(a2, a3), NONE)    /* send, scount, stype, recv, rcount, rtype, comm */
WRAP(MPI_Alltoall, 7, bytes_of(a2, a3), NONE)
