// Shared plumbing of the redist command line: each family registers its subcommands, and each
// subcommand stores the action to run once the arguments are parsed.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "redist/io/json.hpp"

namespace redist::cli {

// The action chosen by the parsed command line; returns the process exit code.
using Action = std::function<int()>;

void register_ring_commands(CLI::App& app, Action& action);
void register_demo_command(CLI::App& app, Action& action);

// Prints a JSON document on standard output (one document, 2-space indentation, newline).
void print_json(const io::OrderedJson& document);
// Writes `text` to `file`; InputError at `option` when the file cannot be written.
void write_text_file(const std::string& file, const std::string& text, const std::string& option);

}  // namespace redist::cli
