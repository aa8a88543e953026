#include "redist/common/result.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace redist {
namespace {

PlanClaims claims(double makespan, std::optional<double> lower_bound) {
  PlanClaims c;
  c.makespan = makespan;
  c.lower_bound = lower_bound;
  return c;
}

TEST(PlanClaims, StatusWordsReadBack) {
  for (Status s : {Status::optimal, Status::feasible, Status::time_limit, Status::node_limit}) {
    EXPECT_EQ(status_named(to_string(s)), s);
  }
  EXPECT_STREQ(to_string(Status::time_limit), "time limit");
  EXPECT_STREQ(to_string(Status::node_limit), "node limit");
  EXPECT_EQ(status_named("time_limit"), std::nullopt);
  EXPECT_EQ(status_named(""), std::nullopt);
}

TEST(PlanClaims, ANewPlanIsFeasibleAndConsistent) {
  const PlanClaims c;
  EXPECT_EQ(c.status, Status::feasible);
  EXPECT_FALSE(c.lower_bound);
  EXPECT_TRUE(c.consistent());
}

TEST(PlanClaims, ProvingStoppingAndDroppingKeepTheClaimsConsistent) {
  PlanClaims c = claims(5, 4);
  c.prove_optimal(Proof::search);
  EXPECT_EQ(c.status, Status::optimal);
  EXPECT_TRUE(c.consistent());
  c.stop_at(Status::time_limit);
  EXPECT_FALSE(c.optimal);
  EXPECT_EQ(c.proof, Proof::none);
  EXPECT_EQ(c.status, Status::time_limit);
  EXPECT_TRUE(c.consistent());
  c.prove_optimal(Proof::lower_bound);
  c.drop_proof();
  EXPECT_EQ(c.status, Status::feasible);
  EXPECT_TRUE(c.consistent());
}

TEST(PlanClaims, InconsistentClaimsAreCaught) {
  PlanClaims optimal_but_feasible;
  optimal_but_feasible.optimal = true;
  optimal_but_feasible.proof = Proof::search;
  EXPECT_FALSE(optimal_but_feasible.consistent());
  PlanClaims status_without_optimal;
  status_without_optimal.status = Status::optimal;
  EXPECT_FALSE(status_without_optimal.consistent());
  PlanClaims proof_without_optimal;
  proof_without_optimal.proof = Proof::theorem;
  EXPECT_FALSE(proof_without_optimal.consistent());
  // A document read from a file states optimal without a proof: consistent.
  PlanClaims read;
  read.optimal = true;
  read.status = Status::optimal;
  EXPECT_TRUE(read.consistent());
  EXPECT_TRUE(stopped_at_limit(Status::node_limit));
  EXPECT_FALSE(stopped_at_limit(Status::feasible));
}

TEST(PlanClaims, GapIsMakespanOverBoundMinusOne) {
  EXPECT_EQ(claims(5, 4).gap(), 0.25);
  EXPECT_EQ(claims(3, 4).gap(), 0.0);  // never negative
  EXPECT_EQ(claims(0, 0).gap(), 0.0);
  EXPECT_EQ(claims(5, std::nullopt).gap(), std::nullopt);
  EXPECT_EQ(claims(5, 0).gap(), std::nullopt);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(claims(inf, inf).gap(), std::nullopt);
  EXPECT_EQ(claims(1e308, 1e-308).gap(), std::nullopt);
  PlanClaims proven = claims(4.000000000000001, 4);
  proven.prove_optimal(Proof::lower_bound);
  EXPECT_EQ(proven.gap(), 0.0);
}

}  // namespace
}  // namespace redist
