// Structured fuzzer of the exchange family (docs/exchange.md): valid instances drawn from the
// bytes (node counts, message patterns, bandwidths and sizes of every magnitude, latency, a
// backbone) planned by every algorithm; each plan printed, read back and validated by the
// independent validator, compared with the lower bound; preemptive must meet the bound when no
// latency is charged; the step algorithms stay between their step bound eta and their guarantee.
#include <cmath>

#include "fuzz/structured.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/svg/exchange_gantt.hpp"

using namespace redist;

namespace {

std::vector<exchange::Message> draw_messages(FuzzedDataProvider& in, std::size_t nodes) {
  std::vector<exchange::Message> messages;
  const std::int64_t max_bytes =
      in.PickValueInArray<std::int64_t>({1, 10, 1000, 1'000'000'000, std::int64_t{1} << 53});
  for (std::size_t i = 0; i < nodes; ++i) {
    for (std::size_t j = 0; j < nodes; ++j) {
      if (i == j || !in.ConsumeBool()) continue;
      messages.push_back({static_cast<std::int64_t>(i), static_cast<std::int64_t>(j),
                          in.ConsumeIntegralInRange<std::int64_t>(1, max_bytes)});
    }
  }
  return messages;
}

exchange::Instance draw_exchange(FuzzedDataProvider& in) {
  exchange::Instance x;
  x.nodes = fuzz::draw_size(in, 2, 6, 40);
  x.messages = draw_messages(in, x.nodes);
  x.send_bandwidth = fuzz::draw_positive(in, x.nodes);
  x.recv_bandwidth = fuzz::draw_positive(in, x.nodes);
  x.latency = in.ConsumeBool() ? 0.0 : fuzz::draw_magnitude(in, in.ConsumeIntegralInRange(-12, 3));
  if (in.ConsumeIntegralInRange(0, 3) == 0) {
    exchange::Backbone b;
    const std::size_t split = in.ConsumeIntegralInRange<std::size_t>(1, x.nodes - 1);
    for (std::size_t i = 0; i < x.nodes; ++i) {
      b.clusters[i < split ? 0 : 1].push_back(static_cast<std::int64_t>(i));
    }
    b.transfers = in.ConsumeIntegralInRange<std::int64_t>(1, 4);
    x.backbone = b;
  }
  return x;
}

void check_plan(const exchange::Instance& x, const exchange::Plan& plan, const std::string& name) {
  const std::string text = io::exchange_plan_json(plan);
  fuzz::parse_output(text, "exchange plan " + name);
  const io::ExchangePlanDocument read = fuzz::must_succeed(
      "reading back exchange plan " + name, [&] { return io::read_exchange_plan(text); });
  const CheckResult verdict = exchange::check(x, read.plan, read.stated);
  fuzz::require(verdict.valid, "exchange plan " + name + " invalid: " + verdict.reason);
  fuzz::require(fuzz::at_most(plan.lower_bound.value_or(0.0), verdict.makespan),
                "exchange plan " + name + " claims a lower bound above its makespan");
  if (name == "preemptive" && x.latency == 0) {
    fuzz::require(plan.optimal, "preemptive without latency does not meet the bound: " +
                                    fuzz::show(plan.makespan) + " vs " +
                                    fuzz::show(plan.lower_bound.value_or(0.0)));
  }
  if (plan.steps) {  // a step algorithm: eta bounds it, and ggp and oggp stay within 2 (eta + beta)
    fuzz::require(fuzz::at_most(plan.steps->lower_bound, verdict.makespan),
                  "exchange plan " + name + " is below its step lower bound eta");
    if (name == "ggp" || name == "oggp") {
      fuzz::require(fuzz::at_most(verdict.makespan, 2 * (plan.steps->lower_bound + x.latency)),
                    "exchange plan " + name + " beyond 2 (eta + latency)");
    }
  }
  if (plan.pieces.size() <= 2000) {
    fuzz::require_finite_svg(svg::exchange_gantt_svg(x, plan, "fuzz"), "exchange gantt " + name);
  }
}

// exact searches tiny instances only and may refuse one (OptionError) whose latency is too small
// for its search; what it returns must be as valid as any plan.
void check_exact(const exchange::Instance& x) {
  if (x.backbone || x.messages.size() > 4) return;
  try {
    check_plan(x, exchange::plan(x, "exact"), "exact");
  } catch (const OptionError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const exchange::Instance x = draw_exchange(in);
  if (!fuzz::only_input_errors([&] { exchange::validate_instance(x); })) return 0;
  for (const exchange::AlgorithmName& a : exchange::kAlgorithms) {
    if (a.name == "preemptive" && x.backbone) continue;
    if (a.name == "exact") {
      check_exact(x);
      continue;
    }
    const exchange::Plan plan = fuzz::must_succeed("exchange plan " + std::string(a.name),
                                                   [&] { return exchange::plan(x, a.name); });
    check_plan(x, plan, std::string(a.name));
  }
  return 0;
}
