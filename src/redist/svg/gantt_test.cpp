#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "redist/ring/model.hpp"
#include "redist/svg/gantt.hpp"
#include "redist/svg/ring_gantt.hpp"
#include "redist/testing/xml_check.hpp"

namespace redist::svg {
namespace {

using ring::Direction;
using ring::Instance;
using ring::Run;
using ring::Schedule;

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

void expect_valid_svg(const std::string& svg) {
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  ASSERT_GE(svg.size(), 7u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(testkit::xml_problem(svg), "");
}

Instance ring_instance(std::size_t n, bool bidirectional, double cost_next = 1.0,
                       double cost_prev = 2.0) {
  Instance instance;
  instance.bidirectional = bidirectional;
  instance.loads.assign(n, 1);
  instance.targets.assign(n, 1);
  instance.cost_next.assign(n, cost_next);
  if (bidirectional) instance.cost_prev.assign(n, cost_prev);
  return instance;
}

Run run(std::int64_t from, Direction dir, double start, std::int64_t count, double period = 0.0) {
  Run r;
  r.from = from;
  r.dir = dir;
  r.start = start;
  r.count = count;
  r.period = period;
  return r;
}

TEST(XmlEscape, EscapesSpecialCharactersAndRepairsUtf8) {
  EXPECT_EQ(xml_escape("a<b & c>\"d'"), "a&lt;b &amp; c&gt;&quot;d&apos;");
  EXPECT_EQ(xml_escape("→P3 ×5"), "→P3 ×5");
  EXPECT_EQ(xml_escape(std::string("x\xff"
                                   "y")),
            "x\xEF\xBF\xBDy");
  EXPECT_EQ(xml_escape(std::string("a\x01"
                                   "b")),
            "a b");
}

TEST(NiceTicks, AreMultiplesOfA125StepAndIncludeZero) {
  for (double hi : {1.0, 7.0, 12.5, 99.0, 0.003, 1234.5, 1e15, 3.3e-7}) {
    const std::vector<double> ticks = nice_ticks(0.0, hi, 10);
    const double step = nice_step(0.0, hi, 10);
    ASSERT_FALSE(ticks.empty()) << hi;
    EXPECT_EQ(ticks.front(), 0.0) << hi;
    EXPECT_GE(ticks.size(), 4u) << hi;
    EXPECT_LE(ticks.size(), 12u) << hi;
    EXPECT_LE(ticks.back(), hi * (1 + 1e-9)) << hi;
    EXPECT_GT(ticks.back() + step, hi) << hi;  // the last tick is the last one that fits
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                std::abs(mantissa - 5) < 1e-9)
        << hi << " step " << step;
    for (std::size_t k = 0; k < ticks.size(); ++k) {
      EXPECT_NEAR(ticks[k], static_cast<double>(k) * step, 1e-9 * step) << hi;
    }
  }
  EXPECT_EQ(nice_ticks(0.0, 12.5), (std::vector<double>{0, 2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(nice_ticks(0.0, 1.0),
            (std::vector<double>{0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001,
                                 0.7000000000000001, 0.8, 0.9, 1}));
  // Negative ranges and degenerate input.
  const std::vector<double> around = nice_ticks(-3.0, 7.0, 10);
  EXPECT_EQ(around.front(), -3.0);
  EXPECT_NE(std::find(around.begin(), around.end(), 0.0), around.end());
  EXPECT_EQ(nice_ticks(5.0, 5.0, 10).front(), 5.0);
  EXPECT_EQ(nice_ticks(0.0, std::nan(""), 10), std::vector<double>{0.0});
}

TEST(FormatNumber, IsCompact) {
  EXPECT_EQ(format_number(12.5), "12.5");
  EXPECT_EQ(format_number(0.30000000000000004), "0.3");
  EXPECT_EQ(format_number(-0.0), "0");
  EXPECT_EQ(format_number(1e15), "1e+15");
}

TEST(GanttChart, GenericChartRendersRowsLanesBarsAndLegend) {
  GanttChart chart;
  chart.title = "demo";
  chart.row_labels = {"M", "W1"};
  chart.lane_labels = {"in", "out", "cpu"};
  chart.classes = {{"a", "#123456"}};
  chart.legend = {{"a", "things", false}};
  auto bar = [](std::size_t row, std::size_t lane, double start, double end, std::string label,
                bool hatched) {
    GanttBar b = span_bar(row, lane, start, end, std::move(label), "a");
    b.hatched = hatched;
    return b;
  };
  chart.bars = {bar(0, 2, 0.0, 3.0, "x", false), bar(1, 1, 1.0, 2.0, "y", true),
                bar(7, 0, 1.0, 2.0, "ignored: no such row", false)};
  const std::string svg = render_svg(chart);
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar"), 2u);
  EXPECT_EQ(count_of(svg, "class=\"lane-label\""), 6u);
  EXPECT_NE(svg.find(".bar.a,.swatch.a,.pill.a{fill:#123456}"), std::string::npos);
  EXPECT_NE(svg.find(">things<"), std::string::npos);
  // The forced hatched bar adds the hatched legend entry.
  EXPECT_NE(svg.find(chart.hatched_legend), std::string::npos);
  EXPECT_EQ(svg.find("no such row"), std::string::npos);
}

// n = 4, bidirectional, next costs 1, prev costs 2.
Schedule small_schedule() {
  Schedule s;
  s.algorithm = "light";
  s.transfers = {
      run(0, Direction::next, 0.0, 3),       // back to back: one bar per lane
      run(3, Direction::prev, 0.0, 2),       // 3 -> 2, back to back
      run(1, Direction::next, 3.0, 4, 3.0),  // spaced: 4 item rects per lane
      run(2, Direction::next, 1.0, 0),       // count 0: ignored
  };
  s.makespan = ring::schedule_makespan(ring_instance(4, true), s.transfers);
  s.lower_bound = 10.0;
  s.optimal = false;
  return s;
}

TEST(RingGantt, SmallScheduleHasTheExpectedBars) {
  const Instance instance = ring_instance(4, true);
  const Schedule schedule = small_schedule();
  EXPECT_EQ(schedule.makespan, 13.0);
  const std::string svg = ring_gantt_svg(instance, schedule, "small");
  expect_valid_svg(svg);
  // 2 + 2 solid bars, 2 x 4 items of the spaced run.
  EXPECT_EQ(count_of(svg, "<rect class=\"bar"), 12u);
  EXPECT_EQ(count_of(svg, "<rect class=\"span next\""), 2u + 1u);  // and the legend's sample
  EXPECT_EQ(count_of(svg, "hatched\" x="), 0u);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar next\""), 10u);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar prev\""), 2u);
  // Labels: arrow to the receiver on the send lane, from the sender on the receive lane.
  EXPECT_NE(svg.find(">→P1 ×3<"), std::string::npos);
  EXPECT_NE(svg.find(">←P0 ×3<"), std::string::npos);
  EXPECT_NE(svg.find(">→P2 ×2<"), std::string::npos);
  EXPECT_NE(svg.find(">←P3 ×2<"), std::string::npos);
  // Separators: 2 for the 3-item run, 1 for the 2-item run, each drawn on both lanes; and the
  // legend's sample of them, with one of the spaced items (dark items on a pale span).
  EXPECT_EQ(count_of(svg, "<path class=\"sep\""), 4u + 1u);
  EXPECT_NE(svg.find(">items sent back to back: a white line between two items<"),
            std::string::npos);
  EXPECT_NE(svg.find(">spaced items (period &gt; cost): each item dark, the waits between pale<"),
            std::string::npos);
  EXPECT_EQ(count_of(svg, "v14.0"), 6u);
  // Rows, lanes, title, markers.
  EXPECT_EQ(count_of(svg, "class=\"row-label\""), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NE(svg.find("class=\"row-label\" x=\"10\"", 0), std::string::npos);
    EXPECT_NE(svg.find(">P" + std::to_string(i) + "</text>"), std::string::npos) << i;
  }
  EXPECT_EQ(count_of(svg, ">send</text>"), 4u);
  EXPECT_EQ(count_of(svg, ">recv</text>"), 4u);
  EXPECT_NE(svg.find("small — light — makespan 13, lower bound 10 (30% above the bound)"),
            std::string::npos);
  EXPECT_NE(svg.find(">makespan 13<"), std::string::npos);
  EXPECT_NE(svg.find(">lower bound 10<"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<line class=\"marker\""), 2u);
  EXPECT_NE(svg.find("#0072B2"), std::string::npos);
  EXPECT_NE(svg.find("#D55E00"), std::string::npos);
  // Axis: ticks 0, 2, ..., 12 at the top and at the bottom, but for 10, under the lower bound's
  // line (its label gives the number).
  EXPECT_EQ(count_of(svg, "class=\"axis tick\""), 12u);
  EXPECT_EQ(count_of(svg, ">10</text>"), 0u);
  EXPECT_EQ(count_of(svg, ">0</text>"), 2u);
  EXPECT_EQ(count_of(svg, ">12</text>"), 2u);
}

TEST(RingGantt, ChartModelMatchesTheRuns) {
  const GanttChart chart = ring_gantt_chart(ring_instance(4, true), small_schedule(), "");
  ASSERT_EQ(chart.bars.size(), 6u);
  // The prev run from 3 to 2: send lane of P3, receive lane of P2, span [0, 4).
  const GanttBar& send = chart.bars[2];
  const GanttBar& recv = chart.bars[3];
  EXPECT_EQ(send.row, 3u);
  EXPECT_EQ(send.lane, 0u);
  EXPECT_EQ(recv.row, 2u);
  EXPECT_EQ(recv.lane, 1u);
  EXPECT_EQ(send.css_class, "prev");
  EXPECT_DOUBLE_EQ(send.end, 4.0);
  // The spaced run: [3, 3 + 3*3 + 1) = [3, 13).
  EXPECT_DOUBLE_EQ(chart.bars[4].start, 3.0);
  EXPECT_DOUBLE_EQ(chart.bars[4].end, 13.0);
  EXPECT_EQ(chart.bars[4].items, 4);
  EXPECT_DOUBLE_EQ(chart.bars[4].item_period, 3.0);
  EXPECT_EQ(chart.title, "light — makespan 13, lower bound 10 (30% above the bound)");
}

TEST(RingGantt, TitleEscapesAndReportsOptimality) {
  Instance instance = ring_instance(3, false, 2.5);
  Schedule schedule;
  schedule.algorithm = "unidirectional";
  schedule.transfers = {run(0, Direction::next, 0.0, 5)};
  schedule.makespan = 12.5;
  schedule.lower_bound = 12.5;
  schedule.optimal = true;
  const std::string svg = ring_gantt_svg(instance, schedule, "<run> & \"go\"");
  expect_valid_svg(svg);
  EXPECT_NE(svg.find("&lt;run&gt; &amp; &quot;go&quot; — unidirectional — makespan 12.5, lower "
                     "bound 12.5 (optimal)"),
            std::string::npos);
  EXPECT_EQ(svg.find("<run>"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<line class=\"marker\""), 1u);  // the bound equals the makespan
  EXPECT_EQ(svg.find("prev: "), std::string::npos);        // unidirectional: no prev legend
}

TEST(RingGantt, EmptyScheduleRendersAnAxisFromZeroToOne) {
  const Instance instance = ring_instance(2, false);
  Schedule schedule;
  schedule.algorithm = "auto";
  const std::string svg = ring_gantt_svg(instance, schedule, "");
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar"), 0u);
  EXPECT_EQ(count_of(svg, "class=\"row-label\""), 2u);
  EXPECT_EQ(count_of(svg, ">0</text>"), 2u);
  EXPECT_EQ(count_of(svg, ">1</text>"), 2u);
  EXPECT_NE(svg.find("auto — makespan 0"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<line class=\"marker\""), 0u);  // no makespan line at 0
}

TEST(RingGantt, HugeRunsStaySmallAndFast) {
  const Instance instance = ring_instance(3, true, 1.0, 1.0);
  Schedule schedule;
  schedule.algorithm = "heuristic";
  const std::int64_t huge = 1'000'000'000'000'000;  // 10^15
  schedule.transfers = {run(0, Direction::next, 0.0, huge),
                        run(1, Direction::prev, 0.0, huge, 2.0)};
  schedule.makespan = ring::schedule_makespan(instance, schedule.transfers);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string svg = ring_gantt_svg(instance, schedule, "");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  expect_valid_svg(svg);
  EXPECT_LT(svg.size(), 100'000u);
  EXPECT_LT(seconds, 1.0);
  EXPECT_EQ(count_of(svg, "<path class=\"sep\""), 0u);  // items far below 2 px apart
  EXPECT_EQ(count_of(svg, "<rect class=\"bar next\""), 2u);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar prev hatched\""), 2u);
  EXPECT_NE(svg.find(">→P0 ×1000000000000000 (period 2)<"), std::string::npos);
}

