#include "sim/sweep/sweep_report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/csv_cell.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/runs_csv.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/report/text_util.hpp"
#include "sim/sweep/goal_seek.hpp"
#include "sim/sweep/seek_html.hpp"
#include "sim/sweep/sweep_html.hpp"

namespace goodput {

namespace {

// The "Goal seek" section: the answer, the rule and the assumption, then every evaluation.
std::string seek_markdown(const Json& k) {
  std::ostringstream s;
  const StrategyMetric* metric = find_strategy_metric(k.at("metric").get<std::string>());
  auto value = [&](const Json& x) {
    return metric ? format_metric_value(*metric, x.get<double>(), 4) : x.dump();
  };
  const bool ci = k.at("bound").get<std::string>() != "mean";
  std::string answer = seek_answer_text(k, true);
  answer[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(answer[0])));
  s << "\n## Goal seek\n\n"
    << answer << ".\n\nRule: a value meets the target when "
    << (ci ? "the " + k.at("bound").get<std::string>() + " of the strategy's metric (mean " +
                 (k.at("comparison") == ">=" ? "-" : "+") + " 95% CI half-width across seeds) "
           : std::string("the mean (one seed per point: no confidence interval) "))
    << "is " << k.at("comparison").get<std::string>() << " the target. Found by bisection over ["
    << k.at("min").dump() << ", " << k.at("max").dump()
    << "] (the maximum first, then the minimum, then halving), assuming "
    << k.at("assumption").get<std::string>() << ".\n\n| evaluated | `"
    << k.at("pointer").get<std::string>() << "` | " << k.at("metric").get<std::string>()
    << " mean |" << (ci ? " ± 95% CI | bound |" : "") << " meets |\n|---|---|---|"
    << (ci ? "---|---|" : "") << "---|\n";
  int i = 0;
  for (const auto& e : k.at("evaluated")) {
    s << "| " << ++i << " | " << e.at("value").dump() << " | " << value(e.at("mean")) << " |";
    if (ci) s << " " << value(e.at("ci95")) << " | " << value(e.at("bound")) << " |";
    s << " " << (e.at("meets").get<bool>() ? "yes" : "no") << " |\n";
  }
  if (k.at("answer").is_null()) s << "\nWhy there is no answer: " << seek_reason(k) << ".\n";
  if (k.contains("warnings"))
    for (const auto& w : k.at("warnings")) s << "\nWarning: " << w.get<std::string>() << ".\n";
  return s.str();
}

std::string sweep_markdown(const Sweep& sw) {
  std::ostringstream s;
  const Scenario& sc = sw.points.front().plan.scenario;
  s << "# goodput sweep: " << sc.name << "\n\n";
  std::vector<std::string> axes;  // what the sweep varies on purpose
  for (const auto& a : sw.axes) axes.push_back(a.pointer);
  if (!description_applies(sc, axes))
    s << "*" << description_note(sc, axes) << "*\n\n";
  else if (!sc.description.empty())
    s << sc.description << "\n\n";
  bool vary = false;  // --seeds auto: seeds differ per point, so show them
  for (const auto& pt : sw.points) vary = vary || pt.plan.scenario.seeds != sc.seeds;
  s << "Axes:";
  for (const auto& a : sw.axes) s << " `" << a.pointer << "`";
  const char* unit = sc.mode == RunMode::Snapshot ? " placements" : " seeds";
  s << ". Each point is a full run of "
    << (vary ? std::string("as many") + unit +
                   " as its `seeds` column says (added until the CI target was met)"
             : std::to_string(sc.seeds) + unit)
    << "; Goodput mean ± 95% CI, and the largest loss bucket. Full reports per point in "
       "`point-NNN/`.\n\n| point |";
  for (const auto& a : sw.axes) s << " `" << a.pointer << "` |";
  if (vary) s << " seeds |";
  for (const auto& st : sw.points.front().report.strategies) s << " " << st.name << " |";
  s << "\n|---|";
  for (std::size_t i = 0;
       i < sw.axes.size() + sw.points.front().report.strategies.size() + (vary ? 1 : 0); ++i)
    s << "---|";
  s << "\n";
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    s << "| " << fmt("%03.0f", static_cast<double>(p)) << " |";
    for (const auto& v : sw.points[p].values) s << " " << v << " |";
    if (vary) s << " " << sw.points[p].plan.scenario.seeds << " |";
    for (const auto& st : sw.points[p].report.strategies) {
      int top = 0;
      for (int b = 1; b < kBucketCount; ++b)
        if (st.badput[b].mean > st.badput[top].mean) top = b;
      s << " " << fmt("%.2f", 100 * st.goodput.mean) << " ± " << fmt("%.2f", 100 * st.goodput.ci95)
        << "%";
      if (st.badput[top].mean > 5e-5)
        s << " (" << bucket_name(static_cast<Bucket>(top)) << " "
          << fmt("%.2f", 100 * st.badput[top].mean) << "%)";
      s << " |";
    }
    s << "\n";
  }
  // What the hardware paid for keeps: a sweep over spare domains shows their cost here.
  s << "\nGoodput per provisioned GPU (Goodput x the job's GPUs / every GPU of the cluster, spare "
       "domains included), mean over seeds:\n\n| point |";
  for (const auto& st : sw.points.front().report.strategies) s << " " << st.name << " |";
  s << "\n|---|";
  for (std::size_t i = 0; i < sw.points.front().report.strategies.size(); ++i) s << "---|";
  s << "\n";
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    s << "| " << fmt("%03.0f", static_cast<double>(p)) << " |";
    for (const auto& st : sw.points[p].report.strategies)
      s << " " << fmt("%.2f", 100 * st.goodput_per_provisioned_gpu.mean) << "% |";
    s << "\n";
  }
  if (!sw.seek.is_null()) s << seek_markdown(sw.seek);
  s << "\nCharts: [report.html](report.html) (Goodput vs each axis with 95% CI bands; opens "
       "offline).\n";
  s << "\nFiles: `points.csv` (tidy: one row per point x strategy x seed), `sweep.json` (per point "
       "and strategy).\n";
  if (!sw.command.empty()) s << "\n" << command_markdown(sw.command);
  return s.str();
}

}  // namespace

