#include <fstream>
#include <iostream>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"

namespace redist::cli {

void print_json(const io::OrderedJson& document) { std::cout << io::output_text(document); }

void require_distinct_inputs(const std::string& first, const std::string& second,
                             const char* what) {
  if (first == "-" && second == "-") {
    throw InputError(std::string(what) + " cannot both be read from standard input",
                     "command line");
  }
}

int print_check_result(bool valid, double makespan, const std::string& reason) {
  io::OrderedJson out;
  out["valid"] = valid;
  if (valid) {
    out["makespan"] = makespan;
  } else {
    out["reason"] = reason;
  }
  print_json(out);
  return valid ? 0 : 1;
}

int print_verdict(const CheckResult& verdict) {
  std::cout << io::check_result_text(verdict);
  return verdict.valid ? 0 : 1;
}

int print_check_text(const std::string& verdict) {
  std::cout << verdict;
  return verdict.find("\"valid\": true") != std::string::npos ? 0 : 1;
}

std::function<std::string(const std::string&, const std::string&)> plan_with(
    PlanEntry entry, io::OrderedJson options) {
  return [entry, options](const std::string& instance, const std::string& format) {
    io::OrderedJson with_format = options;
    with_format["format"] = format;
    return entry(instance, with_format.dump());
  };
}

int run_plan_command(const PlanCheckCommand& command, const std::string& instance_file,
                     const std::string& gantt_file, const std::string& format) {
  const std::string instance = io::read_text(instance_file);
  if (gantt_file.empty()) {
    std::cout << command.plan(instance, format);
    return 0;
  }
  command.chart(instance, "", "");  // its limits, before planning
  const std::string schedule = command.plan(instance, "json");
  write_text_file(gantt_file,
                  command.chart(instance, schedule, "redist " + command.family + " plan"),
                  "--gantt");
  std::cout << (format == "json" ? schedule : command.plan(instance, format));
  return 0;
}

std::string choices(std::initializer_list<std::pair<const char*, const char*>> names) {
  std::string text = "one of:";
  for (const auto& [name, description] : names) {
    text += std::string("\n      ") + name + ": " + description;
  }
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

int run_check_command(const PlanCheckCommand& command, const std::string& instance_file,
                      const std::string& schedule_file, const std::string& gantt_file) {
  require_distinct_inputs(instance_file, schedule_file, "instance and schedule");
  const std::string instance = io::read_text(instance_file);
  const std::string schedule = io::read_text(schedule_file);
  if (!gantt_file.empty()) command.chart(instance, schedule, "");  // its limits, before checking
  const std::string verdict = command.check(instance, schedule);
  if (!gantt_file.empty() && verdict.find("\"valid\": true") != std::string::npos) {
    write_text_file(gantt_file,
                    command.chart(instance, schedule, "redist " + command.family + " check"),
                    "--gantt");
  }
  return print_check_text(verdict);
}

void write_text_file(const std::string& file, const std::string& text, const std::string& option) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError("cannot write file '" + file + "'", option);
  out << text;
  out.close();
  if (!out) throw InputError("cannot write file '" + file + "'", option);
}

}  // namespace redist::cli