TEST(RingGantt, SpacedRunsOverTheItemLimitAreHatched) {
  const Instance instance = ring_instance(2, false);
  Schedule schedule;
  schedule.transfers = {run(0, Direction::next, 0.0, kMaxItemsDrawn, 2.0)};
  std::string svg = ring_gantt_svg(instance, schedule, "");
  EXPECT_EQ(count_of(svg, "<rect class=\"bar next\""), 2u * kMaxItemsDrawn);  // 4.9 px apart
  schedule.transfers[0].count = kMaxItemsDrawn + 1;
  svg = ring_gantt_svg(instance, schedule, "");
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar next hatched\""), 2u);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar next\""), 0u);
}

TEST(RingGantt, SeparatorsOnlyWhenAtLeastTwoPixelsApart) {
  const Instance instance = ring_instance(2, false);
  Schedule schedule;
  schedule.transfers = {run(0, Direction::next, 0.0, 400)};  // 2.45 px per item
  std::string svg = ring_gantt_svg(instance, schedule, "");
  EXPECT_EQ(count_of(svg, "v14.0"), 2u * 399u);
  schedule.transfers[0].count = 600;  // 1.6 px per item
  svg = ring_gantt_svg(instance, schedule, "");
  EXPECT_EQ(count_of(svg, "v14.0"), 0u);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar next\""), 2u);
}

