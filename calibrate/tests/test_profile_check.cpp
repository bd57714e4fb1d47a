#include <doctest/doctest.h>

#include <string>

#include "calibrate/profile/profile_check.hpp"

using namespace goodput::calib;

namespace {

GemmEntry gemm(const char* name, std::int64_t m, std::int64_t n, std::int64_t k, double tflops,
               double t) {
  GemmEntry e;
  e.model = std::string("m");  // moves, not assign(const char*): avoids GCC 12's false -Wrestrict
  e.tp = {8};
  e.name = std::string(name);
  e.m = m;
  e.n = n;
  e.k = k;
  e.tflops = tflops;
  e.time_s.median = t;
  e.verification = Verification::passed;
  return e;
}

ReshardEntry reshard(const char* kernel, double gbps, double t) {
  ReshardEntry e;
  e.n1 = 8;
  e.n2 = 7;
  e.cols = 1000;
  e.rows = 64;
  e.bytes = std::int64_t{128} << 20;
  e.kernel = std::string(kernel);
  e.role = std::string("extra");
  e.gbps = gbps;
  e.time_s.median = t;
  e.verification = Verification::passed;
  return e;
}

}  // namespace

TEST_CASE(
    "profile check: ceilings thresholds flag, small shapes, small copies and links are not "
    "checked") {
  Profile m;
  m.device.name = "NVIDIA H200";
  m.ceilings.gemm_tflops = 700;
  m.ceilings.copy_gbps = 4000;
  m.gemm = {gemm("qkv", 4096, 4096, 4096, 600, 1e-3),        // 0.86 of ceiling: fine
            gemm("mlp_up", 4096, 8192, 4096, 400, 2e-3),     // 0.57: flagged
            gemm("attn_out", 512, 4096, 4096, 100, 1e-4),    // small: not checked
            gemm("attention", 8192, 8192, 128, 300, 5e-3)};  // attention: not checked
  m.reshard = {reshard("pack", 3000, 1e-5), reshard("unpack", 2000, 1e-5),
               reshard("peer", 100, 1e-3), reshard("pack", 1000, 1e-6)};
  m.reshard[3].bytes = kCheckLargeCopyBytes - 1;  // latency-bound: reported, not checked
  m.reshard[3].cols = 500;                        // (no analytical twin)
  m.gemm[0].verification = Verification::passed;
  Profile a;
  a.ceilings.gemm_tflops = 989;
  a.ceilings.copy_gbps = 4800;
  a.gemm = {gemm("qkv", 4096, 4096, 4096, 0, 0.3e-3)};  // measured 3.3x slower: noted
  a.reshard = {reshard("pack", 0, 0.9e-5)};
  const CheckReport r = check_profile(m, a);
  REQUIRE(r.rows.size() == 8);
  CHECK(r.rows[0].flag.empty());
  CHECK(r.rows[0].fraction == doctest::Approx(600.0 / 700));
  CHECK_FALSE(r.rows[0].note.empty());  // 3.33x the analytical time
  CHECK_FALSE(r.rows[1].flag.empty());
  CHECK_FALSE(r.rows[2].checked);
  CHECK(r.rows[2].flag.empty());
  CHECK_FALSE(r.rows[3].checked);
  CHECK(r.rows[4].flag.empty());
  CHECK(r.rows[4].note.empty());  // 1.1x: within a factor 2
  CHECK(r.rows[4].analytical_s == doctest::Approx(0.9e-5));
  CHECK_FALSE(r.rows[5].flag.empty());  // 0.5 of the copy bandwidth
  CHECK_FALSE(r.rows[6].checked);       // peer copy: a link, not HBM
  CHECK_FALSE(r.rows[7].checked);       // 0.25 of the copy bandwidth, but a small copy
  CHECK(r.rows[7].flag.empty());
  CHECK(r.flagged == 2);
  CHECK(r.noted == 1);
  m.reshard[0].verification = Verification::failed;
  CHECK(check_profile(m, a).rows[4].flag == "verification failed");
  const std::string md = to_markdown(r);
  CHECK(md.find("**large GEMM below 70 % of the measured GEMM ceiling**") != std::string::npos);
  CHECK(md.find("8 entries, 2 flagged") != std::string::npos);
}

TEST_CASE("profile check: the datasheet GPU from the device name") {
  CHECK(datasheet_gpu_of("NVIDIA H200") == "H200");
  CHECK(datasheet_gpu_of("NVIDIA H100 80GB HBM3") == "H100");
  CHECK(datasheet_gpu_of("NVIDIA B200") == "B200");
  CHECK(datasheet_gpu_of("NVIDIA GB200") == "GB200");  // not B200, which it contains
  CHECK(datasheet_gpu_of("NVIDIA A100-SXM4-80GB") == "A100-80GB");
  CHECK(datasheet_gpu_of("NVIDIA A100-PCIE-40GB").empty());  // another A100: not in the catalogue
}

TEST_CASE("profile check: memory-bound kernels faster than the copy bandwidth are flagged") {
  Profile m;
  m.device.name = "NVIDIA H200";
  m.ceilings.gemm_tflops = 800;
  m.ceilings.copy_gbps = 4000;
  auto entry = [](MemoryKernel k, std::int64_t rows, double gbps) {
    MemoryKernelEntry e;
    e.model = std::string("m");
    e.tp = {8};
    e.kernel = k;
    e.rows = rows;
    e.cols = 8192;
    e.bytes = memory_kernel_bytes(k, rows, 8192);
    e.gbps = gbps;
    e.time_s.median = static_cast<double>(e.bytes) / (gbps * 1e9);
    e.verification = Verification::passed;
    return e;
  };
  m.memory_kernels = {entry(MemoryKernel::rmsnorm, 1024, 3600),   // 0.9: fine
                      entry(MemoryKernel::swiglu, 1024, 1200),    // 0.3: reported, not flagged
                      entry(MemoryKernel::gelu, 1024, 4800),      // 1.2: bytes or flush wrong
                      entry(MemoryKernel::softmax, 1024, 3000)};  // failed verification
  m.memory_kernels[3].verification = Verification::failed;
  Profile a;
  a.ceilings.copy_gbps = 4800;
  a.memory_kernels = {entry(MemoryKernel::rmsnorm, 1024, 3840)};
  const CheckReport r = check_profile(m, a);
  REQUIRE(r.rows.size() == 4);
  CHECK(r.rows[0].kind == "memory");
  CHECK(r.rows[0].label ==
        "m rmsnorm tp8 1024x8192 " + std::to_string(m.memory_kernels[0].bytes) + " B");
  CHECK(r.rows[0].flag.empty());
  CHECK(r.rows[0].analytical_s == doctest::Approx(a.memory_kernels[0].time_s.median));
  CHECK(r.rows[0].fraction == doctest::Approx(0.9));
  CHECK(r.rows[1].flag.empty());
  CHECK(r.rows[2].flag == "faster than 1.15x the measured copy bandwidth");
  CHECK(r.rows[3].flag == "verification failed");
  CHECK(r.flagged == 2);
}
