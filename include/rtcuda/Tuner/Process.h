// The measurement child, whose output is read line by line with a deadline so that a hung
// kernel can be killed (compilers run through rtcuda/Support/Process.h).
#pragma once

#include <string>
#include <vector>

namespace rtcuda::tune {

class Child {
public:
  Child() = default;
  Child(const Child &) = delete;
  Child &operator=(const Child &) = delete;
  ~Child();

  // Starts argv[0] with the rest as arguments; its stdout and stderr come to readLine().
  bool start(const std::vector<std::string> &argv, std::string *error);
  enum class Read { Line, Timeout, Eof, Interrupted };
  // Waits up to `seconds` for a whole line. Interrupted when `*stop` becomes true.
  Read readLine(std::string &line, double seconds, const volatile bool *stop);
  // Kills the child (SIGKILL) and reaps it.
  void kill();
  // Waits for the child to exit; returns a description: "exit status 3", "signal 11 (SIGSEGV)".
  std::string wait(int *code = nullptr);
  bool running() const { return pid_ > 0; }

private:
  int pid_ = -1, fd_ = -1;
  std::string buffer_;
};

}  // namespace rtcuda::tune
