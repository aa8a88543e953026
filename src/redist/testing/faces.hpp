// Test support for the faces tests (api/*_faces_test.cpp): reading a text summary's fields back
// and finding the bundled examples of a family (header-only, test support only).
#pragma once

#include "redist/testing/data_dir.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "redist/io/json.hpp"

namespace redist::testkit {

// The value of the summary field `label` ("makespan", "lower bound", "optimal"): the rest of its
// line, after the padding; "" when the summary has no such field.
inline std::string summary_field(const std::string& summary, std::string_view label) {
  std::istringstream lines(summary);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > label.size() && line.compare(0, label.size(), label) == 0 &&
        line[label.size()] == ' ') {
      const std::size_t start = line.find_first_not_of(' ', label.size());
      return start == std::string::npos ? "" : line.substr(start);
    }
  }
  return "";
}

// The first word of a field's value ("20" of "20 (the optimum ...)", "yes" of "yes (...)").
inline std::string first_word(const std::string& value) { return value.substr(0, value.find(' ')); }

// Where a plan's summary and its JSON document disagree on the claims every family states alike
// (text/summary.hpp, Summary::claims): `status` is the document's status, `gap` its gap (to the
// summary's 10 significant digits) or "none known" exactly when the document has none, and `lower
// bound` "none known" exactly when the document states no lower_bound. "" when they agree.
inline std::string claims_disagreement(const std::string& summary, const io::Json& document) {
  const std::string status = summary_field(summary, "status");
  if (!document.contains("status") || status != document["status"].get<std::string>()) {
    return "status: " + status + " vs " + document.value("status", std::string("(absent)"));
  }
  const std::string gap = summary_field(summary, "gap");
  if (!document.contains("gap")) {
    if (gap != "none known") return "gap: " + gap + " but the document has none";
  } else {
    const double stated = document["gap"].get<double>();
    const double shown = gap == "none known" ? -1.0 : std::strtod(gap.c_str(), nullptr);
    if (!(std::abs(shown - stated) <= 1e-9 * std::max(1.0, std::abs(stated)))) {
      return "gap: " + gap + " vs " + document["gap"].dump();
    }
  }
  const bool no_bound = summary_field(summary, "lower bound") == "none known";
  if (no_bound == document.contains("lower_bound")) {
    return "lower bound: " + summary_field(summary, "lower bound") + " vs " +
           document.value("lower_bound", io::Json()).dump();
  }
  return "";
}

// Every data/**/*.json document whose root object's only key is `family`, with its text.
inline std::vector<std::pair<std::string, std::string>> bundled_documents(std::string_view family) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data_dir())) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const std::string text = io::read_text(entry.path().string());
    const io::Json document = io::Json::parse(text, nullptr, false);
    if (document.is_object() && document.size() == 1 && document.contains(family)) {
      found.emplace_back(entry.path().string(), text);
    }
  }
  return found;
}

}  // namespace redist::testkit
