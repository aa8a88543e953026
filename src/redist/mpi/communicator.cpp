#include "redist/mpi/communicator.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace redist::mpi {

namespace {

constexpr int kMessageBytes = 1024;  // an agreed message, truncated to fit

std::string error_text(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return fmt::format("error {}", code);
  return std::string(text, static_cast<std::size_t>(std::clamp(length, 0, MPI_MAX_ERROR_STRING)));
}

std::string rank_text(int rank) { return rank >= 0 ? std::to_string(rank) : "?"; }

std::string call_failure(std::string_view step, const char* name, int rank, int code) {
  return fmt::format("{}: {} failed on rank {}: {}", step, name, rank_text(rank), error_text(code));
}

// Word 0 of an agreement: 0 when no rank failed, else kRanks - (the lowest failing rank). A rank
// that failed before it could learn its number counts as the rank kRanks - 1, which no
// communicator has.
constexpr std::int64_t kRanks = std::int64_t{INT_MAX} + 1;

std::int64_t failure_word(const CallLog& log) {
  if (!log.failed()) return 0;
  return log.rank() >= 0 ? kRanks - log.rank() : 1;
}

// The lowest failing rank's message, sent from that rank to every other (a fixed size, so that no
// length needs agreeing on).
std::string broadcast_message(MPI_Comm comm, const CallLog& log, std::int64_t word) {
  // Word 1 stands for a rank that could not tell its number; any other names a rank of `comm`.
  if (word == 1) return "an MPI call failed on a rank that could not tell its number";
  const std::int64_t root = kRanks - word;
  char text[kMessageBytes] = {};
  if (log.rank() == root) {
    const std::size_t n = std::min<std::size_t>(log.message().size(), kMessageBytes - 1);
    std::memcpy(text, log.message().data(), n);
  }
  if (MPI_Bcast(text, kMessageBytes, MPI_CHAR, static_cast<int>(root), comm) != MPI_SUCCESS) {
    return fmt::format(
        "an MPI call failed on rank {} (its message was lost: MPI_Bcast failed on "
        "rank {})",
        root, rank_text(log.rank()));
  }
  text[kMessageBytes - 1] = '\0';
  return text;
}

}  // namespace

bool CallLog::record(const char* name, int code) {
  if (message_.empty()) message_ = call_failure(step_, name, rank_, code);
  return false;
}

void CallLog::fail(std::string_view what) {
  if (message_.empty()) message_ = fmt::format("{}: rank {}: {}", step_, rank_text(rank_), what);
}

void CallLog::fail_call(std::string_view name, std::string_view what) {
  if (message_.empty()) {
    message_ = fmt::format("{}: {} failed on rank {}: {}", step_, name, rank_text(rank_), what);
  }
}

Agreement agree(MPI_Comm comm, const CallLog& log, std::span<std::int64_t> words) {
  std::vector<std::int64_t> all(words.size() + 1);
  all[0] = failure_word(log);
  std::copy(words.begin(), words.end(), all.begin() + 1);
  const int code = MPI_Allreduce(MPI_IN_PLACE, all.data(), static_cast<int>(all.size()),
                                 MPI_INT64_T, MPI_MAX, comm);
  if (code != MPI_SUCCESS) {
    // Not agreed: this rank alone knows, and reports what it knows.
    return {true, log.failed() ? log.message()
                               : call_failure("agreement", "MPI_Allreduce", log.rank(), code)};
  }
  std::copy(all.begin() + 1, all.end(), words.begin());
  if (all[0] == 0) return {};
  return {true, broadcast_message(comm, log, all[0])};
}

void agree_or_throw(MPI_Comm comm, const CallLog& log, std::span<std::int64_t> words) {
  const Agreement a = agree(comm, log, words);
  if (a.failed) throw Error("redist::mpi: " + a.message);
}

void broadcast_bytes(MPI_Comm comm, CallLog& log, std::vector<char>& bytes) {
  std::int64_t size = 0;
  if (log.rank() == 0) {
    size = static_cast<std::int64_t>(bytes.size());
    if (size > INT_MAX) log.fail(fmt::format("{} bytes to broadcast exceed one message", size));
  }
  agree_or_throw(comm, log, std::span(&size, 1));
  bytes.resize(static_cast<std::size_t>(size));
  if (size > 0) {
    log.check("MPI_Bcast",
              [&] { return MPI_Bcast(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, comm); });
  }
  agree_or_throw(comm, log);
}

Communicator::Communicator(MPI_Comm comm, std::string_view step) {
  CallLog log(step);
  int rank = -1;
  if (log.check("MPI_Comm_rank", [&] { return MPI_Comm_rank(comm, &rank); })) log.set_rank(rank);
  log.check("MPI_Comm_dup", [&] {
    const int code = MPI_Comm_dup(comm, &comm_);
    if (code != MPI_SUCCESS) comm_ = MPI_COMM_NULL;  // whatever MPI left there is not ours
    return code;
  });
  if (comm_ != MPI_COMM_NULL) {
    log.check("MPI_Comm_set_errhandler",
              [&] { return MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN); });
    log.check("MPI_Comm_rank", [&] { return MPI_Comm_rank(comm_, &rank_); });
    log.check("MPI_Comm_size", [&] { return MPI_Comm_size(comm_, &size_); });
  }
  const Agreement a = agree(comm, log);
  if (a.failed) {
    release();
    throw Error("redist::mpi: " + a.message);
  }
}

Communicator::~Communicator() { release(); }

Communicator::Communicator(Communicator&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)), rank_(other.rank_), size_(other.size_) {}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    rank_ = other.rank_;
    size_ = other.size_;
  }
  return *this;
}

void Communicator::release() noexcept {
  if (comm_ == MPI_COMM_NULL) return;
  int finalized = 0;
  if (MPI_Finalized(&finalized) == MPI_SUCCESS && !finalized &&
      MPI_Comm_free(&comm_) != MPI_SUCCESS) {
    // A destructor has no one to report to: the handle is dropped (MPI_Finalize reclaims it).
  }
  comm_ = MPI_COMM_NULL;
}

}  // namespace redist::mpi
