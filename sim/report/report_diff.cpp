#include "sim/report/report_diff.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <utility>
#include <vector>

#include "sim/core/content_hash.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/json_text.hpp"
#include "sim/core/stats.hpp"
#include "sim/report/units_text.hpp"

namespace goodput {

namespace {

namespace fs = std::filesystem;

// The keys that decide the failures: equal on both sides, run r of one report saw the same
// faults as run r of the other (with the same base seed).
constexpr const char* kFailureKeys[] = {"seed", "mode", "horizon_hours", "cluster", "failures"};

// --- reading -------------------------------------------------------------------------------

const Json& field(const Json& parent, const std::string& key, const std::string& file,
                  const std::string& pointer, const char* expected,
                  bool (Json::*is)() const noexcept) {
  if (!parent.is_object() || !parent.contains(key))
    throw InputError(
        file, pointer,
        std::string("missing: expected ") + expected + " (is this a goodput run's report.json?)");
  const Json& v = parent.at(key);
  if (!(v.*is)()) throw InputError(file, pointer, std::string("expected ") + expected);
  return v;
}

void check_report(const Json& r, const std::string& file) {
  if (!r.is_object()) throw InputError(file, "/", "expected a goodput report.json object");
  if (r.contains("axes") || r.contains("points"))
    throw InputError(file, "/",
                     "this is a sweep's sweep.json: goodput diff compares two run reports "
                     "(report.json of goodput run, or a sweep's point-NNN/report.json)");
  field(r, "schema_version", file, "/schema_version", "an integer", &Json::is_number_integer);
  field(r, "scenario", file, "/scenario", "the resolved scenario (an object)", &Json::is_object);
  field(r, "seeds", file, "/seeds", "an integer", &Json::is_number_integer);
  field(r, "winner", file, "/winner", "a strategy name", &Json::is_string);
  const Json& st = field(r, "strategies", file, "/strategies", "an object", &Json::is_object);
  if (st.empty()) throw InputError(file, "/strategies", "expected at least one strategy");
  for (const auto& [name, s] : st.items()) {
    const std::string at = "/strategies/" + name;
    const Json& g = field(s, "goodput", file, at + "/goodput", "an object", &Json::is_object);
    for (const char* k : {"mean", "ci95", "stddev"})
      field(g, k, file, at + "/goodput/" + k, "a number", &Json::is_number);
    const Json& b = field(s, "badput", file, at + "/badput", "an object", &Json::is_object);
    for (const auto& [bucket, v] : b.items())
      if (!v.is_number())
        throw InputError(file, at + "/badput/" + bucket, "expected a number (a share)");
  }
  if (!st.contains(r.at("winner").get<std::string>()))
    throw InputError(file, "/winner", "names no strategy of /strategies");
}

// One CSV line split into cells (RFC 4180 quoting; a leading ' inside quotes is csv_cell's
// formula guard and is dropped).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = was_quoted = true;
    } else if (c == ',') {
      if (was_quoted && !cell.empty() && cell[0] == '\'') cell.erase(0, 1);
      out.push_back(cell);
      cell.clear();
      was_quoted = false;
    } else if (c != '\r') {
      cell += c;
    }
  }
  if (was_quoted && !cell.empty() && cell[0] == '\'') cell.erase(0, 1);
  out.push_back(cell);
  return out;
}

double number_cell(const std::string& text, const std::string& file, std::size_t line,
                   const std::string& column) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw InputError(file, "line " + std::to_string(line),
                     "column '" + column + "': expected a number, found '" + text + "'");
  return v;
}

