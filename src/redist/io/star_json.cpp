#include "redist/io/star_json.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <ostream>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::io {

namespace {

// The k-th transfer (from 0) of a schedule being read: refused beyond `limit`.
void require_transfer_count(std::size_t k, std::int64_t limit, const std::string& path) {
  if (static_cast<std::int64_t>(k) >= limit) {
    throw InputError(
        fmt::format("more than {} transfers: too many to check; split the schedule", limit), path);
  }
}

// Re-roots an InputError of a model checker (path relative to the object at `root`).
// The model checkers' paths are JSONPath tails of our own (`c[2]`, `loads`), never user keys, so
// they are appended as they are (child_path would quote `c[2]` as a key).
[[noreturn]] void rethrow_at(const InputError& e, const std::string& root) {
  throw InputError(e.message(), root + "." + e.path());
}

}  // namespace

star::Instance read_star_instance(const Json& document) {
  as_object(document, "$");
  reject_unknown_fields(document, "$", {"star"});
  const std::string path = "$.star";
  const Json& star = as_object(require(document, "$", "star"), path);
  reject_unknown_fields(star, path, {"c", "w", "loads"});
  star::Instance in;
  in.c = as_finite_number_array(require(star, path, "c"), child_path(path, "c"));
  in.w = as_finite_number_array(require(star, path, "w"), child_path(path, "w"));
  in.loads = as_int64_array(require(star, path, "loads"), child_path(path, "loads"));
  try {
    star::validate_instance(in);
  } catch (const InputError& e) {
    rethrow_at(e, path);
  }
  return in;
}

star::OrderInstance read_order_instance(const Json& document) {
  as_object(document, "$");
  reject_unknown_fields(document, "$", {"star"});
  const std::string path = "$.star";
  const Json& star = as_object(require(document, "$", "star"), path);
  reject_unknown_fields(star, path, {"c", "delta"});
  star::OrderInstance in;
  in.c = as_finite_number_array(require(star, path, "c"), child_path(path, "c"));
  in.delta = as_int64_array(require(star, path, "delta"), child_path(path, "delta"));
  try {
    star::validate_order_instance(in);
  } catch (const InputError& e) {
    rethrow_at(e, path);
  }
  return in;
}

StarScheduleDocument read_star_schedule(std::string_view text) {
  StarScheduleDocument doc;
  star::Schedule& s = doc.schedule;
  // A transfer takes at least 51 characters ({"from":0,"to":0,"send_start":0,"forward_start":0}
  // and a comma): room for as many transfers as the text can hold, so that the vector never grows
  // by a copy (capacity that is never written costs no memory).
  s.transfers.reserve(
      std::min(text.size() / 51, static_cast<std::size_t>(star::kMaxCheckedTransfers)));
  const ArrayStream transfers{
      "transfers", [&s](const Json& t, std::size_t k) {
        const std::string rpath = index_path("$.transfers", k);
        require_transfer_count(k, star::kMaxCheckedTransfers, rpath);
        as_object(t, rpath);
        reject_unknown_fields(t, rpath, {"from", "to", "send_start", "forward_start"});
        star::Transfer tr;
        tr.from = as_int64(require(t, rpath, "from"), child_path(rpath, "from"));
        tr.to = as_int64(require(t, rpath, "to"), child_path(rpath, "to"));
        tr.send_start =
            as_finite_number(require(t, rpath, "send_start"), child_path(rpath, "send_start"));
        tr.forward_start = as_finite_number(require(t, rpath, "forward_start"),
                                            child_path(rpath, "forward_start"));
        s.transfers.push_back(tr);
      }};
  const Json document = parse_document(text, &transfers);
  const std::string path = "$";
  // Every member `star plan` and `star order` write, and nothing else.
  const ScheduleHeader header =
      read_schedule_header(document, {"algorithm", "makespan", "lower_bound", "gap", "optimal",
                                      "status", "transfers", "finish", "notes", "seconds"});
  const PlanSummary& summary = header.summary;
  doc.stated.makespan = summary.makespan.has_value();
  read_plan_claims(summary, s);
  doc.stated.finish = false;
  if (auto it = document.find("finish"); it != document.end()) {
    s.finish = as_finite_number_array(*it, child_path(path, "finish"));
    doc.stated.finish = true;
  }
  s.notes = header.notes;
  return doc;
}

