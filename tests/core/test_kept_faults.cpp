// shared_faults_for (run_plan.hpp): a plan marked recent_faults (the verdict analysis's
// evaluations) replays a kept fault list when what draws it is the same, and draws its own when
// anything generate_faults reads has moved: the kept list is always the one faults_for draws.
#include <doctest/doctest.h>

#include "sim/run/run_plan.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

bool same_faults(const FaultList& a, const FaultList& b) {
  if (a.faults.size() != b.faults.size() || a.classes.size() != b.classes.size()) return false;
  for (std::size_t i = 0; i < a.faults.size(); ++i) {
    const Fault &x = a.faults[i], &y = b.faults[i];
    if (x.start != y.start || x.end != y.end || x.component != y.component ||
        x.fault_class != y.fault_class || x.slowdown != y.slowdown || x.slow != y.slow)
      return false;
  }
  for (std::size_t c = 0; c < a.classes.size(); ++c)
    if (a.classes[c].name != b.classes[c].name) return false;
  return true;
}

}  // namespace

TEST_CASE("a kept fault list is replayed only where nothing that draws it moved") {
  Json j = small_scenario(3, 6);
  j["horizon_hours"] = 300;
  j["failures"] = Json::parse(R"({"preset": "pessimistic", "rate_scale": 400,
                                  "idle_rate_scale": 0.5})");
  auto plan_at = [&](const std::string& pointer, const Json& value) {
    Json k = j;
    if (!pointer.empty()) k[Json::json_pointer(pointer)] = value;
    RunPlan p = make_plan(scenario_from(k));
    p.recent_faults = true;
    return p;
  };
  const RunPlan base = plan_at("", nullptr);
  REQUIRE(base.idle_components);
  const auto kept = shared_faults_for(base, 0);
  REQUIRE(kept->faults.size() > 50);
  CHECK(same_faults(*kept, faults_for(base, 0)));
  CHECK(shared_faults_for(base, 0) == kept);  // replayed
  // A price generate_faults does not read: the same list, not drawn again.
  CHECK(shared_faults_for(plan_at("/recovery/detection_s", 250), 0) == kept);
  CHECK(shared_faults_for(plan_at("/checkpoint/load_s", 90), 0) == kept);
  // What it reads: another run, the restart price, the rates, the idle components (a smaller job
  // leaves more of the cluster idle), the seed. Each draws its own, the list faults_for draws.
  CHECK(shared_faults_for(base, 1) != kept);
  for (const auto& assignment :
       std::vector<std::pair<std::string, Json>>{{"/recovery/restart_s", 900},
                                                 {"/failures/rate_scale", 200},
                                                 {"/job/dp", 2},
                                                 {"/seed", 7}}) {
    const std::string& pointer = assignment.first;
    CAPTURE(pointer);
    const RunPlan moved = plan_at(pointer, assignment.second);
    const auto drawn = shared_faults_for(moved, 0);
    CHECK(drawn != kept);
    CHECK(same_faults(*drawn, faults_for(moved, 0)));
    if (pointer != "/recovery/restart_s") CHECK(!same_faults(*drawn, *kept));
  }
  // A plan not marked draws every time.
  RunPlan plain = base;
  plain.recent_faults = false;
  const auto once = shared_faults_for(plain, 0);
  CHECK(once != kept);
  CHECK(shared_faults_for(plain, 0) != once);
  CHECK(same_faults(*once, *kept));
}
