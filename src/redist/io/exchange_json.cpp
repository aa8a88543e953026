#include "redist/io/exchange_json.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::io {
namespace {

const std::string kRoot = "$.exchange";

std::vector<double> read_bandwidths(const Json& exchange, const char* key, std::size_t nodes) {
  const std::string path = child_path(kRoot, key);
  const auto it = exchange.find(key);
  if (it == exchange.end()) return std::vector<double>(nodes, 1.0);
  if (it->is_number()) return std::vector<double>(nodes, as_positive_number(*it, path));
  const Json& values = as_array(*it, path);
  if (values.size() != nodes) {
    throw InputError(
        fmt::format("has {} entries, expected {} (one per node)", values.size(), nodes), path);
  }
  std::vector<double> out(nodes);
  for (std::size_t i = 0; i < nodes; ++i)
    out[i] = as_positive_number(values[i], index_path(path, i));
  return out;
}

std::vector<exchange::Message> read_messages(const Json& value) {
  const std::string path = kRoot + ".messages";
  const Json& list = as_array(value, path);
  if (list.size() > exchange::kMaxMessages) {
    throw InputError(
        fmt::format("{} messages, at most {} are accepted", list.size(), exchange::kMaxMessages),
        path);
  }
  std::vector<exchange::Message> messages(list.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string mpath = index_path(path, k);
    const Json& triple = as_array(list[k], mpath);
    if (triple.size() != 3) throw InputError("must be [from, to, bytes]", mpath);
    messages[k] = {as_int64(triple[0], index_path(mpath, 0)),
                   as_int64(triple[1], index_path(mpath, 1)),
                   as_int64(triple[2], index_path(mpath, 2))};
  }
  return messages;
}

std::vector<exchange::Message> read_matrix(const Json& value, std::size_t nodes,
                                           std::int64_t& local_bytes) {
  const std::string path = kRoot + ".matrix";
  if (nodes > exchange::kMaxMatrixNodes) {
    throw InputError(fmt::format("a dense matrix takes at most {} nodes; list the messages instead",
                                 exchange::kMaxMatrixNodes),
                     path);
  }
  const Json& rows = as_array(value, path);
  if (rows.size() != nodes) {
    throw InputError(fmt::format("has {} rows, expected {} (one per node)", rows.size(), nodes),
                     path);
  }
  std::vector<exchange::Message> messages;
  for (std::size_t i = 0; i < nodes; ++i) {
    const std::vector<std::int64_t> row = as_int64_array(rows[i], index_path(path, i));
    if (row.size() != nodes) {
      throw InputError(fmt::format("has {} entries, expected {}", row.size(), nodes),
                       index_path(path, i));
    }
    for (std::size_t j = 0; j < nodes; ++j) {
      const std::string epath = index_path(index_path(path, i), j);
      if (row[j] < 0) throw InputError("bytes must be >= 0", epath);
      if (row[j] == 0) continue;
      if (i == j) {  // stays on its node
        local_bytes = row[j] > std::numeric_limits<std::int64_t>::max() - local_bytes
                          ? std::numeric_limits<std::int64_t>::max()
                          : local_bytes + row[j];
        continue;
      }
      if (messages.size() == exchange::kMaxMessages) {  // named here: "messages" is not in it
        throw InputError(fmt::format("more than {} non-zero entries: at most {} messages are "
                                     "accepted",
                                     exchange::kMaxMessages, exchange::kMaxMessages),
                         epath);
      }
      messages.push_back({static_cast<std::int64_t>(i), static_cast<std::int64_t>(j), row[j]});
    }
  }
  return messages;
}

exchange::Backbone read_backbone(const Json& value) {
  const std::string path = kRoot + ".backbone";
  as_object(value, path);
  reject_unknown_fields(value, path, {"clusters", "transfers"});
  exchange::Backbone backbone;
  const Json& clusters = as_array(require(value, path, "clusters"), path + ".clusters");
  if (clusters.size() != 2) throw InputError("must list two clusters", path + ".clusters");
  for (std::size_t c = 0; c < 2; ++c) {
    backbone.clusters[c] = as_int64_array(clusters[c], index_path(path + ".clusters", c));
  }
  backbone.transfers = as_int64(require(value, path, "transfers"), path + ".transfers");
  return backbone;
}

std::size_t read_nodes(const Json& exchange) {
  const std::int64_t nodes = as_int64(require(exchange, kRoot, "nodes"), kRoot + ".nodes");
  if (nodes < 2 || static_cast<std::uint64_t>(nodes) > exchange::kMaxNodes) {
    throw InputError(fmt::format("must be in 2..{}", exchange::kMaxNodes), kRoot + ".nodes");
  }
  return static_cast<std::size_t>(nodes);
}

exchange::Piece read_piece(const Json& t, const std::string& path) {
  as_object(t, path);
  reject_unknown_fields(t, path, {"from", "to", "start", "bytes"});
  return {as_int64(require(t, path, "from"), child_path(path, "from")),
          as_int64(require(t, path, "to"), child_path(path, "to")),
          as_normal_number(require(t, path, "start"), child_path(path, "start")),
          as_normal_number(require(t, path, "bytes"), child_path(path, "bytes"))};
}

// One map: owners item by item, or [begin, end, owner] ranges (told apart by the first entry).
std::vector<exchange::OwnerRange> read_owners(const Json& document, const char* key) {
  const std::string path = child_path("$", key);
  const Json& list = as_array(require(document, "$", key), path);
  if (list.empty() || !list.front().is_array()) {
    if (list.size() > exchange::kMaxMigrationOwners) {
      throw InputError(fmt::format("{} items, at most {} are accepted item by item; give ranges "
                                   "[begin, end, owner] instead",
                                   list.size(), exchange::kMaxMigrationOwners),
                       path);
    }
    return exchange::owner_ranges(as_int64_array(list, path), key);
  }
  if (list.size() > exchange::kMaxMigrationRanges) {
    throw InputError(fmt::format("{} ranges, at most {} are accepted", list.size(),
                                 exchange::kMaxMigrationRanges),
                     path);
  }
  std::vector<exchange::OwnerRange> ranges(list.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string rpath = index_path(path, k);
    const Json& triple = as_array(list[k], rpath);
    if (triple.size() != 3) throw InputError("must be [begin, end, owner]", rpath);
    ranges[k] = {as_int64(triple[0], index_path(rpath, 0)),
                 as_int64(triple[1], index_path(rpath, 1)),
                 as_int64(triple[2], index_path(rpath, 2))};
  }
  return ranges;
}

}  // namespace

