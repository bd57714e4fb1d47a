// Hosts, clock times and ordering for the operator-log readers (log_events.hpp).
#include "models/trace/log_events.hpp"

#include <algorithm>

#include "models/trace/clock.hpp"
#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace::detail {

namespace {

int zone_of(const std::string& path, const ReadOptions& options) {
  if (options.time_zone.empty()) return 0;
  const auto z = parse_utc_offset(options.time_zone);
  if (!z)
    throw InputError(path, "",
                     "expected the time zone as Z or an offset such as +02:00, found " +
                         describe_field(options.time_zone));
  return *z;
}

HostMap host_map(const std::string& path, const ReadOptions& options, std::string_view format) {
  if (options.hosts_file.empty() && options.host_pattern.empty())
    throw InputError(path, "",
                     "format " + std::string(format) +
                         " names hosts: expected a host map file (scenario "
                         "/failures/trace/hosts, goodput import --hosts) or a host pattern "
                         "(/failures/trace/host_pattern, --host-pattern), found neither");
  return HostMap(options.hosts_file, options.host_pattern, options.host_index_offset, path);
}

std::string hours_text(std::int64_t ms) {
  std::string s = std::to_string(static_cast<double>(ms) / 3.6e6);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s + " h";
}

}  // namespace

LogReader::LogReader(const std::string& path, const ReadOptions& options, std::string_view format)
    : path_(path), zone_min_(zone_of(path, options)), hosts_(host_map(path, options, format)) {
  if (!options.start.empty()) {
    start_ms_ = parse_iso_time(options.start, zone_min_);
    if (!start_ms_)
      throw InputError(path, "",
                       "expected the start as an ISO 8601 time such as 2026-03-01T00:00:00Z, "
                       "found " +
                           describe_field(options.start));
  }
}

std::string LogReader::component(const std::string& host, const std::string& where) {
  if (host.empty()) throw InputError(path_, where, "expected a host name, found an empty field");
  const auto c = hosts_.component(host);
  if (!c)
    throw InputError(path_, where,
                     "unknown host (" + describe_field(host) +
                         "): expected a host listed in the host map or matching the host "
                         "pattern");
  return *c;
}

std::int64_t LogReader::time(std::string_view text, const std::string& where,
                             std::string_view field) const {
  const auto ms = parse_iso_time(text, zone_min_);
  if (!ms)
    throw InputError(path_, where,
                     "expected " + std::string(field) +
                         " as an ISO 8601 time such as 2026-03-01T04:12:09+02:00 (or Z, or no "
                         "zone: the time zone option), found " +
                         describe_field(text));
  return *ms;
}

std::vector<TraceEvent> LogReader::finish(std::vector<LogEvent> log) const {
  std::stable_sort(log.begin(), log.end(),
                   [](const LogEvent& a, const LogEvent& b) { return a.ms < b.ms; });
  std::vector<TraceEvent> events;
  if (log.empty()) return events;
  const std::int64_t base = start_ms_ ? *start_ms_ : log.front().ms;
  events.reserve(log.size());
  for (LogEvent& e : log) {
    if (e.ms < base)
      throw InputError(path_, e.locator,
                       "expected times not before the declared start, found one " +
                           hours_text(base - e.ms) + " before it");
    events.push_back({static_cast<double>(e.ms - base) / 3.6e6, std::move(e.component), e.start,
                      std::move(e.fault_class), std::move(e.locator)});
  }
  return events;
}

}  // namespace goodput::trace::detail
