#include "redist/svg/star_gantt.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

namespace {

// "bba: makespan 12, lower bound 10, optimal: not proven" (the bound and the claim when known).
std::string summary(const star::Schedule& s) {
  std::string line = fmt::format("{}: makespan {}", s.algorithm.empty() ? "schedule" : s.algorithm,
                                 format_number(s.makespan));
  if (s.lower_bound > 0.0) line += ", lower bound " + format_number(*s.lower_bound);
  line += s.optimal ? ", optimal: yes" : ", optimal: not proven";
  return line;
}

}  // namespace

void require_star_gantt_size(std::size_t workers, std::size_t transfers) {
  require_chart_size({"workers", kStarGanttMaxWorkers, "transfers", kStarGanttMaxTransfers},
                     workers, transfers, "gantt", "omit --gantt or draw a smaller instance");
}

std::string star_gantt_svg(const star::Instance& in, const star::Schedule& s,
                           const std::string& title, const Conflict* conflict) {
  const std::size_t m = in.workers();
  GanttChart chart;
  chart.title = title.empty() ? summary(s) : title + " — " + summary(s);
  chart.subtitle = fmt::format("master and {} worker{}, {} task{} moved", m, m == 1 ? "" : "s",
                               s.transfers.size(), s.transfers.size() == 1 ? "" : "s");
  chart.row_labels.push_back("master");
  for (std::size_t i = 0; i < m; ++i) chart.row_labels.push_back(fmt::format("P{}", i));
  chart.lane_labels = {"send", "recv", "compute"};
  chart.classes = {{"to-master", "#0072B2"},
                   {"from-master", "#D55E00"},
                   {"compute", "#009E73"},
                   {"compute-received", "#CC79A7"}};
  chart.legend = {
      {"to-master", "first hop: Pi sends the task to the master (send on Pi, recv on the master)",
       false},
      {"from-master", "second hop: the master forwards it to Pj (send on the master, recv on Pj)",
       false},
      {"compute", "compute: own tasks kept", false},
      {"compute-received", "compute: received tasks", false}};
  std::vector<std::size_t> transfer_of;
  std::vector<std::int64_t> sent(m, 0);
  std::vector<std::vector<double>> arrivals(m);
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const star::Transfer& t = s.transfers[k];
    if (t.from < 0 || t.to < 0 || static_cast<std::size_t>(t.from) >= m ||
        static_cast<std::size_t>(t.to) >= m) {
      continue;
    }
    const std::size_t from = static_cast<std::size_t>(t.from), to = static_cast<std::size_t>(t.to);
    // The text summary's words: "P0 -> P1" (with an arrow), shortened when the bar is narrow.
    const std::string label = fmt::format("P{} → P{}", from, to);
    const std::string short_label = fmt::format("{}→{}", from, to);
    const double a_end = t.send_start + in.c[from], b_end = t.forward_start + in.c[to];
    const auto add = [&](std::size_t row, std::size_t lane, double start, double end,
                         const char* hop) {
      GanttBar bar = span_bar(row, lane, start, end, label, hop);
      bar.short_label = short_label;
      bar.tooltip = fmt::format("task {}: {}, {} hop, from {} to {}", k, label,
                                hop == std::string("to-master") ? "first" : "second",
                                format_number(start), format_number(end));
      chart.bars.push_back(std::move(bar));
      transfer_of.push_back(k);
    };
    add(1 + from, 0, t.send_start, a_end, "to-master");
    add(0, 1, t.send_start, a_end, "to-master");
    add(0, 0, t.forward_start, b_end, "from-master");
    add(1 + to, 1, t.forward_start, b_end, "from-master");
    ++sent[from];
    arrivals[to].push_back(b_end);
  }
  for (std::size_t i = 0; i < m; ++i) {
    const std::int64_t kept = in.loads[i] - std::min(sent[i], in.loads[i]);
    double end = static_cast<double>(kept) * in.w[i];
    if (kept > 0) {
      GanttBar own = span_bar(1 + i, 2, 0.0, end, fmt::format("{} own", kept), "compute");
      own.items = kept;
      own.item_length = in.w[i];
      own.item_period = in.w[i];
      chart.bars.push_back(own);
      transfer_of.push_back(std::numeric_limits<std::size_t>::max());
    }
    std::sort(arrivals[i].begin(), arrivals[i].end());
    for (double a : arrivals[i]) {
      const double start = std::max(end, a);
      end = start + in.w[i];
      chart.bars.push_back(span_bar(1 + i, 2, start, end, "recv'd", "compute-received"));
      transfer_of.push_back(std::numeric_limits<std::size_t>::max());
    }
  }
  chart.markers.push_back({s.makespan, "makespan", true, "#222222"});
  if (s.lower_bound > 0.0 && s.lower_bound < s.makespan) {
    chart.markers.push_back({*s.lower_bound, "lower bound", false, "#555555"});
  }
  chart.horizon = s.makespan;
  if (conflict != nullptr) mark_conflict(chart, *conflict, transfer_of);
  return render_svg(chart);
}

}  // namespace redist::svg
