#include "redist/io/formats.hpp"

#include <gtest/gtest.h>

#include "redist/io/options.hpp"

namespace redist::io {
namespace {

DocumentKind kind(std::string_view text, std::string_view expected = "") {
  return classify_document(parse_document(text), expected);
}

TEST(ClassifyDocument, TellsTheFamiliesInstancesApart) {
  EXPECT_EQ(kind(R"({"ring": {"loads": [1, 1]}})").family, "ring");
  EXPECT_EQ(kind(R"({"star": {"c": [1], "w": [1], "loads": [1]}})").family, "star");
  EXPECT_EQ(kind(R"({"cluster": {"w": [1]}})").family, "slicering");
  const DocumentKind exchange = kind(R"({"exchange": {"nodes": 2}})");
  EXPECT_EQ(exchange.family, "exchange");
  EXPECT_EQ(exchange.role, DocumentRole::instance);
  EXPECT_TRUE(exchange.wrapped);
}

TEST(ClassifyDocument, FindsInstanceFieldsOutsideTheirObject) {
  const DocumentKind ring = kind(R"({"loads": [1, 1], "cost_next": 1})", "star");
  EXPECT_EQ(ring.family, "ring");
  EXPECT_EQ(ring.role, DocumentRole::instance);
  EXPECT_FALSE(ring.wrapped);
  // Bare loads fit several families: the expected one wins.
  EXPECT_EQ(kind(R"({"loads": [1, 1]})", "lau").family, "lau");
  EXPECT_EQ(kind(R"({"loads": [1, 1]})", "star").family, "star");
}

TEST(ClassifyDocument, RecognisesOutputsByTheirMembersAndTransfers) {
  const DocumentKind ring = kind(
      R"({"algorithm": "x", "transfers": [{"from": 0, "dir": "next", "start": 0, "count": 1}]})",
      "star");
  EXPECT_EQ(ring.family, "ring");
  EXPECT_EQ(ring.role, DocumentRole::output);
  EXPECT_EQ(
      kind(R"({"transfers": [{"from": 0, "to": 1, "send_start": 0, "forward_start": 1}]})").family,
      "star");
  EXPECT_EQ(kind(R"({"flows": [1, -1], "mode": "single"})").family, "lau");
  EXPECT_EQ(kind(R"({"ring": [0, 1], "alpha": [0.5, 0.5]})").family, "slicering");
  EXPECT_EQ(kind(R"({"pieces": []})").family, "exchange");
  EXPECT_EQ(kind(R"({"old": [0], "new": [1]})").role, DocumentRole::ownership);
}

TEST(ClassifyDocument, LeavesOtherDocumentsUnknown) {
  EXPECT_EQ(kind("[1, 2]").role, DocumentRole::unknown);
  EXPECT_EQ(kind("{}").role, DocumentRole::unknown);
  EXPECT_EQ(kind(R"({"banana": 1})").role, DocumentRole::unknown);
  // "ring" holding no object is no ring instance (a bare balance document has such a member).
  EXPECT_NE(kind(R"({"ring": 3})").family, "ring");
}

TEST(Explained, SaysWhereAFieldOfAnotherDocumentBelongs) {
  const InputError flows = explained(InputError("unknown field", "$.ring.flows"), "$.ring");
  EXPECT_EQ(std::string(flows.what()),
            "not allowed here: flows belongs to a ring schedule (what `redist ring plan` prints) "
            "(at $.ring.flows)");
  // star order's instance given a star plan's field: no meaning of `loads` as if it were known.
  const InputError loads = explained(InputError("unknown field", "$.star.loads"), "$.star");
  EXPECT_EQ(loads.message(),
            "not allowed here: loads belongs to the instance of `redist star plan`, inside "
            "{\"star\": {...}}");
  // A field no document of the family has stays unknown, with its suggestion.
  const InputError typo = explained(
      InputError("unknown field (did you mean 'cost_next'?)", "$.ring.cost_nxt"), "$.ring");
  EXPECT_EQ(typo.message(), "unknown field (did you mean 'cost_next'?)");
  // Other errors still say what their field means.
  const InputError missing = explained(InputError("missing field", "$.star.w"), "$.star");
  EXPECT_NE(missing.message().find("w: the time worker i takes"), std::string::npos);
  EXPECT_EQ(with_field_meaning(InputError("unknown field", "$.star.loads")).message(),
            "unknown field");
}

}  // namespace
}  // namespace redist::io
