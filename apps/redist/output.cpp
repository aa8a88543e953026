#include <fstream>
#include <iostream>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"

namespace redist::cli {

namespace {

// Top-level members one per line; arrays of scalars inline; arrays of objects one object per line
// (a schedule of 10^6 runs stays one line per run, readable and diff-friendly).
void write_compact(std::string& out, const io::OrderedJson& value, int indent) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (value.is_object() && indent == 0) {
    out += "{";
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      out += first ? "\n" : ",\n";
      first = false;
      out += "  " + io::OrderedJson(it.key()).dump() + ": ";
      write_compact(out, it.value(), 2);
    }
    out += first ? "}" : "\n}";
    return;
  }
  if (value.is_array() && !value.empty() && value.front().is_structured()) {
    out += "[";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += (i == 0 ? "\n" : ",\n") + pad + "  " + value[i].dump();
    }
    out += "\n" + pad + "]";
    return;
  }
  out += value.dump();
}

}  // namespace

void print_json(const io::OrderedJson& document) {
  io::require_finite_numbers(document);
  std::string out;
  write_compact(out, document, 0);
  out += "\n";
  std::cout << out;
}

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
