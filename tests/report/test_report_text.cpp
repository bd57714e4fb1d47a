// report.md / terminal wording: why ETTR and Goodput may rank strategies differently.
#include <doctest/doctest.h>

#include "sim/report/report.hpp"
#include "sim/report/report_html.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;

namespace {

StrategySummary summary(const std::string& name, double goodput, double ettr, double degraded,
                        double reshard) {
  StrategySummary s;
  s.name = name;
  s.goodput.mean = goodput;
  s.ettr.mean = ettr;
  s.badput[static_cast<int>(Bucket::DegradedCapacity)].mean = degraded;
  s.badput[static_cast<int>(Bucket::ReshardOverhead)].mean = reshard;
  return s;
}

}  // namespace

TEST_CASE("a note says why ETTR ranks a strategy above one with more Goodput") {
  // ntp trains 97% of the time but 2.5 pp of it is lost to reduced capacity: Goodput 94.5%.
  const std::vector<StrategySummary> s = {summary("dp_drop", 0.955, 0.956, 0.001, 0),
                                          summary("ntp", 0.945, 0.970, 0.020, 0.005),
                                          summary("checkpoint_restart", 0.75, 0.75, 0, 0)};
  const auto notes = ettr_goodput_notes(s);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("ETTR ranks ntp above dp_drop (97.00% vs 95.60%)") == 0);
  CHECK(notes[0].find("Goodput ranks it below (94.50% vs 95.50%)") != std::string::npos);
  CHECK(notes[0].find("RESHARD_OVERHEAD: 2.50% of wall time") != std::string::npos);
  // Against the best of several it outranks on ETTR.
  auto more = s;
  more.push_back(summary("hot_spares", 0.96, 0.961, 0, 0));
  const auto two = ettr_goodput_notes(more);
  REQUIRE(two.size() == 1);
  CHECK(two[0].find("ETTR ranks ntp above hot_spares") == 0);
}

TEST_CASE("no note when both rankings agree or the gap is within 0.05 pp") {
  CHECK(
      ettr_goodput_notes({summary("a", 0.96, 0.97, 0, 0), summary("b", 0.95, 0.96, 0, 0)}).empty());
  CHECK(ettr_goodput_notes({summary("a", 0.96, 0.9600, 0, 0), summary("b", 0.95, 0.9604, 0, 0)})
            .empty());
}

TEST_CASE("every strategy against the baseline, paired over the same failures") {
  const RunPlan plan = make_plan(test::small_at({}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 2));
  REQUIRE(rep.baseline);  // checkpoint_restart by default, when compared
  CHECK(rep.strategies[*rep.baseline].name == "checkpoint_restart");
  for (std::size_t i = 0; i < rep.strategies.size(); ++i) {
    CAPTURE(rep.strategies[i].name);
    double sum = 0;  // the paired mean, from the runs themselves
    for (std::size_t r = 0; r < rep.runs[i].runs.size(); ++r)
      sum += rep.runs[i].runs[r].goodput - rep.runs[*rep.baseline].runs[r].goodput;
    const Summary& d = rep.strategies[i].difference_vs_baseline;
    CHECK(d.mean == doctest::Approx(sum / static_cast<double>(rep.runs[i].runs.size())));
    CHECK(d.n == rep.runs[i].runs.size());
    if (i == *rep.baseline) CHECK(d.mean == 0);
  }
  const Json j = report_json(rep);
  CHECK(j["baseline"] == "checkpoint_restart");
  CHECK(j["strategies"]["dp_drop"]["goodput_minus_baseline"]["mean"].get<double>() ==
        rep.strategies[1].difference_vs_baseline.mean);
  const std::string md = report_markdown(rep);
  CHECK(md.find("## Against the baseline (checkpoint_restart)") != std::string::npos);
  CHECK(md.find("| dp_drop | ") != std::string::npos);
  CHECK(report_html(rep).find("vs checkpoint_restart (pp, paired)") != std::string::npos);

  // Another baseline, as --baseline sets it.
  const RunPlan other = make_plan(test::small_at({"/report/baseline=hot_spares"}));
  const Report r2 = build_report(other, run_monte_carlo(other, 2));
  REQUIRE(r2.baseline);
  CHECK(r2.strategies[*r2.baseline].name == "hot_spares");
  CHECK(report_markdown(r2).find("## Against the baseline (hot_spares)") != std::string::npos);
}

TEST_CASE(
    "the baseline must be a compared strategy, and without checkpoint_restart there is none") {
  CHECK_THROWS_WITH_AS(
      test::small_at({"/report/baseline=dp_dorp"}),
      doctest::Contains("/report/baseline: 'dp_dorp' is not among the compared strategies "
                        "(checkpoint_restart, dp_drop, hot_spares) (did you mean 'dp_drop'?)"),
      InputError);
  const RunPlan plan = make_plan(test::small_at({"/strategies={\"dp_drop\": {}, \"ntp\": {}}"}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 2));
  CHECK_FALSE(rep.baseline);
  CHECK(report_json(rep)["baseline"].is_null());
  CHECK(report_markdown(rep).find("Against the baseline") == std::string::npos);
}

TEST_CASE("a snapshot report leaves out what needs a time axis") {
  const RunPlan plan =
      make_plan(test::small_at({"/mode=snapshot", "/failures/failed_fraction=0.05"}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 2));
  const std::string md = report_markdown(rep);
  CHECK(md.find("| strategy | Goodput | vs winner (pp) | per provisioned GPU |\n") !=
        std::string::npos);
  CHECK(md.find("ETTR") == std::string::npos);
  CHECK(md.find("interruptions") == std::string::npos);
  CHECK(md.find("## Time in state") == std::string::npos);
  CHECK(md.find("UNPRODUCTIVE_CHECKPOINT_SAVE_TIME") ==
        std::string::npos);  // never in a steady state
  CHECK(md.find("share of the failure-free throughput") != std::string::npos);
  CHECK(terminal_table(rep).find("ETTR") == std::string::npos);
  const std::string html = report_html(rep);
  CHECK(html.find("<th>ETTR %</th>") == std::string::npos);
  CHECK(html.find("id=\"states\"") == std::string::npos);
  // The time-mode report keeps them.
  const RunPlan timed = make_plan(test::small_at({}));
  const Report tr = build_report(timed, run_monte_carlo(timed, 2));
  CHECK(report_markdown(tr).find("| ETTR | interruptions | checkpoints |") != std::string::npos);
  CHECK(report_markdown(tr).find("## Time in state") != std::string::npos);
  CHECK(report_html(tr).find("<th>ETTR %</th>") != std::string::npos);
}

TEST_CASE("the verdict names no loss when nothing is lost") {
  const RunPlan plan =
      make_plan(test::small_at({"/failures/rate_scale=0", "/checkpoint/interval=none"}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 2));
  CHECK(verdict_paragraph(rep, false).find("loses most") == std::string::npos);
}
