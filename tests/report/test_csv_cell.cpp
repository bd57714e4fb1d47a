// CSV cells against spreadsheet formula injection (sim/report/csv_cell.hpp): text starting with
// =, +, -, @, tab or CR is written as "'text"; numbers stay numbers; and a sweep's points.csv
// writes a text axis value that way.
#include <doctest/doctest.h>

#include "sim/report/csv_cell.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

TEST_CASE("csv_cell: formulas become quoted text, numbers and plain text stay as they are") {
  CHECK(csv_cell("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"");
  CHECK(csv_cell("+cmd|' /C calc'!A0") == "\"'+cmd|' /C calc'!A0\"");
  CHECK(csv_cell("-2+3") == "\"'-2+3\"");
  CHECK(csv_cell("@SUM(A1:A9)") == "\"'@SUM(A1:A9)\"");
  CHECK(csv_cell("\t=1") == "\"'\t=1\"");
  CHECK(csv_cell("\r=1") == "\"'\r=1\"");
  CHECK(csv_cell("-inf") == "\"'-inf\"");
  for (const char* number : {"-0.5", "+3", "-1e-3", "0.25", "-7"})
    CHECK(csv_cell(number) == number);
  CHECK(csv_cell("ntp_boost") == "ntp_boost");
  CHECK(csv_cell("/cluster/spare_domains") == "/cluster/spare_domains");
  CHECK(csv_cell("a,b") == "\"a,b\"");
  CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_cell("") == "");
}

TEST_CASE("points.csv quotes a text axis value that a spreadsheet would run as a formula") {
  const std::string dir = scratch("csv-injection");
  SweepOptions opt;
  opt.threads = 1;
  REQUIRE(sweep_small(dir, "/description==1+1,@SUM(A1),plain", opt, {"/seeds=1"}).complete);
  const std::string csv = slurp(std::filesystem::path(dir) / "points.csv");
  CHECK(csv.find(",\"'=1+1\",") != std::string::npos);
  CHECK(csv.find(",\"'@SUM(A1)\",") != std::string::npos);
  CHECK(csv.find(",plain,") != std::string::npos);
  CHECK(csv.find(",=1+1") == std::string::npos);
  CHECK(csv.find(",@SUM") == std::string::npos);
}
