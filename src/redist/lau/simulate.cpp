#include "redist/lau/simulate.hpp"

#include <algorithm>

namespace redist::lau {

namespace {

// The receiver of link i's message and the amount, for a non-zero flow.
struct Link {
  std::size_t sender, receiver;
  Int128 amount;
};

Link link_of(const std::vector<std::int64_t>& flows, std::size_t i) {
  const std::size_t n = flows.size(), next = (i + 1) % n;
  if (flows[i] > 0) return {i, next, Int128{flows[i]}};
  return {next, i, -Int128{flows[i]}};
}

// A message sink that keeps nothing (the plain simulations).
struct Discard {
  void operator()(std::int64_t, std::size_t, const Link&, Int128) const {}
};

// A message sink that lists the messages (the traces).
struct Collect {
  std::vector<Message>* messages;
  void operator()(std::int64_t step, std::size_t link, const Link& l, Int128 amount) const {
    messages->push_back({step, link, l.sender, l.receiver, static_cast<std::int64_t>(amount)});
  }
};

template <typename Sink>
Time run_single(const Instance& in, const std::vector<std::int64_t>& flows, Sink&& sink) {
  const std::size_t n = in.size();
  std::vector<Int128> hold(in.loads.begin(), in.loads.end()), owe(n, 0);
  std::vector<std::vector<std::size_t>> out_links(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (flows[i] == 0) continue;
    const Link l = link_of(flows, i);
    owe[l.sender] += l.amount;
    out_links[l.sender].push_back(i);
  }
  std::vector<char> done(n, 0);
  std::size_t waiting = 0;
  for (std::size_t v = 0; v < n; ++v) waiting += owe[v] > 0;
  // Candidates for step k: at k = 0 every node; later only nodes that received in step k-1.
  std::vector<std::size_t> candidates(n), next;
  for (std::size_t v = 0; v < n; ++v) candidates[v] = v;
  std::int64_t step = 0, last_send = -1;
  while (waiting > 0 && !candidates.empty()) {
    std::vector<std::pair<std::size_t, Int128>> arrivals;
    for (std::size_t v : candidates) {
      if (done[v] || owe[v] == 0 || hold[v] < owe[v]) continue;
      done[v] = 1;
      --waiting;
      hold[v] -= owe[v];
      for (std::size_t i : out_links[v]) {
        const Link l = link_of(flows, i);
        arrivals.emplace_back(l.receiver, l.amount);
        sink(step, i, l, l.amount);
      }
      last_send = step;
    }
    next.clear();
    for (const auto& [v, amount] : arrivals) {
      hold[v] += amount;
      next.push_back(v);
    }
    candidates.swap(next);
    ++step;
  }
  if (waiting > 0) return std::nullopt;
  return last_send + 1;
}

template <typename Sink>
Time run_multi(const Instance& in, const std::vector<std::int64_t>& flows, std::int64_t max_steps,
               Sink&& sink) {
  const std::size_t n = in.size();
  std::vector<Int128> hold(in.loads.begin(), in.loads.end());
  std::vector<Int128> owed(n);  // per link
  std::vector<std::size_t> active;
  for (std::size_t i = 0; i < n; ++i) {
    if (flows[i] == 0) continue;
    owed[i] = link_of(flows, i).amount;
    active.push_back(i);
  }
  std::vector<Int128> sent_now(n, 0);
  std::int64_t steps = 0;
  while (!active.empty()) {
    if (steps == max_steps) throw TooManySteps();
    // Send from what each node holds at the start of the step: right link first, then left.
    std::vector<std::pair<std::size_t, Int128>> moves;  // (link, amount)
    std::fill(sent_now.begin(), sent_now.end(), 0);
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i : active) {
        const Link l = link_of(flows, i);
        const bool right = flows[i] > 0;
        if ((pass == 0) != right) continue;
        const Int128 amount = std::min(hold[l.sender] - sent_now[l.sender], owed[i]);
        if (amount <= 0) continue;
        sent_now[l.sender] += amount;
        moves.emplace_back(i, amount);
      }
    }
    if (moves.empty()) return std::nullopt;
    for (const auto& [i, amount] : moves) {
      const Link l = link_of(flows, i);
      hold[l.sender] -= amount;
      hold[l.receiver] += amount;
      owed[i] -= amount;
      sink(steps, i, l, amount);
    }
    active.erase(
        std::remove_if(active.begin(), active.end(), [&](std::size_t i) { return owed[i] == 0; }),
        active.end());
    ++steps;
  }
  return steps;
}

}  // namespace

Time simulate_single(const Instance& in, const std::vector<std::int64_t>& flows) {
  return run_single(in, flows, Discard{});
}

Time simulate_multi(const Instance& in, const std::vector<std::int64_t>& flows,
                    std::int64_t max_steps) {
  return run_multi(in, flows, max_steps, Discard{});
}

Trace trace_single(const Instance& in, const std::vector<std::int64_t>& flows) {
  Trace trace;
  trace.time = run_single(in, flows, Collect{&trace.messages});
  return trace;
}

Trace trace_multi(const Instance& in, const std::vector<std::int64_t>& flows,
                  std::int64_t max_steps) {
  Trace trace;
  trace.time = run_multi(in, flows, max_steps, Collect{&trace.messages});
  return trace;
}

}  // namespace redist::lau
