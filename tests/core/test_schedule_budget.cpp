// The exact pipeline schedule's budget (issue 31): a schedule too large to lay out is refused by
// the cost model (so `validate` too) naming its keys; the faster searches give the figures the
// plain bisections give, bit for bit; building a plan counts in the work estimate.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "models/cost/cost_model.hpp"
#include "models/cost/last_fitting.hpp"
#include "models/cost/pipeline_schedule.hpp"
#include "sim/core/error.hpp"
#include "sim/run/work_budget.hpp"
#include "sim/sweep/sweep_report.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

Scenario deep(int pp, int microbatches, int v = 1) {
  return load_scenario(
      std::string(GOODPUT_SOURCE_DIR) + "/tests/cli/data/pp64-mb1000.json",
      {"/job/pp=" + std::to_string(pp), "/job/microbatches=" + std::to_string(microbatches),
       "/job/virtual_stages=" + std::to_string(v)});
}

}  // namespace

TEST_CASE("a pipeline schedule over kMaxScheduleOps is refused naming /job/microbatches") {
  try {
    (void)cost_model_of(deep(64, 1000000));
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.locator() == "/job/microbatches");
    CHECK(e.message().find("/job/pp 64 x /job/microbatches 1000000 x /job/virtual_stages 1") !=
          std::string::npos);
  }
  CHECK(schedule_ops(64, 1000, 1) <= kMaxScheduleOps);
  CHECK_NOTHROW((void)cost_model_of(deep(64, 1000)));
}

TEST_CASE(
    "boost powers: one schedule per bisection step gives CostModel's bisection, bit for bit") {
  for (int m : {8, 61, 1000}) {
    const auto cost = cost_model_of(deep(8, m, m == 61 ? 2 : 1));
    for (int t = 24; t < 32; ++t)
      for (double cap : {1.1, 1.3, 1.6}) {
        CAPTURE(m);
        CAPTURE(t);
        CAPTURE(cap);
        CHECK(cost->boost_power(t, cap) == cost->CostModel::boost_power(t, cap));
      }
  }
}

TEST_CASE("building a plan counts in the work estimate: GPUs and 128 x the schedule's ops") {
  const Scenario s = deep(64, 1000);
  const WorkEstimate w = estimate_work(s, 1);
  CHECK(w.setup_events == doctest::Approx(w.gpus + 128 * schedule_ops(64, 1000, 1)));
  CHECK(w.events >= w.setup_events);
  Scenario proportional = s;
  proportional.cost.model = CostSpec::Model::Proportional;
  CHECK(estimate_work(proportional, 1).setup_events == doctest::Approx(w.gpus));
}

TEST_CASE("a sweep's size is counted from its axes without expanding them") {
  CHECK(count_axis_values("/job/tp=8,16,32") == 3);
  CHECK(count_axis_values("/x=0:0.004:0.0005") == 9);
  CHECK(count_axis_values("/x=0..96/8,200,300..400/100") == 13 + 1 + 2);
  CHECK(count_axis_values("/x=1..10000/1") == 10000);
  for (const char* text : {"/x=0:1:0.1", "/x=1,1,2", "/x=a,b", "/x=0..96/8,3"})
    CHECK(count_axis_values(text) >= static_cast<double>(parse_axis(text).values.size()));
  CHECK_THROWS_AS(count_axis_values("/x=1..20000/1"), InputError);  // one range: 10,000 values
  CHECK_THROWS_AS(count_axis_values("x=1"), InputError);
  CHECK_THROWS_AS(count_axis_values("/x=1,,2"), InputError);
}

TEST_CASE("last_fitting finds what 40 halvings of [0, 1] find, in fewer evaluations") {
  // 40 halvings, as compute_throughput searched a shortened last micro-batch before.
  auto bisected = [](auto&& time, double limit) {
    double a = 0, b = 1;
    for (int i = 0; i < 40; ++i) {
      const double mid = (a + b) / 2;
      (time(mid) <= limit ? a : b) = mid;
    }
    return a;
  };
  constexpr std::int64_t kGrid = std::int64_t{1} << 40;
  auto fast = [&](auto&& time, double limit, long& evaluations) {
    const std::int64_t j = last_fitting(kGrid, time(1.0), limit, [&](std::int64_t g) {
      ++evaluations;
      return time(std::ldexp(static_cast<double>(g), -40));
    });
    return std::ldexp(static_cast<double>(j), -40);
  };
  // Real schedules: a slow stage, P2P and tails, the last micro-batch shortened by x.
  long evaluations = 0, cases = 0;
  for (int pp : {2, 4, 8})
    for (int v : {1, 2})
      for (int m : {3, 8, 13})
        for (double slow : {1.05, 1.3, 2.0}) {
          PipelineSpec spec;
          spec.virtual_stages = v;
          spec.microbatches = m;
          spec.stages.assign(static_cast<std::size_t>(pp), StageTimes{1, 2, 0.05, 0.04, 0.3});
          spec.stages[static_cast<std::size_t>(pp / 2)] = {slow, 2 * slow, 0.05, 0.04, 0.3};
          auto time = [&](double x) {
            spec.last_fraction = x;
            return pipeline_step_s(spec);
          };
          const double lo = time(std::ldexp(1.0, -40)), hi = time(1.0);
          for (double q : {0.0, 0.1, 0.5, 0.77, 0.999}) {
            const double limit = lo + q * (hi - lo);
            CAPTURE(pp);
            CAPTURE(v);
            CAPTURE(m);
            CAPTURE(slow);
            CAPTURE(q);
            CHECK(fast(time, limit, evaluations) == bisected(time, limit));
            ++cases;
          }
        }
  CHECK(evaluations < 12 * cases);  // 40 each before
}
