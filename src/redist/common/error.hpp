// Errors shared by every layer of redist.
//
// InputError is bad input: the command line turns it into exit code 2 and the single line
// `error: <message> (at <path>)` on standard error (docs/formats.md); the JSON entry points of the
// public headers throw it with the same text. The core says where in the model's words: a path
// relative to the family's instance (`loads[3]`, `cost_next`), or, for an OptionError, the option's
// name (`algorithm`). Placing that in a document or on a command line is the readers' business
// (redist/io/located.hpp).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace redist {

class InputError : public std::invalid_argument {
 public:
  InputError(const std::string& message, std::string path)
      : std::invalid_argument(message + " (at " + path + ")"),
        message_(message),
        path_(std::move(path)) {}

  const std::string& message() const { return message_; }
  const std::string& path() const { return path_; }

 private:
  std::string message_;
  std::string path_;
};

// A bad option of a planner or command; path() is the option's name ("algorithm"), as in the
// options of the JSON entry points.
class OptionError : public InputError {
 public:
  OptionError(const std::string& message, std::string option)
      : InputError(message, std::move(option)) {}
};

// `text` made safe to print as one line of an error message: control characters (newlines, tabs,
// escapes) become `\n`, `\t` or `\xHH`, and anything beyond `max_chars` is cut and marked with
// "...". Every `error:` line and every piece of input echoed into one goes through it.
inline std::string one_line(std::string_view text, std::size_t max_chars = 200) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char ch : text) {
    if (out.size() >= max_chars) {
      // Never end inside a UTF-8 sequence: drop its continuation bytes and its lead byte.
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
        out.pop_back();
      if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace redist
