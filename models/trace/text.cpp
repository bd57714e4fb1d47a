// File, line, CSV-field, number and JSON helpers shared by the trace readers.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/json_text.hpp"

namespace goodput::trace::detail {

std::string read_file(const std::string& path) {
  std::string text = read_input_file(path, "the trace file");
  check_utf8(text, path);
  return text;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

std::string line_locator(std::size_t line_number) {
  return "line " + std::to_string(line_number);
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

namespace {
std::string_view trim(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}
}  // namespace

std::vector<std::string> split_csv_line(std::string_view line, const std::string& file,
                                        const std::string& locator) {
  std::vector<std::string> fields;
  std::size_t pos = 0;
  while (true) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    std::string field;
    if (pos < line.size() && line[pos] == '"') {
      const std::size_t open = pos++;
      bool closed = false;
      while (pos < line.size()) {
        if (line[pos] != '"') {
          field += line[pos++];
        } else if (pos + 1 < line.size() && line[pos + 1] == '"') {
          field += '"';
          pos += 2;
        } else {
          closed = true;
          ++pos;
          break;
        }
      }
      if (!closed) {
        throw InputError(file, locator,
                         "expected a closing '\"' for the quoted field starting at column " +
                             std::to_string(open + 1) + ", found the end of the line");
      }
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
      if (pos < line.size() && line[pos] != ',') {
        throw InputError(file, locator,
                         "expected ',' or the end of the line after a quoted field, found '" +
                             std::string(1, line[pos]) + "' at column " + std::to_string(pos + 1));
      }
    } else {
      std::size_t end = line.find(',', pos);
      if (end == std::string_view::npos) end = line.size();
      const std::string_view raw = trim(line.substr(pos, end - pos));
      if (raw.find('"') != std::string_view::npos) {
        throw InputError(
            file, locator,
            "expected a field with '\"' to be quoted as a whole, found " + describe_field(raw));
      }
      field = std::string(raw);
      pos = end;
    }
    fields.push_back(std::move(field));
    if (pos >= line.size()) break;
    ++pos;  // the ','
  }
  return fields;
}

std::optional<double> parse_number(std::string_view text) {
  if (text.empty() || text.front() == '+') return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::uint32_t> parse_index(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  std::uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string quote_text(std::string_view text) {
  constexpr std::size_t kMax = 60;
  std::string out = "'";
  out += text.substr(0, kMax);
  out += text.size() <= kMax ? "'" : "...'";
  return out;
}

std::string describe_field(std::string_view text) {
  if (text.empty()) return "an empty field";
  if (text.size() <= 24 && parse_number(text)) return "'" + std::string(text) + "'";  // a number
  return "a field of " + std::to_string(text.size()) +
         (text.size() == 1 ? " character" : " characters");
}

std::string describe_json(const Json& value) {
  if (value.is_string()) {
    const std::size_t n = value.get_ref<const std::string&>().size();
    return "a string of " + std::to_string(n) + (n == 1 ? " character" : " characters");
  }
  if (value.is_structured())
    return value.is_object() ? "an object of " + std::to_string(value.size()) + " keys"
                             : "an array of " + std::to_string(value.size()) + " items";
  return std::string(value.type_name()) + " " + json_show(value);
}

Json parse_json(const std::string& path, const std::string& text) {
  return parse_json_text(text, path);
}

}  // namespace goodput::trace::detail
