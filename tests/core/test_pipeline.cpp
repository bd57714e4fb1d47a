// The exact pipeline schedule: closed forms for equal stages (1F1B and interleaved), a slow
// stage worked by hand, P2P and tails, and the shortened last micro-batch.
#include <doctest/doctest.h>

#include <stdexcept>

#include "models/cost/pipeline_schedule.hpp"

using namespace goodput;

namespace {

PipelineSpec equal_stages(int pp, int m, int v, double f, double b) {
  PipelineSpec s;
  s.microbatches = m;
  s.virtual_stages = v;
  s.stages.assign(static_cast<std::size_t>(pp), StageTimes{f, b, 0, 0, 0});
  return s;
}

}  // namespace

TEST_CASE("1F1B with equal stages: (m + pp - 1)(f + b)") {
  for (int pp : {1, 2, 3, 8, 16})
    for (int m : {1, 2, 5, 8, 17, 64})
      for (double b : {1.0, 2.0}) {
        CAPTURE(pp);
        CAPTURE(m);
        CHECK(pipeline_step_s(equal_stages(pp, m, 1, 1.0, b)) ==
              doctest::Approx((m + pp - 1) * (1 + b)));
      }
}

TEST_CASE("interleaved 1F1B with equal stages: m (f + b) + (pp - 1)(f + b) / v when m >= pp") {
  for (int pp : {2, 4, 8, 16})
    for (int v : {2, 3, 4, 8})
      for (int m : {pp, 2 * pp, 2 * pp + 1, 4 * pp})
        for (double b : {1.0, 2.0}) {
          CAPTURE(pp);
          CAPTURE(v);
          CAPTURE(m);
          CHECK(pipeline_step_s(equal_stages(pp, m, v, 1.0, b)) ==
                doctest::Approx(m * (1 + b) + (pp - 1) * (1 + b) / v));
        }
  // Fewer micro-batches than stages: each chunk waits for the group to come round the pipeline,
  // so interleaving cannot reach its closed form (but never does worse than plain 1F1B).
  for (int v : {2, 4}) {
    const double t = pipeline_step_s(equal_stages(8, 4, v, 1.0, 2.0));
    CHECK(t > 4 * 3 + 7 * 3.0 / v);
    CHECK(t <= (4 + 7) * 3.0 + 1e-9);
  }
}

TEST_CASE("a slow stage delays only what waits on it (hand-worked, pp 2, m 2)") {
  // Stage 0: f = b = 1; stage 1: f = b = 2. Orders: stage 0 F0 F1 B0 B1, stage 1 F0 B0 F1 B1.
  // Stage 0: F0 [0,1], F1 [1,2]. Stage 1: F0 [1,3], B0 [3,5], F1 [5,7], B1 [7,9].
  // Stage 0: B0 waits for stage 1's B0: [5,6]; B1 for its B1: [9,10]. Step: 10, not the
  // slowest-stage closed form (m + pp - 1) x (2 + 2) = 12.
  PipelineSpec s = equal_stages(2, 2, 1, 1, 1);
  s.stages[1] = {2, 2, 0, 0, 0};
  CHECK(pipeline_step_s(s) == doctest::Approx(10));
  // One stage of eight 8% slower, m = 8, b = 2f: the step grows by 2.1% (stage 3) to 4.3% (the
  // last stage, which runs its forwards and backwards back to back), not by 8%.
  PipelineSpec h = equal_stages(8, 8, 1, 1, 2);
  const double base = pipeline_step_s(h);
  h.stages[3] = {1.08, 2.16, 0, 0, 0};
  const double mid = pipeline_step_s(h) / base;
  h.stages[3] = {1, 2, 0, 0, 0};
  h.stages[7] = {1.08, 2.16, 0, 0, 0};
  const double last = pipeline_step_s(h) / base;
  CHECK(mid == doctest::Approx(1 + 0.32 / 15));   // 15.32 / 15
  CHECK(last == doctest::Approx(1 + 0.64 / 15));  // 15.64 / 15: 8 x 0.08 on the critical path
}

TEST_CASE("P2P sends and tails") {
  // 1F1B with a P2P time c per hop: each of the pp - 1 hops is crossed twice on the critical
  // path per round trip of the first micro-batch, and once more per bubble slot.
  PipelineSpec s = equal_stages(4, 1, 1, 1, 2);
  for (auto& st : s.stages) st.p2p_fwd_s = st.p2p_bwd_s = 0.5;
  CHECK(pipeline_step_s(s) == doctest::Approx(4 * 3 + 2 * 3 * 0.5));  // one micro-batch: a chain
  s.stages[0].tail_s = 4;  // stage 0 ends last; its tail follows its last backward
  CHECK(pipeline_step_s(s) == doctest::Approx(4 * 3 + 2 * 3 * 0.5 + 4));
}

TEST_CASE("a shortened last micro-batch: continuous between k and k + 1 micro-batches") {
  PipelineSpec s = equal_stages(8, 6, 1, 1, 2);
  const double t6 = pipeline_step_s(s);
  s.microbatches = 7;
  const double t7 = pipeline_step_s(s);
  s.last_fraction = 0.5;
  const double half = pipeline_step_s(s);
  CHECK(half > t6);
  CHECK(half < t7);
  s.last_fraction = 0.25;
  const double quarter = pipeline_step_s(s);
  CHECK(quarter > t6);
  CHECK(quarter < half);
  s.last_fraction = 0;
  CHECK_THROWS_AS(pipeline_step_s(s), std::invalid_argument);
}
