// posix_spawn with an argument vector (see Process.h). LLVM-free: the tuner uses it too.
#include "rtcuda/Support/Process.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace rtcuda {

std::vector<std::string> splitCommand(const std::string &text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string findProgram(const std::string &name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    std::string full = dir + "/" + name;
    struct stat st;
    if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0)
      return full;
    start = end + 1;
  }
  return "";
}

int runProcess(const std::vector<std::string> &argv, const ProcessOptions &options) {
  auto fail = [&](const std::string &why) {
    std::string text = "cannot run '" + (argv.empty() ? std::string() : argv[0]) + "': " + why + "\n";
    if (options.output) *options.output += text;
    else if (!options.logPath.empty()) {
      int fd = open(options.logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd >= 0) {
        ssize_t ignored = write(fd, text.data(), text.size());
        (void)ignored;
        close(fd);
      }
    } else {
      ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
      (void)ignored;
    }
    return 127;
  };
  if (argv.empty() || argv[0].empty()) return fail("empty command");
  std::string program = findProgram(argv[0]);
  if (program.empty()) return fail("not found");

  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  // The environment: this one, with options.env added or replaced by name.
  std::map<std::string, std::string> byName;
  std::vector<std::string> order;
  auto add = [&](const std::string &entry) {
    std::string name = entry.substr(0, entry.find('='));
    if (!byName.count(name)) order.push_back(name);
    byName[name] = entry;
  };
  for (char **e = environ; e && *e; ++e) add(*e);
  for (const std::string &e : options.env) add(e);
  std::vector<std::string> envText;
  for (const std::string &n : order) envText.push_back(byName[n]);
  std::vector<char *> envp;
  for (std::string &e : envText) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  int pipefd[2] = {-1, -1};
  if (options.output) {
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
      posix_spawn_file_actions_destroy(&actions);
      return fail(std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDOUT_FILENO);
    if (options.quietErrors)
      posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    else
      posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDERR_FILENO);
  } else if (!options.logPath.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, options.logPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  pid_t pid = -1;
  int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (options.output) close(pipefd[1]);
  if (rc != 0) {
    if (options.output) close(pipefd[0]);
    return fail(std::strerror(rc));
  }
  if (options.output) {
    char buf[4096];
    for (;;) {
      ssize_t n = read(pipefd[0], buf, sizeof buf);
      if (n > 0) options.output->append(buf, size_t(n));
      else if (n == 0 || errno != EINTR) break;
    }
    close(pipefd[0]);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace rtcuda