exchange::Ownership read_ownership(const Json& document) {
  as_object(document, "$");
  reject_unknown_fields(document, "$", {"old", "new", "item_bytes"});
  exchange::Ownership out;
  out.old_owners = read_owners(document, "old");
  out.new_owners = read_owners(document, "new");
  if (const auto it = document.find("item_bytes"); it != document.end()) {
    out.item_bytes = as_int64(*it, "$.item_bytes");
  }
  return out;
}

exchange::Instance read_exchange_instance(const Json& document) {
  as_object(document, "$");
  // "seconds": what `exchange block-cyclic` and `exchange migration` state with the instance.
  reject_unknown_fields(document, "$", {"exchange", "seconds"});
  const Json& exchange = as_object(require(document, "$", "exchange"), kRoot);
  reject_unknown_fields(exchange, kRoot,
                        {"nodes", "messages", "matrix", "send_bandwidth", "recv_bandwidth",
                         "latency", "ports", "backbone"});
  exchange::Instance in;
  in.nodes = read_nodes(exchange);
  const bool sparse = exchange.contains("messages"), dense = exchange.contains("matrix");
  if (sparse == dense) {
    throw InputError("give the messages either as \"messages\" or as a \"matrix\", once", kRoot);
  }
  in.messages = sparse ? read_messages(exchange["messages"])
                       : read_matrix(exchange["matrix"], in.nodes, in.local_bytes);
  in.send_bandwidth = read_bandwidths(exchange, "send_bandwidth", in.nodes);
  in.recv_bandwidth = read_bandwidths(exchange, "recv_bandwidth", in.nodes);
  for (const char* key : {"send_bandwidth", "recv_bandwidth"}) {
    if (!exchange.contains(key)) in.assumed_bandwidths.emplace_back(key);
  }
  if (const auto it = exchange.find("latency"); it != exchange.end()) {
    in.latency = as_finite_number(*it, kRoot + ".latency");
  }
  if (const auto it = exchange.find("ports"); it != exchange.end()) {
    if (as_int64(*it, kRoot + ".ports") != 1) {
      throw InputError("only the one-port model (1) is supported; use a backbone for k transfers",
                       kRoot + ".ports");
    }
  }
  if (const auto it = exchange.find("backbone"); it != exchange.end())
    in.backbone = read_backbone(*it);
  try {
    exchange::validate_instance(in);
  } catch (const InputError& e) {
    throw InputError(e.message(), kRoot + "." + e.path());
  }
  return in;
}

