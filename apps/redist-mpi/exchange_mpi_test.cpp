// exchange-mpi-test: redist::mpi::Exchange and its baselines under mpirun (mpi/exchange.hpp).
//
//   mpirun -np P exchange-mpi-test --seed S [--instances K] [--bytes-max B] [--fault KIND:RANK]
//          [--fail CALL:RANK[:NTH]]
//
// For K random instances on 2..P nodes (testing/random_exchange.hpp; the same on every rank
// from the seed; some with latency, some with a backbone), every algorithm of
// exchange::kAlgorithms that applies plans them, and the plan is executed (so are the plans of
// `auto`, `whole` and `steps` made on rank 0 from every rank's row by the second constructor): send
// buffers hold the byte pattern(from, to, offset), receive buffers start with a sentinel, and every
// byte of every message must arrive at its offset, the gaps between messages untouched. Each piece
// is also checked when it arrives (Exchange's arrival callback, ArrivalCheck): its bytes already
// carry the pattern, a peer's pieces come in offset order and tile its message exactly once, the
// bytes not yet reported still hold the sentinel, and a rank sees as many arrivals as
// Exchange::receives(); over the ranks, as many as pieces sent. A hand-made plan with pieces that
// round to no byte checks that they are neither sent nor reported. Layouts alternate
// between packed_layouts and one with messages in reverse peer order and gaps. The baselines
// (MPI_Alltoallv, caterpillar, Zoltan's posted pattern) move the same buffers and are checked
// alike. Rank 0 prints one JSON line {"verified": true, ...}; exit 0 when all holds, 1 if not.
// --fault KIND:RANK makes RANK pass a wrong argument and the run must end with a collective
// refusal: every rank prints the same `error: ...` line on stderr, exit 2 (mpi_run_test.sh's
// error mode). KIND: plan (a piece of the plan starts later on RANK only), count (a send count
// one byte short), invalid (every rank drops a piece of the plan: not every byte delivered); and
// for the exchange planned on rank 0: row (RANK's row has a negative count), platform (RANK's
// platform has another latency), algorithm (every rank asks for an unknown algorithm).
// --fail CALL:RANK[:NTH]: RANK's NTH library call of CALL fails (testing/mpi_fault_injection.hpp)
// in the first execute, or with CALL `arrival` (`arrival-not-std`) RANK's arrival callback throws a
// std::runtime_error (an int) at its NTH piece (NTH `last`: its last): every rank must catch the
// same Error naming it, and the next execute on the same object must deliver everything, every
// piece checked on arrival. --backbone: on an instance with a backbone.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "redist/exchange.hpp"
#include "redist/mpi/exchange.hpp"
#include "redist/testing/mpi_fault_injection.hpp"
#include "redist/testing/random_exchange.hpp"

