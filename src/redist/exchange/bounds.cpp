#include "redist/exchange/bounds.hpp"

#include <algorithm>
#include <vector>

namespace redist::exchange {

double port_bound(const Instance& instance) {
  std::vector<double> sends(instance.nodes, 0.0), receives(instance.nodes, 0.0);
  for (const Message& m : instance.messages) {
    const double d = instance.duration(m);
    sends[static_cast<std::size_t>(m.from)] += d;
    receives[static_cast<std::size_t>(m.to)] += d;
  }
  double bound = 0.0;
  for (std::size_t i = 0; i < instance.nodes; ++i) {
    bound = std::max({bound, sends[i], receives[i]});
  }
  return bound;
}

Bounds bounds(const Instance& instance) {
  validate_instance(instance);
  Bounds out;
  out.ports = port_bound(instance);
  out.lower_bound = out.ports;
  if (instance.backbone) {
    const std::vector<std::uint8_t> cluster = cluster_of(instance);
    double crossing = 0.0;
    for (const Message& m : instance.messages) {
      if (cluster[static_cast<std::size_t>(m.from)] != cluster[static_cast<std::size_t>(m.to)]) {
        crossing += instance.duration(m);
      }
    }
    out.backbone = crossing / static_cast<double>(instance.backbone->transfers);
    out.lower_bound = std::max(out.lower_bound, *out.backbone);
  }
  return out;
}

}  // namespace redist::exchange
