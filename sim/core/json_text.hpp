// The one strict way goodput reads JSON text and shows JSON values in messages.
// parse_json_text: any malformed input (syntax, numbers beyond double range, nesting deeper
// than kMaxJsonDepth, invalid UTF-8) becomes an InputError naming `origin`, the line and the
// column, never a crash or another exception type; it describes the error without quoting the
// text (a file named as a trace or profile may hold anything). json_show: a value for an error
// message, bounded in length, safe for invalid UTF-8 and deep nesting.
#pragma once

#include <string>

#include "sim/core/params.hpp"

namespace goodput {

inline constexpr int kMaxJsonDepth = 64;  // objects/arrays nested deeper are refused

Json parse_json_text(const std::string& text, const std::string& origin);
// What a JSON exception of nlohmann says, without the bytes of the input it quotes ("last read:
// '...'"), so an error about a file never echoes its content: e.g. "syntax error while parsing
// value - invalid literal". For messages that name the file and line themselves.
std::string json_error_description(const nlohmann::json::exception& e);
std::string json_show(const Json& value, std::size_t max_chars = 60);

}  // namespace goodput
