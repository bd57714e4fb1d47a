// Internals shared by the trace readers (not part of the public API): file and line access,
// an RFC 4180 single-line CSV splitter, strict number parsing, JSON helpers and error locators.
// The readers themselves are private to their files, reached through their TraceFormat.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/trace/trace.hpp"

namespace goodput::trace::detail {

using Json = nlohmann::ordered_json;

// The whole file, a regular file that is UTF-8 throughout (InputError naming the line if not).
std::string read_file(const std::string& path);
// Physical lines of `text` ('\n' separated, a trailing '\r' removed); line k is index k-1.
std::vector<std::string_view> split_lines(std::string_view text);
std::string line_locator(std::size_t line_number);
bool is_blank(std::string_view line);
// Fields of one CSV line. Quoted fields may hold commas and "" escapes but not line breaks;
// unquoted fields are trimmed of spaces and tabs. Malformed quoting throws InputError.
std::vector<std::string> split_csv_line(std::string_view line, const std::string& file,
                                        const std::string& locator);
// The whole text must be a finite decimal number; otherwise std::nullopt.
std::optional<double> parse_number(std::string_view text);
// The whole text must be an unsigned decimal integer that fits in 32 bits.
std::optional<std::uint32_t> parse_index(std::string_view text);
// Messages name the file and position of what is wrong, but never copy text read from the
// file (a scenario may name any file as a trace): quote_text is for goodput's own words (column
// and key names, formats), describe_field / describe_json describe what the file holds.
std::string quote_text(std::string_view text);      // 'text', shortened when long
std::string describe_field(std::string_view text);  // "a field of 3 characters", ...
std::string describe_json(const Json& value);       // "a string of 3 characters", "number 3"
Json parse_json(const std::string& path, const std::string& text);
// Locator of one field of an event's record: the record's "line N" for CSV formats, the
// record's pointer and the format's key ("/7/time_hours", "/7/event_time") for JSON formats.
enum class Field { Time, Component, Event };
std::string field_locator(const TraceFormat& format, const std::string& record, Field field);

}  // namespace goodput::trace::detail
