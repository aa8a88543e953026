// rebalancer-mpi-test: checks redist::mpi::Rebalancer under mpirun (ours; the ctest entries
// mpi_run_rebalancer_* in apps/redist-mpi/CMakeLists.txt run it through mpi_run_test.sh).
//
//   mpirun -np P rebalancer-mpi-test --policy NAME --iterations K --items N
//          [--clocks skewed|wtime] [--split] [--out-of-place] [--per-item E] [--segment-items S]
//          [--constant] [--slowdown RANK:ITER:FACTOR] [--noise A] [--seed S] [--raw-speeds]
//          [--max-rebalances R] [--min-rebalances R] [--react ITER:WITHIN]
//          [--idle ITER] [--cost-scale C] [--speed-scale F] [--fault KIND:RANK]
//
// Every rank holds a block of int64 items carrying their global index (with --per-item E, an
// item is E int64 values, all its global index, moved by maybe_rebalance(data, E)). Rank r's
// speed changes twice (after K/3 and 2K/3 iterations), so that policies rebalance; --constant
// keeps the first speeds, --slowdown divides RANK's speed by FACTOR from iteration ITER (counted
// from 1) on. Each iteration a rank reports its work (its count) and a time:
//   synthetic (default): count / speed, the same on every host;
//   skewed: the same duration read on a clock of its own (offset 1000 r seconds, rate 1 + r/100),
//           so every rank reports different values;
//   wtime:  start_iteration / end_iteration around a busy loop of count / speed x 20 us.
// --noise A multiplies the synthetic duration by 1 + A u, u uniform in [-1, 1) from a
// mt19937_64 seeded with --seed on every rank: each iteration every rank draws P numbers and
// takes the one of its rank, so the noise is deterministic and independent between ranks.
// --raw-speeds turns the Rebalancer's speed estimator off (balance::RebalanceSettings).
// After every maybe_rebalance (or decide + plan + execute with --split) it checks that the block
// holds the items [global_start, global_start + count) in order, that counts agree, and that
// every rank's report (all fields but count and global_start) is byte-identical to rank 0's.
// Expectations (part of "verified"): --max-rebalances / --min-rebalances bound the rebalances,
// --react ITER:WITHIN wants one after an iteration in ITER..ITER+WITHIN-1.
// --idle ITER: in iteration ITER no rank works (record(0, 1)); with --split the no-work decision
// is then forced (plan), and the run is repeated without forcing it: the rebalances must be the
// same (the policy is told only about decisions it made).
// --cost-scale C multiplies every link cost by C, --speed-scale F every speed by F.
// Rank 0 prints one JSON line; exit 0 when verified, 1 if not, 2 on a collective error (every
// rank prints the same `error:` line).
// Faults (--fault KIND:RANK, at iteration 2 unless said): bad-time (time -1), nan-time, no-time
// (nothing recorded), bad-work (work -5), no-start (end_iteration without start_iteration),
// bad-size (one item too many in data), other-policy (at construction: `never`),
// other-iterations (K + 1), other-settings (at construction: estimator off), negative-count (at
// construction), too-many (every rank decides once more than K; RANK ignored), other-targets
// (--split: every rank forces the decision, RANK moves one item of its targets),
// policy-decide and policy-rebalanced (the policy, a caller's object wrapping --policy, throws
// in decide or in rebalanced after iteration RANK).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "apps/strict_numbers.hpp"
#include "redist/balance/policy.hpp"
#include "redist/common/error.hpp"
#include "redist/mpi/rebalancer.hpp"

namespace {

constexpr double kWtimeUnit = 2e-5;  // seconds per time unit with --clocks wtime

// The test's own MPI calls (MPI_COMM_WORLD returns error codes): a failure is this rank's alone,
// so main reports it and ends the job.
void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw std::runtime_error(fmt::format("{} failed (code {})", call, code));
}