namespace {

namespace ex = redist::exchange;
namespace rm = redist::mpi;

struct Args {
  std::uint64_t seed = 1;
  int instances = 4;
  std::int64_t bytes_max = 5000;
  std::string fault, fail;
  bool backbone = false;  // --fail on an instance with a backbone (plan `whole`)
};

struct World {
  int rank = 0, size = 1;
};

std::byte pattern(std::int64_t from, std::int64_t to, std::int64_t offset) {
  std::uint64_t x = static_cast<std::uint64_t>(from) * 0x9e3779b97f4a7c15ULL ^
                    static_cast<std::uint64_t>(to) * 0xc2b2ae3d27d4eb4fULL ^
                    static_cast<std::uint64_t>(offset) * 0x165667b19e3779f9ULL;
  x ^= x >> 29;
  return static_cast<std::byte>(x & 0xff);
}

constexpr std::byte kSentinel{0xa5};

// Packed layouts, or (odd variants) messages in reverse peer order with a gap of 3 bytes before
// each: what the gaps hold must not change.
rm::PackedLayouts layouts(const ex::Instance& in, const World& w, int variant) {
  rm::PackedLayouts l = rm::packed_layouts(in, w.rank, w.size, 5);
  if (variant % 2 == 0) return l;
  for (rm::BufferLayout* b : {&l.send, &l.recv}) {
    std::int64_t at = 0;
    for (int j = w.size - 1; j >= 0; --j) {
      at += 3;
      b->displs[static_cast<std::size_t>(j)] = at;
      at += b->counts[static_cast<std::size_t>(j)];
    }
  }
  return l;
}

struct Buffers {
  std::vector<std::byte> send, recv;
};

Buffers fill(const rm::PackedLayouts& l, const World& w) {
  Buffers b{std::vector<std::byte>(static_cast<std::size_t>(l.send.extent() + 3), kSentinel),
            std::vector<std::byte>(static_cast<std::size_t>(l.recv.extent() + 3), kSentinel)};
  for (int j = 0; j < w.size; ++j) {
    const auto u = static_cast<std::size_t>(j);
    for (std::int64_t k = 0; k < l.send.counts[u]; ++k) {
      b.send[static_cast<std::size_t>(l.send.displs[u] + k)] = pattern(w.rank, j, k);
    }
  }
  return b;
}

// Bytes of the receive buffer that are wrong: a message's byte not its pattern, a gap's not the
// sentinel.
std::int64_t wrong_bytes(const rm::PackedLayouts& l, const Buffers& b, const World& w) {
  std::vector<std::byte> want(b.recv.size(), kSentinel);
  for (int j = 0; j < w.size; ++j) {
    const auto u = static_cast<std::size_t>(j);
    for (std::int64_t k = 0; k < l.recv.counts[u]; ++k) {
      want[static_cast<std::size_t>(l.recv.displs[u] + k)] = pattern(j, w.rank, k);
    }
  }
  std::int64_t wrong = 0;
  for (std::size_t k = 0; k < want.size(); ++k) wrong += want[k] != b.recv[k];
  return wrong;
}

// Instance k of the run (on every rank when `every_rank`, else on 2..P nodes).
ex::Instance random_instance(std::mt19937_64& rng, const Args& a, const World& w, int k,
                             bool every_rank = false) {
  redist::testkit::RandomExchangeOptions o;
  o.nodes_min = every_rank ? static_cast<std::size_t>(w.size) : 2;
  o.nodes_max = static_cast<std::size_t>(w.size);
  o.partners = 1 + static_cast<std::size_t>(k % 4);
  o.bytes_max = a.bytes_max;
  o.latency = k % 3 == 1 ? 1e-3 : 0.0;
  o.backbone = k % 4 == 3;
  return redist::testkit::random_exchange(rng, o);
}

// Checks each piece this rank receives at its arrival (Exchange's arrival callback): it is not
// empty and sits where the layout puts it, its bytes carry pattern(peer, rank, offset), the pieces
// of a peer come in increasing offset order and tile its message from offset 0 with no gap or
// overlap, and the first byte not reported yet of every message still holds the sentinel (no
// receive is outstanding during a call). finish() adds that every message was covered and that
// the calls are as many as Exchange::receives().
class ArrivalCheck {
 public:
  ArrivalCheck(const rm::PackedLayouts& l, const Buffers& b, const World& w)
      : l_(l), b_(b), w_(w), next_(static_cast<std::size_t>(w.size), 0) {
    next_[static_cast<std::size_t>(w.rank)] = l.recv.counts[static_cast<std::size_t>(w.rank)];
  }

