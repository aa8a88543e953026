#include "experiments/dropin/smpi_dropin_experiment.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "experiments/ring_sim/subprocess.hpp"
#include "redist/common/error.hpp"

namespace redist::experiments {

namespace fs = std::filesystem;

nlohmann::ordered_json run_dropin_smpi(const DropinSmpiOptions& o) {
  const std::string script =
      o.script.empty() ? executable_directory() + "/smpi_dropin.py" : o.script;
  if (!fs::exists(script)) {
    throw InputError(
        fmt::format("{} not found (a build with SimGrid SMPI puts it beside redist)", script),
        "dropin");
  }
  std::vector<std::string> argv = {script,   fs::path(script).parent_path().string(),
                                   "--out",  o.out_dir,
                                   "--seed", std::to_string(o.seed)};
  if (o.quick) argv.push_back("--quick");
  // The sweep takes minutes: its progress lines go straight to standard error.
  const ProgramResult r = run_program(argv, /*stderr_passes_through=*/true);
  if (r.exit_code != 0) {
    // Its standard error went to ours as it ran: its own error is the line above this one.
    throw StepFailed(fmt::format("experiment dropin: the sweep failed: smpi_dropin.py exited "
                                 "with code {} (its error is above)",
                                 r.exit_code),
                     "smpi_dropin.py");
  }
  const fs::path json_path = fs::path(o.out_dir) / "dropin_smpi.json";
  std::ifstream in(json_path);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
  nlohmann::ordered_json summary;
  summary["experiment"] = "dropin";
  summary["seed"] = o.seed;
  summary["instances"] = nullptr;
  summary["files"] = nlohmann::ordered_json::array();
  for (const char* name : {"dropin_smpi.json", "dropin_smpi.md", "dropin_smpi.svg"})
    summary["files"].push_back((fs::path(o.out_dir) / name).string());
  summary["results"] = {
      {"summary", doc["summary"]}, {"failures", doc["failures"]}, {"runs", doc["runs"]}};
  return summary;
}

}  // namespace redist::experiments