// runs.csv: {strategy: {"seed/run": goodput}}.
Json read_runs(const std::string& path, const Json& report) {
  std::istringstream in(read_input_file(path, "the runs.csv beside the report"));
  std::string line;
  if (!std::getline(in, line)) throw InputError(path, "line 1", "empty: expected a header");
  const auto header = csv_cells(line);
  auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end())
      throw InputError(path, "line 1",
                       "no '" + name +
                           "' column (a goodput runs.csv has run, "
                           "seed, strategy, goodput, ...)");
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t run = column("run"), seed = column("seed"), strategy = column("strategy"),
                    goodput = column("goodput");
  Json out = Json::object();
  std::size_t n = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line == "\r") continue;
    const auto cells = csv_cells(line);
    if (cells.size() != header.size())
      throw InputError(
          path, "line " + std::to_string(n),
          std::to_string(cells.size()) + " cells, the header has " + std::to_string(header.size()));
    const std::string& name = cells[strategy];
    if (!report.at("strategies").contains(name))
      throw InputError(path, "line " + std::to_string(n),
                       "strategy '" + name + "' is not in the report.json beside it");
    const double r = number_cell(cells[run], path, n, "run");
    const double s = number_cell(cells[seed], path, n, "seed");
    const std::string key = with_separators(s, 0) + "/" + with_separators(r, 0);
    if (out[name].contains(key))
      throw InputError(
          path, "line " + std::to_string(n),
          "a second row for strategy '" + name + "', seed " + cells[seed] + ", run " + cells[run]);
    out[name][key] = number_cell(cells[goodput], path, n, "goodput");
  }
  return out;
}

// --- comparing -----------------------------------------------------------------------------

std::string scenario_hash(const Json& scenario) {
  return sha256_hex(scenario.dump()).substr(0, 16);
}

Json summary_of(const Json& s, std::size_t n) {
  return {{"mean", s.at("mean").get<double>()}, {"ci95", s.at("ci95").get<double>()}, {"n", n}};
}

// Runs a report summarizes: runs.csv's rows for the strategy, else its seed count (a
// deterministic replay keeps one run).
std::size_t runs_of(const DiffSide& side, const std::string& strategy) {
  if (side.runs.contains(strategy)) return side.runs.at(strategy).size();
  const Json& v = side.report.value("verdict", Json::object());
  if (v.is_object() && v.value("deterministic", false)) return 1;
  return side.report.at("seeds").get<std::size_t>();
}

// B's strategy `sb` minus A's `sa`: paired over the shared runs when allowed, else Welch.
Json difference(const DiffSide& a, const std::string& sa, const DiffSide& b, const std::string& sb,
                bool same_failures) {
  if (same_failures && a.runs.contains(sa) && b.runs.contains(sb)) {
    std::vector<double> x, y;
    for (const auto& [key, gb] : b.runs.at(sb).items())
      if (a.runs.at(sa).contains(key)) {
        y.push_back(gb.get<double>());
        x.push_back(a.runs.at(sa).at(key).get<double>());
      }
    if (!x.empty()) {
      const Summary d = summarize_difference(y, x);
      return {{"mean", d.mean},
              {"ci95", d.ci95},
              {"n", d.n},
              {"paired", true},
              {"significant", d.n >= 2 && std::abs(d.mean) > d.ci95}};
    }
  }
  const Json& ga = a.report.at("strategies").at(sa).at("goodput");
  const Json& gb = b.report.at("strategies").at(sb).at("goodput");
  const double na = static_cast<double>(runs_of(a, sa)), nb = static_cast<double>(runs_of(b, sb));
  const double va = std::pow(ga.at("stddev").get<double>(), 2) / na;
  const double vb = std::pow(gb.at("stddev").get<double>(), 2) / nb;
  const double mean = gb.at("mean").get<double>() - ga.at("mean").get<double>();
  double ci = 0;
  if (na >= 2 && nb >= 2 && va + vb > 0) {  // Welch-Satterthwaite degrees of freedom
    const double df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
    ci =
        student_t_975(static_cast<std::size_t>(std::max(1.0, std::floor(df)))) * std::sqrt(va + vb);
  }
  return {{"mean", mean},
          {"ci95", ci},
          {"n", static_cast<std::size_t>(std::min(na, nb))},
          {"paired", false},
          {"significant", na >= 2 && nb >= 2 && std::abs(mean) > ci}};
}

