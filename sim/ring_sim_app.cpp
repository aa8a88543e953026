// redist-ring-sim: one scenario of RRV04 §8 simulated in SimGrid (docs/ring-sim.md).
//
//   redist-ring-sim [--processors 8] [--seed 2] [--tiers "..."] [--mode tiers|model]
//                   [--axis paper|reference] [--ratios 1 2 ... 10] [--amplitude 8]
//                   [--schemes never at:50 ... oracle]
//                   [--iterations 100] [--columns 1000] [--rows 1000] [--format json|text]
//
// Builds the scenario (sim/ring_sim.hpp), loads its platform into SimGrid (mode `tiers`: the
// Tiers-like platform, sim/platform_xml.hpp; mode `model`: every ring link a link of its own with
// the model's cost, ring_model_xml), and then, in one simulation:
//  - on the paper's axis (`--axis paper`), measures the average cost of a redistribution: every
//    redistribution of RRV04's four redistributing schemes that moves a column
//    (paper_redistributions), simulated alone on the network, averaged; a ratio R then gives the
//    work per column for which a balanced iteration at the first speeds takes that average / R.
//    On the reference axis, a ratio rho gives the work for which it takes rho T_ref;
//  - for every ratio and scheme runs the application, one run after the other:
//  - iteration t: every ring host computes its columns (counts_i x f flops) at its speed of
//    iteration t (a power state of its host), all in parallel; the iteration ends with the last;
//  - after iteration t: every host's speed, measured as it computed (compute() below), goes to a
//    balance::RebalanceController (the deciding half of the MPI Rebalancer) with the scheme's
//    policy, and every redistribution's simulated duration too (its cost calibration); `oracle` is
//    the hindsight optimum (balance::hindsight_optimum) over the simulated durations of the
//    redistributions (each distinct one simulated once, alone on the network, as every
//    redistribution of a run is), replayed as `at:` its points: no run of the same targets rule is
//    shorter;
//  - a rebalance is planned by the ring planner (`auto`) on the model's costs and executed on the
//    simulated network by a ScheduleReplay (sim/schedule_replay.hpp): one item per message in
//    mode `model`, messages of kLatencyShare-sized chunks on the Tiers routes, where every message
//    pays the route's latency (at most kLatencyShare of a message's time: a chunk is the smallest
//    count of columns whose transfer at the route's bottleneck bandwidth takes latency /
//    kLatencyShare).
// SimGrid settings: network model CM02 without cross traffic, so that a lone transfer takes
// latency + size / bandwidth, as the ring model (latency 0) assumes.
// Prints the report of sim/ring_sim_report.hpp: one JSON document (the scenario, with the average
// cost of a redistribution on the paper's axis, and, per run, the balanced iteration time at the
// first speeds, the simulated total, compute and redistribution times, the model simulator's total
// for the same policy, and every rebalance with its planned makespan and its simulated duration),
// on one line, or indented when standard output is a terminal; or, with `--format text`, a
// readable summary of the same report. Exit codes as the other tools (docs/formats.md): 2 with one
// `error: ... (at <option>)` line for bad options.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>
#include <xbt/log.h>
#include <CLI/CLI.hpp>
#include <simgrid/s4u.hpp>

#include "redist/balance/controller.hpp"
#include "redist/balance/oracle.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/common/error.hpp"
#include "redist/ring/planner.hpp"
#include "sim/platform_options.hpp"
#include "sim/platform_xml.hpp"
#include "sim/ring_sim.hpp"
#include "sim/ring_sim_report.hpp"
#include "sim/schedule_replay.hpp"
#include "sim/tool_main.hpp"

namespace sg4 = simgrid::s4u;
using namespace redist;
using namespace redist::sim;

