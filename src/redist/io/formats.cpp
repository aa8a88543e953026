#include "redist/io/formats.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <vector>

namespace redist::io {

namespace {

using Names = std::initializer_list<std::string_view>;

// One object of one of a family's documents: where it is (`object`: "$" for the top level,
// "ring" for the instance object, "run" for an element of a schedule's transfers) and its fields.
struct Format {
  std::string_view family;
  DocumentRole role;
  std::string_view object;
  std::string_view description;  // what a message calls the document
  Names fields;
};

// Instances first: a field found in several documents is said to belong to the first one.
const std::array<Format, 22> kFormats{{
    {"ring",
     DocumentRole::instance,
     "ring",
     "the ring instance, inside {\"ring\": {...}}",
     {"bidirectional", "loads", "targets", "delta", "cost_next", "cost_prev"}},
    {"ring",
     DocumentRole::output,
     "$",
     "a ring schedule (what `redist ring plan` prints)",
     {"algorithm", "makespan", "lower_bound", "gap", "optimal", "status", "light", "flows",
      "transfers", "notes", "seconds"}},
    {"ring",
     DocumentRole::output,
     "run",
     "a run of a ring schedule's transfers",
     {"from", "dir", "start", "count", "period"}},
    {"lau",
     DocumentRole::instance,
     "lau",
     "the instance of `redist lau plan`, inside {\"lau\": {...}}",
     {"loads", "targets"}},
    {"lau",
     DocumentRole::instance,
     "lau",
     "the instance of `redist lau eval`, inside {\"lau\": {...}}",
     {"loads", "targets", "flows"}},
    {"lau",
     DocumentRole::output,
     "$",
     "a lau plan (what `redist lau plan` prints)",
     {"algorithm", "mode", "flows", "h", "t_single", "t_multi", "traffic", "lower_bound", "gap",
      "optimal", "status", "seconds"}},
    {"star",
     DocumentRole::instance,
     "star",
     "the instance of `redist star plan`, inside {\"star\": {...}}",
     {"c", "w", "loads"}},
    {"star",
     DocumentRole::instance,
     "star",
     "the instance of `redist star order`, inside {\"star\": {...}}",
     {"c", "delta"}},
    {"star",
     DocumentRole::output,
     "$",
     "a star schedule (what `redist star plan` prints)",
     {"algorithm", "makespan", "lower_bound", "gap", "optimal", "status", "transfers", "finish",
      "notes", "seconds"}},
    {"star",
     DocumentRole::output,
     "run",
     "a transfer of a star schedule",
     {"from", "to", "send_start", "forward_start"}},
    {"dlt",
     DocumentRole::instance,
     "dlt",
     "the dlt instance, inside {\"dlt\": {...}}",
     {"b", "s", "alpha"}},
    {"dlt",
     DocumentRole::output,
     "$",
     "a dlt schedule (what `redist dlt plan` prints)",
     {"algorithm", "solver", "makespan", "lower_bound", "gap", "optimal", "status", "delta",
      "transfers", "seconds"}},
    {"dlt",
     DocumentRole::output,
     "run",
     "a transfer of a dlt schedule",
     {"from", "to", "amount", "rate"}},
    {"slicering",
     DocumentRole::instance,
     "cluster",
     "the slicering instance, inside {\"cluster\": {...}}",
     {"w", "c", "W", "H"}},
    {"slicering",
     DocumentRole::output,
     "$",
     "a slicering solution (what `redist slicering plan` prints)",
     {"algorithm", "ring", "alpha", "t_step", "makespan", "lower_bound", "gap", "optimal", "status",
      "tour_cost", "tour_lower_bound", "tour_gap", "notes", "seconds"}},
    {"balance",
     DocumentRole::instance,
     "balance",
     "the instance of `redist balance advise`, inside {\"balance\": {...}}",
     {"ring", "loads", "speeds", "remaining_iterations"}},
    {"balance",
     DocumentRole::instance,
     "balance",
     "the trace of `redist balance simulate`, inside {\"balance\": {...}}",
     {"ring", "speeds", "loads", "items"}},
    {"balance",
     DocumentRole::instance,
     "ring",
     "the ring of a balance document, {\"ring\": {...}} inside {\"balance\": {...}}",
     {"bidirectional", "cost_next", "cost_prev"}},
    {"exchange",
     DocumentRole::instance,
     "exchange",
     "the exchange instance, inside {\"exchange\": {...}}",
     {"nodes", "messages", "matrix", "send_bandwidth", "recv_bandwidth", "latency", "ports",
      "backbone"}},
    {"exchange",
     DocumentRole::instance,
     "backbone",
     "the backbone of an exchange instance",
     {"clusters", "transfers"}},
    {"exchange",
     DocumentRole::output,
     "$",
     "an exchange plan (what `redist exchange plan` prints)",
     {"algorithm", "makespan", "lower_bound", "gap", "optimal", "status", "steps", "pieces",
      "notes", "seconds"}},
    {"exchange",
     DocumentRole::ownership,
     "$",
     "the ownership maps of `redist exchange migration`",
     {"old", "new", "item_bytes"}},
}};

// The member without which a top-level document is not of the format (the others are optional).
std::string_view required_member(const Format& f) {
  if (f.role == DocumentRole::ownership) return "old";
  if (f.family == "lau") return "flows";
  if (f.family == "slicering") return "alpha";
  if (f.family == "exchange") return "pieces";
  return "transfers";
}

bool has(Names names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool members_within(const Json& object, Names names) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (!has(names, it.key())) return false;
  }
  return true;
}

// A schedule's first transfer, when it has one, must have the family's transfer fields.
bool first_run_fits(const Json& document, std::string_view family) {
  const auto transfers = document.find("transfers");
  if (transfers == document.end() || !transfers->is_array() || transfers->empty()) return true;
  const Json& run = transfers->front();
  if (!run.is_object()) return true;
  for (const Format& f : kFormats) {
    if (f.family == family && f.object == "run") return members_within(run, f.fields);
  }
  return true;
}

// The fields of all the family's instance objects (a bare instance has some of them).
bool bare_instance_of(const Json& document, std::string_view family) {
  for (auto it = document.begin(); it != document.end(); ++it) {
    bool found = false;
    for (const Format& f : kFormats) {
      found = found || (f.family == family && f.role == DocumentRole::instance &&
                        f.object == instance_key(family) && has(f.fields, it.key()));
    }
    if (!found) return false;
  }
  return true;
}

// Every (family, role) whose documents `document` fits, as a bare instance or a top-level document.
std::vector<DocumentKind> candidates(const Json& document) {
  std::vector<DocumentKind> out;
  for (const Format& f : kFormats) {
    if (f.object == "$" && document.contains(required_member(f)) &&
        members_within(document, f.fields) && first_run_fits(document, f.family)) {
      out.push_back({std::string(f.family), f.role, true});
    }
  }
  for (std::string_view family :
       {"ring", "lau", "star", "dlt", "slicering", "balance", "exchange"}) {
    if (bare_instance_of(document, family)) {
      out.push_back({std::string(family), DocumentRole::instance, false});
    }
  }
  return out;
}

}  // namespace

