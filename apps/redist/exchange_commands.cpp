// `redist exchange plan|check|bound|block-cyclic|migration` (docs/exchange.md): thin adapters from
// JSON files to redist/exchange.hpp.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/redist/cli.hpp"
#include "experiments/exchange/kpbs_experiment.hpp"
#include "experiments/exchange/smpi_experiment.hpp"
#include "experiments/experiment_files.hpp"
#include "experiments/ring_sim/subprocess.hpp"
#include "redist/exchange.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/formats.hpp"
#include "redist/io/options.hpp"
#include "redist/svg/exchange_gantt.hpp"
#include "redist/text/exchange_summary.hpp"

namespace redist::cli {
namespace {

// `experiment exchange --instances N` runs 38 cells of N instances, about 2 ms each with its five
// planners on 2 busy cores: beyond this it runs for many minutes.
constexpr std::int64_t kMaxKpbsExperimentInstances = 5000;

struct ExchangeOptions {
  std::string instance = "-";
  std::string algorithm = "auto";
  std::string gantt;
  std::string format = "json";
  exchange::BlockCyclic layout;
  std::size_t nodes = 0;  // migration: 0 for 1 + the largest owner
  double time_limit = 0;  // seconds; 0: none
};

exchange::Instance read_instance(const std::string& text) {
  return io::located_in("$.exchange",
                        [&] { return io::read_exchange_instance(io::parse_document(text)); });
}

// `exchange bound`: the bounds of the instance, as a document or (--format text) a summary.
int run_bound(const ExchangeOptions& o) {
  const exchange::Instance in =
      read_instance_as("exchange", "bound", read_input(o.instance, "instance"), read_instance);
  const exchange::Bounds bounds =
      io::located_in("$.exchange", [&] { return exchange::bounds(in); });
  print_result(o.format == "text" ? text::exchange_bound_summary(bounds, "redist exchange bound")
                                  : io::exchange_bound_json(bounds));
  return 0;
}

// The layout's fields are the command's options: `from_block` is --from-block.
int run_block_cyclic(const ExchangeOptions& o) {
  try {
    print_result(io::exchange_instance_json(exchange::block_cyclic(o.layout)));
  } catch (const OptionError&) {
    throw;
  } catch (const InputError& e) {
    std::string option = e.path();
    std::replace(option.begin(), option.end(), '_', '-');
    throw OptionError(e.message(), option);
  }
  return 0;
}

// The maps' errors at their place in the document ($.old[2][1]), --nodes at the option.
// Ownership maps, or an error saying what the document is when it is another kind of document
// (an exchange instance, a plan, another family's instance).
exchange::Ownership read_ownership_maps(const io::Json& document) {
  try {
    return io::read_ownership(document);
  } catch (const InputError&) {
    const io::DocumentKind kind = io::classify_document(document, "exchange");
    if (kind.role == io::DocumentRole::unknown || kind.role == io::DocumentRole::ownership) throw;
    const std::string what =
        kind.family + " " +
        (kind.role == io::DocumentRole::instance ? std::string("instance")
                                                 : io::output_noun(kind.family));
    throw InputError(
        fmt::format("this is {} {}, not ownership maps: `exchange migration` reads "
                    "{{\"old\": owners, \"new\": owners}}{}",
                    kind.family == "exchange" ? "an" : "a", what,
                    kind.family == "exchange" && kind.role == io::DocumentRole::instance
                        ? "; `redist exchange plan` plans this instance"
                        : ""),
        "$");
  }
}

int run_migration(const ExchangeOptions& o) {
  const exchange::Instance in = io::located_in("$", [&] {
    exchange::Ownership ownership =
        read_ownership_maps(io::parse_document(read_input(o.instance, "ownership maps")));
    ownership.nodes = o.nodes;
    try {
      return exchange::from_ownership(ownership);
    } catch (const OptionError&) {
      throw;
    } catch (const InputError& e) {
      if (e.path() == "nodes") throw OptionError(e.message(), "nodes");
      throw;
    }
  });
  print_result(io::exchange_instance_json(in));
  return 0;
}

void add_plan(CLI::App* family, Action& action, const std::shared_ptr<ExchangeOptions>& o) {
  CLI::App* plan = family->add_subcommand("plan", "Plan the messages' pieces; prints the plan");
  plan->add_option("instance", o->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", o->algorithm, choices(exchange::Family::algorithms()))
      ->capture_default_str();
  plan->add_option("--gantt", o->gantt, "Write the plan's Gantt chart to this SVG file");
  add_time_limit_option(plan, o->time_limit);
  add_format_option(plan, o->format);
  add_example(plan,
              R"({"exchange": {"nodes": 3, "messages": [[0, 1, 1000], [1, 2, 500], [2, 0, 250]],)"
              "\n                "
              R"("send_bandwidth": 1e9, "recv_bandwidth": [1e9, 5e8, 1e9]}})",
              "redist exchange plan --format text data/exchange/skewed-8.json");
  plan->callback([&action, o] {
    action = [o] {
      return suggesting(
          "--algorithm", o->algorithm, io::names_of(exchange::Family::algorithms()), [&] {
            return run_plan(
                family_plan_command<exchange::Family>({o->algorithm, time_limit_of(o->time_limit)}),
                o->instance, o->gantt, o->format);
          });
    };
  });
}

void add_block_cyclic(CLI::App* family, Action& action, const std::shared_ptr<ExchangeOptions>& o) {
  CLI::App* bc = family->add_subcommand(
      "block-cyclic",
      "Print the instance of moving an array from CYCLIC(r) on P to CYCLIC(s) on Q");
  exchange::BlockCyclic& l = o->layout;
  bc->add_option("--elements", l.elements, "N: elements of the array")->required();
  bc->add_option("--element-bytes", l.element_bytes, "B: bytes of one element")
      ->capture_default_str();
  bc->add_option("--from-block", l.from_block, "r: block size before")->required();
  bc->add_option("--from-procs", l.from_procs, "P: processors before")->required();
  bc->add_option("--to-block", l.to_block, "s: block size after")->required();
  bc->add_option("--to-procs", l.to_procs, "Q: processors after")->required();
  bc->footer(
      fmt::format("\nElement e is on processor floor(e / r) mod P before and floor(e / s) "
                  "mod Q after; P and Q at most {}.\nExample:\n  redist exchange "
                  "block-cyclic --elements 1000 --element-bytes 8 --from-block 4 "
                  "--from-procs 3 --to-block 5 --to-procs 4",
                  exchange::kMaxBlockCyclicProcs));
  bc->callback([&action, o] { action = [o] { return run_block_cyclic(*o); }; });
}

void add_migration(CLI::App* family, Action& action, const std::shared_ptr<ExchangeOptions>& o) {
  CLI::App* m = family->add_subcommand(
      "migration", "Print the instance of moving items from their old owners to their new ones");
  m->add_option("ownership", o->instance, "Ownership JSON file ('-' or none: stdin)");
  m->add_option("--nodes", o->nodes, "Nodes of the instance (default: 1 + the largest owner)");
  m->footer(fmt::format(
      "\nThe document gives each item's owner before and after, item by item or as ranges "
      "[begin, end, owner] of items [begin, end):\n  {{\"old\": [0, 0, 1, 1], \"new\": [[0, 1, 0], "
      "[1, 4, 2]], \"item_bytes\": 8}}\nAt most {} owners item by item and {} ranges per map."
      "\nExample:\n  redist exchange migration data/exchange/ownership/ranges-4.json",
      exchange::kMaxMigrationOwners, exchange::kMaxMigrationRanges));
  m->callback([&action, o] { action = [o] { return run_migration(*o); }; });
}

experiments::ExchangeSmpiOptions smpi_options(std::uint64_t seed) {
  experiments::ExchangeSmpiOptions options;
  options.seed = seed;
  return options;
}

}  // namespace

void register_exchange_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<ExchangeOptions>();
  CLI::App* family = app.add_subcommand(
      "exchange", "Any redistribution as messages between nodes, under the one-port model");
  family->require_subcommand(1);
  add_plan(family, action, options);
  add_family_check_command<exchange::Family>(
      family, action,
      {"Validate a plan against an instance", "Instance JSON file ('-': stdin)",
       "Plan JSON file ('-': stdin)",
       "Write the plan's Gantt chart (an invalid plan's with the violation in red)"});
  CLI::App* bound = family->add_subcommand("bound", "Lower bounds on the exchange time");
  bound->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  add_format_option(bound, options->format);
  bound->callback([&action, options] { action = [options] { return run_bound(*options); }; });
  add_block_cyclic(family, action, options);
  add_migration(family, action, options);