// A strategy's mean of a time_to_train figure, or null.
Json ttt_mean(const Json& report, const std::string& strategy, const char* key) {
  const Json& s = report.at("strategies").at(strategy);
  if (!s.contains("time_to_train") || !s["time_to_train"].contains(key)) return nullptr;
  const Json& v = s["time_to_train"][key];
  return v.is_object() && v.contains("mean") && v["mean"].is_number() ? v["mean"] : Json();
}

Json side_json(const DiffSide& s) {
  Json names = Json::array();
  for (const auto& [name, _] : s.report.at("strategies").items()) names.push_back(name);
  const Json& sc = s.report.at("scenario");
  return {{"path", s.path},
          {"runs_csv", s.runs_path.empty() ? Json() : Json(s.runs_path)},
          {"scenario_name", sc.value("name", std::string())},
          {"scenario_hash", scenario_hash(sc)},
          {"seeds", s.report.at("seeds")},
          {"seed", s.report.value("seed", Json())},
          {"horizon_hours", s.report.value("horizon_hours", Json())},
          {"currency", s.report.value("currency", Json())},
          {"strategies", names},
          {"winner", s.report.at("winner")}};
}

// Percentage points to two decimals; a value that rounds to zero reads "0.00", unsigned.
std::string pp(double v, bool sign = true) {
  char b[48];
  if (std::abs(100 * v) < 0.005) return "0.00";
  std::snprintf(b, sizeof b, sign ? "%+.2f" : "%.2f", 100 * v);
  return b;
}

std::string value_text(const Json& v) {
  if (v.is_null()) return "(absent)";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  for (auto& c : s)
    if (c == '|') c = '/';
  return s;
}

std::string difference_text(const Json& d) {
  std::string s = pp(d.at("mean").get<double>());
  if (d.at("n").get<std::size_t>() >= 2)
    s += " ± " + pp(d.at("ci95").get<double>(), false);
  else
    s += " (one run: no CI)";
  return s;
}

std::string basis_text(const Json& d) {
  const auto n = static_cast<long long>(d.at("n").get<std::size_t>());
  return d.at("paired").get<bool>() ? "paired over " + counted(n, "run") + " with the same failures"
                                    : "unpaired, Welch's CI";
}

}  // namespace

DiffSide read_diff_side(const std::string& arg) {
  DiffSide side;
  fs::path p(arg);
  std::error_code ec;
  if (!fs::exists(p, ec)) throw InputError(arg, "", "no such file or folder");
  if (fs::is_directory(p, ec)) {
    if (!fs::exists(p / "report.json", ec)) {
      if (fs::exists(p / "sweep.json", ec))
        throw InputError(arg, "",
                         "a sweep folder: goodput diff compares run reports; give two "
                         "point-NNN folders or two goodput run folders");
      throw InputError(arg, "",
                       "a folder without report.json (give a goodput run's output "
                       "folder or its report.json)");
    }
    p /= "report.json";
  }
  side.path = p.string();
  side.report = parse_json_text(read_input_file(side.path, "a goodput report"), side.path);
  check_report(side.report, side.path);
  const fs::path runs = p.parent_path() / "runs.csv";
  if (fs::is_regular_file(runs, ec)) {
    side.runs_path = runs.string();
    side.runs = read_runs(side.runs_path, side.report);
  }
  return side;
}

