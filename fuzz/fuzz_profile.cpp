// libFuzzer harness: the calibration profile reader (calibrate/profile/profile_read.cpp) the
// way load_profile() uses it: parse, strict from_json, refit. What loads must write back to a
// canonical form that reads back to the same canonical form (from_json(to_json(p)) == p).
#include <cstdint>
#include <string>

#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/profile_json.hpp"
#include "fuzz/fuzz_support.hpp"

using namespace goodput;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json doc =
      nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  calib::Profile p;
  if (!fuzz::input_errors_only("from_json",
                               [&] { p = calib::from_json(doc, "fuzz-profile.json"); }))
    return 0;
  std::string first, second;
  const bool ok = fuzz::input_errors_only("round trip", [&] {
    first = calib::to_json(p).dump();
    second =
        calib::to_json(calib::from_json(nlohmann::json::parse(first), "fuzz-profile.json")).dump();
  });
  if (!ok) fuzz::fail("a loaded profile does not read back from its canonical form");
  if (first != second) fuzz::fail("the canonical form of a profile changes when read back");
  fuzz::input_errors_only("refit", [&] { calib::refit(p); });
  return 0;
}
