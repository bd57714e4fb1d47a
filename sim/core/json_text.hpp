// The one strict way goodput reads JSON text and shows JSON values in messages.
// parse_json_text: any malformed input (syntax, numbers beyond double range, nesting deeper
// than kMaxJsonDepth, invalid UTF-8) becomes an InputError naming `origin` and the line, never
// a crash or another exception type. json_show: a value for an error message, bounded in
// length, safe for invalid UTF-8 and deep nesting.
#pragma once

#include <string>

#include "sim/core/params.hpp"

namespace goodput {

inline constexpr int kMaxJsonDepth = 64;  // objects/arrays nested deeper are refused

Json parse_json_text(const std::string& text, const std::string& origin);
std::string json_show(const Json& value, std::size_t max_chars = 60);

}  // namespace goodput
