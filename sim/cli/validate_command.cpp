#include "sim/cli/validate_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "models/scenario/scenario_enums.hpp"
#include "models/scenario/scenario_loader.hpp"
#include "sim/core/error.hpp"
#include "sim/report/text_util.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

namespace {

// A share as a percentage: "12.3%", "0.042%" below 0.1%, "under 0.01%", "0%" for none.
std::string percent(double share) {
  if (share <= 0) return "0%";
  if (share < 1e-4) return "under 0.01%";
  return fmt(share >= 1e-3 ? "%.1f%%" : "%.2g%%", 100 * share);
}

// "1 domain", "3 domains" (`many`: the plural where it is not `one` + "s").
std::string count(long long n, const std::string& one, const std::string& many = "") {
  return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

// P(N >= k) for N ~ Poisson(mean): 1 - sum_{j<k} e^-mean mean^j / j!, the terms summed in log
// space (e^-mean underflows for a mean above about 700).
double poisson_at_least(double mean, double k) {
  if (k <= 0) return 1;
  if (mean <= 0) return 0;
  double below = 0;
  for (double j = 0; j < k; ++j) {
    const double term = std::exp(-mean + j * std::log(mean) - std::lgamma(j + 1));
    below += term;
    if (j > mean && term < 1e-17 * below) break;  // the rest cannot move the sum
  }
  return std::max(0.0, 1 - below);
}

}  // namespace

ScenarioShape scenario_shape(const RunPlan& plan) {
  const Scenario& s = plan.scenario;
  const Topology& topo = *plan.topology;
  ScenarioShape out;
  const long long gpus = topo.gpus(), domains = topo.domains(), per_domain = topo.gpus_per_domain();
  const long long spares = s.spare_domains, job_domains = domains - spares;
  const long long job_gpus = s.job_gpus();
  out.lines.push_back("cluster: " + std::to_string(gpus) + " " + s.cluster.gpu_type + " GPUs (" +
                      s.cluster.preset + ") in " + count(domains, "domain") + " of " +
                      std::to_string(per_domain) + ": " + std::to_string(job_domains) +
                      " for the job, " + std::to_string(spares) + " spare");
  out.lines.push_back("job: " + s.job.layout_text() + " = " + std::to_string(job_gpus) +
                      " GPUs in " + count(job_domains, "domain") + " (" +
                      std::to_string(job_domains * per_domain - job_gpus) + " GPUs of them idle)");
  if (s.mode == RunMode::Snapshot) {
    out.lines.push_back("snapshot: " + percent(s.failed_fraction) + " of the GPUs down (" +
                        fmt("%.0f", std::ceil(s.failed_fraction * static_cast<double>(gpus))) +
                        "), placed at random, one placement per seed");
    return out;
  }
  // λ: faults touching the job per hour (RunPlan: each class's rate x the job's share of its
  // components; a trace: its faults before the horizon x the job's share of the GPUs).
  const double rate = plan.job_faults_per_hour;
  const double per_run = rate * s.horizon_hours;
  // W: how long a fault keeps its component out, in hours, averaged over the classes weighted by
  // their job fault rates (restart-only faults: the restart; a trace: its records' durations).
  const double repair_h = plan.mean_expected_repair_s / 3600;
  out.lines.push_back("faults touching the job: " + fmt("%.4g", rate) + " per hour (job MTBF " +
                      (rate > 0 ? fmt("%.3g", 1 / rate) + " h" : std::string("infinite")) + "), " +
                      fmt("%.4g", per_run) + " per " + fmt("%g", s.horizon_hours) +
                      " h run; mean repair " + fmt("%.3g", repair_h) + " h");
  if (rate <= 0) return out;
  // Little's law: the mean number of the job's faults outstanding at any time is L = λ W. Each
  // takes out at least one of the job's domains; counted as one (more when a rack or leaf fault
  // spans domains, fewer when two faults share one, or when idle GPUs of the fault's own domain
  // replace the failed ones and no spare domain is needed).
  const double down = rate * repair_h;
  // With Poisson arrivals and any repair-time law (an M/G/inf queue) the number outstanding is
  // Poisson(L), and an arriving fault sees its time average: it finds every spare domain in use
  // with probability P(N >= spare_domains).
  const double no_spare = poisson_at_least(down, static_cast<double>(spares));
  out.lines.push_back("job domains down at any time: mean " + fmt("%.3g", down) +
                      " (faults per hour x mean repair hours, Little's law; one domain per fault)");
  out.lines.push_back("spare pool: " + count(spares, "domain") +
                      "; a fault that needs a spare domain finds none free " + percent(no_spare) +
                      " of the time (domains down ~ Poisson(mean): P(down >= spares))");
  if (static_cast<double>(spares) < down)
    out.warnings.push_back(
        "the spare pool (" + count(spares, "domain") +
        ") is smaller than the mean number of the job's domains down at any time (" +
        fmt("%.3g", down) + "): a fault that needs a spare domain finds none " + percent(no_spare) +
        " of the time, and strategies that swap one in fall back; /cluster/spare_domains sets "
        "the pool");
  if (per_run < 1)
    out.warnings.push_back("fewer than one fault touching the job per run expected (" +
                           fmt("%.3g", per_run) +
                           "): most runs see none; lengthen /horizon_hours or add /seeds");
  return out;
}

int command_validate(const std::vector<std::string>& files) {
  int status = 0;
  for (const auto& f : files) {
    try {
      const Scenario s = load_scenario(f);
      const RunPlan plan = make_plan(s);  // also checks trace files against the topology
      const ScenarioShape shape = scenario_shape(plan);
      std::cout << f << ": ok (" << s.name << ": " << enum_name(kRunModeNames, s.mode) << " mode, "
                << (s.mode == RunMode::Snapshot ? "" : fmt("%g", s.horizon_hours) + " h, ")
                << (s.seeds_auto ? std::string("seeds: auto") : count(s.seeds, "seed")) << ", "
                << count(static_cast<long long>(s.strategies.size()), "strategy", "strategies")
                << ")\n";
      for (const auto& line : shape.lines) std::cout << "  " << line << "\n";
      std::cout.flush();
      for (const auto& w : shape.warnings) std::cerr << "warning: " << f << ": " << w << "\n";
    } catch (const InputError& e) {
      std::cerr << "error: " << e.what() << "\n";
      status = 2;
    }
  }
  return status;
}

}  // namespace goodput
