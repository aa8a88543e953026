#include "redist/balance/policy.hpp"

#include <charconv>
#include <cmath>
#include <deque>
#include <limits>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "redist/balance/replay.hpp"
#include "redist/balance/stable_horizon.hpp"
#include "redist/common/error.hpp"
#include "redist/common/parse.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::balance {
namespace {

constexpr const char* kOption = "policy";

[[noreturn]] void bad(const std::string& message) { throw OptionError(message, kOption); }

std::int64_t parse_at_least(std::string_view text, std::string_view what, std::int64_t least) {
  const Parsed<std::int64_t> v = parse_integer<std::int64_t>(text);
  if (const auto* value = std::get_if<std::int64_t>(&v); value && *value >= least) return *value;
  bad(fmt::format("{} must be an integer >= {}, got '{}'", what, least, one_line(text, 40)));
}

std::int64_t parse_count(std::string_view text, std::string_view what) {
  return parse_at_least(text, what, 1);
}

double parse_number(std::string_view text, std::string_view what) {
  const Parsed<double> v = parse_real(text);
  if (const auto* why = std::get_if<std::string>(&v))
    bad(fmt::format("{} must be a number, got '{}': {}", what, one_line(text, 40), *why));
  return std::get<double>(v);
}

Decision no(std::string reason) { return {false, std::move(reason)}; }

Decision compare_saving(double saving, double makespan, const char* what) {
  Decision d;
  d.predicted_saving = saving;
  d.planned = true;
  d.plan_makespan = makespan;
  d.rebalance = saving > makespan;
  d.reason =
      fmt::format("{} {:.6g} {} makespan {:.6g}", what, saving, d.rebalance ? ">" : "<=", makespan);
  return d;
}

class Never final : public Policy {
 public:
  Decision decide(const Step&) override { return no("never rebalances"); }
  std::string name() const override { return "never"; }
};

class At final : public Policy {
 public:
  At(std::set<std::int64_t> points, std::string name)
      : points_(std::move(points)), name_(std::move(name)) {}
  Decision decide(const Step& step) override {
    if (!points_.count(step.after_iteration)) return no("not a listed iteration");
    return {true, fmt::format("iteration {} is listed", step.after_iteration)};
  }
  std::string name() const override { return name_; }

 private:
  std::set<std::int64_t> points_;
  std::string name_;
};

class Every final : public Policy {
 public:
  explicit Every(std::int64_t period) : period_(period) {}
  Decision decide(const Step& step) override {
    if (step.after_iteration % period_ != 0) return no("not a multiple of the period");
    return {true, fmt::format("iteration {} is a multiple of {}", step.after_iteration, period_)};
  }
  std::string name() const override { return fmt::format("every:{}", period_); }

 private:
  std::int64_t period_;
};

// threshold:R/window:W/cooldown:C (policy.hpp). With W = 1 and C = 0 it compares each
// iteration's own imbalance with R. O(W) per decision.
class Threshold final : public Policy {
 public:
  Threshold(double ratio, std::int64_t window, std::int64_t cooldown)
      : ratio_(ratio), window_(static_cast<std::size_t>(window)), cooldown_(cooldown) {}
  Decision decide(const Step& step) override {
    recent_.push_back(step.bound_time > 0 ? step.iteration_time / step.bound_time : 1.0);
    if (recent_.size() > window_) recent_.pop_front();
    double sum = 0.0;
    for (double r : recent_) sum += r;
    const double mean = sum / static_cast<double>(recent_.size());
    const bool over = mean > ratio_;
    std::string reason = fmt::format("imbalance {:.6g}", mean);
    if (window_ > 1) reason += fmt::format(" (mean of the last {})", recent_.size());
    reason += fmt::format(" {} {:.6g}", over ? ">" : "<=", ratio_);
    if (over && step.after_iteration <= quiet_until_)
      return no(reason + fmt::format(", but in the cooldown until iteration {}", quiet_until_));
    return {over, std::move(reason)};
  }
  void rebalanced(const Step& step) override {
    recent_.clear();  // the imbalances of the distribution just replaced
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    const std::int64_t k = step.after_iteration;
    quiet_until_ = cooldown_ > kMax - k ? kMax : k + cooldown_;
  }
  std::string name() const override {
    std::string name = fmt::format("threshold:{}", ratio_);
    if (window_ != 1) name += fmt::format("/window:{}", window_);
    if (cooldown_ != 0) name += fmt::format("/cooldown:{}", cooldown_);
    return name;
  }

