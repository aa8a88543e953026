#include "sim/platform_svg.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace redist::sim {
namespace {

constexpr double kPlot = 800;   // side of the drawing area, px
constexpr double kMargin = 30;  // around it
constexpr double kLegend = 70;  // below it

const char* level_colour(Level level) {
  return level == Level::wan ? "#b2182b" : level == Level::man ? "#2166ac" : "#1b7837";
}

struct EdgeStyle {
  const char* colour;
  double width;
  const char* dash;
};

EdgeStyle edge_style(LinkClass c) {
  switch (c) {
    case LinkClass::wan:
      return {"#b2182b", 2.5, ""};
    case LinkClass::man:
      return {"#2166ac", 1.8, ""};
    case LinkClass::lan:
      return {"#1b7837", 1.0, ""};
    case LinkClass::man_wan:
      return {"#e08214", 1.5, " stroke-dasharray=\"6 3\""};
    case LinkClass::lan_man:
      return {"#8c8c8c", 1.0, " stroke-dasharray=\"3 2\""};
  }
  return {"#000000", 1.0, ""};
}

}  // namespace

std::string platform_svg(const Graph& graph, const std::vector<std::int64_t>& ring) {
  std::int64_t x0 = 0, y0 = 0, x1 = 1, y1 = 1;
  if (!graph.nodes.empty()) {
    x0 = x1 = graph.nodes.front().x;
    y0 = y1 = graph.nodes.front().y;
  }
  for (const Node& n : graph.nodes) {
    x0 = std::min(x0, n.x);
    x1 = std::max(x1, n.x);
    y0 = std::min(y0, n.y);
    y1 = std::max(y1, n.y);
  }
  const double scale = kPlot / static_cast<double>(std::max({x1 - x0, y1 - y0, std::int64_t{1}}));
  const auto px = [&](const Node& n) {
    return std::array<double, 2>{kMargin + scale * static_cast<double>(n.x - x0),
                                 kMargin + 20 + scale * static_cast<double>(y1 - n.y)};
  };
  const double width = kPlot + 2 * kMargin, height = kPlot + 2 * kMargin + 20 + kLegend;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"13\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  out += fmt::format(
      "<text x=\"{}\" y=\"22\" font-size=\"15\">Tiers {} (seed {}): {} nodes, {} hosts, {} "
      "edges</text>\n",
      kMargin, format_tiers(graph.params), graph.params.seed, graph.nodes.size(),
      host_indices(graph).size(), graph.edges.size());
  for (const Edge& e : graph.edges) {
    const auto a = px(graph.nodes[static_cast<std::size_t>(e.a)]);
    const auto b = px(graph.nodes[static_cast<std::size_t>(e.b)]);
    const EdgeStyle s = edge_style(e.link_class);
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"{}\"{}/>\n",
        a[0], a[1], b[0], b[1], s.colour, s.width, s.dash);
  }
  for (const Node& n : graph.nodes) {
    const auto p = px(n);
    const double r = n.level == Level::wan ? 5 : n.level == Level::man ? 4 : 3;
    out += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" "
        "stroke-width=\"1.2\"><title>{}</title></circle>\n",
        p[0], p[1], r, n.host ? level_colour(n.level) : "white", level_colour(n.level),
        node_name(n));
  }
  // The ring's hosts: a black ring around each, and its position in the ring beside it, at the
  // first corner (up right, up left, down right, down left) whose box meets no number placed
  // before (hosts of one LAN sit close together).
  std::vector<std::array<double, 4>> placed;  // boxes: x0, y0, x1, y1
  for (std::size_t k = 0; k < ring.size(); ++k) {
    if (ring[k] < 0 || static_cast<std::size_t>(ring[k]) >= graph.nodes.size()) continue;
    const auto p = px(graph.nodes[static_cast<std::size_t>(ring[k])]);
    const double w = 0.75 * 11 * static_cast<double>(fmt::format("{}", k).size());
    std::array<double, 4> box{};
    for (const auto& [dx, dy] : {std::pair{9.0, -6.0},
                                 {-9.0 - w, -6.0},
                                 {9.0, 15.0},
                                 {-9.0 - w, 15.0},
                                 {9.0, 26.0},
                                 {-9.0 - w, 26.0}}) {
      box = {p[0] + dx, p[1] + dy - 10, p[0] + dx + w, p[1] + dy + 3};
      const bool free = std::none_of(placed.begin(), placed.end(), [&](const auto& b) {
        return box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3];
      });
      if (free) break;
    }
    placed.push_back(box);
    out += fmt::format(
        "<circle cx=\"{0:.1f}\" cy=\"{1:.1f}\" r=\"7\" fill=\"none\" stroke=\"#000\" "
        "stroke-width=\"2.2\"/><text x=\"{2:.1f}\" y=\"{3:.1f}\" font-size=\"11\" "
        "font-weight=\"bold\">{4}</text>\n",
        p[0], p[1], box[0], box[3] - 3, k);
  }
  if (!ring.empty()) {
    out += fmt::format(
        "<text x=\"{}\" y=\"40\" font-size=\"12\">circled in black: the {} hosts of the "
        "execution ring, numbered in ring order</text>\n",
        kMargin, ring.size());
  }
  // Legend: node kinds, then edge classes.
  const double ly = kPlot + 2 * kMargin + 20 + 15;
  double lx = kMargin;
  for (Level level : {Level::wan, Level::man, Level::lan}) {
    out += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"white\" stroke=\"{}\" stroke-width=\"1.2\"/>"
        "<text x=\"{}\" y=\"{}\">{} router</text>\n",
        lx + 5, ly, level_colour(level), lx + 14, ly + 4, to_string(level));
    lx += 110;
  }
  out += fmt::format(
      "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">lan host</text>\n",
      lx + 5, ly, level_colour(Level::lan), lx + 14, ly + 4);
  lx = kMargin;
  for (LinkClass c :
       {LinkClass::wan, LinkClass::man, LinkClass::lan, LinkClass::man_wan, LinkClass::lan_man}) {
    const EdgeStyle s = edge_style(c);
    out += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>"
        "<text x=\"{}\" y=\"{}\">{} link</text>\n",
        lx, ly + 30, lx + 30, ly + 30, s.colour, s.width, s.dash, lx + 36, ly + 34, to_string(c));
    lx += 150;
  }
  out += "</svg>\n";
  return out;
}

}  // namespace redist::sim
