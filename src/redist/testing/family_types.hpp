// For typed tests over the list of families (redist/api/families.hpp): the list as GoogleTest's
// types, TYPED_TEST_SUITE(Suite, testkit::FamilyTypes<Families>), and the text of a bundled
// example.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "redist/common/family.hpp"

namespace redist::testkit {

template <class List>
struct AsTypes;
template <class... F>
struct AsTypes<FamilyList<F...>> {
  using type = ::testing::Types<F...>;
};
template <class List>
using FamilyTypes = typename AsTypes<List>::type;

// The whole file, or "" when it cannot be read.
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace redist::testkit
