// Where an error is, as the command line reports it: the core names a place in the model's words
// (`loads[3]`) or an option (`algorithm`); the readers and the programs place it in the document
// (`$.ring.loads[3]`) or on the command line (`--algorithm`). Header-only, so that programs that
// read JSON of their own (the platform tools) use it without the io library.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "redist/common/error.hpp"

namespace redist::io {

// The command line's flag of a JSON option: its underscores are the flag's dashes (`time_limit`
// is `--time-limit`).
inline std::string option_flag(std::string_view name) {
  std::string flag = "--" + std::string(name);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

// The error as the command line reports it: an option as its flag (`--algorithm`; a JSON
// option's underscores are the flag's dashes: `time_limit` is `--time-limit`); a path
// relative to the instance object under `root` (`loads[3]` under `$.ring`: `$.ring.loads[3]`;
// an empty path: `root` itself); a path that is already absolute (`$...`) or names no place in
// the document (`command line`, `standard input`, `--policy`) as it is.
inline InputError located(const InputError& e, std::string_view root) {
  const std::string& path = e.path();
  if (dynamic_cast<const OptionError*>(&e) != nullptr) {
    return InputError(e.message(), option_flag(path));
  }
  if (path.empty()) return InputError(e.message(), std::string(root));
  if (path[0] == '$' || path[0] == '-' || path.find(' ') != std::string::npos) return e;
  return InputError(e.message(), std::string(root) + (path[0] == '[' ? "" : ".") + path);
}

}  // namespace redist::io
