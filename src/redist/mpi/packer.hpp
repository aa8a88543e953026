// A byte buffer for what rank 0 broadcasts (a plan, a decision, an error): values, vectors of
// trivially copyable values and strings, read back in the order they were put. Every rank runs
// the same binary, so values travel as their bytes. MPI-free.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace redist::mpi {

class Packer {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    append(&v, sizeof(T));
  }
  template <class T>
  void put(const std::vector<T>& v) {
    put(static_cast<std::int64_t>(v.size()));
    for (const T& x : v) put(x);
  }
  void put(const std::string& s) {
    put(static_cast<std::int64_t>(s.size()));
    append(s.data(), s.size());
  }
  template <class T>
  void get(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    at += sizeof(T);
  }
  template <class T>
  void get(std::vector<T>& v) {
    std::int64_t n = 0;
    get(n);
    v.resize(static_cast<std::size_t>(n));
    for (T& x : v) get(x);
  }
  void get(std::string& s) {
    std::int64_t n = 0;
    get(n);
    s.assign(bytes.data() + at, static_cast<std::size_t>(n));
    at += static_cast<std::size_t>(n);
  }

  std::vector<char> bytes;
  std::size_t at = 0;  // the next byte get reads

 private:
  void append(const void* p, std::size_t n) {
    const std::size_t end = bytes.size();
    if (n > bytes.max_size() - end)
      throw std::length_error("Packer: more bytes than a vector holds");
    bytes.resize(end + n);
    std::copy_n(static_cast<const char*>(p), n, bytes.begin() + static_cast<std::ptrdiff_t>(end));
  }
};

}  // namespace redist::mpi
