#include "redist/io/suggest.hpp"

#include <gtest/gtest.h>

namespace redist::io {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndTranspositions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("ring", ""), 4u);
  EXPECT_EQ(edit_distance("ring", "ring"), 0u);
  EXPECT_EQ(edit_distance("rign", "ring"), 1u);           // transposition
  EXPECT_EQ(edit_distance("paln", "plan"), 1u);           // transposition
  EXPECT_EQ(edit_distance("cost_nxt", "cost_next"), 1u);  // insertion
  EXPECT_EQ(edit_distance("lights", "light"), 1u);        // deletion
  EXPECT_EQ(edit_distance("Ring", "ring"), 0u);           // without case
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  // Symmetric on a few pairs.
  for (const auto& [a, b] : {std::pair{"abcd", "bacd"}, {"star", "stra"}, {"dlt", "lau"}}) {
    EXPECT_EQ(edit_distance(a, b), edit_distance(b, a)) << a << " " << b;
  }
}

TEST(ClosestName, SuggestsOnlyNearNames) {
  const std::vector<std::string> commands = {"ring", "demo", "lau", "star", "dlt", "slicering"};
  EXPECT_EQ(closest_name("rign", commands), "ring");
  EXPECT_EQ(closest_name("slicring", commands), "slicering");
  EXPECT_EQ(closest_name("frobnicate", commands), "");
  EXPECT_EQ(closest_name("ring", commands), "");  // nothing mistyped
  EXPECT_EQ(closest_name("x", {"c", "w"}), "");   // one character: no guess
  EXPECT_EQ(closest_name("abcd", {"wxyz"}), "");
  // The first of equally near names.
  EXPECT_EQ(closest_name("lax", {"lau", "lab"}), "lau");
  // A long given name (a hostile key) gets no guess and costs nothing.
  EXPECT_EQ(closest_name(std::string(100000, 'k'), commands), "");
}

TEST(DidYouMean, SaysTheNameOrNothing) {
  EXPECT_EQ(did_you_mean("cost_nxt", {"loads", "cost_next"}), " (did you mean 'cost_next'?)");
  EXPECT_EQ(did_you_mean("banana", {"loads", "cost_next"}), "");
}

// An unknown value at the option gets the nearest name, in the error's own type; errors elsewhere
// (an empty path, another option, another complaint) pass unchanged.
TEST(Suggest, SuggestingAddsTheNearestNameToUnknownValuesOnly) {
  const std::vector<std::string> names{"light", "exact"};
  const auto unknown = [](const std::string& path) {
    return [path] { throw OptionError("unknown algorithm 'ligth'", path); };
  };
  try {
    suggesting("--algorithm", "ligth", names, unknown("algorithm"));
    FAIL();
  } catch (const OptionError& e) {
    EXPECT_EQ(e.message(), "unknown algorithm 'ligth'; did you mean 'light'?");
  }
  for (const char* path : {"", "-", "solver"}) {
    try {
      suggesting("--algorithm", "ligth", names, unknown(path));
      FAIL();
    } catch (const OptionError& e) {
      EXPECT_EQ(e.message(), "unknown algorithm 'ligth'") << path;
    }
  }
  EXPECT_THROW(suggesting("algorithm", "x", names, [] { throw InputError("bad", ""); }),
               InputError);
}

}  // namespace
}  // namespace redist::io
