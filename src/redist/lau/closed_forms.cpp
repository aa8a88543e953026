#include "redist/lau/closed_forms.hpp"

#include <algorithm>

#include "redist/common/error.hpp"

namespace redist::lau {

namespace {

std::int64_t to_time(Int128 steps) {
  if (steps > Int128{INT64_MAX}) throw InputError("multi-send time overflows 64 bits", "flows");
  return static_cast<std::int64_t>(steps);
}

}  // namespace

std::size_t longest_circular_run(const std::vector<char>& red) {
  const std::size_t n = red.size();
  std::size_t best = 0, run = 0, head = 0;
  bool in_head = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (red[i]) {
      ++run;
      if (in_head) ++head;
      best = std::max(best, run);
    } else {
      run = 0;
      in_head = false;
    }
  }
  if (in_head) return n;              // every node red
  return std::max(best, run + head);  // `run` is the tail run; it joins the head circularly
}

Time t_single_closed(const Instance& in, const std::vector<std::int64_t>& flows) {
  const std::size_t n = in.size();
  if (std::all_of(flows.begin(), flows.end(), [](std::int64_t f) { return f == 0; })) return 0;
  std::vector<char> red(n);
  for (std::size_t i = 0; i < n; ++i) red[i] = is_red(in, flows, i);
  const std::size_t chain = longest_circular_run(red);
  if (chain == n) return std::nullopt;
  return static_cast<std::int64_t>(chain) + 1;
}

LoadWindows::LoadWindows(const std::vector<std::int64_t>& loads)
    : n_(loads.size()), prefix_(2 * loads.size() + 1, 0) {
  for (std::size_t k = 0; k < 2 * n_; ++k) prefix_[k + 1] = prefix_[k] + loads[k % n_];
  total_ = prefix_[n_];
}

Int128 LoadWindows::upstream_of_next(std::size_t i, std::int64_t m) const {
  const auto q = static_cast<std::size_t>(m) / n_, r = static_cast<std::size_t>(m) % n_;
  // Nodes i-r+1 .. i: in the doubled array, positions i+n-r+1 .. i+n.
  return total_ * static_cast<Int128>(q) + prefix_[i + n_ + 1] - prefix_[i + n_ + 1 - r];
}

Int128 LoadWindows::upstream_of_prev(std::size_t i, std::int64_t m) const {
  const auto q = static_cast<std::size_t>(m) / n_, r = static_cast<std::size_t>(m) % n_;
  // Nodes i+1 .. i+r: positions i+1 .. i+r of the doubled array.
  return total_ * static_cast<Int128>(q) + prefix_[i + 1 + r] - prefix_[i + 1];
}

Time LoadWindows::thread_next(std::size_t i, Int128 need) const {
  if (total_ == 0) return std::nullopt;
  const Int128 cycles = (need - 1) / total_;
  const Int128 rest = need - cycles * total_;  // in (0, total]
  // Largest start s (<= i+n) with prefix[i+n+1] - prefix[s] >= rest; r = i+n+1-s.
  const Int128 bound = prefix_[i + n_ + 1] - rest;
  const auto it =
      std::upper_bound(prefix_.begin() + static_cast<std::ptrdiff_t>(i + 1),
                       prefix_.begin() + static_cast<std::ptrdiff_t>(i + n_ + 1), bound);
  const auto s = static_cast<std::size_t>(it - prefix_.begin()) - 1;
  return to_time(cycles * static_cast<Int128>(n_) + static_cast<Int128>(i + n_ + 1 - s));
}

Time LoadWindows::thread_prev(std::size_t i, Int128 need) const {
  if (total_ == 0) return std::nullopt;
  const Int128 cycles = (need - 1) / total_;
  const Int128 rest = need - cycles * total_;
  // Smallest end e (> i+1) with prefix[e] - prefix[i+1] >= rest; r = e - (i+1).
  const Int128 bound = prefix_[i + 1] + rest;
  const auto it =
      std::lower_bound(prefix_.begin() + static_cast<std::ptrdiff_t>(i + 2),
                       prefix_.begin() + static_cast<std::ptrdiff_t>(i + n_ + 2), bound);
  const auto e = static_cast<std::size_t>(it - prefix_.begin());
  return to_time(cycles * static_cast<Int128>(n_) + static_cast<Int128>(e - i - 1));
}

Time t_multi_closed(const Instance& in, const std::vector<std::int64_t>& flows) {
  const LoadWindows windows(in.loads);
  std::int64_t worst = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (flows[i] == 0) continue;
    const Time t =
        flows[i] > 0 ? windows.thread_next(i, flows[i]) : windows.thread_prev(i, -Int128{flows[i]});
    if (!t) return std::nullopt;
    worst = std::max(worst, *t);
  }
  return worst;
}

}  // namespace redist::lau