namespace {

bool as_number(const std::string& v, double& x) {
  char* end = nullptr;
  x = std::strtod(v.c_str(), &end);
  return !v.empty() && end && *end == '\0' && std::isfinite(x);
}

struct Range {
  double from = 0, step = 0;
  int count = 0;  // 0: not a range
};

// "a:b:step" (inclusive, any numbers) or "a..b/step" (integers); count 0 when `v` is neither.
Range parse_range(const std::string& v, const std::string& text) {
  double a = 0, b = 0, step = 0;
  bool ints = false;
  const auto dots = v.find("..");
  if (dots != std::string::npos) {
    const auto slash = v.find('/', dots);
    if (slash == std::string::npos || !as_number(v.substr(0, dots), a) ||
        !as_number(v.substr(dots + 2, slash - dots - 2), b) ||
        !as_number(v.substr(slash + 1), step))
      throw InputError("--axis", text, "expected a range FROM..TO/STEP of integers, e.g. 0..96/8");
    ints = true;
  } else {
    const auto c1 = v.find(':');
    if (c1 == std::string::npos) return {};
    const auto c2 = v.find(':', c1 + 1);
    if (c2 == std::string::npos || !as_number(v.substr(0, c1), a) ||
        !as_number(v.substr(c1 + 1, c2 - c1 - 1), b) || !as_number(v.substr(c2 + 1), step))
      throw InputError("--axis", text, "expected a range FROM:TO:STEP, e.g. 0:0.004:0.0005");
  }
  if (ints && (a != std::floor(a) || b != std::floor(b) || step != std::floor(step)))
    throw InputError("--axis", text,
                     "FROM..TO/STEP takes integers; use FROM:TO:STEP for fractions");
  if (!(step > 0) || b < a)
    throw InputError("--axis", text, "a range needs FROM <= TO and a step > 0");
  const double count = std::floor((b - a) / step * (1 + 1e-12)) + 1;
  if (count > 10000) throw InputError("--axis", text, "more than 10,000 values in one range");
  return {a, step, static_cast<int>(count)};
}

std::vector<std::string> expand_range(const Range& r) {
  std::vector<std::string> out;
  for (int i = 0; i < r.count; ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12g",
                  r.from + i * r.step);  // 12 digits: no 0.30000000000000004
    out.push_back(buf);
  }
  return out;
}

// The text after '=' of "/json/pointer=v1,v2,...", checked like parse_axis checks it; each item
// (a value or a range) goes to `take`.
template <class Take>
void for_each_axis_item(const std::string& text, Take&& take) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || text[0] != '/')
    throw InputError("--axis", text,
                     "expected /json/pointer=v1,v2,... (or a range: FROM:TO:STEP, FROM..TO/STEP)");
  std::string cur;
  auto item = [&] {
    if (cur.empty()) throw InputError("--axis", text, "empty value in the list");
    take(cur, parse_range(cur, text));
    cur.clear();
  };
  for (char c : text.substr(eq + 1)) {
    if (c == ',')
      item();
    else
      cur += c;
  }
  item();
}

}  // namespace

double count_axis_values(const std::string& text) {
  double n = 0;
  for_each_axis_item(text, [&](const std::string&, const Range& r) { n += r.count ? r.count : 1; });
  return n;
}

