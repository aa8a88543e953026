/* redist/mpi/dropin.h: MPI_Alltoallv with redist's schedules, for C and C++ programs
 * (docs/dropin.md). Link with redist_mpi (pkg-config redist-mpi, or CMake redist::mpi).
 *
 * Every function has the signature and the semantics of the MPI call it replaces (MPI-4.0 §6.8,
 * §6.13): counts and displacements in elements of the datatypes, any committed datatype
 * (contiguous or not), the rank's own block copied locally, MPI_IN_PLACE, zero counts. Each is
 * collective over `comm` and returns an MPI error code; no C++ exception crosses this interface.
 *
 * What happens inside (docs/dropin.md says why and what each step costs):
 * - the call's pattern (this rank's bytes to and from every rank) is looked up in a cache kept on
 *   the communicator (an MPI attribute): one MPI_Allreduce of a few integers tells every rank
 *   whether the whole message matrix is one seen before, and which;
 * - a pattern seen before reuses its decision: its plan (an exchange plan of redist/exchange.hpp,
 *   executed one send and one receive at a time per rank) or the native call;
 * - a new pattern's matrix is gathered on rank 0 and its counts checked (counts that do not match
 *   between ranks are MPI_ERR_TRUNCATE on every rank, without the native call, which could hang);
 *   in auto mode its first three calls run the native call, timed, and the fourth plans it for the
 *   platform (the REDIST_PLATFORM file, or a calibration at first use) and checks the plan with
 *   the exchange validator; the plan is used only when its makespan is predicted to beat the
 *   native time by the minimum gain (REDIST_MIN_GAIN, default 0.05);
 * - the runs of a plan are timed too, and a plan whose median run (of its first three, then of
 *   every sixteen, each window followed by one native call timed anew) is slower than the native
 *   call's median is dropped for the native call.
 * Settings (environment, read at the first call): REDIST_ALLTOALLV=auto|always|never (default
 * auto), REDIST_PLATFORM=FILE, REDIST_MIN_GAIN=FRACTION, REDIST_REPORT=FILE (written by rank 0
 * at MPI_Finalize; redist_dropin_report writes one at any time).
 * Unsupported cases (an intercommunicator, a datatype whose packed size differs from its size)
 * and internal failures fall back to the native call. Errors: MPI_ERR_COUNT (a negative count),
 * MPI_ERR_BUFFER (a null buffer with data), MPI_ERR_TYPE (a datatype that is null or not
 * committed), MPI_ERR_TRUNCATE (counts that do not match between ranks: every rank returns it),
 * MPI_ERR_COMM; a failed MPI call inside redist's schedule returns MPI_ERR_OTHER on every rank.
 * Errors go through the communicator's error handler, as MPI's own do.
 * Thread safety: as MPI's collectives: calls on one communicator must not overlap; calls on
 * different communicators from different threads need MPI_THREAD_MULTIPLE and are serialised by
 * one lock inside the library. */
#ifndef REDIST_MPI_DROPIN_H
#define REDIST_MPI_DROPIN_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

int redist_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);

int redist_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm);

/* Large counts (MPI-4.0's MPI_Alltoallv_c): counts as MPI_Count, displacements as MPI_Aint. */
int redist_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                       const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);

int redist_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);

/* Persistent (MPI-4.0's MPI_Alltoallv_init): the arguments are kept (the arrays are copied) and
 * the pattern is planned at the first start. `request` is a persistent MPI request that redist
 * owns: start it with redist_start, complete it with redist_wait, free it with
 * redist_request_free (MPI_Start and MPI_Wait on it move no data: the MPI library has no way to
 * run a library's collective from them). `info` is accepted and ignored. redist_start runs the
 * whole exchange before it returns; redist_wait then completes at once. */
int redist_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                          MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request* request);
int redist_start(MPI_Request* request);
int redist_wait(MPI_Request* request, MPI_Status* status);
int redist_request_free(MPI_Request* request);

/* Writes the JSON report of every pattern this process has seen (docs/formats.md) to `path`
 * (rank 0 of MPI_COMM_WORLD writes; other ranks do nothing). Local; returns MPI_SUCCESS or
 * MPI_ERR_FILE. Called by the profiling library at MPI_Finalize when REDIST_REPORT is set. */
int redist_dropin_report(const char* path);

#ifdef __cplusplus
}
#endif

#endif /* REDIST_MPI_DROPIN_H */
