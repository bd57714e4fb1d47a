// goodput_export_faults SCENARIO OUT.csv [--runs N] [--set /ptr=value ...]
// Writes what bench/python/reference_sim.py needs to replay runs 0..N-1 of the scenario's
// checkpoint_restart and dp_drop strategies without the C++ topology or failure model:
//   param,<name>,<value>           resolved constants, times in ms (steps rounded as C++ does)
//   domain,<d>,<gpu> <gpu> ...     each domain's GPUs in the order the layout scans them
//   fault,<run>,<start>,<end>,<gpu> <gpu> ...   the blast radius of each fault, in list order
//   cpp,<run>,<strategy>,<goodput>,<events>,<ns_per_event>,<interruptions>
// The cpp rows are the C++ simulate() results on the same faults, timed by repeating each
// run for at least 0.2 s, so the Python/C++ time per event is measured on one machine.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "models/scenario/scenario_loader.hpp"
#include "sim/run/run_plan.hpp"
#include "sim/run/single_run.hpp"

namespace {

void write_params(std::ofstream& o, const goodput::RunPlan& plan) {
  using goodput::from_seconds;
  const auto& s = plan.scenario;
  const auto& c = s.checkpoint;
  const auto& t = *plan.topology;
  auto p = [&](const std::string& k, auto v) { o << "param," << k << ',' << v << '\n'; };
  p("gpus", t.gpus());
  p("domains", t.domains());
  p("horizon_ms", plan.horizon);
  for (const auto& st : s.strategies)
    p("checkpoint_interval_ms." + st.name, plan.checkpointing(st.name).interval);
  p("step_ms", from_seconds(plan.cost ? plan.cost->healthy_step_s() : s.job.step_s));
  p("tp", s.job.tp);
  p("pp", s.job.pp);
  p("dp", s.job.dp);
  p("microbatches", s.job.microbatches);
  p("detection_ms", from_seconds(s.recovery.detection_s));
  p("restart_ms", from_seconds(s.recovery.restart_s));
  p("load_ms", from_seconds(c.load_s));
  p("async", c.async ? 1 : 0);
  p("save_blocking_ms", from_seconds(c.async ? c.async_blocking_s : c.save_s));
  p("durable_after_ms", from_seconds(std::max(0.0, c.save_s - c.async_blocking_s)));
  for (const auto& st : s.strategies) {
    if (st.name != "dp_drop") continue;
    p("batch_policy", st.params.at("batch_policy").get<std::string>());
    p("min_replicas", st.params.value("min_replicas", 1));
    const auto& r = s.recovery;
    const double copy_s = r.state_copy_s >= 0 ? r.state_copy_s
                          : plan.cost         ? plan.cost->state_copy_s()
                                              : 0;
    p("rebuild_ms", from_seconds(r.communicator_rebuild_s));
    p("join_ms", from_seconds(r.spare_swap_s) + from_seconds(copy_s));
  }
  for (std::uint32_t d = 0; d < t.domains(); ++d) {
    o << "domain," << d << ',';
    const char* sep = "";
    for (std::uint32_t g : t.blast_radius(t.id(goodput::ComponentKind::Domain, d)))
      o << sep << g, sep = " ";
    o << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(
        stderr,
        "usage: goodput_export_faults SCENARIO OUT.csv [--runs N] [--set /ptr=value ...]\n");
    return 2;
  }
  int runs = 1;
  std::vector<std::string> sets;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs"))
      runs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--set"))
      sets.emplace_back(argv[i + 1]);
  }
  try {
    const goodput::RunPlan plan = goodput::make_plan(goodput::load_scenario(argv[1], sets));
    const auto& t = *plan.topology;
    std::ofstream o(argv[2]);
    o.precision(17);
    write_params(o, plan);
    for (int r = 0; r < runs; ++r) {
      const goodput::FaultList faults = goodput::faults_for(plan, r);
      for (const auto& f : faults.faults) {
        if (f.start >= plan.horizon) continue;
        o << "fault," << r << ',' << f.start << ',' << f.end << ',';
        const char* sep = "";
        for (std::uint32_t g : t.blast_radius(f.component)) o << sep << g, sep = " ";
        o << '\n';
      }
      for (const auto& st : plan.scenario.strategies) {
        if (st.name != "checkpoint_restart" && st.name != "dp_drop") continue;
        goodput::RunMetrics m;
        int reps = 0;
        const auto t0 = std::chrono::steady_clock::now();
        double elapsed = 0;
        do {
          m = goodput::simulate(plan, faults, st);
          ++reps;
          elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        } while (elapsed < 0.2);
        const double ns =
            elapsed * 1e9 / reps / static_cast<double>(std::max<std::int64_t>(1, m.events));
        o << "cpp," << r << ',' << st.name << ',' << m.goodput << ',' << m.events << ',' << ns
          << ',' << m.interruptions << '\n';
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "goodput_export_faults: %s\n", e.what());
    return 1;
  }
  return 0;
}
