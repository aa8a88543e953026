// "Did you mean ...?" for a mistyped name (a command, an option's value, a document's field): the
// known name nearest to what was typed, when it is near enough to be a typo.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "redist/common/error.hpp"

namespace redist::io {

// The edit distance between `a` and `b`: insertions, deletions, substitutions and transpositions
// of two adjacent characters (optimal string alignment, a restricted Damerau-Levenshtein
// distance), letters compared without case. O(|a| |b|).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name of `known` nearest to `given` (the first on ties), when its distance is at most 1 for
// a `given` of up to 4 characters and at most 2 beyond; "" otherwise, and always for a `given` of
// one character or of more than 64 (no guess is better than a wild one). O(|known| |given|^2).
std::string closest_name(std::string_view given, const std::vector<std::string>& known);

// " (did you mean 'NAME'?)" for that name, or "" when there is none.
std::string did_you_mean(std::string_view given, const std::vector<std::string>& known);

// The names of a family's table of algorithms, whatever its shape: entries with a `name`, pairs
// (name, description), or the names themselves.
template <class Table>
std::vector<std::string> names_of(const Table& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) {
    if constexpr (requires { entry.name; }) {
      names.emplace_back(entry.name);
    } else if constexpr (requires { entry.first; }) {
      names.emplace_back(entry.first);
    } else {
      names.emplace_back(entry);
    }
  }
  return names;
}

// Runs `body`; an error at `option` ("--algorithm" or "algorithm": leading dashes are not
// compared) that refuses its value as unknown ("unknown algorithm 'ligth' (expected ...)") goes on
// with "; did you mean 'light'?" when one of `names` is near `given` (closest_name). The command
// line and the JSON entry points (Python) say the same.
template <class Body>
auto suggesting(std::string_view option, const std::string& given,
                const std::vector<std::string>& names, Body&& body) {
  const auto bare = [](std::string_view s) {
    const std::size_t first = s.find_first_not_of('-');
    return first == std::string_view::npos ? std::string_view() : s.substr(first);
  };
  try {
    return body();
  } catch (const InputError& e) {
    if (bare(e.path()) != bare(option) || !e.message().starts_with("unknown ")) throw;
    const std::string name = closest_name(given, names);
    if (name.empty()) throw;
    const std::string message = e.message() + "; did you mean '" + name + "'?";
    if (dynamic_cast<const OptionError*>(&e)) throw OptionError(message, e.path());
    throw InputError(message, e.path());
  }
}

}  // namespace redist::io
