#include "redist/common/parse.hpp"

#include <gtest/gtest.h>

namespace redist {
namespace {

template <class T>
bool refused(const Parsed<T>& p) {
  return std::holds_alternative<std::string>(p);
}

TEST(ParseInteger, TakesDecimalsInRangeOnly) {
  EXPECT_EQ(std::get<std::int64_t>(parse_integer<std::int64_t>("-42")), -42);
  EXPECT_EQ(std::get<std::uint64_t>(parse_integer<std::uint64_t>("18446744073709551615")),
            18446744073709551615u);
  EXPECT_TRUE(refused(parse_integer<std::uint64_t>("18446744073709551616")));  // 2^64
  EXPECT_TRUE(refused(parse_integer<std::uint64_t>("-1")));                    // never wrapped
  EXPECT_TRUE(refused(parse_integer<std::int64_t>("9223372036854775808")));    // never clamped
  for (const char* bad : {"0x10", "+3", "1e23", " 7", "7 ", "", "-", "1.0", "010x"}) {
    EXPECT_TRUE(refused(parse_integer<std::int64_t>(bad))) << bad;
  }
  EXPECT_EQ(std::get<int>(parse_integer<int>("007")), 7);  // leading zeros are decimal
}

TEST(ParseReal, TakesWhatADoubleKeepsAsWritten) {
  EXPECT_EQ(std::get<double>(parse_real("1.5e3")), 1500.0);
  EXPECT_EQ(std::get<double>(parse_real("-0.25")), -0.25);
  EXPECT_EQ(std::get<double>(parse_real("0")), 0.0);
  EXPECT_EQ(std::get<double>(parse_real("0.00012345678901234567e5")),
            0.00012345678901234567e5);  // 17 significant digits: leading zeros do not count
  EXPECT_TRUE(refused(parse_real("0.000123456789012345678")));  // 18
  EXPECT_TRUE(refused(parse_real("1.0000000000000000001")));
  EXPECT_TRUE(refused(parse_real("1e-320")));  // subnormal
  EXPECT_TRUE(refused(parse_real("1e309")));
  for (const char* bad : {"inf", "nan", "+1", "0x1p3", "1,5", "", ".", "e5", "1e"}) {
    EXPECT_TRUE(refused(parse_real(bad))) << bad;
  }
}

}  // namespace
}  // namespace redist
