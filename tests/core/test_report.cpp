#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/report/report.hpp"
#include "sim/report/runs_csv.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;

namespace {
std::string report_bytes(const Json& j, int threads) {
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  const Report r = build_report(plan, run_monte_carlo(plan, threads));
  return report_json(r).dump(2) + runs_csv(r) + report_markdown(r);
}
}  // namespace

TEST_CASE("same seed, same bytes, whatever the thread count, another seed differs") {
  Json j = Json::parse(R"({
    "horizon_hours": 300, "seeds": 6,
    "cluster": {"preset": "gb200-nvl72", "spare_domains": 1},
    "job": {"tp": 64, "pp": 2, "dp": 4},
    "failures": {"preset": "pessimistic", "rate_scale": 20},
    "strategies": {"checkpoint_restart": {}, "dp_drop": {}, "hot_spares": {}}
  })");
  const std::string one = report_bytes(j, 1);
  CHECK(one == report_bytes(j, 3));
  CHECK(one == report_bytes(j, 1));
  j["seed"] = 2;
  CHECK(one != report_bytes(j, 2));
}

TEST_CASE("report.json carries the contract keys") {
  const RunPlan plan = make_plan(goodput::test::scenario_from(goodput::test::small_scenario()));
  const Report r = build_report(plan, run_monte_carlo(plan, 1));
  const Json j = report_json(r);
  CHECK(j["schema_version"] == kReportSchemaVersion);
  CHECK(j["seeds"] == 1);
  CHECK(j["scenario"]["job"]["tp"] == 8);
  for (const char* s : {"checkpoint_restart", "dp_drop", "hot_spares"}) {
    CAPTURE(s);
    CHECK(j["strategies"][s]["goodput"].contains("mean"));
    CHECK(j["strategies"][s]["goodput"].contains("ci95"));
    double sum = j["strategies"][s]["goodput"]["mean"].get<double>();
    for (const auto& [k, v] : j["strategies"][s]["badput"].items()) sum += v.get<double>();
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
  }
}

namespace {
// A report over hand-made per-seed Goodput values for two strategies.
Report two_strategies(const RunPlan& plan, std::vector<double> a, std::vector<double> b) {
  std::vector<StrategyRuns> runs(2);
  runs[0].strategy = "checkpoint_restart";
  runs[1].strategy = "dp_drop";
  auto metrics = [](double g) {
    RunMetrics m;
    m.goodput = g;
    m.wall_hours = 100;
    return m;
  };
  for (double g : a) runs[0].runs.push_back(metrics(g));
  for (double g : b) runs[1].runs.push_back(metrics(g));
  return build_report(plan, std::move(runs));
}
}  // namespace

TEST_CASE(
    "the verdict names a winner only over a significant paired lead, else tied, one seed: no CI") {
  Json j = goodput::test::small_scenario();
  j["strategies"] = Json::parse(R"({"checkpoint_restart": {}, "dp_drop": {}})");
  j["seeds"] = 4;
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  // dp_drop ahead by exactly 1 pp on every seed: the paired CI has zero width.
  const Report ahead = two_strategies(plan, {0.90, 0.91, 0.92, 0.93}, {0.91, 0.92, 0.93, 0.94});
  CHECK(ahead.decided);
  CHECK(verdict_paragraph(ahead, false).rfind("dp_drop keeps the most useful training", 0) == 0);
  CHECK(report_json(ahead)["verdict"]["significant"] == true);
  // Ahead on average, but the paired differences straddle 0: tied.
  const Report tie = two_strategies(plan, {0.90, 0.95, 0.90, 0.95}, {0.92, 0.93, 0.92, 0.94});
  CHECK(!tie.decided);
  const std::string v = verdict_paragraph(tie, false);
  CHECK(v.find("are tied at the top") != std::string::npos);
  CHECK(v.find("keeps the most") == std::string::npos);
  CHECK(report_json(tie)["verdict"]["statement"] == "tied (paired 95% CI includes 0)");
  CHECK(verdict_paragraph(tie, true).find("**") != std::string::npos);  // markdown only when asked
  CHECK(v.find("**") == std::string::npos);
  // One seed: never "± 0.00", never a winner.
  j["seeds"] = 1;
  const RunPlan one_plan = make_plan(goodput::test::scenario_from(j));
  const Report one = two_strategies(one_plan, {0.90}, {0.95});
  CHECK(!one.decided);
  CHECK(verdict_paragraph(one, false).find("no confidence interval") != std::string::npos);
  CHECK(report_markdown(one).find("± 0.00") == std::string::npos);
}

