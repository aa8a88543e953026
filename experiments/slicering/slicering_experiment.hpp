// `redist experiment slicering` (docs/README.md): SLICE Tables 5-6 and Figure 3.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

// Writes the tables (JSON, Markdown) and the figures (SVG) into `out_dir`; returns the common
// summary (experiment_files.hpp; no seed, no random instances) whose "results" hold per platform
// ("lyon", "strasbourg") the full-ring comparison with PIP and "figure3" (the rows of its table).
// `quick` shortens the W/H sweep of Figure 3 (used by the tests). Progress on standard error.
nlohmann::ordered_json run_slicering_experiment(const std::string& out_dir, bool quick);

}  // namespace redist::experiments
