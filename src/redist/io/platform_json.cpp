#include "redist/io/platform_json.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/io/json.hpp"

namespace redist::io {
namespace {

const std::string kRoot = "$.platform";

std::size_t read_ranks(const Json& platform) {
  const std::string path = kRoot + ".ranks";
  const std::int64_t ranks = as_int64(require(platform, kRoot, "ranks"), path);
  if (ranks < 2 || static_cast<std::uint64_t>(ranks) > exchange::kMaxNodes) {
    throw InputError(fmt::format("must be in 2..{}", exchange::kMaxNodes), path);
  }
  return static_cast<std::size_t>(ranks);
}

// One number for every rank, or one per rank.
std::vector<double> read_bandwidths(const Json& platform, const char* key, std::size_t ranks) {
  const std::string path = child_path(kRoot, key);
  const Json& value = require(platform, kRoot, key);
  if (value.is_number()) return std::vector<double>(ranks, as_positive_number(value, path));
  const Json& values = as_array(value, path);
  if (values.size() != ranks) {
    throw InputError(
        fmt::format("has {} entries, expected {} (one per rank)", values.size(), ranks), path);
  }
  std::vector<double> out(ranks);
  for (std::size_t i = 0; i < ranks; ++i)
    out[i] = as_positive_number(values[i], index_path(path, i));
  return out;
}

exchange::PlatformBackbone read_backbone(const Json& value) {
  const std::string path = kRoot + ".backbone";
  as_object(value, path);
  reject_unknown_fields(value, path, {"clusters", "bandwidth"});
  exchange::PlatformBackbone backbone;
  const Json& clusters = as_array(require(value, path, "clusters"), path + ".clusters");
  if (clusters.size() != 2) throw InputError("must list two clusters", path + ".clusters");
  for (std::size_t c = 0; c < 2; ++c) {
    backbone.clusters[c] = as_int64_array(clusters[c], index_path(path + ".clusters", c));
  }
  backbone.bandwidth = as_positive_number(require(value, path, "bandwidth"), path + ".bandwidth");
  return backbone;
}

exchange::PlatformCalibration read_calibration(const Json& value) {
  const std::string path = kRoot + ".calibration";
  as_object(value, path);
  reject_unknown_fields(value, path, {"bytes", "repetitions", "seconds"});
  return {as_int64(require(value, path, "bytes"), path + ".bytes"),
          as_int64(require(value, path, "repetitions"), path + ".repetitions"),
          as_finite_number(require(value, path, "seconds"), path + ".seconds")};
}

}  // namespace

exchange::Platform read_platform(std::string_view text) {
  const Json document = parse_document(text);
  as_object(document, "$");
  reject_unknown_fields(document, "$", {"platform"});
  const Json& platform = as_object(require(document, "$", "platform"), kRoot);
  reject_unknown_fields(
      platform, kRoot,
      {"ranks", "send_bandwidth", "recv_bandwidth", "latency", "backbone", "calibration"});
  exchange::Platform out;
  out.ranks = read_ranks(platform);
  out.send_bandwidth = read_bandwidths(platform, "send_bandwidth", out.ranks);
  out.recv_bandwidth = read_bandwidths(platform, "recv_bandwidth", out.ranks);
  if (const auto it = platform.find("latency"); it != platform.end()) {
    out.latency = as_finite_number(*it, kRoot + ".latency");
  }
  if (const auto it = platform.find("backbone"); it != platform.end()) {
    out.backbone = read_backbone(*it);
  }
  if (const auto it = platform.find("calibration"); it != platform.end()) {
    out.calibration = read_calibration(*it);
  }
  try {
    exchange::validate_platform(out);
  } catch (const InputError& e) {
    throw InputError(e.message(), "$." + e.path());  // "platform.ranks" -> "$.platform.ranks"
  }
  return out;
}

std::string platform_json(const exchange::Platform& p) {
  const auto bandwidths = [](const std::vector<double>& v) {
    const bool uniform =
        !v.empty() && std::all_of(v.begin(), v.end(), [&](double b) { return b == v.front(); });
    return uniform ? OrderedJson(v.front()) : OrderedJson(v);
  };
  OrderedJson platform;
  platform["ranks"] = p.ranks;
  platform["send_bandwidth"] = bandwidths(p.send_bandwidth);
  platform["recv_bandwidth"] = bandwidths(p.recv_bandwidth);
  platform["latency"] = p.latency;
  if (p.backbone) {
    platform["backbone"]["clusters"] = {p.backbone->clusters[0], p.backbone->clusters[1]};
    platform["backbone"]["bandwidth"] = p.backbone->bandwidth;
  }
  if (p.calibration) {
    platform["calibration"]["bytes"] = p.calibration->bytes;
    platform["calibration"]["repetitions"] = p.calibration->repetitions;
    platform["calibration"]["seconds"] = p.calibration->seconds;
  }
  OrderedJson doc;
  doc["platform"] = std::move(platform);
  return output_text(doc);
}

}  // namespace redist::io