std::string instance_key(std::string_view family) {
  return family == "slicering" ? "cluster" : std::string(family);
}

std::string output_noun(std::string_view family) {
  if (family == "lau" || family == "exchange") return "plan";
  if (family == "slicering") return "solution";
  return "schedule";
}

std::string family_of_root(std::string_view root) {
  if (!root.starts_with("$.")) return "";
  root.remove_prefix(2);
  for (std::string_view family :
       {"ring", "lau", "star", "dlt", "slicering", "balance", "exchange"}) {
    if (instance_key(family) == root) return std::string(family);
  }
  return "";
}

DocumentKind classify_document(const Json& document, std::string_view expected) {
  if (!document.is_object() || document.empty()) return {};
  if (document.size() == 1) {
    const auto it = document.begin();
    const std::string family = family_of_root("$." + it.key());
    if (!family.empty() && it->is_object()) return {family, DocumentRole::instance, true};
  }
  const std::vector<DocumentKind> found = candidates(document);
  if (found.empty()) return {};
  for (const DocumentKind& kind : found) {
    if (kind.family == expected) return kind;
  }
  return found.front();
}

std::string field_owner(std::string_view family, std::string_view field) {
  for (const Format& f : kFormats) {
    if (f.family == family && has(f.fields, field)) return std::string(f.description);
  }
  return "";
}

}  // namespace redist::io
