// The command-line conventions both tools share, and a small option parser for rtcuda-tune,
// which links no LLVM (rtcuda itself uses llvm::cl). Exit status: 0 ok, 1 error, 2 usage.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace rtcuda::cli {

enum ExitStatus { ExitOk = 0, ExitError = 1, ExitUsage = 2 };

// "rtcuda 0.1" style line printed by --version in both tools.
std::string versionLine(const std::string &tool);

// Options are `--name`, `--name VALUE` or `--name=VALUE`; every other word is positional.
// A handler returns an error message (empty when the value is fine).
class ArgParser {
public:
  ArgParser(std::string tool, std::string synopsis, std::string description)
      : tool_(std::move(tool)), synopsis_(std::move(synopsis)),
        description_(std::move(description)) {}

  void flag(const std::string &name, const std::string &help, std::function<void()> handler);
  void option(const std::string &name, const std::string &metavar, const std::string &help,
              std::function<std::string(const std::string &)> handler);
  // A blank line and a heading in the help text.
  void section(const std::string &title);

  // Parses argv[1..]. Returns the exit status to end with (--help, --version: 0; a usage
  // error: 2, after a message on stderr), or nothing when the program should go on.
  std::optional<int> parse(int argc, const char *const *argv);
  const std::vector<std::string> &positionals() const { return positionals_; }
  void printHelp(std::ostream &os) const;
  // "<tool>: error: <message>" and a pointer to --help on stderr; returns ExitUsage.
  int usageError(const std::string &message) const;

private:
  struct Entry {
    std::string name, metavar, help;
    std::function<void()> onFlag;
    std::function<std::string(const std::string &)> onValue;
  };
  const Entry *find(const std::string &name) const;
  std::string tool_, synopsis_, description_;
  std::vector<Entry> entries_;
  std::vector<std::string> positionals_;
};

// Value checks for handlers: parse a number not below `min`; return "" or an error message.
std::string parseNumber(const std::string &text, double min, double *out);

}  // namespace rtcuda::cli
