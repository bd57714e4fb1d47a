#include "sim/report/scenario_intro.hpp"

#include <cstdio>

#include "models/scenario/scenario_enums.hpp"
#include "sim/report/report.hpp"
#include "sim/report/units_text.hpp"

namespace goodput {

namespace {

// The overrides a description cannot be contradicted by, and those the caller varies.
bool harmless(const std::string& pointer, const std::vector<std::string>& varied) {
  auto under = [&](const std::string& s) { return pointer == s || pointer.rfind(s + "/", 0) == 0; };
  for (const auto& v : varied)
    if (under(v)) return true;
  return under("/seeds") || under("/seed") || under("/name") || under("/description") ||
         under("/report");
}

std::string value_text(const Json& v) {
  if (v.is_null()) return "absent";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

std::string number(double v) {
  char b[48];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

}  // namespace

bool description_applies(const Scenario& sc, const std::vector<std::string>& varied) {
  for (const auto& c : sc.changes)
    if (!harmless(c.pointer, varied)) return false;
  return true;
}

std::string description_note(const Scenario& sc, const std::vector<std::string>& varied) {
  if (description_applies(sc, varied) || sc.description.empty()) return "";
  std::string list;
  std::size_t shown = 0, relevant = 0;
  bool strategies = false;  // changes under /strategies read as one: the strategies now compared
  for (const auto& c : sc.changes) {
    if (harmless(c.pointer, varied)) continue;
    if (c.pointer.rfind("/strategies", 0) == 0) {
      if (strategies) continue;
      strategies = true;
      std::string names;
      for (const auto& st : sc.strategies) names += (names.empty() ? "" : ", ") + st.name;
      ++relevant;
      if (shown < 4) list += (shown++ ? ", " : "") + std::string("/strategies (now ") + names + ")";
      continue;
    }
    ++relevant;
    if (shown == 4) continue;
    list += (shown++ ? ", " : "") + c.pointer + " (" + value_text(c.before) + " -> " +
            value_text(c.after) + ")";
  }
  if (relevant > shown) list += " and " + counted(static_cast<long long>(relevant - shown), "more");
  return "The scenario file's description is left out: it describes the file's values, and this "
         "run changes " +
         list + ".";
}

std::string scenario_intro(const RunPlan& plan) {
  const Scenario& sc = plan.scenario;
  const Topology& topo = *plan.topology;
  std::string s =
      with_separators(static_cast<double>(topo.gpus()), 0) + " " + sc.cluster.gpu_type +
      " GPUs in " + counted(topo.domains(), sc.cluster.preset + " domain") + " of " +
      std::to_string(topo.gpus_per_domain()) +
      (sc.spare_domains > 0 ? " (" + std::to_string(sc.spare_domains) + " spare)" : "") +
      "; the job " + sc.job.layout_text() + " = " +
      with_separators(static_cast<double>(sc.job_gpus()), 0) + " GPUs";
  if (sc.mode == RunMode::Snapshot) {
    s += "; " + number(100 * sc.failed_fraction) +
         "% of the GPUs down, placed at random: " + counted(sc.seeds, "placement") + ".";
  } else {
    s += "; " + counted(sc.seeds, "run") + " of " + hours_text(sc.horizon_hours) + "; failures ";
    const FailureSpec& f = sc.failures;
    if (f.model == FailureSpec::Model::Trace) {
      s += "replayed from the trace " + f.trace.path;
    } else {
      const bool own = sc.input.contains("failures") && sc.input["failures"].is_object() &&
                       sc.input["failures"].contains("classes");
      s += own ? "from the scenario's " + counted(static_cast<long long>(f.classes.size()),
                                                  "failure class", "failure classes")
               : "from the '" + f.preset + "' preset";
      if (f.rate_scale != 1)
        s += " at " + number(f.rate_scale) + "x " + (own ? "their" : "its") + " rates";
      else
        s += own ? "" : " at its rates";
      if (f.repair_scale != 1) s += ", repairs " + number(f.repair_scale) + "x as long";
    }
    s += " (" + number(plan.job_faults_per_hour) + " expected per hour on the job)";
    if (sc.train_hours > 0) {
      s += "; a training target of " + with_separators(sc.train_hours, 0) + " h failure-free";
      if (sc.gpu_hour_price > 0)
        s += ", the cluster at " + money(cluster_price_per_hour(plan), sc.currency) + " per hour";
    }
    s += ".";
  }
  std::string names;
  for (const auto& st : sc.strategies) names += (names.empty() ? "" : ", ") + st.name;
  s += " Strategies compared: " + names + ".";
  return s;
}

}  // namespace goodput