ExchangePlanDocument read_exchange_plan(std::string_view text) {
  ExchangePlanDocument doc;
  // A piece takes at least 38 characters ({"from":0,"to":0,"start":0,"bytes":1} and a comma):
  // room for as many pieces as the text can hold, so that the vector never grows by a copy
  // (capacity that is never written costs no memory).
  doc.plan.pieces.reserve(std::min(text.size() / 38, exchange::kMaxCheckPieces));
  const ArrayStream pieces{
      "pieces", [&doc](const Json& element, std::size_t k) {
        if (k >= exchange::kMaxCheckPieces) {
          throw InputError(
              fmt::format("exchange check reads at most {} pieces", exchange::kMaxCheckPieces),
              index_path("$.pieces", k));
        }
        doc.plan.pieces.push_back(read_piece(element, index_path("$.pieces", k)));
      }};
  const Json document = parse_document(text, &pieces);
  as_object(document, "$");
  reject_unknown_fields(document, "$",
                        {"algorithm", "makespan", "lower_bound", "gap", "optimal", "status",
                         "steps", "pieces", "notes", "seconds"});
  as_array(require(document, "$", "pieces"), "$.pieces");
  const PlanSummary summary = read_plan_summary(document);
  read_plan_claims(summary, doc.plan);
  doc.stated = {summary.makespan.has_value(), summary.lower_bound.has_value(),
                summary.optimal.has_value()};
  if (const auto it = document.find("gap"); it != document.end()) as_finite_number(*it, "$.gap");
  if (const auto it = document.find("steps"); it != document.end()) {
    // What a step algorithm states about its steps (exchange_plan_json): read, not checked
    // against the pieces; their starts are kept for the picture (`check --gantt`).
    as_object(*it, "$.steps");
    reject_unknown_fields(*it, "$.steps", {"count", "lower_bound", "eta_d", "eta_s", "starts"});
    for (const auto& [key, value] : it->items()) {
      if (key != "starts") as_normal_number(value, child_path("$.steps", key));
    }
    if (const auto starts = it->find("starts"); starts != it->end()) {
      exchange::StepStats stats;
      stats.starts = as_finite_number_array(*starts, "$.steps.starts");
      for (std::size_t s = 0; s < stats.starts.size(); ++s) {
        if (stats.starts[s] < 0 || (s > 0 && stats.starts[s] < stats.starts[s - 1])) {
          throw InputError("must be >= 0 and not below the start of the step before it",
                           index_path("$.steps.starts", s));
        }
      }
      stats.count = stats.starts.size();
      if (const auto count = it->find("count");
          count != it->end() && count->get<double>() != static_cast<double>(stats.count)) {
        throw InputError(
            fmt::format("lists {} starts for {} steps", stats.count, count->get<double>()),
            "$.steps.starts");
      }
      const auto number = [&](const char* key) {
        const auto field = it->find(key);
        return field == it->end() ? 0.0 : field->get<double>();
      };
      stats.lower_bound = number("lower_bound");
      stats.eta_d = number("eta_d");
      stats.eta_s = static_cast<std::size_t>(number("eta_s"));
      doc.plan.steps = std::move(stats);
    }
  }
  if (const auto it = document.find("notes"); it != document.end()) {
    const Json& notes = as_array(*it, "$.notes");
    for (std::size_t k = 0; k < notes.size(); ++k) as_string(notes[k], index_path("$.notes", k));
  }
  return doc;
}

