// Writing an experiment's outputs (docs/README.md): every table as JSON and Markdown, every figure
// as SVG, into one output directory. Shared by the experiments of every family.
#pragma once

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

// A table as GitHub Markdown (numbers printed as given in the JSON cells).
std::string markdown(const Table& table);

}  // namespace redist::experiments