TEST_CASE("the verdict says when another strategy wins most of the plausible worlds") {
  Json j = goodput::test::small_scenario();
  j["strategies"] = Json::parse(R"({"checkpoint_restart": {}, "dp_drop": {}})");
  j["seeds"] = 4;
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  Report rep = two_strategies(plan, {0.90, 0.91, 0.92, 0.93}, {0.91, 0.92, 0.93, 0.94});
  REQUIRE(rep.decided);  // dp_drop wins this run
  const std::string plain = verdict_paragraph(rep, false);
  CHECK(plain.find("however") == std::string::npos);  // no robustness line: nothing to add
  rep.depends_on_json = {
      {"robustness",
       {{"points", 16}, {"wins", {{"checkpoint_restart", 12}, {"dp_drop", 3}}}, {"tied", 1}}}};
  CHECK(verdict_paragraph(rep, false) ==
        plain +
            " Over the plausible ranges of the uncertain inputs, however, checkpoint_restart "
            "wins most often: in 12 of 16 sampled worlds, dp_drop in 3.");
  // The run's winner also wins most of the worlds, or as many as any other: nothing to add.
  rep.depends_on_json["robustness"]["wins"] = {{"checkpoint_restart", 3}, {"dp_drop", 12}};
  CHECK(verdict_paragraph(rep, false) == plain);
  rep.depends_on_json["robustness"]["wins"] = {{"checkpoint_restart", 7}, {"dp_drop", 7}};
  CHECK(verdict_paragraph(rep, false) == plain);
}

TEST_CASE("time and cost to train: train_hours / Goodput per run, for the whole cluster") {
  Json j = goodput::test::small_scenario();  // 4 HGX-8 nodes: 32 GPUs
  j["strategies"] = Json::parse(R"({"checkpoint_restart": {}, "dp_drop": {}})");
  j["seeds"] = 2;
  j["report"] = {{"train_hours", 720}, {"gpu_hour_price", 2.5}};
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  const Report rep = two_strategies(plan, {0.90, 0.80}, {0.96, 0.96});
  const StrategySummary& cr = rep.strategies[0];
  CHECK(cr.time_to_train_hours.mean == doctest::Approx((720 / 0.90 + 720 / 0.80) / 2));
  CHECK(cr.gpu_hours_to_train.mean == doctest::Approx(32 * (720 / 0.90 + 720 / 0.80) / 2));
  CHECK(cr.cost_to_train.mean == doctest::Approx(2.5 * 32 * (720 / 0.90 + 720 / 0.80) / 2));
  CHECK(rep.strategies[1].time_to_train_hours.mean == doctest::Approx(750));
  const Json out = report_json(rep);
  CHECK(out["strategies"]["dp_drop"]["time_to_train"]["wall_hours"]["mean"].get<double>() ==
        doctest::Approx(750));
  CHECK(report_markdown(rep).find("## Time and cost to train") != std::string::npos);
  // Not asked for: no section.
  j["report"] = Json::object();
  const RunPlan bare = make_plan(goodput::test::scenario_from(j));
  CHECK(report_markdown(two_strategies(bare, {0.9, 0.8}, {0.9, 0.8})).find("Time and cost") ==
        std::string::npos);
}

