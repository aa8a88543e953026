#include "apps/redist-mpi/run_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "redist/io/json.hpp"
#include "redist/text/summary.hpp"

namespace redist::mpi {

namespace {

std::string strategy_text(const RunReport& r) {
  if (r.strategy == "alltoallv")
    return "alltoallv: one MPI_Alltoallv from the old blocks to the new";
  if (r.strategy == "linear") return "linear: LAU's Linear flows, one message per link";
  return fmt::format("redist: the planned ring schedule, {} mode, on a {} ring", r.mode,
                     r.bidirectional ? "bidirectional" : "unidirectional");
}

std::string model_text(const RunReport& r) {
  if (!r.model_makespan) return "none (MPI_Alltoallv's messages are not flows between neighbours)";
  return text::number(*r.model_makespan) +
         (r.strategy == "linear" ? " (LAU's single-send makespan of the flows)"
                                 : " (the plan's makespan, in the instance's cost units)");
}

std::string verdict_text(const RunReport& r) {
  if (r.verified()) {
    return fmt::format("yes (every item where the plan puts it, staging within its bound{})",
                       r.repeats > 1 ? fmt::format(", {} executions", r.repeats) : "");
  }
  std::string why;
  const auto add = [&why](const std::string& part) { why += (why.empty() ? "" : "; ") + part; };
  if (r.bad_items > 0) add(fmt::format("{} items out of place on one rank", r.bad_items));
  if (!r.memory_ok) add("a rank staged more than its bound");
  if (r.repeat_bad_items > 0) {
    add(fmt::format("{} wrong items in the repeated executions", r.repeat_bad_items));
  }
  return "NO: " + why;
}

}  // namespace

std::string run_report_json(const RunReport& r) {
  const std::string model = r.model_makespan ? io::json_number(*r.model_makespan) : "null";
  return fmt::format(
      "{{\"strategy\": \"{}\", \"ranks\": {}, \"items\": {}, \"item_bytes\": {}, \"mode\": \"{}\", "
      "\"bidirectional\": {}, \"algorithm\": \"{}\", \"flows\": [{}], \"rotation\": {}, "
      "\"segment_items\": {}, \"model_makespan\": {}, \"measured_seconds\": {}, "
      "\"check_seconds\": {}, \"max_staging_bytes\": {}, \"messages\": {}, "
      "\"request_slots\": {}, \"bad_items\": {}, \"verified\": {}}}\n",
      r.strategy, r.ranks, r.items, r.item_bytes, r.mode, r.bidirectional, r.algorithm,
      fmt::join(r.flows, ", "), r.rotation, r.segment_items, model,
      io::json_number(r.measured_seconds), io::json_number(r.check_seconds), r.max_staging_bytes,
      r.messages, r.request_slots, r.bad_items, r.verified());
}

std::string run_report_text(const RunReport& r) {
  text::Summary out;
  out.line(fmt::format("redist-mpi: {} items of {} bytes redistributed on {} ranks, {}", r.items,
                       r.item_bytes, r.ranks, r.verified() ? "verified" : "NOT verified"));
  out.blank();
  out.field("strategy", strategy_text(r));
  out.field("algorithm", r.algorithm);
  out.field("flows", text::numbers(r.flows));
  out.field("rotation",
            fmt::format("{} (the last flow; 0: the global order from rank 0 is kept)", r.rotation));
  out.field("model", model_text(r));
  out.field("measured",
            fmt::format("{} s (the slowest rank; the collective checks alone: {} s)",
                        text::number(r.measured_seconds), text::number(r.check_seconds)));
  out.field("messages",
            fmt::format("{} on the busiest rank over all executions, at most {} requests posted "
                        "at once, {} items each at most",
                        r.messages, r.request_slots, r.segment_items));
  out.field("staging", fmt::format("{} bytes at most on one rank", r.max_staging_bytes));
  out.field("verified", verdict_text(r));
  return out.str();
}

}  // namespace redist::mpi
