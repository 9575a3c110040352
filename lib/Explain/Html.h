// A small HTML writer for the explain report: escaping, and elements opened and closed in
// order so the page stays well formed (the report is checked with tidy and a browser).
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace rtcuda::explain {

// Text escaped for element content and attribute values.
std::string escape(const std::string &text);

// Markdown inline spans of the docs (`code`, **bold**, [text](link)) as HTML, escaped.
std::string inlineMarkdown(const std::string &text);

// A number with `digits` digits after the point.
std::string fixed(double v, int digits);

class Html {
public:
  // <tag attrs>: attrs is written as given (build it with attr()).
  Html &open(const std::string &tag, const std::string &attrs = "");
  Html &close();  // closes the innermost open element
  Html &text(const std::string &t) { out << escape(t); return *this; }
  Html &raw(const std::string &t) { out << t; return *this; }
  // <tag attrs>text</tag>
  Html &element(const std::string &tag, const std::string &text, const std::string &attrs = "");
  std::string str() const { return out.str(); }
  size_t depth() const { return openTags.size(); }

private:
  std::ostringstream out;
  std::vector<std::string> openTags;
};

// ` name="value"`, the value escaped.
std::string attr(const std::string &name, const std::string &value);

}  // namespace rtcuda::explain
