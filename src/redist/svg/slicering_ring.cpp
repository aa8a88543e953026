#include "redist/svg/slicering_ring.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numbers>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {
namespace {

using slicering::Cluster;
using slicering::Solution;

constexpr double kNodeRadius = 20.0;
constexpr double kLabelMargin = 230.0;  // room for the processor labels left and right
constexpr double kCircleTop = 100.0;    // below the title lines and the legend
constexpr double kListColumn = 118.0;   // width of one unchosen processor's box
constexpr double kListRow = 26.0;
constexpr double kAlertLine = 18.0;   // an invalid solution's reason, in red under the subtitle
constexpr double kLegendLine = 17.0;  // the legend's outlined-member line

template <typename... Args>
void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string processor(std::size_t i) { return fmt::format("P{}", i); }

// Times beside the members: 4 significant digits are enough to compare them.
std::string short_number(double x) { return x == 0.0 ? "0" : fmt::format("{:.4g}", x); }

std::string cost_text(const Cluster& cluster, std::size_t i, std::size_t j) {
  const double a = cluster.cost(i, j), b = cluster.cost(j, i);
  if (a == b) return "c " + format_number(a);
  return fmt::format("c {} / {}", format_number(a), format_number(b));
}

// The circle: centre, radius (neighbours about 165 px apart, room for their labels along it) and
// each member's position.
struct Circle {
  double cx = 0.0, cy = 0.0, radius = 0.0;
  std::size_t q = 0;
  double angle(std::size_t k) const {
    return -std::numbers::pi / 2 +
           2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(q);
  }
  double x(std::size_t k, double r) const { return cx + r * std::cos(angle(k)); }
  double y(std::size_t k, double r) const { return cy + r * std::sin(angle(k)); }
};

// `shift`: how much lower than kCircleTop the circle starts (room for an alert and a legend line).
Circle circle_for(std::size_t q, double width, double shift = 0.0) {
  Circle c;
  c.q = q;
  c.radius =
      q <= 1 ? 0.0 : std::max(120.0, 165.0 * static_cast<double>(q) / (2 * std::numbers::pi));
  c.cx = width / 2;
  c.cy = kCircleTop + shift + 60.0 + c.radius;
  return c;
}

std::string title_line(const Cluster& cluster, const Solution& s, const std::string& title) {
  std::string line = fmt::format("{}: makespan (T_step) {}, q = {} of {}",
                                 s.algorithm.empty() ? "solution" : s.algorithm,
                                 format_number(s.makespan), s.ring.size(), cluster.size());
  line +=
      s.lower_bound > 0.0 ? ", lower bound " + format_number(*s.lower_bound) : ", no lower bound";
  line += s.optimal ? ", optimal: yes" : ", optimal: not proven";
  return title.empty() ? line : title + " — " + line;
}

void open_document(std::string& out, double width, double height) {
  put(out,
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\">\n<style>\n"
      "text{{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#222}}\n"
      ".title{{font-size:16px;font-weight:bold}}\n.subtitle{{font-size:12px;fill:#444}}\n"
      ".link{{stroke:#0072B2;stroke-width:2.5}}\n"
      ".cost{{font-size:10px;fill:#0b4f7c;text-anchor:middle;stroke:#fff;stroke-width:3px;"
      "paint-order:stroke;stroke-linejoin:round}}\n"
      ".node{{fill:#dcebf7;stroke:#0072B2;stroke-width:2}}\n"
      ".node.critical{{stroke:#D55E00;stroke-width:3.5}}\n"
      ".name{{font-size:12px;font-weight:bold;text-anchor:middle}}\n"
      ".detail{{font-size:11px}}\n.legend{{font-size:11px}}\n"
      ".unchosen{{fill:#f0f0f0;stroke:#c8c8c8}}\n.unchosen-text{{font-size:10px;fill:#888}}\n"
      ".alert{{font-size:12px;fill:#D00000}}\n.note{{font-size:11px;fill:#555}}\n"
      ".conflict{{fill:none;stroke:#D00000;stroke-width:2.5}}\n"
      "</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
      width, height);
}

// The links between ring neighbours (one for q = 2), each labelled with its costs just inside
// the circle.
void draw_links(std::string& out, const Circle& c, const Cluster& cluster, const Solution& s) {
  const std::size_t q = s.ring.size();
  const std::size_t links = q < 2 ? 0 : q == 2 ? 1 : q;
  for (std::size_t k = 0; k < links; ++k) {
    const std::size_t l = (k + 1) % q;
    const double x1 = c.x(k, c.radius), y1 = c.y(k, c.radius);
    const double x2 = c.x(l, c.radius), y2 = c.y(l, c.radius);
    const double mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    const std::string label = cost_text(cluster, s.ring[k], s.ring[l]);
    // Just inside the chord, far enough along the inward normal to clear the line (to the right
    // of the single link of a ring of two).
    const double d = std::hypot(mx - c.cx, my - c.cy);
    const double nx = d > 1.0 ? (c.cx - mx) / d : 1.0, ny = d > 1.0 ? (c.cy - my) / d : 0.0;
    const double shift = 6.0 + std::abs(nx) * text_width(label, 10.0) / 2 + std::abs(ny) * 6.0;
    const double lx = mx + nx * shift, ly = my + ny * shift;
    put(out,
        "<g><title>{0} and {1}: c[{0}][{1}] = {2}, c[{1}][{0}] = {3}</title><line class=\"link\" "
        "x1=\"{4:.1f}\" y1=\"{5:.1f}\" x2=\"{6:.1f}\" y2=\"{7:.1f}\"/>",
        processor(s.ring[k]), processor(s.ring[l]),
        format_number(cluster.cost(s.ring[k], s.ring[l])),
        format_number(cluster.cost(s.ring[l], s.ring[k])), x1, y1, x2, y2);
    put(out, "<text class=\"cost\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text></g>\n", lx, ly + 3.5,
        xml_escape(label));
  }
}

// The members an invalid solution's first violation names (ring positions), outlined in red.
void draw_conflict(std::string& out, const Circle& c, const std::vector<std::size_t>& positions) {
  for (std::size_t k : positions) {
    if (k >= c.q) continue;
    put(out, "<circle class=\"conflict\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"/>\n",
        c.x(k, c.radius), c.y(k, c.radius), kNodeRadius + 5.0);
  }
}

// Each member: a circle with its name, and outside the ring its w, share and time's two terms.
void draw_members(std::string& out, const Circle& c, const Cluster& cluster, const Solution& s) {
  const std::size_t q = s.ring.size();
  for (std::size_t k = 0; k < q; ++k) {
    const std::size_t i = s.ring[k];
    const double compute = s.alpha[k] * cluster.W * cluster.w[i];
    const double comm = slicering::ring_comm(cluster, s.ring, k);
    // Its time is T_step (a solution read from a document that states none has makespan 0).
    const bool critical = s.makespan > 0 && at_most(s.makespan, compute + comm);
    const double x = c.x(k, c.radius), y = c.y(k, c.radius);
    put(out, "<circle class=\"node{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"/>",
        critical ? " critical" : "", x, y, kNodeRadius);
    put(out, "<text class=\"name\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", x, y + 4.0,
        processor(i));
    const double cos = q <= 1 ? 1.0 : std::cos(c.angle(k)),
                 sin = q <= 1 ? 0.0 : std::sin(c.angle(k));
    const double r = c.radius + kNodeRadius + 8.0;
    const double lx = q <= 1 ? x + kNodeRadius + 8.0 : c.x(k, r);
    // Text away from the vertical axis: only a node right at the top or the bottom is centred, so
    // that the labels of two neighbours near the top or the bottom extend away from each other.
    const char* anchor = cos > 0.02 ? "start" : cos < -0.02 ? "end" : "middle";
    // Two lines: above the node at the top of the circle, below at the bottom, centred beside.
    const double top = q <= 1       ? y - 6.0
                       : sin < -0.3 ? c.y(k, r) - 18.0
                       : sin > 0.3  ? c.y(k, r) + 6.0
                                    : c.y(k, r) - 6.0;
    put(out,
        "<text class=\"detail\" x=\"{0:.1f}\" y=\"{1:.1f}\" text-anchor=\"{2}\">w {3}, α {4:.3g}%"
        "</text><text class=\"detail\" x=\"{0:.1f}\" y=\"{5:.1f}\" text-anchor=\"{2}\">compute {6}"
        " + comm {7}</text>\n",
        lx, top + 4.0, anchor, format_number(cluster.w[i]), 100.0 * s.alpha[k], top + 18.0,
        short_number(compute), short_number(comm));
  }
}

// The processors left out, as grey boxes in rows below the ring; returns the y below them.
double draw_unchosen(std::string& out, double top, double width, const Cluster& cluster,
                     const Solution& s) {
  std::vector<bool> chosen(cluster.size(), false);
  for (std::size_t i : s.ring) chosen[i] = true;
  const auto left_out = static_cast<std::size_t>(std::count(chosen.begin(), chosen.end(), false));
  if (left_out == 0) return top;
  put(out,
      "<text class=\"legend\" x=\"12\" y=\"{:.1f}\">not in the ring ({} processor{}, "
      "with their cycle-times):</text>\n",
      top, left_out, left_out == 1 ? "" : "s");
  const auto per_row = static_cast<std::size_t>(std::max(1.0, (width - 24.0) / kListColumn));
  std::size_t drawn = 0;
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    if (chosen[i]) continue;
    const std::size_t column = drawn % per_row, row = drawn / per_row;
    const double x = 12.0 + kListColumn * static_cast<double>(column);
    const double y = top + 10.0 + kListRow * static_cast<double>(row);
    put(out,
        "<rect class=\"unchosen\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"20\" "
        "rx=\"4\"/><text class=\"unchosen-text\" x=\"{:.1f}\" y=\"{:.1f}\">{} · w {}</text>\n",
        x, y, kListColumn - 8.0, x + 6.0, y + 14.0, processor(i), format_number(cluster.w[i]));
    ++drawn;
  }
  const std::size_t rows = (drawn + per_row - 1) / per_row;
  return top + 10.0 + kListRow * static_cast<double>(rows);
}

