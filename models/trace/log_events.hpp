// Internals shared by the readers of operator logs (formats with takes_hosts): host names
// become component ids through the HostMap of the read options, timestamps become milliseconds
// (clock.hpp, timestamps without a zone read at options.time_zone), and the events, sorted
// stably by time, become hours since options.start or, without it, the earliest event.
// Every problem throws InputError naming the trace file and the record ("line 12", "/items/3").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/trace/detail.hpp"
#include "models/trace/hosts.hpp"
#include "models/trace/trace.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace::detail {

// One event of a log, at a clock time.
struct LogEvent {
  std::int64_t ms = 0;  // milliseconds since 1970-01-01T00:00Z
  std::string component;
  bool start = true;
  std::string fault_class;
  std::string locator;  // the record's "line N" or JSON pointer
};

// A log's header line whose columns come in any order among others: the field index of each of
// `names`. InputError(path, where) for a name given twice or missing; `header` words the message
// ("a header", "the sacctmgr -P header") and `list` names the columns ("timestamp, host, ...").
template <std::size_t N, class Field>
std::array<std::size_t, N> header_columns(const std::vector<Field>& fields,
                                          const std::array<const char*, N>& names,
                                          const char* header, const char* list,
                                          const std::string& path, const std::string& where) {
  std::array<std::size_t, N> column{};
  std::array<bool, N> seen{};
  for (std::size_t f = 0; f < fields.size(); ++f) {
    for (std::size_t k = 0; k < N; ++k) {
      if (fields[f] != names[k]) continue;
      if (seen[k])
        throw InputError(path, where,
                         "expected each of the columns " + std::string(list) + " once, found " +
                             quote_text(names[k]) + " twice");
      seen[k] = true;
      column[k] = f;
    }
  }
  for (std::size_t k = 0; k < N; ++k)
    if (!seen[k])
      throw InputError(path, where,
                       "expected " + std::string(header) + " with the columns " + list +
                           ", found no column " + quote_text(names[k]));
  return column;
}

class LogReader {
 public:
  // Throws InputError when neither a map file nor a pattern is given, or when the zone, the
  // start or the pattern is malformed.
  LogReader(const std::string& path, const ReadOptions& options, std::string_view format);
  // The component of `host`; InputError(path, where) when the host is not known.
  std::string component(const std::string& host, const std::string& where);
  // The timestamp in milliseconds; InputError(path, where) naming `field` when malformed.
  std::int64_t time(std::string_view text, const std::string& where, std::string_view field) const;
  // The events sorted stably by time, in hours since the start; InputError for an event before
  // a declared start.
  std::vector<TraceEvent> finish(std::vector<LogEvent> log) const;

 private:
  std::string path_;
  int zone_min_ = 0;
  std::optional<std::int64_t> start_ms_;
  HostMap hosts_;
};

}  // namespace goodput::trace::detail
