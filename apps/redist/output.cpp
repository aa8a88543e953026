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

void write_text_file(const std::string& file, const std::string& text, const std::string& option) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError("cannot write file '" + file + "'", option);
  out << text;
  out.close();
  if (!out) throw InputError("cannot write file '" + file + "'", option);
}

}  // namespace redist::cli
