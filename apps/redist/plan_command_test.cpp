// The typed plan and check commands of the command line (cli.hpp): one read and one plan whatever
// --format and --gantt ask, every output rendered from that one result, and the exit code of
// `check` taken from the typed verdict.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "apps/redist/cli.hpp"
#include "apps/redist/progress.hpp"

namespace redist::cli {
namespace {

struct Calls {
  int read = 0, plan = 0, check = 0, text = 0, json = 0, chart = 0, limits = 0;
};

// A family whose instance is a number and whose plan is its double.
PlanCommand<int, int> counting_plan_command(Calls& calls) {
  PlanCommand<int, int> command;
  command.family = "test";
  command.read = [&calls](const std::string& text) {
    ++calls.read;
    return std::stoi(text);
  };
  command.plan = [&calls](const int& instance) {
    ++calls.plan;
    return 2 * instance;
  };
  command.json = [&calls](const int& result) {
    ++calls.json;
    return "{\"result\": " + std::to_string(result) + "}\n";
  };
  command.check = [&calls](const int&, const int& result) {
    ++calls.check;
    return CheckResult{true, static_cast<double>(result), ""};
  };
  command.text = [&calls](const int&, const int& result, const CheckResult& verdict) {
    ++calls.text;
    return "result " + std::to_string(result) + (verdict.valid ? " valid\n" : " invalid\n");
  };
  command.chart_limits = [&calls](const int&) { ++calls.limits; };
  command.chart = [&calls](const int&, const int& result, const std::string& title) {
    ++calls.chart;
    return "<svg>" + title + " " + std::to_string(result) + "</svg>";
  };
  return command;
}

// `output` without the seconds it states (print_result): the number after `prefix` up to the end
// of its line becomes "S".
std::string without_seconds(std::string output, const std::string& prefix) {
  const std::size_t at = output.find(prefix);
  if (at == std::string::npos) return output;
  const std::size_t start = at + prefix.size();
  const std::size_t end = output.find('\n', start);
  const std::string value = output.substr(start, end - start);
  EXPECT_GE(std::stod(value), 0.0) << value;
  return output.replace(start, end - start, "S");
}

// Named after the running test and this process: ctest runs the tests of this file in parallel
// processes, which must not share a file.
std::string temporary_file(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path =
      ::testing::TempDir() + name + "_" + test->name() + "_" + std::to_string(::getpid());
  std::ofstream(path) << text;
  return path;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PlanCommand, TextAndGanttReadAndPlanOnce) {
  Calls calls;
  const std::string instance = temporary_file("plan_command_instance", "21");
  const std::string gantt = ::testing::TempDir() + "plan_command.svg";
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run_plan(counting_plan_command(calls), instance, gantt, "text"), 0);
  EXPECT_EQ(without_seconds(::testing::internal::GetCapturedStdout(), "seconds     "),
            "result 42 valid\nseconds     S\n");
  EXPECT_EQ(file_text(gantt), "<svg>redist test plan 42</svg>");
  EXPECT_EQ(calls.read, 1);
  EXPECT_EQ(calls.plan, 1);
  EXPECT_EQ(calls.limits, 1);
  EXPECT_EQ(calls.chart, 1);
  EXPECT_EQ(calls.check, 1);
  EXPECT_EQ(calls.text, 1);
  EXPECT_EQ(calls.json, 0);
  std::remove(gantt.c_str());
}

TEST(PlanCommand, JsonWithoutPictureNeitherChecksNorDraws) {
  Calls calls;
  const std::string instance = temporary_file("plan_command_instance", "5");
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run_plan(counting_plan_command(calls), instance, "", "json"), 0);
  EXPECT_EQ(without_seconds(::testing::internal::GetCapturedStdout(), "\"seconds\": "),
            "{\"result\": 10,\n  \"seconds\": S\n}\n");
  EXPECT_EQ(calls.plan, 1);
  EXPECT_EQ(calls.json, 1);
  EXPECT_EQ(calls.check + calls.text + calls.chart + calls.limits, 0);
}

// A picture over its limits is not drawn, known before planning; the plan is made and printed.
TEST(PlanCommand, PictureOverItsLimitsIsSkippedAndThePlanPrinted) {
  Calls calls;
  PlanCommand<int, int> command = counting_plan_command(calls);
  command.chart_limits = [](const int&) { throw OptionError("too many processors", "gantt"); };
  const std::string instance = temporary_file("plan_command_instance", "5");
  EXPECT_EQ(run_plan(command, instance, "unused.svg", "json"), 0);
  EXPECT_EQ(calls.plan, 1);
  EXPECT_EQ(calls.chart, 0);
  // Any other error of the limits stops the command.
  command.chart_limits = [](const int&) { throw InputError("unreadable", "$.x"); };
  EXPECT_THROW(run_plan(command, instance, "unused.svg", "json"), InputError);
}

CheckCommand<int, int> check_command(bool valid, int& charts) {
  CheckCommand<int, int> command;
  command.family = "test";
  command.read = [](const std::string& text) { return std::stoi(text); };
  command.read_schedule = [](const std::string& text) { return std::stoi(text); };
  command.check = [valid](const int&, const int& schedule) {
    return valid ? CheckResult{true, static_cast<double>(schedule), ""}
                 : CheckResult{false, 0.0, "a reason that says \"valid\": true"};
  };
  command.chart_limits = [](const int&, const int&) {};
  command.chart = [&charts](const int&, const int&, const std::string&) {
    ++charts;
    return std::string("<svg/>");
  };
  return command;
}

TEST(CheckCommand, ExitCodeComesFromTheTypedVerdict) {
  const std::string instance = temporary_file("check_command_instance", "3");
  const std::string schedule = temporary_file("check_command_schedule", "6");
  const std::string gantt = ::testing::TempDir() + "check_command.svg";
  int charts = 0;
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run_check(check_command(true, charts), instance, schedule, gantt), 0);
  EXPECT_NE(::testing::internal::GetCapturedStdout().find("\"makespan\": 6"), std::string::npos);
  EXPECT_EQ(charts, 1);
  // An invalid verdict whose reason quotes `"valid": true` still fails, and draws nothing.
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run_check(check_command(false, charts), instance, schedule, gantt), 1);
  EXPECT_NE(::testing::internal::GetCapturedStdout().find("\"valid\": false"), std::string::npos);
  EXPECT_EQ(charts, 1);
  std::remove(gantt.c_str());
}

// The progress line: nowhere but on a terminal unless REDIST_PROGRESS=always (then one line,
// since standard error is not a terminal here), never with REDIST_PROGRESS=never.
TEST(Progress, WrittenOnlyWhereAsked) {
  ::setenv("REDIST_PROGRESS", "always", 1);
  ::testing::internal::CaptureStderr();
  {
    ProgressLine line("redist test plan", true, std::chrono::milliseconds(0));
    for (int k = 0; k < 10'000 && !line.shown(); ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    line.stop();
    EXPECT_TRUE(line.shown());
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "redist test plan: still working, 0 s so far (Ctrl-C stops it; --time-limit SECONDS "
            "returns the best plan found by then)\n");
  for (const char* setting : {"never", "auto"}) {
    ::setenv("REDIST_PROGRESS", setting, 1);
    ::testing::internal::CaptureStderr();
    ProgressLine line("redist test plan", false, std::chrono::milliseconds(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    line.stop();
    EXPECT_FALSE(line.shown()) << setting;
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << setting;
  }
  ::unsetenv("REDIST_PROGRESS");
}

}  // namespace
}  // namespace redist::cli
