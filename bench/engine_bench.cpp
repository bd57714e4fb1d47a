// Google Benchmark of the event engine and of one simulate() per strategy (issue 6).
// BM_Engine: the real goodput::Simulator under a realistic mix — `pending` events in flight,
//   each fired event re-schedules itself after an exponential delay (mean 1 h), every 8th
//   also schedules a one-shot extra event and cancels the oldest of the last 16 extras (most
//   extras are cancelled before they fire); the handler does trivial work. BM_BareHeap /
//   BM_PriorityQueue: the same 40-byte entry, the same (time, id) order, the same delay table and
//   the same heap operations (every extra is a tombstone skipped on pop, as a cancelled entry is) —
//   the practical ceiling. items_per_second = events fired; bench/run.sh divides the two in the
//   same run.
// BM_Simulate/i: one simulate() of strategy i of GOODPUT_BENCH_SCENARIO (default
//   scenarios/default.json at one year) on run 0's fault list; items = engine events.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "models/scenario/scenario_loader.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/run/run_plan.hpp"
#include "sim/run/single_run.hpp"

namespace {

using goodput::Time;
constexpr Time kMeanDelay = goodput::kMillisPerHour;
constexpr std::size_t kDelays = 1 << 16;

const std::vector<Time>& delays() {
  static const std::vector<Time> d = [] {
    std::mt19937_64 rng(42);
    std::exponential_distribution<double> exp(1.0 / static_cast<double>(kMeanDelay));
    std::vector<Time> v(kDelays);
    for (auto& x : v) x = 1 + static_cast<Time>(exp(rng));
    return v;
  }();
  return d;
}

class Load final : public goodput::EventHandler {
 public:
  explicit Load(goodput::Simulator& sim) : sim_(sim) {}
  void handle(std::uint32_t kind, std::uint64_t arg) override {
    sum_ += arg + kind;  // trivial work
    if (kind == 2) {     // an extra that fired before it was cancelled: forget its id
      for (std::size_t i = 0; i < extra_.size(); ++i)
        if (extra_[i].first == arg) extra_.erase(extra_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
    sim_.schedule_after(next_delay(), this, 1, arg + 1);
    if ((++n_ & 7) == 0) {
      extra_.emplace_back(n_, sim_.schedule_after(next_delay(), this, 2, n_));
      if (extra_.size() > 16) {
        sim_.cancel(extra_.front().second);
        extra_.erase(extra_.begin());
      }
    }
  }
  Time next_delay() { return delays()[d_++ & (kDelays - 1)]; }
  std::uint64_t sum_ = 0;

 private:
  goodput::Simulator& sim_;
  std::uint64_t n_ = 0;
  std::size_t d_ = 0;
  std::vector<std::pair<std::uint64_t, goodput::EventId>> extra_;  // (seq, id)
};

void BM_Engine(benchmark::State& state) {
  goodput::Simulator sim;
  Load load(sim);
  const auto pending = state.range(0);
  for (std::int64_t i = 0; i < pending; ++i) sim.schedule_after(load.next_delay(), &load, 1, 0);
  const Time chunk = kMeanDelay * 4096 / pending;  // about 4096 events per iteration
  const auto before = sim.events_fired();
  for (auto _ : state) sim.run_until(sim.now() + chunk);
  benchmark::DoNotOptimize(load.sum_);
  state.SetItemsProcessed(static_cast<std::int64_t>(sim.events_fired() - before));
}

// The engine's entry, field for field (40 bytes).
struct Entry {
  Time time;
  std::uint64_t id;
  void* handler;
  std::uint64_t arg;
  std::uint32_t kind;
};
static_assert(sizeof(Entry) == 40);
struct Later {
  bool operator()(const Entry& a, const Entry& b) const {
    return a.time != b.time ? a.time > b.time : a.id > b.id;
  }
};

template <class Queue>
void bare_loop(benchmark::State& state, Queue& q) {
  const auto pending = state.range(0);
  std::size_t d = 0;
  std::uint64_t id = 1, n = 0, fired = 0, sum = 0;
  Time now = 0;
  auto delay = [&] { return delays()[d++ & (kDelays - 1)]; };
  for (std::int64_t i = 0; i < pending; ++i) q.push(Entry{now + delay(), id++, nullptr, 0, 1});
  const Time chunk = kMeanDelay * 4096 / pending;
  for (auto _ : state) {
    const Time end = now + chunk;
    while (!q.empty() && q.top().time <= end) {
      const Entry e = q.top();
      q.pop();
      if (e.kind == 0) continue;  // tombstone: the cancelled entry
      now = e.time;
      ++fired;
      sum += e.arg + e.kind;
      q.push(Entry{now + delay(), id++, nullptr, e.arg + 1, 1});
      if ((++n & 7) == 0) q.push(Entry{now + delay(), id++, nullptr, e.arg, 0});
    }
    now = end;
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(fired));
}

// std::push_heap / pop_heap on a vector, as the engine does.
struct VectorHeap {
  std::vector<Entry> v;
  bool empty() const { return v.empty(); }
  const Entry& top() const { return v.front(); }
  void push(const Entry& e) {
    v.push_back(e);
    std::push_heap(v.begin(), v.end(), Later{});
  }
  void pop() {
    std::pop_heap(v.begin(), v.end(), Later{});
    v.pop_back();
  }
};

void BM_BareHeap(benchmark::State& state) {
  VectorHeap q;
  bare_loop(state, q);
}

void BM_PriorityQueue(benchmark::State& state) {
  std::priority_queue<Entry, std::vector<Entry>, Later> q;
  bare_loop(state, q);
}

const goodput::RunPlan& plan() {
  static const goodput::RunPlan p = [] {
    const char* env = std::getenv("GOODPUT_BENCH_SCENARIO");
    const std::string path = env ? env : GOODPUT_SOURCE_DIR "/scenarios/default.json";
    std::vector<std::string> sets;
    if (!env) sets.push_back("/horizon_hours=8760");
    return goodput::make_plan(goodput::load_scenario(path, sets));
  }();
  return p;
}

void BM_Simulate(benchmark::State& state) {
  const auto& p = plan();
  static const goodput::FaultList faults = goodput::faults_for(p, 0);
  const auto& strategy = p.scenario.strategies.at(static_cast<std::size_t>(state.range(0)));
  state.SetLabel(strategy.name);
  std::int64_t events = 0;
  for (auto _ : state) {
    const auto m = goodput::simulate(p, faults, strategy);
    events += m.events;
    benchmark::DoNotOptimize(m.goodput);
  }
  state.SetItemsProcessed(events);
  state.counters["faults"] = static_cast<double>(faults.faults.size());
}

}  // namespace

BENCHMARK(BM_Engine)->Arg(1024)->Arg(4096)->Arg(16384);
BENCHMARK(BM_BareHeap)->Arg(1024)->Arg(4096)->Arg(16384);
BENCHMARK(BM_PriorityQueue)->Arg(1024)->Arg(4096)->Arg(16384);
BENCHMARK(BM_Simulate)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
