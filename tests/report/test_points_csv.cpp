// A sweep's points.csv carries every column of a run's runs.csv (plus the point and the axis
// values), and each point's rows hold the same values as that point's own runs.csv, so the two
// join on (point, run, strategy). Read from the files the sweep writes.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>

#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

using Table = std::vector<std::map<std::string, std::string>>;

std::vector<std::string> split(const std::string& line) {  // no quoted fields in these files
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string f; std::getline(s, f, ',');) out.push_back(f);
  return out;
}

// The header, and the rows as column -> value.
std::pair<std::vector<std::string>, Table> read_csv(const std::filesystem::path& p) {
  std::stringstream in(slurp(p));
  std::string line;
  std::getline(in, line);
  const auto header = split(line);
  Table rows;
  while (std::getline(in, line)) {
    const auto f = split(line);
    REQUIRE(f.size() == header.size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < f.size(); ++i) row[header[i]] = f[i];
    rows.push_back(row);
  }
  return {header, rows};
}

}  // namespace

TEST_CASE("points.csv has every column of runs.csv, and the same values per point") {
  const std::string dir = scratch("points-csv");
  SweepOptions opt;
  opt.threads = 2;
  REQUIRE(sweep_small(dir, "/cluster/spare_domains=0,2", opt, {"/seeds=3"}).complete);
  const auto [points_header, points] = read_csv(std::filesystem::path(dir) / "points.csv");
  const std::set<std::string> columns(points_header.begin(), points_header.end());
  CHECK(columns.count("point"));
  CHECK(columns.count("/cluster/spare_domains"));
  for (const char* point : {"000", "001"}) {
    const auto [runs_header, runs] =
        read_csv(std::filesystem::path(dir) / ("point-" + std::string(point)) / "runs.csv");
    REQUIRE(runs_header.size() > 10);
    for (const auto& c : runs_header) {
      INFO("runs.csv column ", c);
      CHECK(columns.count(c));
    }
    // Join: every runs.csv row is in points.csv for this point, value for value.
    const std::string p = std::to_string(std::stoi(point));
    std::size_t joined = 0;
    for (const auto& r : runs)
      for (const auto& q : points) {
        if (q.at("point") != p || q.at("run") != r.at("run") ||
            q.at("strategy") != r.at("strategy"))
          continue;
        ++joined;
        for (const auto& c : runs_header) {
          INFO("point ", p, " run ", r.at("run"), " ", r.at("strategy"), " column ", c);
          CHECK(q.at(c) == r.at(c));
        }
      }
    CHECK(joined == runs.size());
  }
  CHECK(points.size() == 2 * 3 * 3);  // points x seeds x strategies
}
