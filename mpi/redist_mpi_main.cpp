// redist-mpi: runs one ring redistribution on real data under mpirun and verifies it.
//
//   mpirun -np P redist-mpi --instance ring.json --item-bytes B [--mode ring|linear]
//          [--segment-items K] [--window W] [--unidirectional] [--calibrate]
//   mpirun -np P redist-mpi --random SEED --max-items M ...   (a random instance with P ranks)
//   [--strategy redist|alltoallv|linear]
//
// --strategy: `redist` (default) executes the Redistribution's plan; `alltoallv` one direct
// MPI_Alltoallv from the old to the new block distribution; `linear` LAU's Linear flows as LAU's
// single-send schedule (mpi/baselines.hpp). The two baselines keep the global order from rank 0
// (no rotation, as --mode linear) and are verified in exactly the same way.
//
// Every rank fills its block with items whose bytes encode their global index, the
// Redistribution moves them, every rank checks count, order and content of its new block and
// the staging bytes against their bound, and rank 0 prints one JSON line. Exit 0 when verified,
// 1 when not, 2 on bad input (then every rank prints the same `error: ...` line on stderr).
// Fault injection for tests: --bad-target R (rank R asks for one item more), --negative R (rank R
// passes a negative old count), --bytes-on R:B (rank R passes item size B), --overlap-on R (with
// --out-of-place: rank R passes overlapping input and output buffers).
#include <mpi.h>

// Under SMPI (smpi_helpers.h) `exit` is a macro, which clashes with CLI::App::exit; this program
// never calls exit() (it returns from main), so the macro is not needed here.
#ifdef exit
#undef exit
#endif

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "mpi/baselines.hpp"
#include "mpi/redistribution.hpp"
#include "redist/common/error.hpp"
#include "redist/io/json.hpp"
#include "redist/io/ring_json.hpp"

