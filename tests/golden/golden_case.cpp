// golden_case GOODPUT CASE_DIR WORK_DIR: runs one golden case (tests/golden/README.md) from the
// repository root and compares its output with the expected figures.
// CASE_DIR/args: goodput's arguments, one per line (--out WORK_DIR/out --quiet are appended; the
// results-* cases share them with scripts/regenerate-results.sh, which makes the references).
// CASE_DIR/case.json: {"about": "where the numbers come from", "output": "report.json"
// (the file of the output folder to check), "expected": "results/x/report.json" (relative to the
// repository root) or "expected.json" (in CASE_DIR), "tolerances": {"rel": 1e-9, "abs": 1e-12,
// "ignore": ["/json/pointer", ...], "by_pointer": {"/ptr": {"rel": x, "abs": y}}}}.
// Every value of the expected file must be in the output (a subset: fields the output adds are
// ignored, so new report fields do not break golden cases), numbers within
// |got - want| <= abs + rel |want| (a by_pointer entry applies at that pointer and below it),
// everything else equal. Prints each difference with its JSON pointer (at most 40); exits 1 when
// there is one, 2 on a broken case.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

using Json = nlohmann::ordered_json;

namespace {

struct Tolerance {
  double rel = 1e-9, abs = 1e-12;
};

Json tolerances;
int differences = 0;

Json load(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "json_compare: cannot read " << path << "\n";
    std::exit(2);
  }
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {
    std::cerr << "json_compare: " << path << ": " << e.what() << "\n";
    std::exit(2);
  }
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

Tolerance tolerance_at(const std::string& ptr) {
  Tolerance t{tolerances.value("rel", 1e-9), tolerances.value("abs", 1e-12)};
  std::size_t best = 0;
  if (tolerances.contains("by_pointer"))
    for (const auto& [p, v] : tolerances["by_pointer"].items())
      if ((ptr == p || starts_with(ptr, p + "/")) && p.size() >= best) {
        best = p.size();
        t = {v.value("rel", t.rel), v.value("abs", t.abs)};
      }
  return t;
}

bool ignored(const std::string& ptr) {
  if (!tolerances.contains("ignore")) return false;
  for (const auto& p : tolerances["ignore"])
    if (ptr == p.get<std::string>() || starts_with(ptr, p.get<std::string>() + "/")) return true;
  return false;
}

void report(const std::string& ptr, const std::string& what) {
  if (++differences <= 40) std::cout << (ptr.empty() ? "/" : ptr) << ": " << what << "\n";
}

void compare(const Json& e, const Json& a, const std::string& ptr) {
  if (ignored(ptr)) return;
  if (e.is_number() && a.is_number()) {
    const double x = e.get<double>(), y = a.get<double>();
    const Tolerance t = tolerance_at(ptr);
    if (!(std::fabs(y - x) <= t.abs + t.rel * std::fabs(x))) {
      char tol[64];
      std::snprintf(tol, sizeof tol, " (tolerance: rel %g, abs %g)", t.rel, t.abs);
      report(ptr, "expected " + e.dump() + ", got " + a.dump() + tol);
    }
    return;
  }
  if (e.type() != a.type()) return report(ptr, "expected " + e.dump() + ", got " + a.dump());
  if (e.is_object()) {
    for (const auto& [k, v] : e.items()) {
      const std::string p = (Json::json_pointer(ptr) / k).to_string();  // escapes '~' and '/'
      if (!a.contains(k))
        report(p, "missing");
      else
        compare(v, a.at(k), p);
    }
  } else if (e.is_array()) {
    if (e.size() != a.size())
      return report(ptr, "expected " + std::to_string(e.size()) + " elements, got " +
                             std::to_string(a.size()));
    for (std::size_t i = 0; i < e.size(); ++i) compare(e[i], a[i], ptr + "/" + std::to_string(i));
  } else if (e != a) {
    report(ptr, "expected " + e.dump() + ", got " + a.dump());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: golden_case GOODPUT CASE_DIR WORK_DIR (run from the repository root)\n";
    return 2;
  }
  const std::string goodput = argv[1], dir = argv[2], work = argv[3];
  const Json c = load((dir + "/case.json").c_str());
  tolerances = c.value("tolerances", Json::object());
  std::string cmd = "'" + goodput + "'";
  std::ifstream args(dir + "/args");
  if (!args) {
    std::cerr << "golden_case: cannot read " << dir << "/args\n";
    return 2;
  }
  for (std::string a; std::getline(args, a);)
    if (!a.empty()) cmd += " '" + a + "'";
  const std::string out = work + "/out";
  std::filesystem::create_directories(work);
  std::filesystem::remove_all(out);  // WORK_DIR is the test's own scratch folder
  cmd += " --out '" + out + "' --quiet";
  std::cout << "golden: " << cmd << "\n";
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "golden_case: the command failed\n";
    return 1;
  }
  const std::string want = c.at("expected").get<std::string>();
  const std::string expected_path = want == "expected.json" ? dir + "/expected.json" : want;
  const Json expected = load(expected_path.c_str());
  const Json actual = load((out + "/" + c.at("output").get<std::string>()).c_str());
  compare(expected, actual, "");
  if (differences) {
    std::cout << differences << " difference(s) from " << expected_path << " ("
              << c.value("about", "") << ")\n"
              << "If the change is intended, regenerate the reference "
                 "(scripts/regenerate-results.sh) or the "
                 "case's expected.json and say why in the commit.\n";
    return 1;
  }
  std::cout << "golden: matches " << expected_path << "\n";
  return 0;
}
