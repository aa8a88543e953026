#include "redist/svg/dlt_gantt.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::svg {

namespace {

constexpr double kBandGap = 0.06;  // share of a lane left between two stacked transfers

bool known(const dlt::Instance& in, std::int64_t worker) {
  return worker >= 0 && static_cast<std::uint64_t>(worker) < in.b.size();
}

// A transfer that can be drawn: two known workers, an amount > 0 and an end that is finite.
bool drawable(const dlt::Instance& in, const dlt::Transfer& t) {
  return known(in, t.from) && known(in, t.to) && t.amount > 0 && t.rate > 0 &&
         std::isfinite(t.amount / t.rate);
}

// Each worker's finish time: max(final load / s, end of its last reception).
std::vector<double> finish_times(const dlt::Instance& in, const dlt::Schedule& s) {
  const std::size_t m = in.b.size();
  std::vector<double> load = in.alpha, last_reception(m, 0.0), finish(m, 0.0);
  for (const dlt::Transfer& t : s.transfers) {
    if (!drawable(in, t)) continue;
    const auto from = static_cast<std::size_t>(t.from), to = static_cast<std::size_t>(t.to);
    load[from] -= t.amount;
    load[to] += t.amount;
    last_reception[to] = std::max(last_reception[to], t.amount / t.rate);
  }
  for (std::size_t i = 0; i < m; ++i) {
    finish[i] = std::max(std::max(load[i], 0.0) / in.s[i], last_reception[i]);
  }
  return finish;
}

// "lp7: makespan 3.6, lower bound 3.6, optimal: yes" (the bound when stated).
std::string summary(const dlt::Schedule& s) {
  std::string line = "lp7: makespan " + format_number(s.makespan);
  if (s.lower_bound > 0.0) line += ", lower bound " + format_number(*s.lower_bound);
  line += s.optimal ? ", optimal: yes" : ", optimal: not proven";
  return line;
}

// The transfers as stacked bands: on each lane, each transfer as high as its rate's share of the
// worker's bandwidth, in the order of the schedule. Returns the latest end.
double add_transfers(GanttChart& chart, std::vector<std::size_t>& transfer_of,
                     const dlt::Instance& in, const dlt::Schedule& s) {
  const std::size_t m = in.b.size();
  std::vector<double> used_send(m, 0.0), used_recv(m, 0.0);
  double latest = 0.0;
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const dlt::Transfer& t = s.transfers[k];
    if (!drawable(in, t)) continue;
    const auto from = static_cast<std::size_t>(t.from), to = static_cast<std::size_t>(t.to);
    const double end = t.amount / t.rate;
    latest = std::max(latest, end);
    const std::string detail =
        fmt::format("{} at rate {}", format_number(t.amount), format_number(t.rate));
    const std::string tooltip = fmt::format(
        "P{} → P{}: {} from 0 to {} ({:.3g}% of b{} = {}, {:.3g}% of b{} = {})", from, to, detail,
        format_number(end), 100.0 * t.rate / in.b[from], from, format_number(in.b[from]),
        100.0 * t.rate / in.b[to], to, format_number(in.b[to]));
    const auto add = [&](std::size_t row, std::size_t lane, double& used, std::string label,
                         std::string short_label) {
      const double share = t.rate / in.b[row];
      GanttBar bar = span_bar(row, lane, 0.0, end, std::move(label), lane == 0 ? "send" : "recv");
      bar.short_label = std::move(short_label);
      bar.tooltip = tooltip;
      bar.band_top = std::min(used, 1.0);
      bar.band_bottom = std::min(used + share * (1.0 - kBandGap), 1.0);
      used += share;
      chart.bars.push_back(std::move(bar));
      transfer_of.push_back(k);
    };
    add(from, 0, used_send[from], fmt::format("→P{}: {}", to, detail), fmt::format("→P{}", to));
    add(to, 1, used_recv[to], fmt::format("←P{}: {}", from, detail), fmt::format("←P{}", from));
  }
  return latest;
}

}  // namespace

void require_dlt_gantt_size(std::size_t workers, std::size_t transfers) {
  require_chart_size({"workers", kDltGanttMaxWorkers, "transfers", kDltGanttMaxTransfers}, workers,
                     transfers, "gantt", "omit --gantt or draw a smaller instance");
}

std::string dlt_gantt_svg(const dlt::Instance& in, const dlt::Schedule& s, const std::string& title,
                          const Conflict* conflict) {
  const std::size_t m = in.b.size();
  GanttChart chart;
  chart.lane_height = 30.0;
  for (std::size_t i = 0; i < m; ++i) {
    chart.row_labels.push_back(fmt::format("P{}", i));
  }
  chart.lane_labels = {"send", "recv", "compute"};
  chart.classes = {{"send", "#0072B2"}, {"recv", "#E69F00"}, {"compute", "#009E73"}};
  chart.legend = {
      {"send", "send: a transfer at its constant rate; height: the rate's share of b_i", false},
      {"recv", "recv: the same transfer arriving (share of the receiver's b_i)", false},
      {"compute", "compute: until the worker's last unit of load is done", false}};
  std::vector<std::size_t> transfer_of;
  const double latest = add_transfers(chart, transfer_of, in, s);
  const std::vector<double> finish = finish_times(in, s);
  for (std::size_t i = 0; i < m; ++i) {
    if (!(finish[i] > 0)) continue;
    GanttBar bar = span_bar(i, 2, 0.0, finish[i], "compute", "compute");
    bar.tooltip = fmt::format("P{} computes until {} (s = {}, b = {})", i, format_number(finish[i]),
                              format_number(in.s[i]), format_number(in.b[i]));
    chart.bars.push_back(std::move(bar));
    transfer_of.push_back(std::numeric_limits<std::size_t>::max());
  }
  chart.title = title.empty() ? summary(s) : title + " — " + summary(s);
  chart.subtitle = fmt::format(
      "divisible load on a switch: {} worker{}, {} transfer{}, all from time 0; a full lane "
      "is the worker's whole bandwidth b_i",
      m, m == 1 ? "" : "s", s.transfers.size(), s.transfers.size() == 1 ? "" : "s");
  const double makespan = s.makespan > 0 && std::isfinite(s.makespan) ? s.makespan : latest;
  chart.markers.push_back({makespan, "makespan " + format_number(makespan), true, "#222222"});
  chart.horizon = makespan;
  if (conflict != nullptr) mark_conflict(chart, *conflict, transfer_of);
  return render_svg(chart);
}

}  // namespace redist::svg
