// The census of a Zoltan migration (census.hpp), without MPI: reports built by hand, the instance
// and loads they give, and every refusal.
#include "redist/zoltan/census.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/common/error.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/zoltan/wire.hpp"

namespace redist::zoltan {
namespace {

Flow send(std::int64_t to, std::int64_t objects, std::int64_t bytes, double load,
          std::uint64_t ids) {
  return {to, objects, bytes, bytes / 2, load, ids};
}
Flow receive(std::int64_t from, std::int64_t objects, std::uint64_t ids) {
  return {from, objects, 0, 0, 0.0, ids};
}

// Three ranks: 0 sends 2 objects to 1 and 1 to 2; 2 sends 3 objects to 0.
std::vector<RankReport> three_ranks() {
  std::vector<RankReport> r(3);
  r[0] = {{send(1, 2, 96, 3.0, 11), send(2, 1, 40, 1.5, 12)}, {receive(2, 3, 13)}, 10.0, 5.5, 6, 7};
  r[1] = {{}, {receive(0, 2, 11)}, 2.0, 2.0, 2, 7};
  r[2] = {{send(0, 3, 120, 4.0, 13)}, {receive(0, 1, 12)}, 4.0, 0.0, 3, 7};
  return r;
}

TEST(Census, MessagesAndLoadsOfMatchingReports) {
  const Census c = take_census(three_ranks(), {});
  ASSERT_EQ(c.instance.nodes, 3u);
  ASSERT_EQ(c.instance.messages.size(), 3u);
  EXPECT_EQ(c.instance.messages[0].from, 0);
  EXPECT_EQ(c.instance.messages[0].to, 1);
  EXPECT_EQ(c.instance.messages[0].bytes, 96);
  EXPECT_EQ(c.instance.messages[2].from, 2);
  EXPECT_EQ(c.instance.messages[2].bytes, 120);
  EXPECT_EQ(c.instance.send_bandwidth, std::vector<double>(3, 1.0));
  EXPECT_EQ(c.load_before, (std::vector<double>{10.0, 2.0, 4.0}));
  EXPECT_EQ(c.load_after, (std::vector<double>{9.5, 5.0, 1.5}));
  EXPECT_EQ(c.objects_after, (std::vector<std::int64_t>{6, 4, 1}));
  EXPECT_EQ(c.moved_objects, 6);
  EXPECT_EQ(c.payload_bytes, 48 + 20 + 60);
  // The instance is one the planners take: a plan checks valid.
  const exchange::Plan plan = exchange::plan(c.instance);
  EXPECT_TRUE(exchange::check(c.instance, plan).valid);
}

TEST(Census, PlatformIsUsed) {
  Platform platform{{1e9, 2e9, 3e9}, {1e9, 1e9, 1e9}, 1e-6};
  const Census c = take_census(three_ranks(), platform);
  EXPECT_EQ(c.instance.send_bandwidth, platform.send_bandwidth);
  EXPECT_EQ(c.instance.latency, 1e-6);
}

TEST(Census, NoMigrationIsAnEmptyInstance) {
  std::vector<RankReport> r(2);
  r[0].objects = 4, r[0].load = r[0].kept_load = 4.0;
  const Census c = take_census(r, {});
  EXPECT_TRUE(c.instance.messages.empty());
  EXPECT_EQ(c.load_after, c.load_before);
  EXPECT_EQ(c.moved_objects, 0);
}

void expect_refusal(const std::vector<RankReport>& reports, const std::string& part,
                    const Platform& platform = {}) {
  try {
    take_census(reports, platform);
    FAIL() << "accepted; expected: " << part;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Census, RefusesCountsThatDiffer) {
  auto r = three_ranks();
  r[1].receives[0].objects = 1;
  expect_refusal(r, "rank 0 exports 2 objects to rank 1, which imports 1 from it");
}

TEST(Census, RefusesOtherIds) {
  auto r = three_ranks();
  r[1].receives[0].ids = 99;
  expect_refusal(r, "rank 0 exports other objects to rank 1 than rank 1 imports");
}

TEST(Census, RefusesOneSidedFlows) {
  auto r = three_ranks();
  r[1].receives.clear();
  expect_refusal(r, "rank 0 exports 2 objects to rank 1, whose import list names none");
  r = three_ranks();
  r[1].receives.push_back(receive(2, 1, 5));
  expect_refusal(r, "rank 1 imports 1 objects from rank 2, whose export list sends none");
}

TEST(Census, RefusesBadPeersAndDuplicates) {
  auto r = three_ranks();
  r[0].sends[0].peer = 3;
  expect_refusal(r, "rank 0 names rank 3 as a destination");
  r = three_ranks();
  r[2].receives[0].peer = 2;
  expect_refusal(r, "rank 2 names rank 2 as a source");
  r = three_ranks();
  r[0].sends.push_back(r[0].sends[0]);
  expect_refusal(r, "reported twice");
}

TEST(Census, RefusesOtherSettingsAndTooFewRanks) {
  auto r = three_ranks();
  r[2].settings = 8;
  expect_refusal(r, "rank 2 was given other settings than rank 0");
  expect_refusal({RankReport{}}, "a migration needs at least 2");
}

TEST(Census, RefusesBadLoadsAndPlatforms) {
  auto r = three_ranks();
  r[1].load = -1.0;
  expect_refusal(r, "rank 1 reports a load of -1");
  r = three_ranks();
  r[0].sends[1].load = std::nan("");
  expect_refusal(r, "sent load");
  expect_refusal(three_ranks(), "bandwidths for 3 nodes", Platform{{1.0, 1.0}, {}, 0.0});
  expect_refusal(three_ranks(), "latency", Platform{{}, {}, -1.0});
}

// Random migrations among 2..6 ranks: reports built from a random owner change of each object
// always pass, moved objects and loads are conserved.
TEST(Census, RandomMigrationsConserveObjectsAndLoad) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    const int ranks = 2 + int(rng() % 5);
    std::vector<RankReport> r(std::size_t(ranks), RankReport{});
    const int objects = int(rng() % 40);
    double total = 0.0;
    std::vector<Flow> pair(std::size_t(ranks * ranks));
    for (int k = 0; k < objects; ++k) {
      const int from = int(rng() % unsigned(ranks)), to = int(rng() % unsigned(ranks));
      const double load = double(rng() % 10);
      const ZOLTAN_ID_TYPE gid = ZOLTAN_ID_TYPE(k);
      RankReport& owner = r[std::size_t(from)];
      ++owner.objects, owner.load += load, total += load;
      if (from == to) {
        owner.kept_load += load;
        continue;
      }
      Flow& f = pair[std::size_t(from * ranks + to)];
      ++f.objects, f.bytes += 24, f.load += load, f.ids += id_hash(&gid, 1);
    }
    for (int from = 0; from < ranks; ++from) {
      for (int to = 0; to < ranks; ++to) {
        Flow f = pair[std::size_t(from * ranks + to)];
        if (f.objects == 0) continue;
        f.peer = to;
        r[std::size_t(from)].sends.push_back(f);
        r[std::size_t(to)].receives.push_back(receive(from, f.objects, f.ids));
      }
    }
    const Census c = take_census(r, {});
    double after = 0.0;
    std::int64_t count = 0;
    for (int q = 0; q < ranks; ++q) {
      after += c.load_after[std::size_t(q)];
      count += c.objects_after[std::size_t(q)];
    }
    EXPECT_NEAR(after, total, 1e-9);
    EXPECT_EQ(count, objects);
  }
}

TEST(Census, ReportsSurviveSerialization) {
  const RankReport r = three_ranks()[0];
  const std::vector<char> bytes = serialize(r);
  const RankReport back = deserialize(bytes.data(), bytes.size());
  ASSERT_EQ(back.sends.size(), 2u);
  EXPECT_EQ(back.sends[1].bytes, 40);
  EXPECT_EQ(back.sends[1].ids, 12u);
  EXPECT_EQ(back.receives[0].peer, 2);
  EXPECT_EQ(back.kept_load, 5.5);
  EXPECT_EQ(back.settings, 7u);
}

TEST(WireFormat, MatchesZoltanPadding) {
  const WireFormat one(1), three(3);
  // Zoltan's unit on this build (Zoltan_Align): ids, the size int and data padded to it.
  EXPECT_EQ(one.header_bytes() % 8, 0);
  EXPECT_EQ(one.object_bytes(0), one.header_bytes());
  EXPECT_EQ(one.object_bytes(1), one.header_bytes() + one.padded(1));
  EXPECT_GE(three.id_bytes(), int(3 * sizeof(ZOLTAN_ID_TYPE)));
  EXPECT_GT(one.max_size(), 0);
  EXPECT_LE(one.object_bytes(one.max_size()), std::int64_t{2147483647});
}

TEST(IdHash, DiffersForDifferentIds) {
  const ZOLTAN_ID_TYPE a[2] = {1, 2}, b[2] = {2, 1};
  EXPECT_NE(id_hash(a, 2), id_hash(b, 2));
  EXPECT_NE(id_hash(a, 1), id_hash(b, 1));
  EXPECT_EQ(id_hash(a, 2), id_hash(a, 2));
}

}  // namespace
}  // namespace redist::zoltan
