// StepFun InfiniteHBD fault trace: a JSON array of {node_id: uuid, event_time: days,
// event_type: fault_start|fault_end, fault_type: {Level, Class, Desc}}. Each distinct node_id
// becomes node/<k>, k counting from 0 in order of first appearance; hours = days * 24;
// class = Level + "/" + Class. Keys this reader does not use are ignored (external format).
#include <cmath>
#include <unordered_map>

#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace::detail {

namespace {

const Json& member(const std::string& path, const Json& obj, const std::string& ptr,
                   const char* key, bool want_string) {
  if (!obj.contains(key)) {
    throw InputError(path, ptr, std::string("expected a key ") + quote_text(key) + ", found none");
  }
  const Json& v = obj.at(key);
  if (want_string && !v.is_string()) {
    throw InputError(path, ptr + "/" + key, "expected a string, found " + describe_json(v));
  }
  return v;
}

std::vector<TraceEvent> read_infinitehbd_json(const std::string& path, const std::string& text,
                                              const ReadOptions&) {
  const Json doc = parse_json(path, text);
  if (!doc.is_array()) {
    throw InputError(
        path, "", "expected a JSON array of InfiniteHBD fault events, found " + describe_json(doc));
  }
  std::unordered_map<std::string, std::uint32_t> node_index;  // node_id -> k
  std::vector<TraceEvent> events;
  events.reserve(doc.size());
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const Json& rec = doc[i];
    const std::string ptr = std::string(1, '/').append(std::to_string(i));
    if (!rec.is_object()) {
      throw InputError(path, ptr,
                       "expected an object {node_id, event_time, event_type, fault_type}, found " +
                           describe_json(rec));
    }
    const std::string node = member(path, rec, ptr, "node_id", true).get<std::string>();
    if (node.empty()) throw InputError(path, ptr + "/node_id", "expected a node id, found ''");
    const Json& days = member(path, rec, ptr, "event_time", false);
    if (!days.is_number() || !std::isfinite(days.get<double>()) || days.get<double>() < 0) {
      throw InputError(path, ptr + "/event_time",
                       "expected a finite number of days >= 0, found " + describe_json(days));
    }
    const Json& type = member(path, rec, ptr, "event_type", false);
    if (type != "fault_start" && type != "fault_end") {
      throw InputError(path, ptr + "/event_type",
                       "expected 'fault_start' or 'fault_end', found " + describe_json(type));
    }
    const Json& fault = member(path, rec, ptr, "fault_type", false);
    if (!fault.is_object()) {
      throw InputError(path, ptr + "/fault_type",
                       "expected an object {Level, Class, Desc}, found " + describe_json(fault));
    }
    const std::string fptr = ptr + "/fault_type";
    const std::string level = member(path, fault, fptr, "Level", true).get<std::string>();
    const std::string cls = member(path, fault, fptr, "Class", true).get<std::string>();

    const auto it =
        node_index.try_emplace(node, static_cast<std::uint32_t>(node_index.size())).first;
    TraceEvent ev;
    ev.time_hours = days.get<double>() * 24.0;
    ev.component = "node/" + std::to_string(it->second);
    ev.start = type == "fault_start";
    ev.fault_class = level + "/" + cls;
    ev.locator = ptr;
    events.push_back(std::move(ev));
  }
  return events;
}

}  // namespace

}  // namespace goodput::trace::detail

namespace goodput::trace {

TraceFormat trace_format_infinitehbd_json() {
  return {.name = "infinitehbd-json",
          .doc =
              "StepFun InfiniteHBD JSON: an array of {node_id, event_time (days), event_type, "
              "fault_type}",
          .time_key = "event_time",
          .component_key = "node_id",
          .event_key = "event_type",
          .read = &detail::read_infinitehbd_json};
}

}  // namespace goodput::trace
