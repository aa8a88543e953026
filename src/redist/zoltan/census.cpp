#include "redist/zoltan/census.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/mpi/packer.hpp"

namespace redist::zoltan {

namespace {

constexpr const char* kLists = "import and export lists";

// One end of a pair: (from, to) and the flow that end reported.
struct End {
  std::int64_t from = 0;
  std::int64_t to = 0;
  const Flow* flow = nullptr;
};

bool before(const End& a, const End& b) { return std::tie(a.from, a.to) < std::tie(b.from, b.to); }

void require_finite_load(double load, std::size_t rank, const char* what) {
  if (!std::isfinite(load) || load < 0.0) {
    throw InputError(
        fmt::format("rank {} reports a {} of {} (loads must be finite and >= 0)", rank, what, load),
        kLists);
  }
}

// The flows of `rank` as pair ends; `sending`: the rank is the sender of each.
void add_ends(const std::vector<Flow>& flows, std::size_t rank, std::size_t ranks, bool sending,
              std::vector<End>& ends) {
  for (const Flow& f : flows) {
    if (f.peer < 0 || static_cast<std::size_t>(f.peer) >= ranks || f.peer == std::int64_t(rank)) {
      throw InputError(fmt::format("rank {} names rank {} as a {} (ranks are 0..{}, never itself)",
                                   rank, f.peer, sending ? "destination" : "source", ranks - 1),
                       kLists);
    }
    if (f.objects < 1 || (sending && f.bytes < 1)) {
      throw InputError(fmt::format("rank {} reports an empty flow with rank {}", rank, f.peer),
                       kLists);
    }
    if (sending) require_finite_load(f.load, rank, "sent load");
    const auto me = static_cast<std::int64_t>(rank);
    ends.push_back(sending ? End{me, f.peer, &f} : End{f.peer, me, &f});
  }
}

std::vector<End> sorted_unique(std::vector<End> ends, const char* side) {
  std::sort(ends.begin(), ends.end(), before);
  for (std::size_t k = 1; k < ends.size(); ++k) {
    if (!before(ends[k - 1], ends[k])) {
      throw InputError(fmt::format("the {} flow from rank {} to rank {} is reported twice", side,
                                   ends[k].from, ends[k].to),
                       kLists);
    }
  }
  return ends;
}

std::string unmatched(const End* send, const End* receive) {
  if (receive == nullptr) {
    return fmt::format(
        "rank {} exports {} objects to rank {}, whose import list names none from it", send->from,
        send->flow->objects, send->to);
  }
  if (send == nullptr) {
    return fmt::format(
        "rank {} imports {} objects from rank {}, whose export list sends none to it", receive->to,
        receive->flow->objects, receive->from);
  }
  if (send->flow->objects != receive->flow->objects) {
    return fmt::format("rank {} exports {} objects to rank {}, which imports {} from it",
                       send->from, send->flow->objects, send->to, receive->flow->objects);
  }
  return fmt::format(
      "rank {} exports other objects to rank {} than rank {} imports from it (their global ids "
      "differ)",
      send->from, send->to, send->to);
}

// Every send matched by its receive, both ends saying the same.
void match_pairs(const std::vector<End>& sends, const std::vector<End>& receives) {
  std::size_t s = 0, r = 0;
  while (s < sends.size() || r < receives.size()) {
    const End* send = s < sends.size() ? &sends[s] : nullptr;
    const End* receive = r < receives.size() ? &receives[r] : nullptr;
    if (send && receive && before(*send, *receive)) receive = nullptr;
    if (send && receive && before(*receive, *send)) send = nullptr;
    if (!send || !receive || send->flow->objects != receive->flow->objects ||
        send->flow->ids != receive->flow->ids) {
      throw InputError(unmatched(send, receive), kLists);
    }
    ++s, ++r;
  }
}

exchange::Instance instance_of(const std::vector<End>& sends, std::size_t ranks,
                               const Platform& platform) {
  exchange::Instance in;
  in.nodes = ranks;
  for (const End& e : sends) in.messages.push_back({e.from, e.to, e.flow->bytes});
  in.send_bandwidth =
      platform.send_bandwidth.empty() ? std::vector<double>(ranks, 1.0) : platform.send_bandwidth;
  in.recv_bandwidth =
      platform.recv_bandwidth.empty() ? std::vector<double>(ranks, 1.0) : platform.recv_bandwidth;
  in.latency = platform.latency;
  exchange::validate_instance(in);
  return in;
}

}  // namespace

std::uint64_t id_hash(const ZOLTAN_ID_TYPE* gid, int entries) {
  // splitmix64's finalizer over the words, each mixed into the running value
  std::uint64_t h = 0;
  for (int k = 0; k < entries; ++k) {
    h ^= static_cast<std::uint64_t>(gid[k]);
    h += 0x9e3779b97f4a7c15ULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
  }
  return h;
}

std::vector<char> serialize(const RankReport& report) {
  mpi::Packer p;
  p.put(report.sends);
  p.put(report.receives);
  p.put(report.load);
  p.put(report.kept_load);
  p.put(report.objects);
  p.put(report.settings);
  return std::move(p.bytes);
}

RankReport deserialize(const char* bytes, std::size_t size) {
  mpi::Packer p;
  p.bytes.assign(bytes, bytes + size);
  RankReport report;
  p.get(report.sends);
  p.get(report.receives);
  p.get(report.load);
  p.get(report.kept_load);
  p.get(report.objects);
  p.get(report.settings);
  return report;
}

Census take_census(const std::vector<RankReport>& reports, const Platform& platform) {
  const std::size_t ranks = reports.size();
  if (ranks < 2) {
    throw InputError(fmt::format("{} rank: a migration needs at least 2", ranks), "ranks");
  }
  std::vector<End> sends, receives;
  for (std::size_t r = 0; r < ranks; ++r) {
    if (reports[r].settings != reports[0].settings) {
      throw InputError(fmt::format("rank {} was given other settings than rank 0 (platform, "
                                   "weight dimension or id sizes)",
                                   r),
                       "settings");
    }
    require_finite_load(reports[r].load, r, "load");
    require_finite_load(reports[r].kept_load, r, "kept load");
    add_ends(reports[r].sends, r, ranks, true, sends);
    add_ends(reports[r].receives, r, ranks, false, receives);
  }
  sends = sorted_unique(std::move(sends), "sending");
  receives = sorted_unique(std::move(receives), "receiving");
  match_pairs(sends, receives);

  Census c;
  c.instance = instance_of(sends, ranks, platform);
  c.objects_before.resize(ranks);
  c.load_before.resize(ranks);
  c.load_after.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    c.objects_before[r] = reports[r].objects;
    c.load_before[r] = reports[r].load;
    c.load_after[r] = reports[r].kept_load;
  }
  c.objects_after = c.objects_before;
  for (const End& e : sends) {
    const auto from = static_cast<std::size_t>(e.from), to = static_cast<std::size_t>(e.to);
    c.objects_after[from] -= e.flow->objects;
    c.objects_after[to] += e.flow->objects;
    c.load_after[to] += e.flow->load;
    c.moved_objects += e.flow->objects;
    c.payload_bytes += e.flow->payload;
  }
  return c;
}

}  // namespace redist::zoltan