  void operator()(const rm::Exchange::Arrival& a) {
    ++calls_;
    if (a.peer < 0 || a.peer >= w_.size || a.peer == w_.rank) {
      ++bad_;
      return;
    }
    const auto u = static_cast<std::size_t>(a.peer);
    const std::byte* at = b_.recv.data() + l_.recv.displs[u] + next_[u];
    if (a.bytes <= 0 || a.offset != next_[u] || a.offset + a.bytes > l_.recv.counts[u] ||
        a.data != at) {
      ++bad_;  // its bytes are not read: the range may be outside the buffer
      return;
    }
    for (std::int64_t k = 0; k < a.bytes; ++k) {
      bad_ += at[k] != pattern(a.peer, w_.rank, a.offset + k);
    }
    next_[u] = a.offset + a.bytes;
    for (std::size_t j = 0; j < next_.size(); ++j) {
      if (next_[j] < l_.recv.counts[j]) {
        bad_ += b_.recv[static_cast<std::size_t>(l_.recv.displs[j] + next_[j])] != kSentinel;
      }
    }
  }

  // The faults found, with the messages not covered and a call count other than `receives`.
  std::int64_t finish(std::size_t receives) const {
    std::int64_t bad = bad_ + (calls_ != static_cast<std::int64_t>(receives));
    for (std::size_t j = 0; j < next_.size(); ++j) bad += next_[j] != l_.recv.counts[j];
    return bad;
  }
  std::int64_t calls() const { return calls_; }

