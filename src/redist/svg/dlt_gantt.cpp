#include "redist/svg/dlt_gantt.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

namespace {

// Each worker's finish time: max(final load / s, end of its last reception).
std::vector<double> finish_times(const dlt::Instance& in, const dlt::Schedule& s) {
  const std::size_t m = in.b.size();
  std::vector<double> load = in.alpha, last_reception(m, 0.0), finish(m, 0.0);
  for (const dlt::Transfer& t : s.transfers) {
    const auto from = static_cast<std::size_t>(t.from), to = static_cast<std::size_t>(t.to);
    load[from] -= t.amount;
    load[to] += t.amount;
    if (t.amount > 0) last_reception[to] = std::max(last_reception[to], t.amount / t.rate);
  }
  for (std::size_t i = 0; i < m; ++i) {
    finish[i] = std::max(std::max(load[i], 0.0) / in.s[i], last_reception[i]);
  }
  return finish;
}

}  // namespace

void require_dlt_gantt_size(std::size_t workers, std::size_t transfers) {
  require_chart_size({"workers", kDltGanttMaxWorkers, "transfers", kDltGanttMaxTransfers}, workers,
                     transfers, "gantt", "omit --gantt or draw a smaller instance");
}

std::string dlt_gantt_svg(const dlt::Instance& in, const dlt::Schedule& s,
                          const std::string& title) {
  const std::size_t m = in.b.size();
  GanttChart chart;
  for (std::size_t i = 0; i < m; ++i) chart.row_labels.push_back(fmt::format("P{}", i));
  chart.lane_labels = {"send", "recv", "compute"};
  chart.classes = {{"send", "#0072B2"}, {"recv", "#E69F00"}, {"compute", "#009E73"}};
  chart.legend = {
      {"send", "send: a transfer at its constant rate, labelled with its amount", false},
      {"recv", "recv: the same transfer arriving", false},
      {"compute", "compute: until the worker's last unit of load is done", false}};
  // Transfers of one worker run at once from 0: on each lane, one bar per end time (labels of
  // transfers ending together joined), the longer drawn first so that the shorter stay visible.
  std::map<std::tuple<std::size_t, std::size_t, double>, std::string> lanes;
  double makespan = 0.0;
  for (const dlt::Transfer& t : s.transfers) {
    if (!(t.amount > 0)) continue;
    const double end = t.amount / t.rate;
    const std::string label = fmt::format("{}>{}: {}", t.from, t.to, format_number(t.amount));
    for (const auto& key : {std::tuple{static_cast<std::size_t>(t.from), std::size_t{0}, -end},
                            std::tuple{static_cast<std::size_t>(t.to), std::size_t{1}, -end}}) {
      std::string& text = lanes[key];
      text += (text.empty() ? "" : ", ") + label;
    }
    makespan = std::max(makespan, end);
  }
  for (const auto& [key, label] : lanes) {
    const auto& [row, lane, minus_end] = key;
    chart.bars.push_back(span_bar(row, lane, 0.0, -minus_end, label, lane == 0 ? "send" : "recv"));
  }
  const std::vector<double> finish = finish_times(in, s);
  for (std::size_t i = 0; i < m; ++i) {
    if (finish[i] > 0) chart.bars.push_back(span_bar(i, 2, 0.0, finish[i], "compute", "compute"));
    makespan = std::max(makespan, finish[i]);
  }
  const std::string summary = "makespan " + format_number(makespan);
  chart.title = title.empty() ? summary : title + " — " + summary;
  chart.subtitle =
      fmt::format("divisible load on a switch: {} worker{}, {} transfer{}", m, m == 1 ? "" : "s",
                  s.transfers.size(), s.transfers.size() == 1 ? "" : "s");
  chart.markers.push_back({makespan, "makespan", true, "#222222"});
  chart.horizon = makespan;
  return render_svg(chart);
}

}  // namespace redist::svg
