// The commands a family of the list gets from its faces alone (default_commands.hpp): for every
// family, `plan` on its bundled example prints what plan_json prints, with the options given on
// the command line as plan_json reads them, and `check` accepts that plan.
#include "apps/redist/default_commands.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "redist/api/entry_points.hpp"
#include "redist/testing/data_dir.hpp"
#include "redist/testing/family_types.hpp"

namespace redist::cli {
namespace {

struct Run {
  int code = -1;
  std::string out;
};

// Parses `redist ARGS...` with F's default commands alone and runs the chosen one, its standard
// output captured.
template <class F>
Run run_default(std::vector<std::string> args) {
  CLI::App app;
  Action action;
  add_default_family_commands<F>(app, action);
  args.insert(args.begin(), "redist");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  std::ostringstream captured;
  std::streambuf* const old = std::cout.rdbuf(captured.rdbuf());
  Run run;
  try {
    run.code = action();
  } catch (...) {
    std::cout.rdbuf(old);
    throw;
  }
  std::cout.rdbuf(old);
  run.out = captured.str();
  return run;
}

// The document without its wall time.
io::Json without_seconds(const std::string& text) {
  io::Json document = io::Json::parse(text);
  document.erase("seconds");
  return document;
}

// Whether F's plan entry point takes the option `name`.
template <class F>
bool offers(std::string_view name) {
  const auto& names = io::JsonFace<F>::option_names;
  return std::find(names.begin(), names.end(), name) != names.end();
}

template <class F>
class DefaultCommands : public ::testing::Test {};
TYPED_TEST_SUITE(DefaultCommands, testkit::FamilyTypes<Families>);

TYPED_TEST(DefaultCommands, PlanAndCheckTheExampleAsTheEntryPoints) {
  using F = TypeParam;
  const std::string example = (testkit::data_dir() / F::example).string();
  const std::string instance = testkit::file_text(example);
  const Run plan = run_default<F>({std::string(F::name), "plan", example});
  ASSERT_EQ(plan.code, 0) << F::name;
  EXPECT_EQ(without_seconds(plan.out), without_seconds(api::plan_json<F>(instance, "{}")))
      << F::name;

  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("redist-default-" + std::string(F::name) + ".json");
  std::ofstream(file) << plan.out;
  const Run check = run_default<F>({std::string(F::name), "check", example, file.string()});
  std::filesystem::remove(file);
  EXPECT_EQ(check.code, 0) << F::name << check.out;
  EXPECT_EQ(io::Json::parse(check.out)["valid"], true) << F::name;
}

TYPED_TEST(DefaultCommands, OptionsAreTheEntryPointsOptions) {
  using F = TypeParam;
  const std::string example = (testkit::data_dir() / F::example).string();
  const std::string instance = testkit::file_text(example);
  if (offers<F>("algorithm")) {
    // Every algorithm of the table: the document plan_json prints, or the error it throws.
    for (const AlgorithmName& algorithm : F::algorithms()) {
      const std::string name(algorithm.name);
      std::string expected;
      try {
        expected = without_seconds(api::plan_json<F>(instance, R"({"algorithm": ")" + name + "\"}"))
                       .dump();
      } catch (const InputError& e) {
        expected = std::string("error: ") + e.what();
      }
      std::string got;
      try {
        got = without_seconds(
                  run_default<F>({std::string(F::name), "plan", example, "--algorithm", name}).out)
                  .dump();
      } catch (const InputError& e) {
        got = std::string("error: ") + e.what();
      }
      EXPECT_EQ(got, expected) << F::name << " " << name;
    }
    const std::string last(F::algorithms().back().name);
    // A mistyped name is refused with the nearest one.
    const std::string typo = last.substr(0, last.size() - 1) + "x";
    try {
      run_default<F>({std::string(F::name), "plan", example, "--algorithm", typo});
      ADD_FAILURE() << F::name << " planned with " << typo;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("unknown algorithm"), std::string::npos) << e.what();
    }
  }
  if (offers<F>("time_limit")) {
    // A number on the command line is a number in the options document.
    const Run run = run_default<F>(
        {std::string(F::name), "plan", example, "--time-limit", "30", "--format", "text"});
    EXPECT_EQ(run.code, 0) << F::name;
    EXPECT_NE(run.out.find("makespan"), std::string::npos) << F::name << run.out;
    try {
      run_default<F>({std::string(F::name), "plan", example, "--time-limit", "soon"});
      ADD_FAILURE() << F::name << " took a time limit of 'soon'";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "must be a number (at --time-limit)");
    }
  }
}

TEST(DefaultCommands, OptionsDocument) {
  EXPECT_EQ(io::option_flag("time_limit"), "--time-limit");
  EXPECT_EQ(options_document({{"algorithm", "exact"}, {"time_limit", "2.5"}, {"q", "1e3"}}),
            R"({"algorithm":"exact","q":1000.0,"time_limit":2.5})");
  EXPECT_EQ(options_document({{"algorithm", "2x"}}), R"({"algorithm":"2x"})");
  EXPECT_EQ(options_document({}), "{}");
}

}  // namespace
}  // namespace redist::cli
