#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "calibrate/cli/args.hpp"
#include "sim/core/error.hpp"

using namespace goodput::calib;
using goodput::InputError;

namespace {
std::string locator(const std::vector<std::string>& argv) {
  try {
    (void)parse_calibrate_args(argv);
  } catch (const InputError& e) {
    return e.locator();
  }
  return "<ok>";
}
}  // namespace

TEST_CASE("goodput-calibrate arguments") {
  const auto a =
      parse_calibrate_args({"--scenario", "s.json", "--device=2", "--quick", "--out", "p.json"});
  CHECK(a.scenario == "s.json");
  CHECK(a.device == 2);
  CHECK(a.quick);
  CHECK(a.out == "p.json");
  CHECK_FALSE(a.help);
  const auto b = parse_calibrate_args({"--out=x.json"});
  CHECK_FALSE(b.scenario.has_value());
  CHECK(b.device == 0);
  CHECK_FALSE(b.quick);
  CHECK(parse_calibrate_args({"--help"}).help);
  CHECK(parse_calibrate_args({"--bogus", "-h"}).help);

  CHECK(locator({}) == "--out");
  CHECK(locator({"--out"}) == "--out");
  CHECK(locator({"--out", "p", "--verbose"}) == "--verbose");
  CHECK(locator({"--out", "p", "--device", "x"}) == "--device");
  CHECK(locator({"--out", "p", "--device", "-1"}) == "--device");
  CHECK(locator({"--out", "p", "--quick=yes"}) == "--quick");
}

TEST_CASE("goodput-profile-analytical arguments") {
  const auto a = parse_analytical_args({"--gpu", "B200", "--out", "b.json"});
  CHECK(a.gpu == "B200");
  CHECK(a.out == "b.json");
  CHECK_THROWS_AS(parse_analytical_args({"--gpu", "A100", "--out", "a.json"}), InputError);
  CHECK_THROWS_AS(parse_analytical_args({"--out", "a.json"}), InputError);
  CHECK_THROWS_AS(check_output_path("/no/such/dir/p.json"), InputError);
  CHECK_NOTHROW(check_output_path("p.json"));
  // An existing file is replaced only when it is a profile goodput wrote.
  const auto dir = std::filesystem::temp_directory_path() / "goodput-calib-out-test";
  std::filesystem::create_directories(dir);
  const auto notes = (dir / "notes.json").string();
  std::ofstream(notes) << "{\"mine\": true}";
  CHECK_THROWS_WITH_AS(check_output_path(notes),
                       doctest::Contains("not a goodput calibration profile"), InputError);
  const auto earlier = (dir / "earlier.json").string();
  std::ofstream(earlier)
      << "{\n  \"schema_version\": 1,\n  \"generator\": \"goodput-calibrate 0.1.0\"\n}";
  CHECK_NOTHROW(check_output_path(earlier));
  CHECK_THROWS_AS(check_output_path("/dev/null"), InputError);
  std::filesystem::remove_all(dir);
}

#include "calibrate/cli/progress.hpp"

TEST_CASE("progress bar formatting") {
  CHECK(format_bar(0, 4, "qkv", 8) == "[        ] 0/4 qkv");
  CHECK(format_bar(2, 4, "x", 8) == "[====    ] 2/4 x");
  CHECK(format_bar(4, 4, "", 8) == "[========] 4/4 ");
  CHECK(format_bar(9, 4, "", 4) == "[====] 9/4 ");
}
