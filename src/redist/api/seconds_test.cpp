#include "redist/api/seconds.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "redist/io/json.hpp"

namespace redist {
namespace {

TEST(Seconds, AJsonDocumentGetsItsLastMember) {
  EXPECT_EQ(with_seconds("{\n  \"valid\": true,\n  \"makespan\": 3.0\n}\n", 0.25),
            "{\n  \"valid\": true,\n  \"makespan\": 3.0,\n  \"seconds\": 0.25\n}\n");
  EXPECT_EQ(with_seconds("{}\n", 0.0), "{\n  \"seconds\": 0.0\n}\n");
  // Still one JSON document, whose other members are unchanged.
  const io::Json parsed = io::parse_document(with_seconds("{\"a\": [1, 2]}\n", 1e-6));
  EXPECT_EQ(parsed["a"], io::Json::array({1, 2}));
  EXPECT_EQ(parsed["seconds"].get<double>(), 1e-6);
}

TEST(Seconds, ATextSummaryGetsItsLastLine) {
  EXPECT_EQ(with_seconds("redist ring plan: ...\nnote: n\n", 0.5),
            "redist ring plan: ...\nnote: n\nseconds     0.5\n");
}

// What the command line writes, without a copy of the output, is with_seconds' text.
TEST(Seconds, WrittenAsReturned) {
  for (const char* output : {"{\n  \"valid\": true\n}\n", "{}\n", "{\n}\n\n", "{\"a\": 1}\n}\n",
                             "redist ring plan: ...\n", "", "{"}) {
    std::ostringstream written;
    write_with_seconds(written, output, 0.125);
    EXPECT_EQ(written.str(), with_seconds(output, 0.125)) << output;
  }
}

TEST(Seconds, CountedFromTheStartRoundedToTheMicrosecond) {
  const auto started = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const double seconds = seconds_since(started);
  EXPECT_GE(seconds, 0.002);
  EXPECT_EQ(seconds, std::round(seconds * 1e6) / 1e6);
  EXPECT_EQ(seconds_since(std::chrono::steady_clock::now() + std::chrono::hours(1)), 0.0);
}

}  // namespace
}  // namespace redist