TEST(RingGantt, NarrowBarsGetTheShortLabel) {
  const Instance instance = ring_instance(2, false);
  Schedule schedule;
  // Horizon 30: 32.7 px per unit. "→P1 ×1" needs about 43 px, "→P1" about 31 px.
  schedule.transfers = {run(0, Direction::next, 0.0, 1), run(1, Direction::next, 1.0, 29)};
  const std::string svg = ring_gantt_svg(instance, schedule, "");
  EXPECT_NE(svg.find(">→P1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">←P0</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">→P1 ×1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">→P0 ×29</text>"), std::string::npos);
}

TEST(RingGantt, InvalidRunsAreSkippedWithANote) {
  const Instance instance = ring_instance(3, false);
  Schedule schedule;
  schedule.transfers = {run(0, Direction::next, 0.0, 2), run(5, Direction::next, 0.0, 1),
                        run(-1, Direction::next, 0.0, 1), run(1, Direction::prev, 0.0, 1),
                        run(2, Direction::next, 0.0, -4)};
  schedule.makespan = 2.0;
  const std::string svg = ring_gantt_svg(instance, schedule, "");
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar"), 2u);
  EXPECT_NE(svg.find("note: 4 runs not drawn"), std::string::npos);
}

TEST(RingGantt, StatedMakespanThatDiffersIsNoted) {
  const Instance instance = ring_instance(2, false);
  Schedule schedule;
  schedule.transfers = {run(0, Direction::next, 0.0, 2)};
  schedule.makespan = 3.0;
  const std::string svg = ring_gantt_svg(instance, schedule, "");
  EXPECT_NE(svg.find("stated makespan 3 differs from the end of the last item, 2"),
            std::string::npos);
}

// At the chart's size limits (kGanttMaxProcessors, kGanttMaxRuns).
TEST(RingGantt, ManyRunsOnManyProcessorsAreLinear) {
  const std::size_t n = kGanttMaxProcessors;
  const Instance instance = ring_instance(n, true, 1.0, 1.0);
  Schedule schedule;
  schedule.algorithm = "heuristic";
  for (std::size_t k = 0; k < kGanttMaxRuns; ++k) {
    const auto from = static_cast<std::int64_t>(k % n);
    const std::size_t round = k / n;
    const double start = static_cast<double>(round) * 10.0;
    schedule.transfers.push_back(
        run(from, k % 2 == 0 ? Direction::next : Direction::prev, start, 5, k % 3 == 0 ? 2.0 : 0));
  }
  schedule.makespan = ring::schedule_makespan(instance, schedule.transfers);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string svg = ring_gantt_svg(instance, schedule, "");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(count_of(svg, "class=\"row-label\""), n);
  EXPECT_LT(svg.size(), 200'000u * 1000u);  // about 1 kB per run at most
}

TEST(RingGantt, LargeRingStaysValidAndRowsKeepTheirHeight) {
  const std::size_t n = 200;
  const Instance instance = ring_instance(n, false);
  Schedule schedule;
  for (std::size_t i = 0; i < n; ++i) {
    schedule.transfers.push_back(run(static_cast<std::int64_t>(i), Direction::next, 0.0, 1));
  }
  const std::string svg = ring_gantt_svg(instance, schedule, "");
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "class=\"row-label\""), n);
  // height >= n rows * 2 lanes * 14 px
  const std::size_t at = svg.find("height=\"");
  ASSERT_NE(at, std::string::npos);
  EXPECT_GE(std::stod(svg.substr(at + 8)), static_cast<double>(n) * 2 * 14);
}

// A 6-processor bidirectional schedule with runs of both directions and a spaced run. Writes it
// to $REDIST_GANTT_EXAMPLE when that is set (to look at it).
TEST(RingGantt, ExampleBidirectionalSchedule) {
  Instance instance = ring_instance(6, true);
  instance.cost_next = {1.0, 1.5, 1.0, 2.0, 1.0, 1.0};
  instance.cost_prev = {1.0, 1.0, 2.5, 1.0, 1.0, 1.0};
  Schedule schedule;
  schedule.algorithm = "light";
  schedule.transfers = {
      run(0, Direction::next, 0.0, 4),        // P0 -> P1
      run(1, Direction::next, 1.5, 3, 2.0),   // P1 -> P2, forwarded at the pace of P0's link
      run(3, Direction::prev, 7.0, 2),        // P3 -> P2
      run(3, Direction::next, 0.0, 3),        // P3 -> P4
      run(5, Direction::prev, 6.0, 1),        // P5 -> P4
      run(0, Direction::prev, 4.0, 2),        // P0 -> P5
      run(2, Direction::prev, 7.5, 1),        // P2 -> P1
      run(4, Direction::next, 9.0, 60, 0.0),  // P4 -> P5, dense back to back
  };
  schedule.makespan = ring::schedule_makespan(instance, schedule.transfers);
  schedule.lower_bound = 60.0;
  schedule.optimal = false;
  const std::string svg = ring_gantt_svg(instance, schedule, "example");
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "class=\"row-label\""), 6u);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar"), 2u * 7 + 2u * 3);
  if (const char* path = std::getenv("REDIST_GANTT_EXAMPLE")) {
    std::ofstream(path) << svg;
  }
}

