#include <doctest/doctest.h>

#include "calibrate/profile/stopping_rule.hpp"

using namespace goodput::calib;

namespace {
StopSettings settings() {
  StopSettings s;
  s.warmup_runs = 0;
  s.min_samples = 10;
  s.max_samples = 200;
  s.rel_stderr_target = 0.005;
  s.max_measured_s = 1e9;
  s.max_wall_s = 1e9;
  return s;
}
}  // namespace

TEST_CASE("stopping rule stops on a constant series as soon as it may") {
  StoppingRule rule(settings());
  int n = 0;
  do {
    rule.add(1e-3);
    ++n;
  } while (!rule.done(0.0));
  CHECK(n == 10);
  CHECK(rule.reason() == "converged");
}

TEST_CASE("stopping rule keeps going on a noisy series until the sample cap") {
  StoppingRule rule(settings());
  int n = 0;
  do {
    rule.add(n % 2 ? 3e-3 : 1e-3);  // stddev/mean ~ 0.5: needs ~10^4 samples to converge
    ++n;
  } while (!rule.done(0.0));
  CHECK(n == 200);
  CHECK(rule.reason() == "sample_cap");
}

TEST_CASE("stopping rule honours the measured-time and wall-time caps") {
  StopSettings s = settings();
  s.max_measured_s = 0.0105;
  StoppingRule rule(s);
  int n = 0;
  do {
    rule.add(n % 2 ? 3e-3 : 1e-3);
    ++n;
  } while (!rule.done(0.0));
  CHECK(n == 6);  // 1+3+1+3+1+3 ms >= 10.5 ms
  CHECK(rule.reason() == "measured_time_cap");

  StopSettings w = settings();
  w.max_wall_s = 5.0;
  StoppingRule wall(w);
  wall.add(3e-3);
  CHECK_FALSE(wall.done(4.9));
  wall.add(1e-3);
  CHECK(wall.done(5.1));
  CHECK(wall.reason() == "wall_time_cap");
}

TEST_CASE("stopping rule rejects nonsense") {
  StopSettings s = settings();
  s.min_samples = 0;
  CHECK_THROWS(StoppingRule(s));
  StoppingRule ok(settings());
  CHECK_THROWS(ok.add(-1.0));
}
