// LANL failure data 1996-2005 (LA-UR-05-7318): one CSV row per node failure. Rows of the
// chosen System become a fault_start at "Prob Started" and a fault_end at "Prob Fixed" (or
// start + "Down Time" minutes when Prob Fixed is unusable) on node/<nodenum>. Dates are
// m/d/yyyy h:mm, naive local time; hours count from the system's earliest start. Rows are
// sorted by start and the events stably by time, since the file groups rows by node.
#include <algorithm>
#include <array>
#include <chrono>
#include <set>

#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace::detail {

namespace {

constexpr std::array<const char*, 6> kCauses{"Facilities", "Hardware",     "Human Error",
                                             "Network",    "Undetermined", "Software"};

// Reads 1..max_digits digits at `pos`; std::nullopt when there are none or too many.
std::optional<int> digits(std::string_view s, std::size_t& pos, std::size_t min_digits,
                          std::size_t max_digits) {
  std::size_t n = 0;
  int value = 0;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    value = value * 10 + (s[pos++] - '0');
    if (++n > max_digits) return std::nullopt;
  }
  if (n < min_digits) return std::nullopt;
  return value;
}

bool expect(std::string_view s, std::size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

// "m/d/yyyy h:mm" -> minutes since 1970-01-01 00:00, or std::nullopt when malformed.
std::optional<std::int64_t> parse_date(std::string_view s) {
  std::size_t p = 0;
  const auto mo = digits(s, p, 1, 2);
  if (!mo || !expect(s, p, '/')) return std::nullopt;
  const auto d = digits(s, p, 1, 2);
  if (!d || !expect(s, p, '/')) return std::nullopt;
  const auto y = digits(s, p, 4, 4);
  if (!y || !expect(s, p, ' ')) return std::nullopt;
  const auto h = digits(s, p, 1, 2);
  if (!h || !expect(s, p, ':')) return std::nullopt;
  const auto mi = digits(s, p, 2, 2);
  if (!mi || p != s.size()) return std::nullopt;
  namespace chr = std::chrono;
  const chr::year_month_day date{chr::year{*y}, chr::month{static_cast<unsigned>(*mo)},
                                 chr::day{static_cast<unsigned>(*d)}};
  if (!date.ok() || *h > 23 || *mi > 59) return std::nullopt;  // ok(): a real calendar date
  const std::int64_t days = chr::sys_days{date}.time_since_epoch().count();
  return days * 1440 + *h * 60 + *mi;
}

struct Record {
  std::size_t line;
  std::int64_t start_min;
  double end_min;
  std::uint32_t node;
  std::string cause;
};

std::string list(const std::set<int>& systems) {
  std::string out;
  for (const int s : systems) out += (out.empty() ? "" : ", ") + std::to_string(s);
  return out.empty() ? "none" : out;
}

std::vector<TraceEvent> read_lanl_csv(const std::string& path, const std::string& text,
                                      const ReadOptions& options) {
  const std::optional<int> system = options.lanl_system;
  const std::vector<std::string_view> lines = split_lines(text);
  if (lines.empty())
    throw InputError(path, "line 1", "expected the LANL header, found an empty file");
  const std::vector<std::string> header = split_csv_line(lines[0], path, "line 1");
  const auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) {
      throw InputError(path, "line 1",
                       std::string("expected the LANL header with a column ") + quote_text(name) +
                           ", found none");
    }
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t c_system = column("System"), c_node = column("nodenum");
  const std::size_t c_started = column("Prob Started"), c_fixed = column("Prob Fixed");
  const std::size_t c_down = column("Down Time");
  std::array<std::size_t, kCauses.size()> c_cause{};
  for (std::size_t k = 0; k < kCauses.size(); ++k) c_cause[k] = column(kCauses[k]);

  std::set<int> systems;
  std::vector<Record> records;
  for (std::size_t n = 2; n <= lines.size(); ++n) {
    if (is_blank(lines[n - 1])) continue;
    const std::string_view line = lines[n - 1];
    const std::string where = line_locator(n);
    const auto split_row = [&] {
      std::vector<std::string> fields = split_csv_line(line, path, where);
      if (fields.size() != header.size()) {
        throw InputError(path, where,
                         "expected " + std::to_string(header.size()) +
                             " fields as in the header, found " + std::to_string(fields.size()));
      }
      return fields;
    };
    // Rows are split in full only when selected; System is read alone when it is the first
    // column and unquoted (as in the published file), which keeps a read fast.
    std::vector<std::string> f;
    std::string sys_text;
    if (c_system == 0 && line.find('"') > line.find(',')) {
      sys_text = split_csv_line(line.substr(0, line.find(',')), path, where).front();
    } else {
      f = split_row();
      sys_text = f[c_system];
    }
    const auto sys = parse_index(sys_text);
    if (!sys || *sys > 1'000'000) {
      throw InputError(path, where, "expected a System number, found " + describe_field(sys_text));
    }
    systems.insert(static_cast<int>(*sys));
    if (!system || static_cast<int>(*sys) != *system) continue;
    if (f.empty()) f = split_row();
    Record r{n, 0, 0, 0, "Unspecified"};
    const auto node = parse_index(f[c_node]);
    if (!node) {
      throw InputError(
          path, where,
          "expected a node number in column 'nodenum', found " + describe_field(f[c_node]));
    }
    r.node = *node;
    const auto start = parse_date(f[c_started]);
    if (!start) {
      throw InputError(
          path, where,
          "expected 'Prob Started' as m/d/yyyy h:mm, found " + describe_field(f[c_started]));
    }
    r.start_min = *start;
    const auto fixed = parse_date(f[c_fixed]);
    const auto down = parse_number(f[c_down]);
    if (fixed && *fixed >= *start) {
      r.end_min = static_cast<double>(*fixed);
    } else if (down && *down >= 0) {
      r.end_min = static_cast<double>(*start) + *down;
    } else {
      throw InputError(path, where,
                       "expected 'Prob Fixed' as m/d/yyyy h:mm not before 'Prob Started', or "
                       "'Down Time' as minutes >= 0; found " +
                           describe_field(f[c_fixed]) + " and " + describe_field(f[c_down]));
    }
    for (std::size_t k = 0; k < kCauses.size(); ++k) {
      if (!is_blank(f[c_cause[k]])) {
        r.cause = kCauses[k];
        break;
      }
    }
    records.push_back(std::move(r));
  }
  if (!system) {
    throw InputError(path, "",
                     "format lanl-csv needs the LANL system number to import (ReadOptions::"
                     "lanl_system), found none; systems in this file: " +
                         list(systems));
  }
  if (records.empty()) {
    throw InputError(path, "",
                     "expected records of System " + std::to_string(*system) +
                         ", found none; systems in this file: " + list(systems));
  }
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.start_min < b.start_min; });
  const std::int64_t base = records.front().start_min;
  std::vector<TraceEvent> events;
  events.reserve(2 * records.size());
  for (const Record& r : records) {
    const std::string component = "node/" + std::to_string(r.node);
    const double start_h = static_cast<double>(r.start_min - base) / 60.0;
    const double end_h = (r.end_min - static_cast<double>(base)) / 60.0;
    events.push_back({start_h, component, true, r.cause, line_locator(r.line)});
    events.push_back({end_h, component, false, r.cause, line_locator(r.line)});
  }
  // A row's start precedes its end in `events`, so the stable sort keeps every end after its
  // start, and an end at the same time as a later row's start stays before it.
  std::stable_sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
    return a.time_hours < b.time_hours;
  });
  return events;
}

}  // namespace

}  // namespace goodput::trace::detail

namespace goodput::trace {

TraceFormat trace_format_lanl_csv() {
  return {.name = "lanl-csv",
          .doc = "LANL failure data CSV (one system, lanl_system; node faults with start and end)",
          .takes_system = true,
          .read = &detail::read_lanl_csv};
}

}  // namespace goodput::trace