struct Args {
  std::string policy = "cost-benefit";
  std::int64_t iterations = 12;
  std::int64_t items = 200;
  std::string clocks = "synthetic";
  bool split = false;
  bool out_of_place = false;
  std::int64_t per_item = 0;  // 0: one int64 per item, maybe_rebalance(data)
  std::int64_t segment_items = 1024;
  bool constant = false;
  int slow_rank = -1;
  std::int64_t slow_from = 0;
  double slow_factor = 1.0;
  double noise = 0.0;
  std::uint64_t seed = 1;
  bool raw_speeds = false;
  std::int64_t max_rebalances = -1, min_rebalances = -1;
  std::int64_t react_from = 0, react_within = 0;
  std::int64_t idle = 0;
  double cost_scale = 1.0;
  double speed_scale = 1.0;
  std::string fault_kind;
  int fault_rank = -1;
};

double speed(const Args& a, int rank, int size, std::int64_t t) {
  const std::int64_t k = a.iterations;
  const std::int64_t phase = a.constant ? 0 : 3 * t / std::max<std::int64_t>(k, 1);  // 0, 1, 2
  const double s =
      a.speed_scale * (10.0 + 7.0 * static_cast<double>((rank + phase * (1 + size / 2)) % size));
  return rank == a.slow_rank && t + 1 >= a.slow_from ? s / a.slow_factor : s;
}

// The policy named by --policy, throwing in decide or rebalanced after iteration `at`.
class ThrowingPolicy final : public redist::balance::Policy {
 public:
  ThrowingPolicy(const Args& a, bool in_decide, std::int64_t at)
      : inner_(redist::balance::make_policy(a.policy, a.iterations)),
        in_decide_(in_decide),
        at_(at) {}
  redist::balance::Decision decide(const redist::balance::Step& step) override {
    if (in_decide_ && step.after_iteration == at_) throw std::runtime_error("decide refuses");
    return inner_->decide(step);
  }
  void rebalanced(const redist::balance::Step& step) override {
    if (!in_decide_ && step.after_iteration == at_) throw std::runtime_error("rebalanced refuses");
    inner_->rebalanced(step);
  }
  std::string name() const override { return inner_->name(); }

 private:
  std::unique_ptr<redist::balance::Policy> inner_;
  bool in_decide_;
  std::int64_t at_;
};

std::unique_ptr<redist::mpi::Rebalancer> make_rebalancer(
    const Args& a, std::int64_t count, redist::mpi::LinkCosts costs, const std::string& policy,
    std::int64_t k, const redist::mpi::Options& options,
    redist::balance::RebalanceSettings settings) {
  const bool decide = a.fault_kind == "policy-decide";
  if (decide || a.fault_kind == "policy-rebalanced") {
    return std::make_unique<redist::mpi::Rebalancer>(
        MPI_COMM_WORLD, count, costs, std::make_unique<ThrowingPolicy>(a, decide, a.fault_rank), k,
        options, settings);
  }
  return std::make_unique<redist::mpi::Rebalancer>(MPI_COMM_WORLD, count, costs, policy, k, options,
                                                   settings);
}

// Per-rank multiplicative noise: the same stream on every rank, one draw per rank and iteration.
class Noise {
 public:
  Noise(const Args& a, int rank, int size)
      : rng_(a.seed), amplitude_(a.noise), rank_(rank), size_(size) {}
  double factor() {
    double mine = 0.0;
    for (int r = 0; r < size_; ++r) {
      const double u = static_cast<double>(rng_() >> 11) * 0x1p-53;  // [0, 1)
      if (r == rank_) mine = 2.0 * u - 1.0;
    }
    return 1.0 + amplitude_ * mine;
  }

 private:
  std::mt19937_64 rng_;
  double amplitude_;
  int rank_, size_;
};

// The report as text, without the rank's own fields.
std::string common_text(const redist::mpi::RebalanceReport& r) {
  std::ostringstream s;
  s.precision(17);
  s << r.after_iteration << '|' << r.rebalanced << '|' << r.reason << '|' << r.predicted_saving
    << '|' << r.plan_makespan << '|' << r.redistribution_seconds << '|' << r.iteration_time;
  for (std::int64_t c : r.counts) s << ',' << c;
  return s.str();
}

