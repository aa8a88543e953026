// The style sheet of redist's Gantt charts (gantt_style.hpp).
#include "redist/svg/gantt_style.hpp"

#include <cctype>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace redist::svg {

namespace {

template <typename... Args>
void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

}  // namespace

std::string css_name(std::string_view name) {
  // A class name must not be empty nor start with a digit or '-': prefix those with 'c'.
  const bool prefix = name.empty() || (name[0] >= '0' && name[0] <= '9') || name[0] == '-';
  std::string result = prefix ? "c" : "";
  for (char ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
    result += ok ? ch : '_';
  }
  return result;
}

std::string gantt_style_sheet(const std::vector<GanttClass>& classes) {
  std::string out;
  out += "<defs>\n";
  auto hatch = [&out](const std::string& id, const std::string& colour) {
    put(out,
        "<pattern id=\"hatch-{0}\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"{1}\" "
        "fill-opacity=\"0.12\"/><rect width=\"2.5\" height=\"6\" fill=\"{1}\" "
        "fill-opacity=\"0.55\"/></pattern>\n",
        id, colour);
  };
  hatch("default", "#888888");
  out +=
      "<pattern id=\"lead-hatch\" patternUnits=\"userSpaceOnUse\" width=\"5\" height=\"5\" "
      "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"5\" fill=\"#ffffff\" "
      "fill-opacity=\"0.75\"/></pattern>\n";
  for (const GanttClass& cls : classes) hatch(css_name(cls.name), xml_escape(cls.colour));
  out += "</defs>\n<style>\n";
  out +=
      "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#222}\n"
      ".bg{fill:#fff}\n"
      ".title{font-size:16px;font-weight:bold}\n"
      ".subtitle{font-size:12px;fill:#444}\n"
      ".alert{font-size:12px;font-weight:bold;fill:#D00000}\n"
      ".legend text{font-size:11px}\n"
      ".axis{font-size:11px;fill:#333}\n"
      ".tick{text-anchor:middle}\n"
      ".axis-title{font-style:italic}\n"
      ".grid{stroke:#dcdcdc;stroke-width:1}\n"
      ".axis-line{stroke:#777;stroke-width:1}\n"
      ".row-bg{fill:#f2f2f2}\n"
      ".row-label{font-size:12px;font-weight:bold}\n"
      ".lane-label{font-size:11px;fill:#666;text-anchor:end}\n"
      ".lane-div{stroke:#e2e2e2;stroke-width:1}\n"
      ".bar,.swatch,.pill{fill:#888}\n"
      ".span{fill:#888;fill-opacity:0.15}\n"
      ".bar.hatched,.swatch.hatched{fill:url(#hatch-default);stroke:#888;stroke-width:1}\n"
      ".sep{stroke:#fff;stroke-opacity:0.8;stroke-width:1;fill:none}\n"
      ".lbl{font-size:11px;text-anchor:middle;fill:#fff;stroke:#888;stroke-width:3px;"
      "paint-order:stroke;stroke-linejoin:round}\n"
      ".lbl.dark{fill:#111;stroke:#fff}\n"
      ".conflict{fill:none;stroke:#D00000;stroke-width:2.5}\n"
      ".marker{stroke-width:1.5;fill:none}\n"
      ".marker-label{font-size:11px}\n"
      ".note{font-size:11px;fill:#555}\n"
      ".lead{fill:url(#lead-hatch)}\n"
      ".section{stroke:#6A3D9A;stroke-width:1.2;stroke-opacity:0.75;fill:none}\n"
      ".section-label{font-size:11px;text-anchor:middle;fill:#6A3D9A}\n"
      ".strip-bg{fill:#f2f2f2}\n"
      ".strip-bar{fill:#7f7f7f}\n"
      ".strip-bar.over{fill:#D00000}\n"
      ".strip-limit{stroke:#222;stroke-width:1;stroke-dasharray:4,3}\n";
  for (const GanttClass& cls : classes) {
    const std::string name = css_name(cls.name);
    // Colours are written into CSS: keep only characters that colours use.
    std::string colour;
    for (char ch : cls.colour) {
      if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '#' || ch == '(' || ch == ')' ||
          ch == ',' || ch == '.' || ch == ' ' || ch == '%') {
        colour += ch;
      }
    }
    put(out,
        ".bar.{0},.swatch.{0},.pill.{0}{{fill:{1}}}\n.span.{0}{{fill:{1}}}\n"
        ".bar.{0}.hatched,.swatch.{0}.hatched{{fill:url(#hatch-{0});stroke:{1}}}\n"
        ".lbl.{0}{{stroke:{1}}}\n",
        name, colour);
  }
  out += "</style>\n";
  return out;
}

}  // namespace redist::svg