Json report_diff_json(const DiffSide& a, const DiffSide& b) {
  Json out;
  out["a"] = side_json(a);
  out["b"] = side_json(b);
  const Json& sa = a.report.at("scenario");
  const Json& sb = b.report.at("scenario");
  out["same_scenario"] = sa == sb;
  bool same_failures = true;
  for (const char* k : kFailureKeys)
    same_failures = same_failures && sa.value(k, Json()) == sb.value(k, Json());
  out["same_failures"] = same_failures;
  Json differs = Json::array();
  for (const Json& op : Json::diff(sa, sb)) {
    // JSON Patch: "add" (an appended array element's path ends in "/-"), "replace", "remove".
    const std::string path = op.at("path").get<std::string>();
    const bool append = path.size() >= 2 && path.compare(path.size() - 2, 2, "/-") == 0;
    Json before;
    if (!append && sa.contains(Json::json_pointer(path))) before = sa.at(Json::json_pointer(path));
    differs.push_back(
        {{"pointer", path}, {"a", before}, {"b", op.contains("value") ? op.at("value") : Json()}});
  }
  out["scenario_differences"] = differs;
  const std::string ca = a.report.value("currency", std::string("USD"));
  const std::string cb = b.report.value("currency", std::string("USD"));
  out["same_currency"] = ca == cb;
  Json only_a = Json::array(), only_b = Json::array(), per = Json::object();
  for (const auto& [name, _] : b.report.at("strategies").items())
    if (!a.report.at("strategies").contains(name)) only_b.push_back(name);
  for (const auto& [name, s] : a.report.at("strategies").items()) {
    if (!b.report.at("strategies").contains(name)) {
      only_a.push_back(name);
      continue;
    }
    const Json& t = b.report.at("strategies").at(name);
    Json e;
    e["goodput_a"] = summary_of(s.at("goodput"), runs_of(a, name));
    e["goodput_b"] = summary_of(t.at("goodput"), runs_of(b, name));
    e["goodput_difference"] = difference(a, name, b, name, same_failures);
    Json badput = Json::object();
    for (const auto& [bucket, v] : s.at("badput").items())
      if (t.at("badput").contains(bucket))
        badput[bucket] = t.at("badput").at(bucket).get<double>() - v.get<double>();
    e["badput_difference"] = badput;
    const Json ha = ttt_mean(a.report, name, "wall_hours"),
               hb = ttt_mean(b.report, name, "wall_hours");
    if (ha.is_number() && hb.is_number())
      e["time_to_train_days_difference"] = (hb.get<double>() - ha.get<double>()) / 24;
    const Json ka = ttt_mean(a.report, name, "cost"), kb = ttt_mean(b.report, name, "cost");
    if (ka.is_number() && kb.is_number() && ca == cb)
      e["cost_to_train_difference"] = kb.get<double>() - ka.get<double>();
    per[name] = e;
  }
  out["strategies_only_in_a"] = only_a;
  out["strategies_only_in_b"] = only_b;
  out["strategies"] = per;
  const std::string wa = a.report.at("winner").get<std::string>();
  const std::string wb = b.report.at("winner").get<std::string>();
  out["leaders"] = {{"a", wa}, {"b", wb}, {"difference", difference(a, wa, b, wb, same_failures)}};
  return out;
}

