// Redraws an experiment's figure from the tables it saved, without running it again:
//   redraw_figures particles particles_regimes.json particles_policies.svg
//   redraw_figures smpi smpi_exchange.json smpi_exchange_no_crosstraffic.json OUT_DIR
// (the particle experiment records its runs under mpirun first, minutes per seed set; the SMPI
// one needs SimGrid, and a rerun measures the plans of today's code, not those of the tables).
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "experiments/exchange/smpi_experiment.hpp"
#include "experiments/particles/particles_experiment.hpp"

namespace {

nlohmann::ordered_json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return nlohmann::ordered_json::parse(
      std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage =
      "usage: redraw_figures particles PARTICLES_REGIMES_JSON OUT_SVG\n"
      "       redraw_figures smpi SMPI_EXCHANGE_JSON SMPI_EXCHANGE_NO_CROSSTRAFFIC_JSON OUT_DIR\n";
  const std::string what = argc > 1 ? argv[1] : "";
  if (!((what == "particles" && argc == 4) || (what == "smpi" && argc == 5))) {
    std::cerr << usage;
    return 2;
  }
  try {
    if (what == "particles") {
      std::ofstream(argv[3]) << redist::experiments::particles_policies_figure(read_json(argv[2]));
    } else {
      const auto [speedup, model] =
          redist::experiments::smpi_exchange_figures(read_json(argv[2]), read_json(argv[3]));
      std::ofstream(std::string(argv[4]) + "/smpi_exchange_speedup.svg") << speedup;
      std::ofstream(std::string(argv[4]) + "/smpi_exchange_model.svg") << model;
    }
  } catch (const std::exception& e) {
    std::cerr << "redraw_figures: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
