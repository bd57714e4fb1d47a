#include "sim/report/report_schema_check.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "sim/report/report.hpp"
#include "sim/report/strategy_metrics.hpp"

namespace goodput {

namespace {

const std::string kSummaryRef = "#/$defs/summary";

// One strategy's object in a schema: pointers into it resolved through "properties" and local
// $refs ("#/$defs/NAME"; a $ref to the summary is kept, it is what a metric's place holds).
class StrategySchema {
 public:
  StrategySchema(const Json& schema, const Json& strategy) : schema_(schema), strategy_(strategy) {}

  const Json& resolve(const Json& node) const {
    if (node.is_object() && node.contains("$ref") && node["$ref"] != kSummaryRef) {
      const std::string ref = node["$ref"].get<std::string>(), defs = "#/$defs/";
      if (ref.rfind(defs, 0) == 0 && schema_.contains("$defs") &&
          schema_["$defs"].contains(ref.substr(defs.size())))
        return schema_["$defs"][ref.substr(defs.size())];
    }
    return node;
  }
  const Json& strategy() const { return strategy_; }
  // The node of a pointer into the strategy's object ("": the object itself), or nullptr.
  const Json* at(const std::string& pointer) const {
    const Json* node = &strategy_;
    for (std::size_t from = 1; from <= pointer.size();) {
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
  const Json& strategy_;
};

bool is_number(const Json& node) {
  if (!node.is_object() || !node.contains("type")) return false;
  const Json& t = node["type"];
  return t == "number" || (t.is_array() && std::find(t.begin(), t.end(), "number") != t.end());
}

std::string parent_of(const std::string& pointer) {
  return pointer.substr(0, pointer.rfind('/'));
}

// What one file's check needs: its name, which metrics it carries (in their json_modes), the shape
// a metric's summary has there, and the summaries it holds that are no metric.
struct Target {
  std::string where;
  std::function<bool(const StrategyMetric&)> carries;
  bool with_ci95;  // a mean / CI pair writes its CI too
  std::function<bool(const Json&)> is_summary;
  std::string summary_text;  // what is_summary accepts, for the message
  std::vector<std::string> derived;
};

std::vector<std::string> problems_of(const StrategySchema& s, const Target& t) {
  std::vector<std::string> problems;
  std::set<std::string> owned, sections{""}, pair_sections;
  for (const StrategyMetric& m : strategy_metrics()) {
    if (!t.carries(m)) continue;
    const bool pair = !m.json_ci95.empty();
    std::vector<std::string> places{m.json};
    if (pair && t.with_ci95) places.push_back(m.json_ci95);
    for (const std::string& p : places) {
      owned.insert(p);
      sections.insert(parent_of(p));
      if (pair) pair_sections.insert(parent_of(p));
      const Json* node = s.at(p);
      if (node == nullptr)
        problems.push_back(t.where + ": no " + p + " (metric " + m.name + " is written there)");
      else if (pair ? !is_number(s.resolve(*node)) : !t.is_summary(*node))
        problems.push_back(t.where + ": " + p + " (metric " + m.name + ") is not " +
                           (pair ? "a number" : t.summary_text));
    }
    if (!m.top_level()) continue;  // required: top level only
    const Json& required = s.resolve(s.strategy()).value("required", Json::array());
    const bool listed =
        std::find(required.begin(), required.end(), m.json.substr(1)) != required.end();
    if (listed != (m.json_modes == kEveryMode))
      problems.push_back(t.where + ": " + m.json + " (metric " + m.name + ") " +
                         (listed ? "is required but not written in every mode"
                                 : "is written in every mode but not required"));
  }
  for (const std::string& section : sections) {
    const Json* node = s.at(section);
    if (node == nullptr) continue;
    const Json& object = s.resolve(*node);
    if (!object.contains("properties")) continue;
    for (const auto& [key, child] : object["properties"].items()) {
      const std::string p = section + "/" + key;
      if (owned.count(p) != 0) continue;
      if (section.empty() && std::find(t.derived.begin(), t.derived.end(), key) != t.derived.end())
        continue;
      if (t.is_summary(child) || (pair_sections.count(section) != 0 && is_number(s.resolve(child))))
        problems.push_back(t.where + ": " + p +
                           " is a metric no row of the metric table (strategy_metrics.cpp) "
                           "writes");
    }
  }
  return problems;
}

}  // namespace

std::vector<std::string> report_schema_metric_problems(const Json& schema) {
  if (!schema.contains("$defs") || !schema["$defs"].contains("strategy"))
    return {"report.schema.json: no $defs/strategy"};
  const Target t{"report.schema.json $defs/strategy",
                 [](const StrategyMetric& m) { return !m.json.empty(); },
                 true,
                 [](const Json& n) { return n.is_object() && n.value("$ref", "") == kSummaryRef; },
                 "a $ref to " + kSummaryRef,
                 report_json_derived_keys()};
  return problems_of(StrategySchema(schema, schema["$defs"]["strategy"]), t);
}

std::vector<std::string> sweep_schema_metric_problems(const Json& schema) {
  const Json::json_pointer at(
      "/properties/points/items/properties/strategies/additionalProperties");
  if (!schema.contains(at)) return {"sweep.schema.json: no " + at.to_string()};
  // {"mean": number, "ci95": number} and nothing else
  auto mean_ci = [](const Json& n) {
    if (!n.is_object() || !n.contains("properties")) return false;
    const Json& p = n["properties"];
    return p.size() == 2 && p.contains("mean") && p.contains("ci95") && is_number(p["mean"]) &&
           is_number(p["ci95"]);
  };
  const Target t{"sweep.schema.json " + at.to_string(),
                 [](const StrategyMetric& m) { return m.sweep && !m.json.empty(); },
                 false,
                 mean_ci,
                 "an object of mean and ci95",
                 {}};
  return problems_of(StrategySchema(schema, schema[at]), t);
}

}  // namespace goodput