namespace {

// Every number is checked before the first byte is written, so that a refusal never leaves
// half a document on the stream (the planners' up-front checks make this a last resort).
void require_finite_schedule(const star::Schedule& s) {
  auto require = [](double x, const std::string& what) {
    if (!std::isfinite(x)) throw InputError("is not a finite number in the schedule", what);
  };
  require(s.makespan, "makespan");
  if (s.lower_bound) require(*s.lower_bound, "lower_bound");
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    require(s.transfers[k].send_start, fmt::format("transfers[{}].send_start", k));
    require(s.transfers[k].forward_start, fmt::format("transfers[{}].forward_start", k));
  }
  for (std::size_t i = 0; i < s.finish.size(); ++i)
    require(s.finish[i], fmt::format("finish[{}]", i));
}

}  // namespace

namespace {

// The document, handed to `flush` in pieces of about kChunk characters (an empty `out` after each).
template <class Flush>
void write_schedule(const star::Schedule& s, Flush flush) {
  require_finite_schedule(s);
  constexpr std::size_t kChunk = 1 << 16;
  std::string out;
  out.reserve(kChunk + 256);
  write_plan_claims(out, s);
  out += ",\n  \"transfers\": [";
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const star::Transfer& t = s.transfers[k];
    fmt::format_to(std::back_inserter(out),
                   "{}\n    {{\"from\":{},\"to\":{},\"send_start\":{},\"forward_start\":{}}}",
                   k == 0 ? "" : ",", t.from, t.to, json_number(t.send_start),
                   json_number(t.forward_start));
    if (out.size() >= kChunk) flush(out);
  }
  out += s.transfers.empty() ? "]" : "\n  ]";
  out += ",\n  \"finish\": [";
  for (std::size_t i = 0; i < s.finish.size(); ++i) {
    if (i > 0) out += ',';
    out += json_number(s.finish[i]);
    if (out.size() >= kChunk) flush(out);
  }
  out += "]";
  if (!s.notes.empty()) out += ",\n  \"notes\": " + Json(s.notes).dump();
  out += "\n}\n";
  flush(out);
}

}  // namespace

void write_star_schedule(std::ostream& stream, const star::Schedule& s) {
  // Written in chunks: a schedule of 10^7 transfers never exists as one string.
  write_schedule(s, [&stream](std::string& out) {
    stream << out;
    out.clear();
  });
}

std::string star_schedule_json(const star::Schedule& s) {
  // At most 120 characters a transfer and 25 a finish time (a double takes at most 24, a worker
  // 7), reserved up front: the text never grows by a copy (a growing string or string stream
  // holds its old and new buffers at once), and capacity that is never written costs no memory.
  std::size_t notes = 0;
  for (const std::string& note : s.notes) notes += 8 + 6 * note.size();  // escapes included
  std::string text;
  text.reserve(1024 + 120 * s.transfers.size() + 25 * s.finish.size() + notes);
  write_schedule(s, [&text](std::string& out) {
    text += out;
    out.clear();
  });
  return text;
}

star::Family::Options JsonFace<star::Family>::options(const EntryOptions& o) {
  return {o.text("algorithm", "best"), o.real("time_limit")};
}

star::Family::Instance JsonFace<star::Family>::read_instance(const Json& document) {
  return read_star_instance(document);
}

std::string JsonFace<star::Family>::write(const star::Family::Result& result) {
  return star_schedule_json(result);
}

JsonFace<star::Family>::Document JsonFace<star::Family>::read_document(std::string_view text) {
  return read_star_schedule(text);
}

CheckResult JsonFace<star::Family>::check(const star::Family::Instance& instance,
                                          const Document& document) {
  return star::check(instance, document.schedule, document.stated);
}

}  // namespace redist::io
