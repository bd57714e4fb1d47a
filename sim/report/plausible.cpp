#include "sim/report/plausible.hpp"

#include <algorithm>
#include <sstream>

#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

PlausibleRow absolute(std::string pointer, double lo, double hi, std::string source) {
  return {std::move(pointer), PlausibleRow::Kind::Absolute, lo, hi, {}, std::move(source)};
}
PlausibleRow relative(std::string pointer, double lo, double hi, std::string source) {
  return {std::move(pointer), PlausibleRow::Kind::Relative, lo, hi, {}, std::move(source)};
}
PlausibleRow values(std::string pointer, std::vector<Json> v, std::string source,
                    bool (*applies)(const Scenario&) = nullptr) {
  return {std::move(pointer), PlausibleRow::Kind::Values, 0,      0,
          std::move(v),       std::move(source),          applies};
}

// Fail-slow's response matters only where some failure class is slow.
bool has_slow_class(const Scenario& s) {
  return std::any_of(
      s.failures.classes.begin(), s.failures.classes.end(),
      [](const FailureClassSpec& c) { return c.kind == FailureClassSpec::Kind::Slow; });
}

// The parent object of a pointer ("/strategies/ntp" for "/strategies/ntp/reconfig").
std::string parent_of(const std::string& pointer) {
  const auto slash = pointer.rfind('/');
  return slash == std::string::npos || slash == 0 ? "" : pointer.substr(0, slash);
}

bool holds(const Scenario& s, const std::string& pointer) {
  if (pointer.empty()) return true;
  const Json::json_pointer jp(pointer);
  return s.resolved.contains(jp) || s.input.contains(jp);
}

}  // namespace

// One row per uncertain input. Sources: shared/reference/failure-rates.md (Llama 3, Meta RSC,
// InfiniteHBD) and the papers named in each row; "Assumption" marks a stated assumption.
const std::vector<PlausibleRow>& plausible_table() {
  static const std::vector<PlausibleRow> rows = {
      absolute("/recovery/detection_s", 30, 600,
               "collective time-out or health check: 30 s (fast health checks) to 10 min "
               "(PyTorch's default NCCL time-out); public reports put detection at minutes "
               "(Llama 3, arXiv 2407.21783)"),
      absolute("/recovery/restart_s", 300, 1800,
               "whole-job restart: minutes per interruption in public reports (Llama 3, arXiv "
               "2407.21783; Kokolis et al., arXiv 2410.21680). Assumption: 5 to 30 min"),
      absolute("/recovery/communicator_rebuild_s", 10, 120,
               "NCCL communicator set-up at 32K-100K ranks takes several dozen seconds before "
               "fast-init fixes (NVIDIA/nccl pull request 1789). Assumption: 10 s to 2 min"),
      absolute("/recovery/spare_swap_s", 60, 600,
               "a hot-spare swap takes a few minutes (failure-rates.md). Assumption: 1 to 10 min"),
      absolute("/recovery/state_copy_s", 5, 300,
               "Assumption: one GPU's weights and optimizer state from a DP peer, from an idle "
               "scale-out link (seconds) to a congested one (minutes); the default is derived"),
      absolute("/recovery/ntp_reshard_s", 1, 120,
               "Assumption: a TP group's state over NVLink, from the derived bytes / bandwidth "
               "(seconds) to a framework-bound reshard (minutes); the default is derived"),
      absolute("/recovery/ntp_reconfig_s", 1, 120,
               "re-forming one TP group's communicator: ncclCommShrink (NCCL 2.27) re-forms "
               "without a full init, and a TP group spans one NVLink domain; a full init at "
               "96K ranks takes about 265 s (NCCLX, arXiv 2510.20171). Assumption: 1 s to 2 min"),
      absolute("/recovery/rejoin_s", 10, 120,
               "a replica rejoining re-forms the job's communicators, as "
               "/recovery/communicator_rebuild_s (NVIDIA/nccl pull request 1789). Assumption: "
               "10 s to 2 min"),
      absolute("/checkpoint/load_s", 60, 1800,
               "checkpoint loads at scale stall for minutes (ByteCheckpoint, arXiv 2407.20143). "
               "Assumption: 1 to 30 min"),
      absolute("/checkpoint/save_s", 30, 600,
               "checkpoint saves at scale take minutes (ByteCheckpoint, arXiv 2407.20143). "
               "Assumption: 30 s to 10 min"),
      relative("/failures/rate_scale", 2.34 / 3.8, 6.5 / 3.8,
               "node failure rates of 2.34 (RSC-2) to 6.50 (RSC-1) per 1,000 node-days (Kokolis "
               "et al., arXiv 2410.21680) against Llama 3's 3.8 (arXiv 2407.21783): 0.62x to "
               "1.71x the scenario's rate"),
      relative("/failures/repair_scale", 0.25, 4,
               "repairs: median about 20 h with a mean well over 100 h (InfiniteHBD trace, "
               "SIGCOMM 2025), 3 h to 5 days in the NTP paper, 0.5 h resets to 10-day RMAs "
               "(failure-rates.md). Assumption: 0.25x to 4x every repair time of the scenario"),
      relative("/failures/classes/*/repair/hours", 0.25, 4,
               "repairs: median about 20 h, mean well over 100 h (InfiniteHBD trace, SIGCOMM "
               "2025); NTP paper 3 h to 5 days. Assumption: 0.25x to 4x the scenario's value"),
      relative("/failures/classes/*/repair/median_hours", 0.25, 4,
               "as repair/hours: 0.25x to 4x the scenario's median"),
      absolute("/strategies/ntp_boost/max_power", 1.1, 1.3,
               "the NTP paper (arXiv 2504.06095) measured boosting up to 1.2x; beyond it the "
               "power curve is extrapolated. Assumption: 1.1x to 1.3x"),
      values("/job/virtual_stages", {1, 2, 4},
             "1F1B (1) or interleaved 1F1B with 2 or 4 model chunks per stage, as Megatron-LM "
             "runs large models (Narayanan et al., SC 2021)"),
      values("/cost/local_batch", {"whole_samples", "whole_microbatches", "fractional"},
             "how a degraded replica's local batch shrinks: by whole samples (what frameworks "
             "do), by whole micro-batches (a framework that keeps micro-batch shapes fixed), or "
             "by fractions of a sample (the NTP paper's idealised figures; issue 27)"),
      values("/cost/curve_extension", {"linear", "flat"},
             "the power -> speed curve past the NTP paper's last measured point (1.2x): "
             "extended with the last segment's slope, or no faster than there (arXiv "
             "2504.06095 measured up to 1.2x)"),
      values("/strategies/ntp/reconfig", {"inplace", "restart"},
             "NTP reconfigures in place (arXiv 2504.06095) or by a job restart where the "
             "framework cannot"),
      values("/strategies/ntp_boost/reconfig", {"inplace", "restart"},
             "as /strategies/ntp/reconfig; one framework: where the two are set alike, each "
             "plausible world gives them one value"),
      values("/recovery/slow_response", {"declared", "tolerate", "evict"},
             "what is done about a detected slow component: each strategy's declared response, "
             "keep it (the job paced by it, a cut batch where the strategy can) or treat it as "
             "failed. Assumption: operators and frameworks differ, so any of the three. Only "
             "with a slow failure class",
             &has_slow_class),
  };
  return rows;
}

