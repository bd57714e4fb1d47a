#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "sim/core/parallel_for.hpp"
#include "sim/core/stats.hpp"
#include "sim/engine/random.hpp"
#include "sim/engine/simulator.hpp"

using namespace goodput;

namespace {
struct Recorder : EventHandler {
  Simulator* sim;
  std::vector<std::pair<Time, std::uint64_t>> seen;
  void handle(std::uint32_t, std::uint64_t arg) override { seen.emplace_back(sim->now(), arg); }
};
}  // namespace

TEST_CASE("events fire in (time, insertion) order and cancelled ones never fire") {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.schedule_at(50, &r, 0, 1);
  sim.schedule_at(10, &r, 0, 2);
  const EventId c = sim.schedule_at(10, &r, 0, 3);
  sim.schedule_at(10, &r, 0, 4);
  sim.schedule_at(70, &r, 0, 5);
  sim.cancel(c);
  sim.run_until(60);
  REQUIRE(r.seen.size() == 3);
  CHECK(r.seen[0] == std::make_pair(Time{10}, std::uint64_t{2}));
  CHECK(r.seen[1] == std::make_pair(Time{10}, std::uint64_t{4}));
  CHECK(r.seen[2] == std::make_pair(Time{50}, std::uint64_t{1}));
  CHECK(sim.now() == 60);
  CHECK(sim.pending() == 1);
  CHECK_THROWS(sim.schedule_at(59, &r, 0, 6));
}

TEST_CASE("random streams depend only on (seed, run, component)") {
  RandomStream a(7, 3, 11), b(7, 3, 11), c(7, 3, 12), d(7, 4, 11);
  const auto x = a.next();
  CHECK(x == b.next());
  CHECK(x != c.next());
  CHECK(x != d.next());
  // Exponential mean and uniform range over many draws.
  RandomStream e(1, 0, 0);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += e.exponential(2.0);
  CHECK(sum / n == doctest::Approx(2.0).epsilon(0.02));
  for (int i = 0; i < 1000; ++i) {
    const double u = e.uniform();
    CHECK((u > 0 && u < 1));
    CHECK(e.below(7) < 7);
  }
}

TEST_CASE("lognormal median and Weibull mean") {
  RandomStream r(3, 0, 0);
  std::vector<double> v;
  for (int i = 0; i < 100001; ++i) v.push_back(r.lognormal(5.0, 0.8));
  std::nth_element(v.begin(), v.begin() + 50000, v.end());
  CHECK(v[50000] == doctest::Approx(5.0).epsilon(0.03));
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += r.weibull(0.7, 1.0);
  CHECK(sum / 100000 == doctest::Approx(std::tgamma(1 + 1 / 0.7)).epsilon(0.03));
}

TEST_CASE("confidence intervals use Student's t") {
  // Published two-sided 95% critical values (t tables to 6 digits), and the normal limit.
  CHECK(student_t_975(1) == doctest::Approx(12.706205).epsilon(1e-7));
  CHECK(student_t_975(10) == doctest::Approx(2.228139).epsilon(1e-6));
  CHECK(student_t_975(30) == doctest::Approx(2.042272).epsilon(1e-6));
  CHECK(student_t_975(1000) == doctest::Approx(1.962339).epsilon(1e-6));
  CHECK(student_t_975(1000000) == doctest::Approx(1.959964).epsilon(1e-5));
  CHECK(student_t_975(0) == 0);
  const Summary s = summarize({1, 2, 3, 4});
  CHECK(s.mean == doctest::Approx(2.5));
  CHECK(s.stddev == doctest::Approx(1.2909944));
  CHECK(s.ci95 == doctest::Approx(3.182446 * 1.2909944 / 2));
  const Summary d = summarize_difference({2, 3, 4}, {1, 1, 1});
  CHECK(d.mean == doctest::Approx(2));
  CHECK(summarize({5}).ci95 == 0);
}

TEST_CASE("cancelling an event that already fired changes nothing") {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  const EventId a = sim.schedule_at(10, &r, 0, 1);
  sim.run_until(20);
  sim.cancel(a);
  sim.cancel(a);
  sim.schedule_at(30, &r, 0, 2);
  sim.run_until(40);
  REQUIRE(r.seen.size() == 2);
  CHECK(r.seen[1] == std::make_pair(Time{30}, std::uint64_t{2}));
  CHECK(sim.events_fired() == 2);
}

