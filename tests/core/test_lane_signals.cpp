// The per-lane shortcuts of issue 32 item 3 give the same numbers as the long way round:
// Accounting's stalled(t, b) against phase(t, Phase::stalled(b)), paid_free(t, m, n) against
// n x paid(t, m, 0) and interrupted() against its signals one by one, directly and through a
// JobSignals fan-out, on random signal sequences (running phases with checkpoint cycles, stalls,
// rollbacks, lost steps, GPU counts, boosts), every metric compared exactly.
#include <doctest/doctest.h>

#include <random>

#include "sim/run/accounting.hpp"

using namespace goodput;

namespace {

// Feeds one random sequence to `o`; `via_stalled`: stalls as stalled(), else as phase(), free
// payments as paid_free(), else one paid() each, disruptions as interrupted(), else signal by
// signal.
void feed(JobObserver& o, std::uint64_t seed, bool via_stalled) {
  std::mt19937_64 rng(seed);
  Time t = 0;
  for (int i = 0; i < 400; ++i) {
    t += static_cast<Time>(rng() % 4 == 0 ? 0 : rng() % 7'200'000);  // same-time signals too
    const auto b = static_cast<Bucket>(rng() % kBucketCount);
    switch (rng() % 9) {
      case 0:
      case 1:
        if (via_stalled)
          o.stalled(t, b);
        else
          o.phase(t, Phase::stalled(b));
        break;
      case 2: {
        Phase p = Phase::running(
            rng() % 3 == 0 ? 1.0 : 0.25 + 0.5 * static_cast<double>(rng() % 100) / 100.0);
        if (rng() % 2)
          p.cycle = {t - static_cast<Time>(rng() % 600'000), 1'800'000, 10'000, 60'000};
        o.phase(t, p);
        break;
      }
      case 3:
        o.rollback(t);
        break;
      case 4:
        o.partial_step_lost(t, 6'000);
        break;
      case 5:
        o.gpus_in_use(t, static_cast<std::int64_t>(rng() % 1000));
        break;
      case 6: {
        const bool counted = rng() % 2;
        const auto lost = static_cast<Lost>(rng() % 3);
        const Time step = static_cast<Time>(rng() % 9000);
        if (via_stalled) {
          o.interrupted(t, counted, lost, step);
          break;
        }
        if (counted) o.interruption(t);
        o.checkpoint_aborted(t);
        if (lost == Lost::SinceCheckpoint) o.rollback(t);
        if (lost == Lost::Step) o.partial_step_lost(t, step);
        break;
      }
      case 7:
        o.boost(t, static_cast<double>(rng() % 50) / 10.0, static_cast<int>(rng() % 9),
                static_cast<int>(rng() % 3));
        break;
      default: {
        const auto m = static_cast<Mechanism>(rng() % kMechanismCount);
        if (rng() % 2) {
          o.paid(t, m, static_cast<Time>(rng() % 9000));
          break;
        }
        const auto n = static_cast<std::uint32_t>(rng() % 4);
        if (via_stalled)
          o.paid_free(t, m, n);
        else
          for (std::uint32_t k = 0; k < n; ++k) o.paid(t, m, 0);
        break;
      }
    }
  }
}

void require_same(const RunMetrics& a, const RunMetrics& b) {
  REQUIRE(a.goodput == b.goodput);
  for (int k = 0; k < kBucketCount; ++k) REQUIRE(a.badput[k] == b.badput[k]);
  REQUIRE(a.ettr == b.ettr);
  REQUIRE(a.spare_gpu_hours == b.spare_gpu_hours);
  REQUIRE(a.boost_energy_gpu_hours == b.boost_energy_gpu_hours);
  REQUIRE(a.completion_hours == b.completion_hours);
  REQUIRE(a.interruptions == b.interruptions);
  REQUIRE(a.checkpoints == b.checkpoints);
  REQUIRE(a.rollbacks == b.rollbacks);
  REQUIRE(a.paid_count == b.paid_count);
  REQUIRE(a.paid_stall_hours == b.paid_stall_hours);
}

}  // namespace

TEST_CASE("Accounting takes its one-call shortcuts exactly as the signals they stand for") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const Time horizon = 400 * Time{7'200'000};
    FailedGpuTally failed(1000);
    failed.finish(horizon);
    // A completion target some runs reach: the moment is found inside a phase.
    const double target_s = 50'000.0 * static_cast<double>(seed);
    Accounting slow(1000, target_s), fast(1000, target_s), fanned(1000, target_s);
    JobSignals signals;
    signals.add(&fanned);
    feed(slow, seed, false);
    feed(fast, seed, true);
    feed(signals, seed, true);
    const RunMetrics a = slow.finish(horizon, 0, failed);
    require_same(a, fast.finish(horizon, 0, failed));
    require_same(a, fanned.finish(horizon, 0, failed));
    CHECK(a.goodput > 0);  // the sequences do train (the comparison is not of empty runs)
  }
}