TEST(GanttConflict, OutlinesTheNamedBarsAndStatesTheReason) {
  GanttChart chart;
  chart.row_labels = {"P0", "P1"};
  chart.bars = {span_bar(0, 0, 0, 1, "a", ""), span_bar(1, 0, 1, 2, "b", "")};
  mark_conflict(chart, Conflict{"transfer 1: late", {1}}, {0, 1});
  const std::string svg = render_svg(chart);
  EXPECT_NE(svg.find(">invalid: transfer 1: late<"), std::string::npos);
  EXPECT_EQ(testkit::count_of(svg, "<rect class=\"conflict\""), 2u);  // bar b and the legend
}

TEST(GanttBands, StackedBandsFillTheirShareOfATallerLane) {
  GanttChart chart;
  chart.row_labels = {"P0"};
  chart.lane_height = 40;
  GanttBar top = span_bar(0, 0, 0, 1, "", "");
  top.band_bottom = 0.25;
  GanttBar rest = span_bar(0, 0, 0, 1, "", "");
  rest.band_top = 0.25;
  chart.bars = {top, rest};
  const std::string svg = render_svg(chart);
  EXPECT_NE(svg.find("height=\"9.5\""), std::string::npos) << svg;   // (40 - 2) / 4
  EXPECT_NE(svg.find("height=\"28.5\""), std::string::npos) << svg;  // the other 3/4
}

