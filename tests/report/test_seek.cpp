// Goal seek: bisection finds the smallest value meeting the target, in few evaluations, and
// agrees with a full scan on a scenario where Goodput grows with spare domains.
#include <doctest/doctest.h>

#include <algorithm>

#include "sim/report/goal_seek.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

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
    const SweepPoint pt = run_point(small_at({"/cluster/spare_domains=" + std::to_string(spares)}), 2, {});
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
