// libFuzzer harness: `--set` override parsing (apply_override in sim/core/params.cpp). Each line
// of the input is one "/pointer=value" assignment applied to scenarios/default.json, as
// `goodput run --set` does; what then loads must honour its declared ranges, and its resolved
// form must serialise (report.json is written from it).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "models/scenario/scenario_loader.hpp"

using namespace goodput;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file = fuzz::source_dir() + "/scenarios/default.json";
  static const Json base = read_json_file(file);
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> sets;
  for (std::size_t at = 0; at <= text.size() && sets.size() < 8;) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    sets.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  Json doc = base;
  const bool applied = fuzz::input_errors_only("apply_override", [&] {
    for (const auto& s : sets) apply_override(doc, s, file);
  });
  if (!applied) return 0;
  Scenario s;
  if (!fuzz::input_errors_only("parse_scenario", [&] {
        s = parse_scenario(doc, file);
        (void)s.resolved.dump();
      }))
    return 0;
  fuzz::check_loaded(s);
  return 0;
}
