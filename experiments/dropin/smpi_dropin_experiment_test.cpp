#include "experiments/dropin/smpi_dropin_experiment.hpp"

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::experiments {
namespace {

namespace fs = std::filesystem;

std::string script() { return std::string(REDIST_BUILD_DIR) + "/smpi_dropin.py"; }

TEST(DropinSmpiExperiment, QuickRunVerifiesEveryRunAndWritesItsFiles) {
  if (!fs::exists(script())) GTEST_SKIP() << "built without SimGrid SMPI";
  const fs::path dir =
      fs::temp_directory_path() / ("redist-dropin-experiment-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  DropinSmpiOptions o;
  o.out_dir = dir.string();
  o.quick = true;
  o.script = script();
  const nlohmann::ordered_json r = run_dropin_smpi(o);
  EXPECT_EQ(r["experiment"], "dropin");
  ASSERT_EQ(r["files"].size(), 3u);  // the table (JSON, Markdown) and the figure
  for (const auto& f : r["files"]) EXPECT_TRUE(fs::exists(f.get<std::string>())) << f;
  EXPECT_TRUE(r["results"]["failures"].empty());
  // 3 algorithms on 3 platforms (and redist's run per platform when it is built in).
  EXPECT_GE(r["results"]["runs"].size(), 9u);
  fs::remove_all(dir);
}

TEST(DropinSmpiExperiment, AMissingScriptIsAnInputError) {
  DropinSmpiOptions o;
  o.out_dir = (fs::temp_directory_path() / "redist-dropin-experiment-missing").string();
  o.script = "/nonexistent/smpi_dropin.py";
  EXPECT_THROW(run_dropin_smpi(o), InputError);
}

}  // namespace
}  // namespace redist::experiments
