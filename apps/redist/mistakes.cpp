// What a document given to the wrong command is (cli.hpp): an instance of another family, an
// instance without its object, a schedule where an instance was expected, or the two files of
// `check` in the wrong order. Only on the error path: the document is parsed again, once.
#include <unistd.h>
#include <cctype>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "apps/redist/progress.hpp"
#include "redist/io/formats.hpp"

namespace redist::cli {

namespace {

// The commands of each family that read an instance; the first is the one to suggest when the
// family has no command of the name given.
std::vector<std::string> instance_commands(const std::string& family) {
  if (family == "ring" || family == "exchange") return {"plan", "check", "bound"};
  if (family == "lau") return {"plan", "check", "eval"};
  if (family == "star") return {"plan", "check", "order"};
  if (family == "balance") return {"advise", "simulate"};
  return {"plan", "check"};
}

std::string command_of(const std::string& family, const std::string& command) {
  const std::vector<std::string> commands = instance_commands(family);
  for (const std::string& c : commands) {
    if (c == command) return c;
  }
  return commands.front();
}

std::string article(const std::string& word) {
  return word.find_first_of("aeiou") == 0 ? "an" : "a";
}

// "a ring schedule (what `redist ring plan` prints)".
std::string output_name(const std::string& family) {
  return fmt::format("{} {} {} (what `redist {} plan` prints)", article(family), family,
                     io::output_noun(family), family);
}

std::string upper(std::string word) {
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return word;
}

std::optional<io::DocumentKind> kind_of(const std::string& text, const std::string& expected) {
  try {
    return io::classify_document(io::parse_document(text), expected);
  } catch (const InputError&) {
    return std::nullopt;  // the reader's own error says what is wrong
  }
}

// Whether the document is an object holding the expected family's instance key ({"ring": ...}):
// then the reader's own error names the bad field inside, and no other kind is guessed.
bool has_wrapper_of(const std::string& text, const std::string& family) {
  try {
    const io::Json doc = io::parse_document(text);
    return doc.is_object() && doc.contains(io::instance_key(family));
  } catch (const InputError&) {
    return false;
  }
}

// Whether a top-level member of the document is a field of one of the family's documents: then
// the reader's own error says what is wrong, and no other family is guessed.
bool has_field_of(const std::string& text, const std::string& family) {
  try {
    const io::Json doc = io::parse_document(text);
    if (!doc.is_object()) return false;
    for (const auto& [key, value] : doc.items()) {
      if (!io::field_owner(family, key).empty()) return true;
    }
  } catch (const InputError&) {
  }
  return false;
}

}  // namespace

std::string read_input(const std::string& file, const std::string& what) {
  if ((file.empty() || file == "-") && isatty(STDIN_FILENO) == 1) {
    stop_progress();  // waiting for the user is not work
    std::cerr << "redist: reading the " << what
              << " from standard input (Ctrl-D to end; give a file to read it instead)\n";
    std::string text = io::read_text(file);
    restart_progress();
    return text;
  }
  return io::read_text(file);
}

std::string read_second(const std::string& file) {
  if (file.empty() || file == "-") return "";  // standard input is left for the command
  try {
    return read_input(file, "second file");
  } catch (const InputError&) {
    return "";
  }
}

std::optional<InputError> instance_mistake(const std::string& text, const std::string& family,
                                           const std::string& command) {
  if (has_wrapper_of(text, family)) return std::nullopt;  // the family's own, with a bad field
  const std::optional<io::DocumentKind> kind = kind_of(text, family);
  if (!kind || kind->family.empty()) return std::nullopt;
  const std::string& other = kind->family;
  const std::string use = fmt::format("`redist {} {}`", other, command_of(other, command));
  switch (kind->role) {
    case io::DocumentRole::instance:
      if (!kind->wrapped && other == family) {
        return InputError(
            fmt::format("the fields of {} {} instance must be inside {{\"{}\": {{...}}}}",
                        article(family), family, io::instance_key(family)),
            "$");
      }
      if (!kind->wrapped) {
        return InputError(fmt::format("these look like the fields of {} {} instance: put them "
                                      "inside {{\"{}\": {{...}}}} and use {}",
                                      article(other), other, io::instance_key(other), use),
                          "$");
      }
      if (other == family) return std::nullopt;
      return InputError(fmt::format("this is {} {} instance, not {} {} one: use {}", article(other),
                                    other, article(family), family, use),
                        "$");
    case io::DocumentRole::output:
      return InputError(fmt::format("this is {}, not {} {} instance", output_name(other),
                                    article(family), family),
                        "$");
    case io::DocumentRole::ownership:
      return InputError(fmt::format("these are the ownership maps of `redist exchange migration`, "
                                    "not {} {} instance",
                                    article(family), family),
                        "$");
    case io::DocumentRole::unknown:
      break;
  }
  return std::nullopt;
}

std::optional<InputError> output_mistake(const std::string& text, const std::string& family) {
  const std::optional<io::DocumentKind> kind = kind_of(text, family);
  if (!kind || kind->family.empty()) return std::nullopt;
  // Bare fields that the family's own documents also have ({"ring": [0, 9]} for a SliceRing
  // solution): the reader's error about the family's document, not a guess at another one.
  if (!kind->wrapped && has_field_of(text, family)) return std::nullopt;
  const std::string noun = io::output_noun(family);
  if (kind->role == io::DocumentRole::instance) {
    return InputError(
        fmt::format("this is {} {} instance, not {} {} {}: give what `redist {} "
                    "plan` prints",
                    article(kind->family), kind->family, article(family), family, noun, family),
        "$");
  }
  if (kind->role == io::DocumentRole::output && kind->family != family) {
    return InputError(fmt::format("this is {}, not {} {} {}", output_name(kind->family),
                                  article(family), family, noun),
                      "$");
  }
  return std::nullopt;
}

std::optional<InputError> swapped_mistake(const std::string& first, const std::string& second,
                                          const std::string& family) {
  const std::optional<io::DocumentKind> a = kind_of(first, family);
  if (!a || a->family != family || a->role != io::DocumentRole::output) return std::nullopt;
  const std::optional<io::DocumentKind> b = kind_of(second, family);
  if (!b || b->family != family || b->role != io::DocumentRole::instance) return std::nullopt;
  const std::string noun = io::output_noun(family);
  return InputError(fmt::format("the first file is {} {} and the second an instance: swapped? "
                                "(redist {} check INSTANCE {})",
                                article(noun), noun, family, upper(noun)),
                    "command line");
}

}  // namespace redist::cli