TEST_CASE("GPU prices: capex over a lifetime, spare domains at their own price, errors named") {
  Json j = goodput::test::small_scenario();  // 32 GPUs: the job's 3 nodes and one spare node
  j["strategies"] = Json::parse(R"({"checkpoint_restart": {}, "dp_drop": {}})");
  j["seeds"] = 2;
  j["report"] = {{"train_hours", 720},
                 {"gpu_capex", 43830},
                 {"gpu_lifetime_years", 5},
                 {"spare_gpu_hour_price", 0.25}};
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  CHECK(plan.scenario.gpu_hour_price == doctest::Approx(43830.0 / (5 * 8766)));  // 1 per hour
  REQUIRE(spare_gpus(plan) == 8);
  CHECK(cluster_price_per_hour(plan) == doctest::Approx(24 * 1.0 + 8 * 0.25));
  const Report rep = two_strategies(plan, {0.90, 0.80}, {0.96, 0.96});
  CHECK(rep.strategies[0].cost_to_train.mean ==
        doctest::Approx(26.0 * (720 / 0.90 + 720 / 0.80) / 2));
  const Json out = report_json(rep);
  CHECK(out["prices"]["cluster_per_hour"].get<double>() == doctest::Approx(26.0));
  CHECK(out["prices"]["gpu_capex"].get<double>() == 43830);
  const std::string md = report_markdown(rep);
  // Money in /report/currency (default USD), with separators (issue 30 item 3).
  CHECK(md.find("capex 43,830 USD per GPU written off over 5 years") != std::string::npos);
  CHECK(md.find("its 8 spare-domain GPUs at 0.25 USD: 26.00 USD per hour") != std::string::npos);
  // Without a spare price, spares cost what every GPU-hour costs.
  j["report"].erase("spare_gpu_hour_price");
  const RunPlan same = make_plan(goodput::test::scenario_from(j));
  CHECK(cluster_price_per_hour(same) == doctest::Approx(32.0));
  // Both prices, or a spare price alone: errors naming the key.
  j["report"]["gpu_hour_price"] = 2;
  CHECK_THROWS_WITH_AS(goodput::test::scenario_from(j), doctest::Contains("/report/gpu_capex"),
                       InputError);
  j["report"] = {{"spare_gpu_hour_price", 1}};
  CHECK_THROWS_WITH_AS(goodput::test::scenario_from(j),
                       doctest::Contains("/report/spare_gpu_hour_price"), InputError);
}

TEST_CASE("run to completion: exact without failures, percentiles nearest-rank, unfinished runs") {
  Json j = goodput::test::small_scenario();
  j["strategies"] = Json::parse(R"({"checkpoint_restart": {}, "dp_drop": {}})");
  j["checkpoint"] = {{"interval", "none"}};
  j["report"] = {{"train_hours", 40}};
  {
    // No failures, no checkpoints: progress runs at 1, so the target is reached at 40 h exactly.
    const RunPlan plan = make_plan(goodput::test::scenario_from(j));
    for (const auto& sr : run_monte_carlo(plan, 1))
      for (const RunMetrics& m : sr.runs) CHECK(m.completion_hours == doctest::Approx(40.0));
    CHECK(runs_csv_header(plan.scenario).find(",completion_hours") != std::string::npos);
  }
  {
    // Blocking checkpoint saves (60 s every hour) do not train: completion is later, and a run
    // cut at that moment has made exactly the target's progress (within a millisecond).
    j["checkpoint"] = Json::parse(
        R"({"interval": "fixed", "interval_s": 3600, "save_s": 60, "save_mode": "blocking"})");
    const RunPlan plan = make_plan(goodput::test::scenario_from(j));
    const double done = run_monte_carlo(plan, 1)[0].runs[0].completion_hours;
    CHECK(done > 40.5);
    Json cut = j;
    cut["horizon_hours"] = done;
    cut["report"] = Json::object();
    const RunPlan at = make_plan(goodput::test::scenario_from(cut));
    const RunMetrics m = run_monte_carlo(at, 1)[0].runs[0];
    CHECK(m.goodput * done * 3600 == doctest::Approx(40 * 3600).epsilon(1e-6));
  }
  {
    // A horizon shorter than the target: nobody finishes.
    j["horizon_hours"] = 30;
    const RunPlan plan = make_plan(goodput::test::scenario_from(j));
    const auto runs = run_monte_carlo(plan, 1);
    CHECK(runs[0].runs[0].completion_hours == -1.0);
    const CompletionSummary c = summarize_completion(runs[0].runs);
    CHECK(c.finished == 0);
    CHECK(c.p50_hours == -1.0);
  }
  // Nearest rank over every run; unfinished runs rank last.
  std::vector<RunMetrics> r(10);
  for (int i = 0; i < 10; ++i) r[static_cast<std::size_t>(i)].completion_hours = 100.0 - i;
  r[3].completion_hours = -1;  // 97 did not finish
  const CompletionSummary c = summarize_completion(r);
  CHECK(c.runs == 10);
  CHECK(c.finished == 9);
  CHECK(c.p50_hours == 95.0);   // 5th smallest of 91..96, 98..100
  CHECK(c.p90_hours == 100.0);  // 9th smallest
  CHECK(c.p99_hours == -1.0);   // the 10th: the unfinished run
  CHECK(c.mean_hours == doctest::Approx((91 + 92 + 93 + 94 + 95 + 96 + 98 + 99 + 100) / 9.0));
}