// 1 if rank 0's text differs from this rank's, reduced over ranks.
int differs_from_root(const std::string& text) {
  std::string root = text;
  std::int64_t len = static_cast<std::int64_t>(root.size());
  check(MPI_Bcast(&len, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  root.resize(static_cast<std::size_t>(len));
  check(MPI_Bcast(root.data(), static_cast<int>(len), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  int bad = root != text;
  check(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return bad;
}

std::int64_t bad_items(const std::vector<std::int64_t>& data, const redist::mpi::Rebalancer& rb,
                       std::int64_t per_item) {
  const std::int64_t e = std::max<std::int64_t>(per_item, 1);
  std::int64_t bad = static_cast<std::int64_t>(data.size()) != rb.count() * e;
  for (std::size_t j = 0; j < data.size(); ++j) {
    const std::int64_t item = static_cast<std::int64_t>(j) / e;
    const std::int64_t want = (rb.global_start() + item) % rb.items();
    bad += data[j] != want;
  }
  return bad;
}

void busy_wait(double seconds) {
  const double end = MPI_Wtime() + seconds;
  volatile double x = 1.0;
  while (MPI_Wtime() < end) x = x * 1.0000001 + 1e-9;
}

// This iteration's report, with the fault of this rank if it is due.
void report(redist::mpi::Rebalancer& rb, const Args& a, int rank, int size, std::int64_t t,
            Noise& noise) {
  const double work = static_cast<double>(rb.count());
  const double duration = work / speed(a, rank, size, t) * noise.factor();
  const bool fault = a.fault_rank == rank && t == 1;
  if (t + 1 == a.idle) return rb.record(0.0, 1.0);
  if (fault && a.fault_kind == "no-time") return;
  if (fault && a.fault_kind == "no-start") return rb.end_iteration(work);
  if (fault && a.fault_kind == "bad-time") return rb.record(work, -1.0);
  if (fault && a.fault_kind == "nan-time") return rb.record(work, std::nan(""));
  if (fault && a.fault_kind == "bad-work") return rb.record(-5.0, 1.0);
  if (a.clocks == "wtime") {
    rb.start_iteration();
    busy_wait(duration * kWtimeUnit);
    return rb.end_iteration(work);
  }
  if (a.clocks == "skewed") {
    const double offset = 1000.0 * rank, rate = 1.0 + rank / 100.0, now = 50.0 * t;
    return rb.record(work, (offset + rate * (now + duration)) - (offset + rate * now));
  }
  rb.record(work, duration);
}

// The split API: decide, then plan and execute; `force` plans whatever the policy said.
redist::mpi::RebalanceReport split_step(redist::mpi::Rebalancer& rb,
                                        std::vector<std::int64_t>& data, bool force,
                                        bool move_one) {
  redist::balance::RebalanceDecision d = rb.decide();
  redist::mpi::RebalanceReport r;
  r.after_iteration = d.after_iteration;
  r.reason = d.reason;
  r.predicted_saving = d.predicted_saving;
  r.iteration_time = d.measured_time;
  r.plan_makespan = d.plan_makespan;
  if (move_one) {
    const auto from =
        std::find_if(d.targets.begin(), d.targets.end(), [](auto c) { return c > 0; });
    if (from != d.targets.end() && from + 1 != d.targets.end()) --*from, ++*(from + 1);
  }
  r.rebalanced = d.rebalance || force;
  if (r.rebalanced) {
    if (const auto plan = rb.plan(d)) plan->execute(data);
  }
  r.counts = rb.counts();
  return r;
}

struct Outcome {
  std::int64_t bad = 0, rebalances = 0, differ = 0, rotated = 0;
  std::vector<std::int64_t> points;  // iterations after which it rebalanced
  std::string log;                   // printed at the end: stdout stays empty on an error
};

Outcome simulate_run(const Args& a, int rank, int size, bool force_idle) {
  const std::int64_t n = a.items;
  const std::int64_t e = std::max<std::int64_t>(a.per_item, 1);
  std::int64_t count = n / size + (rank < n % size ? 1 : 0);
  std::int64_t start = 0;
  for (int r = 0; r < rank; ++r) start += n / size + (r < n % size ? 1 : 0);
  std::vector<std::int64_t> data(static_cast<std::size_t>(count * e));
  for (std::size_t j = 0; j < data.size(); ++j) data[j] = start + static_cast<std::int64_t>(j) / e;
  const bool mine = a.fault_rank == rank && a.fault_kind.rfind("policy-", 0) != 0;
  std::string policy = mine && a.fault_kind == "other-policy" ? "never" : a.policy;
  std::int64_t k = mine && a.fault_kind == "other-iterations" ? a.iterations + 1 : a.iterations;
  if (mine && a.fault_kind == "negative-count") count = -1;
  // Link costs in the unit of the reported times (wtime: 20 us per time unit).
  const double unit = (a.clocks == "wtime" ? kWtimeUnit : 1.0) * a.cost_scale;
  redist::mpi::LinkCosts costs{unit * 0.01 * (1 + rank % 3), unit * (0.02 + 0.005 * (rank % 2))};
  redist::mpi::Options options;
  options.segment_items = a.segment_items;
  redist::balance::RebalanceSettings settings;
  settings.estimate_speeds = !a.raw_speeds && !(mine && a.fault_kind == "other-settings");
  const auto owner = make_rebalancer(a, count, costs, policy, k, options, settings);
  redist::mpi::Rebalancer& rb = *owner;
  Noise noise(a, rank, size);
  Outcome o;
  const std::int64_t decisions = a.iterations + (a.fault_kind == "too-many" ? 1 : 0);
  for (std::int64_t t = 0; t < decisions; ++t) {
    report(rb, a, rank, size, t, noise);
    if (mine && t == 1 && a.fault_kind == "bad-size") data.push_back(0);
    redist::mpi::RebalanceReport r;
    if (a.split) {
      const bool other = a.fault_kind == "other-targets" && t == 1;
      r = split_step(rb, data, other || (force_idle && t + 1 == a.idle), other && mine);
    } else if (a.out_of_place) {
      std::vector<std::int64_t> out;
      r = rb.maybe_rebalance(data, out);
      if (r.moved) data.swap(out);
    } else if (a.per_item > 0) {
      r = rb.maybe_rebalance(data, static_cast<std::size_t>(a.per_item));
    } else {
      r = rb.maybe_rebalance(data);
    }
    const bool forced = force_idle && t + 1 == a.idle;  // not the policy's rebalance
    o.rebalances += r.rebalanced && !forced;
    if (r.rebalanced && !forced) o.points.push_back(r.after_iteration);
    o.rotated += rank == 0 && rb.global_start() != 0;
    // Measured times differ between runs, not between ranks (they are max-reduced).
    o.differ += differs_from_root(common_text(r));
    o.bad += bad_items(data, rb, a.per_item);
    if (std::accumulate(rb.counts().begin(), rb.counts().end(), std::int64_t{0}) != n) ++o.bad;
    if (rank == 0 && r.rebalanced) {
      o.log += fmt::format("after iteration {}: {} (saving {:.4g}, makespan {:.4g})\n",
                           r.after_iteration, r.reason, r.predicted_saving, r.plan_makespan);
    }
  }
  check(MPI_Allreduce(MPI_IN_PLACE, &o.bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  return o;
}

// The expectations of the command line; "" when met.
std::string unmet(const Args& a, const Outcome& o) {
  if (a.max_rebalances >= 0 && o.rebalances > a.max_rebalances)
    return fmt::format("{} rebalances, more than {}", o.rebalances, a.max_rebalances);
  if (a.min_rebalances >= 0 && o.rebalances < a.min_rebalances)
    return fmt::format("{} rebalances, fewer than {}", o.rebalances, a.min_rebalances);
  if (a.react_within > 0) {
    const bool reacted = std::any_of(o.points.begin(), o.points.end(), [&](std::int64_t k) {
      return k >= a.react_from && k < a.react_from + a.react_within;
    });
    if (!reacted)
      return fmt::format("no rebalance after iterations {}..{}", a.react_from,
                         a.react_from + a.react_within - 1);
  }
  return {};
}

int run(const Args& a, int rank, int size) {
  Outcome o = simulate_run(a, rank, size, a.idle > 0 && a.split);
  std::string problem = unmet(a, o);
  if (problem.empty() && a.idle > 0 && a.split) {
    const Outcome plain = simulate_run(a, rank, size, false);
    if (plain.points != o.points) problem = "forcing the idle decision changed the rebalances";
  }
  const bool verified = o.bad == 0 && o.differ == 0 && problem.empty();
  if (rank == 0) {
    std::string points;
    for (std::int64_t k : o.points) points += (points.empty() ? "" : ", ") + std::to_string(k);
    std::cout << o.log
              << fmt::format(
                     "{{\"policy\": \"{}\", \"ranks\": {}, \"items\": {}, \"iterations\": {}, "
                     "\"clocks\": \"{}\", \"noise\": {}, \"speeds\": \"{}\", \"rebalances\": "
                     "{}, \"after\": [{}], \"rotated\": {}, \"reports_differ\": {}, "
                     "\"bad_items\": {}, \"unmet\": \"{}\", \"verified\": {}}}",
                     a.policy, size, a.items, a.iterations, a.clocks, a.noise,
                     a.raw_speeds ? "measured" : "estimated", o.rebalances, points, o.rotated,
                     o.differ, o.bad, problem, verified)
              << std::endl;
  }
  return verified ? 0 : 1;
}

// RANK:ITER:FACTOR (--slowdown) or ITER:WITHIN (--react).
std::vector<std::string> fields(const std::string& spec) {
  std::vector<std::string> out;
  std::stringstream in(spec);
  for (std::string f; std::getline(in, f, ':');) out.push_back(f);
  return out;
}

void parse_specs(Args& a, const std::string& slowdown, const std::string& react) {
  if (!slowdown.empty()) {
    const auto f = fields(slowdown);
    if (f.size() != 3) throw redist::mpi::Error("--slowdown wants RANK:ITER:FACTOR");
    a.slow_rank = std::stoi(f[0]);
    a.slow_from = std::stoll(f[1]);
    a.slow_factor = std::stod(f[2]);
  }
  if (!react.empty()) {
    const auto f = fields(react);
    if (f.size() != 2) throw redist::mpi::Error("--react wants ITER:WITHIN");
    a.react_from = std::stoll(f[0]);
    a.react_within = std::stoll(f[1]);
  }
}

Args parse_args(int argc, char** argv) {
  Args a;
  std::string fault, slowdown, react;
  CLI::App app{"rebalancer-mpi-test: checks redist::mpi::Rebalancer under mpirun"};
  app.add_option("--policy", a.policy);
  app.add_option("--iterations", a.iterations)->check(CLI::Range(1, 1000));
  app.add_option("--items", a.items)->check(CLI::Range(0, 1000000));
  app.add_option("--clocks", a.clocks)->check(CLI::IsMember({"synthetic", "skewed", "wtime"}));
  app.add_flag("--split", a.split);
  app.add_flag("--out-of-place", a.out_of_place);
  app.add_option("--per-item", a.per_item)->check(CLI::Range(1, 1000000));
  app.add_option("--segment-items", a.segment_items)->check(CLI::Range(1, 1 << 30));
  app.add_flag("--constant", a.constant);
  app.add_option("--slowdown", slowdown, "RANK:ITER:FACTOR");
  app.add_option("--noise", a.noise)->check(CLI::Range(0.0, 0.9));
  app.add_option("--seed", a.seed);
  app.add_flag("--raw-speeds", a.raw_speeds);
  app.add_option("--max-rebalances", a.max_rebalances);
  app.add_option("--min-rebalances", a.min_rebalances);
  app.add_option("--react", react, "ITER:WITHIN");
  app.add_option("--idle", a.idle);
  app.add_option("--cost-scale", a.cost_scale)->check(redist::cli::positive());
  app.add_option("--speed-scale", a.speed_scale)->check(redist::cli::positive());
  app.add_option("--fault", fault, "KIND:RANK");
  app.parse(argc, argv);
  if (!fault.empty()) {
    const auto colon = fault.find(':');
    a.fault_kind = fault.substr(0, colon);
    a.fault_rank = colon == std::string::npos ? -1 : std::stoi(fault.substr(colon + 1));
  }
  parse_specs(a, slowdown, react);
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 3;
  int rank = 0, size = 1, code = 0;
  try {
    check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    code = run(parse_args(argc, argv), rank, size);
  } catch (const redist::mpi::Error& e) {
    const std::string line = "error: " + redist::one_line(e.what(), 600) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    code = 2;
  } catch (const std::exception& e) {
    std::cerr << "error: rank " << rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  if (MPI_Finalize() != MPI_SUCCESS && code == 0) code = 3;
  return code;
}
