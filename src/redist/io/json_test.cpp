// The limits and guarantees every JSON document gets, whatever the family: hostile documents are
// refused quickly, with one short error line, and no output number is ever inf or NaN.
#include "redist/io/json.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::io {
namespace {

// The error a document gets, or "" when it parses.
std::string parse_error(std::string_view text, const JsonLimits& limits = {}) {
  try {
    parse_document(text, nullptr, limits);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(DuplicateKeys, AreRefusedWithTheirPath) {
  EXPECT_EQ(parse_error(R"({"ring": {"loads": [1], "loads": [2]}})"),
            "duplicate key (at $.ring.loads)");
  EXPECT_EQ(parse_error(R"({"a": 1, "a": 1})"), "duplicate key (at $.a)");
  // The same key in sibling objects is not a duplicate.
  EXPECT_EQ(parse_error(R"({"t": [{"a": 1}, {"a": 2}], "u": {"a": 3}})"), "");
}

// Nothing after a NUL byte may be silently ignored: the document is refused.
TEST(NulByte, IsRefusedWithItsOffset) {
  using namespace std::string_view_literals;
  EXPECT_EQ(parse_error("{\"lau\":{\"loads\":[6,0,0]}}\0{\"x\":"sv),
            "NUL byte at offset 25: a JSON document is text (at $)");
  EXPECT_EQ(parse_error("\0"sv), "NUL byte at offset 0: a JSON document is text (at $)");
  EXPECT_EQ(parse_error("{\"a\": 1}  \n"sv), "");
}

// A top-level "$schema" (the document's JSON Schema, for editors) is the one member no reader
// sees; it must be a string, and it is not special anywhere else.
TEST(SchemaReference, IsRemovedFromTheTopLevelOnly) {
  const Json document = parse_document(
      R"({"$schema": "../docs/schemas/lau-instance.schema.json", "lau": {"loads": [1, 1]}})");
  EXPECT_EQ(document, Json::parse(R"({"lau": {"loads": [1, 1]}})"));
  EXPECT_EQ(parse_document(R"({"lau": {"$schema": "x"}})"),
            Json::parse(R"({"lau": {"$schema": "x"}})"));
  EXPECT_EQ(parse_document(R"([{"$schema": "x"}])"), Json::parse(R"([{"$schema": "x"}])"));
  EXPECT_EQ(parse_error(R"({"$schema": 1, "lau": {}})"),
            R"(must be a string, got an integer (at $["$schema"]))");
  EXPECT_EQ(parse_error(R"({"$schema": "a", "$schema": "b"})"),
            R"(duplicate key (at $["$schema"]))");
  // In a streamed document too (a schedule that `check` reads).
  std::size_t consumed = 0;
  const ArrayStream stream{"transfers", [&](const Json&, std::size_t) { ++consumed; }};
  EXPECT_EQ(parse_document(R"({"$schema": "s.json", "transfers": [{"from": 0}]})", &stream),
            Json::parse(R"({"transfers": []})"));
  EXPECT_EQ(consumed, 1u);
}

TEST(DuplicateKeys, AreFoundInLargeObjects) {
  std::string text = "{";
  for (int k = 0; k < 1000; ++k) text += "\"k" + std::to_string(k) + "\": 0,";
  EXPECT_EQ(parse_error(text + "\"k999\": 1}"), "duplicate key (at $.k999)");
  EXPECT_EQ(parse_error(text + "\"k1000\": 1}"), "");
}

TEST(DuplicateKeys, AreFoundInStreamedElements) {
  std::size_t consumed = 0;
  const ArrayStream stream{"transfers", [&](const Json&, std::size_t) { ++consumed; }};
  EXPECT_THROW(parse_document(R"({"transfers": [{"from": 0, "from": 1}]})", &stream), InputError);
  EXPECT_THROW(parse_document(R"({"transfers": [], "transfers": []})", &stream), InputError);
  parse_document(R"({"transfers": [{"from": 0}, {"from": 1}]})", &stream);
  EXPECT_EQ(consumed, 2u);
}

TEST(HostileNesting, IsRefusedAtTheDepthLimitWithAShortPath) {
  // 400,000 unterminated brackets: refused at the limit, not after rebuilding a 1 MB path.
  const std::string error = parse_error(std::string(400'000, '['));
  EXPECT_NE(error.find("nested deeper than 64 levels"), std::string::npos) << error;
  EXPECT_LT(error.size(), 400u) << error;
  EXPECT_EQ(parse_error(std::string(64, '[') + std::string(64, ']')), "");
  EXPECT_NE(parse_error(std::string(65, '[') + std::string(65, ']')), "");
}

TEST(HostileSize, TooManyValuesAreRefused) {
  const JsonLimits small{64, 10};
  // The array counts as a value too.
  EXPECT_EQ(parse_error("[1,2,3,4,5,6,7,8,9]", small), "");
  EXPECT_EQ(parse_error("[1,2,3,4,5,6,7,8,9,10]", small),
            "more than 10 values in one document (the size limit of every input) (at $)");
  EXPECT_EQ(parse_error("[1,2,3,4,5,6,7,8,9,10,11]", small),
            "more than 10 values in one document (the size limit of every input) (at $[10])");
}

TEST(HostileSize, StreamedElementsDoNotCountTowardsTheLimit) {
  const JsonLimits small{64, 10};
  std::string text = R"({"transfers": [)";
  for (int k = 0; k < 100; ++k) text += std::string(k ? "," : "") + R"({"a": 1, "b": 2})";
  text += "]}";
  std::size_t consumed = 0;
  const ArrayStream stream{"transfers", [&](const Json&, std::size_t) { ++consumed; }};
  parse_document(text, &stream, small);
  EXPECT_EQ(consumed, 100u);
}

TEST(OneLineErrors, KeysWithControlCharactersAreEscaped) {
  const Json object = Json::parse("{\"bad\\nkey\": 1}");
  try {
    reject_unknown_fields(object, "$.ring", {"loads"});
    FAIL() << "unknown field accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), R"(unknown field (at $.ring["bad\\nkey"]))");
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

TEST(OneLineErrors, LongKeysAreCut) {
  const std::string path = child_path("$", std::string(100'000, 'k'));
  EXPECT_LT(path.size(), 100u) << path;
  EXPECT_NE(path.find("..."), std::string::npos);
  EXPECT_EQ(child_path("$", "cost_next"), "$.cost_next");
  EXPECT_EQ(child_path("$", "a b"), R"($["a b"])");
}

TEST(OneLineErrors, OneLineEscapesAndCuts) {
  EXPECT_EQ(one_line("a\nb\tc\x01"), "a\\nb\\tc\\x01");
  EXPECT_EQ(one_line(std::string(300, 'x'), 10), std::string(10, 'x') + "...");
  // A cut never splits a UTF-8 sequence ("é" is two bytes).
  EXPECT_EQ(one_line("aaaaaaaaa\xc3\xa9zz", 10), "aaaaaaaaa...");
}

TEST(Overflow, NonFiniteNumbersAreNeverPrinted) {
  EXPECT_THROW(json_number(std::numeric_limits<double>::infinity()), NonFiniteResult);
  EXPECT_THROW(json_number(std::nan("")), NonFiniteResult);
  EXPECT_EQ(json_number(1e308), "1e+308");
  OrderedJson document;
  document["makespan"] = 1.0;
  document["alpha"] = {0.5, std::nan("")};
  try {
    require_finite_numbers(document);
    FAIL() << "NaN accepted";
  } catch (const NonFiniteResult& e) {
    EXPECT_NE(std::string(e.what()).find("$.alpha[1]"), std::string::npos) << e.what();
  }
  document["alpha"] = {0.5, 0.5};
  document["t_single"] = nullptr;  // a deliberate null (no finite answer) is not a number
  EXPECT_NO_THROW(require_finite_numbers(document));
}

TEST(Underflow, SubnormalPositiveNumbersAreRefused) {
  EXPECT_THROW(as_positive_number(Json(1e-310), "$.c"), InputError);
  EXPECT_THROW(as_positive_number(Json(4.9e-324), "$.c"), InputError);
  EXPECT_EQ(as_positive_number(Json(std::numeric_limits<double>::min()), "$.c"),
            std::numeric_limits<double>::min());
  EXPECT_EQ(as_positive_number(Json(1e-300), "$.c"), 1e-300);
}

TEST(Overflow, NumbersBeyondADoubleAreRefusedWithTheirPath) {
  EXPECT_EQ(parse_error(R"({"c": [1, 1e999]})"),
            "must be a finite number (number overflow parsing '1e999') (at $.c[1])");
}

}  // namespace
}  // namespace redist::io