// The legend; `outlined`: a fourth line for the members outlined in red.
void draw_legend(std::string& out, double y, bool outlined) {
  if (outlined) {
    put(out,
        "<circle class=\"conflict\" cx=\"22\" cy=\"{:.1f}\" r=\"9\"/><text class=\"legend\" "
        "x=\"36\" y=\"{:.1f}\">outlined in red: a member the first violation names</text>\n",
        y + 47.0, y + 51.0);
  }
  put(out,
      "<circle class=\"node\" cx=\"22\" cy=\"{0:.1f}\" r=\"7\"/><text class=\"legend\" x=\"36\" "
      "y=\"{1:.1f}\">ring member, clockwise in ring order from the top: cycle-time w, share α, "
      "compute α W w + comm H (c to pred + c to succ)</text>\n"
      "<circle class=\"node critical\" cx=\"22\" cy=\"{2:.1f}\" r=\"7\"/><text class=\"legend\" "
      "x=\"36\" y=\"{3:.1f}\">its time is the makespan</text>\n"
      "<line class=\"link\" x1=\"12\" y1=\"{4:.1f}\" x2=\"32\" y2=\"{4:.1f}\"/><text "
      "class=\"legend\" x=\"36\" y=\"{5:.1f}\">link, with its cost c per unit of data (a / b: "
      "from the earlier member in ring order / back)</text>\n",
      y - 4.0, y, y + 13.0, y + 17.0, y + 30.0, y + 34.0);
}

