// Goal seek: bisection finds the smallest value meeting the target, in few evaluations, and
// agrees with a full scan on a scenario where Goodput grows with spare domains; --target parsing
// (metric names from strategy_metrics.hpp) and the 95% CI rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/sweep/goal_seek.hpp"
#include "sim/sweep/seek_prefetch.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

TEST_CASE("seek over workers: the sequential search's answers, values asked ahead on idle ones") {
  // A fake point: its value in values[0]; it meets the target from `threshold` on. Each worker
  // runs one point at a time; failures of values never asked are not seen.
  for (int workers : {1, 3, 7}) {
    for (long threshold : {0L, 5L, 37L, 64L, 65L}) {
      CAPTURE(workers);
      CAPTURE(threshold);
      std::mutex m;
      std::vector<int> busy(static_cast<std::size_t>(workers), 0);
      bool overlap = false;
      auto run = [&](long v, int worker) {
        {
          std::lock_guard<std::mutex> lock(m);
          overlap = overlap || busy[static_cast<std::size_t>(worker)]++ > 0;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        {
          std::lock_guard<std::mutex> lock(m);
          --busy[static_cast<std::size_t>(worker)];
        }
        if (v == 63 && threshold != 64) throw std::runtime_error("63 cannot be computed");
        SweepPoint pt;
        pt.values = {std::to_string(v)};
        return pt;
      };
      auto meets = [&](const SweepPoint& pt) { return std::stol(pt.values.at(0)) >= threshold; };
      const SeekResult plain = bisect_smallest(0, 64, [&](long v) { return v >= threshold; });
      int asked = 0;
      SeekResult ahead;
      {
        SeekPrefetch prefetch(0, 64, workers, run, meets);
        ahead = bisect_smallest(0, 64, [&](long v) {
          ++asked;
          const SweepPoint pt = prefetch.get(v);
          CHECK(pt.values.at(0) == std::to_string(v));
          return meets(pt);
        });
        if (workers == 1) CHECK(prefetch.started() == asked);
        if (workers > 1 && asked > 2) CHECK(prefetch.started() > asked);  // some asked ahead
      }
      CHECK_FALSE(overlap);
      CHECK(ahead.answer == plain.answer);
      REQUIRE(ahead.steps.size() == plain.steps.size());
      for (std::size_t i = 0; i < plain.steps.size(); ++i)
        CHECK(ahead.steps[i].value == plain.steps[i].value);
    }
  }
  // A value the search asks whose computation failed: the failure reaches the caller.
  SeekPrefetch failing(
      0, 8, 3, [](long, int) -> SweepPoint { throw std::runtime_error("no"); },
      [](const SweepPoint&) { return true; });
  CHECK_THROWS_WITH_AS(failing.get(8), "no", std::runtime_error);
}

TEST_CASE("bisection finds a known threshold") {
  for (long threshold : {0L, 1L, 37L, 63L, 64L}) {
    int calls = 0;
    const SeekResult r = bisect_smallest(0, 64, [&](long v) {
      ++calls;
      return v >= threshold;
    });
    REQUIRE(r.answer);
    CHECK(*r.answer == threshold);
    CHECK(calls <= 2 + 6);  // both ends, then log2(64) halvings
    CHECK(r.steps.size() == static_cast<std::size_t>(calls));
  }
  CHECK(!bisect_smallest(0, 64, [](long) { return false; }).answer);
  CHECK(*bisect_smallest(5, 5, [](long) { return true; }).answer == 5);
}

TEST_CASE("goal seek over spare domains agrees with a full scan") {
  auto goodput_at = [](long spares) {
    const SweepPoint pt =
        run_point(small_at({"/cluster/spare_domains=" + std::to_string(spares)}), 2, {});
    for (const auto& st : pt.report.strategies)
      if (st.name == "hot_spares") return st.goodput.mean;
    return -1.0;
  };
  std::vector<double> scan;
  for (long s = 0; s <= 8; ++s) scan.push_back(goodput_at(s));
  const double target = 0.5 * (scan.front() + *std::max_element(scan.begin(), scan.end()));
  REQUIRE(scan.front() < target);  // more spares must help somewhere, or there is nothing to seek
  const SeekResult r = bisect_smallest(0, 8, [&](long v) { return goodput_at(v) >= target; });
  REQUIRE(r.answer);
  const auto a = static_cast<std::size_t>(*r.answer);
  CHECK(scan[a] >= target);     // the answer meets the target
  CHECK(scan[a - 1] < target);  // and the value below it does not (a > 0: scan[0] misses)
  CHECK(r.steps.size() <= 5);
  bool monotone = true;
  for (std::size_t i = 1; i < scan.size(); ++i) monotone = monotone && scan[i] >= scan[i - 1];
  if (monotone) {  // then bisection's answer is the first value meeting the target
    std::size_t first = 0;
    while (scan[first] < target) ++first;
    CHECK(a == first);
  }
}

// --target METRIC>=X / METRIC<=X: names from the strategy metric table, comparisons, values.
TEST_CASE("seek targets parse from the strategy metric table") {
  SeekTarget t = parse_seek_target("goodput>=0.95");
  CHECK(t.metric->name == "goodput");
  CHECK(t.comparison == Comparison::AtLeast);
  CHECK(t.value == doctest::Approx(0.95));
  t = parse_seek_target("WAITING_FOR_CAPACITY<=0.01");
  CHECK(t.metric->name == "WAITING_FOR_CAPACITY");
  CHECK(t.comparison == Comparison::AtMost);
  CHECK(t.value == doctest::Approx(0.01));
  t = parse_seek_target(" WAITING_FOR_CAPACITY <= 1% ");  // a percentage for a fraction
  CHECK(t.value == doctest::Approx(0.01));
  CHECK(target_text(t) == "WAITING_FOR_CAPACITY <= 1%");
  CHECK(parse_seek_target("paused_hours<=5").metric->unit == "h");
  CHECK(target_text(parse_seek_target("paused_hours<=5")) == "paused_hours <= 5 h");
  CHECK(target_text(parse_seek_target("interruptions<=400")) == "interruptions <= 400");
  CHECK(format_metric_value(*find_strategy_metric("spare_gpu_hours"), 12521.7, 4) ==
        "12522 GPU-hours");
  CHECK(format_metric_value(*find_strategy_metric("goodput"), 0.98336, 4) == "98.34%");
  CHECK(parse_seek_target("ettr>=0.95").metric->name == "ettr");
  CHECK(parse_seek_target("spare_gpu_hours<=1e4").value == doctest::Approx(1e4));
  CHECK(parse_seek_target("communicator_rebuild_count<=3").metric->unit == "count");
  CHECK(bound_text(Comparison::AtLeast) == "lower 95% CI bound");
  CHECK(monotone_assumption(parse_seek_target("WAITING_FOR_CAPACITY<=0.01"),
                            "/cluster/spare_domains") ==
        "WAITING_FOR_CAPACITY does not increase as /cluster/spare_domains grows");
}

TEST_CASE("bad seek targets are input errors naming the flag") {
  auto error = [](const std::string& text) {
    try {
      parse_seek_target(text, "--target");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error("goodptu>=0.9")
            .find("--target: goodptu>=0.9: unknown metric 'goodptu' (did you mean 'goodput'?)") ==
        0);
  CHECK(error("WAITING_FOR_CAPACTY<=0.01").find("(did you mean 'WAITING_FOR_CAPACITY'?)") !=
        std::string::npos);
  CHECK(error("zzzzzz<=1")
            .find("metrics: goodput, WASTED_PROGRESS_FROM_DISRUPTION, "
                  "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION") != std::string::npos);
  CHECK(error("zzzzzz<=1").find("did you mean") == std::string::npos);
  CHECK(error("goodput>0.9").find("only >= and <= compare") != std::string::npos);
  CHECK(error("goodput=0.9").find("expected METRIC>=X or METRIC<=X") != std::string::npos);
  CHECK(error("goodput=>0.9").find("expected METRIC>=X or METRIC<=X") != std::string::npos);
  CHECK(error("goodput").find("expected METRIC>=X or METRIC<=X") != std::string::npos);
  CHECK(error(">=0.9").find("no metric before >=") != std::string::npos);
  CHECK(error("goodput>=").find("X is a number or a percentage") != std::string::npos);
  CHECK(error("goodput>=0.9x").find("X is a number") != std::string::npos);
  CHECK(error("goodput>=nan").find("X is a number") != std::string::npos);
  CHECK(error("goodput>=1.5").find("must lie in [0, 1]") != std::string::npos);
  CHECK(error("paused_hours<=5%").find("paused_hours is in h, not a fraction: drop the %") !=
        std::string::npos);
  CHECK(error("interruptions<=-1").find("must be >= 0") != std::string::npos);
}

TEST_CASE("the strategy metric table reads every StrategySummary field it names") {
  StrategySummary s;
  s.goodput.mean = 0.9;
  s.paused_hours.mean = 7;
  s.interruptions.mean = 42;
  s.badput[static_cast<int>(Bucket::WaitingForCapacity)].mean = 0.03;
  s.paid_stall_hours[static_cast<int>(Mechanism::SpareSwapIn)].mean = 2.5;
  CHECK(find_strategy_metric("goodput")->get(s).mean == 0.9);
  CHECK(find_strategy_metric("paused_hours")->get(s).mean == 7);
  CHECK(find_strategy_metric("interruptions")->get(s).mean == 42);
  CHECK(find_strategy_metric("WAITING_FOR_CAPACITY")->get(s).mean == 0.03);
  CHECK(find_strategy_metric("spare_swap_in_stall_hours")->get(s).mean == 2.5);
  CHECK(find_strategy_metric("no_such_metric") == nullptr);
  const auto names = strategy_metric_names();
  for (int b = 0; b < kBucketCount; ++b)
    CHECK(std::count(names.begin(), names.end(), bucket_name(static_cast<Bucket>(b))) == 1);
  for (const auto& m : strategy_metrics()) {
    CHECK(std::count(names.begin(), names.end(), m.name) == (m.seek ? 1 : 0));  // unique
    CHECK(!m.unit.empty());
    CHECK(!m.doc.empty());
  }
}

// The answer is the smallest value whose 95% CI bound meets the target, not the mean: on a
// synthetic monotone metric whose mean reaches the target well before its CI bound does
// (steps of 1/64 and a CI of 1/4, exact in binary).
TEST_CASE("goal seek answers with the CI bound, not the mean") {
  auto summary = [](double mean) {
    Summary s;
    s.mean = mean;
    s.ci95 = 0.25;
    s.n = 10;
    return s;
  };
  auto rising = [](long v) { return static_cast<double>(v) / 64; };
  const SeekTarget at_least =
      parse_seek_target("goodput>=0.5");  // the mean meets at 32, the CI at 48
  const SeekResult up =
      bisect_smallest(0, 100, [&](long v) { return meets_target(summary(rising(v)), at_least); });
  REQUIRE(up.answer);
  CHECK(*up.answer == 48);
  CHECK(*bisect_smallest(0, 100, [&](long v) { return rising(v) >= 0.5; }).answer ==
        32);  // by the mean
  const SeekTarget at_most =
      parse_seek_target("WAITING_FOR_CAPACITY<=0.25");  // mean 1 - v/64: 48, CI: 64
  const SeekResult down = bisect_smallest(
      0, 100, [&](long v) { return meets_target(summary(1 - rising(v)), at_most); });
  REQUIRE(down.answer);
  CHECK(*down.answer == 64);
  CHECK(ci_bound(summary(0.5), Comparison::AtLeast) == 0.25);
  CHECK(ci_bound(summary(0.5), Comparison::AtMost) == 0.75);
  Summary one_seed;  // one seed: ci95 = 0, the mean decides
  one_seed.mean = 0.5;
  one_seed.n = 1;
  CHECK(meets_target(one_seed, at_least));
  // Neither end meets: no answer, after evaluating only the maximum.
  const SeekResult none = bisect_smallest(
      0, 100, [&](long v) { return meets_target(summary(rising(v) / 8), at_least); });
  CHECK(!none.answer);
  CHECK(none.steps.size() == 2);  // the maximum, then the minimum: neither end meets
  CHECK(!none.only_min_meets);
  // The property runs the other way (only the minimum meets): the answer is the minimum, flagged.
  const SeekResult wrong_way = bisect_smallest(
      0, 100, [&](long v) { return meets_target(summary(1 - rising(v)), at_least); });
  REQUIRE(wrong_way.answer);
  CHECK(*wrong_way.answer == 0);
  CHECK(wrong_way.only_min_meets);
}

TEST_CASE("the seek's answer line names the metric, the bound and the assumption") {
  Json k = {{"pointer", "/cluster/spare_domains"},
            {"min", 0},
            {"max", 16},
            {"strategy", "dp_drop"},
            {"metric", "WAITING_FOR_CAPACITY"},
            {"unit", "fraction"},
            {"comparison", "<="},
            {"target", 0.01},
            {"rule", "95% CI bound"},
            {"bound", "upper 95% CI bound"},
            {"answer", 12},
            {"assumption",
             "WAITING_FOR_CAPACITY does not increase as /cluster/spare_domains grows (bisection)"},
            {"evaluated", Json::array({{{"value", 16},
                                        {"mean", 0.001},
                                        {"ci95", 0.001},
                                        {"bound", 0.002},
                                        {"meets", true}}})}};
  CHECK(
      seek_answer_text(k, false) ==
      "smallest /cluster/spare_domains with dp_drop WAITING_FOR_CAPACITY <= 1% (upper 95% CI "
      "bound): 12 (1 value "
      "evaluated; assumed WAITING_FOR_CAPACITY does not increase as /cluster/spare_domains grows)");
  k["answer"] = nullptr;
  k["evaluated"][0]["bound"] = 0.05;
  const std::string none = seek_answer_text(k, true);
  CHECK(none.find("**not reached in [0, 16]**: `/cluster/spare_domains` = 16 gives 0.1% "
                  "(upper 95% CI bound 5%) (1 value") != std::string::npos);
  k["evaluated"].push_back(
      {{"value", 0}, {"mean", 0.2}, {"ci95", 0.1}, {"bound", 0.3}, {"meets", false}});
  CHECK(seek_answer_text(k, false).find(
            "not reached in [0, 16]: neither end meets it; /cluster/spare_domains = 16 gives 0.1% "
            "(upper 95% CI bound 5%), at 0 gives 20% (upper 95% CI bound 30%) (2 values") !=
        std::string::npos);
  k["bound"] = "mean";
  CHECK(seek_answer_text(k, false).find("(mean: one seed per point, no CI)") != std::string::npos);
}

TEST_CASE("evaluated means that move against the assumed direction are flagged") {
  auto at = [](double mean, double ci) {
    Summary s;
    s.mean = mean;
    s.ci95 = ci;
    s.n = 5;
    return s;
  };
  const SeekTarget up = parse_seek_target("goodput>=0.9");
  CHECK(monotonicity_warnings(up, "/x",
                              {{0, at(0.80, 0.01)}, {4, at(0.85, 0.01)}, {8, at(0.95, 0.01)}})
            .empty());
  CHECK(monotonicity_warnings(up, "/x", {{0, at(0.80, 0.01)}, {4, at(0.79, 0.01)}})
            .empty());  // within the CIs
  const auto w = monotonicity_warnings(
      up, "/x", {{0, at(0.80, 0.01)}, {4, at(0.90, 0.01)}, {8, at(0.85, 0.01)}});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("goodput moves the wrong way between /x = 4 (90%) and 8 (85%)") == 0);
  const SeekTarget down = parse_seek_target("interruptions<=10");
  CHECK(monotonicity_warnings(down, "/x", {{0, at(30, 1)}, {4, at(40, 1)}}).size() == 1);
  CHECK(monotonicity_warnings(down, "/x", {{0, at(40, 1)}, {4, at(30, 1)}}).empty());
}
