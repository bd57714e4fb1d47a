// Sweep mechanics: thread-count invariance, streaming and --resume, --seeds auto.
#include <doctest/doctest.h>

#include "sim/core/error.hpp"
#include "sim/report/report_marker.hpp"
#include "sim/run/seed_rule.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

const char* const kAxis = "/cluster/spare_domains=0,1,2,3,4";
const char* const kFiles[] = {
    "sweep.json",         "points.csv",         "report.md", "report.html", "point-000/report.json",
    "point-003/runs.csv", "point-004/report.md"};

void check_same(const std::string& a, const std::string& b) {
  for (const char* f : kFiles) {
    INFO(f);
    const std::string x = slurp(std::filesystem::path(a) / f);
    CHECK(!x.empty());
    CHECK(x == slurp(std::filesystem::path(b) / f));
  }
}

// The sweep's records folder beside `target` (known by its role file), or empty.
std::filesystem::path records_folder(const std::string& target) {
  const std::filesystem::path t(target);
  for (const auto& e : std::filesystem::directory_iterator(t.parent_path()))
    if (auto r = read_role(e.path()); r && r->role == "records" && r->target == t) return e.path();
  return {};
}

}  // namespace

TEST_CASE("sweep files are byte-identical whatever the thread count") {
  const std::string one = scratch("threads1"), four = scratch("threads4");
  SweepOptions opt;
  opt.threads = 1;
  CHECK(sweep_small(one, kAxis, opt).complete);
  opt.threads = 4;
  CHECK(sweep_small(four, kAxis, opt).complete);
  check_same(one, four);
  const std::string twelve = scratch("threads12");  // 5 points x 2 Monte Carlo threads each
  opt.threads = 12;
  CHECK(sweep_small(twelve, kAxis, opt).complete);
  check_same(one, twelve);
  CHECK(records_folder(one).empty());
  CHECK(!std::filesystem::exists(std::filesystem::path(one) / "records"));
}

TEST_CASE("an interrupted sweep keeps its finished points and --resume runs only the rest") {
  const std::string whole = scratch("whole"), cut = scratch("cut");
  SweepOptions opt;
  opt.threads = 2;
  CHECK(sweep_small(whole, kAxis, opt).complete);
  opt.stop_after = 2;  // as if killed after two points
  const SweepOutcome first = sweep_small(cut, kAxis, opt);
  CHECK(!first.complete);
  CHECK(first.computed == 2);
  CHECK(!std::filesystem::exists(cut));  // no final files yet
  int records = 0;
  REQUIRE(!records_folder(cut).empty());
  for (const auto& e : std::filesystem::directory_iterator(records_folder(cut) / "records"))
    records += e.path().extension() == ".json";
  CHECK(records == 2);
  opt.stop_after = -1;
  opt.resume = true;
  const SweepOutcome second = sweep_small(cut, kAxis, opt);
  CHECK(second.complete);
  CHECK(second.resumed == 2);
  CHECK(second.computed == 3);
  check_same(whole, cut);
}

TEST_CASE("--resume refuses finished points of a different scenario") {
  const std::string dir = scratch("mismatch");
  SweepOptions opt;
  opt.stop_after = 1;
  sweep_small(dir, kAxis, opt);
  opt.stop_after = -1;
  opt.resume = true;
  CHECK_THROWS_AS(sweep_small(dir, kAxis, opt, {"/horizon_hours=100"}), InputError);
}

TEST_CASE(
    "--seeds auto adds seeds until the verdict and the CI target are settled, within the cap") {
  const Scenario sc = small_at({"/cluster/spare_domains=8", "/seeds=auto"});
  REQUIRE(sc.seeds_auto);
  SeedPolicy loose =
      SeedRule{0.5, 1.0, 1000};  // any lead is a tie within 100 pp: the first batch settles
  CHECK(run_point(sc, 2, loose).plan.scenario.seeds == kAutoSeedBatch);
  // The rule is for points that say auto: a point with a count runs that count.
  const Scenario fixed = small_at({"/cluster/spare_domains=8", "/seeds=3"});
  CHECK(run_point(fixed, 2, SeedRule{1e-9, 0.001, 18}).plan.scenario.seeds == 3);
  CHECK(record_max_seeds(fixed, loose) == 0);
  CHECK(record_max_seeds(sc, loose) == 1000);
  CHECK(record_max_seeds(sc, {}) == SeedRule{}.max_seeds);  // none: the rule's defaults
  SeedPolicy target = SeedRule{0.002, 0.001, 200};
  const SweepPoint pt = run_point(sc, 2, target);
  const int n = pt.plan.scenario.seeds;
  CHECK(n > kAutoSeedBatch);
  CHECK((n % kAutoSeedBatch == 0 || n == 200));  // whole batches, or the cap
  CHECK(pt.plan.scenario.resolved["seeds"] == n);
  const SeedCheck check = check_seeds(pt.report.runs, {0.002, 0.001, 200});
  CHECK((check.settled || n == 200));
  if (check.settled) {
    double worst = 0;
    for (const auto& st : pt.report.strategies) worst = std::max(worst, st.goodput.ci95);
    CHECK(worst <= 0.002);
    for (const auto& st : pt.report.strategies) {  // the winner vs each: significant or tied
      const Summary& d = st.difference_vs_winner;
      if (&st == &pt.report.strategies[pt.report.winner]) continue;
      CHECK((std::abs(d.mean) > d.ci95 || std::abs(d.mean) + d.ci95 <= 0.001));
    }
  }
  SeedPolicy capped = SeedRule{1e-9, 0.001, 18};
  CHECK(run_point(sc, 2, capped).plan.scenario.seeds == 18);
}

TEST_CASE("numeric axes sort numerically, once each, ranges expand, text axes keep their order") {
  CHECK(parse_axis("/cluster/spare_domains=1200,8,96,16,120,8").values ==
        std::vector<std::string>{"8", "16", "96", "120", "1200"});
  CHECK(parse_axis("/n=0..96/32").values == std::vector<std::string>{"0", "32", "64", "96"});
  CHECK(parse_axis("/x=0:0.002:0.0005").values ==
        std::vector<std::string>{"0", "0.0005", "0.001", "0.0015", "0.002"});
  CHECK(parse_axis("/x=0.3,0:0.2:0.1").values ==
        std::vector<std::string>{"0", "0.1", "0.2", "0.3"});
  CHECK(parse_axis("/mode=time,snapshot").values == std::vector<std::string>{"time", "snapshot"});
  CHECK_THROWS_AS(parse_axis("/n=0..9/0"), InputError);
  CHECK_THROWS_AS(parse_axis("/n=0..9.5/1"), InputError);
  CHECK_THROWS_AS(parse_axis("/n=0:1e9:1"), InputError);  // more than 10,000 values
  CHECK_THROWS_AS(parse_axis("/n=5..1/1"), InputError);
}
