// The C interface of the drop-in (redist/mpi/dropin.h): MPI's arguments turned into the engine's
// call (64-bit counts and displacements), MPI_Alltoall as the MPI_Alltoallv of equal blocks, the
// large-count variants, and the persistent requests. No exception leaves these functions.
#include "redist/mpi/dropin.h"

#include <climits>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "redist/mpi/dropin_engine.hpp"

namespace {

using redist::mpi::dropin::Call;
using redist::mpi::dropin::Native;

int comm_size(MPI_Comm comm, int& size) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  return MPI_Comm_size(comm, &size);
}

// Widens `n` entries of an MPI array (a null array is left empty: the engine then refuses it).
template <class T>
std::vector<std::int64_t> widen(const T* values, int n) {
  if (values == nullptr) return std::vector<std::int64_t>(static_cast<std::size_t>(n), -1);
  return std::vector<std::int64_t>(values, values + n);
}

// Whether every value fits an int (the native call's counts and displacements).
bool fits_int(const std::vector<std::int64_t>& values) {
  for (std::int64_t v : values) {
    if (v < INT_MIN || v > INT_MAX) return false;
  }
  return true;
}

struct Arrays {
  Arrays() = default;
  Arrays(std::vector<std::int64_t> sc, std::vector<std::int64_t> sd, std::vector<std::int64_t> rc,
         std::vector<std::int64_t> rd)
      : scounts(std::move(sc)),
        sdispls(std::move(sd)),
        rcounts(std::move(rc)),
        rdispls(std::move(rd)) {}
  std::vector<std::int64_t> scounts, sdispls, rcounts, rdispls;
  std::vector<int> narrow[4];  // the same as ints, for the native call
  bool narrowable = true;
  void narrow_all() {
    const std::vector<std::int64_t>* all[4] = {&scounts, &sdispls, &rcounts, &rdispls};
    for (int k = 0; k < 4; ++k) {
      narrowable = narrowable && fits_int(*all[k]);
      if (narrowable) narrow[k].assign(all[k]->begin(), all[k]->end());
    }
  }
};

int run(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf, MPI_Datatype recvtype,
        MPI_Comm comm, Arrays& a, const Native& native) {
  Call call;
  call.sendbuf = sendbuf;
  call.sendcounts = a.scounts;
  call.sdispls = a.sdispls;
  call.sendtype = sendtype;
  call.recvbuf = recvbuf;
  call.recvcounts = a.rcounts;
  call.rdispls = a.rdispls;
  call.recvtype = recvtype;
  call.comm = comm;
  return redist::mpi::dropin::alltoallv(call, native);
}

}  // namespace

extern "C" int redist_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  try {
    int p = 0;
    if (const int code = comm_size(comm, p); code != MPI_SUCCESS) {
      return MPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm);
    }
    Arrays a(widen(sendcounts, p), widen(sdispls, p), widen(recvcounts, p), widen(rdispls, p));
    const Native native = [&] {
      return MPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm);
    };
    return run(sendbuf, sendtype, recvbuf, recvtype, comm, a, native);
  } catch (...) {
    return MPI_ERR_INTERN;
  }
}

extern "C" int redist_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return redist_alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

namespace {

// MPI_Alltoall's blocks: count elements per rank, rank j's at j * count (in elements of the
// type's extent, as MPI_Alltoall places them).
Arrays equal_blocks(int p, MPI_Count scount, MPI_Count rcount) {
  Arrays a;
  for (int j = 0; j < p; ++j) {
    a.scounts.push_back(scount);
    a.sdispls.push_back(static_cast<std::int64_t>(j) * scount);
    a.rcounts.push_back(rcount);
    a.rdispls.push_back(static_cast<std::int64_t>(j) * rcount);
  }
  return a;
}

}  // namespace

extern "C" int redist_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm) {
  try {
    int p = 0;
    const bool fits = sendcount <= INT_MAX && recvcount <= INT_MAX && sendcount >= INT_MIN &&
                      recvcount >= INT_MIN;
    if (comm_size(comm, p) != MPI_SUCCESS) {
      return MPI_Alltoall(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf,
                          static_cast<int>(recvcount), recvtype, comm);
    }
    Arrays a = equal_blocks(p, sendcount, recvcount);
    Native native;
    if (fits) {
      native = [&] {
        return MPI_Alltoall(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf,
                            static_cast<int>(recvcount), recvtype, comm);
      };
    }
    return run(sendbuf, sendtype, recvbuf, recvtype, comm, a, native);
  } catch (...) {
    return MPI_ERR_INTERN;
  }
}

