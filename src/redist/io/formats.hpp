// The documents each family reads and writes, told apart by their members alone, so that an error
// can say what a mistaken document is: an instance of another family ("this is a star instance:
// use `redist star plan`"), an instance without its {"ring": {...}} object, a schedule where an
// instance was expected, or a field that belongs to another of the family's documents ("not
// allowed here: flows belongs to a ring schedule"). The fields are those the readers of
// redist/io/ accept (docs/formats.md and the families' pages).
#pragma once

#include <string>
#include <string_view>

#include "redist/io/json.hpp"

namespace redist::io {

enum class DocumentRole {
  unknown,
  instance,   // what `plan` reads
  output,     // what `plan` prints and `check` reads: a schedule, plan or solution
  ownership,  // what `exchange migration` reads
};

struct DocumentKind {
  std::string
      family;  // "ring", "lau", "star", "dlt", "slicering", "balance", "exchange"; "" unknown
  DocumentRole role = DocumentRole::unknown;
  bool wrapped = true;  // false: an instance's fields at the top level, outside {"ring": {...}}
};

// What `document` looks like from its members' names (nothing else is read or validated); when it
// fits the documents of several families (an empty schedule, bare "loads"), `expected` wins.
// O(members of the top level and of the first transfer).
DocumentKind classify_document(const Json& document, std::string_view expected);

// The object that holds a family's instance: "ring", ..., "cluster" for slicering.
std::string instance_key(std::string_view family);
// What the family's `plan` prints: "schedule", "plan" (lau, exchange) or "solution" (slicering).
std::string output_noun(std::string_view family);
// The family whose instance object `root` names ("$.cluster": "slicering"), or "".
std::string family_of_root(std::string_view root);

// Where `field` belongs among the documents of `family` ("a ring schedule (what `redist ring plan`
// prints)"), or "" when none of them has it.
std::string field_owner(std::string_view family, std::string_view field);

}  // namespace redist::io
