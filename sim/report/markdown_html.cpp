#include "sim/report/markdown_html.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "sim/report/html_page.hpp"

namespace goodput {

namespace {

// Escaped text with **bold** and `code` spans (an unmatched marker is kept as text).
std::string inline_html(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "**") == 0) {
      const std::size_t end = text.find("**", i + 2);
      if (end != std::string::npos) {
        out += "<strong>" + inline_html(text.substr(i + 2, end - i - 2)) + "</strong>";
        i = end + 2;
        continue;
      }
    }
    if (text[i] == '`') {
      const std::size_t end = text.find('`', i + 1);
      if (end != std::string::npos) {
        out += "<code>" + html_escape(text.substr(i + 1, end - i - 1)) + "</code>";
        i = end + 1;
        continue;
      }
    }
    const std::size_t next = std::min(text.find("**", i + 1), text.find('`', i + 1));
    const std::size_t stop = next == std::string::npos ? text.size() : next;
    out += html_escape(text.substr(i, stop - i));
    i = stop;
  }
  return out;
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string t = row;
  if (!t.empty() && t.front() == '|') t.erase(0, 1);
  if (!t.empty() && t.back() == '|') t.pop_back();
  std::stringstream in(t);
  std::string c;
  while (std::getline(in, c, '|')) {
    const auto b = c.find_first_not_of(' '), e = c.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : c.substr(b, e - b + 1));
  }
  return out;
}

bool separator_row(const std::string& line) {
  return line.rfind("|-", 0) == 0 && line.find_first_not_of("|-: ") == std::string::npos;
}

}  // namespace

std::string markdown_html(const std::string& markdown, int shift) {
  std::ostringstream out;
  std::istringstream in(markdown);
  std::string line, paragraph;
  enum class Block { None, List, Table } block = Block::None;
  bool table_header = false;
  auto close = [&] {
    if (!paragraph.empty()) out << "<p>" << inline_html(paragraph) << "</p>\n";
    paragraph.clear();
    if (block == Block::List) out << "</ul>\n";
    if (block == Block::Table) out << "</table>\n";
    block = Block::None;
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::size_t hashes = 0;
    while (hashes < line.size() && line[hashes] == '#') ++hashes;
    if (hashes >= 1 && hashes <= 4 && hashes < line.size() && line[hashes] == ' ') {
      close();
      const int level = std::min(6, static_cast<int>(hashes) + shift);
      out << "<h" << level << ">" << inline_html(line.substr(hashes + 1)) << "</h" << level
          << ">\n";
    } else if (line.rfind("- ", 0) == 0) {
      if (block != Block::List) {
        close();
        out << "<ul>\n";
        block = Block::List;
      }
      out << "<li>" << inline_html(line.substr(2)) << "</li>\n";
    } else if (line.rfind("|", 0) == 0) {
      if (block != Block::Table) {
        close();
        out << "<table>\n";
        block = Block::Table;
        table_header = true;
      }
      if (separator_row(line)) {
        table_header = false;
        continue;
      }
      const char* tag = table_header ? "th" : "td";
      out << "<tr>";
      for (const auto& c : cells(line))
        out << "<" << tag << ">" << inline_html(c) << "</" << tag << ">";
      out << "</tr>\n";
    } else if (line.find_first_not_of(' ') == std::string::npos) {
      close();
    } else {
      if (block != Block::None) close();
      paragraph += (paragraph.empty() ? "" : " ") + line;
    }
  }
  close();
  return out.str();
}

}  // namespace goodput
