#include "redist/io/exchange_json.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/testing/random_cases.hpp"

namespace redist::io {
namespace {

// A dense matrix of more non-zero entries than an instance may have messages is refused at the
// entry where the count passes the limit: the document has no "messages" member to name (it
// was refused at $.exchange.messages).
TEST(ExchangeJson, ADenseMatrixBeyondTheMessageLimitIsRefusedAtItsEntry) {
#ifdef REDIST_TESTING_SANITIZED
  GTEST_SKIP() << "5 million entries: the Release build's test";
#endif
  const std::size_t nodes = 2237;  // 2237 x 2236 = 5,001,932 off-diagonal entries
  ASSERT_GT(nodes * (nodes - 1), exchange::kMaxMessages);
  Json rows = Json::array();
  for (std::size_t i = 0; i < nodes; ++i) {
    std::vector<std::int64_t> row(nodes, 1);
    row[i] = 0;
    rows.push_back(row);
  }
  const Json document = {{"exchange", {{"nodes", nodes}, {"matrix", std::move(rows)}}}};
  try {
    (void)read_exchange_instance(document);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 5000000 messages are accepted"),
              std::string::npos)
        << e.what();
    // Rows 0..2235 hold 4,999,696 entries; the 305th of row 2236 is one too many.
    EXPECT_NE(e.path().find("matrix[2236][304]"), std::string::npos) << e.path();
  }
}

}  // namespace
}  // namespace redist::io
