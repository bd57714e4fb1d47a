// A strategy's runs do not depend on which strategies run beside it (evaluation_scope.hpp): the
// same scenario listing it alone gives, run for run, exactly the metrics it has in the whole list.
#include <doctest/doctest.h>

#include "sim/run/run_metrics.hpp"
#include "sim/run/single_run.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

TEST_CASE("each strategy run alone gives exactly its runs beside every other strategy") {
  // The iteration cost model on a generated (datasheet) profile: its TP range once came from the
  // strategies listed, so dp_drop alone had another healthy step than beside ntp (here 18.4096 s
  // alone, 18.4112 s beside ntp: 18,410 and 18,411 engine milliseconds). Many faults and
  // whole-second prices (rejoin_s 10), so that events of different lanes often fall on the same
  // millisecond.
  Json j = Json::parse(R"({
    "horizon_hours": 300, "seeds": 1,
    "cluster": {"preset": "hgx-8", "gpu": "H100", "domains": 20, "nodes_per_rack": 4,
                "nodes_per_leaf": 4},
    "job": {"tp": 8, "pp": 2, "dp": 8, "microbatches": 8, "micro_batch": 1,
            "model": {"hidden": 16384, "heads": 128, "kv_heads": 8, "ffn": 53248, "layers": 126,
                      "seq_len": 8192, "gated_mlp": true}},
    "failures": {"preset": "pessimistic", "rate_scale": 40},
    "recovery": {"detection_s": 100, "restart_s": 200, "rejoin_s": 10},
    "checkpoint": {"interval": "fixed", "interval_s": 3600, "save_s": 60, "load_s": 300},
    "strategies": {"checkpoint_restart": {}, "dp_drop": {}, "hot_spares": {"fallback": "dp_drop"},
                   "ntp": {}, "ntp_boost": {}}
  })");
  const Json listed = j["strategies"];
  for (const int seed : {1, 2, 3}) {
    CAPTURE(seed);
    j["seed"] = seed;
    j["strategies"] = listed;
    const RunPlan all = make_plan(scenario_from(j));
    REQUIRE(all.scenario.strategies.size() == 5);
    for (std::size_t s = 0; s < all.scenario.strategies.size(); ++s) {
      const std::string& name = all.scenario.strategies[s].name;
      CAPTURE(name);
      j["strategies"] = Json::object({{name, listed[name]}});
      const RunPlan alone = make_plan(scenario_from(j));
      for (int run = 0; run < 2; ++run) {
        CAPTURE(run);
        const FaultList faults = faults_for(all, run);
        REQUIRE(faults.faults.size() > 50);
        const RunMetrics together = simulate_all(all, faults, all.scenario.strategies)[s];
        const RunMetrics own =
            simulate_all(alone, faults_for(alone, run), alone.scenario.strategies).front();
        for (const RunMetricField& f : run_metric_fields()) {
          CAPTURE(f.name);
          CHECK(f.get(own) == f.get(together));
        }
      }
    }
  }
}

namespace {

// Each strategy's metrics in `together` (a simulate_all of the plan's strategies on `faults`)
// equal its own run's, field by field, and the prices it read.
void check_each_as_alone(const RunPlan& plan, const FaultList& faults,
                         const std::vector<RunMetrics>& together) {
  for (std::size_t s = 0; s < plan.scenario.strategies.size(); ++s) {
    CAPTURE(plan.scenario.strategies[s].name);
    const RunMetrics own = simulate(plan, faults, plan.scenario.strategies[s]);
    CHECK(own.prices_read == together[s].prices_read);
    for (const RunMetricField& f : run_metric_fields()) {
      CAPTURE(f.name);
      CHECK(f.get(own) == f.get(together[s]));
    }
  }
}

}  // namespace

