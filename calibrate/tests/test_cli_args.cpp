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

// The message of the InputError that parse(argv) throws, "<ok>" when it does not throw.
template <typename Parse>
std::string message(Parse parse, const std::vector<std::string>& argv) {
  try {
    (void)parse(argv);
  } catch (const InputError& e) {
    return e.what();
  }
  return "<ok>";
}
const auto calibrate = [](const std::vector<std::string>& argv) {
  return parse_calibrate_args(argv);
};
const auto analytical = [](const std::vector<std::string>& argv) {
  return parse_analytical_args(argv);
};
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
  CHECK(locator({"--out", "p", "stray"}) == "stray");
  CHECK(locator({"--out", "p", "--fast=1"}) == "--fast");
  CHECK(locator({"--out", "p", "--device"}) == "--device");
  CHECK(locator({"--out", "p", "--device", "1.5"}) == "--device");
  CHECK(locator({"--out="}) == "--out");
  // A repeated flag keeps its last value.
  CHECK(parse_calibrate_args({"--out", "a.json", "--out", "b.json"}).out == "b.json");
  // --help wins over everything else on the line, bad values included.
  CHECK(parse_calibrate_args({"--device", "x", "--help"}).help);
}

TEST_CASE("bad usage: the message names the option and says what is wrong") {
  CHECK(message(calibrate, {"--out", "p", "--verbose"}) ==
        "--verbose: unknown argument (valid: --scenario, --device, --quick, --out)");
  CHECK(message(calibrate, {"--out"}) == "--out: needs a value");
  CHECK(message(calibrate, {"--out", "p", "--scenario"}) == "--scenario: needs a value");
  CHECK(message(calibrate, {"--out", "p", "--device", "x"}) ==
        "--device: expected a device index >= 0, got \"x\"");
  CHECK(message(calibrate, {"--out", "p", "--device=-1"}) ==
        "--device: expected a device index >= 0, got \"-1\"");
  CHECK(message(calibrate, {"--out", "p", "--device", "99999999999"}) ==
        "--device: expected a device index >= 0, got \"99999999999\"");
  CHECK(message(calibrate, {"--quick"}) == "--out: is required");
  CHECK(message(calibrate, {"--out", "p", "--quick=yes"}) == "--quick: takes no value");

  CHECK(message(analytical, {"--gpu", "H100", "--out", "p", "--device", "0"}) ==
        "--device: unknown argument (valid: --gpu, --scenario, --out)");
  CHECK(message(analytical, {"--out", "p", "--gpu"}) == "--gpu: needs a value");
  CHECK(message(analytical, {"--gpu", "A100", "--out", "p"}) ==
        "--gpu: A100 not in {A100-80GB,H100,H200,B200,GB200}");
  CHECK(message(analytical, {"--gpu", "A100-80GB", "--out", "p"}) == "<ok>");
  CHECK(message(analytical, {"--out", "p"}) == "--gpu: is required");
  CHECK(message(analytical, {"--gpu", "GB200"}) == "--out: is required");
  CHECK(message(analytical, {"--gpu", "GB200", "--out", "p"}) == "<ok>");
}

TEST_CASE("goodput-profile-check arguments") {
  const auto check = [](const std::vector<std::string>& argv) { return parse_check_args(argv); };
  const auto a = parse_check_args({"p.json", "--gpu", "H200", "--out=check.md"});
  CHECK(a.profile == "p.json");
  CHECK(a.gpu == "H200");
  CHECK(a.out == "check.md");
  const auto b = parse_check_args({"p.json"});
  CHECK(b.gpu.empty());
  CHECK(b.out.empty());
  CHECK(parse_check_args({"-h"}).help);
  CHECK(message(check, {}) == "PROFILE: is required");
  CHECK(message(check, {"--gpu", "H100"}) == "PROFILE: is required");
  CHECK(message(check, {"p.json", "--gpu", "V100"}) ==
        "--gpu: V100 not in {A100-80GB,H100,H200,B200,GB200}");
  CHECK(message(check, {"p.json", "q.json"}) ==
        "q.json: unknown argument (valid: PROFILE, --gpu, --out)");
  CHECK(message(check, {"p.json", "--fix"}) ==
        "--fix: unknown argument (valid: PROFILE, --gpu, --out)");
  CHECK(message(check, {"p.json", "--out"}) == "--out: needs a value");
  CHECK(usage_check().rfind("usage: goodput-profile-check PROFILE.json", 0) == 0);
}

TEST_CASE("help text lists every option with its meaning and default") {
  const std::string c = usage_calibrate();
  CHECK(c.rfind("usage: goodput-calibrate [--scenario S.json] [--device N] [--quick] --out "
                "PROFILE.json\n",
                0) == 0);
  for (const char* want : {"--scenario S.json", "--device N", "CUDA device index (default 0)",
                           "--quick", "a smoke run", "--out FILE", "profile to write (atomically)",
                           "Exit codes: 0 ok, 2 bad input, 3 no usable GPU, 1 other errors."}) {
    CHECK_MESSAGE(c.find(want) != std::string::npos, want);
  }
  const std::string a = usage_analytical();
  CHECK(a.rfind("usage: goodput-profile-analytical --gpu A100-80GB|H100|H200|B200|GB200", 0) == 0);
  for (const char* want : {"--gpu GPU", "--scenario S.json", "--out FILE",
                           "Exit codes: 0 ok, 2 bad input, 1 other errors."}) {
    CHECK_MESSAGE(a.find(want) != std::string::npos, want);
  }
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
