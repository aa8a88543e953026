#include <fstream>
#include <iostream>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"

namespace redist::cli {

void print_json(const io::OrderedJson& document) { std::cout << document.dump(2) << "\n"; }

void write_text_file(const std::string& file, const std::string& text, const std::string& option) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError("cannot write file '" + file + "'", option);
  out << text;
  out.close();
  if (!out) throw InputError("cannot write file '" + file + "'", option);
}

}  // namespace redist::cli
