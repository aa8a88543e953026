// The commands of a family of the list (redist/api/families.hpp) that registers none of its own
// (REDIST_REGISTER_FAMILY_COMMANDS): `redist FAMILY plan` and `redist FAMILY check`, from its
// faces alone. A family's own commands file adds its help, its choices and its other commands;
// without one, the family still has its place on the command line (main.cpp).
//
//   redist FAMILY plan [INSTANCE] [--OPTION VALUE ...] [--gantt FILE] [--format json|text]
//   redist FAMILY check INSTANCE RESULT [--gantt FILE] [--format json|text]
//
// The plan options are the JSON entry point's (JsonFace::option_names), with dashes for
// underscores (`time_limit` is --time-limit): the values given are gathered into the options
// document of plan_json, a value that reads as a JSON number as that number and any other as a
// string, and the face reads them as plan_json does. Its errors name the option as plan_json's
// do (`at --time-limit`).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "apps/redist/cli.hpp"
#include "redist/api/families.hpp"
#include "redist/io/json.hpp"
#include "redist/io/located.hpp"
#include "redist/io/options.hpp"
#include "redist/io/suggest.hpp"

namespace redist::cli {

// The options document of plan_json from the values given on the command line: a value that is
// a JSON number is that number, any other a string ({"algorithm": "exact", "time_limit": 2}).
inline std::string options_document(const std::map<std::string, std::string>& given) {
  io::Json document = io::Json::object();
  for (const auto& [name, value] : given) {
    const io::Json number = io::Json::parse(value, nullptr, false);
    document[name] = !number.is_discarded() && number.is_number() ? number : io::Json(value);
  }
  return document.dump();
}

template <FamilyWithFaces F>
void add_default_family_commands(CLI::App& app, Action& action) {
  struct Given {
    std::string instance = "-", gantt, format = "json";
    std::map<std::string, std::string> options;
  };
  auto given = std::make_shared<Given>();
  CLI::App* family = app.add_subcommand(std::string(F::name), std::string(F::title));
  family->require_subcommand(1);
  CLI::App* plan = family->add_subcommand("plan", "Plan; prints the result");
  plan->add_option("instance", given->instance, "Instance JSON file ('-' or none: stdin)");
  for (const std::string_view name : io::JsonFace<F>::option_names) {
    if (name == "format") continue;
    const std::string help = name == "algorithm"
                                 ? choices(F::algorithms())
                                 : "the option " + std::string(name) + " of the plan entry point";
    plan->add_option_function<std::string>(
        io::option_flag(name),
        [given, key = std::string(name)](const std::string& value) { given->options[key] = value; },
        help);
  }
  plan->add_option("--gantt", given->gantt, "Write the result's chart to this SVG file");
  add_format_option(plan, given->format);
  plan->callback([&action, given] {
    action = [given] {
      using Face = io::JsonFace<F>;
      const auto algorithm = given->options.find("algorithm");
      const std::string named = algorithm == given->options.end() ? "" : algorithm->second;
      return io::suggesting("algorithm", named, io::names_of(F::algorithms()), [&] {
        const io::EntryOptions entry(options_document(given->options), Face::option_names);
        const typename F::Options options =
            io::located_in(F::root, [&] { return Face::options(entry); });
        return run_plan(family_plan_command<F>(options), given->instance, given->gantt,
                        given->format);
      });
    };
  });
  add_family_check_command<F>(
      family, action,
      {"Validate a result against an instance", "Instance JSON file ('-': stdin)",
       "Result JSON file, as `plan` prints ('-': stdin)",
       "Write the result's chart (an invalid one's with its conflict in red)"});
}

}  // namespace redist::cli
