#include "redist/io/fields.hpp"

#include <array>
#include <utility>

namespace redist::io {

namespace {

// (family object.field, meaning): the instance fields of every family.
constexpr std::array<std::pair<std::string_view, std::string_view>, 26> kGlossary{{
    {"ring.loads", "the items each processor holds before the redistribution"},
    {"ring.targets", "the items each processor must hold after it (same total as loads)"},
    {"ring.cost_next", "the time to send one item from processor i to processor i+1"},
    {"ring.cost_prev", "the time to send one item from processor i to processor i-1"},
    {"ring.bidirectional", "whether items may also travel to the previous processor"},
    {"lau.loads", "the load each node holds at the start"},
    {"lau.targets", "the load each node must hold in the end (the average by default)"},
    {"lau.flows", "the net load moved over each link, from node i to node i+1 (negative: back)"},
    {"star.c", "the time to send one task between worker i and the master"},
    {"star.w", "the time worker i takes to compute one task"},
    {"star.loads", "the tasks each worker holds at the start"},
    {"star.delta", "the tasks worker i must send (> 0) or receive (< 0)"},
    {"dlt.b", "the bandwidth of worker i's link to the switch"},
    {"dlt.s", "the speed of worker i (load computed per time unit)"},
    {"dlt.alpha", "the divisible load worker i holds at the start"},
    {"cluster.w", "the cycle-time of processor i: its time per unit of work"},
    {"cluster.c", "c[i][j]: the time to send one unit of data from processor i to processor j"},
    {"cluster.W", "the work of one iteration, shared among the ring's processors"},
    {"cluster.H",
     "the data each processor exchanges with each neighbour per iteration (the weight of "
     "communication against computation)"},
    {"balance.ring", "the ring's link costs (bidirectional, cost_next, cost_prev)"},
    {"balance.loads", "the items each processor holds now"},
    {"balance.speeds",
     "the items each processor computes per time unit, as measured (a trace: a row per iteration)"},
    {"balance.remaining_iterations", "the iterations the application has still to run"},
    {"balance.items", "the total number of items of the application"},
    {"balance.cost_next", "the time to send one item from processor i to processor i+1"},
    {"balance.cost_prev", "the time to send one item from processor i to processor i-1"},
}};

// "cluster.H" from "$.cluster.H", "star.c" from "$.star.c[2]", "balance.cost_next" from
// "$.balance.ring.cost_next[3]".
std::string family_field(std::string_view path) {
  if (path.substr(0, 2) != "$.") return "";
  path.remove_prefix(2);
  if (const auto bracket = path.find('['); bracket != std::string_view::npos) {
    path = path.substr(0, bracket);
  }
  const auto dot = path.find('.');
  if (dot == std::string_view::npos) return "";
  const std::string_view family = path.substr(0, dot);
  const std::string_view field = path.substr(path.rfind('.') + 1);
  return std::string(family) + "." + std::string(field);
}

}  // namespace

std::string field_meaning(std::string_view path) {
  const std::string key = family_field(path);
  for (const auto& [name, meaning] : kGlossary) {
    if (name == key)
      return std::string(name.substr(name.find('.') + 1)) + ": " + std::string(meaning);
  }
  return "";
}

}  // namespace redist::io
