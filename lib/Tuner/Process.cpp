// The measurement child (see Process.h). POSIX only, like the rest of the tool chain.
#include "rtcuda/Tuner/Process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rtcuda::tune {

Child::~Child() {
  if (pid_ > 0) kill();
  if (fd_ >= 0) close(fd_);
}

bool Child::start(const std::vector<std::string> &argv, std::string *error) {
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  pid_t pid = fork();
  if (pid < 0) {
    *error = std::string("fork: ") + std::strerror(errno);
    close(pipefd[0]);
    close(pipefd[1]);
    return false;
  }
  if (pid == 0) {
    // The child gets its own process group so that a kill reaches anything it started.
    setpgid(0, 0);
    dup2(pipefd[1], STDOUT_FILENO);
    dup2(pipefd[1], STDERR_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(pipefd[1]);
  pid_ = pid;
  fd_ = pipefd[0];
  buffer_.clear();
  return true;
}

Child::Read Child::readLine(std::string &line, double seconds, const volatile bool *stop) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return Read::Line;
    }
    if (fd_ < 0) return Read::Eof;
    if (stop && *stop) return Read::Interrupted;
    auto left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return Read::Timeout;
    pollfd p{fd_, POLLIN, 0};
    // Short polls so that an interrupt is seen quickly.
    int ready = poll(&p, 1, static_cast<int>(std::min(left, 0.2) * 1000) + 1);
    if (ready < 0 && errno != EINTR) return Read::Eof;
    if (ready <= 0) continue;
    char buf[4096];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n > 0) {
      buffer_.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      close(fd_);
      fd_ = -1;
      if (!buffer_.empty()) {
        line = buffer_;
        buffer_.clear();
        return Read::Line;
      }
      return Read::Eof;
    }
  }
}

void Child::kill() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  int status;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::string Child::wait(int *code) {
  if (pid_ <= 0) return "not running";
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  if (WIFEXITED(status)) {
    if (code) *code = WEXITSTATUS(status);
    return "exit status " + std::to_string(WEXITSTATUS(status));
  }
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (code) *code = 128 + sig;
  const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" : sig == SIGKILL ? "SIGKILL"
                   : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" : "";
  return "signal " + std::to_string(sig) + (*name ? std::string(" (") + name + ")" : "");
}

}  // namespace rtcuda::tune
