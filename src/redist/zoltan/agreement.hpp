// The adapter's collective steps (docs/zoltan.md): a local failure (a callback, a list) is kept in
// the step's CallLog and the step ends with an agreement (redist/mpi/communicator.hpp), so every
// rank throws the same redist::mpi::Error, "redist::zoltan: <step>: rank R: <what>".
#pragma once

#include <cstdint>
#include <exception>
#include <span>

#include "redist/mpi/communicator.hpp"

namespace redist::zoltan {

// Collective: throws Error("redist::zoltan: " + the lowest failing rank's message) on every
// rank when some rank failed; `words` as mpi::agree's.
inline void agree_or_throw(const mpi::Communicator& comm, const mpi::CallLog& log,
                           std::span<std::int64_t> words = {}) {
  const mpi::Agreement a = mpi::agree(comm.get(), log, words);
  if (a.failed) throw mpi::Error("redist::zoltan: " + a.message);
}

// Runs `body` unless the step already failed on this rank; an exception it throws becomes this
// rank's failure.
template <class Body>
void run_locally(mpi::CallLog& log, Body&& body) {
  if (log.failed()) return;
  try {
    body();
  } catch (const std::exception& e) {
    log.fail(e.what());
  } catch (...) {
    log.fail("an unknown exception");
  }
}

}  // namespace redist::zoltan
