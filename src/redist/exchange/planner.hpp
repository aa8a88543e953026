// Choosing an exchange planner by name (`redist exchange plan --algorithm NAME`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

struct AlgorithmName {
  std::string_view name;
  std::string_view description;  // one line of the command's help
};

// `auto` with a backbone plans whole, busiest-first and, without latency, all-at-once
// (MPI_Alltoallv's behaviour on the model, all_at_once.hpp) in its three fixed post orders and, up
// to kAutoStepMessages messages, 16 to 256 seeded ones, and keeps the plan whose run by
// the MPI executor is the fastest (ordered_execution.hpp): that run is never predicted slower
// than the call. It also tries oggp up to this many messages (about 0.15 s at 2,000 on the
// development machine; oggp beats whole on many instances whose messages all cross,
// docs/exchange.md "Experiment"), and only when oggp's step bound eta is below the fastest run so
// far (otherwise oggp cannot win: on instances of mostly intra-cluster messages eta is several
// times the lower bound).
inline constexpr std::size_t kAutoStepMessages = 2000;

// Beyond this many messages `auto` under a backbone plans `whole` alone (with its gap and its run
// by the executor in a note): busiest-first, all-at-once and the executor's run of each would take
// it past a minute at the 5 x 10^6 messages an instance may have.
inline constexpr std::size_t kAutoBackboneSearchMessages = 1'000'000;

// all-at-once lays out the shared backbone in pieces: one per running crossing message and change
// of the crossing set, so on dense patterns with many messages in flight tens of pieces per
// message. `auto` keeps its plan only up to this many pieces per message (each piece is one MPI
// message when executed); beyond, a note states how much faster its model was.
inline constexpr std::size_t kAutoSharedPiecesPerMessage = 32;

// Seeded post orders all-at-once tries within `auto`, up to kAutoStepMessages messages: on the
// cluster patterns of docs/exchange.md they often find far better greedy schedules (the bound on
// the 8- and 16-host block-cyclic moves bc-N-N-r1-s3, where the three fixed orders end 15% and 4%
// above it; on the 32-host one the 241st order reaches it, the first 16 end 8.5% above it). Seeds
// 1 to kAutoShuffledMessages / m, at least kAutoShuffledOrders and at most
// kAutoMostShuffledOrders: small instances get more orders for the same work.
inline constexpr std::size_t kAutoShuffledOrders = 16;
inline constexpr std::size_t kAutoMostShuffledOrders = 256;
inline constexpr std::size_t kAutoShuffledMessages = 32'000;

// `auto` without a backbone plans `whole` first (near-linear) and returns it when it meets the
// bound; otherwise it tries preemptive's optimum (latency 0) up to this many messages, within this
// many augmenting-path scans per edge of its matching graph (the measured need: 120-130 on dense
// and 64-partner patterns; sparse patterns need up to ten times that, where whole is kept with its
// gap stated). With a latency, preemptive is tried up to kAutoStepMessages messages.
inline constexpr std::size_t kAutoPreemptiveMessages = 100'000;
inline constexpr std::int64_t kAutoPreemptiveScansPerEdge = 256;

// Every algorithm, in the order the help lists them; `auto` first (the default).
inline constexpr std::array<AlgorithmName, 10> kAlgorithms{{
    {"auto",
     "whole when it meets the bound; else preemptive's optimum without start-up cost (up to "
     "100,000 messages, within a work budget), exact for up to 4 messages with one, and the "
     "better of whole and preemptive; with a backbone the fastest, as the MPI executor runs "
     "it, of whole, busiest-first, all-at-once (without start-up cost) and oggp (up to 2,000 "
     "messages, when its step bound could win) (the default)"},
    {"preemptive",
     "matchings of the message matrix: optimal without start-up cost (one-port, "
     "no backbone; messages x nodes up to 5 x 10^8)"},
    {"whole",
     "every message in one piece, dense greedy: within 2x of the bound (3x with a "
     "backbone)"},
    {"busiest-first",
     "every message in one piece, dense greedy serving first the ports (and backbone) with the "
     "most work left: within 2x of the bound (3x with a backbone; messages x Delta up to "
     "2 x 10^9)"},
    {"min-steps",
     "steps of whole messages, as few as the most messages of one node (Delta), longest "
     "messages together (Desprez et al.; messages x Delta up to 2 x 10^9)"},
    {"caterpillar",
     "ScaLAPACK's caterpillar: p steps, at step t the pairs i + j = t mod p exchange (a "
     "baseline)"},
    {"exact",
     "proven optimum by exhaustive search over cuts and port orders (at most 8 messages, "
     "no backbone)"},
    {"ggp",
     "KPBS steps by graph peeling (Cohen et al.): within 2 (eta + latency) of the step "
     "bound eta (up to 50,000 messages)"},
    {"oggp",
     "ggp peeling bottleneck matchings: fewer steps, same guarantee, slower (up to 10,000 "
     "messages)"},
    {"steps",
     "each message whole, greedy steps longest first: a step baseline, no guarantee (messages x "
     "Delta up to 1.5 x 10^9)"},
}};

// The plan of the named algorithm; OptionError at "algorithm" for an unknown name or one that
// does not apply, InputError for an invalid instance. Sets solve_seconds. `time_limit`: seconds
// exact's search (alone or within auto) may take, past which it returns its best plan, not proven
// optimal, with a note (exact.hpp); empty: no limit; OptionError at "time_limit" unless finite
// and > 0.
Plan plan(const Instance& instance, std::string_view algorithm = "auto",
          std::optional<double> time_limit = std::nullopt);

// The options of `redist exchange plan`, with its defaults.
struct PlanOptions {
  std::string algorithm = "auto";    // one of kAlgorithms
  std::optional<double> time_limit;  // seconds; exact and auto stop their search after it
};

inline Plan plan(const Instance& instance, const PlanOptions& options) {
  return plan(instance, std::string_view(options.algorithm), options.time_limit);
}

}  // namespace redist::exchange
