// The style sheet of redist's Gantt charts (gantt.hpp): hatch patterns and CSS classes, one per
// class of bars with its colour. Private to the SVG library.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "redist/svg/gantt.hpp"

namespace redist::svg {

// `name` as a CSS class name: characters other than letters, digits, '-' and '_' become '_', and
// a name that is empty or starts with a digit or '-' gets the prefix 'c'.
std::string css_name(std::string_view name);

// The <defs> (hatch patterns) and the <style> of a chart whose bars use `classes`; colours keep
// only the characters colours use.
std::string gantt_style_sheet(const std::vector<GanttClass>& classes);

}  // namespace redist::svg
