#include "redist/star/bba.hpp"

#include <algorithm>
#include <queue>
#include <tuple>

namespace redist::star {

namespace {

enum class State { none, busy, idle };

struct Worker {
  double end = 0;
  std::int64_t kept_own = 0;
  bool sent = false;
  bool received = false;
  State state = State::none;
  std::uint32_t version = 0;
};

// (key, tie, index, version): ordered ascending by std::greater in min-heaps.
using Entry = std::tuple<double, double, std::size_t, std::uint32_t>;
using MinHeap = std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>;

}  // namespace

Schedule plan_bba(const Instance& in) {
  const std::size_t m = in.workers();
  std::vector<Worker> wk(m);
  // Sender heap: largest end first, then lower index: key (-end, index).
  MinHeap senders, busy, threshold, idle;
  auto push_sender = [&](std::size_t k) {
    if (!wk[k].received && wk[k].kept_own > 0) senders.emplace(-wk[k].end, 0.0, k, wk[k].version);
  };
  auto push_busy = [&](std::size_t k) {
    wk[k].state = State::busy;
    busy.emplace(wk[k].end + in.w[k], wk[k].end, k, wk[k].version);
    threshold.emplace(wk[k].end - in.c[k], 0.0, k, wk[k].version);
  };
  for (std::size_t k = 0; k < m; ++k) {
    wk[k].kept_own = in.loads[k];
    wk[k].end = static_cast<double>(in.loads[k]) * in.w[k];
    push_sender(k);
    push_busy(k);
  }
  Schedule s;
  s.algorithm = "bba";
  double master_in = 0, master_out = 0;
  auto valid_receiver = [&](const Entry& e, State st) {
    const std::size_t k = std::get<2>(e);
    return std::get<3>(e) == wk[k].version && !wk[k].sent && wk[k].state == st;
  };
  while (true) {
    while (!senders.empty()) {
      const auto [key, tie, k, version] = senders.top();
      if (version == wk[k].version && !wk[k].received && wk[k].kept_own > 0) break;
      senders.pop();
    }
    if (senders.empty()) break;
    const std::size_t sender = std::get<2>(senders.top());
    const double arrival_master = master_in + in.c[sender];
    const double b = std::max(arrival_master, master_out);
    // Busy workers whose end_k - c_k < B are idle from now on.
    while (!threshold.empty() && std::get<0>(threshold.top()) < b) {
      const Entry e = threshold.top();
      threshold.pop();
      const std::size_t k = std::get<2>(e);
      if (!valid_receiver(e, State::busy)) continue;
      if (wk[k].end >= b + in.c[k]) continue;  // rounding: still busy (stays in `busy`)
      wk[k].state = State::idle;
      ++wk[k].version;
      idle.emplace(in.c[k] + in.w[k], wk[k].end, k, wk[k].version);
    }
    while (!busy.empty() && !valid_receiver(busy.top(), State::busy)) busy.pop();
    while (!idle.empty() && !valid_receiver(idle.top(), State::idle)) idle.pop();
    // Best receiver by (~end, end, index).
    std::tuple<double, double, std::size_t> best{0, 0, m};
    bool found = false;
    auto consider = [&](std::size_t k) {
      const double value = std::max(wk[k].end, b + in.c[k]) + in.w[k];
      const std::tuple<double, double, std::size_t> cand{value, wk[k].end, k};
      if (!found || cand < best) best = cand, found = true;
    };
    if (!busy.empty()) consider(std::get<2>(busy.top()));
    if (!idle.empty()) consider(std::get<2>(idle.top()));
    if (!found) break;
    const auto [value, end_r, receiver] = best;
    if (receiver == sender || wk[sender].end <= value) break;
    Transfer t;
    t.from = static_cast<std::int64_t>(sender);
    t.to = static_cast<std::int64_t>(receiver);
    t.send_start = master_in;
    t.forward_start = b;
    s.transfers.push_back(t);
    master_in = arrival_master;
    master_out = b + in.c[receiver];
    // Sender: one own task less; it is no receiver any more.
    Worker& ws = wk[sender];
    --ws.kept_own;
    ws.end = static_cast<double>(ws.kept_own) * in.w[sender];
    ws.sent = true;
    ++ws.version;
    ws.state = State::none;
    senders.pop();
    push_sender(sender);
    // Receiver: new end; it is no sender any more.
    Worker& wr = wk[receiver];
    wr.end = value;
    wr.received = true;
    ++wr.version;
    push_busy(receiver);
  }
  finish_times(in, s);
  return s;
}

}  // namespace redist::star
