// Memory-bound kernels in profiles: their byte counts, the analytical entries and the lookup
// (memory_kernel_time: exact at a measured size, interpolated, clamped, never faster than the
// HBM ceiling, a copy-ceiling fallback when absent, and where each number came from).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "calibrate/tests/profile_fixture.hpp"
#include "sim/core/error.hpp"

using namespace goodput::calib;

namespace {

// A measured-shaped profile whose only memory-bound entries are `rmsnorm` at the given
// (bytes-defining rows, GB/s) points, cols 1024.
Profile with_rmsnorm_points(const std::vector<std::pair<std::int64_t, double>>& points) {
  Profile p = test::test_profile();
  p.memory_kernels.clear();
  for (const auto& [rows, gbps] : points) {
    MemoryKernelEntry e;
    e.model = "small";
    e.tp = {8};
    e.kernel = MemoryKernel::rmsnorm;
    e.rows = rows;
    e.cols = 1024;
    e.bytes = memory_kernel_bytes(e.kernel, e.rows, e.cols);
    const double t = static_cast<double>(e.bytes) / (gbps * 1e9);
    e.time_s = TimeStats{t, t, t, t, 0.0, 0.0, 10, "converged"};
    e.gbps = gbps;
    e.fraction_of_ceiling = gbps / p.ceilings.copy_gbps;
    e.verification = Verification::passed;
    p.memory_kernels.push_back(e);
  }
  return p;
}

}  // namespace

TEST_CASE("memory kernel bytes: reads plus writes, as the README's table says") {
  CHECK(memory_kernel_bytes(MemoryKernel::rmsnorm, 16, 4096) == 2 * 2 * 16 * 4096 + 2 * 4096);
  CHECK(memory_kernel_bytes(MemoryKernel::layernorm, 16, 4096) == 2 * 2 * 16 * 4096 + 4 * 4096);
  CHECK(memory_kernel_bytes(MemoryKernel::swiglu, 16, 4096) == 3 * 2 * 16 * 4096);
  CHECK(memory_kernel_bytes(MemoryKernel::gelu, 16, 4096) == 2 * 2 * 16 * 4096);
  CHECK(memory_kernel_bytes(MemoryKernel::softmax, 16, 4096) == 2 * 2 * 16 * 4096);
  // Adam: fp32 master, m, v read and written (24), bf16 gradient read and copy written (4).
  CHECK(memory_kernel_bytes(MemoryKernel::adam, 1000, 1) == 28 * 1000);
  CHECK_THROWS(memory_kernel_bytes(MemoryKernel::gelu, 0, 8));
  for (const auto& n : kMemoryKernelNames) {
    CHECK(to_string(n.value) == n.name);
    CHECK(std::string(memory_kernel_dtype(n.value)) ==
          (n.value == MemoryKernel::adam ? "fp32_state_bf16_grad" : "bf16"));
  }
}

TEST_CASE("analytical memory kernels: datasheet HBM at its efficiency plus a launch") {
  const Profile h100 = analytical_profile("H100", standard_models());
  REQUIRE_FALSE(h100.memory_kernels.empty());
  const double hbm = 3350.0 * h100.settings.analytical_model->hbm_efficiency;
  for (const MemoryKernelEntry& e : h100.memory_kernels) {
    CAPTURE(std::string(to_string(e.kernel)));
    const double t = h100.settings.analytical_model->launch_s + double(e.bytes) / (hbm * 1e9);
    CHECK(e.time_s.median == doctest::Approx(t));
    CHECK(e.gbps < hbm);
    CHECK(e.bytes == memory_kernel_bytes(e.kernel, e.rows, e.cols));
    CHECK(e.verification == Verification::not_applicable);
    const MemoryKernelTime at = memory_kernel_time(h100, e.kernel, double(e.bytes));
    CHECK(at.source == MemoryKernelSource::datasheet);
    CHECK(at.time_s == e.time_s.median);
  }
}

