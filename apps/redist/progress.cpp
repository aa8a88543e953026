#include "apps/redist/progress.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string_view>

#include <fmt/format.h>

namespace redist::cli {

namespace {

// How the line is shown (REDIST_PROGRESS): in place on a terminal, one line per report elsewhere
// ("always"), or not at all.
enum class ProgressMode { off, in_place, lines };

ProgressMode progress_mode() {
  const char* setting = std::getenv("REDIST_PROGRESS");
  const std::string_view value = setting != nullptr ? setting : "auto";
  if (value == "never") return ProgressMode::off;
  if (isatty(STDERR_FILENO) != 0) return ProgressMode::in_place;
  return value == "always" ? ProgressMode::lines : ProgressMode::off;
}

std::unique_ptr<ProgressLine>& running_progress() {
  static std::unique_ptr<ProgressLine> line;
  return line;
}

// What start_progress was given, for restart_progress.
struct ProgressCommand {
  std::string command;
  bool has_time_limit = false;
  bool started = false;
};
ProgressCommand& progress_command() {
  static ProgressCommand command;
  return command;
}

}  // namespace

ProgressLine::ProgressLine(std::string command, bool has_time_limit,
                           std::chrono::milliseconds first, std::chrono::milliseconds every)
    : command_(std::move(command)),
      has_time_limit_(has_time_limit),
      in_place_(progress_mode() == ProgressMode::in_place),
      started_(std::chrono::steady_clock::now()) {
  if (progress_mode() == ProgressMode::off) return;
  if (!in_place_) every = std::max(every, std::chrono::milliseconds(10'000));
  thread_ = std::thread([this, first, every] { report_until_stopped(first, every); });
}

ProgressLine::~ProgressLine() { stop(); }

void ProgressLine::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (shown_ && in_place_) std::cerr << "\r\033[K" << std::flush;  // erase the line
}

bool ProgressLine::shown() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return shown_;
}

void ProgressLine::report_until_stopped(std::chrono::milliseconds first,
                                        std::chrono::milliseconds every) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto wait = first;
  while (!wake_.wait_for(lock, wait, [this] { return stopped_; })) {
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::steady_clock::now() - started_)
                             .count();
    const std::string line = fmt::format(
        "{}: still working, {} s so far (Ctrl-C stops it{})", command_, seconds,
        has_time_limit_ ? "; --time-limit SECONDS returns the best plan found by then" : "");
    std::cerr << (in_place_ ? "\r" + line + "\033[K" : line + "\n") << std::flush;
    shown_ = true;
    wait = every;
  }
}

void start_progress(std::string command, bool has_time_limit) {
  progress_command() = {command, has_time_limit, true};
  running_progress() = std::make_unique<ProgressLine>(std::move(command), has_time_limit);
}

void restart_progress() {
  const ProgressCommand& last = progress_command();
  if (!last.started) return;
  stop_progress();
  running_progress() = std::make_unique<ProgressLine>(last.command, last.has_time_limit);
}

void stop_progress() {
  if (running_progress()) running_progress()->stop();
}

}  // namespace redist::cli
