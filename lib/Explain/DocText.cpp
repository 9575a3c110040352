// Paragraphs of the embedded pass pages (PassDocs.cpp, generated from docs/passes/).
#include "Sections.h"

#include <sstream>

namespace rtcuda::explain {

const std::map<std::string, std::string> &passDocTexts();

namespace {

// The page's paragraphs (blank-line separated), code blocks and tables left out.
std::vector<std::string> paragraphs(const std::string &pass) {
  auto it = passDocTexts().find(pass);
  if (it == passDocTexts().end()) return {};
  std::vector<std::string> out;
  std::istringstream in(it->second);
  std::string para;
  bool code = false;
  auto flush = [&]() {
    if (!para.empty()) out.push_back(para);
    para.clear();
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) == 0) {
      flush();
      code = !code;
      continue;
    }
    if (code) continue;
    if (line.empty() || line[0] == '|') {
      flush();
      continue;
    }
    if (line[0] == '#') {  // a heading is a paragraph of its own
      flush();
      out.push_back(line);
      continue;
    }
    para += (para.empty() ? "" : " ") + line;
  }
  flush();
  return out;
}

std::string stripLead(std::string p, const std::string &lead) {
  if (p.rfind(lead, 0) == 0) p = p.substr(lead.size());
  while (!p.empty() && p[0] == ' ') p.erase(0, 1);
  return p;
}

}  // namespace

bool passHasDoc(const std::string &pass) { return passDocTexts().count(pass) != 0; }

std::string passDocParagraph(const std::string &pass) {
  for (const std::string &p : paragraphs(pass)) {
    if (p[0] == '#' || p.rfind("**File:**", 0) == 0) continue;
    return inlineMarkdown(stripLead(p, "**What it does.**"));
  }
  return "";
}

std::string passWhenItApplies(const std::string &pass) {
  std::vector<std::string> ps = paragraphs(pass);
  for (size_t i = 0; i < ps.size(); ++i) {
    if (ps[i].rfind("**When it applies.**", 0) == 0)
      return inlineMarkdown(stripLead(ps[i], "**When it applies.**"));
    if (ps[i].rfind("## When it applies", 0) == 0 && i + 1 < ps.size() && ps[i + 1][0] != '#')
      return inlineMarkdown(ps[i + 1]);
  }
  return "";
}

}  // namespace rtcuda::explain
