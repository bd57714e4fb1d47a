#include "sim/cli/describe.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "calibrate/profile/profile_schema.hpp"
#include "models/failures/failure_presets.hpp"
#include "models/scenario/scenario_params.hpp"
#include "models/strategies/strategy.hpp"
#include "models/topology/cluster_presets.hpp"
#include "sim/core/param_json_schema.hpp"
#include "sim/report/plausible.hpp"
#include "sim/report/report.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

namespace {

void section(std::ostringstream& s, const std::string& pointer, const ParamSection& sec) {
  s << "### `" << pointer << "` — " << sec.doc << "\n\n" << describe_section_markdown(sec) << "\n";
}

// `pointer`'s section, then every object (or list of objects: "/N") declared under it, depth
// first in declaration order, so no nested section can be left out. Sections in `elsewhere`
// (another topic's) are skipped.
void sections_under(std::ostringstream& s, const std::string& pointer, const ParamSection& sec,
                    const std::vector<const ParamSection*>& elsewhere = {}) {
  section(s, pointer, sec);
  for (const ParamDecl& d : sec.params) {
    if (!d.nested || std::find(elsewhere.begin(), elsewhere.end(), d.nested) != elsewhere.end())
      continue;
    const std::string base = pointer == "/" ? "" : pointer;
    sections_under(s, base + "/" + d.key + (d.type == ParamType::ObjectList ? "/N" : ""), *d.nested,
                   elsewhere);
  }
}

std::string strategies_text() {
  std::ostringstream s;
  s << "## Strategies (`/strategies/<name>`)\n\n";
  for (const auto& st : strategy_table()) {
    s << "### `" << st.name << "` — " << st.doc << "\n\n" << st.params->doc << "\n\n";
    if (!st.params->params.empty()) s << describe_section_markdown(*st.params) << "\n";
  }
  return s.str();
}

std::string failure_models_text() {
  namespace S = sections;
  std::ostringstream s;
  s << "## Failure models (`/failures`)\n\n";
  sections_under(s, "/failures", S::failures());
  s << "### Presets\n\n";
  for (const auto& name : failure_preset_names())
    s << "- `" << name << "`: " << failure_preset_doc(name) << "\n";
  s << "\n";
  return s.str();
}

std::string schema_text() {
  namespace S = sections;
  std::ostringstream s;
  s << "## Scenario schema\n\n"
    << "The same keys as a JSON Schema (draft 2020-12), for an editor's completion and checks: "
       "`goodput describe schema --json` (sim/report/schema/scenario.schema.json).\n\n";
  // Every section under "/" (/report included) but those of the two topics named below.
  sections_under(s, "/", S::scenario(), {&S::failures(), &S::strategies()});
  s << "`/failures`: see `goodput describe failure-models`; `/strategies`: see `goodput describe "
       "strategies`.\n\n";
  return s.str();
}

std::string modes_text(unsigned modes) {
  return modes == kEveryMode ? "both" : modes == kTimeMode ? "time" : "snapshot";
}

// "report.json, runs.csv, report.md": the outputs a metric's row declares ("-": none).
std::string printed_in(const StrategyMetric& m) {
  std::string out;
  auto add = [&out](bool yes, const char* what) {
    if (yes) out += (out.empty() ? "" : ", ") + std::string(what);
  };
  add(!m.json.empty(), "report.json");
  add(m.csv, "runs.csv");
  add(!m.markdown.label.empty(), "report.md");
  add(!m.html.label.empty(), "report.html");
  return out.empty() ? "-" : out;
}

std::string metrics_text() {
  std::ostringstream s;
  s << "## Metrics\n\n"
    << "### Per strategy (report.md/json/html, `goodput sweep --target METRIC>=X`)\n\n"
    << "Mean and 95% CI over the runs of each strategy.\n\n"
    << "Goodput counts useful training against wall time; **Goodput per provisioned GPU** counts "
       "it\nagainst every GPU the cluster holds (the job's, the spare domains' and GPUs no group "
       "uses), so\nspare domains a strategy needs cost it here (on the default cluster the 64 "
       "spare domains\nare 6% of the GPUs). Reports show it beside Goodput, sweeps per point, "
       "and `--target\ngoodput_per_provisioned_gpu>=X` seeks on it.\n\n"
    << "Modes: where the metric means something (`time`, `snapshot` or `both`); printed in: the "
       "outputs its row in `sim/report/strategy_metrics.cpp` declares (report.md and report.html: "
       "the strategy table; every metric is also a goal-seek target).\n\n"
    << "| name | unit | modes | printed in | meaning |\n|---|---|---|---|---|\n";
  for (const StrategyMetric& m : strategy_metrics())
    if (m.seek)
      s << "| `" << m.name << "` | " << m.unit << " | " << modes_text(m.applies) << " | "
        << printed_in(m) << " | " << m.doc << " |\n";
  s << "\n### Per run (`runs.csv`, sweep point records)\n\n"
    << "| name | unit | meaning |\n|---|---|---|\n";
  for (const RunMetricField& f : run_metric_fields())
    s << "| `" << f.name << "` | " << f.unit << " | " << f.doc << " |\n";
  s << "\n";
  return s.str();
}

std::string profile_text() {
  std::ostringstream s;
  s << "## Calibration profile format (`schema_version` " << calib::kProfileSchemaVersion << ")\n\n"
    << "Every key is required; `or null` marks those that may be null. Unknown keys are "
       "errors. A version 1 profile, without `memory_kernels` and `/models/N/layout`, still "
       "loads (it has no memory-bound kernel entries); so does a version 2 profile, without "
       "`attention` and `/settings/analytical_model/flash_attention` (no fused attention "
       "entries; an analytical one prices attention as GEMMs on its curve).\n\n";
  for (const auto& placed : calib::profile_sections::all())
    section(s, placed.pointer, *placed.section);
  return s.str();
}

std::string plausible_text() {
  return "## Plausible ranges of the uncertain inputs\n\n" + plausible_table_markdown() + "\n";
}

// One cell of the hardware table: a number as %g, a string as it is ("-" when empty).
std::string cell(const Json& v) {
  if (v.is_string()) return v.get<std::string>().empty() ? "-" : v.get<std::string>();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v.get<double>());
  return buf;
}

