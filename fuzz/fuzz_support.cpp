#include "fuzz/fuzz_support.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "models/failures/failure_generator.hpp"
#include "models/scenario/scenario_enums.hpp"
#include "models/scenario/scenario_params.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/run/run_plan.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/snapshot.hpp"
#include "sim/run/work_budget.hpp"

namespace goodput::fuzz {

namespace {

// Bounds of the simulation step (see the header): well inside what one execution can afford.
constexpr double kMaxGpus = 16384;
constexpr double kMaxHorizonHours = 72;
constexpr double kMaxExpectedFaults = 20000;

std::string num(double x) {
  return Json(x).dump();
}

// Every number the resolved tree holds for a declared key lies in the declared range, and
// integers are integral.
void check_tree(const Json& tree, const ParamSection& section, const std::string& ptr) {
  if (!tree.is_object()) return;
  for (const auto& d : section.params) {
    if (!tree.contains(d.key)) continue;
    const Json& v = tree.at(d.key);
    const std::string p = ptr + "/" + d.key;
    auto in_range = [&](const Json& x, const std::string& where) {
      if (!x.is_number()) fail("resolved " + where + " is not a number: " + x.dump());
      const double y = x.get<double>();
      if (!std::isfinite(y) || y < d.min || y > d.max)
        fail("resolved " + where + " = " + x.dump() + " outside its declared range [" + num(d.min) +
             ", " + num(d.max) + "]");
      if (d.type == ParamType::Integer && std::floor(y) != y)
        fail("resolved integer " + where + " = " + x.dump() + " is not integral");
    };
    switch (d.type) {
      case ParamType::Integer:
      case ParamType::Number:
        // A number may instead be one of its declared words ("seeds": "auto" stays "auto").
        if (v.is_string() &&
            std::find(d.words.begin(), d.words.end(), v.get<std::string>()) != d.words.end())
          break;
        in_range(v, p);
        break;
      case ParamType::NumberList:
        for (std::size_t i = 0; i < v.size(); ++i) in_range(v[i], p + "/" + std::to_string(i));
        break;
      case ParamType::Object:
        if (d.nested) check_tree(v, *d.nested, p);
        break;
      case ParamType::ObjectList:
        if (d.nested && v.is_array())
          for (std::size_t i = 0; i < v.size(); ++i)
            check_tree(v[i], *d.nested, p + "/" + std::to_string(i));
        break;
      default:
        break;
    }
  }
}

bool under(const std::filesystem::path& file, const std::filesystem::path& root) {
  std::error_code ec;
  const auto f = std::filesystem::weakly_canonical(file, ec);
  if (ec) return false;
  const auto r = std::filesystem::weakly_canonical(root, ec);
  if (ec) return false;
  const auto rel = f.lexically_relative(r);
  return !rel.empty() && *rel.begin() != "..";
}

bool safe_path(const std::string& path) {
  if (path.empty()) return true;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  return under(path, source_dir()) || under(path, scratch_dir());
}

void check_metrics(const RunMetrics& m, const std::string& strategy, RunMode mode) {
  const std::string who = strategy + " (" + enum_name(kRunModeNames, mode) + " mode): ";
  auto unit = [&](double x, const char* what) {
    if (!std::isfinite(x) || x < -1e-12 || x > 1 + 1e-12)
      fail(who + what + " = " + num(x) + " outside [0, 1]");
  };
  unit(m.goodput, "Goodput");
  unit(m.ettr, "ETTR");
  double sum = m.goodput;
  for (std::size_t b = 0; b < m.badput.size(); ++b) {
    if (!std::isfinite(m.badput[b]) || m.badput[b] < -1e-9)
      fail(who + "badput bucket " + bucket_name(static_cast<Bucket>(b)) + " = " + num(m.badput[b]));
    sum += m.badput[b];
  }
  if (std::abs(sum - 1) > 1e-9) fail(who + "goodput + badput buckets = " + num(sum) + ", not 1");
}

}  // namespace

void fail(const std::string& what) {
  std::fprintf(stderr, "\n==goodput-fuzz== invariant broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

bool verbose() {
  static const bool on = std::getenv("GOODPUT_FUZZ_VERBOSE") != nullptr;
  return on;
}

void note(const std::string& what) {
  std::fprintf(stderr, "goodput-fuzz: %s\n", what.c_str());
}

const std::string& scratch_dir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/goodput-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) fail("cannot create a scratch folder");
    return pattern;
  }();
  return dir;
}

void write_file(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) fail("cannot write " + path);
}

std::string source_dir() {
  return GOODPUT_SOURCE_DIR;
}

