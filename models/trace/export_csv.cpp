// goodput CSV out of any read trace, and overlapping records (export_csv.hpp).
#include "models/trace/export_csv.hpp"

#include <charconv>
#include <map>

#include "sim/core/error.hpp"

namespace goodput::trace {

namespace {

std::string hours(double h) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, h, std::chars_format::fixed);
  if (ec != std::errc()) return std::to_string(h);
  return std::string(buf, end);
}

std::string csv_field(const std::string& s) {
  const bool quote = s.find_first_of(",\"") != std::string::npos ||
                     (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.back() == ' ' ||
                                     s.back() == '\t'));
  if (!quote) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string to_goodput_csv(const Trace& trace, const std::vector<std::string>& comments) {
  std::string out;
  for (const std::string& c : comments) out += "# " + c + "\n";
  out += "time_hours,component,event,class\n";
  for (const TraceEvent& ev : trace.events) {
    if (ev.fault_class.find_first_of("\r\n") != std::string::npos)
      throw InputError(trace.path, ev.locator,
                       "expected a class without line breaks (goodput CSV has one event a line), "
                       "found one with a line break");
    out += hours(ev.time_hours) + "," + ev.component + "," +
           (ev.start ? "fault_start," : "fault_end,") + csv_field(ev.fault_class) + "\n";
  }
  return out;
}

std::vector<Overlap> overlapping_records(const Trace& trace) {
  std::map<std::string, std::vector<const TraceEvent*>> open;  // oldest first
  std::vector<Overlap> out;
  for (const TraceEvent& ev : trace.events) {
    auto& here = open[ev.component];
    if (ev.start) {
      if (!here.empty()) out.push_back({ev.component, here.front()->locator, ev.locator});
      here.push_back(&ev);
      continue;
    }
    auto match = here.end();
    for (auto it = here.begin(); it != here.end() && match == here.end(); ++it)
      if ((*it)->locator == ev.locator) match = it;
    for (auto it = here.begin(); it != here.end() && match == here.end(); ++it)
      if ((*it)->fault_class == ev.fault_class) match = it;
    if (match == here.end() && ev.fault_class.empty() && !here.empty()) match = here.begin();
    if (match != here.end()) here.erase(match);
  }
  return out;
}

}  // namespace goodput::trace