PlausibleInputs plausible_inputs(const Scenario& s) {
  PlausibleInputs out;
  for (const PlausibleRow& row : plausible_table()) {
    if (row.applies && !row.applies(s)) continue;
    std::vector<std::string> pointers;
    const auto star = row.pointer.find("/*/");
    if (star == std::string::npos) {
      pointers.push_back(row.pointer);
    } else {  // every explicit class (a preset's classes have no keys of their own)
      const Json::json_pointer list(row.pointer.substr(0, star));
      if (!s.input.contains(list) || !s.input.at(list).is_array()) continue;
      for (std::size_t i = 0; i < s.input.at(list).size(); ++i)
        pointers.push_back(row.pointer.substr(0, star) + "/" + std::to_string(i) +
                           row.pointer.substr(star + 2));
    }
    for (const std::string& ptr : pointers) {
      if (!holds(s, parent_of(ptr))) continue;
      if (row.kind == PlausibleRow::Kind::Values) {
        if (!holds(s, ptr)) continue;
        const Json::json_pointer jp(ptr);
        SwitchInput sw;
        sw.pointer = ptr;
        sw.base = s.resolved.contains(jp) ? s.resolved.at(jp) : s.input.at(jp);
        sw.source = row.source;
        for (const Json& v : row.values)
          if (v != sw.base) sw.values.push_back(v);
        if (!sw.values.empty()) out.switches.push_back(std::move(sw));
        continue;
      }
      if (row.kind == PlausibleRow::Kind::Relative && !holds(s, ptr)) continue;
      std::optional<SensitivityParam> p;
      if (row.kind == PlausibleRow::Kind::Absolute) {
        p = param_in_range(s, ptr, row.lo, row.hi, "plausible");
      } else {
        const Json::json_pointer jp(ptr);
        const Json& v = s.resolved.contains(jp) ? s.resolved.at(jp) : s.input.at(jp);
        if (!v.is_number() || v.get<double>() <= 0) continue;
        p = param_in_range(s, ptr, row.lo * v.get<double>(), row.hi * v.get<double>(),
                           "plausible: " + fmt("%g", row.lo) + "x..." + fmt("%g", row.hi) + "x");
      }
      if (!p) continue;
      p->source = row.source;
      out.numbers.push_back(std::move(*p));
    }
  }
  return out;
}

std::string plausible_table_markdown() {
  std::ostringstream s;
  s << "Plausible ranges of the uncertain inputs (`goodput run` and `goodput sensitivity` find "
       "each one's break-even against every rival and sample them jointly for the robustness "
       "line). A row applies when the scenario has the key's parent (a strategy's row when the "
       "strategy is compared); ranges are clamped to the key's declared bounds.\n\n"
    << "| input | plausible | source or assumption |\n|---|---|---|\n";
  for (const PlausibleRow& r : plausible_table()) {
    std::string range;
    switch (r.kind) {
      case PlausibleRow::Kind::Absolute:
        range = fmt("%.4g", r.lo) + " .. " + fmt("%.4g", r.hi);
        break;
      case PlausibleRow::Kind::Relative:
        range = fmt("%g", r.lo) + "x .. " + fmt("%g", r.hi) + "x the scenario's value";
        break;
      case PlausibleRow::Kind::Values:
        for (const Json& v : r.values) range += (range.empty() ? "" : ", ") + v.dump();
        break;
    }
    s << "| `" << r.pointer << "` | " << range << " | " << r.source << " |\n";
  }
  return s.str();
}

}  // namespace goodput