TEST_CASE("parallel_for runs every index once, whatever the thread count, and rethrows") {
  for (int threads : {1, 2, 5}) {
    std::vector<int> hits(50, 0);
    int done = 0;
    goodput::parallel_for(
        50, threads, [&](int i) { ++hits[static_cast<std::size_t>(i)]; }, [&](int) { ++done; });
    CHECK(done == 50);
    for (int h : hits) CHECK(h == 1);
    CHECK_THROWS_AS(goodput::parallel_for(10, threads,
                                          [](int i) {
                                            if (i == 3) throw std::runtime_error("task 3");
                                          }),
                    std::runtime_error);
    // A task taking (i, worker) learns its worker: in [0, min(threads, count)), the caller's
    // thread is worker 0, and one worker never runs two tasks at once.
    std::vector<int> worker_of(50, -1);
    std::vector<std::atomic<int>> busy(5);
    std::atomic<bool> overlap{false};
    goodput::parallel_for(50, threads, [&](int i, int w) {
      if (busy[static_cast<std::size_t>(w)]++ != 0) overlap = true;
      worker_of[static_cast<std::size_t>(i)] = w;
      --busy[static_cast<std::size_t>(w)];
    });
    CHECK_FALSE(overlap);
    for (int w : worker_of) CHECK((w >= 0 && w < threads));
    if (threads == 1) CHECK(worker_of == std::vector<int>(50, 0));
  }
}

namespace {
struct Log final : goodput::EventHandler {
  std::vector<std::uint64_t> fired;
  void handle(std::uint32_t, std::uint64_t arg) override { fired.push_back(arg); }
};
}  // namespace

TEST_CASE("a reserved sequence number orders its event as if scheduled at reserve()") {
  goodput::Simulator sim;
  Log log;
  const goodput::EventId early = sim.reserve();  // before 2 and 3, scheduled after them
  sim.schedule_at(10, &log, 1, 2);
  const goodput::EventId cancelled = sim.reserve();
  sim.schedule_at(10, &log, 1, 3);
  sim.schedule_reserved(early, 10, &log, 1, 1);
  sim.schedule_reserved(cancelled, 5, &log, 1, 9);
  sim.cancel(cancelled);
  CHECK_THROWS_AS(sim.schedule_reserved(999, 20, &log, 1, 4), std::logic_error);
  sim.run_until(20);
  CHECK(log.fired == std::vector<std::uint64_t>{1, 2, 3});
}

TEST_CASE("cancellation bits hold across many ids, after a reset too") {
  // One bit per id, 64 to a word: ids on both sides of word boundaries, cancelled or not.
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  for (int round = 0; round < 2; ++round) {
    r.seen.clear();
    std::vector<EventId> ids;
    for (std::uint64_t k = 0; k < 300; ++k)
      ids.push_back(sim.schedule_at(static_cast<Time>(1000 - k), &r, 0, k));
    for (std::size_t k = 0; k < ids.size(); k += 3) sim.cancel(ids[k]);
    sim.cancel(ids.back() + 1);  // not scheduled yet: a no-op
    sim.run_until(2000);
    REQUIRE(r.seen.size() == 200);
    for (std::size_t i = 0; i < r.seen.size(); ++i) {
      CHECK(r.seen[i].second % 3 != 0);
      if (i > 0) CHECK(r.seen[i].first > r.seen[i - 1].first);  // later ids, earlier times
    }
    sim.reset();
  }
}

TEST_CASE(
    "a stream slot's event fires in the queue's (time, id) order, cancellable, one at a time") {
  // The same events scheduled twice: all queued, then some held in the stream slots instead.
  auto fire = [](bool streams) {
    Simulator sim;
    Recorder r;
    r.sim = &sim;
    const EventId early = sim.reserve();  // reserved first: orders first among equal times
    sim.schedule_at(10, &r, 0, 1);
    const EventId late = sim.reserve();
    sim.schedule_at(10, &r, 0, 2);
    const EventId gone = sim.reserve();
    if (streams) {
      sim.schedule_stream(0, late, 10, &r, 0, 3);
      sim.schedule_stream(1, early, 10, &r, 0, 4);
      CHECK_THROWS_AS(sim.schedule_stream(1, gone, 5, &r, 0, 9), std::logic_error);  // taken
    } else {
      sim.schedule_reserved(late, 10, &r, 0, 3);
      sim.schedule_reserved(early, 10, &r, 0, 4);
    }
    CHECK(sim.pending() == 4);
    sim.cancel(late);
    sim.run_until(20);
    CHECK(sim.pending() == 0);
    // The slots are free again once their events fired (or surfaced cancelled).
    if (streams)
      sim.schedule_stream(0, gone, 30, &r, 0, 5);
    else
      sim.schedule_reserved(gone, 30, &r, 0, 5);
    sim.run_until(40);
    return r.seen;
  };
  const auto queued = fire(false);
  REQUIRE(queued.size() == 4);
  CHECK(queued[0].second == 4);  // the earliest id first
  CHECK(queued[1].second == 1);
  CHECK(queued[2].second == 2);
  CHECK(queued[3].second == 5);
  CHECK(fire(true) == queued);
}
