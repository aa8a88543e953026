// Every family's plan document round-trips the claims every plan states alike (PlanClaims):
// status, lower_bound and gap, with and without a status (documents written before plans stated
// it), after a search stopped at a limit, and without a known bound.
#include <gtest/gtest.h>

#include <string>

#include "redist/common/error.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/json.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/io/star_json.hpp"
#include "redist/lau/planner.hpp"
#include "redist/ring/planner.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/star/planner.hpp"

namespace redist::io {
namespace {

// The document states the claims as they are: status in words, lower_bound and gap (gap())
// exactly when known.
void expect_document_states(const PlanClaims& claims, const Json& document) {
  EXPECT_EQ(document.at("status").get<std::string>(), to_string(claims.status));
  EXPECT_EQ(document.contains("lower_bound"), claims.lower_bound.has_value());
  const std::optional<double> gap = claims.gap();
  ASSERT_EQ(document.contains("gap"), gap.has_value()) << document.dump();
  if (gap) {
    EXPECT_DOUBLE_EQ(document["gap"].get<double>(), *gap);
  }
}

void expect_same_claims(const PlanClaims& read, const PlanClaims& planned) {
  EXPECT_EQ(read.status, planned.status);
  EXPECT_EQ(read.optimal, planned.optimal);
  EXPECT_EQ(read.lower_bound.has_value(), planned.lower_bound.has_value());
  if (read.lower_bound && planned.lower_bound) {
    EXPECT_DOUBLE_EQ(*read.lower_bound, *planned.lower_bound);
  }
  EXPECT_EQ(read.gap().has_value(), planned.gap().has_value());
  EXPECT_TRUE(read.consistent());
}

// `write` then `read` on `planned`, as planned, then stopped at its time limit; then the document
// without its status reads as optimal or feasible by `optimal`, and a status that contradicts
// `optimal` or is no status word is refused at $.status.
template <class Result, class Write, class Read>
void expect_round_trip(Result planned, Write write, Read read) {
  for (int stopped = 0; stopped < 2; ++stopped) {
    if (stopped) planned.stop_at(Status::time_limit);
    const std::string text = write(planned);
    const Json document = Json::parse(text);
    expect_document_states(planned, document);
    expect_same_claims(read(text), planned);
  }
  Json older = Json::parse(write(planned));
  older.erase("status");
  EXPECT_EQ(read(older.dump()).status, Status::feasible);
  for (const char* bad : {"optimal", "time_limit", "done"}) {
    Json wrong = Json::parse(write(planned));
    wrong["status"] = bad;
    try {
      read(wrong.dump());
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), "$.status") << bad;
    }
  }
}

TEST(ClaimsJson, Ring) {
  const ring::Instance in =
      read_ring_instance(parse_document(R"({"ring": {"loads": [5, 1, 3, 7], "targets": [4, 4, 4, 4],
                                  "cost_next": [1, 2, 1, 1]}})"));
  const ring::Schedule s = ring::plan(in);
  EXPECT_EQ(s.status, Status::optimal);
  expect_document_states(s, Json::parse(ring_schedule_json(s)));
  expect_round_trip(
      s, [](const ring::Schedule& x) { return ring_schedule_json(x); },
      [](const std::string& text) { return read_ring_schedule(text).schedule; });
}

TEST(ClaimsJson, Star) {
  const star::Instance in = read_star_instance(
      parse_document(R"({"star": {"c": [1, 1, 1], "w": [1, 1, 1], "loads": [6, 0, 0]}})"));
  const star::Schedule s = star::plan(in, {"bba"});
  expect_document_states(s, Json::parse(star_schedule_json(s)));
  expect_round_trip(
      s, [](const star::Schedule& x) { return star_schedule_json(x); },
      [](const std::string& text) { return read_star_schedule(text).schedule; });
}

TEST(ClaimsJson, Dlt) {
  const dlt::Instance in =
      read_dlt_instance(parse_document(R"({"dlt": {"b": [1, 1], "s": [1, 1], "alpha": [2, 0]}})"));
  const dlt::Schedule s = dlt::plan(in);
  EXPECT_EQ(s.algorithm, "lp7");
  EXPECT_EQ(s.status, Status::optimal);
  expect_round_trip(
      s, [](const dlt::Schedule& x) { return dlt_plan_json(x); },
      [](const std::string& text) { return read_dlt_schedule(text).schedule; });
}

TEST(ClaimsJson, Lau) {
  const lau::Instance in =
      read_lau_document(parse_document(R"({"lau": {"loads": [6, 0, 0]}})"), false).instance;
  for (const char* algorithm : {"optimal", "linear"}) {
    lau::PlanOptions options;
    options.algorithm = algorithm;
    const lau::Plan p = lau::plan(in, options);
    expect_round_trip(
        p, [](const lau::Plan& x) { return lau_plan_json(x); },
        [](const std::string& text) { return read_lau_plan(parse_document(text)).plan; });
  }
}

TEST(ClaimsJson, SliceRingWithAndWithoutABound) {
  const slicering::Cluster cluster = read_cluster(parse_document(
      R"({"cluster": {"w": [1, 2, 4], "c": [[0, 1, 1], [1, 0, 1], [1, 1, 0]], "W": 100, "H": 1}})"));
  for (const char* algorithm : {"auto", "greedy"}) {
    slicering::PlanOptions options;
    options.algorithm = algorithm;
    const slicering::Solution s = slicering::plan(cluster, options);
    if (std::string(algorithm) == "greedy") {
      EXPECT_FALSE(s.lower_bound);
      EXPECT_FALSE(s.gap());
    }
    expect_round_trip(
        s, [](const slicering::Solution& x) { return write_slicering_solution(x).dump(); },
        [](const std::string& text) {
          return solution_of(read_slicering_solution(parse_document(text)));
        });
  }
}

TEST(ClaimsJson, Exchange) {
  const exchange::Instance in = read_exchange_instance(parse_document(
      R"({"exchange": {"nodes": 3, "messages": [[0, 1, 3], [0, 2, 1], [1, 0, 4],
                                                 [1, 2, 1], [2, 0, 2], [2, 1, 4]]}})"));
  for (const char* algorithm : {"auto", "whole"}) {
    const exchange::Plan p = exchange::plan(in, algorithm);
    expect_round_trip(
        p, [](const exchange::Plan& x) { return exchange_plan_json(x); },
        [](const std::string& text) { return read_exchange_plan(text).plan; });
  }
}

}  // namespace
}  // namespace redist::io
