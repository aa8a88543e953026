// Test support for the SVG documents redist writes: counting occurrences, and a small XML
// well-formedness check (no XML library needed): balanced tags, quoted attributes, no raw '<' in
// text, every '&' starting one of the five predefined entities.
#pragma once

#include <string>
#include <vector>

namespace redist::testkit {

// How many times `needle` occurs in `text` (overlapping occurrences counted).
inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// Returns an empty string when `xml` is well formed, else what is wrong and where.
inline std::string xml_problem(const std::string& xml) {
  std::vector<std::string> stack;
  std::size_t i = 0;
  auto check_text = [&](std::size_t from, std::size_t to) -> std::string {
    for (std::size_t k = from; k < to; ++k) {
      if (xml[k] != '&') continue;
      bool ok = false;
      for (const char* entity : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"}) {
        ok = ok || xml.compare(k, std::char_traits<char>::length(entity), entity) == 0;
      }
      if (!ok) return "bad '&' at " + std::to_string(k);
    }
    return "";
  };
  while (i < xml.size()) {
    const std::size_t open = xml.find('<', i);
    const std::size_t text_end = open == std::string::npos ? xml.size() : open;
    if (auto problem = check_text(i, text_end); !problem.empty()) return problem;
    if (open == std::string::npos) break;
    // Find the end of the tag, skipping quoted attribute values.
    std::size_t k = open + 1;
    char quote = 0;
    for (; k < xml.size(); ++k) {
      if (quote != 0) {
        if (xml[k] == quote) quote = 0;
        if (xml[k] == '<') return "'<' in an attribute at " + std::to_string(k);
      } else if (xml[k] == '"' || xml[k] == '\'') {
        quote = xml[k];
      } else if (xml[k] == '>') {
        break;
      } else if (xml[k] == '<') {
        return "'<' inside a tag at " + std::to_string(k);
      }
    }
    if (k >= xml.size()) return "unterminated tag at " + std::to_string(open);
    std::string tag = xml.substr(open + 1, k - open - 1);
    if (auto problem = check_text(open, k); !problem.empty()) return problem;
    if (!tag.empty() && tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) return "unbalanced </" + name + ">";
      stack.pop_back();
    } else if (!tag.empty() && tag.back() == '/') {
      // self-closing
    } else {
      const std::string name = tag.substr(0, tag.find_first_of(" \t\n"));
      if (name.empty()) return "empty tag name at " + std::to_string(open);
      if (stack.empty() && open != 0) return "content after the root element";
      stack.push_back(name);
    }
    i = k + 1;
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  return "";
}

}  // namespace redist::testkit
