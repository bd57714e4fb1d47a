#include <doctest/doctest.h>

#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "calibrate/tests/profile_fixture.hpp"

using namespace goodput::calib;

TEST_CASE("analytical profiles use the datasheet peaks and plausible efficiencies") {
  const Profile h100 = analytical_profile("H100", standard_models());
  const Profile h200 = analytical_profile("H200", standard_models());
  const Profile b200 = analytical_profile("B200", standard_models());
  CHECK(h100.source == Source::analytical);
  CHECK(gemm_ceiling_tflops(h100) == 989.0);
  CHECK(gemm_ceiling_tflops(b200) == 2250.0);
  CHECK(copy_ceiling_gbps(h200) == 4800.0);
  CHECK(device_name(b200).find("B200") != std::string::npos);
  for (const Profile* p : {&h100, &h200, &b200}) {
    for (const GemmEntry& e : p->gemm) {
      CHECK(e.verification == Verification::not_applicable);
      CHECK(e.fraction_of_ceiling <= 0.8);
      if (e.name != "attention") CHECK(e.fraction_of_ceiling > 0.7);  // large shapes: 0.75-0.8
    }
  }
  // Same compute, more bandwidth: H200 linear GEMMs and flash attention (compute-bound, the
  // same efficiency) as fast as H100's; the unfused attention GEMMs (memory-bound) and the
  // reshard faster.
  const ModelShape big = standard_models()[0].shape;
  const GemmQuery up = layer_gemms(big, 30)[6];
  REQUIRE(up.name == "mlp_up");
  CHECK(gemm_time_s(h200, up) == doctest::Approx(gemm_time_s(h100, up)));
  CHECK(layer_time(h200, big, 30).fwd_s == doctest::Approx(layer_time(h100, big, 30).fwd_s));
  const GemmQuery scores = layer_gemms(big, 30).back();
  REQUIRE(scores.name == "attention");
  CHECK(gemm_time_s(h200, scores) < gemm_time_s(h100, scores));
  CHECK(reshard_time_s(h200, 1 << 28) < reshard_time_s(h100, 1 << 28));
  CHECK(layer_time(b200, big, 30).fwd_s < 0.5 * layer_time(h100, big, 30).fwd_s);
  CHECK_THROWS(analytical_profile("V100", standard_models()));
  // GB200: 2.5 PFLOP/s dense BF16 per GPU (the NVL72 datasheet's 10 sparse per 2-GPU superchip).
  const Profile gb200 = analytical_profile("GB200", standard_models());
  CHECK(gemm_ceiling_tflops(gb200) == 2500.0);
  CHECK(layer_time(gb200, big, 30).fwd_s < layer_time(b200, big, 30).fwd_s);
}

TEST_CASE("every GPU of the catalogue has an analytical profile at its datasheet figures") {
  const ModelShape big = standard_models()[0].shape;
  for (const GpuSpec& g : gpu_catalogue()) {
    CAPTURE(g.name);
    const Profile p = analytical_profile(g.name, standard_models());
    CHECK(gemm_ceiling_tflops(p) == g.bf16_dense_tflops);
    CHECK(copy_ceiling_gbps(p) == g.hbm_bandwidth_gbps);
    CHECK(p.device.sm_count == g.sm_count);
    CHECK(p.device.memory_bytes == static_cast<std::int64_t>(g.hbm_capacity_gb * 1e9));
    CHECK(p.device.compute_capability == g.compute_capability);
    REQUIRE(p.settings.analytical_model.has_value());
    CHECK(p.settings.analytical_model->gpu == g.name);
    CHECK(p.settings.analytical_model->datasheet == g.peaks_source);
    REQUIRE(p.settings.analytical_model->flash_attention.has_value());
    CHECK(p.settings.analytical_model->flash_attention->fwd_efficiency ==
          g.attention_fwd_efficiency);
    CHECK(p.settings.analytical_model->flash_attention->bwd_efficiency ==
          g.attention_bwd_efficiency);
    CHECK(p.settings.analytical_model->flash_attention->source == g.attention_source);
    CHECK(p.attention.size() == make_plan(standard_models(), false).attention.size());
    // No GEMM beats the peak; large ones reach 70-80 % of it.
    for (const GemmEntry& e : p.gemm) {
      CHECK(e.tflops <= g.bf16_dense_tflops);
      if (e.name != "attention") CHECK(e.fraction_of_ceiling > 0.7);
    }
    // By name or by its figures: the same profile.
    CHECK(profile_text(analytical_profile(g, standard_models())) == profile_text(p));
    // A large GEMM's time scales inversely with the peak (its HBM floor does not bind).
    const GemmQuery up = layer_gemms(big, 30)[6];
    GpuSpec twice = g;
    twice.bf16_dense_tflops *= 2;
    CHECK(gemm_time_s(analytical_profile(twice, standard_models()), up) <
          0.51 * gemm_time_s(p, up));
  }
  // A GPU of one's own needs its two peaks.
  GpuSpec none;
  none.name = "X";
  CHECK_THROWS_AS(analytical_profile(none, standard_models()), std::invalid_argument);
}

TEST_CASE("shipped analytical profiles are what the generator produces today") {
  for (const GpuSpec& g : gpu_catalogue()) {
    const char* gpu = g.name.c_str();
    CAPTURE(gpu);
    std::string lower(gpu);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string path =
        std::string(GOODPUT_CALIB_SOURCE_DIR) + "/profiles/" + lower + "-analytical.json";
    const Profile shipped = load_profile(path);
    const Profile fresh = analytical_profile(gpu, standard_models());
    CHECK(profile_text(shipped) == profile_text(fresh));
    CHECK(test::read_text(path) == profile_text(fresh));
  }
}