TEST_CASE("ntp follows an ntp_boost without power headroom: not simulated, the same results") {
  // An H100 draws at most its 700 W TDP, so ntp_boost never boosts: its run is ntp's but for
  // the capped figures (degraded domains its cap holds short). simulate_all runs ntp_boost only
  // and gives ntp its results with the boost figures zero; each must equal its own run.
  Json j = Json::parse(R"({
    "horizon_hours": 300, "seeds": 1,
    "cluster": {"preset": "hgx-8", "gpu": "H100", "domains": 20},
    "job": {"tp": 8, "pp": 2, "dp": 8, "step_s": 10, "microbatches": 8, "micro_batch": 1},
    "failures": {"preset": "pessimistic", "rate_scale": 40},
    "recovery": {"detection_s": 100, "restart_s": 200, "rejoin_s": 10},
    "checkpoint": {"interval": "fixed", "interval_s": 3600, "save_s": 60, "load_s": 300},
    "cost": {"model": "proportional"},
    "strategies": {"dp_drop": {}, "ntp": {}, "ntp_boost": {}}
  })");
  double capped = 0;
  for (const char* preset : {"pessimistic", "llama3-slow"}) {
    CAPTURE(preset);
    j["failures"]["preset"] = preset;
    const RunPlan plan = make_plan(scenario_from(j));
    RunWorkspace workspace;
    for (int run = 0; run < 3; ++run) {
      CAPTURE(run);
      const FaultList faults = faults_for(plan, run);
      const auto together = simulate_all(plan, faults, plan.scenario.strategies, {}, &workspace);
      CHECK(workspace.followed() == 1);
      check_each_as_alone(plan, faults, together);
      capped += together[2].capped_domain_hours;
      CHECK(together[1].capped_domain_hours == 0);
    }
  }
  CHECK(capped > 0);  // the lead's capped figures were there to be left out
  // The iteration model, a fixed batch (extra replicas, pauses), spare domains, other options,
  // and a cap of 1 from max_power on a board with headroom (B200: 1.2x).
  Json k = Json::parse(R"({
    "horizon_hours": 300, "seeds": 1,
    "cluster": {"preset": "hgx-8", "gpu": "B200", "spare_domains": 3},
    "job": {"tp": 8, "pp": 2, "dp": 8, "microbatches": 8, "micro_batch": 1, "batch": "fixed",
            "model": {"hidden": 8192, "heads": 64, "kv_heads": 8, "ffn": 28672, "layers": 32,
                      "seq_len": 8192, "gated_mlp": true}},
    "failures": {"preset": "pessimistic", "rate_scale": 40},
    "recovery": {"detection_s": 100, "restart_s": 200, "rejoin_s": 10},
    "checkpoint": {"interval": "daly", "save_s": 60, "load_s": 300},
    "strategies": {"ntp": {"allowed_tp": [6, 7], "packing": false, "upgrade_on_repair": false},
                   "ntp_boost": {"allowed_tp": [6, 7], "packing": false,
                                 "upgrade_on_repair": false, "max_power": 1.0}}
  })");
  {
    const RunPlan plan = make_plan(scenario_from(k));
    RunWorkspace workspace;
    for (int run = 0; run < 2; ++run) {
      CAPTURE(run);
      const FaultList faults = faults_for(plan, run);
      const auto together = simulate_all(plan, faults, plan.scenario.strategies, {}, &workspace);
      CHECK(workspace.followed() == 1);
      check_each_as_alone(plan, faults, together);
    }
    Json boosting = k;
    boosting["strategies"]["ntp_boost"]["max_power"] = 1.2;
    const RunPlan other = make_plan(scenario_from(boosting));
    RunWorkspace w;
    simulate_all(other, faults_for(other, 0), other.scenario.strategies, {}, &w);
    CHECK(w.followed() == 0);
  }
  // Not followed: ntp_boost with headroom (an 800 W board rating), or other options.
  auto followed = [&](const Json& scenario) {
    const RunPlan plan = make_plan(scenario_from(scenario));
    RunWorkspace workspace;
    simulate_all(plan, faults_for(plan, 0), plan.scenario.strategies, {}, &workspace);
    return workspace.followed();
  };
  j["failures"]["preset"] = "pessimistic";
  CHECK(followed(j) == 1);
  Json headroom = j;
  headroom["cluster"]["gpu_max_power_w"] = 800;
  CHECK(followed(headroom) == 0);
  Json other = j;
  other["strategies"]["ntp"]["reconfig"] = "restart";
  CHECK(followed(other) == 0);
  Json min_tp = j;
  min_tp["strategies"]["ntp_boost"]["min_tp"] = 7;
  CHECK(followed(min_tp) == 0);
}
