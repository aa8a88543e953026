// SliceRing cluster reader (docs/slicering.md): any bytes either read or refused with an
// InputError. A read cluster survives writing and reading back unchanged.
#include "fuzz/fuzz_support.hpp"
#include "redist/io/slicering_json.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const slicering::Cluster cluster =
        io::read_cluster(io::parse_document(fuzz::as_text(data, size)));
    const std::string written = io::write_cluster(cluster).dump();
    fuzz::parse_output(written, "write_cluster");
    const slicering::Cluster again = fuzz::must_succeed(
        "reading back a cluster", [&] { return io::read_cluster(io::parse_document(written)); });
    bool same = again.w == cluster.w && again.W == cluster.W && again.H == cluster.H;
    const std::size_t p = cluster.size();
    for (std::size_t i = 0; same && i < p; ++i) {
      for (std::size_t j = 0; j < p; ++j)
        same = same && (i == j || again.cost(i, j) == cluster.cost(i, j));
    }
    fuzz::require(same, "cluster changed by writing and reading back");
  });
  return 0;
}
