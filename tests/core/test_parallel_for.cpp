// parallel_for when the system refuses threads: the threads made so far (the caller's at least)
// do all the work, every task once, and a Monte Carlo run gives the same metrics.
#include <doctest/doctest.h>

#include <vector>

#include "sim/core/parallel_for.hpp"

using namespace goodput;

namespace {

struct ThreadBudget {  // sets the test budget for one scope
  explicit ThreadBudget(long n) { test_thread_budget() = n; }
  ~ThreadBudget() { test_thread_budget() = -1; }
};

}  // namespace

TEST_CASE("parallel_for goes on with fewer threads when creating one fails") {
  for (long made : {0L, 1L, 3L}) {
    CAPTURE(made);
    ThreadBudget budget(made);
    std::vector<int> hits(200, 0);
    std::vector<int> workers(200, -1);
    parallel_for(200, 8, [&](int i, int w) {
      ++hits[static_cast<std::size_t>(i)];
      workers[static_cast<std::size_t>(i)] = w;
    });
    for (int h : hits) CHECK(h == 1);
    for (int w : workers) CHECK((w >= 0 && w <= made));
    CHECK(test_thread_budget().load() == 0);  // it tried, and used what it got
  }
}

TEST_CASE("parallel_for rethrows a task's exception after joining, threads refused or not") {
  for (long made : {-1L, 0L, 2L}) {
    ThreadBudget budget(made);
    CHECK_THROWS_AS(parallel_for(50, 4,
                                 [](int i) {
                                   if (i == 7) throw std::runtime_error("task 7");
                                 }),
                    std::runtime_error);
  }
}
