#include "redist/dlt/validate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "redist/common/overlap.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::dlt {

namespace {

// Per worker, the sums of its transfers (Neumaier-compensated: their rounding does not grow with
// the number of transfers, nor depend on their order).
struct Flows {
  std::vector<CompensatedSum> sent, received, rate_out, rate_in;
  double last_transfer_end = 0;
};

// `value` is at most `bound` within the allowance of the larger of the two (kTimeTolerance of it
// plus the instance's resolution): a tolerance of the values compared, which no other worker's
// load can widen.
bool at_most_within(double value, double bound, double resolution) {
  return value <= bound + allowance(std::max(value, bound), resolution);
}

// Structure of each transfer and the per-worker sums: the first wrong transfer, if any.
Violation add_flows(const Instance& in, const Schedule& s, Flows& f) {
  const std::int64_t m = static_cast<std::int64_t>(in.alpha.size());
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    if (t.from < 0 || t.from >= m)
      return {fmt::format("transfer {}: unknown worker {}", k, t.from), {k}};
    if (t.to < 0 || t.to >= m) return {fmt::format("transfer {}: unknown worker {}", k, t.to), {k}};
    if (t.from == t.to) return {fmt::format("transfer {}: from equals to ({})", k, t.to), {k}};
    if (!(t.amount >= 0) || !std::isfinite(t.amount)) {
      return {fmt::format("transfer {}: amount must be a finite number >= 0", k), {k}};
    }
    if (!(t.rate >= 0) || !std::isfinite(t.rate)) {
      return {fmt::format("transfer {}: rate must be a finite number >= 0", k), {k}};
    }
    if (t.amount == 0) continue;
    const double end = t.amount / t.rate;
    if (!std::isfinite(end)) {
      return {fmt::format("transfer {}: amount {} at rate {} never ends", k, t.amount, t.rate),
              {k}};
    }
    const auto i = static_cast<std::size_t>(t.from), j = static_cast<std::size_t>(t.to);
    f.sent[i].add(t.amount);
    f.received[j].add(t.amount);
    f.rate_out[i].add(t.rate);
    f.rate_in[j].add(t.rate);
    f.last_transfer_end = std::max(f.last_transfer_end, end);
  }
  return {};
}

// Holding, disjoint roles and link capacity of worker i; an empty reason when all is well.
std::string check_worker(const Instance& in, const Flows& f, std::size_t i, double resolution) {
  const double sent = f.sent[i].value(), received = f.received[i].value();
  if (sent > 0 && received > 0) {
    return fmt::format("worker {} both sends ({}) and receives ({})", i, sent, received);
  }
  if (!at_most_within(sent, in.alpha[i], resolution)) {
    return fmt::format("worker {} sends {} but holds only {}", i, sent, in.alpha[i]);
  }
  const double rate = std::max(f.rate_out[i].value(), f.rate_in[i].value());
  if (!(rate <= in.b[i] * (1 + kTimeTolerance))) {
    return fmt::format("worker {}: rates sum to {} on a link of bandwidth {}", i, rate, in.b[i]);
  }
  return {};
}

// The stated deltas against each worker's sent - received, within the allowance of the largest
// of the three; an empty reason when they agree.
std::string compare_delta(const std::vector<double>& delta, const Flows& f, double resolution) {
  const std::size_t m = f.sent.size();
  if (delta.size() != m) return fmt::format("delta has {} entries, expected {}", delta.size(), m);
  for (std::size_t i = 0; i < m; ++i) {
    const double sent = f.sent[i].value(), received = f.received[i].value();
    const double largest = std::max({std::abs(delta[i]), sent, received});
    if (!(std::abs(delta[i] - (sent - received)) <= allowance(largest, resolution))) {
      return fmt::format("delta[{}] = {} but worker {} sends {} and receives {}", i, delta[i], i,
                         sent, received);
    }
  }
  return {};
}

}  // namespace

double resolution(const Instance& in) {
  CompensatedSum total;
  for (double a : in.alpha) total.add(a);
  return kTimeResolution * total.value();
}

CheckResult check(const Instance& in, const Schedule& s, const Stated& stated) {
  validate_instance(in);
  const std::size_t m = in.alpha.size();
  Flows f{std::vector<CompensatedSum>(m), std::vector<CompensatedSum>(m),
          std::vector<CompensatedSum>(m), std::vector<CompensatedSum>(m)};
  if (Violation wrong = add_flows(in, s, f); wrong.found()) return invalid_result(wrong);
  const double res = resolution(in);
  double makespan = f.last_transfer_end;
  for (std::size_t i = 0; i < m; ++i) {
    if (std::string reason = check_worker(in, f, i, res); !reason.empty())
      return invalid_result({reason});
    const double work = std::max(0.0, in.alpha[i] - f.sent[i].value() + f.received[i].value());
    makespan = std::max(makespan, work / in.s[i]);
  }
  if (!std::isfinite(makespan))
    return invalid_result({"the recomputed makespan overflows a double"});
  if (stated.makespan && !(std::abs(s.makespan - makespan) <= kTimeTolerance * makespan)) {
    return invalid_result(
        {fmt::format("makespan {} differs from the recomputed makespan {}", s.makespan, makespan)});
  }
  if (stated.delta) {
    if (std::string reason = compare_delta(s.delta, f, res); !reason.empty()) {
      return invalid_result({reason});
    }
  }
  CheckResult r;
  r.valid = true;
  r.makespan = makespan;
  return r;
}

}  // namespace redist::dlt