void check_loaded(const Scenario& s) {
  auto at_least = [](long long v, long long lo, const char* what) {
    if (v < lo)
      fail(std::string("loaded ") + what + " = " + std::to_string(v) + " < " + std::to_string(lo));
  };
  at_least(s.seeds, 1, "seeds");
  at_least(s.job.tp, 1, "job.tp");
  at_least(s.job.pp, 1, "job.pp");
  at_least(s.job.dp, 1, "job.dp");
  at_least(s.job.microbatches, 1, "job.microbatches");
  at_least(s.job.micro_batch, 1, "job.micro_batch");
  at_least(s.cluster.gpus_per_node, 1, "cluster.gpus_per_node");
  at_least(s.cluster.nodes_per_domain, 1, "cluster.nodes_per_domain");
  at_least(s.cluster.nodes_per_rack, 1, "cluster.nodes_per_rack");
  at_least(s.cluster.nodes_per_leaf, 1, "cluster.nodes_per_leaf");
  at_least(s.cluster.racks_per_row, 1, "cluster.racks_per_row");
  at_least(s.cluster.domains, 1, "cluster.domains");
  at_least(s.spare_domains, 0, "spare_domains");
  if (!(std::isfinite(s.horizon_hours) && s.horizon_hours > 0))
    fail("loaded horizon_hours = " + num(s.horizon_hours));
  if (s.groups_per_domain() < 1) fail("loaded tp does not fit a domain");
  const long long job_gpus = s.job_gpus();
  const long long cluster_gpus = 1LL * s.cluster.domains * s.cluster.gpus_per_domain();
  if (cluster_gpus < job_gpus)
    fail("loaded cluster of " + std::to_string(cluster_gpus) + " GPUs cannot hold a job of " +
         std::to_string(job_gpus));
  if (s.strategies.empty()) fail("loaded scenario has no strategies");
  check_tree(s.resolved, sections::scenario(), "");
  if (s.resolved.contains("strategies"))
    for (const auto& info : strategy_table())
      if (s.resolved["strategies"].contains(info.name))
        check_tree(s.resolved["strategies"][info.name], *info.params, "/strategies/" + info.name);
}

bool files_are_safe(const Scenario& s) {
  if (s.failures.model == FailureSpec::Model::Trace && !safe_path(s.failures.trace.path))
    return false;
  return safe_path(s.cost.profile);
}

void plan_and_run(Scenario s, std::size_t max_strategies) {
  if (!files_are_safe(s)) return;
  if (static_cast<double>(s.cluster.domains) * s.cluster.gpus_per_domain() > kMaxGpus) {
    if (verbose()) note("not run: more than 16384 GPUs");
    return;
  }
  s.seeds = 1;
  s.horizon_hours = std::min(s.horizon_hours, kMaxHorizonHours);
  if (s.strategies.size() > max_strategies) s.strategies.resize(max_strategies);
  // make_plan already simulates (the adaptive-checkpoint pilot), so bound the faults first
  // with the CLI's own estimate (no topology built; it reads a trace), then exactly once the
  // plan exists.
  double expected = 0;
  if (!input_errors_only("estimate_work", [&] { expected = estimate_work(s, 1).failures_per_run; }))
    return;
  if (!(expected <= kMaxExpectedFaults)) {
    if (verbose()) note("not run: more than 20000 faults expected (estimate)");
    return;
  }
  RunPlan plan;
  if (!input_errors_only("make_plan", [&] { plan = make_plan(s); })) return;
  if (s.mode != RunMode::Snapshot && s.failures.model == FailureSpec::Model::Statistical) {
    double rate = 0;
    for (const auto& c : s.failures.classes)
      rate += class_rate_per_hour(s.failures, c, *plan.topology);
    if (!(rate * s.horizon_hours <= kMaxExpectedFaults)) {
      if (verbose()) note("not run: more than 20000 faults expected");
      return;
    }
  }
  std::vector<RunMetrics> metrics;
  const bool ran = input_errors_only("simulate", [&] {
    metrics = s.mode == RunMode::Snapshot
                  ? simulate_snapshot(plan, 0)
                  : simulate_all(plan, faults_for(plan, 0), plan.scenario.strategies);
  });
  if (!ran) return;
  if (metrics.size() != plan.scenario.strategies.size())
    fail("one metrics row per strategy expected");
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    check_metrics(metrics[i], plan.scenario.strategies[i].name, s.mode);
    if (verbose())
      note("ran " + plan.scenario.strategies[i].name + ": Goodput " + num(metrics[i].goodput));
  }
}

}  // namespace goodput::fuzz
