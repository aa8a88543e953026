#include "redist/exchange/step_plans.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"

namespace redist::exchange {
namespace {

double piece_seconds(const Instance& in, const StepPiece& s) {
  const Message& m = in.messages[s.message];
  return in.latency +
         s.bytes / in.rate(static_cast<std::size_t>(m.from), static_cast<std::size_t>(m.to));
}

}  // namespace

std::vector<Step> split_for_backbone(const Instance& instance, std::vector<Step> steps) {
  if (!instance.backbone) return steps;
  const std::vector<std::uint8_t> cluster = cluster_of(instance);
  const auto k = static_cast<std::size_t>(instance.backbone->transfers);
  std::vector<Step> out;
  out.reserve(steps.size());
  for (Step& step : steps) {
    Step local, crossing;
    for (const StepPiece& s : step) {
      const Message& m = instance.messages[s.message];
      const bool crosses =
          cluster[static_cast<std::size_t>(m.from)] != cluster[static_cast<std::size_t>(m.to)];
      (crosses ? crossing : local).push_back(s);
    }
    if (crossing.size() <= k) {
      out.push_back(std::move(step));
      continue;
    }
    std::stable_sort(crossing.begin(), crossing.end(), [&](const StepPiece& a, const StepPiece& b) {
      return piece_seconds(instance, a) > piece_seconds(instance, b);
    });
    for (std::size_t first = 0; first < crossing.size(); first += k) {
      Step sub;
      if (first == 0) sub.swap(local);  // the local pieces go with the first crossing ones
      const std::size_t last = std::min(crossing.size(), first + k);
      sub.insert(sub.end(), crossing.begin() + static_cast<std::ptrdiff_t>(first),
                 crossing.begin() + static_cast<std::ptrdiff_t>(last));
      out.push_back(std::move(sub));
    }
  }
  return out;
}

std::vector<double> step_lengths(const Instance& instance, const std::vector<Step>& steps) {
  std::vector<double> lengths;
  lengths.reserve(steps.size());
  for (const Step& step : steps) {
    double longest = 0.0;
    for (const StepPiece& s : step) longest = std::max(longest, piece_seconds(instance, s));
    lengths.push_back(longest);
  }
  return lengths;
}

void note_step_lengths(Plan& plan, const Instance& instance, const std::vector<Step>& steps) {
  constexpr std::size_t kListed = 12;
  std::string listed;
  std::size_t count = 0;
  for (const double length : step_lengths(instance, steps)) {
    if (length == 0.0) continue;  // an empty step
    if (++count > kListed) return;
    listed += (listed.empty() ? "" : ", ") + fmt::format("{}", length);
  }
  if (count > 0) plan.notes.push_back("step lengths (latency + longest piece): " + listed);
}

}  // namespace redist::exchange
