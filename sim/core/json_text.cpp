#include "sim/core/json_text.hpp"

#include <algorithm>

#include "sim/core/error.hpp"

namespace goodput {

namespace {

std::string line_of(const std::string& text,
                    std::size_t byte) {  // byte: 1-based, as nlohmann gives it
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  return "line " +
         std::to_string(
             1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
}

// The column of the 1-based byte nlohmann names, on its line.
std::size_t column_of(const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  const std::size_t nl = text.rfind('\n', end > 0 ? end - 1 : 0);
  return end == 0 || nl == std::string::npos ? end + 1 : end - nl;
}

struct TooDeep {
  std::size_t byte;
};

}  // namespace

Json parse_json_text(const std::string& text, const std::string& origin) {
  // nlohmann's parser does not count bytes for callbacks; depth is all we need to stop early.
  const Json::parser_callback_t limit = [](int depth, Json::parse_event_t event, Json&) {
    if (depth > kMaxJsonDepth &&
        (event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start))
      throw TooDeep{0};
    return true;
  };
  try {
    return Json::parse(text, limit);
  } catch (const TooDeep&) {
    throw InputError(origin, "",
                     "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } catch (const Json::parse_error& e) {
    throw InputError(origin, line_of(text, e.byte),
                     "not valid JSON at column " + std::to_string(column_of(text, e.byte)) + ": " +
                         json_error_description(e));
  } catch (const Json::out_of_range& e) {
    // A number beyond double range ("number overflow parsing '1e999'"): nlohmann gives no
    // position, so name the line of the literal's first occurrence (not the literal itself).
    const std::string what = e.what();
    const std::size_t open = what.find('\''), close = what.rfind('\'');
    std::size_t at = std::string::npos;
    if (open != std::string::npos && close > open)
      at = text.find(what.substr(open + 1, close - open - 1));
    throw InputError(origin, at == std::string::npos ? "" : line_of(text, at + 1),
                     "not valid JSON: a number beyond double range");
  } catch (const Json::exception& e) {
    throw InputError(origin, "", "not valid JSON: " + json_error_description(e));
  }
}

std::string json_error_description(const nlohmann::json::exception& e) {
  // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 4: syntax error
  // while parsing value - invalid literal; last read: '<bytes>'; expected <token>". Keep the
  // description between the position and "; last read", and the expected token when it is one
  // of nlohmann's names for tokens (never text of the file).
  const std::string what = e.what();
  std::size_t from = what.find("] ");
  from = from == std::string::npos ? 0 : from + 2;
  if (const std::size_t colon = what.find(": ", from);
      colon != std::string::npos && what.compare(from, 11, "parse error") == 0)
    from = colon + 2;
  const std::size_t read = what.find("; last read:", from);
  std::string out = what.substr(from, read == std::string::npos ? std::string::npos : read - from);
  if (read != std::string::npos) {
    static const char* const kTokens[] = {"true literal",
                                          "false literal",
                                          "null literal",
                                          "string literal",
                                          "number literal",
                                          "'['",
                                          "'{'",
                                          "']'",
                                          "'}'",
                                          "':'",
                                          "','",
                                          "end of input",
                                          "'[', '{', or a literal",
                                          "object key",
                                          "object separator",
                                          "value separator"};
    for (const char* t : kTokens) {
      const std::string tail = std::string("; expected ") + t;
      if (what.size() > tail.size() &&
          what.compare(what.size() - tail.size(), tail.size(), tail) == 0)
        out += tail;
    }
  }
  return out;
}

std::string json_show(const Json& value, std::size_t max_chars) {
  if (value.is_structured()) return value.is_object() ? "an object" : "an array";
  std::string s = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > max_chars) s = s.substr(0, max_chars) + "...";
  return s;
}

}  // namespace goodput
