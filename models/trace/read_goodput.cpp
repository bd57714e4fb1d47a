// goodput's own trace formats: CSV (time_hours,component,event,class in any column order) and
// a JSON array of {time_hours, component, event, class} objects. Both are strict.
#include <array>
#include <cmath>

#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_pointer.hpp"

namespace goodput::trace::detail {

namespace {

constexpr std::array<const char*, 4> kColumns{"time_hours", "component", "event", "class"};
constexpr const char* kColumnList = "time_hours, component, event, class";
constexpr const char* kComponentForm =
    "'<kind>/<index>' with kind gpu, node, domain, rack, leaf, row or fleet (e.g. 'node/17')";

double check_time(const std::string& path, const std::string& where, std::optional<double> value,
                  const std::string& found) {
  if (!value || !std::isfinite(*value) || *value < 0) {
    throw InputError(path, where, "expected time_hours as a finite number >= 0, found " + found);
  }
  return *value;
}

void check_component(const std::string& path, const std::string& where, const std::string& name) {
  if (!parse_component(name)) {
    throw InputError(path, where,
                     std::string("expected a component id ") + kComponentForm + ", found " +
                         describe_field(name));
  }
}

bool parse_event(const std::string& path, const std::string& where, const std::string& word,
                 const std::string& found) {
  if (word == "fault_start") return true;
  if (word == "fault_end") return false;
  throw InputError(path, where, "expected event 'fault_start' or 'fault_end', found " + found);
}

std::vector<TraceEvent> read_goodput_csv(const std::string& path, const std::string& text,
                                         const ReadOptions&) {
  const std::vector<std::string_view> lines = split_lines(text);
  std::array<std::size_t, 4> column{};  // column[k]: field index of kColumns[k]
  bool have_header = false;
  std::vector<TraceEvent> events;
  for (std::size_t n = 1; n <= lines.size(); ++n) {
    const std::string_view line = lines[n - 1];
    if (is_blank(line) || line[line.find_first_not_of(" \t")] == '#') continue;
    const std::string where = line_locator(n);
    const std::vector<std::string> fields = split_csv_line(line, path, where);
    if (!have_header) {
      std::array<bool, 4> seen{};
      for (std::size_t f = 0; f < fields.size(); ++f) {
        std::size_t k = 0;
        while (k < kColumns.size() && fields[f] != kColumns[k]) ++k;
        if (k == kColumns.size() || seen[k]) {
          throw InputError(path, where,
                           std::string("expected a header with the columns ") + kColumnList +
                               " (any order, each once), found " +
                               (k == kColumns.size() ? "unknown" : "repeated") + " column, " +
                               describe_field(fields[f]));
        }
        seen[k] = true;
        column[k] = f;
      }
      for (std::size_t k = 0; k < kColumns.size(); ++k) {
        if (!seen[k]) {
          throw InputError(path, where,
                           std::string("expected a header with the columns ") + kColumnList +
                               ", found no column " + quote_text(kColumns[k]));
        }
      }
      have_header = true;
      continue;
    }
    if (fields.size() != kColumns.size()) {
      throw InputError(path, where,
                       std::string("expected 4 fields (") + kColumnList + "), found " +
                           std::to_string(fields.size()));
    }
    TraceEvent ev;
    const std::string& time = fields[column[0]];
    ev.time_hours = check_time(path, where, parse_number(time), describe_field(time));
    ev.component = fields[column[1]];
    check_component(path, where, ev.component);
    ev.start = parse_event(path, where, fields[column[2]], describe_field(fields[column[2]]));
    ev.fault_class = fields[column[3]];
    ev.locator = where;
    events.push_back(std::move(ev));
  }
  if (!have_header) {
    throw InputError(path, line_locator(lines.size() + 1),
                     std::string("expected a header line with the columns ") + kColumnList +
                         ", found the end of the file");
  }
  return events;
}

std::vector<TraceEvent> read_goodput_json(const std::string& path, const std::string& text,
                                          const ReadOptions&) {
  const Json doc = parse_json(path, text);
  if (!doc.is_array()) {
    throw InputError(path, "",
                     "expected a JSON array of event objects, found " + describe_json(doc));
  }
  std::vector<TraceEvent> events;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const Json& rec = doc[i];
    const std::string ptr = std::string(1, '/').append(std::to_string(i));
    if (!rec.is_object()) {
      throw InputError(path, ptr,
                       std::string("expected an object with the keys ") + kColumnList + ", found " +
                           describe_json(rec));
    }
    for (const auto& [key, value] : rec.items()) {
      bool known = false;
      for (const char* c : kColumns) known = known || key == c;
      if (!known) {
        throw InputError(path, pointer_append(ptr, key),
                         std::string("expected only the keys ") + kColumnList +
                             ", found unknown key " +
                             quote_text(key));  // (the pointer names it too)
      }
    }
    for (const char* c : kColumns) {
      if (!rec.contains(c)) {
        throw InputError(
            path, ptr,
            std::string("expected the keys ") + kColumnList + ", found no key " + quote_text(c));
      }
    }
    const auto string_at = [&](const char* key, const char* what) -> std::string {
      const Json& v = rec.at(key);
      if (!v.is_string()) {
        throw InputError(path, ptr + "/" + key,
                         std::string("expected ") + what + ", found " + describe_json(v));
      }
      return v.get<std::string>();
    };
    TraceEvent ev;
    const Json& time = rec.at("time_hours");
    ev.time_hours = check_time(path, ptr + "/time_hours",
                               time.is_number() ? std::optional(time.get<double>()) : std::nullopt,
                               describe_json(time));
    ev.component = string_at("component", "a string component id");
    check_component(path, ptr + "/component", ev.component);
    const std::string word = string_at("event", "a string 'fault_start' or 'fault_end'");
    ev.start = parse_event(path, ptr + "/event", word, describe_json(rec.at("event")));
    ev.fault_class = string_at("class", "a string fault class");
    ev.locator = ptr;
    events.push_back(std::move(ev));
  }
  return events;
}

}  // namespace

}  // namespace goodput::trace::detail

namespace goodput::trace {

TraceFormat trace_format_goodput_csv() {
  return {.name = "csv",
          .doc =
              "goodput CSV: a header naming time_hours, component, event, class; one event "
              "per line",
          .read = &detail::read_goodput_csv};
}

TraceFormat trace_format_goodput_json() {
  return {.name = "json",
          .doc = "goodput JSON: an array of {time_hours, component, event, class}",
          .time_key = "time_hours",
          .component_key = "component",
          .event_key = "event",
          .read = &detail::read_goodput_json};
}

}  // namespace goodput::trace