 private:
  double ratio_;
  std::size_t window_;
  std::int64_t cooldown_;
  std::deque<double> recent_;     // the imbalances since the last rebalance, the last W at most
  std::int64_t quiet_until_ = 0;  // no rebalance after iterations up to this one
};

class CostBenefit final : public Policy {
 public:
  Decision decide(const Step& step) override {
    const double gain = step.iteration_time - step.balanced_time;
    if (!(gain > 0)) return no("already balanced");
    return compare_saving(gain * static_cast<double>(step.remaining()), step.plan_makespan(),
                          "saving");
  }
  std::string name() const override { return "cost-benefit"; }
};

// Least-squares line through (1, y_1), ..., (n, y_n): returns (intercept at 0, slope).
std::pair<double, double> fit_line(const std::vector<double>& y) {
  const double n = static_cast<double>(y.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t j = 0; j < y.size(); ++j) {
    const double x = static_cast<double>(j + 1);
    sx += x;
    sy += y[j];
    sxx += x * x;
    sxy += x * y[j];
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {(sy - slope * sx) / n, slope};
}

// Smallest tau > 0 with (m / 2) tau^2 + c tau = cost; +infinity when there is none.
double period(double c, double m, double cost) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // A slope within rounding of the intercept's scale is no slope: the period is linear.
  if (std::abs(m) <=
      kSearchResolution * std::max(std::abs(c), std::numeric_limits<double>::min())) {
    return c > 0 ? cost / c : kInf;
  }
  const double disc = c * c + 2 * m * cost;
  if (disc < 0) return kInf;
  const double root = std::sqrt(disc);
  // Roots (-c +- root) / m; the smallest positive one.
  double best = kInf;
  for (double r : {(-c + root) / m, (-c - root) / m})
    if (r > 0 && r < best) best = r;
  return best;
}

// The period rule (ours, after the idea of Menon, Jain, Zheng and Kalé, "Automated load
// balancing invocation based on application characteristics", IEEE Cluster 2012, which
// Charm++'s MetaBalancer implements; this is an adaptation to this model, not MetaBalancer): the
// removable imbalance I_j = T - T_bal of the j-th iteration since the last rebalance is fitted
// with a line c + m j once more than 4 samples exist; the period tau solves
// (m/2) tau^2 + c tau = C, C the cost of balancing (here the planned makespan, in place of an
// estimate), and the policy rebalances once j >= tau. It stays put while
// T / (N / sum s) <= 1.1. O(j) per decision.
class PeriodRule final : public Policy {
 public:
  Decision decide(const Step& step) override {
    imbalance_.push_back(step.iteration_time - step.balanced_time);
    if (imbalance_.size() <= 4) return no("fewer than 5 samples since the last rebalance");
    if (step.iteration_time <= 1.1 * step.bound_time) return no("imbalance within 1.1");
    if (!(step.iteration_time > step.balanced_time)) return no("already balanced");
    const auto [c, m] = fit_line(imbalance_);
    Decision d;
    d.planned = true;
    d.plan_makespan = step.plan_makespan();
    const double tau = period(c, m, d.plan_makespan);
    const auto since = static_cast<double>(imbalance_.size());
    d.rebalance = since >= tau;
    d.reason = fmt::format("{} iterations since the last rebalance, period {:.6g}", since, tau);
    return d;
  }
  void rebalanced(const Step&) override { imbalance_.clear(); }
  std::string name() const override { return "period-rule"; }