// Why the ring cannot be drawn ("" when it can): no member, shares not one per member, a member
// that is no processor of the cluster, or (unless `twice_allowed`) one that appears twice.
std::string unfit_members(const Cluster& cluster, const Solution& s, bool twice_allowed) {
  if (s.ring.empty()) return "the ring is empty";
  if (s.alpha.size() != s.ring.size()) return "the shares are not one per ring member";
  std::vector<bool> seen(cluster.size(), false);
  for (std::size_t i : s.ring) {
    if (i >= cluster.size()) return "a ring member is no processor of the cluster";
    if (seen[i] && !twice_allowed) return fmt::format("processor {} is twice in the ring", i);
    seen[i] = true;
  }
  return "";
}

}  // namespace

void require_ring_picture_size(std::size_t processors, std::size_t ring_size) {
  if (processors <= kRingPictureMaxProcessors && ring_size <= kRingPictureMaxRing) return;
  throw OptionError(
      fmt::format("a ring picture shows at most {} processors with {} in the ring, this one would "
                  "have {} processors{}; omit --gantt or draw a smaller cluster",
                  kRingPictureMaxProcessors, kRingPictureMaxRing, processors,
                  ring_size > 0 ? fmt::format(", {} in the ring", ring_size) : ""),
      "gantt");
}