// A chart of one row with a bar per (start, end) on lane 0, each labelled `label`.
GanttChart one_row(const std::vector<std::pair<double, double>>& spans, const std::string& label) {
  GanttChart chart;
  chart.row_labels = {"P0"};
  chart.lane_labels = {"send"};
  for (const auto& [start, end] : spans)
    chart.bars.push_back(span_bar(0, 0, start, end, label, ""));
  return chart;
}

TEST(GanttText, NoTextIsSmallerThanElevenPixels) {
  GanttChart chart = one_row({{0, 10}}, "a label");
  chart.markers.push_back({10, "makespan", true, "#222222"});
  chart.notes.push_back("a note");
  const std::string svg = render_svg(chart);
  std::size_t sizes = 0;
  for (auto at = svg.find("font-size:"); at != std::string::npos;
       at = svg.find("font-size:", at + 1)) {
    ++sizes;
    EXPECT_GE(std::stod(svg.substr(at + 10)), 11.0) << svg.substr(at - 20, 40);
  }
  EXPECT_GE(sizes, 8u);
}

TEST(GanttText, LabelsOfOverlappingBarsAreNotDrawnOnTopOfEachOther) {
  // Three bars at the same place: one label; a fourth bar further on keeps its own.
  const std::string svg = render_svg(one_row({{0, 10}, {0, 10}, {1, 9}, {50, 60}}, "label"));
  EXPECT_EQ(count_of(svg, ">label</text>"), 2u);
}