 private:
  std::vector<double> imbalance_;
};

// The points of `at:K1,K2,...`, parsed (strictly increasing counts).
std::vector<std::int64_t> parse_points(std::string_view list) {
  std::vector<std::int64_t> points;
  while (true) {
    const std::size_t comma = list.find(',');
    const std::int64_t k = parse_count(list.substr(0, comma), "an `at:` iteration");
    if (!points.empty() && k <= points.back())
      bad("the `at:` iterations must be strictly increasing");
    points.push_back(k);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return points;
}

// `threshold:` followed by `arg`: R, then optional `/window:W` and `/cooldown:C`, each at most
// once, in any order.
std::unique_ptr<Policy> make_threshold(std::string_view arg) {
  std::size_t slash = arg.find('/');
  const double ratio = parse_number(arg.substr(0, slash), "R");
  if (ratio < 1) bad("R must be >= 1 (an iteration is never shorter than N / sum of speeds)");
  std::int64_t window = 0, cooldown = -1;  // not given yet
  while (slash != std::string_view::npos) {
    arg.remove_prefix(slash + 1);
    slash = arg.find('/');
    const std::string_view part = arg.substr(0, slash);
    const std::size_t colon = part.find(':');
    const std::string_view key = part.substr(0, colon);
    const std::string_view value =
        colon == std::string_view::npos ? std::string_view{} : part.substr(colon + 1);
    if (key == "window" && colon != std::string_view::npos) {
      if (window != 0) bad("`window:` is given twice");
      window = parse_count(value, "the window W");
    } else if (key == "cooldown" && colon != std::string_view::npos) {
      if (cooldown != -1) bad("`cooldown:` is given twice");
      cooldown = parse_at_least(value, "the cooldown C", 0);
    } else {
      bad(fmt::format("after `threshold:R`, expected `/window:W` or `/cooldown:C`, got '/{}'",
                      one_line(part, 40)));
    }
  }
  return std::make_unique<Threshold>(ratio, window == 0 ? 1 : window,
                                     cooldown == -1 ? 0 : cooldown);
}

}  // namespace

std::unique_ptr<Policy> make_at_policy(const std::vector<std::int64_t>& points,
                                       std::int64_t iterations) {
  if (points.empty()) return std::make_unique<Never>();
  std::string name = "at:";
  std::int64_t previous = 0;
  for (const std::int64_t k : points) {
    if (k <= previous) bad("the `at:` iterations must be strictly increasing from 1");
    if (k >= iterations)
      bad(fmt::format("`at:` iteration {} is not before the last iteration ({})", k, iterations));
    if (name.size() > 3) name += ',';
    name += std::to_string(k);
    previous = k;
  }
  return std::make_unique<At>(std::set<std::int64_t>(points.begin(), points.end()), name);
}

std::unique_ptr<Policy> make_policy(std::string_view spec, std::int64_t iterations) {
  const std::size_t colon = spec.find(':');
  const std::string_view head = spec.substr(0, colon);
  const bool has_arg = colon != std::string_view::npos;
  const std::string_view arg = has_arg ? spec.substr(colon + 1) : std::string_view{};
  const auto plain = [&](std::string_view name) {
    if (has_arg) bad(fmt::format("policy `{}` takes no parameter", name));
  };
  if (head == "never") return plain(head), std::make_unique<Never>();
  if (head == "cost-benefit") return plain(head), std::make_unique<CostBenefit>();
  // `metabalancer`: the period rule's former name, a deprecated alias kept for old scripts.
  if (head == "period-rule" || head == "metabalancer")
    return plain(head), std::make_unique<PeriodRule>();
  if (head == "replay") return plain(head), make_replay();
  if (head == "hedged-replay") return plain(head), make_hedged_replay();
  if (head == "stable-horizon") {
    if (has_arg && arg.empty()) bad("`stable-horizon:` needs a factor A after the colon");
    return make_stable_horizon(arg);
  }
  if (head == "at" && has_arg) return make_at_policy(parse_points(arg), iterations);
  if (head == "every" && has_arg) return std::make_unique<Every>(parse_count(arg, "E"));
  if (head == "threshold" && has_arg) return make_threshold(arg);
  if (head == "oracle") bad("`oracle` needs the whole trace: it is only offered by simulate");
  bad(
      fmt::format("unknown policy '{}' (known: never, at:K1,K2,..., every:E, "
                  "threshold:R[/window:W][/cooldown:C], "
                  "cost-benefit, period-rule, stable-horizon, replay, hedged-replay, oracle)",
                  one_line(spec, 60)));
}

const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> names = {
      "never",         "at:K1,K2,...", "every:E",        "threshold:R[/window:W][/cooldown:C]",
      "cost-benefit",  "period-rule",  "stable-horizon", "replay",
      "hedged-replay", "oracle"};
  return names;
}

}  // namespace redist::balance
