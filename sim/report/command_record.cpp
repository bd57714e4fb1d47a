#include "sim/report/command_record.hpp"

#include <cctype>

#include "sim/report/html_page.hpp"

namespace goodput {

namespace {

bool shell_safe(const std::string& a) {
  if (a.empty()) return false;
  for (unsigned char c : a)
    if (!(std::isalnum(c) ||
          std::string("/._-=:,+@%").find(static_cast<char>(c)) != std::string::npos))
      return false;
  return true;
}

}  // namespace

std::string shell_line(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& a : args) {
    if (!line.empty()) line += ' ';
    if (shell_safe(a)) {
      line += a;
      continue;
    }
    line += '\'';
    for (char c : a) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

Json command_json(const std::vector<std::string>& args) {
  return Json{{"args", args}, {"line", shell_line(args)}};
}

std::string command_markdown(const std::vector<std::string>& args) {
  if (args.empty()) return "";
  return "- Command (reproduces these files; --threads and --out do not change them): `" +
         shell_line(args) + "`\n";
}

std::string command_html(const std::vector<std::string>& args) {
  if (args.empty()) return "";
  return "\n<p class=\"note\">Command (reproduces these files): <code>" +
         html_escape(shell_line(args)) + "</code></p>";
}

}  // namespace goodput
