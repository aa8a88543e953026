// What each field of the instance documents means (docs/formats.md and the families' pages), for
// error lines that name a field: `error: missing field; H: the data each processor exchanges with
// each neighbour per iteration (...) (at $.cluster.H)`.
#pragma once

#include <string>
#include <string_view>

namespace redist::io {

// "H: the data ..." for a JSONPath into an instance document ("$.cluster.H", "$.star.c[2]",
// "$.ring.loads[0]"), or "" when the path names no field of the glossary.
std::string field_meaning(std::string_view path);

}  // namespace redist::io