bool is_source(const std::string& key) {
  return key.size() > 7 && key.compare(key.size() - 7, 7, "_source") == 0;
}

std::string hardware_text() {
  const auto& fields = sections::gpu_spec_fields();
  std::vector<Json> values;
  for (const calib::GpuSpec& g : calib::gpu_catalogue()) values.push_back(fields.values(g));
  std::ostringstream s;
  std::string presets;
  for (const auto& p : kClusterPresets)
    presets += (presets.empty() ? "" : ", ") + std::string(p.name) + ": " + p.gpu;
  s << "## GPU catalogue (`/cluster/gpu`)\n\n"
    << "`/cluster/gpu` names one of these GPUs (the cluster presets' defaults: " << presets
    << "); `/cluster/gpu_spec` describes another with the same keys. Figures are per GPU and "
       "dense (no 2:4 sparsity); `nvlink_gbps` is one direction, half the datasheet's "
       "bidirectional NVLink bandwidth per GPU, as the step model's collectives use it. The "
       "analytical profile (`goodput-profile-analytical --gpu NAME`, or the cost model without "
       "`/cost/profile`) takes its GEMM and copy ceilings from `bf16_dense_tflops` and "
       "`hbm_bandwidth_gbps`; `/cluster/gpu_nominal_power_w` and `gpu_max_power_w` default to "
       "`nominal_power_w` and `max_power_w`; `/cost/nvlink_gbps` to `nvlink_gbps`. The step model "
       "prices causal (flash) attention at `attention_fwd_efficiency` and "
       "`attention_bwd_efficiency` of the BF16 peak where no measured profile says otherwise.\n\n";
  s << "| key | unit |";
  for (const calib::GpuSpec& g : calib::gpu_catalogue()) s << " " << g.name << " |";
  s << " meaning |\n|---|---|";
  for (std::size_t i = 0; i < values.size(); ++i) s << "---|";
  s << "---|\n";
  for (const ParamDecl& d : fields.section().params) {
    if (d.key == "name" || is_source(d.key)) continue;
    s << "| `" << d.key << "` | " << d.unit << " |";
    for (const Json& v : values) s << " " << cell(v[d.key]) << " |";
    s << " " << d.doc << " |\n";
  }
  s << "\n### Sources\n\n";
  for (const Json& v : values) {
    s << "- **" << v["name"].get<std::string>() << "** (" << v["product"].get<std::string>()
      << ")\n";
    for (const ParamDecl& d : fields.section().params)
      if (is_source(d.key)) s << "  - `" << d.key << "`: " << v[d.key].get<std::string>() << "\n";
  }
  s << "\n";
  return s.str();
}

