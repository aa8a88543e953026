// A program outside redist, built against it as its users build theirs (tests/package/): plans the
// ring instance named on the command line and prints the schedule, exactly what
// `redist ring plan INSTANCE` prints.
#include <exception>
#include <iostream>

#include "redist/io/json.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring/planner.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer INSTANCE.json\n";
    return 2;
  }
  try {
    const redist::ring::Instance instance =
        redist::io::read_ring_instance(redist::io::read_document(argv[1]));
    std::cout << redist::io::ring_schedule_json(redist::ring::plan_ring(instance, "auto"));
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