namespace {

constexpr double kLatencyShare = 0.1;

struct Setup {
  Scenario scenario;
  std::string mode;
  std::string axis;                   // paper or reference
  double average_redistribution = 0;  // A_red (paper's axis), seconds
  std::size_t redistributions_averaged = 0;
  std::vector<sg4::Host*> hosts;
  std::vector<std::int64_t> chunk_next, chunk_prev;
  // Simulated durations of the redistributions simulated so far, by (counts, targets).
  std::map<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>, double> simulated;
};

// Every scheme is a policy name or `oracle` (InputError at --schemes otherwise).
void check_schemes(const std::vector<std::string>& schemes, std::int64_t iterations) {
  if (schemes.empty()) throw InputError("no scheme given", "--schemes");
  for (const std::string& scheme : schemes) {
    if (scheme == "oracle") continue;
    try {
      balance::make_policy(scheme, iterations);
    } catch (const InputError& e) {
      throw InputError(e.message(), "--schemes");
    }
  }
}

// Messages of c columns on each ring link (the header's rule); 1 in the model's mode.
void set_chunks(Setup& s) {
  for (const RingLinks& l : s.scenario.links) {
    for (auto [cost, chunks] :
         {std::pair{l.next, &s.chunk_next}, std::pair{l.prev, &s.chunk_prev}}) {
      const double per_column = s.scenario.column_bytes / cost.bandwidth;
      const double wanted = cost.latency / kLatencyShare / per_column;
      chunks->push_back(
          s.mode == "model" ? 1 : std::max<std::int64_t>(1, std::llround(std::ceil(wanted))));
    }
  }
}

// One iteration's computation: returns every host's speed in columns per second, as measured. The
// simulated time of a host is its work over its speed up to the rounding of the simulated clock
// (a few 1e-12 s late in a long run), and work / time would carry that rounding too; the time is
// checked against the model's, and the speed is reported as the model's value (the trace's,
// columns_per_second), so that the balanced targets break ties as in the model whatever the work
// per column, and the runs pass through the distributions the oracle considers. A host without
// columns reports its speed too (the model knows every speed).
std::vector<double> compute(const Setup& s, const std::vector<std::int64_t>& counts,
                            const std::vector<double>& speeds, double flops) {
  std::vector<sg4::ExecPtr> execs(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    s.hosts[i]->set_pstate(pstate_of(speeds[i]));
    if (counts[i] == 0) continue;
    execs[i] = sg4::this_actor::exec_init(static_cast<double>(counts[i]) * flops);
    execs[i]->set_host(s.hosts[i]);
    execs[i]->start();
  }
  std::vector<double> rates(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    rates[i] = columns_per_second(speeds[i], flops);  // as model_trace
    if (!execs[i]) continue;
    execs[i]->wait();
    const double simulated = execs[i]->get_finish_time() - execs[i]->get_start_time();
    const double model = static_cast<double>(counts[i]) / rates[i];
    if (std::abs(simulated - model) > 1e-9 * std::max(1.0, model))
      throw std::logic_error(fmt::format("host {} computed for {} s instead of {} s",
                                         s.hosts[i]->get_name(), simulated, model));
  }
  return rates;
}

// Executes the planned redistribution counts -> targets on the simulated network; returns its
// planned makespan and its simulated duration.
std::pair<double, double> redistribute(const Setup& s, const std::vector<std::int64_t>& counts,
                                       const std::vector<std::int64_t>& targets) {
  const ring::Instance in = balance::redistribution_instance(s.scenario.costs, counts, targets);
  const ring::Schedule plan = ring::plan(in);
  ScheduleReplay replay(in, plan, s.chunk_next, s.chunk_prev);
  const double begin = sg4::Engine::get_clock();
  std::vector<sg4::CommPtr> comms;
  std::vector<std::size_t> ids;
  const auto start = [&] {
    for (std::size_t id : replay.take_startable()) {
      const ScheduleReplay::Item& m = replay.item(id);
      const auto bytes =
          static_cast<std::uint64_t>(static_cast<double>(m.count) * s.scenario.column_bytes);
      comms.push_back(sg4::Comm::sendto_async(s.hosts[m.from], s.hosts[m.to], bytes));
      ids.push_back(id);
    }
  };
  start();
  while (!comms.empty()) {
    const auto k = static_cast<std::size_t>(sg4::Comm::wait_any(comms));
    replay.finish(ids[k]);
    comms.erase(comms.begin() + static_cast<std::ptrdiff_t>(k));
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(k));
    start();
  }
  if (!replay.done()) throw std::logic_error("the redistribution stalled");
  return {plan.makespan, sg4::Engine::get_clock() - begin};
}

// The simulated duration of a redistribution alone on the network (simulated once per pair).
double simulated_cost(Setup& s, const std::vector<std::int64_t>& from,
                      const std::vector<std::int64_t>& to) {
  if (from == to) return 0.0;
  const auto key = std::make_pair(from, to);
  if (const auto it = s.simulated.find(key); it != s.simulated.end()) return it->second;
  const double seconds = redistribute(s, from, to).second;
  s.simulated.emplace(key, seconds);
  return seconds;
}

// For `oracle`: the hindsight optimum's points over the simulated durations, as an `at:` list
// (or `never`), and the model's total for them.
void resolve_oracle(Setup& s, SimulatedRun& run) {
  const balance::Trace trace = model_trace(s.scenario, run.flops_per_column);
  const balance::SimulationResult best = balance::hindsight_optimum(
      trace, [&](const auto& from, const auto& to) { return simulated_cost(s, from, to); });
  std::string spec;
  for (const balance::Rebalance& r : best.rebalances)
    spec += (spec.empty() ? "at:" : ",") + std::to_string(r.after_iteration);
  run.policy = spec.empty() ? "never" : spec;
  run.model_total = balance::simulate(trace, run.policy).total_time;
}

