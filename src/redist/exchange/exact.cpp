#include "redist/exchange/exact.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/preemptive.hpp"
#include "redist/exchange/whole.hpp"
#include "redist/lp/lp_solver.hpp"

namespace redist::exchange {
namespace {

// A structure must promise at least this relative improvement over the incumbent to be searched.
constexpr double kImprovement = 1e-9;
// A piece smaller than this fraction of its message is dropped from a rebuilt plan.
constexpr double kNegligibleShare = 1e-9;

// Ports are numbered among those that carry messages: each message uses two.
struct Ports {
  std::vector<std::size_t> of_sender, of_receiver;  // per message
  std::vector<std::vector<std::size_t>> messages;   // per port
};

Ports active_ports(const Instance& in) {
  Ports ports;
  std::map<std::pair<int, std::int64_t>, std::size_t> index;  // (0 send / 1 receive, node)
  const auto port = [&](int side, std::int64_t node, std::size_t message) {
    const auto [it, added] = index.try_emplace({side, node}, ports.messages.size());
    if (added) ports.messages.emplace_back();
    ports.messages[it->second].push_back(message);
    return it->second;
  };
  for (std::size_t e = 0; e < in.messages.size(); ++e) {
    ports.of_sender.push_back(port(0, in.messages[e].from, e));
    ports.of_receiver.push_back(port(1, in.messages[e].to, e));
  }
  return ports;
}

// Why the search stopped before it enumerated every structure: its time limit passed, it reached
// kMaxExactStructures (the best plan is returned, unproven), or its best plan meets the lower bound
// (proven optimal: nothing is left to find).
enum class Stop { finished, time_limit, structure_limit, at_bound };
struct Stopped {
  Stop why;
};

class ExactSearch {
 public:
  ExactSearch(const Instance& in, Plan incumbent, double lower_bound, const Deadline& time_limit)
      : in_(in),
        ports_(active_ports(in)),
        best_(std::move(incumbent)),
        scale_(best_.makespan),
        lower_bound_(lower_bound),
        time_limit_(time_limit) {
    for (const Message& m : in.messages) {
      transfer_.push_back(static_cast<double>(m.bytes) / in.rate(static_cast<std::size_t>(m.from),
                                                                 static_cast<std::size_t>(m.to)));
    }
    load_.assign(ports_.messages.size(), 0.0);
    for (std::size_t e = 0; e < transfer_.size(); ++e) {
      load_[ports_.of_sender[e]] += in.latency + transfer_[e];
      load_[ports_.of_receiver[e]] += in.latency + transfer_[e];
    }
    cuts_.assign(transfer_.size(), 1);
    extra_.assign(load_.size(), 0);
    order_.resize(load_.size());
    solver_ = lp::make_default_lp_solver();
  }

  // The most extra pieces a message could be cut into in a plan shorter than the incumbent: its
  // busier port's slack over the latency.
  std::size_t widest_cut() const {
    std::size_t widest = 0;
    for (std::size_t e = 0; e < transfer_.size(); ++e) {
      const double load = std::max(load_[ports_.of_sender[e]], load_[ports_.of_receiver[e]]);
      const double slack = best_.makespan * (1 - kImprovement) - load;
      if (slack > 0) widest = std::max(widest, static_cast<std::size_t>(slack / in_.latency));
    }
    return widest;
  }

  // The best plan: optimal unless stop() is a limit.
  Plan run() {
    try {
      choose_cuts(0);
    } catch (const Stopped& s) {
      stop_ = s.why;
    }
    return std::move(best_);
  }
  Stop stop() const { return stop_; }
  std::size_t structures() const { return structures_; }

 private:
  bool worth(std::size_t port) const {
    return load_[port] + in_.latency * static_cast<double>(extra_[port]) <
           best_.makespan * (1 - kImprovement);
  }

  void choose_cuts(std::size_t e) {
    if (e == cuts_.size()) return choose_orders(0);
    const std::size_t from = ports_.of_sender[e], to = ports_.of_receiver[e];
    for (cuts_[e] = 1; worth(from) && worth(to); ++cuts_[e]) {
      choose_cuts(e + 1);
      ++extra_[from];
      ++extra_[to];
    }
    extra_[from] -= cuts_[e] - 1;
    extra_[to] -= cuts_[e] - 1;
    cuts_[e] = 1;
  }

  void choose_orders(std::size_t port) {
    if (port == order_.size()) return evaluate();
    std::vector<std::size_t>& order = order_[port];
    order.clear();
    for (const std::size_t e : ports_.messages[port]) order.insert(order.end(), cuts_[e], e);
    std::sort(order.begin(), order.end());
    do {
      choose_orders(port + 1);
    } while (std::next_permutation(order.begin(), order.end()));
  }

  void evaluate();
  using Successors = std::vector<std::vector<std::size_t>>;
  static std::vector<std::size_t> topological_order(const Successors& next);
  std::optional<std::vector<double>> shortest_shares(const Successors& next);
  void rebuild(const std::vector<double>& share, const std::vector<std::size_t>& topo);

