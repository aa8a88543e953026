// "seconds": every result states the wall time spent on it (docs/formats.md, "Seconds"), as the
// command line prints it and Python returns it. The planners' documents themselves never hold it
// (the same plan prints the same document); the faces add it as the result leaves them.
#pragma once

#include <chrono>
#include <string>

namespace redist {

// The seconds since `started`, rounded to the microsecond (>= 0, finite).
double seconds_since(std::chrono::steady_clock::time_point started);

// `output` with the seconds stated: a JSON document (text that starts with '{' and ends with
// "}\n", the shape every command prints) gets "seconds" as its last top-level member; any other
// output (a text summary) gets a last line "seconds     S". O(size of output).
std::string with_seconds(std::string output, double seconds);

}  // namespace redist