TEST_CASE("train_steps: the target in healthy steps, not together with train_hours") {
  Json j = goodput::test::small_scenario();  // step_s 10 under the proportional model
  j["report"] = {{"train_steps", 7200}};
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  CHECK(plan.scenario.train_hours == doctest::Approx(7200 * plan.cost->healthy_step_s() / 3600));
  j["report"]["train_hours"] = 5;
  CHECK_THROWS_WITH_AS(goodput::test::scenario_from(j), doctest::Contains("/report/train_steps"),
                       InputError);
}

TEST_CASE(
    "train_tokens: tokens / (dp x microbatches x micro_batch x seq_len) steps, needs a model") {
  const std::string file = std::string(GOODPUT_SOURCE_DIR) + "/scenarios/ntp-paper-nvl32.json";
  const Scenario s = load_scenario(
      file, {"/report/train_tokens=1e12", "/job/micro_batch=2", "/cost/interpolate=true"});
  const auto per_step =
      static_cast<double>(s.job.dp) * s.job.microbatches * 2 * s.job.model["seq_len"].get<double>();
  REQUIRE(s.tokens_per_step() == static_cast<std::int64_t>(per_step));
  CHECK(s.train_steps == doctest::Approx(1e12 / per_step));
  const RunPlan plan = make_plan(s);
  CHECK(plan.scenario.train_hours ==
        doctest::Approx(1e12 / per_step * plan.cost->healthy_step_s() / 3600));
  CHECK_THROWS_WITH_AS(load_scenario(file, {"/report/train_tokens=1e12", "/report/train_steps=5"}),
                       doctest::Contains("/report/train_tokens"), InputError);
  Json j = goodput::test::small_scenario();  // no /job/model
  j["report"] = {{"train_tokens", 1e9}};
  CHECK_THROWS_WITH_AS(goodput::test::scenario_from(j), doctest::Contains("needs /job/model"),
                       InputError);
}

TEST_CASE("energy: GPUs held at full power, idle ones at their share, failed ones at none, x PUE") {
  Json j = goodput::test::small_scenario();  // 32 GPUs, the job holds 24 (TP8 x DP3), 100 h
  j["strategies"] = Json::parse(R"({"checkpoint_restart": {}, "dp_drop": {}})");
  j["report"] = {{"gpu_power_kw", 1.0},
                 {"idle_power_fraction", 0.3},
                 {"pue", 1.5},
                 {"energy_price_per_kwh", 0.1},
                 {"gpu_hour_price", 2.0}};
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  const Report rep = build_report(plan, run_monte_carlo(plan, 1));
  // No failures: 24 GPUs held and 8 idle for 100 h.
  const double kwh = (24 * 100 + 0.3 * 8 * 100) * 1.0 * 1.5;
  for (std::size_t i = 0; i < rep.strategies.size(); ++i) {
    const StrategySummary& st = rep.strategies[i];
    CHECK(st.energy_mwh.mean == doctest::Approx(kwh / 1e3));
    CHECK(st.energy_cost.mean == doctest::Approx(kwh * 0.1));
    const double g = rep.runs[i].runs[0].goodput;
    CHECK(st.cost_per_useful_gpu_hour.mean ==
          doctest::Approx((32 * 100 * 2.0 + kwh * 0.1) / (g * 24 * 100)));
  }
  const Json out = report_json(rep);
  CHECK(out["strategies"]["dp_drop"]["energy"]["mwh"]["mean"].get<double>() ==
        doctest::Approx(kwh / 1e3));
  CHECK(report_markdown(rep).find("## Energy") != std::string::npos);
  // A failed GPU draws nothing: one node down for 10 h takes its 8 GPUs out of the sum.
  RunMetrics m;
  m.wall_hours = 100;
  m.gpu_hours_down = 80;
  m.spare_gpu_hours = 8 * 100 - 80;  // the job moved to the idle node meanwhile
  CHECK(energy_kwh(plan.scenario, 32, m) ==
        doctest::Approx((32 * 100 - 80 - 720 + 0.3 * 720) * 1.0 * 1.5));
  // Not asked for: no section.
  j["report"] = Json::object();
  const RunPlan bare = make_plan(goodput::test::scenario_from(j));
  CHECK(report_markdown(build_report(bare, run_monte_carlo(bare, 1))).find("## Energy") ==
        std::string::npos);
}

