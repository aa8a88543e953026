// redist-smpi-oneport.so: a SimGrid C++ platform (smpirun -platform redist-smpi-oneport.so) that
// loads the XML platform named by the environment variable REDIST_SMPI_PLATFORM and gives every
// link carrying a `concurrency_limit` property that limit (s4u::Link::set_concurrency_limit:
// at most that many flows cross the link at once, later ones wait). SimGrid's XML format cannot
// express the limit; `redist-smpi-platform --one-port` writes the send/receive port links that
// need it, so that each host sends one message and receives one message at a time (one-port).
#include <simgrid/s4u.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" void load_platform(const simgrid::s4u::Engine& engine) {
  const char* xml = std::getenv("REDIST_SMPI_PLATFORM");
  if (xml == nullptr || *xml == '\0') {
    throw std::invalid_argument(
        "redist-smpi-oneport.so: set REDIST_SMPI_PLATFORM to the platform XML written by "
        "redist-smpi-platform --one-port");
  }
  engine.load_platform(xml);
  for (simgrid::s4u::Link* link : engine.get_all_links()) {
    if (const char* limit = link->get_property("concurrency_limit")) {
      link->set_concurrency_limit(std::stoi(limit));
    }
  }
}