SweepAxis parse_axis(const std::string& text) {
  SweepAxis a;
  a.pointer = text.substr(0, text.find('='));
  for_each_axis_item(text, [&](const std::string& v, const Range& r) {
    if (r.count == 0) {
      a.values.push_back(v);
    } else {
      const auto range = expand_range(r);
      a.values.insert(a.values.end(), range.begin(), range.end());
    }
  });
  // All numbers: numeric order, each value once (so points and charts read 8, 16, 96, 120, 1200).
  std::vector<std::pair<double, std::string>> nums;
  for (const auto& v : a.values) {
    double x = 0;
    if (!as_number(v, x)) return a;
    nums.emplace_back(x, v);
  }
  std::stable_sort(nums.begin(), nums.end(),
                   [](const auto& l, const auto& r) { return l.first < r.first; });
  a.values.clear();
  for (std::size_t i = 0; i < nums.size(); ++i)
    if (i == 0 || nums[i].first != nums[i - 1].first) a.values.push_back(nums[i].second);
  return a;
}

std::vector<std::vector<std::string>> axis_product(const std::vector<SweepAxis>& axes) {
  std::vector<std::vector<std::string>> out{{}};
  for (const auto& a : axes) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : out)
      for (const auto& v : a.values) {
        auto p = prefix;
        p.push_back(v);
        next.push_back(p);
      }
    out = next;
  }
  return out;
}

namespace {

// A point's strategy in sweep.json: the metrics the table declares for it (strategy_metrics.hpp),
// those at the top level first, then the sections (badput).
Json point_strategy_json(const StrategySummary& st, RunMode mode) {
  Json out = Json::object();
  for (const bool top : {true, false})
    for (const StrategyMetric& m : strategy_metrics()) {
      if (!m.sweep || m.json.empty() || !in_modes(m.json_modes, mode) || m.top_level() != top)
        continue;
      const Summary& v = m.get(st);
      out[Json::json_pointer(m.json)] =
          m.json_ci95.empty() ? Json{{"mean", v.mean}, {"ci95", v.ci95}} : Json(v.mean);
    }
  return out;
}

}  // namespace

void write_sweep_files(const Sweep& sw, const std::filesystem::path& tmp) {
  make_folder(tmp);
  // points.csv: runs.csv's columns (runs_csv.hpp) after the point and its axis values.
  std::string csv = "point";
  for (const auto& a : sw.axes) csv += "," + csv_cell(a.pointer);
  csv += "," + runs_csv_header(sw.points.front().plan.scenario) + "\n";
  Json points = Json::array();
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    const SweepPoint& pt = sw.points[p];
    Json jp;
    jp["point"] = p;
    Json values = Json::object();
    for (std::size_t a = 0; a < sw.axes.size(); ++a) {
      Json v = Json::parse(pt.values[a], nullptr, false);
      values[sw.axes[a].pointer] = v.is_discarded() ? Json(pt.values[a]) : v;
    }
    jp["values"] = values;
    jp["seeds"] = pt.plan.scenario.seeds;
    Json strategies = Json::object();
    for (std::size_t si = 0; si < pt.report.strategies.size(); ++si) {
      const auto& st = pt.report.strategies[si];
      strategies[st.name] = point_strategy_json(st, pt.plan.scenario.mode);
      const auto& runs = pt.report.runs[si].runs;
      for (std::size_t r = 0; r < runs.size(); ++r) {
        csv += std::to_string(p);
        for (const auto& v : pt.values) csv += "," + csv_cell(v);
        csv += "," + runs_csv_row(pt.plan.scenario, st.name, r, runs[r]) + "\n";
      }
    }
    jp["strategies"] = strategies;
    points.push_back(jp);
    Report point_report = pt.report;  // the sweep's report.html covers the points
    point_report.html = false;
    write_report_files(point_report, tmp / ("point-" + fmt("%03.0f", static_cast<double>(p))));
  }
  Json axes = Json::array();
  for (const auto& a : sw.axes) axes.push_back({{"pointer", a.pointer}, {"values", a.values}});
  Json j = {{"schema_version", kReportSchemaVersion},
            {"tool", {{"name", "goodput"}, {"version", kToolVersion}}},
            {"command", sw.command.empty() ? Json(nullptr) : command_json(sw.command)},
            {"scenario_file", sw.scenario_file},
            {"axes", axes},
            {"points", points}};
  if (!sw.seek.is_null()) j["seek"] = sw.seek;
  write_file(tmp / "sweep.json", j.dump(2) + "\n");
  write_file(tmp / "points.csv", csv);
  write_file(tmp / "report.md", sweep_markdown(sw));
  write_file(tmp / "report.html", sweep_html(sw));
}

void write_sweep(const Sweep& sw, const std::string& directory) {
  OutputDir out(directory, "--out");
  write_sweep_files(sw, out.staging());
  out.publish();
}

}  // namespace goodput
