#include "redist/text/summary.hpp"

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace redist::text {

namespace {

constexpr std::size_t kLabelWidth = 12;

template <typename T>
std::string list(const std::vector<T>& values, auto&& format_one) {
  std::string out;
  const std::size_t shown = std::min(values.size(), kMaxListed);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += ' ';
    out += format_one(values[i]);
  }
  if (shown < values.size()) out += fmt::format(" ... ({} in all)", values.size());
  return out;
}

}  // namespace

std::string number(double value) {
  std::string shortest = fmt::format("{}", value);
  if (shortest.size() <= 12) return shortest;
  return fmt::format("{:.10g}", value);
}

std::string quantity(double value, std::string_view unit) {
  return number(value) + " " + std::string(unit);
}

std::string numbers(const std::vector<std::int64_t>& values) {
  return list(values, [](std::int64_t v) { return fmt::format("{}", v); });
}

std::string numbers(const std::vector<double>& values) {
  return list(values, [](double v) { return number(v); });
}

void Summary::line(std::string_view text) {
  text_ += text;
  text_ += '\n';
}

void Summary::blank() { text_ += '\n'; }

void Summary::field(std::string_view label, std::string_view value) {
  line(fmt::format("{:<{}}{}", label, kLabelWidth, value));
}

void Summary::optimality(const PlanClaims& claims, std::string_view algorithm) {
  switch (claims.proof) {
    case Proof::lower_bound:
      field("optimal", "yes (makespan equals the lower bound)");
      return;
    case Proof::search:
      field("optimal", "yes (proven by exhaustive search)");
      return;
    case Proof::theorem:
      field("optimal",
            fmt::format("yes (the {} algorithm is optimal on such instances)", algorithm));
      return;
    case Proof::none:
      break;
  }
  const std::optional<double> gap = claims.gap();
  if (!std::isfinite(claims.makespan)) {
    field("optimal", "not proven (the plan deadlocks)");
  } else if (gap && *gap > 0 && *claims.lower_bound > 0) {
    field("optimal",
          fmt::format("not proven (makespan {:.1f}% above the lower bound)", 100.0 * *gap));
  } else {
    field("optimal", "not proven");
  }
}

void Summary::claims(const PlanClaims& claims, std::string_view algorithm,
                     std::string_view makespan, std::string_view lower_bound) {
  field("makespan", makespan.empty() ? number(claims.makespan) : std::string(makespan));
  if (!claims.lower_bound) {
    field("lower bound", "none known");
  } else {
    field("lower bound",
          lower_bound.empty() ? number(*claims.lower_bound) : std::string(lower_bound));
  }
  const std::optional<double> gap = claims.gap();
  field("gap", gap ? number(*gap) : "none known");
  optimality(claims, algorithm);
  field("status", to_string(claims.status));
}

void Summary::optimality(bool optimal, double makespan, std::optional<double> lower_bound,
                         std::string_view algorithm) {
  if (optimal && lower_bound && makespan <= *lower_bound) {
    field("optimal", "yes (makespan equals the lower bound)");
  } else if (optimal) {
    field("optimal", fmt::format("yes (proven by the {} algorithm)", algorithm));
  } else if (lower_bound && *lower_bound > 0 && makespan > *lower_bound) {
    field("optimal", fmt::format("not proven (makespan {:.1f}% above the lower bound)",
                                 100.0 * (makespan - *lower_bound) / *lower_bound));
  } else {
    field("optimal", "not proven");
  }
}

void Summary::validator(bool valid, std::string_view reason) {
  field("validator", valid ? std::string("valid") : fmt::format("INVALID: {}", reason));
}

std::string check_summary(const CheckResult& verdict, std::string_view heading,
                          std::string_view document) {
  Summary out;
  out.line(fmt::format("{}: the {} is {}", heading, document, verdict.valid ? "valid" : "INVALID"));
  if (verdict.valid) {
    out.field("makespan", number(verdict.makespan));
  } else {
    out.field("reason", verdict.reason);
  }
  return out.str();
}

void Summary::table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string text = " ";
    for (std::size_t c = 0; c < row.size(); ++c) {
      text += " " + row[c];
      if (c + 1 < row.size()) text += std::string(width[c] - row[c].size() + 1, ' ');
    }
    line(text);
  }
}

void Summary::rows_left_out(std::size_t shown, std::size_t total) {
  if (shown < total) {
    line(fmt::format("  ... and {} more (the JSON output lists every one)", total - shown));
  }
}

}  // namespace redist::text
