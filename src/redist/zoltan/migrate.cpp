// Adapter::migrate and Adapter::migrate_with_zoltan (adapter.hpp).
#include <algorithm>
#include <cstring>
#include <numeric>

#include <fmt/format.h>

#include "redist/exchange/planner.hpp"
#include "redist/mpi/exchange.hpp"
#include "redist/zoltan/adapter.hpp"
#include "redist/zoltan/agreement.hpp"
#include "redist/zoltan/queries.hpp"
#include "redist/zoltan/wire.hpp"

namespace redist::zoltan {

namespace {

// Zoltan's interface takes ids and ranks through non-const pointers; neither Zoltan_Migrate nor
// a well-behaved callback writes them, and the adapter passes the proposal's own arrays, as
// Zoltan_Migrate passes its caller's.
template <class T>
T* mutable_data(const std::vector<T>& v) {
  return v.empty() ? nullptr : const_cast<T*>(v.data());
}

// This rank's leaving objects (exports to another rank), grouped by destination, each group in
// the export list's order.
struct Outgoing {
  std::vector<ZOLTAN_ID_TYPE> global_ids, local_ids;
  std::vector<int> procs, parts;
  std::size_t size() const { return procs.size(); }
};

Outgoing outgoing_objects(const Proposal& p, int rank) {
  const Lists& e = p.exports;
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < e.size(); ++k) {
    if (e.procs[k] != rank) order.push_back(k);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return e.procs[a] < e.procs[b]; });
  const auto g = std::size_t(p.ids.gid_entries), l = std::size_t(p.ids.lid_entries);
  Outgoing out;
  for (std::size_t k : order) {
    out.global_ids.insert(out.global_ids.end(), e.global_ids.begin() + std::ptrdiff_t(k * g),
                          e.global_ids.begin() + std::ptrdiff_t((k + 1) * g));
    out.local_ids.insert(out.local_ids.end(), e.local_ids.begin() + std::ptrdiff_t(k * l),
                         e.local_ids.begin() + std::ptrdiff_t((k + 1) * l));
    out.procs.push_back(e.procs[k]);
    out.parts.push_back(e.parts[k]);
  }
  return out;
}

// A migration hook (PRE, MID or POST), in its PP form then its plain form, as Zoltan_Migrate.
template <class PP, class Plain>
void call_hooks(const Registered<PP>& pp, const Registered<Plain>& plain, const char* stage,
                const Proposal& p) {
  const Lists &i = p.imports, &e = p.exports;
  const int g = p.ids.gid_entries, l = p.ids.lid_entries;
  if (pp) {
    checked_call(fmt::format("ZOLTAN_{}_MIGRATE_PP_FN", stage).c_str(), [&](int* ierr) {
      pp.fn(pp.data, g, l, int(i.size()), mutable_data(i.global_ids), mutable_data(i.local_ids),
            mutable_data(i.procs), mutable_data(i.parts), int(e.size()), mutable_data(e.global_ids),
            mutable_data(e.local_ids), mutable_data(e.procs), mutable_data(e.parts), ierr);
    });
  }
  if (plain) {
    checked_call(fmt::format("ZOLTAN_{}_MIGRATE_FN", stage).c_str(), [&](int* ierr) {
      plain.fn(plain.data, g, l, int(i.size()), mutable_data(i.global_ids),
               mutable_data(i.local_ids), mutable_data(i.procs), int(e.size()),
               mutable_data(e.global_ids), mutable_data(e.local_ids), mutable_data(e.procs), ierr);
    });
  }
}

// Sizes of the outgoing objects, padded as Zoltan_Migrate pads them, checked against the bytes
// the proposal's instance holds for each destination.
std::vector<int> padded_sizes(const Callbacks& cb, const Proposal& p, Outgoing& out,
                              const mpi::BufferLayout& send, const WireFormat& wire) {
  std::vector<int> sizes = object_sizes(cb, p.ids, out.global_ids, out.local_ids, wire.max_size());
  std::vector<std::int64_t> bytes(send.counts.size(), 0);
  for (std::size_t j = 0; j < out.size(); ++j) {
    sizes[j] = int(wire.padded(sizes[j]));
    bytes[std::size_t(out.procs[j])] += wire.header_bytes() + std::int64_t(sizes[j]);
  }
  for (std::size_t d = 0; d < bytes.size(); ++d) {
    if (bytes[d] != send.counts[d]) {
      throw CallbackError(
          fmt::format("the objects for rank {} take {} bytes on the wire, the "
                      "proposal {}: their sizes changed since the proposal",
                      d, bytes[d], send.counts[d]));
    }
  }
  return sizes;
}

