#include "redist/zoltan/adapter.hpp"

#include <bit>
#include <climits>
#include <span>
#include <string>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/zoltan/agreement.hpp"
#include "redist/zoltan/queries.hpp"
#include "redist/zoltan/report.hpp"

namespace redist::zoltan {

namespace {

// FNV-1a over the words every rank must share.
std::uint64_t settings_digest(const ProposalOptions& o, IdShape ids, int ranks) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  const auto add = [&](std::uint64_t word) {
    for (int k = 0; k < 8; ++k) {
      h ^= (word >> (8 * k)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  };
  add(std::uint64_t(ranks)), add(std::uint64_t(ids.gid_entries));
  add(std::uint64_t(ids.lid_entries)), add(std::uint64_t(o.weight_dim));
  for (const auto* v : {&o.platform.send_bandwidth, &o.platform.recv_bandwidth}) {
    add(v->size());
    for (double b : *v) add(std::bit_cast<std::uint64_t>(b));
  }
  add(std::bit_cast<std::uint64_t>(o.platform.latency));
  return h;
}

void check_settings(const ProposalOptions& o, IdShape ids) {
  if (o.weight_dim < 0 || o.weight_dim > kMaxWeightDim) {
    throw CallbackError(fmt::format("weight_dim {} is not in 0..{}", o.weight_dim, kMaxWeightDim));
  }
  if (ids.gid_entries < 1 || ids.lid_entries < 0) {
    throw CallbackError(fmt::format("ids of {} global and {} local words (at least 1 and 0)",
                                    ids.gid_entries, ids.lid_entries));
  }
}

// Every rank's bytes on the wire, sent and received, within an int (Zoltan's callbacks' indices).
void check_rank_bytes(const exchange::Instance& in) {
  std::vector<std::int64_t> sent(in.nodes, 0), received(in.nodes, 0);
  for (const exchange::Message& m : in.messages) {
    sent[std::size_t(m.from)] += m.bytes;
    received[std::size_t(m.to)] += m.bytes;
  }
  for (std::size_t r = 0; r < in.nodes; ++r) {
    if (sent[r] > INT_MAX || received[r] > INT_MAX) {
      throw InputError(fmt::format("rank {} would send {} and receive {} bytes: at most 2^31-1 "
                                   "each way",
                                   r, sent[r], received[r]),
                       "import and export lists");
    }
  }
}

}  // namespace

Adapter::Adapter(MPI_Comm comm, Zoltan_Struct* zz) : comm_(comm, "zoltan::Adapter"), zz_(zz) {
  mpi::CallLog log("Adapter", rank());
  if (zz == nullptr) log.fail("the Zoltan handle is null");
  agree_or_throw(comm_, log);
}

Proposal Adapter::propose(const ProposalOptions& options) {
  mpi::CallLog log("propose", rank());
  ZoltanArrays imports, exports;
  int changes = 0;
  Proposal p;
  const int rc = Zoltan_LB_Partition(
      zz_, &changes, &p.ids.gid_entries, &p.ids.lid_entries, &imports.count, &imports.global_ids,
      &imports.local_ids, &imports.procs, &imports.parts, &exports.count, &exports.global_ids,
      &exports.local_ids, &exports.procs, &exports.parts);
  if (rc < 0) log.fail(fmt::format("Zoltan_LB_Partition failed (error {})", rc));
  std::int64_t missing[2] = {imports.count < 0, exports.count < 0};
  agree_or_throw(comm_, log, missing);
  if (missing[0] && missing[1]) {
    throw mpi::Error(
        "redist::zoltan: propose: Zoltan_LB_Partition returned no import and no export list "
        "(RETURN_LISTS)");
  }
  if (missing[0] || missing[1]) {
    // Every rank computes the side some rank lacks from the side every rank has.
    ZoltanArrays& given = missing[0] ? exports : imports;
    ZoltanArrays& computed = missing[0] ? imports : exports;
    ZoltanArrays inverted;
    const int rc2 =
        Zoltan_Invert_Lists(zz_, given.count, given.global_ids, given.local_ids, given.procs,
                            given.parts, &inverted.count, &inverted.global_ids, &inverted.local_ids,
                            &inverted.procs, &inverted.parts);
    if (rc2 < 0) log.fail(fmt::format("Zoltan_Invert_Lists failed (error {})", rc2));
    agree_or_throw(comm_, log);
    std::swap(computed.count, inverted.count);
    std::swap(computed.global_ids, inverted.global_ids);
    std::swap(computed.local_ids, inverted.local_ids);
    std::swap(computed.procs, inverted.procs);
    std::swap(computed.parts, inverted.parts);
  }
  p.imports = copy_lists(imports, p.ids);
  p.exports = copy_lists(exports, p.ids);
  p.changes = changes != 0;
  return census(std::move(p), options, log);
}

Proposal Adapter::propose_lists(IdShape ids, Lists imports, Lists exports,
                                const ProposalOptions& options) {
  mpi::CallLog log("propose", rank());
  Proposal p;
  p.ids = ids;
  p.imports = std::move(imports);
  p.exports = std::move(exports);
  p = census(std::move(p), options, log);
  p.changes = p.moved_objects > 0;
  return p;
}

Proposal Adapter::census(Proposal p, const ProposalOptions& options, mpi::CallLog& log) {
  RankReport mine;
  run_locally(log, [&] {
    check_settings(options, p.ids);
    check_lists(p.imports, p.ids, size(), "imports");
    check_lists(p.exports, p.ids, size(), "exports");
    const Migration m{p.ids, &p.imports, &p.exports, options.weight_dim, rank(), size()};
    mine = local_report(registered_callbacks(zz_), m);
  });
  mine.settings = settings_digest(options, p.ids, size());
  const std::vector<RankReport> reports = gather(mine, log);
  try {
    Census c = take_census(reports, options.platform);
    check_rank_bytes(c.instance);
    static_cast<Census&>(p) = std::move(c);
  } catch (const InputError& e) {
    // The same reports on every rank: the same error on every rank.
    throw mpi::Error(std::string("redist::zoltan: propose: ") + e.what());
  }
  return p;
}

std::vector<RankReport> Adapter::gather(const RankReport& mine, mpi::CallLog& log) {
  agree_or_throw(comm_, log);  // a rank that failed locally stops every rank here
  const std::vector<char> bytes = serialize(mine);
  std::vector<std::int64_t> sizes(std::size_t(size()), 0);
  const std::int64_t my_size = std::int64_t(bytes.size());
  log.check("MPI_Allgather", [&] {
    return MPI_Allgather(&my_size, 1, MPI_INT64_T, sizes.data(), 1, MPI_INT64_T, comm_.get());
  });
  agree_or_throw(comm_, log);
  std::vector<int> counts(sizes.size()), displs(sizes.size());
  std::int64_t total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    if (total + sizes[r] > INT_MAX) {
      throw mpi::Error("redist::zoltan: propose: the ranks' reports exceed 2^31-1 bytes");
    }
    counts[r] = int(sizes[r]);
    displs[r] = int(total);
    total += sizes[r];
  }
  std::vector<char> all(static_cast<std::size_t>(total));
  log.check("MPI_Allgatherv", [&] {
    return MPI_Allgatherv(bytes.data(), int(bytes.size()), MPI_BYTE, all.data(), counts.data(),
                          displs.data(), MPI_BYTE, comm_.get());
  });
  agree_or_throw(comm_, log);
  std::vector<RankReport> reports;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    reports.push_back(deserialize(all.data() + displs[r], std::size_t(counts[r])));
  }
  return reports;
}

}  // namespace redist::zoltan