TEST_CASE(
    "a known checkpoint pilot gives the same plan without running it, a mismatched one is "
    "ignored") {
  const Scenario s = load_scenario(std::string(GOODPUT_SOURCE_DIR) + "/scenarios/default.json",
                                   {"/seeds=3", "/horizon_hours=240"});
  const RunPlan plan = make_plan(s);
  REQUIRE(plan.pilot.runs == 2);  // adaptive interval: the pilot ran
  REQUIRE(plan.pilot.rollbacks.size() == s.strategies.size());
  const RunPlan again = make_plan(s, 1, &plan.pilot);
  REQUIRE(again.checkpoints.size() == plan.checkpoints.size());
  for (std::size_t i = 0; i < plan.checkpoints.size(); ++i) {
    CHECK(again.checkpoints[i].interval == plan.checkpoints[i].interval);
    CHECK(again.checkpoints[i].reason == plan.checkpoints[i].reason);
    CHECK(again.checkpoints[i].rollbacks_per_hour == plan.checkpoints[i].rollbacks_per_hour);
  }
  // The given pilot is what decides: different counts give different intervals...
  RunPlan::Pilot other = plan.pilot;
  for (auto& r : other.rollbacks) r = r * 4 + 4;
  const RunPlan moved = make_plan(s, 1, &other);
  CHECK(moved.checkpoints[0].interval != plan.checkpoints[0].interval);
  // ...unless it does not fit the scenario (another pilot length): then the pilot runs.
  other.runs = 1;
  const RunPlan rerun = make_plan(s, 1, &other);
  CHECK(rerun.checkpoints[0].interval == plan.checkpoints[0].interval);
  CHECK(rerun.pilot.rollbacks == plan.pilot.rollbacks);
}

namespace {
// Runs whose every metric holds its own value (1, 2, ... in field order; +100 per run).
std::vector<RunMetrics> distinct_runs(int count) {
  std::vector<RunMetrics> runs;
  for (int run = 0; run < count; ++run) {
    Json j = run_metrics_to_json(RunMetrics{});
    int next = 1 + 100 * run;
    for (auto& [key, value] : j.items()) {
      if (value.is_array())
        for (auto& v : value) v = next++;
      else
        value = next++;
    }
    runs.push_back(run_metrics_from_json(j));
  }
  return runs;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells(1);
  for (char c : line)
    if (c == ',')
      cells.emplace_back();
    else
      cells.back() += c;
  return cells;
}
}  // namespace

// Every runs.csv column holds the run value its header names: a run metric field by its key, a
// badput bucket by its entry, time_above_failed_<x> by its threshold's entry, stall_hours as the
// mechanisms' stall hours together.
TEST_CASE("runs.csv: each column holds the value its header names") {
  Json sj = goodput::test::small_scenario();
  sj["report"]["failed_gpu_thresholds"] = {0.01, 0.05};
  sj["report"]["train_hours"] = 10;
  const Scenario sc = goodput::test::scenario_from(sj);
  RunMetrics m = distinct_runs(1)[0];
  m.time_above_failed = {0.25, 0.5};
  const auto header = split_csv(runs_csv_header(sc));
  const auto row = split_csv(runs_csv_row(sc, "dp_drop", 3, m));
  REQUIRE(header.size() == row.size());
  CHECK(row[0] == "3");
  CHECK(row[2] == "dp_drop");
  const Json j = run_metrics_to_json(m);
  int checked = 0;
  for (std::size_t c = 3; c < header.size(); ++c) {
    CAPTURE(header[c]);
    double want = -1;
    if (j.contains(header[c]) && !j[header[c]].is_array()) want = j[header[c]].get<double>();
    for (int b = 0; b < kBucketCount; ++b)
      if (header[c] == bucket_name(static_cast<Bucket>(b))) want = m.badput[b];
    if (header[c] == "time_above_failed_0.01") want = 0.25;
    if (header[c] == "time_above_failed_0.05") want = 0.5;
    if (header[c] == "stall_hours") {  // the mechanisms' stall hours together
      want = 0;
      for (double h : m.paid_stall_hours) want += h;
    }
    CHECK(want >= 0);  // every column is accounted for
    CHECK(std::stod(row[c]) == doctest::Approx(want));
    ++checked;
  }
  CHECK(checked >= kBucketCount + 15);
}

