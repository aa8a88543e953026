// The generator's options, shared by redist-platform and redist-platform-check so that both
// programs build the same graph from the same command line (docs/ring-sim.md).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "redist/common/error.hpp"
#include "sim/tiers.hpp"

namespace redist::sim {

struct PlatformOptions {
  std::string tiers = format_tiers(TiersParams{});
  std::string seed = std::to_string(TiersParams{}.seed);
  double host_probability = TiersParams{}.host_probability;

  void add_to(CLI::App& app) {
    app.add_option("--tiers", tiers,
                   "Tiers' 11 parameters NW NM NL SW SM SL RW RM RL RMW RLM, in one argument")
        ->capture_default_str();
    app.add_option("--seed", seed, "seed of the placement, hosts and link values (0..2^64-1)")
        ->capture_default_str();
    app.add_option("--host-probability", host_probability, "probability that a LAN node is a host")
        ->capture_default_str();
  }

  // InputError at the option concerned.
  TiersParams params() const {
    TiersParams p = parse_tiers(tiers);
    const auto [end, error] = std::from_chars(seed.data(), seed.data() + seed.size(), p.seed);
    if (seed.empty() || error != std::errc() || end != seed.data() + seed.size())
      throw InputError("'" + one_line(seed, 64) + "' is not an integer in 0..2^64-1", "--seed");
    p.host_probability = host_probability;
    validate(p);
    return p;
  }
};

}  // namespace redist::sim
