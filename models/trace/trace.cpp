// Format lookup, read_trace (through the format's reader) and offset, and pairing of starts
// with ends.
#include "models/trace/trace.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "models/topology/component_kind.hpp"
#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace {

namespace {

std::atomic<std::uint64_t> parses{0};

std::string hours(double h) {
  std::string s = std::to_string(h);  // fixed, 6 decimals; trim trailing zeros
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s + " h";
}

// Event i must have a finite time >= 0, not before event i-1.
void check_time(const Trace& trace, std::size_t i) {
  const TraceEvent& ev = trace.events[i];
  const std::string where = detail::field_locator(*trace.format, ev.locator, detail::Field::Time);
  if (!std::isfinite(ev.time_hours) || ev.time_hours < 0) {
    throw InputError(
        trace.path, where,
        "expected a finite time >= 0 h, found " + std::to_string(ev.time_hours) + " h");
  }
  if (i > 0 && ev.time_hours < trace.events[i - 1].time_hours) {
    throw InputError(trace.path, where,
                     "expected events in non-decreasing time order, found " + hours(ev.time_hours) +
                         " after " + hours(trace.events[i - 1].time_hours) + " (" +
                         trace.events[i - 1].locator + ")");
  }
}

}  // namespace

std::uint64_t trace_parses() {
  return parses.load(std::memory_order_relaxed);
}

std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (const TraceFormat& f : trace_formats()) names.emplace_back(f.name);
  return names;
}

const TraceFormat& parse_format(const std::string& name, const std::string& file,
                                const std::string& pointer) {
  std::string valid;
  for (const TraceFormat& f : trace_formats()) {
    if (name == f.name) return f;
    valid += (valid.empty() ? "" : ", ") + std::string(f.name);
  }
  throw InputError(
      file, pointer,
      "unknown trace format " + detail::quote_text(name) + "; expected one of " + valid);
}

std::optional<ComponentRef> parse_component(const std::string& name) {
  const std::size_t slash = name.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string kind = name.substr(0, slash);
  bool known = false;
  for (const auto& k : kComponentKindNames) known = known || kind == k.name;
  const auto index = detail::parse_index(std::string_view(name).substr(slash + 1));
  if (!known || !index) return std::nullopt;
  return ComponentRef{kind, *index};
}

namespace detail {
std::string field_locator(const TraceFormat& format, const std::string& record, Field field) {
  const std::string_view key = field == Field::Time        ? format.time_key
                               : field == Field::Component ? format.component_key
                                                           : format.event_key;
  return key.empty() ? record : record + "/" + std::string(key);
}
}  // namespace detail

Trace read_trace(const std::string& path, const TraceFormat& format, const ReadOptions& options) {
  if (options.lanl_system && !format.takes_system) {
    std::string takers;
    for (const TraceFormat& f : trace_formats())
      if (f.takes_system) takers += (takers.empty() ? "" : ", ") + std::string(f.name);
    throw InputError(path, "",
                     "a LANL system number applies only to format " + takers + ", found format " +
                         std::string(format.name));
  }
  const bool host_options = !options.hosts_file.empty() || !options.host_pattern.empty() ||
                            options.host_index_offset != 0 || !options.time_zone.empty() ||
                            !options.start.empty();
  if (host_options && !format.takes_hosts) {
    std::string takers;
    for (const TraceFormat& f : trace_formats())
      if (f.takes_hosts) takers += (takers.empty() ? "" : ", ") + std::string(f.name);
    throw InputError(path, "",
                     "host maps, host patterns, time_zone and start apply only to formats " +
                         takers + ", found format " + std::string(format.name));
  }
  if (!std::isfinite(options.time_offset_hours)) {
    throw InputError(
        path, "",
        "expected a finite time offset, found " + std::to_string(options.time_offset_hours));
  }
  const std::string text = detail::read_file(path);
  parses.fetch_add(1, std::memory_order_relaxed);
  Trace trace{path, &format, format.read(path, text, options), 0};
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    TraceEvent& ev = trace.events[i];
    ev.time_hours -= options.time_offset_hours;
    if (ev.time_hours < 0) {
      throw InputError(path, detail::field_locator(format, ev.locator, detail::Field::Time),
                       "expected a time >= 0 after subtracting the offset of " +
                           hours(options.time_offset_hours) + ", found " + hours(ev.time_hours));
    }
    check_time(trace, i);
  }
  if (!trace.events.empty()) trace.span_hours = trace.events.back().time_hours;
  return trace;
}