  experiments["exchange"] = [](const ExperimentOptions& o) {
    if (o.instances > kMaxKpbsExperimentInstances) {
      throw InputError(fmt::format("at most {} instances per cell (38 cells; that many already "
                                   "take minutes); run several seeds instead",
                                   kMaxKpbsExperimentInstances),
                       "--instances");
    }
    experiments::KpbsExperimentOptions options;
    options.out_dir = o.out_dir;
    options.seed = o.seed;
    if (o.instances > 0) options.instances = o.instances;
    nlohmann::ordered_json summary = experiments::run_kpbs_experiment(options);
    experiments::OutputDirectory out(o.out_dir);
    try {
      summary["results"]["smpi"] = experiments::run_exchange_smpi(smpi_options(o.seed), out);
    } catch (const experiments::StepFailed& e) {
      // Say what finished before the failed step, and where its files are.
      std::vector<std::string> names;
      for (const auto& file : summary["files"]) names.push_back(file.get<std::string>());
      for (const std::string& file : out.files()) names.push_back(file);
      for (std::string& name : names) {
        name = std::filesystem::path(name).lexically_relative(o.out_dir).generic_string();
      }
      throw experiments::StepFailed(
          fmt::format("experiment exchange: {}; finished before it: the KPBS comparison{}, {} "
                      "files in {} ({})",
                      e.what(),
                      out.files().empty() ? ""
                                          : " and the SMPI run with "
                                            "acknowledgement traffic",
                      names.size(), o.out_dir, fmt::join(names, " ")),
          e.program());
    }
    for (const std::string& file : out.files()) summary["files"].push_back(file);
    return io::OrderedJson(summary);
  };
  experiments["exchange"].description =
      "KPBS (Cohen et al.): ggp, oggp, steps, whole, preemptive on random bipartite graphs; "
      "plans against MPI_Alltoallv and the caterpillar under SMPI (docs/exchange.md)";
}

REDIST_REGISTER_FAMILY_COMMANDS(exchange, register_exchange_commands);

}  // namespace redist::cli
