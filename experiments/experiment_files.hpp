// Writing an experiment's outputs (docs/README.md): every table as JSON and Markdown, every figure
// as SVG, into one output directory; the summary printed on standard output; progress on standard
// error. Shared by the experiments of every family.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace redist::experiments {

// A table: column names and rows of cells (numbers or strings).
struct Table {
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<nlohmann::ordered_json>> rows;
  std::vector<std::string> notes;  // printed under the Markdown table
};

// Collects the files an experiment writes and reports them.
class OutputDirectory {
 public:
  explicit OutputDirectory(std::string path);

  // Writes <stem>.json ({"title", "columns", "rows", "notes"}) and <stem>.md.
  void write_table(const std::string& stem, const Table& table);
  // Writes <name> (any text, e.g. an SVG figure).
  void write_text(const std::string& name, const std::string& text);

  const std::vector<std::string>& files() const { return files_; }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

// The summary every experiment returns (docs/README.md), keys in this order: "experiment" (its
// name), "seed" (null when it draws nothing at random), "instances" (random instances or
// scenarios per configuration, null when it has none), "files" (written, in order) and "results"
// (what it measured, with the paper's values where the paper prints them).
nlohmann::ordered_json experiment_summary(const std::string& name,
                                          std::optional<std::uint64_t> seed,
                                          std::optional<std::int64_t> instances,
                                          const OutputDirectory& out,
                                          nlohmann::ordered_json results);

// Progress of a long experiment on standard error, as "lau: 120000/700000 instances, 16 s":
// nothing during its first 2 seconds (short runs stay quiet), then at most one line a second, and
// a last line from finish() if any line was printed. Not thread-safe: callers serialise.
class Progress {
 public:
  Progress(std::string experiment, std::int64_t total, std::string unit);
  // Counts from 0 to `total` again, the lines now starting "experiment: label: ".
  void stage(std::string label, std::int64_t total);
  void advance(std::int64_t steps = 1);
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  void print();

  std::string experiment_, unit_, label_;
  std::int64_t total_, done_ = 0;
  Clock::time_point start_ = Clock::now(), next_line_;
  bool printed_ = false;
};

// `x` rounded to `digits` decimals, as a table prints it.
double rounded(double x, int digits);

// A table's rows as JSON objects keyed by its column names (for an experiment's "results").
nlohmann::ordered_json rows_as_objects(const Table& table);

// A table as GitHub Markdown (numbers printed as given in the JSON cells).
std::string markdown(const Table& table);

}  // namespace redist::experiments
