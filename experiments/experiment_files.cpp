#include "experiments/experiment_files.hpp"

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

}  // namespace redist::experiments
