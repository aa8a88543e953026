// The platform file (docs/formats.md, "Platform file"): what the MPI_Alltoallv drop-in knows of the
// ranks it plans for (redist/exchange/platform.hpp), as redist-calibrate writes it and
// REDIST_PLATFORM names it.
//
//   {"platform": {"ranks": 4, "send_bandwidth": [1e9, 1e9, 5e8, 1e9], "recv_bandwidth": 1e9,
//                 "latency": 2e-6, "backbone": {"clusters": [[0, 1], [2, 3]], "bandwidth": 1e9},
//                 "calibration": {"bytes": 1048576, "repetitions": 3, "seconds": 0.12}}}
#pragma once

#include <string>
#include <string_view>

#include "redist/exchange/platform.hpp"

namespace redist::io {

// The platform of a document's text, checked as validate_platform checks it. InputError at the
// JSONPath of the first problem ($.platform.send_bandwidth[2]): malformed JSON, a missing or
// unknown field, a value of the wrong type (an integer written 5.0), a bandwidth that is not a
// normal positive number, a latency or calibration time that is negative, the errors of
// validate_platform. "ranks", "send_bandwidth" and "recv_bandwidth" are required (a bandwidth is
// one number for every rank or one per rank); "latency" defaults to 0; "backbone" and
// "calibration" are optional. O(size of the text).
exchange::Platform read_platform(std::string_view text);

// The document that read_platform reads back into the same platform (every double in its shortest
// form that reads back exactly; a bandwidth equal on every rank written as one number). The
// platform is written as it is; NonFiniteResult when a number is not finite.
std::string platform_json(const exchange::Platform& platform);

}  // namespace redist::io
