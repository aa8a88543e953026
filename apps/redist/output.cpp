#include <chrono>
#include <fstream>
#include <iostream>

#include "apps/redist/cli.hpp"
#include "apps/redist/progress.hpp"
#include "apps/strict_numbers.hpp"
#include "redist/api/seconds.hpp"
#include "redist/common/error.hpp"

namespace redist::cli {

namespace {
// When the program started: the `seconds` of its result count from here.
const std::chrono::steady_clock::time_point kStarted = std::chrono::steady_clock::now();
}  // namespace

std::map<std::string, FamilyCommands, std::less<>>& family_commands() {
  static std::map<std::string, FamilyCommands, std::less<>> registered;
  return registered;
}

bool register_family_commands(std::string_view family, FamilyCommands commands) {
  return family_commands().emplace(family, commands).second;
}

void print_result(const std::string& output) {
  stop_progress();
  write_with_seconds(std::cout, output, seconds_since(kStarted));
}

void print_json(const io::OrderedJson& document) { print_result(io::output_text(document)); }

void require_distinct_inputs(const std::string& first, const std::string& second,
                             const char* what) {
  if (first == "-" && second == "-") {
    throw InputError(std::string(what) + " cannot both be read from standard input",
                     "command line");
  }
}

int print_verdict(const CheckResult& verdict) {
  print_result(io::check_result_text(verdict));
  return verdict.valid ? 0 : 1;
}

std::string choices(std::initializer_list<std::pair<const char*, const char*>> names) {
  std::string text = "one of:";
  for (const auto& [name, description] : names) {
    text += std::string("\n      ") + name + ": " + description;
  }
  return text;
}

std::string choices(const std::vector<AlgorithmName>& table) {
  std::string text = "one of:";
  for (const AlgorithmName& entry : table)
    text += "\n      " + entry.name + ": " + entry.description;
  return text;
}

void add_example(CLI::App* command, const char* instance, const char* command_line) {
  command->footer(std::string("\nAn instance (docs/formats.md):\n  ") + instance +
                  "\nExample:\n  " + command_line);
}

void add_format_option(CLI::App* command, std::string& format) {
  command
      ->add_option("--format", format,
                   "json: the document of docs/formats.md | text: a readable summary")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "text"}));
}

void add_time_limit_option(CLI::App* command, double& seconds) {
  command
      ->add_option("--time-limit", seconds,
                   "Stop the search after SECONDS (a number > 0): the best plan found, its lower "
                   "bound and a note; optimal only when proven")
      ->type_name("SECONDS")
      ->check(positive());
}

void write_text_file(const std::string& file, const std::string& text, const std::string& option) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError("cannot write file '" + file + "'", option);
  out << text;
  out.close();
  if (!out) throw InputError("cannot write file '" + file + "'", option);
}

}  // namespace redist::cli