// Writes each outgoing object's header (global id, padded size) and has the application pack its
// data after it; returns the bytes written.
std::int64_t pack(const Callbacks& cb, const Proposal& p, Outgoing& out,
                  const mpi::BufferLayout& send, std::vector<char>& buffer) {
  const WireFormat wire(p.ids.gid_entries);
  std::vector<int> sizes = padded_sizes(cb, p, out, send, wire);
  std::vector<std::int64_t> cursor = send.displs;
  std::vector<int> index(out.size());
  const auto g = std::size_t(p.ids.gid_entries);
  for (std::size_t j = 0; j < out.size(); ++j) {
    std::int64_t& at = cursor[std::size_t(out.procs[j])];
    std::memcpy(buffer.data() + at, out.global_ids.data() + j * g, g * sizeof(ZOLTAN_ID_TYPE));
    std::memcpy(buffer.data() + at + wire.id_bytes(), &sizes[j], sizeof(int));
    index[j] = int(at + wire.header_bytes());
    at += wire.header_bytes() + sizes[j];
  }
  const int n = int(out.size()), l = p.ids.lid_entries;
  if (n > 0 && cb.pack_multi) {
    checked_call("ZOLTAN_PACK_OBJ_MULTI_FN", [&](int* ierr) {
      cb.pack_multi.fn(cb.pack_multi.data, int(g), l, n, out.global_ids.data(),
                       l > 0 ? out.local_ids.data() : nullptr, out.parts.data(), sizes.data(),
                       index.data(), buffer.data(), ierr);
    });
  } else {
    for (std::size_t j = 0; j < out.size(); ++j) {
      checked_call("ZOLTAN_PACK_OBJ_FN", [&](int* ierr) {
        cb.pack.fn(cb.pack.data, int(g), l, out.global_ids.data() + j * g,
                   l > 0 ? out.local_ids.data() + j * std::size_t(l) : nullptr, out.parts[j],
                   sizes[j], buffer.data() + index[j], ierr);
      });
    }
  }
  return std::accumulate(sizes.begin(), sizes.end(), std::int64_t{0}) +
         std::int64_t(out.size()) * wire.header_bytes();
}

// The received objects: global ids, padded sizes and where their data starts in the buffer.
struct Incoming {
  std::vector<ZOLTAN_ID_TYPE> global_ids;
  std::vector<int> sizes, index;
};

Incoming parse(const Proposal& p, const mpi::BufferLayout& recv, const std::vector<char>& buffer) {
  const WireFormat wire(p.ids.gid_entries);
  const auto g = std::size_t(p.ids.gid_entries);
  Incoming in;
  for (std::size_t s = 0; s < recv.counts.size(); ++s) {
    std::int64_t at = recv.displs[s];
    const std::int64_t end = at + recv.counts[s];
    while (at < end) {
      int size = -1;
      if (end - at >= wire.header_bytes()) {
        std::memcpy(&size, buffer.data() + at + wire.id_bytes(), sizeof(int));
      }
      if (size < 0 || end - at - wire.header_bytes() < size) {
        throw CallbackError(fmt::format("the message from rank {} is malformed at byte {}", s,
                                        at - recv.displs[s]));
      }
      const auto* id = reinterpret_cast<const ZOLTAN_ID_TYPE*>(buffer.data() + at);
      in.global_ids.insert(in.global_ids.end(), id, id + g);
      in.sizes.push_back(size);
      in.index.push_back(int(at + wire.header_bytes()));
      at += wire.header_bytes() + size;
    }
  }
  return in;
}

