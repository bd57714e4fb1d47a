// Slurm node events as `sacctmgr --parsable2 show event format=NodeName,TimeStart,TimeEnd,State,
// Reason` prints them: '|'-separated, a header row naming the columns (these five in any order;
// others such as Cluster or User are ignored), one event a row. A row whose State has a word
// DOWN, DRAIN, DRAINED, DRAINING, FAIL, FAILING or NOT_RESPONDING (words joined by '+', Slurm's
// flag suffixes such as '*' or '~' ignored, any case) is a fault on its node from TimeStart to
// TimeEnd ("Unknown" or empty: still open, never closed); other states, and cluster events
// (an empty NodeName), are skipped. Times are ISO 8601 as Slurm prints them, without a zone (the
// time_zone option; default UTC). class = Reason without the " [user@time]" Slurm appends, or
// the fault word when Reason is empty. A row's end closes the row's own start.
#include <algorithm>
#include <array>
#include <cctype>

#include "models/trace/detail.hpp"
#include "models/trace/log_events.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace::detail {

namespace {

constexpr std::array<const char*, 5> kColumns{"NodeName", "TimeStart", "TimeEnd", "State",
                                              "Reason"};
constexpr const char* kColumnList = "NodeName, TimeStart, TimeEnd, State, Reason";
constexpr std::array<const char*, 7> kFaultStates{"DOWN", "DRAIN",   "DRAINED",       "DRAINING",
                                                  "FAIL", "FAILING", "NOT_RESPONDING"};

std::string_view trim(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string_view> split_bars(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  while (true) {
    const std::size_t bar = line.find('|', pos);
    fields.push_back(trim(line.substr(pos, bar == std::string_view::npos ? bar : bar - pos)));
    if (bar == std::string_view::npos) return fields;
    pos = bar + 1;
  }
}

// The first fault word of a state such as "IDLE+DRAIN" or "DOWN*", "" for a state that is not a
// fault; std::nullopt when it is not a Slurm state at all.
std::optional<std::string> fault_word(std::string_view state) {
  if (state.empty()) return std::nullopt;
  std::optional<std::string> found = std::string();
  std::size_t pos = 0;
  while (pos <= state.size()) {
    std::size_t plus = state.find('+', pos);
    if (plus == std::string_view::npos) plus = state.size();
    std::string_view word = state.substr(pos, plus - pos);
    while (!word.empty() &&
           std::string_view("*~#!%$@^-").find(word.back()) != std::string_view::npos)
      word.remove_suffix(1);
    if (word.empty()) return std::nullopt;
    std::string upper;
    for (const char c : word) {
      if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (found->empty() &&
        std::find(kFaultStates.begin(), kFaultStates.end(), upper) != kFaultStates.end())
      found = upper;
    pos = plus + 1;
  }
  return found;
}

// Reason without the " [user@time]" that scontrol appends.
std::string reason_class(std::string_view reason) {
  if (!reason.empty() && reason.back() == ']') {
    const std::size_t open = reason.rfind('[');
    if (open != std::string_view::npos && reason.find('@', open) != std::string_view::npos)
      reason = trim(reason.substr(0, open));
  }
  return std::string(reason);
}

std::vector<TraceEvent> read_slurm_events(const std::string& path, const std::string& text,
                                          const ReadOptions& options) {
  LogReader reader(path, options, "slurm-events");
  const std::vector<std::string_view> lines = split_lines(text);
  std::array<std::size_t, 5> column{};
  std::size_t width = 0;
  std::vector<LogEvent> log;
  for (std::size_t n = 1; n <= lines.size(); ++n) {
    const std::string_view line = lines[n - 1];
    if (is_blank(line) || line[line.find_first_not_of(" \t")] == '#') continue;
    const std::string where = line_locator(n);
    const std::vector<std::string_view> fields = split_bars(line);
    if (width == 0) {
      column = header_columns(fields, kColumns, "the sacctmgr -P header", kColumnList, path, where);
      width = fields.size();
      continue;
    }
    if (fields.size() != width)
      throw InputError(path, where,
                       "expected " + std::to_string(width) +
                           " '|'-separated fields as in the header, found " +
                           std::to_string(fields.size()));
    const std::string_view node = fields[column[0]];
    if (node.empty()) continue;  // a cluster event
    const auto word = fault_word(fields[column[3]]);
    if (!word)
      throw InputError(path, where,
                       "expected a Slurm node State such as DOWN, DRAIN or IDLE+DRAIN, found " +
                           describe_field(fields[column[3]]));
    if (word->empty()) continue;  // not a fault state
    const std::string component = reader.component(std::string(node), where);
    const std::int64_t start = reader.time(fields[column[1]], where, "TimeStart");
    std::string cls = reason_class(fields[column[4]]);
    if (cls.empty()) cls = *word;
    log.push_back({start, component, true, cls, where});
    const std::string_view end_text = fields[column[2]];
    if (end_text.empty() || end_text == "Unknown") continue;  // still open
    const std::int64_t end = reader.time(end_text, where, "TimeEnd");
    if (end < start)
      throw InputError(path, where, "expected TimeEnd not before TimeStart, found it earlier");
    log.push_back({end, component, false, std::move(cls), where});
  }
  if (width == 0)
    throw InputError(path, line_locator(lines.size() + 1),
                     std::string("expected the sacctmgr -P header with the columns ") +
                         kColumnList + ", found the end of the file");
  return reader.finish(std::move(log));
}

}  // namespace

}  // namespace goodput::trace::detail

namespace goodput::trace {

TraceFormat trace_format_slurm_events() {
  return {.name = "slurm-events",
          .doc =
              "Slurm node events, `sacctmgr -P show event format=NodeName,TimeStart,TimeEnd,State,"
              "Reason`: DOWN/DRAIN/FAIL rows are faults; hosts mapped as for iso-events-csv",
          .takes_hosts = true,
          .read = &detail::read_slurm_events};
}

}  // namespace goodput::trace
