// Test fixtures: small profiles and temporary files for the CPU suite.
// Contract: small_model() is a tiny but consistent model; test_profile() is a "measured"-
// shaped profile built in memory from the analytical model of small_model() at TP8 -> TP6 with
// a step layout (4 layers, vocab 32000, PP2, DP4), so every section has entries (its fused
// attention entries as cuDNN SDPA's; test data only:
// never written outside the test's temporary directory). TempDir removes itself.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "calibrate/profile/profile.hpp"

namespace goodput::calib::test {

ModelShape small_model();
Profile test_profile();

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);
// The repository's shipped scenario files (scenarios/*.json) that declare /job/model (the others
// use the proportional cost model: nothing to calibrate), sorted by path.
std::vector<std::string> shipped_model_scenarios();

}  // namespace goodput::calib::test
