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
    throw InputError(origin, line_of(text, e.byte), std::string("not valid JSON: ") + e.what());
  } catch (const Json::out_of_range& e) {
    // A number beyond double range ("number overflow parsing '1e999'"): nlohmann gives no
    // position, so name the line of the literal's first occurrence.
    const std::string what = e.what();
    const std::size_t open = what.find('\''), close = what.rfind('\'');
    std::size_t at = std::string::npos;
    if (open != std::string::npos && close > open)
      at = text.find(what.substr(open + 1, close - open - 1));
    throw InputError(origin, at == std::string::npos ? "" : line_of(text, at + 1),
                     "not valid JSON: a number beyond double range (" + what + ")");
  } catch (const Json::exception& e) {
    throw InputError(origin, "", std::string("not valid JSON: ") + e.what());
  }
}

std::string json_show(const Json& value, std::size_t max_chars) {
  if (value.is_structured()) return value.is_object() ? "an object" : "an array";
  std::string s = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > max_chars) s = s.substr(0, max_chars) + "...";
  return s;
}

}  // namespace goodput
