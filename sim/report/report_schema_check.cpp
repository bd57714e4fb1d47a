#include "sim/report/report_schema_check.hpp"

#include <algorithm>
#include <set>

#include "sim/report/report.hpp"
#include "sim/report/strategy_metrics.hpp"

namespace goodput {

namespace {

const std::string kSummaryRef = "#/$defs/summary";

class Schema {
 public:
  explicit Schema(const Json& schema) : schema_(schema) {}

  // `node` with a local $ref ("#/$defs/NAME") replaced by its target.
  const Json& resolve(const Json& node) const {
    if (node.is_object() && node.contains("$ref") && node["$ref"] != kSummaryRef) {
      const std::string ref = node["$ref"].get<std::string>();
      const std::string defs = "#/$defs/";
      if (ref.rfind(defs, 0) == 0 && schema_["$defs"].contains(ref.substr(defs.size())))
        return schema_["$defs"][ref.substr(defs.size())];
    }
    return node;
  }
  const Json& strategy() const { return schema_["$defs"]["strategy"]; }
  // The node of a pointer into a strategy's object (""; the strategy itself), or nullptr.
  const Json* at(const std::string& pointer) const {
    const Json* node = &strategy();
    std::size_t from = 1;
    while (from <= pointer.size() && !pointer.empty()) {
      const std::size_t to = std::min(pointer.find('/', from), pointer.size());
      const Json& object = resolve(*node);
      const std::string key = pointer.substr(from, to - from);
      if (!object.contains("properties") || !object["properties"].contains(key)) return nullptr;
      node = &object["properties"][key];
      from = to + 1;
    }
    return node;
  }

 private:
  const Json& schema_;
};

bool is_summary(const Json& node) {
  return node.is_object() && node.value("$ref", "") == kSummaryRef;
}

bool is_number(const Json& node) {
  if (!node.is_object() || !node.contains("type")) return false;
  const Json& t = node["type"];
  return t == "number" || (t.is_array() && std::find(t.begin(), t.end(), "number") != t.end());
}

std::string parent_of(const std::string& pointer) {
  return pointer.substr(0, pointer.rfind('/'));
}

}  // namespace

std::vector<std::string> report_schema_metric_problems(const Json& schema) {
  std::vector<std::string> problems;
  if (!schema.contains("$defs") || !schema["$defs"].contains("strategy"))
    return {"report.schema.json: no $defs/strategy"};
  const Schema s(schema);
  const std::string where = "report.schema.json $defs/strategy";
  std::set<std::string> owned, sections{""}, pair_sections;
  for (const StrategyMetric& m : strategy_metrics()) {
    if (m.json.empty()) continue;
    std::vector<std::string> places{m.json};
    if (!m.json_ci95.empty()) places.push_back(m.json_ci95);
    for (const std::string& p : places) {
      owned.insert(p);
      sections.insert(parent_of(p));
      if (!m.json_ci95.empty()) pair_sections.insert(parent_of(p));
      const Json* node = s.at(p);
      if (node == nullptr)
        problems.push_back(where + ": no " + p + " (metric " + m.name + " is written there)");
      else if (m.json_ci95.empty() ? !is_summary(*node) : !is_number(s.resolve(*node)))
        problems.push_back(where + ": " + p + " (metric " + m.name + ") is not " +
                           (m.json_ci95.empty() ? "a $ref to " + kSummaryRef : "a number"));
    }
    if (m.json.find('/', 1) != std::string::npos) continue;  // required: top level only
    const Json& required = s.strategy().value("required", Json::array());
    const bool listed =
        std::find(required.begin(), required.end(), m.json.substr(1)) != required.end();
    if (listed != (m.json_modes == kEveryMode))
      problems.push_back(where + ": " + m.json + " (metric " + m.name + ") " +
                         (listed ? "is required but not written in every mode"
                                 : "is written in every mode but not required"));
  }
  const auto& derived = report_json_derived_keys();
  for (const std::string& section : sections) {
    const Json* node = s.at(section);
    if (node == nullptr) continue;
    const Json& object = s.resolve(*node);
    if (!object.contains("properties")) continue;
    for (const auto& [key, child] : object["properties"].items()) {
      const std::string p = section + "/" + key;
      if (owned.count(p) != 0) continue;
      if (section.empty() && std::find(derived.begin(), derived.end(), key) != derived.end())
        continue;
      if (is_summary(child) || (pair_sections.count(section) != 0 && is_number(s.resolve(child))))
        problems.push_back(where + ": " + p +
                           " is a metric no row of the metric table (strategy_metrics.cpp) "
                           "writes");
    }
  }
  return problems;
}

}  // namespace goodput
