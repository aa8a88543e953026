// "Did you mean ...?" for a mistyped name (a command, an option's value, a document's field): the
// known name nearest to what was typed, when it is near enough to be a typo.
#pragma once

#include <string>
#include <string_view>
#include <vector>

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

}  // namespace redist::io
