// One drop-in call on this rank: arguments, row, buffers, and the run of a plan.
#include "redist/mpi/dropin_call.hpp"

#include <cstring>
#include <exception>

#include "redist/mpi/exchange.hpp"

namespace redist::mpi::dropin {

// ---------------------------------------------------------------------------------------------
// A call's arguments, as this rank sees them

namespace {

bool times(std::int64_t count, std::int64_t size, std::int64_t& bytes) {
  return !__builtin_mul_overflow(count, size, &bytes);
}

}  // namespace

Local examine(const Call& c, const CommState& st) {
  Local l;
  l.in_place = c.sendbuf == MPI_IN_PLACE;
  const auto p = static_cast<std::size_t>(st.comm.size());
  l.row.send.assign(p, 0);
  l.row.recv.assign(p, 0);
  MPI_Datatype stype = l.in_place ? c.recvtype : c.sendtype;
  const auto scounts = l.in_place ? c.recvcounts : c.sendcounts;
  if (describe(stype, true, st.comm.get(), l.send) != MPI_SUCCESS ||
      describe(c.recvtype, false, st.comm.get(), l.recv) != MPI_SUCCESS) {
    l.error = MPI_ERR_TYPE;
    return l;
  }
  bool sends = false, receives = false;
  for (std::size_t j = 0; j < p; ++j) {
    if (scounts[j] < 0 || c.recvcounts[j] < 0 || !times(scounts[j], l.send.size, l.row.send[j]) ||
        !times(c.recvcounts[j], l.recv.size, l.row.recv[j])) {
      l.error = MPI_ERR_COUNT;
      return l;
    }
    sends = sends || l.row.send[j] > 0;
    receives = receives || l.row.recv[j] > 0;
  }
  if ((sends && !l.in_place && c.sendbuf == nullptr) || (receives && c.recvbuf == nullptr)) {
    l.error = MPI_ERR_BUFFER;
    return l;
  }
  l.unsupported = (sends && !l.send.packable) || (receives && !l.recv.packable);
  l.row.seal();
  return l;
}

// ---------------------------------------------------------------------------------------------
// Running a plan on the caller's buffers

namespace {

// Byte displacements of a packed buffer holding `bytes[j]` for every peer but `me`, in order.
std::vector<std::int64_t> packed_displacements(const std::vector<std::int64_t>& bytes,
                                               std::size_t me, std::int64_t& total) {
  std::vector<std::int64_t> displs(bytes.size(), 0);
  total = 0;
  for (std::size_t j = 0; j < bytes.size(); ++j) {
    displs[j] = total;
    if (j != me) total += bytes[j];
  }
  return displs;
}

int prepare_send(const Call& c, const Local& l, MPI_Comm comm, std::size_t me, SendSide& s) {
  const auto p = l.row.send.size();
  if (!l.in_place && l.send.contiguous) {
    s.base = static_cast<const std::byte*>(c.sendbuf);
    s.displs.resize(p);
    for (std::size_t j = 0; j < p; ++j) s.displs[j] = c.sdispls[j] * l.send.extent;
    return MPI_SUCCESS;
  }
  std::int64_t total = 0;
  s.displs = packed_displacements(l.row.send, me, total);
  s.packed.resize(static_cast<std::size_t>(total));
  s.base = s.packed.data();
  const void* buffer = l.in_place ? c.recvbuf : c.sendbuf;
  MPI_Datatype type = l.in_place ? c.recvtype : c.sendtype;
  const auto counts = l.in_place ? c.recvcounts : c.sendcounts;
  const auto displs = l.in_place ? c.rdispls : c.sdispls;
  for (std::size_t j = 0; j < p; ++j) {
    if (j == me || counts[j] == 0) continue;
    const auto* block = static_cast<const std::byte*>(buffer) + displs[j] * l.send.extent;
    const int code = l.send.contiguous ? (std::memcpy(s.packed.data() + s.displs[j], block,
                                                      static_cast<std::size_t>(l.row.send[j])),
                                          MPI_SUCCESS)
                                       : pack(block, counts[j], type, l.send,
                                              s.packed.data() + s.displs[j], comm);
    if (code != MPI_SUCCESS) return code;
  }
  return MPI_SUCCESS;
}

// The rank's own block, copied locally (not in place): bytes moved as they are when both types
// are contiguous, else packed and unpacked.
int copy_own_block(const Call& c, const Local& l, MPI_Comm comm, std::size_t me) {
  const std::int64_t bytes = l.row.send[me];
  if (l.in_place || bytes == 0) return MPI_SUCCESS;
  const auto* from = static_cast<const std::byte*>(c.sendbuf) + c.sdispls[me] * l.send.extent;
  auto* to = static_cast<std::byte*>(c.recvbuf) + c.rdispls[me] * l.recv.extent;
  if (l.send.contiguous && l.recv.contiguous) {
    std::memmove(to, from, static_cast<std::size_t>(bytes));
    return MPI_SUCCESS;
  }
  std::vector<std::byte> staged(static_cast<std::size_t>(bytes));
  int code = pack(from, c.sendcounts[me], c.sendtype, l.send, staged.data(), comm);
  if (code == MPI_SUCCESS) {
    code = unpack(staged.data(), c.recvcounts[me], c.recvtype, l.recv, to, comm);
  }
  return code;
}

}  // namespace

void prepare(const Call& c, const Local& l, MPI_Comm comm, std::size_t me, Prepared& pre) {
  const auto p = l.row.recv.size();
  pre.code = prepare_send(c, l, comm, me, pre.send);
  if (pre.code == MPI_SUCCESS) pre.code = copy_own_block(c, l, comm, me);
  pre.recv_base = static_cast<std::byte*>(c.recvbuf);
  pre.rdispls.assign(p, 0);
  if (l.recv.contiguous) {
    for (std::size_t j = 0; j < p; ++j) pre.rdispls[j] = c.rdispls[j] * l.recv.extent;
  } else {
    std::int64_t total = 0;
    pre.rdispls = packed_displacements(l.row.recv, me, total);
    pre.packed_recv.resize(static_cast<std::size_t>(total));
    pre.recv_base = pre.packed_recv.data();
  }
}

int run_plan(CommState& st, const Entry& e, const Call& c, const Local& l, Prepared* pre) {
  MPI_Comm comm = st.comm.get();
  const auto me = static_cast<std::size_t>(st.comm.rank());
  Prepared here;
  if (pre == nullptr) {
    pre = &here;
    prepare(c, l, comm, me, here);
    std::int64_t words[1] = {here.code};
    const Agreement a = agree(comm, CallLog("redist_alltoallv", st.comm.rank()), words);
    if (a.failed) return MPI_ERR_OTHER;
    if (words[0] != 0) return static_cast<int>(words[0]);
  }
  try {
    run_transfers(st.comm, e.transfers, pre->send.base, pre->send.displs, pre->recv_base,
                  pre->rdispls);
  } catch (const Error&) {
    return MPI_ERR_OTHER;
  }
  if (l.recv.contiguous) return MPI_SUCCESS;
  for (std::size_t j = 0; j < l.row.recv.size(); ++j) {
    if (j == me || c.recvcounts[j] == 0) continue;
    const int code =
        unpack(pre->packed_recv.data() + pre->rdispls[j], c.recvcounts[j], c.recvtype, l.recv,
               static_cast<std::byte*>(c.recvbuf) + c.rdispls[j] * l.recv.extent, comm);
    if (code != MPI_SUCCESS) return code;
  }
  return MPI_SUCCESS;
}

}  // namespace redist::mpi::dropin