// Every per-strategy metric of the report is the mean over runs of the per-run value of the
// same name: a run metric field by its key, a badput bucket or a mechanism's count and stall
// hours by its entry, paused_hours as WAITING_FOR_CAPACITY x wall hours, stall_hours as the
// mechanisms' stall hours together. Each field of the
// hand-made runs holds its own value, so a metric filled from another field is caught.
TEST_CASE("each strategy metric summarizes the run value of its own name") {
  const RunPlan plan = make_plan(goodput::test::scenario_from(goodput::test::small_scenario()));
  std::vector<StrategyRuns> runs(1);
  runs[0].strategy = "checkpoint_restart";
  runs[0].runs = distinct_runs(2);
  const Report rep = build_report(plan, runs);
  REQUIRE(rep.strategies.size() == 1);
  const StrategySummary& s = rep.strategies[0];
  auto expected_of = [](const std::string& name, const RunMetrics& m) -> double {
    const Json j = run_metrics_to_json(m);
    if (name == "paused_hours")
      return j["badput"][static_cast<int>(Bucket::WaitingForCapacity)].get<double>() * m.wall_hours;
    if (j.contains(name)) return j[name].get<double>();
    if (name == "stall_hours") {
      double hours = 0;
      for (const auto& h : j["paid_stall_hours"]) hours += h.get<double>();
      return hours;
    }
    for (int b = 0; b < kBucketCount; ++b)
      if (name == bucket_name(static_cast<Bucket>(b))) return j["badput"][b].get<double>();
    for (int k = 0; k < kMechanismCount; ++k) {
      const std::string mech = mechanism_name(static_cast<Mechanism>(k));
      if (name == mech + "_count") return j["paid_count"][k].get<double>();
      if (name == mech + "_stall_hours") return j["paid_stall_hours"][k].get<double>();
    }
    FAIL("no run value named " << name);
    return 0;
  };
  for (const StrategyMetric& metric : strategy_metrics()) {
    CAPTURE(metric.name);
    const double want =
        (expected_of(metric.name, runs[0].runs[0]) + expected_of(metric.name, runs[0].runs[1])) / 2;
    CHECK(metric.get(s).mean == doctest::Approx(want));
    CHECK(metric.get(s).n == 2u);
    if (const RunMetricField* f = find_run_metric_field(metric.name)) {
      CHECK(metric.unit == f->unit);  // one declaration: the run field's unit and doc
      CHECK(metric.doc == f->doc);
    }
  }
}

TEST_CASE("Goodput per provisioned GPU: Goodput x job GPUs / every GPU of the cluster") {
  // No failures: Goodput is 1 (no checkpoint cost with saves off), and per provisioned GPU it is
  // the job's share of the cluster: 3 x 8 of 5 HGX-8 nodes' 40 GPUs (a fourth and fifth node
  // idle, the fifth one a spare domain).
  Json j = goodput::test::small_scenario(3, 5);
  j["checkpoint"] = {{"interval", "none"}};
  j["seeds"] = 2;
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  REQUIRE(plan.topology->gpus() == 40);
  const Report rep = build_report(plan, run_monte_carlo(plan, 1));
  for (const auto& s : rep.strategies) {
    CHECK(s.goodput.mean == doctest::Approx(1.0));
    CHECK(s.goodput_per_provisioned_gpu.mean == doctest::Approx(24.0 / 40));
  }
  // With failures, per run: exactly Goodput x 24 / 40, and below Goodput.
  j["failures"] = {{"preset", "llama3"}, {"rate_scale", 2000}};
  const RunPlan failing = make_plan(goodput::test::scenario_from(j));
  bool lost = false;
  for (const auto& sr : run_monte_carlo(failing, 1))
    for (const auto& m : sr.runs) {
      CHECK(m.goodput_per_provisioned_gpu == doctest::Approx(m.goodput * 24 / 40).epsilon(1e-12));
      lost = lost || m.goodput < 1;
    }
  CHECK(lost);
  const Json out = report_json(build_report(failing, run_monte_carlo(failing, 1)));
  CHECK(out["strategies"]["dp_drop"].contains("goodput_per_provisioned_gpu"));
}