// The paper's axis: A_red, the mean simulated duration of the paper's schemes' redistributions
// (each distinct one simulated once, alone on the network). A scenario whose speeds never change
// the balanced targets has none; T_ref stands in for it (redistributions_averaged = 0).
void calibrate(Setup& s) {
  const auto redistributions = paper_redistributions(s.scenario);
  double sum = 0;
  for (const auto& [from, to] : redistributions) sum += simulated_cost(s, from, to);
  s.redistributions_averaged = redistributions.size();
  s.average_redistribution = redistributions.empty()
                                 ? s.scenario.reference_redistribution
                                 : sum / static_cast<double>(redistributions.size());
}

// Every (ratio, scheme) run, with its work per column and, but for `oracle`, its model total.
// Ratios are checked (> 0, finite) by main.
std::vector<SimulatedRun> make_runs(const Setup& s, const std::vector<double>& ratios,
                                    const std::vector<std::string>& schemes) {
  std::vector<SimulatedRun> runs;
  for (double ratio : ratios) {
    const double f = s.axis == "paper"
                         ? flops_for_iteration(s.scenario, s.average_redistribution / ratio)
                         : flops_per_column(s.scenario, ratio);
    const balance::Trace trace = model_trace(s.scenario, f);
    for (const std::string& scheme : schemes) {
      SimulatedRun run{ratio, scheme, scheme, f, balanced_iteration_time(s.scenario, f)};
      if (scheme != "oracle") run.model_total = balance::simulate(trace, scheme).total_time;
      runs.push_back(run);
    }
  }
  return runs;
}

void simulate_run(Setup& s, SimulatedRun& run) {
  if (run.scheme == "oracle") resolve_oracle(s, run);
  const Scenario& sc = s.scenario;
  const std::int64_t k = sc.spec.iterations;
  balance::RebalanceController controller(sc.costs, balance::make_policy(run.policy, k), k);
  std::vector<std::int64_t> counts = sc.initial;
  const double begin = sg4::Engine::get_clock();
  for (std::int64_t t = 0; t < k; ++t) {
    const double iteration = sg4::Engine::get_clock();
    const std::vector<double> speeds =
        compute(s, counts, sc.speeds[static_cast<std::size_t>(t)], run.flops_per_column);
    run.compute += sg4::Engine::get_clock() - iteration;
    // Each host's measurement: its speed, as work per unit of time.
    const std::vector<double> seconds(speeds.size(), 1.0);
    const balance::RebalanceDecision d = controller.decide(counts, speeds, seconds);
    if (!d.rebalance) continue;
    const auto [planned, simulated] = redistribute(s, counts, d.targets);
    controller.redistributed(planned, simulated);
    run.redistribution += simulated;
    run.rebalances.push_back({d.after_iteration, planned, simulated});
    controller.rebalanced(d);
    counts = d.targets;
  }
  run.total = sg4::Engine::get_clock() - begin;
}

// The report of the runs, as the JSON document and the text summary render it.
RingSimReport make_report(const Setup& s, std::vector<SimulatedRun> runs) {
  const Scenario& sc = s.scenario;
  RingSimReport r;
  r.seed = sc.spec.seed();
  r.processors = sc.ring.size();
  r.mode = s.mode;
  r.axis = s.axis;
  r.amplitude = sc.spec.amplitude;
  r.iterations = sc.spec.iterations;
  r.columns = sc.spec.columns;
  r.column_bytes = sc.column_bytes;
  r.reference_redistribution = sc.reference_redistribution;
  r.average_redistribution = s.average_redistribution;
  r.redistributions_averaged = s.redistributions_averaged;
  for (const sg4::Host* h : s.hosts) r.ring.push_back(h->get_name());
  r.chunk_next = s.chunk_next;
  r.chunk_prev = s.chunk_prev;
  r.runs = std::move(runs);
  return r;
}

// Writes the platform to a file of its own and loads it.
void load_platform(sg4::Engine& engine, const std::string& xml, std::uint64_t seed) {
  const auto file =
      std::filesystem::temp_directory_path() /
      ("redist-ring-sim-" + std::to_string(::getpid()) + "-" + std::to_string(seed) + ".xml");
  {
    std::ofstream out(file);
    out << xml;
    if (!out) throw InputError("cannot write the platform file " + file.string(), "--mode");
  }
  engine.load_platform(file.string());
  std::filesystem::remove(file);
}

