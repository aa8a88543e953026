// Progress on standard error, so that a command that runs for long does not look like a hang
// (docs/formats.md, "Progress"): once a command has run for 2 s, a line
//   redist ring plan: still working, 5 s so far (Ctrl-C stops it; --time-limit SECONDS ...)
// rewritten in place every second and erased before the result is printed. Only when standard
// error is a terminal: logs, pipes and tests see nothing, and standard output is never touched.
// REDIST_PROGRESS=never turns it off; REDIST_PROGRESS=always also writes it where standard error
// is not a terminal, as one line every 10 s.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace redist::cli {

class ProgressLine {
 public:
  // Reports about `command` ("redist ring plan") after `first`, then every `every`, until stopped;
  // `has_time_limit` mentions --time-limit in the line.
  ProgressLine(std::string command, bool has_time_limit,
               std::chrono::milliseconds first = std::chrono::milliseconds(2000),
               std::chrono::milliseconds every = std::chrono::milliseconds(1000));
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Stops reporting and erases the line if one was shown. Idempotent.
  void stop();
  // Whether a line was written.
  bool shown();

 private:
  void report_until_stopped(std::chrono::milliseconds first, std::chrono::milliseconds every);

  std::string command_;
  bool has_time_limit_;
  bool in_place_;
  std::chrono::steady_clock::time_point started_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  bool shown_ = false;
  std::thread thread_;
};

// The progress line of the command about to run (main), and its end: print_result stops it
// before writing the result, and main once the command has returned. While a command waits for
// the user to type its input on a terminal (read_input), the line is stopped, then restarted
// with a fresh clock once the input is read (restart_progress): waiting for the user is not work.
void start_progress(std::string command, bool has_time_limit);
void stop_progress();
void restart_progress();

}  // namespace redist::cli
