// An operator's event log as CSV: a header naming the columns timestamp, host, event and class
// (any order; other columns are ignored), then one event a line: an ISO 8601 timestamp with or
// without a zone, a host name, start or end (fault_start / fault_end too), and a class (may be
// empty; an end with an empty class closes the host's oldest open fault). '#' comment lines and
// blank lines are skipped. Events are sorted stably by instant, so lines written in different
// zones may come in any order.
#include <array>

#include "models/trace/detail.hpp"
#include "models/trace/log_events.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace::detail {

namespace {

constexpr std::array<const char*, 4> kColumns{"timestamp", "host", "event", "class"};
constexpr const char* kColumnList = "timestamp, host, event, class";

std::vector<TraceEvent> read_iso_events_csv(const std::string& path, const std::string& text,
                                            const ReadOptions& options) {
  LogReader reader(path, options, "iso-events-csv");
  const std::vector<std::string_view> lines = split_lines(text);
  std::array<std::size_t, 4> column{};
  std::size_t width = 0;  // fields in the header
  std::vector<LogEvent> log;
  for (std::size_t n = 1; n <= lines.size(); ++n) {
    const std::string_view line = lines[n - 1];
    if (is_blank(line) || line[line.find_first_not_of(" \t")] == '#') continue;
    const std::string where = line_locator(n);
    const std::vector<std::string> fields = split_csv_line(line, path, where);
    if (width == 0) {
      column = header_columns(fields, kColumns, "a header", kColumnList, path, where);
      width = fields.size();
      continue;
    }
    if (fields.size() != width)
      throw InputError(path, where,
                       "expected " + std::to_string(width) + " fields as in the header, found " +
                           std::to_string(fields.size()));
    LogEvent ev;
    ev.ms = reader.time(fields[column[0]], where, "the timestamp");
    ev.component = reader.component(fields[column[1]], where);
    const std::string& word = fields[column[2]];
    if (word == "start" || word == "fault_start") {
      ev.start = true;
    } else if (word == "end" || word == "fault_end") {
      ev.start = false;
    } else {
      throw InputError(
          path, where,
          "expected event start or end (or fault_start, fault_end), found " + describe_field(word));
    }
    ev.fault_class = fields[column[3]];
    ev.locator = where;
    log.push_back(std::move(ev));
  }
  if (width == 0)
    throw InputError(path, line_locator(lines.size() + 1),
                     std::string("expected a header line with the columns ") + kColumnList +
                         ", found the end of the file");
  return reader.finish(std::move(log));
}

}  // namespace

}  // namespace goodput::trace::detail

namespace goodput::trace {

TraceFormat trace_format_iso_events_csv() {
  return {.name = "iso-events-csv",
          .doc =
              "an operator's event log, CSV: timestamp (ISO 8601 with zone), host, event "
              "(start/end), class; hosts mapped by /failures/trace/hosts or host_pattern",
          .takes_hosts = true,
          .read = &detail::read_iso_events_csv};
}

}  // namespace goodput::trace
