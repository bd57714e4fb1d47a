// Answers in the reader's units (issue 30, item 3): separators, money in the scenario's currency
// rounded to its CI, durations, plurals, /report/currency validated; the intro built from the
// resolved scenario, overrides included; the verdict's days and money saved.
#include <doctest/doctest.h>

#include <cmath>

#include "sim/core/currency.hpp"
#include "sim/report/report.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/units_text.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

Summary summary(double mean, double ci, std::size_t n = 10) {
  Summary s;
  s.mean = mean;
  s.ci95 = ci;
  s.n = n;
  return s;
}

}  // namespace

TEST_CASE("units: thousands separators, rounding and the sign") {
  CHECK(with_separators(0, 0) == "0");
  CHECK(with_separators(999, 0) == "999");
  CHECK(with_separators(1000, 0) == "1,000");
  CHECK(with_separators(1234567.891, 2) == "1,234,567.89");
  CHECK(with_separators(-1234567.4, 0) == "-1,234,567");
  CHECK(with_separators(-0.004, 2) == "0.00");  // no "-0.00"
  CHECK(with_separators(999999.5, 0) == "1,000,000");
  CHECK(with_separators(INFINITY, 0) == "infinite");
}

TEST_CASE("units: a mean and its CI are rounded to two significant digits of the CI") {
  CHECK(ci_decimals(3.29e7, 5.238e4) == -3);
  CHECK(number_ci(summary(32903456.0, 52380.0)) == "32,903,000 ± 52,000");
  CHECK(number_ci(summary(12.3456, 0.0123)) == "12.346 ± 0.012");
  CHECK(number_ci(summary(12.3456, 0.0123, 1)) == "12.35");  // one run: 4 significant digits
  CHECK(number_ci(summary(0, 0)) == "0.000");
  // Never more than 7 significant digits of the mean, however small the CI.
  CHECK(number_ci(summary(32903456.0, 0.001)) == "32,903,460 ± 0");
}

TEST_CASE("units: money in the scenario's currency, with separators, its CI and negatives") {
  CHECK(money(32903456.4, "USD") == "32,903,456 USD");
  CHECK(money(32903456.4, "$") == "$32,903,456");
  CHECK(money(-1234.6, "$") == "-$1,235");  // the sign before the symbol
  CHECK(money(-1234.6, "EUR") == "-1,235 EUR");
  CHECK(money(2.5, "€") == "€2.50");
  CHECK(money_ci(summary(3.29e7, 5.238e4), "$") == "$32,900,000 ± $52,000");
  CHECK(money_ci(summary(3.29e7, 5.238e4), "USD") == "32,900,000 ± 52,000 USD");
  CHECK(money_ci(summary(-3.29e7, 5.238e4), "USD") == "-32,900,000 ± 52,000 USD");
  CHECK(money_ci(summary(2.6543, 0.0012), "$") == "$2.6543 ± $0.0012");
  CHECK(money_ci(summary(32903456.0, 0, 1), "$") == "$32,903,456");  // one run: no ±
  CHECK(money_short(2.04e6, "$") == "$2.0M");
  CHECK(money_short(-2.04e6, "$") == "-$2.0M");
  CHECK(money_short(1.25e9, "USD") == "1.2B USD");
  CHECK(money_short(350400, "£") == "£350k");
  CHECK(money_short(12.345, "$") == "$12.35");
  CHECK(money_short(1234, "$") == "$1,234");
}

TEST_CASE("units: /report/currency takes a code or a short symbol") {
  CHECK(currency_problem("USD").empty());
  CHECK(currency_problem("$").empty());
  CHECK(currency_problem("€").empty());
  CHECK(currency_problem("R$").empty());
  CHECK_FALSE(currency_problem("").empty());
  CHECK(currency_problem("usd").find("ISO 4217") != std::string::npos);
  CHECK(currency_problem("DOLLARS").find("ISO 4217") != std::string::npos);
  CHECK_FALSE(currency_problem("$ ").empty());
  CHECK_FALSE(currency_problem("1$").empty());
  CHECK_FALSE(currency_problem("|").empty());
  CHECK_FALSE(currency_problem("$$$$$").empty());
  CHECK(is_currency_code("EUR"));
  CHECK_FALSE(is_currency_code("€"));
  // The loader refuses a bad one, naming the key.
  try {
    small_at({"/report/currency=\"us dollars\""});
    FAIL("a bad currency was accepted");
  } catch (const InputError& e) {
    CHECK(e.locator() == "/report/currency");
  }
  CHECK(small_at({"/report/currency=\"EUR\""}).currency == "EUR");
  CHECK(small_at({}).currency == "USD");
}