std::int64_t unpack(const Callbacks& cb, const Proposal& p, const mpi::BufferLayout& recv,
                    std::vector<char>& buffer) {
  Incoming in = parse(p, recv, buffer);
  const int n = int(in.sizes.size()), g = p.ids.gid_entries;
  if (n > 0 && cb.unpack_multi) {
    checked_call("ZOLTAN_UNPACK_OBJ_MULTI_FN", [&](int* ierr) {
      cb.unpack_multi.fn(cb.unpack_multi.data, g, n, in.global_ids.data(), in.sizes.data(),
                         in.index.data(), buffer.data(), ierr);
    });
  } else {
    for (std::size_t j = 0; j < in.sizes.size(); ++j) {
      checked_call("ZOLTAN_UNPACK_OBJ_FN", [&](int* ierr) {
        cb.unpack.fn(cb.unpack.data, g, in.global_ids.data() + j * std::size_t(g), in.sizes[j],
                     buffer.data() + in.index[j], ierr);
      });
    }
  }
  return n;
}

// This rank's objects and bytes in the proposal.
MigrationReport counts(const Proposal& p, int rank) {
  MigrationReport r;
  for (int proc : p.exports.procs) r.objects_sent += proc != rank;
  for (int proc : p.imports.procs) r.objects_received += proc != rank;
  for (const exchange::Message& m : p.instance.messages) {
    if (m.from == rank) r.bytes_sent += m.bytes;
    if (m.to == rank) r.bytes_received += m.bytes;
  }
  return r;
}

}  // namespace

MigrationReport Adapter::migrate(const Proposal& p, const exchange::Plan& plan) {
  mpi::Exchange exchange(comm_.get(), p.instance, plan);  // checks the plan, on every rank
  mpi::CallLog log("migrate", rank());
  const Callbacks cb = registered_callbacks(zz_);
  run_locally(log, [&] {
    const std::string missing = cb.missing_for_migration();
    if (!missing.empty()) throw CallbackError("no " + missing + " registered");
  });
  agree_or_throw(comm_, log);
  run_locally(log, [&] { call_hooks(cb.pre_pp, cb.pre, "PRE", p); });
  agree_or_throw(comm_, log);

  const mpi::PackedLayouts layouts = mpi::packed_layouts(p.instance, rank(), size());
  std::vector<char> send(std::size_t(layouts.send.extent()), 0);
  std::vector<char> recv(std::size_t(layouts.recv.extent()), 0);
  Outgoing out = outgoing_objects(p, rank());
  run_locally(log, [&] { pack(cb, p, out, layouts.send, send); });
  agree_or_throw(comm_, log);  // nothing has moved when this throws
  exchange.execute(send.data(), layouts.send, recv.data(), layouts.recv);

  run_locally(log, [&] { call_hooks(cb.mid_pp, cb.mid, "MID", p); });
  agree_or_throw(comm_, log);
  run_locally(log, [&] { unpack(cb, p, layouts.recv, recv); });
  agree_or_throw(comm_, log);
  run_locally(log, [&] { call_hooks(cb.post_pp, cb.post, "POST", p); });
  agree_or_throw(comm_, log);
  MigrationReport report = counts(p, rank());
  report.model_makespan = exchange.model_makespan();
  return report;
}

MigrationReport Adapter::migrate(const Proposal& p) {
  return migrate(p, exchange::plan(p.instance));
}

MigrationReport Adapter::migrate_with_zoltan(const Proposal& p) {
  mpi::CallLog log("migrate_with_zoltan", rank());
  const Lists &i = p.imports, &e = p.exports;
  const int rc = Zoltan_Migrate(
      zz_, int(i.size()), mutable_data(i.global_ids), mutable_data(i.local_ids),
      mutable_data(i.procs), mutable_data(i.parts), int(e.size()), mutable_data(e.global_ids),
      mutable_data(e.local_ids), mutable_data(e.procs), mutable_data(e.parts));
  if (rc < 0) log.fail(fmt::format("Zoltan_Migrate failed (error {})", rc));
  agree_or_throw(comm_, log);
  return counts(p, rank());
}

}  // namespace redist::zoltan
