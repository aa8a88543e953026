#include "redist/mpi/calibrate_platform.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/mpi/calibration_test.hpp"
#include "redist/mpi/communicator.hpp"

namespace redist::mpi {

namespace {

constexpr int kDataTag = 7501;   // the timed exchanges
constexpr int kTimesTag = 7502;  // a pair's repetition times
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string& processor_name_override() {
  static std::string name;
  return name;
}

// One rank's side of the calibration: its duplicate communicator, its log and its buffers.
struct Link {
  Communicator comm;
  CallLog log;
  std::vector<char> out, in;
  double tick = 1e-9;  // the clock's resolution: no time is taken below it
};

// The lower median (the lower middle value of an even count); +inf for none.
double lower_median(std::vector<double> values) {
  if (values.empty()) return kInfinity;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// Refuses options out of range, or different between ranks (collective).
void check_options(Link& link, const CalibrationOptions& o) {
  if (link.comm.size() < 2) link.log.fail("a platform needs at least 2 ranks");
  if (o.bytes < 1 || o.bytes > kMaxCalibrationBytes) {
    link.log.fail(fmt::format("bytes must be in 1..{} (got {})", kMaxCalibrationBytes, o.bytes));
  }
  if (o.repetitions < 1 || o.repetitions > kMaxCalibrationRepetitions) {
    link.log.fail(fmt::format("repetitions must be in 1..{} (got {})", kMaxCalibrationRepetitions,
                              o.repetitions));
  }
  // Compared as maxima of the values and of their negations (clamped: no negation overflows).
  const std::int64_t bytes = std::clamp<std::int64_t>(o.bytes, -1, kMaxCalibrationBytes + 1);
  const std::int64_t hosts = o.clusters_by_host ? 1 : 0;
  std::int64_t words[6] = {bytes, -bytes, o.repetitions, -std::int64_t{o.repetitions},
                           hosts, -hosts};
  agree_or_throw(link.comm.get(), link.log, words);
  if (words[0] != -words[1] || words[2] != -words[3] || words[4] != -words[5]) {
    throw Error("redist::mpi: calibrate_platform: the ranks were given different options");
  }
}

// The rank's partner in `round` of the circle method over an even number of seats (p, or p + 1
// with an empty seat), or -1 when it sits out. Seat `last` stays; the others turn.
int partner(int rank, int round, int size) {
  const int seats = size + size % 2, last = seats - 1;
  int other = 0;
  if (rank == last) {
    other = round;
  } else if (rank == round) {
    other = last;
  } else {
    other = ((2 * round - rank) % last + last) % last;
  }
  return other < size ? other : -1;
}

int rounds(int size) { return size - 1 + size % 2; }

// One MPI_Sendrecv of `bytes` with `peer`, timed on this rank.
double timed_exchange(Link& link, int peer, int bytes) {
  const double start = MPI_Wtime();
  link.log.check("MPI_Sendrecv", [&] {
    return MPI_Sendrecv(link.out.data(), bytes, MPI_BYTE, peer, kDataTag, link.in.data(), bytes,
                        MPI_BYTE, peer, kDataTag, link.comm.get(), MPI_STATUS_IGNORE);
  });
  return MPI_Wtime() - start;
}

// The pair's time: over `repetitions` exchanges, the fastest of the slower side's times. Both
// ranks of the pair compute the same value. Every call is made even after a failure, so that the
// partner never waits for an exchange that does not come (the round's agreement reports it).
double pair_time(Link& link, int peer, int bytes, int repetitions, bool warm_up) {
  if (warm_up) timed_exchange(link, peer, bytes);
  std::vector<double> mine(static_cast<std::size_t>(repetitions)), theirs(mine.size(), 0.0);
  for (double& t : mine) t = timed_exchange(link, peer, bytes);
  link.log.check("MPI_Sendrecv", [&] {
    return MPI_Sendrecv(mine.data(), repetitions, MPI_DOUBLE, peer, kTimesTag, theirs.data(),
                        repetitions, MPI_DOUBLE, peer, kTimesTag, link.comm.get(),
                        MPI_STATUS_IGNORE);
  });
  double best = kInfinity;
  for (std::size_t r = 0; r < mine.size(); ++r) best = std::min(best, std::max(mine[r], theirs[r]));
  return std::max(best, link.tick);
}

// The time of this rank with each partner (+inf for itself), over a whole tournament.
std::vector<double> tournament(Link& link, int bytes, int repetitions, bool warm_up) {
  const int size = link.comm.size(), rank = link.comm.rank();
  std::vector<double> time(static_cast<std::size_t>(size), kInfinity);
  for (int round = 0; round < rounds(size); ++round) {
    agree_or_throw(link.comm.get(), link.log);  // the round starts when every rank is here
    const int peer = partner(rank, round, size);
    if (peer >= 0)
      time[static_cast<std::size_t>(peer)] = pair_time(link, peer, bytes, repetitions, warm_up);
  }
  agree_or_throw(link.comm.get(), link.log);
  return time;
}

// The name this process groups under (MPI_Get_processor_name, or a test's).
std::string processor_name(Link& link) {
  if (!processor_name_override().empty()) return processor_name_override();
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  link.log.check("MPI_Get_processor_name", [&] { return MPI_Get_processor_name(name, &length); });
  return std::string(name, static_cast<std::size_t>(std::clamp(length, 0, MPI_MAX_PROCESSOR_NAME)));
}

// Every rank's cluster by host, and the number of clusters, on every rank: names gathered on
// rank 0, grouped there, broadcast.
std::vector<int> clusters_by_host(Link& link, int& count) {
  const auto size = static_cast<std::size_t>(link.comm.size());
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME, '\0'), all;
  const std::string name = processor_name(link);
  std::memcpy(mine.data(), name.data(), std::min(name.size(), mine.size() - 1));
  if (link.comm.rank() == 0) all.resize(size * mine.size());
  link.log.check("MPI_Gather", [&] {
    return MPI_Gather(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(),
                      MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, link.comm.get());
  });
  agree_or_throw(link.comm.get(), link.log);
  std::vector<int> cluster(size + 1, 0);  // the last entry: the number of clusters
  if (link.comm.rank() == 0) {
    std::vector<std::string> names(size);
    for (std::size_t i = 0; i < size; ++i) names[i] = all.data() + i * mine.size();
    int groups = 0;
    const std::vector<int> of = host_clusters(names, groups);
    std::copy(of.begin(), of.end(), cluster.begin());
    cluster.back() = groups;
  }
  link.log.check("MPI_Bcast", [&] {
    return MPI_Bcast(cluster.data(), static_cast<int>(cluster.size()), MPI_INT, 0, link.comm.get());
  });
  agree_or_throw(link.comm.get(), link.log);
  count = cluster.back();
  cluster.pop_back();
  return cluster;
}

// The ranks of each of two clusters, in rank order; the smaller first (cluster 0 on a tie).
std::array<std::vector<int>, 2> sides(const std::vector<int>& cluster) {
  std::array<std::vector<int>, 2> side;
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    side[static_cast<std::size_t>(cluster[i])].push_back(static_cast<int>(i));
  }
  if (side[1].size() < side[0].size()) std::swap(side[0], side[1]);
  return side;
}

// The backbone's fastest repetition: the slowest participant's time of s simultaneous transfers
// of `bytes` from the smaller cluster to the other; the same on every rank.
double backbone_time(Link& link, const std::vector<int>& cluster, int bytes, int repetitions) {
  const auto side = sides(cluster);
  const int rank = link.comm.rank();
  int to = -1, from = -1;
  for (std::size_t k = 0; k < side[0].size(); ++k) {
    if (side[0][k] == rank) to = side[1][k];
    if (side[1][k] == rank) from = side[0][k];
  }
  double best = kInfinity;
  agree_or_throw(link.comm.get(), link.log);
  for (int r = 0; r < repetitions; ++r) {
    const double start = MPI_Wtime();
    if (to >= 0) {
      link.log.check("MPI_Send", [&] {
        return MPI_Send(link.out.data(), bytes, MPI_BYTE, to, kDataTag, link.comm.get());
      });
    } else if (from >= 0) {
      link.log.check("MPI_Recv", [&] {
        return MPI_Recv(link.in.data(), bytes, MPI_BYTE, from, kDataTag, link.comm.get(),
                        MPI_STATUS_IGNORE);
      });
    }
    // Nanoseconds, maximised over the ranks by the agreement (which also starts the next one).
    std::int64_t slowest = std::llround((MPI_Wtime() - start) * 1e9);
    agree_or_throw(link.comm.get(), link.log, std::span(&slowest, 1));
    best = std::min(best, static_cast<double>(slowest) * 1e-9);
  }
  return std::max(best, link.tick);
}

// What each rank sends rank 0: the median of its latency times and its fastest bandwidth time.
struct RankResult {
  double latency = 0.0, fastest = 0.0;
};
static_assert(sizeof(RankResult) == 2 * sizeof(double), "gathered as two MPI_DOUBLE");

// This rank's part: the median of its latency times, and its fastest bandwidth time.
RankResult measure_pairs(Link& link, const CalibrationOptions& o) {
  const auto bytes = static_cast<int>(o.bytes);
  const std::vector<double> latency = tournament(link, 1, o.repetitions, true);
  const std::vector<double> transfer = tournament(link, bytes, o.repetitions, false);
  std::vector<double> partners;
  for (const double t : latency) {
    if (t < kInfinity) partners.push_back(t);
  }
  return {lower_median(partners), *std::min_element(transfer.begin(), transfer.end())};
}

// The backbone's measurement: bytes sent across at once, and the fastest repetition's time.
struct Backbone {
  double bytes = 0.0, seconds = 0.0;  // seconds 0: no backbone
};

Backbone measure_backbone(Link& link, const std::vector<int>& cluster,
                          const CalibrationOptions& o) {
  const double seconds = backbone_time(link, cluster, static_cast<int>(o.bytes), o.repetitions);
  return {static_cast<double>(sides(cluster)[0].size()) * static_cast<double>(o.bytes), seconds};
}

// Rank 0's platform from every rank's results: latency, backbone bandwidth (0: none), then each
// rank's bandwidth.
std::vector<double> platform_words(const std::vector<RankResult>& all, std::int64_t bytes,
                                   const Backbone& backbone) {
  std::vector<double> latencies;
  for (const RankResult& r : all) latencies.push_back(r.latency);
  const double latency = lower_median(latencies);
  std::vector<double> words = {latency, 0.0};
  if (backbone.seconds > 0) words[1] = backbone.bytes / backbone.seconds;
  for (const RankResult& r : all) {
    // A pair faster than the median latency: its whole time, a safe lower bound on its rate.
    const double transfer = r.fastest > latency ? r.fastest - latency : r.fastest;
    words.push_back(static_cast<double>(bytes) / transfer);
  }
  return words;
}

// Every rank's results gathered on rank 0, the platform's words computed there (with the seconds
// since `start` as the third word) and broadcast: the same words on every rank.
std::vector<double> gathered_words(Link& link, const RankResult& mine, const CalibrationOptions& o,
                                   const Backbone& backbone, double start) {
  const int size = link.comm.size();
  std::vector<RankResult> all(link.comm.rank() == 0 ? static_cast<std::size_t>(size) : 0);
  link.log.check("MPI_Gather", [&] {
    return MPI_Gather(&mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, link.comm.get());
  });
  agree_or_throw(link.comm.get(), link.log);
  std::vector<double> words(static_cast<std::size_t>(size) + 3, 0.0);
  if (link.comm.rank() == 0) {
    words = platform_words(all, o.bytes, backbone);
    words.insert(words.begin() + 2, MPI_Wtime() - start);
  }
  link.log.check("MPI_Bcast", [&] {
    return MPI_Bcast(words.data(), static_cast<int>(words.size()), MPI_DOUBLE, 0, link.comm.get());
  });
  agree_or_throw(link.comm.get(), link.log);
  return words;
}

// The platform of the broadcast words: latency, backbone bandwidth, seconds, the bandwidths.
exchange::Platform make_platform(const std::vector<double>& words, const std::vector<int>& cluster,
                                 const CalibrationOptions& o) {
  exchange::Platform p;
  p.ranks = words.size() - 3;
  p.latency = words[0];
  p.send_bandwidth.assign(words.begin() + 3, words.end());
  p.recv_bandwidth = p.send_bandwidth;
  if (words[1] > 0) {
    exchange::PlatformBackbone backbone{{}, words[1]};
    for (std::size_t i = 0; i < cluster.size(); ++i) {
      backbone.clusters[static_cast<std::size_t>(cluster[i])].push_back(
          static_cast<std::int64_t>(i));
    }
    p.backbone = std::move(backbone);
  }
  p.calibration = exchange::PlatformCalibration{o.bytes, o.repetitions, words[2]};
  return p;
}

}  // namespace