// Loads the mode's platform and finds the ring's hosts in it.
void load_ring(sg4::Engine& engine, Setup& setup) {
  const Scenario& sc = setup.scenario;
  const bool model = setup.mode == "model";
  load_platform(engine, model ? ring_model_xml(sc) : platform_xml(sc.graph), sc.spec.seed());
  for (std::size_t i = 0; i < sc.ring.size(); ++i) {
    const std::string name = model
                                 ? "ring-" + std::to_string(i)
                                 : node_name(sc.graph.nodes[static_cast<std::size_t>(sc.ring[i])]);
    setup.hosts.push_back(engine.host_by_name(name));
  }
}

// The command line.
struct Options {
  PlatformOptions platform;
  RingSimSpec spec;
  std::string mode = "tiers";
  std::string axis = "paper";
  std::string format = "json";
  std::vector<double> ratios = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<std::string> schemes = {"never",   "at:50",        "at:20,40,60,80", "every:10",
                                      "every:5", "cost-benefit", "replay",         "oracle"};
};

void add_options(CLI::App& app, Options& o) {
  o.platform.add_to(app);
  app.add_option("--processors", o.spec.processors, "ring size p")->capture_default_str();
  app.add_option("--iterations", o.spec.iterations, "iterations K")->capture_default_str();
  app.add_option("--columns", o.spec.columns, "columns N")->capture_default_str();
  app.add_option("--rows", o.spec.rows, "doubles per column")->capture_default_str();
  app.add_option("--mode", o.mode, "tiers: the Tiers routes; model: one link per ring link")
      ->capture_default_str();
  app.add_option("--axis", o.axis,
                 "paper: ratio = average redistribution / iteration; reference: ratio = "
                 "iteration / T_ref (docs/ring-sim.md)")
      ->capture_default_str();
  app.add_option("--ratios", o.ratios, "computation-to-communication ratios (each > 0)")
      ->capture_default_str();
  app.add_option("--amplitude", o.spec.amplitude,
                 "a new speed is within this factor of the old one (>= 28/22; 8: any machine)")
      ->capture_default_str();
  app.add_option("--schemes", o.schemes,
                 "policies (names of redist balance simulate --policy, oracle included)")
      ->capture_default_str();
  app.add_option("--format", o.format,
                 "json: the document of docs/ring-sim.md (indented on a terminal) | text: a "
                 "readable summary")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "text"}));
}

// The scenario of the options, once they are checked (InputError naming the option otherwise).
Setup checked_setup(const Options& o) {
  if (o.mode != "tiers" && o.mode != "model")
    throw InputError("'" + one_line(o.mode, 40) + "' is not tiers or model", "--mode");
  if (o.axis != "paper" && o.axis != "reference")
    throw InputError("'" + one_line(o.axis, 40) + "' is not paper or reference", "--axis");
  RingSimSpec spec = o.spec;
  spec.platform = o.platform.params();
  Setup setup;
  setup.scenario = make_scenario(spec);
  setup.mode = o.mode;
  setup.axis = o.axis;
  if (o.axis == "paper" && spec.iterations <= kPaperSchemesLastPoint)
    paper_redistributions(setup.scenario);  // refuses it
  check_schemes(o.schemes, spec.iterations);
  for (double ratio : o.ratios)
    if (!(std::isfinite(ratio) && ratio > 0))
      throw InputError(fmt::format("a ratio must be a finite number > 0, got {}", ratio),
                       "--ratios");
  set_chunks(setup);
  return setup;
}

// Every run, in one simulation on the setup's platform.
std::vector<SimulatedRun> simulate_all(sg4::Engine& engine, Setup& setup, const Options& o) {
  load_ring(engine, setup);
  std::vector<SimulatedRun> runs;
  std::exception_ptr failure;
  sg4::Actor::create("application", setup.hosts[0], [&] {
    try {
      if (setup.axis == "paper") calibrate(setup);
      runs = make_runs(setup, o.ratios, o.schemes);
      for (SimulatedRun& run : runs) simulate_run(setup, run);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  engine.run();
  if (failure) std::rethrow_exception(failure);
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  xbt_log_control_set("root.thres:warning");
  sg4::Engine engine(&argc, argv);
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  CLI::App app{"redist-ring-sim: RRV04 §8's iterative application in SimGrid (docs/ring-sim.md)"};
  Options options;
  add_options(app, options);
  if (const int code = parse_command_line(app, argc, argv); code >= 0) return code;
  return run_tool("redist-ring-sim", [&] {
    Setup setup = checked_setup(options);
    const RingSimReport report = make_report(setup, simulate_all(engine, setup, options));
    std::cout << (options.format == "text" ? ring_sim_text(report)
                                           : ring_sim_json(report, ::isatty(STDOUT_FILENO) == 1));
  });
}