std::string slicering_ring_svg(const Cluster& cluster, const Solution& solution,
                               const std::string& title, const Conflict* conflict) {
  require_ring_picture_size(cluster.size(), solution.ring.size());
  const std::string unfit = unfit_members(cluster, solution, conflict != nullptr);
  if (!unfit.empty() && conflict == nullptr) throw InputError(unfit, "ring");
  const std::string heading = title_line(cluster, solution, title);
  const std::string alert = conflict != nullptr ? "invalid: " + conflict->reason : "";
  const bool outlined = unfit.empty() && conflict != nullptr && !conflict->entries.empty();
  const double shift = (alert.empty() ? 0.0 : kAlertLine) + (outlined ? kLegendLine : 0.0);
  const std::size_t q = unfit.empty() ? solution.ring.size() : 0;
  const double ring_width =
      q <= 1 ? 2 * kLabelMargin : 2 * (circle_for(q, 0).radius + kLabelMargin);
  const double width = std::max(
      {ring_width, text_width(heading, 16.0) + 40.0, text_width(alert, 12.0) + 40.0, 760.0});
  const Circle c = circle_for(q, width, shift);

  std::string body;
  put(body, "<text class=\"title\" x=\"12\" y=\"24\">{}</text>\n", xml_escape(heading));
  put(body,
      "<text class=\"subtitle\" x=\"12\" y=\"42\">W = {}, H = {}; T_step = max over the ring "
      "of compute + comm</text>\n",
      format_number(cluster.W), format_number(cluster.H));
  if (!alert.empty()) {
    put(body, "<text class=\"alert\" x=\"12\" y=\"60\">{}</text>\n", xml_escape(alert));
  }
  draw_legend(body, 62.0 + (alert.empty() ? 0.0 : kAlertLine), outlined);
  double bottom = c.cy + 16.0;
  if (unfit.empty()) {
    draw_links(body, c, cluster, solution);
    draw_members(body, c, cluster, solution);
    if (outlined) draw_conflict(body, c, conflict->entries);
    bottom = draw_unchosen(body, c.cy + c.radius + 70.0, width, cluster, solution);
  } else {
    put(body, "<text class=\"note\" x=\"12\" y=\"{:.1f}\">the ring is not drawn: {}</text>\n", c.cy,
        xml_escape(unfit));
  }

  std::string out;
  open_document(out, width, bottom + 16.0);
  out += body;
  out += "</svg>\n";
  return out;
}

}  // namespace redist::svg
