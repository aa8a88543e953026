#include "experiments/exchange/smpi_experiment.hpp"

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::experiments {
namespace {

namespace fs = std::filesystem;

std::string script() { return std::string(REDIST_BUILD_DIR) + "/smpi_exchange.py"; }

ExchangeSmpiOptions quick() {
  ExchangeSmpiOptions o;
  o.seed = 2;
  o.quick = true;
  o.script = script();
  return o;
}

ExchangeSmpiOptions missing() {
  ExchangeSmpiOptions o;
  o.script = "/nonexistent/smpi_exchange.py";
  return o;
}

TEST(ExchangeSmpiExperiment, QuickRunWritesBothSettingsWithinFivePercentOfTheModel) {
  if (!fs::exists(script())) GTEST_SKIP() << "built without SimGrid";
  const fs::path dir =
      fs::temp_directory_path() / ("redist-smpi-experiment-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  OutputDirectory out(dir.string());
  const nlohmann::ordered_json r = run_exchange_smpi(quick(), out);
  EXPECT_EQ(out.files().size(), 6u);  // two tables (JSON, Markdown) and two figures
  for (const char* key : {"tcp", "no_crosstraffic"}) {
    ASSERT_EQ(r[key]["rows"].size(), 1u) << key;
    const auto& row = r[key]["rows"][0];
    EXPECT_EQ(row["platform"], "heterogeneous");
    EXPECT_NEAR(row["redist_over_model"].get<double>(), 1.0, 0.05) << key;
    // Never more than 2% slower than MPI_Alltoallv (without acknowledgements, SimGrid's one-port
    // links serve MPI_Alltoallv's flows greedily, which can reach the bound too).
    EXPECT_GT(row["alltoallv_over_redist"].get<double>(), 0.98) << key;
  }
  EXPECT_GT(r["tcp"]["rows"][0]["alltoallv_over_redist"].get<double>(), 1.05);
  // SimGrid's acknowledgements take 5% of a link that carries data both ways.
  EXPECT_NEAR(r["tcp"]["bandwidth_share"].get<double>(), 1 / 1.05, 0.002);
  EXPECT_NEAR(r["no_crosstraffic"]["bandwidth_share"].get<double>(), 1.0, 0.002);
  for (const std::string& f : out.files()) EXPECT_TRUE(fs::exists(f)) << f;
  fs::remove_all(dir);
}

TEST(ExchangeSmpiExperiment, AMissingScriptIsAnInputError) {
  OutputDirectory out((fs::temp_directory_path() / "redist-smpi-experiment-missing").string());
  EXPECT_THROW(run_exchange_smpi(missing(), out), InputError);
}

}  // namespace
}  // namespace redist::experiments
