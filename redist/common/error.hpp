// Errors shared by every layer of redist.
//
// InputError is bad input: the command line turns it into exit code 2 and the single line
// `error: <message> (at <path>)` on standard error (SPEC §1). The path names where in the JSON
// document (JSONPath style, e.g. `$.ring.loads[3]`) or on the command line the problem is.
#pragma once

#include <stdexcept>
#include <string>

namespace redist {

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& message, std::string path)
      : std::runtime_error(message + " (at " + path + ")"),
        message_(message),
        path_(std::move(path)) {}

  const std::string& message() const { return message_; }
  const std::string& path() const { return path_; }

 private:
  std::string message_;
  std::string path_;
};

}  // namespace redist
