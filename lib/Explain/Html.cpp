#include "Html.h"

#include "rtcuda/Support/TuningChart.h"

#include <cstdio>

namespace rtcuda::explain {

std::string escape(const std::string &text) { return xmlEscape(text); }

std::string inlineMarkdown(const std::string &text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '`') {
      size_t end = text.find('`', i + 1);
      if (end != std::string::npos) {
        out += "<code>" + escape(text.substr(i + 1, end - i - 1)) + "</code>";
        i = end + 1;
        continue;
      }
    } else if (text.compare(i, 2, "**") == 0) {
      size_t end = text.find("**", i + 2);
      if (end != std::string::npos) {
        out += "<strong>" + inlineMarkdown(text.substr(i + 2, end - i - 2)) + "</strong>";
        i = end + 2;
        continue;
      }
    } else if (text[i] == '[') {
      // [text](target): the text only; the docs' relative targets mean nothing in the report.
      size_t mid = text.find("](", i);
      size_t end = mid == std::string::npos ? mid : text.find(')', mid);
      if (end != std::string::npos && text.find('\n', i) > mid) {
        out += inlineMarkdown(text.substr(i + 1, mid - i - 1));
        i = end + 1;
        continue;
      }
    } else if (text[i] == '*' && i + 1 < text.size() && text[i + 1] != ' ') {
      size_t end = text.find('*', i + 1);
      if (end != std::string::npos && end > i + 1) {
        out += "<em>" + escape(text.substr(i + 1, end - i - 1)) + "</em>";
        i = end + 1;
        continue;
      }
    }
    out += escape(std::string(1, text[i]));
    ++i;
  }
  return out;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

Html &Html::open(const std::string &tag, const std::string &attrs) {
  out << "<" << tag << attrs << ">";
  openTags.push_back(tag);
  return *this;
}

Html &Html::close() {
  out << "</" << openTags.back() << ">";
  openTags.pop_back();
  return *this;
}

Html &Html::element(const std::string &tag, const std::string &t, const std::string &attrs) {
  out << "<" << tag << attrs << ">" << escape(t) << "</" << tag << ">";
  return *this;
}

std::string attr(const std::string &name, const std::string &value) {
  return " " + name + "=\"" + escape(value) + "\"";
}

}  // namespace rtcuda::explain
