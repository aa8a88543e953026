#include "experiments/experiment_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "redist/common/error.hpp"

namespace redist::experiments {

OutputDirectory::OutputDirectory(std::string path) : path_(std::move(path)) {
  std::error_code error;
  std::filesystem::create_directories(path_, error);
  if (error) throw InputError("cannot create directory '" + path_ + "'", "--out");
}

void OutputDirectory::write_text(const std::string& name, const std::string& text) {
  const std::string file = (std::filesystem::path(path_) / name).string();
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw InputError("cannot write file '" + file + "'", "--out");
  files_.push_back(file);
}

void OutputDirectory::write_table(const std::string& stem, const Table& table) {
  nlohmann::ordered_json json;
  json["title"] = table.title;
  json["columns"] = table.columns;
  json["rows"] = table.rows;
  json["notes"] = table.notes;
  write_text(stem + ".json", json.dump(1) + "\n");
  write_text(stem + ".md", markdown(table));
}

nlohmann::ordered_json experiment_summary(const std::string& name,
                                          std::optional<std::uint64_t> seed,
                                          std::optional<std::int64_t> instances,
                                          const OutputDirectory& out,
                                          nlohmann::ordered_json results) {
  nlohmann::ordered_json summary;
  summary["experiment"] = name;
  summary["seed"] = seed ? nlohmann::ordered_json(*seed) : nlohmann::ordered_json();
  summary["instances"] = instances ? nlohmann::ordered_json(*instances) : nlohmann::ordered_json();
  summary["files"] = out.files();
  summary["results"] = std::move(results);
  return summary;
}

nlohmann::ordered_json rows_as_objects(const Table& table) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : table.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < std::min(row.size(), table.columns.size()); ++c)
      object[table.columns[c]] = row[c];
    rows.push_back(std::move(object));
  }
  return rows;
}

Progress::Progress(std::string experiment, std::int64_t total, std::string unit)
    : experiment_(std::move(experiment)),
      unit_(std::move(unit)),
      total_(total),
      next_line_(start_ + std::chrono::seconds(2)) {}

void Progress::stage(std::string label, std::int64_t total) {
  label_ = std::move(label);
  total_ = total;
  done_ = 0;
}

void Progress::advance(std::int64_t steps) {
  done_ += steps;
  const Clock::time_point now = Clock::now();
  if (now < next_line_) return;
  print();
  next_line_ = now + std::chrono::seconds(1);
}

void Progress::finish() {
  if (printed_) print();
}

void Progress::print() {
  printed_ = true;
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  const std::string prefix = label_.empty() ? experiment_ : experiment_ + ": " + label_;
  std::fprintf(stderr, "%s: %lld/%lld %s, %.0f s\n", prefix.c_str(), static_cast<long long>(done_),
               static_cast<long long>(total_), unit_.c_str(), seconds);
  std::fflush(stderr);
}

std::string markdown(const Table& table) {
  std::string out = "## ";
  out += table.title;
  out += "\n\n|";
  for (const std::string& c : table.columns) {
    out += ' ';
    out += c;
    out += " |";
  }
  out += "\n|";
  for (std::size_t i = 0; i < table.columns.size(); ++i) out += " --- |";
  out += '\n';
  for (const auto& row : table.rows) {
    out += '|';
    for (const auto& cell : row) {
      out += ' ';
      out += cell.is_string() ? cell.get<std::string>() : cell.dump();
      out += " |";
    }
    out += '\n';
  }
  if (!table.notes.empty()) out += '\n';
  for (const std::string& note : table.notes) {
    out += note;
    out += '\n';
  }
  return out;
}

double rounded(double x, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(x * scale) / scale;
}

}  // namespace redist::experiments