TEST(GanttText, ALabelThatDoesNotFitIsLeftOut) {
  GanttBar bar = span_bar(0, 0, 0, 1, "far too long a label", "");
  bar.short_label = "also too long";
  GanttChart chart = one_row({{0, 1000}}, "");
  chart.bars.push_back(bar);
  const std::string svg = render_svg(chart);
  EXPECT_EQ(count_of(svg, "<text class=\"lbl"), 0u);
}

TEST(GanttAxis, NoTickNumberUnderAMarkerLine) {
  GanttChart chart = one_row({{0, 10}}, "");
  chart.markers.push_back({10.05, "makespan", true, "#222222"});
  const std::string with_marker = render_svg(chart);
  // 6 ticks (0, 2, ..., 10) at the top and the bottom of the rows, but 10's are under the line.
  EXPECT_EQ(count_of(with_marker, "class=\"axis tick\""), 2u * 5u);
  chart.markers.clear();
  chart.horizon = 10.05;
  EXPECT_EQ(count_of(render_svg(chart), "class=\"axis tick\""), 2u * 6u);
}

TEST(GanttLead, TheLeadingPartOfABarIsHatchedAndInTheLegend) {
  GanttChart chart = one_row({{0, 10}}, "");
  EXPECT_EQ(count_of(render_svg(chart), "class=\"lead\""), 0u);
  chart.bars[0].lead = 2;
  const std::string svg = render_svg(chart);
  EXPECT_EQ(count_of(svg, "<rect class=\"lead\""), 2u);  // the bar's and the legend's
  EXPECT_NE(svg.find(chart.lead_legend), std::string::npos);
}

TEST(GanttSections, OneBoundaryPerSectionAndTheLabelsThatFit) {
  GanttChart chart = one_row({{0, 100}}, "");
  chart.sections = {{0, "step 1", "1"}, {50, "step 2", "2"}, {99.5, "step 3", "3"}};
  const std::string svg = render_svg(chart);
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "<path class=\"section\""), 3u);
  EXPECT_NE(svg.find(">step 1<"), std::string::npos);
  EXPECT_NE(svg.find(">step 2<"), std::string::npos);
  EXPECT_EQ(svg.find(">3<"), std::string::npos);  // 5 px wide: no room even for "3"
}

TEST(GanttStrip, CountsOverTimeAgainstALimit) {
  GanttChart chart = one_row({{0, 10}}, "");
  GanttStrip strip;
  strip.label = "backbone";
  strip.caption = "what it shows";
  strip.limit = 1;
  strip.counts = {{0, 1}, {2, 2}, {4, 0}, {6, 1}};
  chart.strips.push_back(strip);
  const std::string svg = render_svg(chart);
  expect_valid_svg(svg);
  EXPECT_EQ(count_of(svg, "<rect class=\"strip-bar\""), 2u);
  EXPECT_EQ(count_of(svg, "<rect class=\"strip-bar over\""), 1u);
  EXPECT_EQ(count_of(svg, "<line class=\"strip-limit\""), 1u);
  EXPECT_NE(svg.find(">what it shows<"), std::string::npos);
}

}  // namespace
}  // namespace redist::svg