std::string report_diff_markdown(const Json& d) {
  std::ostringstream s;
  const Json &a = d.at("a"), &b = d.at("b");
  auto side = [&](const char* label, const Json& x) {
    s << "- " << label << ": `" << x.at("path").get<std::string>() << "`: scenario "
      << x.at("scenario_name").get<std::string>() << " (hash "
      << x.at("scenario_hash").get<std::string>() << "), "
      << counted(x.at("seeds").get<long long>(), "seed") << ", strategies ";
    std::string names;
    for (const auto& n : x.at("strategies"))
      names += (names.empty() ? "" : ", ") + n.get<std::string>();
    s << names << "; per-run Goodput: "
      << (x.at("runs_csv").is_null() ? "none (no runs.csv beside it)" : "runs.csv") << ".\n";
  };
  s << "# goodput diff: B - A\n\n";
  side("A", a);
  side("B", b);
  s << "\n";
  const Json& differs = d.at("scenario_differences");
  if (d.at("same_scenario").get<bool>()) {
    s << "The two resolved scenarios are the same.\n";
  } else {
    s << "The resolved scenarios differ in "
      << counted(static_cast<long long>(differs.size()), "key")
      << (d.at("same_failures").get<bool>()
              ? "; the failures are the same (/seed, /mode, /horizon_hours, /cluster and "
                "/failures agree), so run r of A and run r of B saw the same faults"
              : "; the failures differ, so differences are unpaired")
      << ":\n\n| key | A | B |\n|---|---|---|\n";
    std::size_t shown = 0;
    for (const auto& x : differs) {
      if (shown++ == 30) break;
      s << "| `" << x.at("pointer").get<std::string>() << "` | " << value_text(x.at("a")) << " | "
        << value_text(x.at("b")) << " |\n";
    }
    if (differs.size() > 30)
      s << "\n(" << differs.size() - 30 << " more: `goodput diff --json`.)\n";
  }
  const Json& l = d.at("leaders");
  const Json& ld = l.at("difference");
  s << "\n## Leaders\n\nB's leader " << l.at("b").get<std::string>() << " minus A's leader "
    << l.at("a").get<std::string>() << ": Goodput " << difference_text(ld) << " pp ("
    << basis_text(ld) << "; "
    << (ld.at("n").get<std::size_t>() < 2  ? "no significance with one run"
        : ld.at("significant").get<bool>() ? "significant at 95%"
                                           : "not significant at 95%")
    << ").\n";
  const Json& per = d.at("strategies");
  if (per.empty()) {
    s << "\nNo strategy is in both reports.\n";
  } else {
    bool days = false, money = false;
    for (const auto& [_, e] : per.items()) {
      days = days || e.contains("time_to_train_days_difference");
      money = money || e.contains("cost_to_train_difference");
    }
    const std::string currency =
        b.at("currency").is_string() ? b.at("currency").get<std::string>() : "USD";
    s << "\n## Goodput by strategy (in both reports)\n\n| strategy | A | B | B - A (pp) | basis |"
      << (days ? " B - A time to train |" : "") << (money ? " B - A cost to train |" : "")
      << "\n|---|---|---|---|---|" << (days ? "---|" : "") << (money ? "---|" : "") << "\n";
    auto pct = [](const Json& g) {
      std::string t = pp(g.at("mean").get<double>(), false) + "%";
      if (g.at("n").get<std::size_t>() >= 2) t += " ± " + pp(g.at("ci95").get<double>(), false);
      return t;
    };
    for (const auto& [name, e] : per.items()) {
      const Json& gd = e.at("goodput_difference");
      s << "| " << name << " | " << pct(e.at("goodput_a")) << " | " << pct(e.at("goodput_b"))
        << " | " << difference_text(gd) << (gd.at("significant").get<bool>() ? " *" : "") << " | "
        << basis_text(gd) << " |";
      if (days)
        s << " "
          << (e.contains("time_to_train_days_difference")
                  ? span_text(24 * e.at("time_to_train_days_difference").get<double>(), true)
                  : std::string("-"))
          << " |";
      if (money)
        s << " "
          << (e.contains("cost_to_train_difference")
                  ? (e.at("cost_to_train_difference").get<double>() > 0 ? "+" : "") +
                        money_short(e.at("cost_to_train_difference").get<double>(), currency)
                  : std::string("-"))
          << " |";
      s << "\n";
    }
    s << "\n\\* significant at 95%.\n\n## Badput by bucket, B - A (pp of wall time)\n\n| bucket |";
    for (const auto& [name, _] : per.items()) s << " " << name << " |";
    s << "\n|---|";
    for (std::size_t i = 0; i < per.size(); ++i) s << "---|";
    s << "\n";
    const Json& first = per.begin().value().at("badput_difference");
    for (const auto& [bucket, _] : first.items()) {
      s << "| " << bucket << " |";
      for (const auto& [name, e] : per.items()) {
        const Json& bd = e.at("badput_difference");
        s << " " << (bd.contains(bucket) ? pp(bd.at(bucket).get<double>()) : std::string("-"))
          << " |";
      }
      s << "\n";
    }
  }
  for (const auto& [key, label] : {std::pair<const char*, const char*>{"strategies_only_in_a", "A"},
                                   {"strategies_only_in_b", "B"}}) {
    const Json& only = d.at(key);
    if (only.empty()) continue;
    std::string names;
    for (const auto& n : only) names += (names.empty() ? "" : ", ") + n.get<std::string>();
    s << "\nOnly in " << label << ": " << names << " (compared through the leaders only).\n";
  }
  if (!d.at("same_currency").get<bool>())
    s << "\nThe reports price in different currencies (" << value_text(a.at("currency")) << ", "
      << value_text(b.at("currency")) << "): money is not compared.\n";
  return s.str();
}

}  // namespace goodput