TEST_CASE("units: durations in h/min/s or days, spans of hours, plurals") {
  CHECK(seconds_text(0.456) == "0.46 s");
  CHECK(seconds_text(42.34) == "42.3 s");
  CHECK(seconds_text(725) == "12 min 05 s");
  CHECK(seconds_text(10175.672) == "2 h 50 min");
  CHECK(seconds_text(3 * 86400.0 + 7200) == "3.1 days");
  CHECK(seconds_text(-1) == "0.00 s");
  CHECK(span_text(4.6) == "4 h 36 min");
  CHECK(span_text(4.6, true) == "+4 h 36 min");
  CHECK(span_text(-45.6) == "-1.9 days");
  CHECK(span_text(0.25) == "15 min 00 s");
  CHECK(hours_text(36) == "36 h");
  CHECK(hours_text(720) == "30 days (720 h)");
  CHECK(hours_text(8760) == "365 days (8,760 h)");
  CHECK(days_text(1) == "1 day");
  CHECK(days_text(1.94) == "1.9 days");
  CHECK(counted(1, "seed") == "1 seed");
  CHECK(counted(2, "seed") == "2 seeds");
  CHECK(counted(1088, "domain") == "1,088 domains");
  CHECK(counted(3, "failure class", "failure classes") == "3 failure classes");
}

TEST_CASE("intro: built from the resolved scenario, --set included") {
  const RunPlan file = make_plan(small_at({}), 1);
  CHECK(description_applies(file.scenario));
  CHECK(description_note(file.scenario).empty());
  const std::string base = scenario_intro(file);
  CHECK(base.find("200 h") != std::string::npos);
  CHECK(base.find("'llama3' preset at 10x its rates") != std::string::npos);
  CHECK(base.find("6 runs") != std::string::npos);

  const RunPlan year = make_plan(small_at({"/horizon_hours=8760", "/failures/rate_scale=30"}), 1);
  const std::string intro = scenario_intro(year);
  CHECK(intro.find("365 days (8,760 h)") != std::string::npos);
  CHECK(intro.find("200 h") == std::string::npos);
  CHECK(intro.find("at 30x its rates") != std::string::npos);
  // The file's description ("... scaled up 10x, 200 hours") no longer describes the run.
  CHECK_FALSE(description_applies(year.scenario));
  const std::string note = description_note(year.scenario);
  CHECK(note.find("/horizon_hours (200 -> 8760)") != std::string::npos);
  CHECK(note.find("/failures/rate_scale (10 -> 30)") != std::string::npos);
  const std::string md = report_markdown(build_report(year, run_monte_carlo(year, 1)));
  CHECK(md.find("scaled up 10x, 200 hours") == std::string::npos);
  CHECK(md.find("365 days (8,760 h)") != std::string::npos);

  // Seeds, the base seed and /report change nothing a description says.
  CHECK(description_applies(small_at({"/seeds=2", "/seed=5", "/report/train_hours=100"})));
  CHECK_FALSE(description_applies(small_at({"/checkpoint/interval_s=600"})));
}

