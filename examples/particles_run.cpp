// The particles example: the application's loop (observe, propose, decide, migrate) and its
// summary.
#include <algorithm>
#include <bit>
#include <iostream>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "examples/particles.hpp"
#include "redist/balance/decider.hpp"
#include "redist/balance/policy.hpp"
#include "redist/common/error.hpp"

namespace particles_example {
namespace {

// ---- The application ---------------------------------------------------------------------------

struct Run {
  Run(const Args& a, int rank, int ranks)
      : args(a), system(particle_spec(a)), trace(speed_trace(a, ranks)), app(a, rank, ranks, work) {
    app.owned = initial_particles(app, system, false);
  }

  const Args& args;
  std::vector<double> work;
  rx::ParticleSystem system;
  rb::Trace trace;
  App app;
  Checks checks;
  // The summary.
  std::vector<std::int64_t> rebalanced_after;
  std::int64_t moved = 0, migrations = 0, initial_moved = 0;
  double iterations_time = 0.0, migrations_time = 0.0, initial_cost = 0.0, measured = 0.0;
  double never_time = 0.0;  // every iteration under the initial partition
  std::vector<std::int32_t> initial_owner;
  bool decisions_agree = true;
  std::string log;
};

// Moves the particles as `p` says (redist or Zoltan_Migrate), measures it (the slowest rank's
// wall-clock seconds), and checks every particle.
double migrate(Run& run, rz::Adapter& adapter, const rz::Proposal& p,
               const redist::exchange::Plan& plan, const std::string& when) {
  const std::vector<std::int32_t> owner = owners_after(run.app, p, run.system.size());
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (run.args.migrate == "zoltan") {
    adapter.migrate_with_zoltan(p);
  } else {
    adapter.migrate(p, plan);
  }
  double seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  Checks& c = run.checks;
  c.require(std::int64_t(run.app.owned.size()) == p.objects_after[std::size_t(run.app.rank)],
            fmt::format("{}: rank {} holds {} particles, the proposal says {}", when, run.app.rank,
                        run.app.owned.size(), p.objects_after[std::size_t(run.app.rank)]));
  check_particles(run.app, run.system, when, &owner, c);
  ++run.migrations;
  return seconds;
}

void initial_partition(Run& run, rz::Adapter& adapter, Zoltan_Struct* zz) {
  run.work = run.system.work();
  set_part_sizes(zz, {}, run.app.ranks);
  const rz::Proposal p = adapter.propose(proposal_options(run.args));
  const redist::exchange::Plan plan = redist::exchange::plan(p.instance);
  run.checks.require(same_everywhere({std::uint64_t(p.moved_objects),
                                      std::bit_cast<std::uint64_t>(plan.makespan)}),
                     "the initial proposal differs between ranks");
  migrate(run, adapter, p, plan, "initial partition");
  run.initial_moved = p.moved_objects;
  run.initial_cost = plan.makespan;
  run.initial_owner = owners_after(run.app, rz::Proposal{}, run.system.size());
}

// Iteration t's time had the particles stayed on the initial partition.
double time_without_rebalancing(const Run& run, std::int64_t t) {
  std::vector<double> load(std::size_t(run.app.ranks), 0.0);
  for (std::size_t id = 0; id < run.work.size(); ++id)
    load[std::size_t(run.initial_owner[id])] += run.work[id];
  double time = 0.0;
  for (std::size_t r = 0; r < load.size(); ++r)
    time = std::max(time, load[r] / run.trace.speeds[std::size_t(t - 1)][r]);
  return time;
}

// The --verbose line of a rebalance, every time in seconds: what the policy weighed when it
// weighs a cost (its predicted saving against the migration cost it saw: the planned makespan,
// times the calibration factor once measured migrations calibrate it), else its own sentence
// (imbalance ratios, iteration counts); then the migration, planned and measured.
std::string rebalance_line(std::int64_t t, const rb::Verdict& v, std::int64_t moved, double planned,
                           double measured) {
  std::string why = v.reason;
  if (v.planned) {
    why = fmt::format("predicted saving {:.6g} s against a migration cost of {:.6g} s",
                      v.predicted_saving, v.migration_cost * v.cost_factor);
    if (v.cost_factor != 1.0)
      why += fmt::format(" (the planned makespan x calibration {:.4g})", v.cost_factor);
  }
  return fmt::format(
      "after iteration {}: {}; {} particles moved, migration planned {:.6g} s, measured {:.6g} s\n",
      t, why, moved, planned, measured);
}

// After iteration t < K: observe, propose, decide, maybe migrate.
void decide_after(Run& run, std::int64_t t, rz::Adapter& adapter, Zoltan_Struct* zz,
                  rb::RebalanceDecider& decider, const rb::Observation& observation) {
  const std::vector<double> speeds = decider.observe(observation);
  set_part_sizes(zz, speeds, run.app.ranks);
  const rz::Proposal p = adapter.propose(proposal_options(run.args));
  std::optional<redist::exchange::Plan> plan;
  const auto plan_cost = [&] {
    if (!plan) plan = redist::exchange::plan(p.instance);
    return plan->makespan;
  };
  rb::Proposal proposal;
  // Zoltan sums float weights: with nothing to move, the loads stay the observed ones exactly.
  proposal.loads = p.moved_objects > 0 ? p.load_after : observation.loads;
  proposal.migration_cost = plan_cost;
  const rb::Verdict v = decider.decide(proposal);
  run.decisions_agree =
      run.decisions_agree &&
      same_everywhere({std::uint64_t(v.rebalance), std::bit_cast<std::uint64_t>(v.migration_cost),
                       std::bit_cast<std::uint64_t>(v.balanced_time)});
  if (!v.rebalance) return;
  const double cost = plan_cost();
  double seconds = 0.0;
  if (p.moved_objects > 0) {
    seconds = migrate(run, adapter, p, *plan, fmt::format("after iteration {}", t));
    if (!run.args.no_calibrate) decider.migrated(cost, seconds);
  }
  decider.rebalanced(v);
  run.rebalanced_after.push_back(t);
  run.moved += p.moved_objects;
  run.migrations_time += cost;
  run.measured += seconds;
  if (run.args.verbose) run.log += rebalance_line(t, v, p.moved_objects, cost, seconds);
}

void iterate(Run& run, rz::Adapter& adapter, Zoltan_Struct* zz, rb::RebalanceDecider& decider) {
  const std::size_t r = std::size_t(run.app.rank);
  for (std::int64_t t = 1; t <= run.args.iterations; ++t) {
    run.work = run.system.work();  // the particles as they are during iteration t
    double load = 0.0;
    for (const Particle& p : run.app.owned) load += run.work[std::size_t(p.id)];
    const double speed = run.trace.speeds[std::size_t(t - 1)][r];
    rb::Observation observation;
    observation.loads = allgather(load, run.app.ranks);
    observation.seconds = allgather(load / speed, run.app.ranks);  // emulated compute time
    run.iterations_time +=
        *std::max_element(observation.seconds.begin(), observation.seconds.end());
    run.never_time += time_without_rebalancing(run, t);
    if (t < run.args.iterations) {
      decide_after(run, t, adapter, zz, decider, observation);
      run.system.advance();
      for (Particle& p : run.app.owned) {
        p.x = run.system.x()[std::size_t(p.id)];
        p.y = run.system.y()[std::size_t(p.id)];
      }
    }
  }
}

std::string joined(const std::vector<std::int64_t>& values) {
  std::string out;
  for (std::int64_t v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

void print_summary(const Run& run, bool verified, int ranks) {
  const Args& a = run.args;
  std::cout << run.log;
  std::cout << fmt::format(
      "particles: {} particles of {} bytes on {} ranks, {}, migration by {}\n"
      "speeds: {} drift (seed {}); policy {} ({}); platform {} bytes/s per rank, latency {:g} s\n"
      "initial partition: {} particles moved (planned {:.6g} s, not counted below)\n"
      "iterations: {}\n",
      a.particles, a.particle_bytes, ranks, partitioner_name(a),
      a.migrate == "zoltan" ? "Zoltan_Migrate" : "redist", a.drift, a.seed,
      redist::one_line(a.policy, 80),
      a.no_calibrate ? "migration costs from the model" : "costs calibrated by measured migrations",
      redist::one_line(a.bandwidth, 80), a.latency, run.initial_moved, run.initial_cost,
      a.iterations);
  if (run.rebalanced_after.empty()) {
    std::cout << "rebalances: 0\n";
  } else {
    std::cout << fmt::format("rebalances: {}, after iterations {}\n", run.rebalanced_after.size(),
                             joined(run.rebalanced_after));
  }
  std::cout << fmt::format(
      "particles moved: {}\n"
      "model total time: {:.6g} s = {:.6g} s of iterations + {:.6g} s of planned migrations\n"
      "never rebalancing: {:.6g} s\n"
      "verified: {}\n",
      run.moved, run.iterations_time + run.migrations_time, run.iterations_time,
      run.migrations_time, run.never_time, verified ? "yes" : "no");
}

}  // namespace

int run_application(const Args& args, int rank, int ranks) {
  Run run(args, rank, ranks);
  Handle handle(run.app, args);
  rz::Adapter adapter(MPI_COMM_WORLD, handle.zz);
  rb::RebalanceDecider decider(std::size_t(ranks), rb::make_policy(args.policy, args.iterations),
                               args.iterations);
  initial_partition(run, adapter, handle.zz);
  iterate(run, adapter, handle.zz, decider);
  check_particles(run.app, run.system, "at the end", nullptr, run.checks);
  run.checks.require(run.decisions_agree, "the ranks did not all decide the same");
  for (const std::string& f : run.checks.failures) std::cerr << "FAIL: " << f << "\n";
  const bool verified = run.checks.all_held();
  if (rank == 0) print_summary(run, verified, ranks);
  return verified ? 0 : 1;
}

}  // namespace particles_example
