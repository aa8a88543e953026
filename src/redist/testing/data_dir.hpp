// Where the bundled data lives, for tests, fuzzers and benchmarks: REDIST_DATA_DIR (ctest sets
// it), else the source tree's data/ as CMake configured it (REDIST_SOURCE_DATA_DIR). No path is
// derived from __FILE__, which names sources relative to the tree (CMakeLists.txt).
#pragma once

#include <cstdlib>
#include <filesystem>

namespace redist::testkit {

inline std::filesystem::path data_dir() {
  const char* dir = std::getenv("REDIST_DATA_DIR");
  return dir != nullptr ? std::filesystem::path(dir)
                        : std::filesystem::path(REDIST_SOURCE_DATA_DIR);
}

}  // namespace redist::testkit
