#include "calibrate/tests/profile_fixture.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace goodput::calib::test {

ModelShape small_model() {
  return ModelShape{"small", 1024, 16, 4, 4096, true, 2048, 2};
}

Profile test_profile() {
  ProfiledModel model;
  model.shape = small_model();
  model.tp_max = 8;
  model.tp_min = 6;
  model.layout = StepLayout{4, 32000, 2, 4};
  Profile p = analytical_profile("H100", {model});
  p.source = Source::measured;
  p.generator = "test fixture";
  p.settings.gemm_impl = "cublasLt";
  p.settings.attention_impl = "cublas_strided_batched";
  p.settings.analytical_model.reset();
  MeasureSettings m;
  m.stop = kQuickStop;
  m.quick = true;
  m.l2_flush_bytes = 1 << 28;
  m.gemm_verify_points = kGemmVerifyPoints;
  m.gemm_verify_rtol = kGemmVerifyRtol;
  m.gemm_verify_atol_rel = kGemmVerifyAtolRel;
  m.cublaslt_workspace_bytes = kCublasLtWorkspaceBytes;
  m.nccl = "single_gpu";
  m.scenario = "builtin";
  p.settings.measurement = m;
  p.device.driver_version = 13000;
  p.device.clocks.observed_via = "nvml";
  p.device.clocks.sm_observed_mhz = ClockRange{1755.0, 1980.0, 1980.0};
  p.ceilings.kind = "measured";
  p.ceilings.gemm_tflops = 760.5;
  for (auto& e : p.gemm) {
    e.verification = Verification::passed;
    e.time_s.samples = 10;
    e.time_s.stop = "converged";
    e.time_s.min *= 0.99;
    e.time_s.max *= 1.02;
    e.algo = "id=66 tile=20";
  }
  for (auto& e : p.reshard) {
    e.verification = Verification::passed;
    e.time_s.samples = 12;
    e.time_s.stop = "sample_cap";
  }
  for (auto& e : p.memory_kernels) {
    e.verification = Verification::passed;
    e.time_s.samples = 15;
    e.time_s.stop = "converged";
  }
  for (auto& e : p.attention) {
    e.impl = "cudnn_sdpa";
    e.engine = "cuDNN 91900, engine 8";
    e.verification = Verification::passed;
    e.time_s.samples = 11;
    e.time_s.stop = "converged";
  }
  p.fit = fit_report(p);
  refit(p);
  return p;
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("goodput-calib-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> shipped_model_scenarios() {
  const std::filesystem::path dir =
      std::filesystem::path(GOODPUT_CALIB_SOURCE_DIR) / "../scenarios";
  std::vector<std::string> files;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (f.path().extension() != ".json") continue;
    if (nlohmann::json::parse(read_text(f.path().string()))
            .contains(nlohmann::json::json_pointer("/job/model")))
      files.push_back(f.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace goodput::calib::test
