#include "sim/report/sweep_report.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/text_util.hpp"

namespace goodput {

namespace {



std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string sweep_markdown(const Sweep& sw) {
  std::ostringstream s;
  const Scenario& sc = sw.points.front().plan.scenario;
  s << "# goodput sweep: " << sc.name << "\n\n";
  if (!sc.description.empty()) s << sc.description << "\n\n";
  bool vary = false;  // --seeds auto: seeds differ per point, so show them
  for (const auto& pt : sw.points) vary = vary || pt.plan.scenario.seeds != sc.seeds;
  s << "Axes:";
  for (const auto& a : sw.axes) s << " `" << a.pointer << "`";
  const char* unit = sc.mode == "snapshot" ? " placements" : " seeds";
  s << ". Each point is a full run of "
    << (vary ? std::string("as many") + unit + " as its `seeds` column says (added until the CI target was met)"
             : std::to_string(sc.seeds) + unit)
    << "; Goodput mean ± 95% CI, and the largest loss bucket. Full reports per point in `point-NNN/`.\n\n| point |";
  for (const auto& a : sw.axes) s << " `" << a.pointer << "` |";
  if (vary) s << " seeds |";
  for (const auto& st : sw.points.front().report.strategies) s << " " << st.name << " |";
  s << "\n|---|";
  for (std::size_t i = 0; i < sw.axes.size() + sw.points.front().report.strategies.size() + (vary ? 1 : 0); ++i)
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
      s << " " << fmt("%.2f", 100 * st.goodput.mean) << " ± " << fmt("%.2f", 100 * st.goodput.ci95) << "%";
      if (st.badput[top].mean > 5e-5)
        s << " (" << bucket_name(static_cast<Bucket>(top)) << " " << fmt("%.2f", 100 * st.badput[top].mean) << "%)";
      s << " |";
    }
    s << "\n";
  }
  if (!sw.seek.is_null()) {
    const Json& k = sw.seek;
    s << "\n## Goal seek\n\nSmallest `" << k["pointer"].get<std::string>() << "` in [" << k["min"].dump() << ", "
      << k["max"].dump() << "] where " << k["strategy"].get<std::string>() << " keeps mean Goodput >= "
      << fmt("%.4g", k["target_goodput"].get<double>()) << ": **"
      << (k["answer"].is_null() ? std::string("none in range") : k["answer"].dump())
      << "**. Found by bisection, assuming Goodput does not decrease as the value grows; evaluated "
      << k["evaluated"].size() << " values (the points above).\n";
  }
  s << "\nCharts: [report.html](report.html) (Goodput vs each axis with 95% CI bands; opens offline).\n";
  s << "\nFiles: `points.csv` (tidy: one row per point x strategy x seed), `sweep.json` (per point and strategy).\n";
  return s.str();
}

}  // namespace

SweepAxis parse_axis(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || text[0] != '/')
    throw InputError("--axis", text, "expected /json/pointer=v1,v2,...");
  SweepAxis a;
  a.pointer = text.substr(0, eq);
  std::string cur;
  for (char c : text.substr(eq + 1)) {
    if (c == ',') {
      a.values.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  a.values.push_back(cur);
  for (const auto& v : a.values)
    if (v.empty()) throw InputError("--axis", text, "empty value in the list");
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

void write_sweep_files(const Sweep& sw, const std::filesystem::path& tmp) {
  std::filesystem::create_directories(tmp);
  std::string csv = "point";
  for (const auto& a : sw.axes) csv += "," + csv_field(a.pointer);
  csv += ",strategy,run,goodput";
  for (int b = 0; b < kBucketCount; ++b) csv += std::string(",") + bucket_name(static_cast<Bucket>(b));
  csv += ",ettr,interruptions,boost_energy_gpu_hours,healthy_tp_groups_fraction\n";
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
      Json badput = Json::object();
      for (int b = 0; b < kBucketCount; ++b) badput[bucket_name(static_cast<Bucket>(b))] = st.badput[b].mean;
      strategies[st.name] = {{"goodput", {{"mean", st.goodput.mean}, {"ci95", st.goodput.ci95}}}, {"badput", badput}};
      const auto& runs = pt.report.runs[si].runs;
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const RunMetrics& m = runs[r];
        csv += std::to_string(p);
        for (const auto& v : pt.values) csv += "," + csv_field(v);
        csv += "," + st.name + "," + std::to_string(r) + "," + fmt("%.10g", m.goodput);
        for (double b : m.badput) csv += "," + fmt("%.10g", b);
        csv += "," + fmt("%.10g", m.ettr) + "," + std::to_string(m.interruptions) + "," +
               fmt("%.10g", m.boost_energy_gpu_hours) + "," + fmt("%.10g", m.healthy_tp_groups_fraction) + "\n";
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
  Json j = {{"schema_version", kReportSchemaVersion}, {"tool", {{"name", "goodput"}, {"version", kToolVersion}}},
            {"scenario_file", sw.scenario_file}, {"axes", axes}, {"points", points}};
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