std::string exchange_plan_json(const exchange::Plan& plan) {
  std::string out;
  // At most 110 characters a piece (a double takes at most 24, a node 7): the string never grows
  // by a copy, and capacity that is never written costs no memory.
  out.reserve(256 + 110 * plan.pieces.size() + (plan.steps ? 25 * plan.steps->starts.size() : 0));
  write_plan_claims(out, plan);
  if (plan.steps) {
    fmt::format_to(std::back_inserter(out),
                   ",\n  \"steps\": {{\"count\":{},\"lower_bound\":{},\"eta_d\":{},\"eta_s\":{}",
                   plan.steps->count, json_number(plan.steps->lower_bound),
                   json_number(plan.steps->eta_d), plan.steps->eta_s);
    // When each step starts, as the planner laid them out (a document read back keeps them).
    if (!plan.steps->starts.empty()) {
      out += ",\"starts\":[";
      for (std::size_t s = 0; s < plan.steps->starts.size(); ++s) {
        if (s > 0) out += ',';
        out += json_number(plan.steps->starts[s]);
      }
      out += "]";
    }
    out += "}";
  }
  out += ",\n  \"pieces\": [";
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    const exchange::Piece& p = plan.pieces[k];
    fmt::format_to(std::back_inserter(out),
                   "{}\n    {{\"from\":{},\"to\":{},\"start\":{},\"bytes\":{}}}", k == 0 ? "" : ",",
                   p.from, p.to, json_number(p.start), json_number(p.bytes));
  }
  out += plan.pieces.empty() ? "]" : "\n  ]";
  if (!plan.notes.empty()) out += ",\n  \"notes\": " + Json(plan.notes).dump();
  out += "\n}\n";
  return out;
}

std::string exchange_bound_json(const exchange::Bounds& bounds) {
  OrderedJson out;
  out["lower_bound"] = bounds.lower_bound;
  out["terms"]["ports"] = bounds.ports;
  if (bounds.backbone) out["terms"]["backbone"] = *bounds.backbone;
  return output_text(out);
}

std::string exchange_instance_json(const exchange::Instance& in) {
  OrderedJson exchange;
  exchange["nodes"] = in.nodes;
  OrderedJson messages = OrderedJson::array();
  for (const exchange::Message& m : in.messages) messages.push_back({m.from, m.to, m.bytes});
  exchange["messages"] = std::move(messages);
  const auto uniform = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [&](double b) { return b == v.front(); });
  };
  exchange["send_bandwidth"] = uniform(in.send_bandwidth) ? OrderedJson(in.send_bandwidth.front())
                                                          : OrderedJson(in.send_bandwidth);
  exchange["recv_bandwidth"] = uniform(in.recv_bandwidth) ? OrderedJson(in.recv_bandwidth.front())
                                                          : OrderedJson(in.recv_bandwidth);
  exchange["latency"] = in.latency;
  if (in.backbone) {
    exchange["backbone"]["clusters"] = {in.backbone->clusters[0], in.backbone->clusters[1]};
    exchange["backbone"]["transfers"] = in.backbone->transfers;
  }
  OrderedJson doc;
  doc["exchange"] = std::move(exchange);
  return output_text(doc);
}

exchange::Family::Options JsonFace<exchange::Family>::options(const EntryOptions& o) {
  return {o.text("algorithm", "auto"), o.real("time_limit")};
}

exchange::Family::Instance JsonFace<exchange::Family>::read_instance(const Json& document) {
  return read_exchange_instance(document);
}

std::string JsonFace<exchange::Family>::write(const exchange::Family::Result& result) {
  return exchange_plan_json(result);
}

JsonFace<exchange::Family>::Document JsonFace<exchange::Family>::read_document(
    std::string_view text) {
  return read_exchange_plan(text);
}

CheckResult JsonFace<exchange::Family>::check(const exchange::Family::Instance& instance,
                                              const Document& document) {
  return exchange::check(instance, document.plan, document.stated);
}

}  // namespace redist::io