  // Piece k of message e has index first_[e] + k; its port predecessors follow the orders.
  std::vector<std::vector<std::size_t>> successors() const;

  const Instance& in_;
  Ports ports_;
  Plan best_;
  double scale_;  // times in the linear program are in units of the first incumbent
  double lower_bound_;
  std::vector<double> transfer_, load_;
  std::vector<std::size_t> cuts_, extra_, first_, message_of_;
  std::vector<std::vector<std::size_t>> order_;
  std::unique_ptr<lp::LpSolver> solver_;
  std::size_t structures_ = 0;
  const Deadline& time_limit_;
  Stop stop_ = Stop::finished;
};

std::vector<std::vector<std::size_t>> ExactSearch::successors() const {
  std::vector<std::vector<std::size_t>> next(message_of_.size());
  for (const std::vector<std::size_t>& order : order_) {
    std::map<std::size_t, std::size_t> seen;
    std::size_t previous = SIZE_MAX;
    for (const std::size_t e : order) {
      const std::size_t piece = first_[e] + seen[e]++;
      if (previous != SIZE_MAX) next[previous].push_back(piece);
      previous = piece;
    }
  }
  return next;
}

// Kahn's algorithm; empty when the port orders form a cycle.
std::vector<std::size_t> ExactSearch::topological_order(const Successors& next) {
  std::vector<std::size_t> indegree(next.size(), 0), topo;
  for (const auto& list : next) {
    for (const std::size_t v : list) ++indegree[v];
  }
  for (std::size_t u = 0; u < next.size(); ++u) {
    if (indegree[u] == 0) topo.push_back(u);
  }
  for (std::size_t k = 0; k < topo.size(); ++k) {
    for (const std::size_t v : next[topo[k]]) {
      if (--indegree[v] == 0) topo.push_back(v);
    }
  }
  if (topo.size() != next.size()) topo.clear();
  return topo;
}

void ExactSearch::evaluate() {
  first_.clear();
  message_of_.clear();
  for (std::size_t e = 0; e < cuts_.size(); ++e) {
    first_.push_back(message_of_.size());
    message_of_.insert(message_of_.end(), cuts_[e], e);
  }
  if (++structures_ > kMaxExactStructures) throw Stopped{Stop::structure_limit};
  if (time_limit_.passed_every(static_cast<std::int64_t>(structures_), 16)) {
    throw Stopped{Stop::time_limit};
  }
  const Successors next = successors();
  const std::vector<std::size_t> topo = topological_order(next);
  if (topo.empty()) return;
  if (const auto share = shortest_shares(next)) rebuild(*share, topo);
}

// The linear program of the current structure: each piece's share of its message, start times,
// and the makespan T (in units of scale_). Returns the shares when T improves on the incumbent.
std::optional<std::vector<double>> ExactSearch::shortest_shares(const Successors& next) {
  const std::size_t pieces = message_of_.size();
  const double beta = in_.latency / scale_;
  lp::Model model;
  std::vector<int> share(pieces), start(pieces);
  for (std::size_t u = 0; u < pieces; ++u) {
    share[u] = model.add_variable(0.0, 1.0);
    start[u] = model.add_variable(0.0, lp::kInfinity);
  }
  const int makespan = model.add_variable(0.0, lp::kInfinity, 1.0);
  const auto length = [&](std::size_t u) { return transfer_[message_of_[u]] / scale_; };
  for (std::size_t u = 0; u < pieces; ++u) {
    for (const std::size_t v : next[u]) {
      model.add_row(beta, {{start[v], 1.0}, {start[u], -1.0}, {share[u], -length(u)}},
                    lp::kInfinity);
    }
    model.add_row(beta, {{makespan, 1.0}, {start[u], -1.0}, {share[u], -length(u)}}, lp::kInfinity);
  }
  for (std::size_t e = 0; e < cuts_.size(); ++e) {
    std::vector<lp::Model::Term> terms;
    for (std::size_t k = 0; k < cuts_[e]; ++k) terms.push_back({share[first_[e] + k], 1.0});
    model.add_row(1.0, std::move(terms), 1.0);
  }
  const lp::Result result = solver_->solve(model);
  if (result.status != lp::Status::optimal ||
      result.objective * scale_ >= best_.makespan * (1 - kImprovement)) {
    return std::nullopt;
  }
  std::vector<double> shares(pieces);
  for (std::size_t u = 0; u < pieces; ++u)
    shares[u] = std::clamp(result.values[share[u]], 0.0, 1.0);
  return shares;
}

// The plan of the current structure with the given shares: negligible pieces dropped, each
// message's largest piece taking what the others leave (so bytes add up exactly), and every piece
// started as early as its ports allow, in topological order.
void ExactSearch::rebuild(const std::vector<double>& share, const std::vector<std::size_t>& topo) {
  std::vector<double> bytes(share.size(), 0.0);
  for (std::size_t e = 0; e < cuts_.size(); ++e) {
    const auto begin = share.begin() + static_cast<std::ptrdiff_t>(first_[e]);
    const std::size_t largest =
        first_[e] + static_cast<std::size_t>(std::max_element(begin, begin + cuts_[e]) - begin);
    const double total = static_cast<double>(in_.messages[e].bytes);
    double others = 0.0;
    for (std::size_t u = first_[e]; u < first_[e] + cuts_[e]; ++u) {
      if (u == largest || share[u] < kNegligibleShare) continue;
      bytes[u] = share[u] * total;
      others += bytes[u];
    }
    bytes[largest] = total - others;
  }
  std::vector<double> send_free(in_.nodes, 0.0), recv_free(in_.nodes, 0.0);
  Plan plan;
  for (const std::size_t u : topo) {
    if (bytes[u] <= 0) continue;
    const Message& m = in_.messages[message_of_[u]];
    const auto from = static_cast<std::size_t>(m.from), to = static_cast<std::size_t>(m.to);
    const double start = std::max(send_free[from], recv_free[to]);
    const double end = start + in_.latency + bytes[u] / in_.rate(from, to);
    send_free[from] = recv_free[to] = end;
    plan.pieces.push_back({m.from, m.to, start, bytes[u]});
    plan.makespan = std::max(plan.makespan, end);
  }
  if (plan.makespan < best_.makespan) {
    best_ = std::move(plan);
    if (at_most(best_.makespan, lower_bound_)) throw Stopped{Stop::at_bound};
  }
}

Plan better(Plan a, Plan b) { return a.makespan <= b.makespan ? std::move(a) : std::move(b); }

void require_exact_applies(const Instance& in) {
  if (in.backbone) {
    throw OptionError("exact applies to one-port instances without a backbone", "algorithm");
  }
  if (in.messages.size() > kMaxExactMessages) {
    throw OptionError(
        fmt::format("exact searches instances of at most {} messages; this one has {}",
                    kMaxExactMessages, in.messages.size()),
        "algorithm");
  }
}

}  // namespace

namespace {

// The search's best plan, or the incumbent when it is already at the bound; sets `unfinished`
// to the limit that stopped the search, if one did (the plan then says which in a note).
Plan search_plan(const Instance& instance, Plan incumbent, const Bounds& bound,
                 const Deadline& time_limit, std::optional<Status>& unfinished) {
  unfinished.reset();
  if (at_most(incumbent.makespan, bound.lower_bound)) {
    incumbent.notes.clear();
    return incumbent;
  }
  ExactSearch search(instance, std::move(incumbent), bound.lower_bound, time_limit);
  if (const std::size_t widest = search.widest_cut(); widest > kMaxExactExtraPieces) {
    throw OptionError(
        fmt::format("exact would have to cut a message into up to {} extra pieces (at most {}): "
                    "the latency is too small next to the transfers for the search; auto "
                    "plans such instances",
                    widest, kMaxExactExtraPieces),
        "algorithm");
  }
  Plan out = search.run();
  const std::string searched = fmt::format("{} structures searched", search.structures());
  switch (search.stop()) {
    case Stop::time_limit:
      out.notes.assign(1, time_limit_note(time_limit, searched));
      break;
    case Stop::structure_limit:
      out.notes.assign(1, fmt::format("exact stopped at its limit of {} structures without "
                                      "finishing its search: the best plan found, not proven "
                                      "optimal unless it meets the lower bound",
                                      kMaxExactStructures));
      break;
    case Stop::at_bound:
      out.notes.assign(1, "exact stopped at the lower bound after " + searched);
      break;
    case Stop::finished:
      out.notes.clear();
      break;
  }
  if (search.stop() == Stop::time_limit) unfinished = Status::time_limit;
  if (search.stop() == Stop::structure_limit) unfinished = Status::node_limit;
  return out;
}

}  // namespace

Plan plan_exact(const Instance& instance, const Deadline& time_limit) {
  require_exact_applies(instance);  // O(1): before validating a large instance
  validate_instance(instance);
  Plan incumbent = plan_preemptive(instance);
  if (instance.latency > 0) incumbent = better(std::move(incumbent), plan_whole(instance));
  const Bounds bound = bounds(instance);
  std::optional<Status> unfinished;
  Plan out = search_plan(instance, std::move(incumbent), bound, time_limit, unfinished);
  out.algorithm = "exact";
  out.bounds = bound;
  out.drop_proof();
  if (unfinished || at_most(out.makespan, bound.lower_bound)) {
    out.lower_bound = bound.lower_bound;
    if (at_most(out.makespan, bound.lower_bound)) {
      out.prove_optimal(Proof::lower_bound);
    } else if (unfinished) {
      out.stop_at(*unfinished);
    }
    return out;
  }
  out.lower_bound = out.makespan;
  out.notes.push_back("exhaustive search: no plan is shorter (the ports bound is " +
                      fmt::format("{:.6g})", bound.lower_bound));
  out.prove_optimal(Proof::search);
  return out;
}

}  // namespace redist::exchange
