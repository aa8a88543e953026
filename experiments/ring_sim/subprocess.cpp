#include "experiments/ring_sim/subprocess.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace redist::experiments {
namespace {

// A temporary file, removed with the object.
class TempFile {
 public:
  TempFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "redist-XXXXXX").string();
    fd_ = ::mkstemp(pattern.data());
    if (fd_ < 0)
      throw std::runtime_error(std::string("cannot create a temporary file: ") +
                               std::strerror(errno));
    path_ = pattern;
  }
  ~TempFile() {
    ::close(fd_);
    std::filesystem::remove(path_);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return fd_; }
  std::string text() const {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    return all.str();
  }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace

ProgramResult run_program(const std::vector<std::string>& argv, bool stderr_passes_through) {
  TempFile out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out.fd(), STDOUT_FILENO);
  if (!stderr_passes_through) posix_spawn_file_actions_adddup2(&actions, err.fd(), STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  // posix_spawnp: a name without a slash is looked for in PATH (mpirun, smpirun).
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("cannot wait for " + argv[0]);
  }
  ProgramResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = out.text();
  result.err = err.text();
  return result;
}

std::string executable_directory() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string(".") : self.parent_path().string();
}

std::string last_error_line(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  }
  // A traceback: "Traceback (most recent call last):", its frames indented, then the error, which
  // may span lines (a message holding newlines) up to the end or the next traceback.
  std::size_t start = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("Traceback (most recent call last)")) {
      std::size_t j = i + 1;
      while (j < lines.size() && (lines[j].starts_with(" ") || lines[j].starts_with("\t"))) ++j;
      start = j;
    }
  }
  if (start >= lines.size()) return lines.empty() ? "" : lines.back();
  std::string error;
  for (std::size_t i = start; i < lines.size(); ++i) {
    if (lines[i].starts_with("Traceback") || lines[i].starts_with("During handling")) break;
    if (!error.empty()) error += ' ';
    error.append(lines[i], lines[i].find_first_not_of(" \t"), std::string::npos);
  }
  return error;
}

}  // namespace redist::experiments