TEST_CASE("memory kernel lookup: exact at a measured size, interpolated, clamped") {
  const std::int64_t small = 64, large = 4096;
  const Profile p = with_rmsnorm_points({{large, 3000.0}, {small, 1000.0}});
  const double b_small = double(memory_kernel_bytes(MemoryKernel::rmsnorm, small, 1024));
  const double b_large = double(memory_kernel_bytes(MemoryKernel::rmsnorm, large, 1024));
  const MemoryKernelTime at = memory_kernel_time(p, MemoryKernel::rmsnorm, b_small);
  CHECK(at.source == MemoryKernelSource::measured);
  CHECK(to_string(at.source) == "profile measurement");
  CHECK(at.time_s == p.memory_kernels[1].time_s.median);
  CHECK(memory_kernel_time_s(p, MemoryKernel::rmsnorm, b_large) ==
        p.memory_kernels[0].time_s.median);
  // Halfway in log(bytes): halfway in GB/s.
  const double mid = std::sqrt(b_small * b_large);
  CHECK(memory_kernel_time(p, MemoryKernel::rmsnorm, mid).gbps == doctest::Approx(2000.0));
  // Between the sizes the bandwidth grows monotonically; outside, the nearest size's.
  double last = 0.0;
  for (double b = b_small; b <= b_large; b *= 1.5) {
    const double g = memory_kernel_time(p, MemoryKernel::rmsnorm, b).gbps;
    CHECK(g >= last);
    CHECK(g >= 1000.0);
    CHECK(g <= 3000.0);
    last = g;
  }
  CHECK(memory_kernel_time(p, MemoryKernel::rmsnorm, b_small / 100).gbps == 1000.0);
  CHECK(memory_kernel_time(p, MemoryKernel::rmsnorm, b_large * 100).gbps == 3000.0);
  CHECK(memory_kernel_time_s(p, MemoryKernel::rmsnorm, 0.0) == 0.0);
}

TEST_CASE("memory kernel lookup never prices a kernel faster than bytes / the HBM ceiling") {
  // An entry measured above the copy ceiling (which the check flags) is capped at it.
  const Profile fast = with_rmsnorm_points({{1024, 1.2 * test::test_profile().ceilings.copy_gbps}});
  const Profile analytical = analytical_profile("B200", standard_models());
  const Profile measured = test::test_profile();
  for (const Profile* p : {&fast, &analytical, &measured}) {
    for (const auto& k : kMemoryKernelNames) {
      for (double b = 1e3; b < 1e12; b *= 3.7) {
        CAPTURE(b);
        const double t = memory_kernel_time_s(*p, k.value, b);
        CHECK(t >= b / (p->ceilings.copy_gbps * 1e9) * (1 - 1e-12));
      }
    }
  }
  const double b = double(fast.memory_kernels[0].bytes);
  CHECK(memory_kernel_time(fast, MemoryKernel::rmsnorm, b).gbps == fast.ceilings.copy_gbps);
}

TEST_CASE("memory kernel lookup falls back to the copy ceiling when the profile lacks the kernel") {
  Profile measured = test::test_profile();
  measured.memory_kernels.clear();  // as a version 1 profile
  const MemoryKernelTime t = memory_kernel_time(measured, MemoryKernel::adam, 28e6);
  CHECK(t.source == MemoryKernelSource::copy_ceiling_fallback);
  CHECK(to_string(t.source) == "copy ceiling fallback");
  CHECK(t.time_s == doctest::Approx(28e6 / (measured.ceilings.copy_gbps * 1e9)));
  // Datasheet ceilings: at the analytical model's HBM efficiency, as the step model prices them.
  Profile analytical = analytical_profile("H200", standard_models());
  analytical.memory_kernels.clear();
  const double eff = analytical.settings.analytical_model->hbm_efficiency;
  CHECK(memory_kernel_time_s(analytical, MemoryKernel::gelu, 1e9) ==
        doctest::Approx(1e9 / (4800e9 * eff)));
  // A kernel the profile's models do not run falls back too; the others do not.
  const Profile h200 = analytical_profile("H200", standard_models());
  CHECK(memory_kernel_time(h200, MemoryKernel::rmsnorm, 1e9).source ==
        MemoryKernelSource::datasheet);
  const Profile gpt = analytical_profile("H200", standard_models()[0].shape, 32, 24);  // no gate
  CHECK(memory_kernel_time(gpt, MemoryKernel::rmsnorm, 1e9).source ==
        MemoryKernelSource::copy_ceiling_fallback);
  CHECK(memory_kernel_time(gpt, MemoryKernel::layernorm, 1e9).source ==
        MemoryKernelSource::datasheet);
}

TEST_CASE("memory kernel lookup refuses an entry that failed verification") {
  Profile p = with_rmsnorm_points({{64, 1000.0}, {4096, 3000.0}});
  p.memory_kernels[1].verification = Verification::failed;
  try {
    (void)memory_kernel_time_s(p, MemoryKernel::rmsnorm, 1e6);
    FAIL("expected the failed entry to be refused");
  } catch (const goodput::InputError& e) {
    CHECK(e.locator() == "/memory_kernels/1/verification");
  }
  CHECK(memory_kernel_time_s(p, MemoryKernel::gelu, 1e6) > 0.0);  // other kernels still answer
}
