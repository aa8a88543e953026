#include "redist/dlt/validate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "redist/common/tolerance.hpp"

namespace redist::dlt {

namespace {

CheckResult invalid(std::string reason) {
  CheckResult r;
  r.reason = std::move(reason);
  return r;
}

struct Flows {
  std::vector<double> sent, received, rate_out, rate_in;
  double last_transfer_end = 0;
};

// Structure of each transfer and the per-worker sums; an empty reason when all is well.
std::string add_flows(const Instance& in, const Schedule& s, Flows& f) {
  const std::int64_t m = static_cast<std::int64_t>(in.alpha.size());
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    if (t.from < 0 || t.from >= m) return fmt::format("transfer {}: unknown worker {}", k, t.from);
    if (t.to < 0 || t.to >= m) return fmt::format("transfer {}: unknown worker {}", k, t.to);
    if (t.from == t.to) return fmt::format("transfer {}: from equals to ({})", k, t.to);
    if (!(t.amount >= 0) || !std::isfinite(t.amount)) {
      return fmt::format("transfer {}: amount must be a finite number >= 0", k);
    }
    if (!(t.rate >= 0) || !std::isfinite(t.rate)) {
      return fmt::format("transfer {}: rate must be a finite number >= 0", k);
    }
    if (t.amount == 0) continue;
    const double end = t.amount / t.rate;
    if (!std::isfinite(end)) {
      return fmt::format("transfer {}: amount {} at rate {} never ends", k, t.amount, t.rate);
    }
    const auto i = static_cast<std::size_t>(t.from), j = static_cast<std::size_t>(t.to);
    f.sent[i] += t.amount;
    f.received[j] += t.amount;
    f.rate_out[i] += t.rate;
    f.rate_in[j] += t.rate;
    f.last_transfer_end = std::max(f.last_transfer_end, end);
  }
  return {};
}

// Holding, disjoint roles and link capacity of worker i; an empty reason when all is well.
std::string check_worker(const Instance& in, const Flows& f, std::size_t i, double load_tol) {
  if (f.sent[i] > 0 && f.received[i] > 0) {
    return fmt::format("worker {} both sends ({}) and receives ({})", i, f.sent[i], f.received[i]);
  }
  if (!(f.sent[i] <= in.alpha[i] + load_tol)) {
    return fmt::format("worker {} sends {} but holds only {}", i, f.sent[i], in.alpha[i]);
  }
  const double b_tol = in.b[i] * (1 + kTimeTolerance);
  if (!(f.rate_out[i] <= b_tol) || !(f.rate_in[i] <= b_tol)) {
    return fmt::format("worker {}: rates sum to {} on a link of bandwidth {}", i,
                       std::max(f.rate_out[i], f.rate_in[i]), in.b[i]);
  }
  return {};
}

// The stated deltas against each worker's sent - received; an empty reason when they agree.
std::string compare_delta(const std::vector<double>& delta, const Flows& f, double load_tol) {
  const std::size_t m = f.sent.size();
  if (delta.size() != m) return fmt::format("delta has {} entries, expected {}", delta.size(), m);
  for (std::size_t i = 0; i < m; ++i) {
    const double net = f.sent[i] - f.received[i];
    if (!(std::abs(delta[i] - net) <= load_tol)) {
      return fmt::format("delta[{}] = {} but worker {} sends {} and receives {}", i, delta[i], i,
                         f.sent[i], f.received[i]);
    }
  }
  return {};
}

}  // namespace

CheckResult check(const Instance& in, const Schedule& s, const Stated& stated) {
  validate_instance(in);
  const std::size_t m = in.alpha.size();
  Flows f{std::vector<double>(m, 0.0), std::vector<double>(m, 0.0), std::vector<double>(m, 0.0),
          std::vector<double>(m, 0.0)};
  if (std::string reason = add_flows(in, s, f); !reason.empty()) return invalid(reason);
  double total_alpha = 0;
  for (double a : in.alpha) total_alpha += a;
  const double load_tol = kTimeTolerance * total_alpha;
  double makespan = f.last_transfer_end;
  for (std::size_t i = 0; i < m; ++i) {
    if (std::string reason = check_worker(in, f, i, load_tol); !reason.empty()) {
      return invalid(reason);
    }
    const double work = std::max(0.0, in.alpha[i] - f.sent[i] + f.received[i]);
    makespan = std::max(makespan, work / in.s[i]);
  }
  if (!std::isfinite(makespan)) return invalid("the recomputed makespan overflows a double");
  if (stated.makespan && !(std::abs(s.makespan - makespan) <= kTimeTolerance * makespan)) {
    return invalid(
        fmt::format("makespan {} differs from the recomputed makespan {}", s.makespan, makespan));
  }
  if (stated.delta) {
    if (std::string reason = compare_delta(s.delta, f, load_tol); !reason.empty())
      return invalid(reason);
  }
  CheckResult r;
  r.valid = true;
  r.makespan = makespan;
  return r;
}

}  // namespace redist::dlt
