// JSON errors name the file, line and column and describe the problem, but never quote the
// file's bytes (nlohmann's "last read: '...'"): a file named as a trace or profile may hold
// anything, secrets included.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "calibrate/profile/profile.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_text.hpp"

using namespace goodput;

namespace {

std::string error_of(const std::string& text) {
  try {
    (void)parse_json_text(text, "secret.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a JSON syntax error names line and column, not the text") {
  for (const char* text : {"\"SECRET-TOKEN-123\n", "[1,\n SECRET-TOKEN-123]",
                           "{\"a\": SECRET-TOKEN-123}", "{\"a\": 1} SECRET-TOKEN-123",
                           "[\"SECRET-TOKEN-123\xff\"]", "[1e99999, \"SECRET-TOKEN-123\"]"}) {
    const std::string e = error_of(text);
    CAPTURE(text);
    CAPTURE(e);
    CHECK(e.rfind("secret.json: line ", 0) == 0);
    CHECK(e.find("not valid JSON") != std::string::npos);
    CHECK(e.find("SECRET") == std::string::npos);
    CHECK(e.find("last read") == std::string::npos);
  }
  const std::string e = error_of("[1,\n  2,\n  x]");
  CHECK(e ==
        "secret.json: line 3: not valid JSON at column 3: syntax error while parsing value - "
        "invalid literal");
  // nlohmann's names for the tokens it expected stay: they are not the file's text.
  CHECK(error_of("[1 2]") ==
        "secret.json: line 1: not valid JSON at column 4: syntax error while "
        "parsing array - unexpected number literal; expected ']'");
}

TEST_CASE("a calibration profile that is not JSON is refused without echoing it") {
  const auto path = std::filesystem::temp_directory_path() / "goodput-test-secret-profile.json";
  {
    std::ofstream out(path);
    out << "\"SECRET-TOKEN-123 root:$6$salt$hash\n";
  }
  try {
    (void)calib::load_profile(path.string());
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find(path.string()) == 0);
    CHECK(what.find("invalid JSON") != std::string::npos);
    CHECK(what.find("SECRET") == std::string::npos);
  }
  std::filesystem::remove(path);
}
