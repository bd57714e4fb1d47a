// Clock times in operator logs: ISO 8601 / RFC 3339 timestamps with or without a UTC offset.
// parse_iso_time reads "YYYY-MM-DDTHH:MM[:SS[.fraction]]" ('T' or one space between date and
// time) followed by an optional zone "Z", "+HH:MM", "-HHMM" or "+HH"; without a zone the
// timestamp is read at `default_offset_min` (minutes east of UTC). It returns milliseconds since
// 1970-01-01T00:00Z (fraction beyond milliseconds is dropped), or std::nullopt when the text is
// not such a timestamp or names no real calendar date (2026-02-30) or time (24:00, :60).
// parse_utc_offset reads a zone alone ("Z", "UTC", "+02:00", "-0530", "+02") into minutes east of
// UTC (at most 18 h either way). Neither uses the process's time zone or a zone database: named
// zones with daylight saving time are not understood (give offsets in the timestamps).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace goodput::trace {

std::optional<std::int64_t> parse_iso_time(std::string_view text, int default_offset_min = 0);
std::optional<int> parse_utc_offset(std::string_view text);

}  // namespace goodput::trace