 private:
  const rm::PackedLayouts& l_;
  const Buffers& b_;
  World w_;
  std::vector<std::int64_t> next_;  // per peer: where its next piece must start
  std::int64_t calls_ = 0, bad_ = 0;
};

// Makes the arrival callback throw on its `nth` call (0: never): a std::runtime_error, or an int
// when `not_std`.
struct Throw {
  std::int64_t nth = 0;
  bool not_std = false;
};
constexpr const char* kRefused = "this piece is refused by the test";

// What one run found on this rank.
struct Outcome {
  std::int64_t wrong_bytes = 0;   // in the receive buffer after the call
  std::int64_t bad_arrivals = 0;  // ArrivalCheck's faults (plans only)
  std::int64_t arrivals = 0;      // arrival calls
};

// Executes the plan with every piece checked at its arrival.
Outcome run_checked(rm::Exchange& x, const rm::PackedLayouts& l, Buffers& b, const World& w,
                    const Throw& thrower) {
  ArrivalCheck check(l, b, w);
  x.execute(b.send.data(), l.send, b.recv.data(), l.recv, [&](const rm::Exchange::Arrival& a) {
    check(a);
    if (check.calls() != thrower.nth) return;
    if (thrower.not_std) throw 7;
    throw std::runtime_error(kRefused);
  });
  return {wrong_bytes(l, b, w), check.finish(x.receives()), check.calls()};
}

// One strategy on one instance and layout, checked on this rank.
Outcome run_one(const std::string& strategy, rm::Exchange* x, const ex::Instance& in,
                const World& w, int variant, const Throw& thrower = {}) {
  const rm::PackedLayouts l = layouts(in, w, variant);
  Buffers b = fill(l, w);
  if (strategy == "alltoallv") {
    rm::alltoallv_exchange(MPI_COMM_WORLD, b.send.data(), l.send, b.recv.data(), l.recv);
  } else if (strategy == "caterpillar") {
    rm::caterpillar_exchange(MPI_COMM_WORLD, b.send.data(), l.send, b.recv.data(), l.recv);
  } else if (strategy == "posted") {
    rm::posted_exchange(MPI_COMM_WORLD, b.send.data(), l.send, b.recv.data(), l.recv);
  } else {
    return run_checked(*x, l, b, w, thrower);
  }
  return {wrong_bytes(l, b, w), 0, 0};
}

struct Tally {
  std::int64_t runs = 0, wrong = 0, pieces = 0, bad_arrivals = 0, arrivals = 0, sends = 0;
  void add(const Outcome& o) {
    wrong += o.wrong_bytes;
    bad_arrivals += o.bad_arrivals;
    arrivals += o.arrivals;
    ++runs;
  }
};

// The platform of the instance's model on the communicator: its bandwidths (1 GB/s for ranks
// beyond its nodes), its latency, and its backbone's clusters (ranks beyond the nodes in the
// first) at `transfers` times the slower median port.
ex::Platform platform_of(const ex::Instance& in, const World& w) {
  ex::Platform p;
  p.ranks = static_cast<std::size_t>(w.size);
  p.send_bandwidth.assign(p.ranks, 1e9);
  p.recv_bandwidth.assign(p.ranks, 1e9);
  std::copy(in.send_bandwidth.begin(), in.send_bandwidth.end(), p.send_bandwidth.begin());
  std::copy(in.recv_bandwidth.begin(), in.recv_bandwidth.end(), p.recv_bandwidth.begin());
  p.latency = in.latency;
  if (in.backbone) {
    ex::PlatformBackbone b{in.backbone->clusters, 0.0};
    for (auto r = static_cast<std::int64_t>(in.nodes); r < w.size; ++r) b.clusters[0].push_back(r);
    b.bandwidth = static_cast<double>(in.backbone->transfers) * 1e9;
    p.backbone = b;
  }
  return p;
}

// The same instance planned on rank 0 from every rank's row (the second constructor): every
// byte delivered, and every rank holding the same claims.
void run_rooted(const ex::Instance& in, const World& w, int k, Tally& t) {
  const ex::Platform platform = platform_of(in, w);
  for (const char* algorithm : {"auto", "whole", "steps"}) {
    const rm::PackedLayouts l = layouts(in, w, k);
    rm::Exchange x(MPI_COMM_WORLD, l.send.counts, platform, algorithm);
    t.add(run_one("redist", &x, in, w, k));
    t.sends += static_cast<std::int64_t>(x.sends());
    double claims[2] = {x.model_makespan(), -x.model_makespan()};
    MPI_Allreduce(MPI_IN_PLACE, claims, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t.bad_arrivals += claims[0] != -claims[1] || !(claims[0] > 0.0) || x.algorithm().empty();
  }
}

void run_instance(const ex::Instance& in, const World& w, int k, Tally& t) {
  for (const ex::AlgorithmName& algorithm : ex::kAlgorithms) {
    ex::Plan plan;
    try {
      plan = ex::plan(in, algorithm.name);
    } catch (const redist::OptionError&) {
      continue;  // does not apply to this instance (the same verdict on every rank)
    }
    rm::Exchange x(MPI_COMM_WORLD, in, plan);
    t.add(run_one("redist", &x, in, w, k));
    t.pieces += static_cast<std::int64_t>(plan.pieces.size());
    t.sends += static_cast<std::int64_t>(x.sends());
  }
  for (const char* baseline : {"alltoallv", "caterpillar", "posted"}) {
    t.add(run_one(baseline, nullptr, in, w, k + 1));
  }
  run_rooted(in, w, k, t);
}

// Pieces that round to no byte are neither sent nor received nor reported: on nodes 0 and 1,
// [0, 1, 2 bytes] in pieces of 0.25, 1.5 and 0.25 bytes (cut 0, 2, 0) and [1, 0, 3 bytes] in
// pieces of 1.125, 0.25 and 1.625 (cut 1, 0, 2), the times exact in binary. Node 0 receives 2
// pieces, node 1 one: the faults found on this rank.
std::int64_t run_rounding(const World& w, Tally& t) {
  const ex::Instance in = redist::testkit::uniform_exchange(2, {{0, 1, 2}, {1, 0, 3}});
  ex::Plan plan;
  plan.pieces = {{0, 1, 0.0, 0.25},  {0, 1, 0.25, 1.5},   {0, 1, 1.75, 0.25},
                 {1, 0, 0.0, 1.125}, {1, 0, 1.125, 0.25}, {1, 0, 1.375, 1.625}};
  plan.makespan = 3.0;
  rm::Exchange x(MPI_COMM_WORLD, in, plan);
  const std::size_t receives = w.rank == 0 ? 2 : w.rank == 1 ? 1 : 0;
  const std::size_t sends = w.rank == 0 ? 1 : w.rank == 1 ? 2 : 0;
  t.add(run_one("redist", &x, in, w, 0));
  t.pieces += static_cast<std::int64_t>(plan.pieces.size());
  t.sends += static_cast<std::int64_t>(x.sends());
  return (x.receives() != receives) + (x.sends() != sends);
}

// A collective refusal provoked by one rank's wrong argument.
void provoke(const Args& a, const World& w) {
  const auto colon = a.fault.find(':');
  const std::string kind = a.fault.substr(0, colon);
  const int culprit = colon == std::string::npos ? 0 : std::stoi(a.fault.substr(colon + 1));
  std::mt19937_64 rng(a.seed);
  const ex::Instance in = random_instance(rng, a, w, 0, true);
  if (kind == "row" || kind == "platform" || kind == "algorithm") {
    rm::PackedLayouts l = layouts(in, w, 0);
    ex::Platform platform = platform_of(in, w);
    if (kind == "row" && w.rank == culprit) l.send.counts[0] = -1;
    if (kind == "platform" && w.rank == culprit) platform.latency += 1e-6;
    rm::Exchange x(MPI_COMM_WORLD, l.send.counts, platform, kind == "algorithm" ? "nope" : "auto");
    return;
  }
  ex::Plan plan = ex::plan(in, "whole");
  if (kind == "plan" && w.rank == culprit) plan.pieces.back().start += 1.0;
  if (kind == "invalid") plan.pieces.pop_back();
  rm::Exchange x(MPI_COMM_WORLD, in, plan);
  rm::PackedLayouts l = layouts(in, w, 0);
  if (kind == "count" && w.rank == culprit) {
    for (std::int64_t& c : l.send.counts) c -= c > 0 && c != 5 ? 1 : 0;
  }
  Buffers b = fill(l, w);
  x.execute(b.send.data(), l.send, b.recv.data(), l.recv);
}

// The failure --fail CALL:RANK[:NTH] injects. CALL `arrival` makes RANK's arrival callback throw
// a std::runtime_error on its NTH call (`last`: its last), `arrival-not-std` an int; any other
// CALL is an MPI call of the library. What every rank's Error must contain.
struct Failure {
  std::string call;
  int culprit = 0;
  std::string nth;
  std::string expected;
};

Failure parse_failure(const std::string& spec) {
  const auto c1 = spec.find(':'), c2 = spec.find(':', c1 + 1);
  Failure f{spec.substr(0, c1), std::stoi(spec.substr(c1 + 1, c2 - c1 - 1)),
            c2 == std::string::npos ? "1" : spec.substr(c2 + 1), ""};
  if (f.call == "arrival" || f.call == "arrival-not-std") {
    f.expected = fmt::format("the arrival callback failed on rank {}: {}", f.culprit,
                             f.call == "arrival" ? kRefused : "an exception not derived from");
  } else {
    f.expected = fmt::format("{} failed on rank {}", f.call, f.culprit);
  }
  return f;
}

// Arms the failure on its rank: the MPI call's, or the callback's (returned).
Throw arm(const Failure& f, const World& w, const rm::Exchange& x) {
  if (w.rank != f.culprit) return {};
  const bool arrival = f.call.starts_with("arrival");
  const auto nth = f.nth == "last" ? static_cast<std::int64_t>(x.receives()) : std::stoll(f.nth);
  if (!arrival) rm::testing::inject_failure(f.call, nth);
  if (arrival && (nth < 1 || nth > static_cast<std::int64_t>(x.receives()))) {
    std::cerr << fmt::format("rank {}: no piece {} to refuse among the {} it receives\n", w.rank,
                             f.nth, x.receives());
  }
  return arrival ? Throw{nth, f.call == "arrival-not-std"} : Throw{};
}

// --fail: the same Error on every rank, then a clean execute on the same object.
bool injected(const Args& a, const World& w, std::string& message) {
  const Failure f = parse_failure(a.fail);
  std::mt19937_64 rng(a.seed);
  // 3 partners, no latency; or 4 partners and a backbone (backbone tokens in flight).
  const ex::Instance in = random_instance(rng, a, w, a.backbone ? 3 : 2, true);
  const ex::Plan plan = ex::plan(in, a.backbone ? "whole" : "preemptive");
  rm::Exchange x(MPI_COMM_WORLD, in, plan);
  const Throw thrower = arm(f, w, x);
  try {
    run_one("redist", &x, in, w, 0, thrower);
  } catch (const rm::Error& e) {
    message = e.what();
  }
  rm::testing::clear_failure();
  // Every rank's message must be rank 0's.
  std::vector<char> root(message.begin(), message.end());
  root.resize(1024, '\0');
  MPI_Bcast(root.data(), 1024, MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = message == std::string(root.data()) && !message.empty() &&
             message.find(f.expected) != std::string::npos;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const Outcome o = run_one("redist", &x, in, w, 1);
  const std::int64_t wrong = o.wrong_bytes + o.bad_arrivals;
  std::int64_t all_wrong = 0;
  MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return same != 0 && all_wrong == 0;
}

int run(const Args& a, const World& w) {
  if (!a.fault.empty()) {
    provoke(a, w);
    return 1;  // not refused: the run fails
  }
  if (!a.fail.empty()) {
    std::string message;
    const bool ok = injected(a, w, message);
    if (w.rank == 0) {
      std::cout << fmt::format("{{\"verified\": {}, \"error\": \"{}\"}}\n", ok, message);
    }
    return ok ? 0 : 1;
  }
  std::mt19937_64 rng(a.seed);
  Tally t;
  for (int k = 0; k < a.instances; ++k) run_instance(random_instance(rng, a, w, k), w, k, t);
  t.bad_arrivals += run_rounding(w, t);
  // Over the ranks: every piece sent is reported once by its receiver.
  std::int64_t sums[4] = {t.wrong, t.bad_arrivals, t.arrivals, t.sends};
  MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const bool ok = sums[0] == 0 && sums[1] == 0 && sums[2] == sums[3];
  if (w.rank == 0) {
    std::cout << fmt::format(
        "{{\"verified\": {}, \"ranks\": {}, \"runs\": {}, \"pieces\": {}, \"sent\": {}, "
        "\"arrivals\": {}, \"wrong_bytes\": {}, \"bad_arrivals\": {}}}\n",
        ok, w.size, t.runs, t.pieces, sums[3], sums[2], sums[0], sums[1]);
  }
  return ok ? 0 : 1;
}

// One write per line, so that the ranks' lines do not interleave.
int print_error(const std::string& what) {
  const std::string line = "error: " + what + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  CLI::App app{"exchange-mpi-test: redist::mpi::Exchange under mpirun"};
  Args a;
  app.add_option("--seed", a.seed, "seed of the random instances");
  app.add_option("--instances", a.instances, "random instances")->check(CLI::Range(1, 1000));
  app.add_option("--bytes-max", a.bytes_max, "largest message")->check(CLI::Range(1, 1 << 24));
  app.add_option("--fault", a.fault, "plan|count|invalid:RANK, a collective refusal");
  app.add_option("--fail", a.fail, "CALL:RANK[:NTH], an injected MPI failure");
  app.add_flag("--backbone", a.backbone, "--fail on an instance with a backbone");
  int rc = 0;
  try {
    app.parse(argc, argv);
    rc = run(a, w);
  } catch (const CLI::ParseError& e) {
    rc = print_error(e.what());
  } catch (const rm::Error& e) {
    rc = print_error(e.what());
  }
  MPI_Finalize();
  return rc;
}