namespace testing {

void set_processor_name(std::string name) { processor_name_override() = std::move(name); }

}  // namespace testing

std::string host_cluster_key(std::string_view name) {
  std::string key(name.substr(0, name.find('.')));
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto kept = key.find_last_not_of("0123456789-_");
  return kept == std::string::npos ? key : key.substr(0, kept + 1);
}

std::vector<int> host_clusters(std::span<const std::string> names, int& count) {
  std::map<std::string, int> number;
  std::vector<int> cluster;
  cluster.reserve(names.size());
  for (const std::string& name : names) {
    const auto [it, added] =
        number.try_emplace(host_cluster_key(name), static_cast<int>(number.size()));
    cluster.push_back(it->second);
  }
  count = static_cast<int>(number.size());
  return cluster;
}

exchange::Platform calibrate_platform(MPI_Comm comm, const CalibrationOptions& options) {
  const double start = MPI_Wtime();
  Link link{Communicator(comm, "calibrate_platform"), CallLog("calibrate_platform"), {}, {}};
  link.log.set_rank(link.comm.rank());
  link.tick = std::max(MPI_Wtick(), 1e-9);
  check_options(link, options);
  link.out.assign(static_cast<std::size_t>(options.bytes), '\1');
  link.in.assign(static_cast<std::size_t>(options.bytes), '\0');
  const RankResult mine = measure_pairs(link, options);
  int groups = 1;
  std::vector<int> cluster;
  Backbone backbone;
  if (options.clusters_by_host) {
    cluster = clusters_by_host(link, groups);
    if (groups == 2) backbone = measure_backbone(link, cluster, options);
  }
  const std::vector<double> words = gathered_words(link, mine, options, backbone, start);
  exchange::Platform platform =
      make_platform(words, groups == 2 ? cluster : std::vector<int>{}, options);
  try {
    exchange::validate_platform(platform);  // identical on every rank, so is its verdict
  } catch (const InputError& e) {
    throw Error(std::string("redist::mpi: calibrate_platform: measured an invalid platform: ") +
                e.what());
  }
  return platform;
}

}  // namespace redist::mpi