namespace {

// Every run of strategy i keeps Goodput goodput[i] (no noise: each paired lead is exact).
std::vector<StrategyRuns> fixed_runs(const RunPlan& plan, const std::vector<double>& goodput) {
  std::vector<StrategyRuns> out;
  for (std::size_t i = 0; i < plan.scenario.strategies.size(); ++i) {
    StrategyRuns r{plan.scenario.strategies[i].name, {}};
    for (int run = 0; run < 4; ++run) {
      RunMetrics m;
      m.goodput = goodput[i];
      m.wall_hours = plan.scenario.horizon_hours;
      r.runs.push_back(m);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

TEST_CASE("verdict: days and money saved against each rival when time to train is priced") {
  // 5 HGX-8 nodes = 40 GPUs at $2: the cluster costs $80 an hour. 1,000 h of training take
  // 1000/0.8 = 1,250 h (checkpoint_restart), 1000/0.9 = 1,111.1 h (dp_drop, the winner) and
  // 1000/0.85 = 1,176.5 h (hot_spares): 5.8 and 2.7 days, $11,111 and $5,229 more.
  const RunPlan plan = make_plan(
      small_at({"/report/train_hours=1000", "/report/gpu_hour_price=2", "/report/currency=\"$\""}),
      1);
  REQUIRE(cluster_price_per_hour(plan) == doctest::Approx(80));
  const Report rep = build_report(plan, fixed_runs(plan, {0.8, 0.9, 0.85}));
  REQUIRE(rep.strategies[rep.winner].name == "dp_drop");
  const std::string v = verdict_paragraph(rep, false);
  CHECK(v.find("To train 1,000 h of failure-free work, dp_drop finishes 5.8 days sooner than "
               "checkpoint_restart and saves $11k; 2.7 days sooner than hot_spares and saves "
               "$5,229 (the cluster's price).") != std::string::npos);
  // The table beside it: money in the currency, with separators.
  const std::string md = report_markdown(rep);
  CHECK(md.find("| $100,000 |") != std::string::npos);  // checkpoint_restart: 1,250 h x $80
  CHECK(md.find("at $2.00 per GPU-hour") != std::string::npos);

  // Without a price: days only. Without a target: nothing.
  const RunPlan unpriced = make_plan(small_at({"/report/train_hours=1000"}), 1);
  const std::string u =
      verdict_paragraph(build_report(unpriced, fixed_runs(unpriced, {0.8, 0.9, 0.85})), false);
  CHECK(u.find("dp_drop finishes 5.8 days sooner than checkpoint_restart; 2.7 days") !=
        std::string::npos);
  CHECK(u.find("saves") == std::string::npos);
  const RunPlan none = make_plan(small_at({}), 1);
  CHECK(verdict_paragraph(build_report(none, fixed_runs(none, {0.8, 0.9, 0.85})), false)
            .find("To train") == std::string::npos);
}

TEST_CASE("report: energy and cost to train on the same basis, energy over the horizon labelled") {
  const RunPlan plan =
      make_plan(small_at({"/report/train_hours=1000", "/report/gpu_hour_price=2",
                          "/report/gpu_power_kw=1", "/report/energy_price_per_kwh=0.1"}),
                1);
  const Report rep = build_report(plan, run_monte_carlo(plan, 1));
  for (const auto& st : rep.strategies) {
    // energy over the time to train = energy per wall hour x time to train, per run
    CHECK(st.energy_to_train_mwh.mean > 0);
    CHECK(st.total_cost_to_train.mean ==
          doctest::Approx(st.cost_to_train.mean + st.energy_cost_to_train.mean).epsilon(1e-9));
  }
  const std::string md = report_markdown(rep);
  CHECK(md.find("| energy to train (MWh) | energy cost to train | total cost to train |") !=
        std::string::npos);
  CHECK(md.find("## Energy over the horizon") != std::string::npos);
  CHECK(md.find("energy cost over the horizon |") != std::string::npos);
  CHECK(md.find(" USD |") != std::string::npos);
}

TEST_CASE("intro: a sweep quotes the description unless a --set beyond its axes changed the run") {
  SweepOptions opt;
  opt.threads = 1;
  const std::string dir = scratch("sweep-description");
  REQUIRE(sweep_small(dir, "/cluster/spare_domains=0,1", opt, {"/seeds=1"}).complete);
  const std::string md = slurp(std::filesystem::path(dir) / "report.md");
  CHECK(md.find("Test scenario: five HGX-8 nodes") != std::string::npos);  // the axis: on purpose
  const std::string set = scratch("sweep-description-set");
  REQUIRE(sweep_small(set, "/cluster/spare_domains=0,1", opt, {"/seeds=1", "/horizon_hours=50"})
              .complete);
  const std::string md2 = slurp(std::filesystem::path(set) / "report.md");
  CHECK(md2.find("Test scenario: five HGX-8 nodes") == std::string::npos);
  CHECK(md2.find("this run changes /horizon_hours (200 -> 50)") != std::string::npos);
  CHECK(md2.find("/cluster/spare_domains (") == std::string::npos);
}
