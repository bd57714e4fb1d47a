// Goal seek over workers when the system refuses threads (parallel_for.hpp's test budget): the
// values the search asks are computed on the caller's thread, with the answer of the plain search.
#include <doctest/doctest.h>

#include <string>

#include "sim/core/parallel_for.hpp"
#include "sim/sweep/goal_seek.hpp"
#include "sim/sweep/seek_prefetch.hpp"

using namespace goodput;

TEST_CASE("seek prefetch without threads computes each asked value on the caller's thread") {
  for (long made : {0L, 1L}) {
    for (long threshold : {0L, 5L, 37L, 65L}) {
      CAPTURE(made);
      CAPTURE(threshold);
      test_thread_budget() = made;
      auto run = [](long v, int) {
        SweepPoint pt;
        pt.values = {std::to_string(v)};
        return pt;
      };
      auto meets = [&](const SweepPoint& pt) { return std::stol(pt.values.at(0)) >= threshold; };
      const SeekResult plain = bisect_smallest(0, 64, [&](long v) { return v >= threshold; });
      SeekResult ahead;
      {
        SeekPrefetch prefetch(0, 64, 3, run, meets);
        ahead = bisect_smallest(0, 64, [&](long v) { return meets(prefetch.get(v)); });
      }
      test_thread_budget() = -1;
      CHECK(ahead.answer == plain.answer);
      REQUIRE(ahead.steps.size() == plain.steps.size());
      for (std::size_t i = 0; i < plain.steps.size(); ++i)
        CHECK(ahead.steps[i].value == plain.steps[i].value);
    }
  }
}