std::vector<Fault> pair_faults(
    const Trace& trace,
    const std::function<std::optional<std::uint32_t>(const std::string&)>& resolve) {
  struct Open {
    std::size_t fault;        // index into `faults`
    const TraceEvent* event;  // its fault_start
  };
  std::unordered_map<std::uint32_t, std::vector<Open>> open;  // per component, oldest first
  std::vector<Fault> faults;
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& ev = trace.events[i];
    check_time(trace, i);
    const auto id = resolve(ev.component);
    if (!id) {
      throw InputError(trace.path,
                       detail::field_locator(*trace.format, ev.locator, detail::Field::Component),
                       "expected a component id of this cluster, found unknown id " +
                           detail::quote_text(ev.component));
    }
    std::vector<Open>& here = open[*id];
    if (ev.start) {
      here.push_back({faults.size(), &ev});
      faults.push_back({from_hours(ev.time_hours), kTimeInfinity, *id, ev.fault_class});
      continue;
    }
    // Close the fault opened by the same record (LANL rows give both events), else the
    // oldest open fault of the same class, else (end with an empty class) the oldest one.
    auto match = here.end();
    for (auto it = here.begin(); it != here.end() && match == here.end(); ++it) {
      if (it->event->locator == ev.locator) match = it;
    }
    for (auto it = here.begin(); it != here.end() && match == here.end(); ++it) {
      if (it->event->fault_class == ev.fault_class) match = it;
    }
    if (match == here.end() && ev.fault_class.empty() && !here.empty()) match = here.begin();
    if (match == here.end()) {
      std::string found = "no open fault";
      if (!here.empty()) {
        found = "open faults only of class";
        for (const Open& o : here) (found += ' ') += detail::quote_text(o.event->fault_class);
      }
      throw InputError(
          trace.path, detail::field_locator(*trace.format, ev.locator, detail::Field::Event),
          "fault_end of class " + detail::quote_text(ev.fault_class) + " on " + ev.component +
              ": expected an earlier fault_start of that class "
              "still open there, found " +
              found);
    }
    faults[match->fault].end = from_hours(ev.time_hours);
    here.erase(match);
  }
  return faults;
}

std::size_t merge_overlapping(std::vector<Fault>& faults,
                              const std::function<bool(const std::string&)>& restart_only) {
  // Each component's records by start (ties: in list order), then one sweep over them.
  std::vector<std::size_t> order(faults.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Fault& fa = faults[a];
    const Fault& fb = faults[b];
    return fa.component != fb.component ? fa.component < fb.component : fa.start < fb.start;
  });
  const auto hardware = [&](const Fault& f) {
    return !restart_only || !restart_only(f.fault_class);
  };
  std::vector<std::pair<std::size_t, Fault>> merged;  // (first record's index, union)
  merged.reserve(faults.size());
  for (const std::size_t i : order) {
    Fault& f = faults[i];
    if (!merged.empty()) {
      Fault& u = merged.back().second;
      if (u.component == f.component && f.start <= u.end) {
        u.end = std::max(u.end, f.end);
        if (!hardware(u) && hardware(f)) u.fault_class = std::move(f.fault_class);
        continue;
      }
    }
    merged.emplace_back(i, std::move(f));
  }
  std::sort(merged.begin(), merged.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::size_t before = faults.size();
  faults.clear();
  for (auto& m : merged) faults.push_back(std::move(m.second));
  // Restore start order (pair_faults gives it; a hand-made list may not).
  std::stable_sort(faults.begin(), faults.end(),
                   [](const Fault& a, const Fault& b) { return a.start < b.start; });
  return before - faults.size();
}

}  // namespace goodput::trace
