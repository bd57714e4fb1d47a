// Internals shared by the readers of operator logs (formats with takes_hosts): host names
// become component ids through the HostMap of the read options, timestamps become milliseconds
// (clock.hpp, timestamps without a zone read at options.time_zone), and the events, sorted
// stably by time, become hours since options.start or, without it, the earliest event.
// Every problem throws InputError naming the trace file and the record ("line 12", "/items/3").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/trace/hosts.hpp"
#include "models/trace/trace.hpp"

namespace goodput::trace::detail {

// One event of a log, at a clock time.
struct LogEvent {
  std::int64_t ms = 0;  // milliseconds since 1970-01-01T00:00Z
  std::string component;
  bool start = true;
  std::string fault_class;
  std::string locator;  // the record's "line N" or JSON pointer
};

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
