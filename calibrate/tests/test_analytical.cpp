#include <doctest/doctest.h>

#include <cctype>
#include <string>

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
  // Same compute, more bandwidth: H200 linear GEMMs as fast as H100's; attention (memory-
  // bound when unfused) and the reshard faster.
  const ModelShape big = standard_models()[0].shape;
  const GemmQuery up = layer_gemms(big, 30)[6];
  REQUIRE(up.name == "mlp_up");
  CHECK(gemm_time_s(h200, up) == doctest::Approx(gemm_time_s(h100, up)));
  CHECK(layer_time(h200, big, 30).fwd_s < layer_time(h100, big, 30).fwd_s);
  CHECK(reshard_time_s(h200, 1 << 28) < reshard_time_s(h100, 1 << 28));
  CHECK(layer_time(b200, big, 30).fwd_s < 0.5 * layer_time(h100, big, 30).fwd_s);
  CHECK_THROWS(analytical_profile("A100", standard_models()));
  // GB200: 2.5 PFLOP/s dense BF16 per GPU (the NVL72 datasheet's 10 sparse per 2-GPU superchip).
  const Profile gb200 = analytical_profile("GB200", standard_models());
  CHECK(gemm_ceiling_tflops(gb200) == 2500.0);
  CHECK(layer_time(gb200, big, 30).fwd_s < layer_time(b200, big, 30).fwd_s);
}

TEST_CASE("shipped analytical profiles are what the generator produces today") {
  for (const char* gpu : {"H100", "H200", "B200", "GB200"}) {
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