namespace {

using redist::mpi::wrap;

std::uint8_t item_byte(std::int64_t g, std::size_t j) {
  const std::uint64_t x = static_cast<std::uint64_t>(g) * 0x9E3779B97F4A7C15ull + j * 0x85EBCA6Bull;
  return static_cast<std::uint8_t>(x >> 56);
}

// Item g: its index in the first 8 bytes (little-endian, as many as fit), then a hash of g and j.
void fill_item(std::byte* p, std::int64_t g, std::size_t bytes) {
  for (std::size_t j = 0; j < bytes; ++j) {
    p[j] = static_cast<std::byte>(
        j < 8 ? static_cast<std::uint8_t>(static_cast<std::uint64_t>(g) >> (8 * j))
              : item_byte(g, j));
  }
}

bool check_item(const std::byte* p, std::int64_t g, std::size_t bytes) {
  for (std::size_t j = 0; j < bytes; ++j) {
    const std::uint8_t want =
        j < 8 ? static_cast<std::uint8_t>(static_cast<std::uint64_t>(g) >> (8 * j))
              : item_byte(g, j);
    if (static_cast<std::uint8_t>(p[j]) != want) return false;
  }
  return true;
}

redist::ring::Instance random_instance(int n, std::uint64_t seed, std::int64_t max_items,
                                       bool bidirectional) {
  std::mt19937_64 rng(seed);
  redist::ring::Instance in;
  in.bidirectional = bidirectional;
  std::uniform_int_distribution<std::int64_t> count(0, max_items);
  std::uniform_real_distribution<double> cost(0.5, 4.0);
  for (int i = 0; i < n; ++i) {
    in.loads.push_back(rng() % 4 == 0 ? 0 : count(rng));
    in.cost_next.push_back(cost(rng));
    if (bidirectional) in.cost_prev.push_back(cost(rng));
  }
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;
  // Targets: a random composition of the same total, with some zeros.
  std::vector<std::int64_t> cuts;
  for (int i = 0; i + 1 < n; ++i)
    cuts.push_back(total == 0 ? 0 : static_cast<std::int64_t>(rng() % (total + 1)));
  std::sort(cuts.begin(), cuts.end());
  std::int64_t prev = 0;
  for (std::int64_t c : cuts) {
    in.targets.push_back(c - prev);
    prev = c;
  }
  in.targets.push_back(total - prev);
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  CLI::App app{"redist-mpi: execute and verify a ring redistribution under mpirun"};
  std::string instance_file, mode = "ring", algorithm = "auto", bytes_on, strategy = "redist";
  std::size_t item_bytes = 8;
  std::int64_t segment_items = 1024, window = 0, sends_in_flight = 1, max_items = 100, repeat = 1;
  std::uint64_t seed = 0;
  bool random = false, unidirectional = false, calibrate = false, out_of_place = false;
  bool one_port = false;
  int bad_target = -1, negative = -1, overlap_on = -1;
  std::int64_t max_staging = -1, min_segments = 64;
  app.add_option("--instance", instance_file, "ring instance JSON (SPEC §2)");
  app.add_option("--random", seed, "use a random instance with this seed instead")
      ->each([&](const std::string&) { random = true; });
  app.add_option("--max-items", max_items, "random instances: at most this many items per rank");
  app.add_option("--item-bytes", item_bytes, "bytes per item");
  app.add_option("--mode", mode, "ring or linear")->check(CLI::IsMember({"ring", "linear"}));
  app.add_option("--strategy", strategy, "redist (default), alltoallv or linear (LAU single-send)")
      ->check(CLI::IsMember({"redist", "alltoallv", "linear"}));
  app.add_option("--algorithm", algorithm, "ring planner (ring mode)");
  app.add_option("--segment-items", segment_items, "at most this many items per message");
  app.add_option("--min-segments", min_segments, "cut each group into at least this many messages");
  app.add_option("--window", window, "staging slots per incoming group (0: automatic)");
  app.add_option("--sends-in-flight", sends_in_flight, "messages in transmission per stream");
  app.add_option("--repeat", repeat, "execute this many times (forth and back) with one plan");
  app.add_flag("--unidirectional", unidirectional, "random instances: unidirectional ring");
  app.add_flag("--out-of-place", out_of_place,
               "redist: execute from the old block into a separate new block (not in place)");
  app.add_flag("--one-port", one_port,
               "redist: a rank sending both ways sends one way at a time, in the model's order");
  app.add_flag("--calibrate", calibrate, "measure link costs instead of using the instance's");
  app.add_option("--max-staging-bytes", max_staging,
                 "cap automatic windows to this many staging bytes per rank, and fail "
                 "verification if a rank allocates more");
  app.add_option("--bad-target", bad_target, "fault injection: this rank asks for one more item");
  app.add_option("--negative", negative, "fault injection: this rank passes a negative count");
  app.add_option("--overlap-on", overlap_on,
                 "fault injection (--out-of-place): this rank passes overlapping buffers");
  app.add_option("--bytes-on", bytes_on, "fault injection R:B: rank R passes item size B");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) app.exit(e);
    MPI_Finalize();
    return e.get_exit_code() == 0 ? 0 : 2;
  }

  int exit_code = 0;
  try {
    redist::ring::Instance instance;
    if (random) {
      instance = random_instance(size, seed, max_items, !unidirectional);
    } else {
      // Rank 0 reads the document and broadcasts it; parse errors are then identical everywhere.
      std::string text, read_error;
      if (rank == 0) {
        try {
          text = redist::io::read_text(instance_file);
        } catch (const std::exception& e) {
          read_error = e.what();
        }
      }
      for (std::string* s : {&read_error, &text}) {
        std::int64_t len = static_cast<std::int64_t>(s->size());
        MPI_Bcast(&len, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
        s->resize(static_cast<std::size_t>(len));
        if (len > 0) MPI_Bcast(s->data(), static_cast<int>(len), MPI_CHAR, 0, MPI_COMM_WORLD);
      }
      if (!read_error.empty()) throw redist::mpi::Error(read_error);
      try {
        instance = redist::io::read_ring_instance(redist::io::parse_document(text));
      } catch (const std::exception& e) {
        throw redist::mpi::Error(e.what());
      }
    }
    if (static_cast<int>(instance.size()) != size) {
      throw redist::mpi::Error(
          fmt::format("the instance has {} processors but mpirun started {} "
                      "ranks (use mpirun -np {})",
                      instance.size(), size, instance.size()));
    }
    // The baselines do not rotate: they use the linear-mode plan (flows[n-1] = 0, final layout
    // and the same collective input checks).
    if (strategy != "redist") mode = "linear";
    redist::mpi::Options options;
    options.mode = mode == "linear" ? redist::mpi::Mode::linear : redist::mpi::Mode::ring;
    options.bidirectional = instance.bidirectional;
    options.segment_items = segment_items;
    options.min_segments = min_segments;
    options.window = window;
    options.sends_in_flight = sends_in_flight;
    options.algorithm = algorithm;
    options.one_port = one_port;
    if (max_staging >= 0) options.max_staging_bytes = max_staging;
    redist::mpi::LinkCosts costs{instance.cost_next[rank],
                                 instance.bidirectional ? instance.cost_prev[rank] : 1.0};
    if (calibrate) costs = redist::mpi::calibrate_link_costs(MPI_COMM_WORLD, item_bytes);
    std::int64_t old_count = instance.loads[rank], new_count = instance.targets[rank];
    if (rank == bad_target) new_count += 1;
    if (rank == negative) old_count = -1;
    std::size_t my_bytes = item_bytes;
    if (!bytes_on.empty() && std::stoi(bytes_on.substr(0, bytes_on.find(':'))) == rank) {
      my_bytes = std::stoul(bytes_on.substr(bytes_on.find(':') + 1));
    }

    redist::mpi::Redistribution redistribution(MPI_COMM_WORLD, old_count, new_count, costs,
                                               options);
    const redist::mpi::LocalPlan& lp = redistribution.local();
    const std::size_t cap = static_cast<std::size_t>(std::max(lp.load, lp.target));
    std::vector<std::byte> data(cap * std::max<std::size_t>(my_bytes, 1));
    for (std::int64_t k = 0; k < lp.load; ++k) {
      fill_item(data.data() + k * my_bytes, wrap(lp.start + k, std::max<std::int64_t>(lp.total, 1)),
                my_bytes);
    }
    std::size_t baseline_bytes = 0;
    // --out-of-place: the new block goes to `result`, the old one stays in `data`.
    std::vector<std::byte> result(out_of_place ? static_cast<std::size_t>(lp.target) *
                                                     std::max<std::size_t>(my_bytes, 1)
                                               : 0);
    auto run = [&](void* buffer, std::size_t bytes) {
      if (strategy == "alltoallv") {
        baseline_bytes =
            redist::mpi::alltoallv_execute(MPI_COMM_WORLD, redistribution, buffer, bytes);
      } else if (strategy == "linear") {
        baseline_bytes =
            redist::mpi::lau_linear_execute(MPI_COMM_WORLD, redistribution, buffer, bytes);
      } else if (out_of_place && buffer == data.data()) {
        redistribution.execute(buffer, rank == overlap_on ? data.data() + bytes : result.data(),
                               bytes);
      } else {
        redistribution.execute(buffer, bytes);
      }
    };
    if (strategy != "redist" && (my_bytes != item_bytes || out_of_place)) {
      throw redist::mpi::Error(
          "redist::mpi: --bytes-on and --out-of-place only apply to --strategy redist");
    }
    // The fixed cost outside the model: execute's one MPI_Allreduce of 5 integers (its
    // collective error check), timed alone the same way.
    MPI_Barrier(MPI_COMM_WORLD);
    double check_seconds = MPI_Wtime();
    {
      std::int64_t mine[5] = {0, 0, 0, 0, 0}, all[5];
      MPI_Allreduce(mine, all, 5, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    }
    check_seconds = MPI_Wtime() - check_seconds;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    run(data.data(), my_bytes);
    const double seconds = MPI_Wtime() - t0;

    std::int64_t bad = 0;
    const std::byte* block = out_of_place ? result.data() : data.data();
    for (std::int64_t k = 0; k < lp.target; ++k) {
      if (!check_item(block + k * my_bytes, wrap(lp.final_start + k, lp.total), my_bytes)) ++bad;
    }
    // Out of place, the old block must be left untouched.
    for (std::int64_t k = 0; out_of_place && k < lp.load; ++k) {
      if (!check_item(data.data() + k * my_bytes,
                      wrap(lp.start + k, std::max<std::int64_t>(lp.total, 1)), my_bytes))
        ++bad;
    }
    // The baselines' buffers are not bounded (one message per link, or the whole new block):
    // reported, checked only against --max-staging-bytes.
    const std::size_t staging =
        strategy == "redist" ? redistribution.last_staging_bytes() : baseline_bytes;
    const bool memory_ok = (strategy != "redist" ||
                            staging <= redistribution.staging_bound(my_bytes, !out_of_place)) &&
                           (max_staging < 0 || staging <= static_cast<std::size_t>(max_staging));
    std::int64_t mine[3] = {bad, memory_ok ? 0 : 1, static_cast<std::int64_t>(staging)};
    std::int64_t all[3];
    MPI_Allreduce(mine, all, 3, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    // A vector, forth (typed API) and repeated: the same plan reused.
    double max_seconds = 0, max_check_seconds = 0;
    MPI_Reduce(&seconds, &max_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&check_seconds, &max_check_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    std::int64_t repeat_bad = 0;
    for (std::int64_t r = 1; r < repeat; ++r) {
      std::vector<std::int64_t> v(static_cast<std::size_t>(lp.load));
      for (std::int64_t k = 0; k < lp.load; ++k) v[k] = wrap(lp.start + k, lp.total) + r;
      if (strategy == "redist" && out_of_place) {
        std::vector<std::int64_t> w;
        redistribution.execute(v, w);
        v = std::move(w);
      } else if (strategy == "redist") {
        redistribution.execute(v);
      } else {
        v.resize(static_cast<std::size_t>(std::max(lp.load, lp.target)));
        run(v.data(), sizeof(std::int64_t));
        v.resize(static_cast<std::size_t>(lp.target));
      }
      for (std::int64_t k = 0; k < lp.target; ++k) {
        if (v[k] != wrap(lp.final_start + k, lp.total) + r) ++repeat_bad;
      }
    }
    std::int64_t repeat_bad_all = 0;
    MPI_Allreduce(&repeat_bad, &repeat_bad_all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    const bool verified = all[0] == 0 && all[1] == 0 && repeat_bad_all == 0;
    if (rank == 0) {
      const auto& plan = redistribution.plan();
      // Model makespan: redist's plan; LAU single-send of the Linear flows (all-port); none for
      // Alltoallv (its messages are not ring-neighbour flows).
      std::string model = redist::io::json_number(plan.makespan), algo = plan.algorithm;
      if (strategy == "linear") {
        model = redist::io::json_number(
            redist::mpi::lau_single_send_makespan(redistribution.instance(), plan.flows));
        algo = "lau-linear-single-send";
      } else if (strategy == "alltoallv") {
        model = "null";
        algo = "alltoallv";
      }
      std::string flows;
      for (std::size_t i = 0; i < plan.flows.size(); ++i) {
        flows += fmt::format("{}{}", i ? ", " : "", plan.flows[i]);
      }
      std::cout
          << fmt::format(
                 "{{\"strategy\": \"{}\", \"ranks\": {}, \"items\": {}, \"item_bytes\": {}, "
                 "\"mode\": \"{}\", "
                 "\"bidirectional\": {}, \"algorithm\": \"{}\", \"flows\": [{}], "
                 "\"rotation\": {}, \"segment_items\": {}, \"model_makespan\": {}, "
                 "\"measured_seconds\": {}, \"check_seconds\": {}, \"max_staging_bytes\": {}, "
                 "\"bad_items\": {}, \"verified\": {}}}",
                 strategy, size, lp.total, my_bytes, mode, instance.bidirectional, algo, flows,
                 plan.rotation, segment_items, model, redist::io::json_number(max_seconds),
                 redist::io::json_number(max_check_seconds), all[2], all[0], verified)
          << std::endl;
    }
    exit_code = verified ? 0 : 1;
  } catch (const redist::mpi::Error& e) {
    const std::string line = std::string("error: ") + e.what() + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);  // one write: lines of ranks never mix
    std::fflush(stderr);
    exit_code = 2;
  }
  MPI_Finalize();
  return exit_code;
}
