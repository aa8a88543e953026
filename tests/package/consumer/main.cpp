// A program outside redist, built against it as its users build theirs (tests/package/): plans the
// ring instance named on the command line with the public header alone and prints the schedule,
// exactly what `redist ring plan INSTANCE` prints.
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>

#include "redist/ring.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer INSTANCE.json\n";
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) {
    std::cerr << "error: cannot read " << argv[1] << '\n';
    return 1;
  }
  std::ostringstream text;
  text << file.rdbuf();
  try {
    std::cout << redist::ring::plan_json(text.str());
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
