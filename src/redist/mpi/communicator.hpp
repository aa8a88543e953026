// The library's side of MPI: a private duplicate of the caller's communicator, checked calls, and
// the collective agreement that turns one rank's failed call into the same Error on every rank
// (docs/mpi.md, "MPI errors").
//
// Every MPI call of the library goes through a CallLog, which keeps the first call of this rank
// that returned an error code, with MPI's text for it. A collective step (a constructor, an
// execute, a decision) ends with agree(): one MPI_Allreduce tells every rank whether some rank's
// call failed; when one did, every rank receives the message of the lowest failing rank (one
// MPI_Bcast of a fixed-size buffer) and throws it as the same Error. The library's own traffic
// runs on a Communicator, a duplicate with MPI_ERRORS_RETURN: a failing call returns its code
// whatever handler the caller's communicator has, and the library's messages never meet the
// caller's. Cost: nothing per call on success but a comparison; one MPI_Allreduce of a few
// integers per step (the steps' existing collective checks carry it where they exist).
//
// The one failure that cannot be agreed on is the agreement's own: a rank whose MPI_Allreduce (or
// the broadcast of the message) fails throws its local message at once.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace redist::mpi {

// A collective error: thrown with the same message on every rank.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The first failed MPI call of this rank in one step, named for the messages ("execute").
class CallLog {
 public:
  explicit CallLog(std::string_view step, int rank = -1) : step_(step), rank_(rank) {}

  // Makes an MPI call (a callable returning MPI's code) and keeps its failure; returns whether it
  // succeeded. `name` names the call in the message.
  template <class Call>
  bool check(const char* name, Call&& call) {
    const int code = call();
    return code == MPI_SUCCESS || record(name, code);
  }
  // A failure without an MPI code (the message names the rank).
  void fail(std::string_view what);
  // A failure of a call that is not MPI's (a caller's callback), named as a failed MPI call is:
  // "<step>: <name> failed on rank <rank>: <what>".
  void fail_call(std::string_view name, std::string_view what);

  bool failed() const { return !message_.empty(); }
  const std::string& message() const { return message_; }
  void set_rank(int rank) { rank_ = rank; }
  int rank() const { return rank_; }

 private:
  bool record(const char* name, int code);  // keeps the first failure; returns false
  std::string step_;
  int rank_;
  std::string message_;
};

// What a step's agreement found: whether some rank failed, and the lowest failing rank's message.
struct Agreement {
  bool failed = false;
  std::string message;
};

// Collective over `comm`: one MPI_Allreduce (MPI_MAX) of `words` and of this rank's failure.
// `words` are replaced by their maxima over the ranks (a step's own checks ride along). When some
// rank failed, every rank gets that rank's message (the lowest failing rank's: one MPI_Bcast).
Agreement agree(MPI_Comm comm, const CallLog& log, std::span<std::int64_t> words = {});
// The same, throwing Error("redist::mpi: " + message) on every rank when some rank failed.
void agree_or_throw(MPI_Comm comm, const CallLog& log, std::span<std::int64_t> words = {});

// Collective: rank 0's `bytes` on every rank. An agreement carrying their size (and any failure
// logged so far), one MPI_Bcast, an agreement; throws Error on every rank when a rank failed.
void broadcast_bytes(MPI_Comm comm, CallLog& log, std::vector<char>& bytes);

// A duplicate of the caller's communicator with MPI_ERRORS_RETURN, for the library's own traffic;
// freed when destroyed (unless MPI is finalized by then).
class Communicator {
 public:
  Communicator() = default;
  // Collective over `comm` (MPI_Comm_dup, then MPI_Comm_set_errhandler), agreed over `comm` with
  // the caller's error handler: throws Error on every rank when a rank's call failed, and then no
  // rank keeps a duplicate. `step` names the caller in messages.
  Communicator(MPI_Comm comm, std::string_view step);
  ~Communicator();
  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  void release() noexcept;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace redist::mpi
