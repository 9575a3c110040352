#include "rtcuda/Support/CommandLine.h"

#include "rtcuda/Support/Version.h"

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace rtcuda::cli {

std::string versionLine(const std::string &tool) {
  return tool + " " + RTCUDA_VERSION_STRING;
}

void ArgParser::flag(const std::string &name, const std::string &help,
                     std::function<void()> handler) {
  entries_.push_back({name, "", help, std::move(handler), nullptr});
}

void ArgParser::option(const std::string &name, const std::string &metavar,
                       const std::string &help,
                       std::function<std::string(const std::string &)> handler) {
  entries_.push_back({name, metavar, help, nullptr, std::move(handler)});
}

void ArgParser::section(const std::string &title) { entries_.push_back({"", "", title, {}, {}}); }

const ArgParser::Entry *ArgParser::find(const std::string &name) const {
  for (const Entry &e : entries_)
    if (!e.name.empty() && e.name == name) return &e;
  return nullptr;
}

void ArgParser::printHelp(std::ostream &os) const {
  os << "usage: " << tool_ << " " << synopsis_ << "\n\n" << description_ << "\n";
  for (const Entry &e : entries_) {
    if (e.name.empty()) {
      os << "\n" << e.help << "\n";
      continue;
    }
    std::string left = "  " + e.name + (e.metavar.empty() ? "" : " " + e.metavar);
    // The help column starts at 24; a longer name puts its help on the next line.
    if (left.size() >= 23) os << left << "\n" << std::string(24, ' ');
    else os << std::left << std::setw(24) << left;
    std::istringstream lines(e.help);
    std::string line;
    for (bool first = true; std::getline(lines, line); first = false)
      os << (first ? "" : std::string(24, ' ')) << line << "\n";
  }
  os << "\n  --help                print this text and exit\n"
        "  --version             print the version and exit\n";
}

int ArgParser::usageError(const std::string &message) const {
  std::cerr << tool_ << ": error: " << message << "\n"
            << "usage: " << tool_ << " " << synopsis_ << " (see '" << tool_ << " --help')\n";
  return ExitUsage;
}

std::optional<int> ArgParser::parse(int argc, const char *const *argv) {
  bool optionsEnded = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (optionsEnded || a.size() < 2 || a[0] != '-') {
      positionals_.push_back(a);
      continue;
    }
    if (a == "--") {
      optionsEnded = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      printHelp(std::cout);
      return ExitOk;
    }
    if (a == "--version") {
      std::cout << versionLine(tool_) << "\n";
      return ExitOk;
    }
    std::string name = a, value;
    size_t eq = a.find('=');
    bool inlineValue = eq != std::string::npos;
    if (inlineValue) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    const Entry *e = find(name);
    if (!e) return usageError("unknown option '" + name + "'");
    if (e->onFlag) {
      if (inlineValue) return usageError(name + " takes no value");
      e->onFlag();
      continue;
    }
    if (!inlineValue) {
      if (i + 1 >= argc) return usageError(name + " needs a value (" + e->metavar + ")");
      value = argv[++i];
    }
    std::string error = e->onValue(value);
    if (!error.empty()) return usageError(name + ": " + error);
  }
  return std::nullopt;
}

std::string parseNumber(const std::string &text, double min, double *out) {
  char *end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (text.empty() || !end || *end != '\0') return "expects a number, not '" + text + "'";
  if (d < min) {
    std::ostringstream os;
    os << "expects a number >= " << min << ", not '" << text << "'";
    return os.str();
  }
  *out = d;
  return "";
}

}  // namespace rtcuda::cli
