#include "redist/balance/targets.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <queue>
#include <string>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

__extension__ typedef unsigned __int128 u128;

// m * 2^e, exactly.
struct Exact {
  u128 m = 0;
  int e = 0;
};

// k * x exactly: x = f * 2^e with f in [0.5, 1), so f * 2^53 is an integer below 2^53.
Exact exact_product(std::int64_t k, double x) {
  int e = 0;
  const double f = std::frexp(x, &e);
  const auto mantissa = static_cast<std::uint64_t>(std::ldexp(f, 53));
  return {static_cast<u128>(static_cast<std::uint64_t>(k)) * mantissa, e - 53};
}

int bit_length(u128 v) {
  const auto high = static_cast<std::uint64_t>(v >> 64);
  const auto low = static_cast<std::uint64_t>(v);
  if (high != 0) return 128 - __builtin_clzll(high);
  return low != 0 ? 64 - __builtin_clzll(low) : 0;
}

int compare_exact(Exact x, Exact y) {
  if (x.m == 0 || y.m == 0) return (x.m != 0) - (y.m != 0);
  const long top_x = bit_length(x.m) + static_cast<long>(x.e);
  const long top_y = bit_length(y.m) + static_cast<long>(y.e);
  if (top_x != top_y) return top_x < top_y ? -1 : 1;
  // Same leading bit position: shifting the one with the larger exponent down to the other's
  // exponent keeps it within the other's bit length (< 2^117).
  if (x.e > y.e) x.m <<= (x.e - y.e);
  if (y.e > x.e) y.m <<= (y.e - x.e);
  return x.m < y.m ? -1 : (x.m > y.m ? 1 : 0);
}

// The items of processor i are the pairs (k / s_i, i), k >= 1, ordered by time then index.
struct Item {
  std::int64_t k = 0;
  std::size_t i = 0;
};

bool item_less(const Item& a, const Item& b, const std::vector<double>& speeds) {
  const int c = compare_ratios(a.k, speeds[a.i], b.k, speeds[b.i]);
  return c != 0 ? c < 0 : a.i < b.i;
}

// Heaps of candidate items, re-validated against the current counts when popped (lazy deletion).
class Exchange {
 public:
  Exchange(std::vector<std::int64_t>& t, const std::vector<double>& s) : t_(t), s_(s) {
    for (std::size_t i = 0; i < t_.size(); ++i) push(i);
  }
  // The last item held (largest), or none.
  bool top(Item& out) {
    return best(last_, out, [&](std::size_t i) { return t_[i]; });
  }
  // The first item not held (smallest).
  bool next(Item& out) {
    return best(first_, out, [&](std::size_t i) { return t_[i] + 1; });
  }
  void remove(std::size_t i) {
    --t_[i];
    push(i);
  }
  void add(std::size_t i) {
    ++t_[i];
    push(i);
  }

 private:
  struct Later {  // priority_queue is a max-heap: "less" puts the largest item on top
    const std::vector<double>* s;
    bool operator()(const Item& a, const Item& b) const { return item_less(a, b, *s); }
  };
  struct Earlier {
    const std::vector<double>* s;
    bool operator()(const Item& a, const Item& b) const { return item_less(b, a, *s); }
  };
  void push(std::size_t i) {
    if (t_[i] > 0) last_.push({t_[i], i});
    first_.push({t_[i] + 1, i});
  }
  template <class Heap, class Current>
  bool best(Heap& heap, Item& out, Current current) {
    while (!heap.empty() && heap.top().k != current(heap.top().i)) heap.pop();
    if (heap.empty()) return false;
    out = heap.top();
    return true;
  }

  std::vector<std::int64_t>& t_;
  const std::vector<double>& s_;
  std::priority_queue<Item, std::vector<Item>, Later> last_{Later{&s_}};
  std::priority_queue<Item, std::vector<Item>, Earlier> first_{Earlier{&s_}};
};

void validate_speeds(const std::vector<double>& speeds) {
  if (speeds.empty()) throw InputError("no speed given", "speeds");
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    if (!std::isfinite(speeds[i]) || !(speeds[i] > 0.0))
      throw InputError("a speed must be a finite number > 0", "speeds[" + std::to_string(i) + "]");
  }
}

// floor(N s_i / sum s), in long double: off by a few items at most (see the header).
std::vector<std::int64_t> proportional_guess(std::int64_t items,
                                             const std::vector<double>& speeds) {
  long double total = 0;
  for (double s : speeds) total += s;
  std::vector<std::int64_t> t(speeds.size());
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const long double share = std::floor(static_cast<long double>(items) * (speeds[i] / total));
    t[i] = share <= 0 ? 0 : (share >= items ? items : static_cast<std::int64_t>(share));
  }
  return t;
}

}  // namespace

int compare_ratios(std::int64_t k, double a, std::int64_t l, double b) {
  // Fast path: rounded products more than a relative 2^-40 apart cannot be in the other order
  // (each carries a relative error below 2^-52); otherwise decide exactly.
  const double x = static_cast<double>(k) * b, y = static_cast<double>(l) * a;
  if (std::isnormal(x) && std::isnormal(y) && std::abs(x - y) > 0x1.0p-40 * std::max(x, y))
    return x < y ? -1 : 1;
  return compare_exact(exact_product(k, b), exact_product(l, a));
}

std::vector<std::int64_t> balanced_targets(std::int64_t items, const std::vector<double>& speeds) {
  validate_speeds(speeds);
  if (items < 0) throw InputError("the number of items must be >= 0", "items");
  std::vector<std::int64_t> t = proportional_guess(items, speeds);
  Int128 held = 0;
  for (std::int64_t v : t) held += v;
  Exchange exchange(t, speeds);
  Item last, first;
  for (; held > items && exchange.top(last); --held) exchange.remove(last.i);
  for (; held < items && exchange.next(first); ++held) exchange.add(first.i);
  // Now sum t = N; swap until every held item precedes every item not held.
  while (exchange.top(last) && exchange.next(first) && item_less(first, last, speeds)) {
    exchange.remove(last.i);
    exchange.add(first.i);
  }
  return t;
}

double iteration_time(const std::vector<std::int64_t>& counts, const std::vector<double>& speeds) {
  double t = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i)
    t = std::max(t, static_cast<double>(counts[i]) / speeds[i]);
  return t;
}

double iteration_time(const std::vector<double>& loads, const std::vector<double>& speeds) {
  double t = 0.0;
  for (std::size_t i = 0; i < loads.size(); ++i) t = std::max(t, loads[i] / speeds[i]);
  return t;
}

std::vector<double> as_loads(const std::vector<std::int64_t>& counts) {
  return std::vector<double>(counts.begin(), counts.end());
}

double balanced_time_bound(std::int64_t items, const std::vector<double>& speeds) {
  double total = 0.0;
  for (double s : speeds) total += s;
  return static_cast<double>(items) / total;
}

}  // namespace redist::balance
