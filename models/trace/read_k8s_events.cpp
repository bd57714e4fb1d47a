// Kubernetes node events as `kubectl get events -A -o json` prints them: an object whose
// "items" array holds Event objects (a bare array of them is read too). Items whose
// involvedObject.kind is "Node" and whose reason is NodeNotReady or NodeReady are read, others
// skipped. The time is lastTimestamp, else eventTime, else firstTimestamp (RFC 3339). Sorted
// stably by time, each node's events are a state machine starting Ready: NodeNotReady on a
// Ready node starts a fault (class NodeNotReady), NodeReady on a NotReady node ends it; a
// repeated NodeNotReady (the node is already down) or NodeReady (already up) changes nothing.
// Keys the reader does not use are ignored (external format); the ones it uses are checked.
#include <algorithm>
#include <map>

#include "models/trace/detail.hpp"
#include "models/trace/log_events.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace::detail {

namespace {

constexpr const char* kNotReady = "NodeNotReady";

const Json* string_member(const std::string& path, const Json& obj, const std::string& ptr,
                          const char* key, bool required) {
  if (!obj.contains(key) || obj.at(key).is_null()) {
    if (required)
      throw InputError(path, ptr,
                       std::string("expected a key ") + quote_text(key) + ", found none");
    return nullptr;
  }
  const Json& v = obj.at(key);
  if (!v.is_string())
    throw InputError(path, ptr + "/" + key, "expected a string, found " + describe_json(v));
  return &v;
}

std::vector<TraceEvent> read_k8s_events_json(const std::string& path, const std::string& text,
                                             const ReadOptions& options) {
  LogReader reader(path, options, "k8s-events-json");
  const Json doc = parse_json(path, text);
  const Json* items = &doc;
  std::string base;
  if (doc.is_object()) {
    if (!doc.contains("items") || !doc.at("items").is_array())
      throw InputError(path, doc.contains("items") ? "/items" : "",
                       "expected an \"items\" array of Kubernetes events (kubectl get events -o "
                       "json), found " +
                           (doc.contains("items") ? describe_json(doc.at("items"))
                                                  : std::string("no key 'items'")));
    items = &doc.at("items");
    base = "/items";
  } else if (!doc.is_array()) {
    throw InputError(path, "",
                     "expected a kubectl event list (an object with \"items\") or an array of "
                     "events, found " +
                         describe_json(doc));
  }
  std::vector<LogEvent> transitions;
  for (std::size_t i = 0; i < items->size(); ++i) {
    const Json& item = (*items)[i];
    const std::string ptr = base + "/" + std::to_string(i);
    if (!item.is_object())
      throw InputError(path, ptr, "expected an Event object, found " + describe_json(item));
    if (!item.contains("involvedObject") || !item.at("involvedObject").is_object())
      throw InputError(
          path, ptr,
          "expected an object 'involvedObject', found " +
              (item.contains("involvedObject") ? describe_json(item.at("involvedObject"))
                                               : std::string("none")));
    const Json& object = item.at("involvedObject");
    const std::string optr = ptr + "/involvedObject";
    const Json* kind = string_member(path, object, optr, "kind", true);
    if (*kind != "Node") continue;
    const Json* reason = string_member(path, item, ptr, "reason", false);
    if (!reason || (*reason != kNotReady && *reason != "NodeReady")) continue;
    const Json* name = string_member(path, object, optr, "name", true);
    const char* time_key = "lastTimestamp";
    const Json* time = string_member(path, item, ptr, time_key, false);
    for (const char* key : {"eventTime", "firstTimestamp"}) {
      if (time) break;
      time_key = key;
      time = string_member(path, item, ptr, key, false);
    }
    if (!time)
      throw InputError(path, ptr,
                       "expected a time in lastTimestamp, eventTime or firstTimestamp, found none");
    LogEvent ev;
    ev.ms = reader.time(time->get_ref<const std::string&>(), ptr + "/" + time_key, time_key);
    ev.component = reader.component(name->get<std::string>(), optr + "/name");
    ev.start = *reason == kNotReady;
    ev.fault_class = kNotReady;
    ev.locator = ptr;
    transitions.push_back(std::move(ev));
  }
  // The state machine runs in time order; finish() sorts the same way (stably), so sorting
  // first keeps the order it will use.
  std::stable_sort(transitions.begin(), transitions.end(),
                   [](const LogEvent& a, const LogEvent& b) { return a.ms < b.ms; });
  std::map<std::string, bool> down;  // component -> NotReady now
  std::vector<LogEvent> log;
  for (LogEvent& ev : transitions) {
    bool& is_down = down[ev.component];
    if (ev.start == is_down) continue;  // a repeat: no change of state
    is_down = ev.start;
    log.push_back(std::move(ev));
  }
  return reader.finish(std::move(log));
}

}  // namespace

}  // namespace goodput::trace::detail

namespace goodput::trace {

TraceFormat trace_format_k8s_events_json() {
  return {.name = "k8s-events-json",
          .doc =
              "Kubernetes node events, `kubectl get events -o json`: NodeNotReady starts a fault, "
              "NodeReady ends it; hosts mapped as for iso-events-csv",
          .time_key = "lastTimestamp",
          .component_key = "involvedObject/name",
          .event_key = "reason",
          .takes_hosts = true,
          .read = &detail::read_k8s_events_json};
}

}  // namespace goodput::trace