struct Topic {
  const char* name;
  std::string (*text)();
};
constexpr Topic kTopics[] = {
    {"schema", schema_text},         {"failure-models", failure_models_text},
    {"strategies", strategies_text}, {"metrics", metrics_text},
    {"profile", profile_text},       {"plausible", plausible_text},
    {"hardware", hardware_text}};

}  // namespace

const std::vector<std::string>& describe_topics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Topic& t : kTopics) out.emplace_back(t.name);
    return out;
  }();
  return names;
}

namespace {
void pointers_under(const std::string& base, const ParamSection& sec,
                    std::vector<std::string>* out) {
  for (const ParamDecl& d : sec.params) {
    const std::string p = base + "/" + d.key;
    if (d.type == ParamType::Object && d.nested) {
      pointers_under(p, *d.nested, out);
      continue;
    }
    out->push_back(p);
    if (d.type == ParamType::ObjectList && d.nested) pointers_under(p + "/0", *d.nested, out);
  }
}
}  // namespace

std::vector<std::string> scenario_pointers() {
  std::vector<std::string> out;
  pointers_under("", sections::scenario(), &out);
  for (const auto& st : strategy_table()) {
    out.push_back("/strategies/" + std::string(st.name));
    pointers_under("/strategies/" + std::string(st.name), *st.params, &out);
  }
  return out;
}

std::string scenario_json_schema_text() {
  Json body = section_json_schema(sections::scenario());
  Json& strategies = body["properties"]["strategies"];
  Json each = Json::object();
  for (const auto& st : strategy_table()) {
    Json p = section_json_schema(*st.params);
    p["description"] = std::string(st.doc) + ". " + st.params->doc;
    each[st.name] = std::move(p);
  }
  strategies["properties"] = std::move(each);
  strategies["additionalProperties"] = false;
  strategies["minProperties"] = 1;
  // The loader always reads /job (tp, pp, dp) and refuses a file without strategies to compare.
  Json& required = body["required"];
  if (!required.is_array()) required = Json::array();
  required.push_back("job");
  required.push_back("strategies");
  Json properties = {
      {"$schema",
       {{"description", "the JSON Schema this file follows, for editors (goodput ignores it)"},
        {"type", "string"}}}};
  for (auto& [k, v] : body["properties"].items()) properties[k] = v;
  body["properties"] = std::move(properties);
  Json out = {{"$schema", kJsonSchemaDialect},
              {"title", "goodput scenario"},
              {"description", "A goodput scenario file (goodput " + std::string(kToolVersion) +
                                  "; `goodput describe schema` explains every key). Generated "
                                  "by `goodput describe schema --json`: the loader's own "
                                  "declarations. The loader also checks keys against each "
                                  "other, which a schema cannot say."}};
  for (auto& [k, v] : body.items())
    if (k != "description") out[k] = v;
  return out.dump(2) + "\n";
}

std::string describe(const std::string& topic) {
  std::string all;
  for (const Topic& t : kTopics) {
    if (topic == t.name) return t.text();
    all += t.text();
  }
  if (!topic.empty()) throw std::invalid_argument("describe: unknown topic '" + topic + "'");
  return all;
}

}  // namespace goodput
