// Errors shared by every layer of redist.
//
// InputError is bad input: the command line turns it into exit code 2 and the single line
// `error: <message> (at <path>)` on standard error (SPEC §1). The path names where in the JSON
// document (JSONPath style, e.g. `$.ring.loads[3]`) or on the command line the problem is.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

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