extern "C" int redist_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm) {
  try {
    int p = 0;
    if (comm_size(comm, p) != MPI_SUCCESS) return MPI_ERR_COMM;
    Arrays a(widen(sendcounts, p), widen(sdispls, p), widen(recvcounts, p), widen(rdispls, p));
    a.narrow_all();
    Native native;
    if (a.narrowable) {
      native = [&] {
        return MPI_Alltoallv(sendbuf, a.narrow[0].data(), a.narrow[1].data(), sendtype, recvbuf,
                             a.narrow[2].data(), a.narrow[3].data(), recvtype, comm);
      };
    }
    return run(sendbuf, sendtype, recvbuf, recvtype, comm, a, native);
  } catch (...) {
    return MPI_ERR_INTERN;
  }
}

// ---------------------------------------------------------------------------------------------
// Persistent requests: a persistent receive from MPI_PROC_NULL is the handle (MPI_Start and
// MPI_Wait on it are harmless), and the arguments are kept beside it.

namespace {

struct Persistent {
  const void* sendbuf;
  std::vector<int> sendcounts, sdispls;
  MPI_Datatype sendtype;
  void* recvbuf;
  std::vector<int> recvcounts, rdispls;
  MPI_Datatype recvtype;
  MPI_Comm comm;
};

std::mutex& requests_lock() {
  static std::mutex m;
  return m;
}

std::map<MPI_Request, Persistent>& requests() {
  static std::map<MPI_Request, Persistent> r;
  return r;
}

}  // namespace

extern "C" int redist_alltoallv_init(const void* sendbuf, const int sendcounts[],
                                     const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                     const int recvcounts[], const int rdispls[],
                                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                     MPI_Request* request) {
  try {
    int p = 0;
    if (request == nullptr) return MPI_ERR_REQUEST;
    if (const int code = comm_size(comm, p); code != MPI_SUCCESS) return code;
    auto copy = [p](const int* values) {
      return values == nullptr ? std::vector<int>(static_cast<std::size_t>(p), -1)
                               : std::vector<int>(values, values + p);
    };
    Persistent op{sendbuf,          copy(sendcounts), copy(sdispls), sendtype, recvbuf,
                  copy(recvcounts), copy(rdispls),    recvtype,      comm};
    char dummy = 0;
    if (const int code = MPI_Recv_init(&dummy, 0, MPI_BYTE, MPI_PROC_NULL, 0, comm, request);
        code != MPI_SUCCESS) {
      return code;
    }
    std::lock_guard<std::mutex> lock(requests_lock());
    requests()[*request] = std::move(op);
    return MPI_SUCCESS;
  } catch (...) {
    return MPI_ERR_INTERN;
  }
}

extern "C" int redist_start(MPI_Request* request) {
  try {
    if (request == nullptr) return MPI_ERR_REQUEST;
    Persistent op;
    {
      std::lock_guard<std::mutex> lock(requests_lock());
      const auto it = requests().find(*request);
      if (it == requests().end()) return MPI_ERR_REQUEST;
      op = it->second;
    }
    const int code =
        redist_alltoallv(op.sendbuf, op.sendcounts.data(), op.sdispls.data(), op.sendtype,
                         op.recvbuf, op.recvcounts.data(), op.rdispls.data(), op.recvtype, op.comm);
    const int started = MPI_Start(request);
    return code != MPI_SUCCESS ? code : started;
  } catch (...) {
    return MPI_ERR_INTERN;
  }
}

extern "C" int redist_wait(MPI_Request* request, MPI_Status* status) {
  if (request == nullptr) return MPI_ERR_REQUEST;
  return MPI_Wait(request, status);
}

extern "C" int redist_request_free(MPI_Request* request) {
  try {
    if (request == nullptr) return MPI_ERR_REQUEST;
    {
      std::lock_guard<std::mutex> lock(requests_lock());
      requests().erase(*request);
    }
    return MPI_Request_free(request);
  } catch (...) {
    return MPI_ERR_INTERN;
  }
}

extern "C" int redist_dropin_report(const char* path) {
  if (path == nullptr) return MPI_ERR_ARG;
  try {
    return redist::mpi::dropin::write_report(path);
  } catch (...) {
    return MPI_ERR_FILE;
  }
}
