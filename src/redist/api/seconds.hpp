// "seconds": every result states the wall time spent on it (docs/formats.md, "Seconds"), as the
// command line prints it and Python returns it. The planners' documents themselves never hold it
// (the same plan prints the same document); the faces add it as the result leaves them.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>
#include <string_view>

namespace redist {

// The seconds since `started`, rounded to the microsecond (>= 0, finite).
double seconds_since(std::chrono::steady_clock::time_point started);

// `output` with the seconds stated: a JSON document (text that starts with '{' and ends with
// "}\n", the shape every command prints) gets "seconds" as its last top-level member; any other
// output (a text summary) gets a last line "seconds     S". O(size of output).
std::string with_seconds(std::string output, double seconds);

// The same text written to `out` without copying `output` (a plan of 10^7 transfers prints
// hundreds of MB: the command line writes it as it is, the seconds after it).
void write_with_seconds(std::ostream& out, std::string_view output, double seconds);

}  // namespace redist
