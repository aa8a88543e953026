#include "redist/zoltan/report.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "redist/zoltan/queries.hpp"

namespace redist::zoltan {

namespace {

// The local objects in the order of their global ids, for lookups.
class IdIndex {
 public:
  IdIndex(const std::vector<ZOLTAN_ID_TYPE>& global_ids, int entries)
      : ids_(global_ids), entries_(static_cast<std::size_t>(entries)) {
    order_.resize(ids_.size() / entries_);
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::sort(order_.begin(), order_.end(),
              [&](std::size_t a, std::size_t b) { return less(at(a), at(b)); });
  }
  // The object whose global id is `id`, or size() if none.
  std::size_t find(const ZOLTAN_ID_TYPE* id) const {
    const auto it =
        std::lower_bound(order_.begin(), order_.end(), id,
                         [&](std::size_t k, const ZOLTAN_ID_TYPE* x) { return less(at(k), x); });
    if (it == order_.end() || less(id, at(*it))) return order_.size();
    return *it;
  }
  std::size_t size() const { return order_.size(); }

 private:
  const ZOLTAN_ID_TYPE* at(std::size_t k) const { return ids_.data() + k * entries_; }
  bool less(const ZOLTAN_ID_TYPE* a, const ZOLTAN_ID_TYPE* b) const {
    return std::lexicographical_compare(a, a + entries_, b, b + entries_);
  }
  const std::vector<ZOLTAN_ID_TYPE>& ids_;
  std::size_t entries_;
  std::vector<std::size_t> order_;
};

// The exports that leave the rank, as positions in the local objects; marks them.
std::vector<std::size_t> leaving_objects(const Migration& m, const IdIndex& index,
                                         std::vector<bool>& leaves,
                                         std::vector<std::size_t>& export_of) {
  const Lists& exports = *m.exports;
  const auto g = static_cast<std::size_t>(m.ids.gid_entries);
  std::vector<bool> seen(index.size(), false);
  std::vector<std::size_t> objects;
  for (std::size_t k = 0; k < exports.size(); ++k) {
    const std::size_t object = index.find(exports.global_ids.data() + k * g);
    if (object == index.size()) {
      throw CallbackError(
          fmt::format("export {} names the global id {}, which is not one of the "
                      "rank's objects (ZOLTAN_OBJ_LIST_FN)",
                      k, id_text(exports.global_ids.data(), m.ids.gid_entries, k)));
    }
    if (seen[object]) {
      throw CallbackError(fmt::format("the global id {} is exported twice",
                                      id_text(exports.global_ids.data(), m.ids.gid_entries, k)));
    }
    seen[object] = true;
    if (exports.procs[k] == m.rank) continue;  // a new part on the same rank: stays
    leaves[object] = true;
    objects.push_back(object);
    export_of.push_back(k);
  }
  return objects;
}

std::vector<Flow> flows_of(const std::map<int, Flow>& by_peer) {
  std::vector<Flow> flows;
  for (const auto& [peer, flow] : by_peer) flows.push_back(flow);
  return flows;
}

std::vector<Flow> receive_flows(const Migration& m) {
  const Lists& imports = *m.imports;
  std::map<int, Flow> by_peer;
  for (std::size_t k = 0; k < imports.size(); ++k) {
    if (imports.procs[k] == m.rank) continue;
    Flow& f = by_peer[imports.procs[k]];
    f.peer = imports.procs[k];
    ++f.objects;
    f.ids +=
        id_hash(imports.global_ids.data() + k * std::size_t(m.ids.gid_entries), m.ids.gid_entries);
  }
  return flows_of(by_peer);
}

}  // namespace

void check_lists(const Lists& lists, IdShape ids, int ranks, const char* name) {
  const std::size_t n = lists.procs.size();
  if (lists.global_ids.size() != n * std::size_t(ids.gid_entries) ||
      lists.local_ids.size() != n * std::size_t(ids.lid_entries) || lists.parts.size() != n) {
    throw CallbackError(
        fmt::format("the {} hold {} ranks, {} parts, {} global id words and {} "
                    "local id words: ids of {} and {} words need {} and {}",
                    name, n, lists.parts.size(), lists.global_ids.size(), lists.local_ids.size(),
                    ids.gid_entries, ids.lid_entries, n * std::size_t(ids.gid_entries),
                    n * std::size_t(ids.lid_entries)));
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (lists.procs[k] < 0 || lists.procs[k] >= ranks) {
      throw CallbackError(fmt::format("{} entry {} names rank {} (ranks are 0..{})", name, k,
                                      lists.procs[k], ranks - 1));
    }
  }
}

RankReport local_report(const Callbacks& callbacks, const Migration& m) {
  const LocalObjects objects = local_objects(callbacks, m.ids, m.weight_dim);
  const IdIndex index(objects.global_ids, m.ids.gid_entries);
  std::vector<bool> leaves(objects.size(), false);
  std::vector<std::size_t> export_of;
  const std::vector<std::size_t> leaving = leaving_objects(m, index, leaves, export_of);

  // The leaving objects' ids, in export order, for the size function.
  const auto g = std::size_t(m.ids.gid_entries), l = std::size_t(m.ids.lid_entries);
  std::vector<ZOLTAN_ID_TYPE> gids, lids;
  for (std::size_t k : export_of) {
    gids.insert(gids.end(), m.exports->global_ids.begin() + std::ptrdiff_t(k * g),
                m.exports->global_ids.begin() + std::ptrdiff_t((k + 1) * g));
    lids.insert(lids.end(), m.exports->local_ids.begin() + std::ptrdiff_t(k * l),
                m.exports->local_ids.begin() + std::ptrdiff_t((k + 1) * l));
  }
  const WireFormat wire(m.ids.gid_entries);
  const std::vector<int> sizes = object_sizes(callbacks, m.ids, gids, lids, wire.max_size());

  RankReport report;
  std::map<int, Flow> by_peer;
  std::int64_t total = 0;
  for (std::size_t j = 0; j < leaving.size(); ++j) {
    const int peer = m.exports->procs[export_of[j]];
    Flow& f = by_peer[peer];
    f.peer = peer;
    ++f.objects;
    f.bytes += wire.object_bytes(sizes[j]);
    f.payload += sizes[j];
    f.load += objects.loads[leaving[j]];
    f.ids += id_hash(gids.data() + j * g, m.ids.gid_entries);
    total += wire.object_bytes(sizes[j]);
    if (total > INT_MAX) {
      throw CallbackError("the exported objects take more than 2^31-1 bytes on the wire");
    }
  }
  report.sends = flows_of(by_peer);
  report.receives = receive_flows(m);
  report.objects = static_cast<std::int64_t>(objects.size());
  for (std::size_t k = 0; k < objects.size(); ++k) {
    report.load += objects.loads[k];
    if (!leaves[k]) report.kept_load += objects.loads[k];
  }
  return report;
}

}  // namespace redist::zoltan
