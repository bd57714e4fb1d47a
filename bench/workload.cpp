// goodput_workload SCENARIO [--threads N] [--set /ptr=value ...]
// Runs the scenario's Monte Carlo exactly as `goodput run` does (make_plan + run_monte_carlo,
// no report writing); prints plan_s=... once the plan is built, then one line of key=value figures:
// plan and simulation wall time, total engine events, events/s and simulated GPU-years per wall
// second (GPUs x horizon x seeds x strategies), the simulated failures (faults over all seeds,
// counted once) and the process CPU seconds of the simulation (all threads; robust to a loaded
// machine), and cost per failure = simulate CPU s / (failures x strategies). Used by bench/run.sh
// for the end-to-end and scaling figures.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

#include "models/scenario/scenario_loader.hpp"
#include "sim/run/monte_carlo.hpp"

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  if (argc < 2) {
    std::fprintf(stderr, "usage: goodput_workload SCENARIO [--threads N] [--set /ptr=value ...]\n");
    return 2;
  }
  int threads = 1;
  std::vector<std::string> sets;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threads"))
      threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--set"))
      sets.emplace_back(argv[i + 1]);
  }
  try {
    const auto t0 = Clock::now();
    const goodput::Scenario s = goodput::load_scenario(argv[1], sets);
    const goodput::RunPlan plan = goodput::make_plan(s);
    const auto t1 = Clock::now();
    std::printf("plan_s=%.3f\n",
                std::chrono::duration<double>(t1 - t0).count());  // even if killed later
    std::fflush(stdout);
    auto cpu_now = [] {
      timespec ts{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
      return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
    };
    const double c1 = cpu_now();
    const auto out = goodput::run_monte_carlo(plan, threads);
    const auto t2 = Clock::now();
    const double sim_cpu = cpu_now() - c1;
    long long events = 0, failures = 0;
    for (const auto& sr : out)
      for (const auto& m : sr.runs) events += m.events;
    if (!out.empty())
      for (const auto& m : out.front().runs) failures += m.failures;
    const double plan_s = std::chrono::duration<double>(t1 - t0).count();
    const double sim_s = std::chrono::duration<double>(t2 - t1).count();
    const double gpu_years = static_cast<double>(plan.topology->gpus()) * s.horizon_hours / 8760.0 *
                             s.seeds * static_cast<double>(out.size());
    std::printf(
        "gpus=%u hours=%g seeds=%d strategies=%zu threads=%d plan_s=%.3f sim_s=%.3f "
        "events=%lld events_per_s=%.4g gpu_years_per_s=%.4g sim_cpu_s=%.3f failures=%lld "
        "us_per_failure=%.3f\n",
        plan.topology->gpus(), s.horizon_hours, s.seeds, out.size(), threads, plan_s, sim_s, events,
        static_cast<double>(events) / sim_s, gpu_years / (plan_s + sim_s), sim_cpu, failures,
        failures ? 1e6 * sim_cpu / (static_cast<double>(failures) * static_cast<double>(out.size()))
                 : 0.0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "goodput_workload: %s\n", e.what());
    return 1;
  }
  return 0;
}
