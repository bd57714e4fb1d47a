#include <doctest/doctest.h>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/gemm_bench.hpp"
#include "calibrate/harness/gemm_verify.hpp"
#include "calibrate/harness/lt_matmul.hpp"
#include "calibrate/tests/gpu/gpu_test_util.hpp"

using namespace goodput::calib;

TEST_CASE("linear GEMMs run and verify in all three layouts, uneven shapes included") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  ModelShape m{"tiny", 768, 12, 4, 3000, true, 512, 1};
  for (const GemmQuery& q : layer_gemms(m, 7)) {  // ceil(12/7) = 2 heads, ceil(3000/7) = 429
    CAPTURE(q.name);
    CAPTURE(std::string(to_string(q.pass)));
    const GemmEntry e = bench_gemm(ctx, GemmJob{"tiny", {7}, q});
    CAPTURE(e.algo);
    CHECK(e.verification == Verification::passed);
    CHECK(e.time_s.median > 0.0);
    CHECK(e.time_s.samples >= kQuickStop.min_samples);
    CHECK(e.tflops > 0.0);
    if (q.name != "attention") CHECK(e.algo.find("id=") == 0);
  }
}

TEST_CASE("GEMM verification catches a wrong result") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  const GemmQuery q{"mlp_up", Pass::fwd, 256, 384, 320, 1, "TN"};
  GemmCall call = linear_call(q);
  DeviceBuffer a(2 * call.m * call.k), b(2 * call.k * call.n), c(2 * call.m * call.n);
  fill_random_bf16(a.get(), call.m * call.k, 1, kRandomMinMagnitude, ctx.stream());
  fill_random_bf16(b.get(), call.k * call.n, 2, kRandomMinMagnitude, ctx.stream());
  call.a = a.get();
  call.b = b.get();
  call.c = c.get();
  LtMatmul mm(ctx.lt(), call, ctx.workspace_bytes());
  mm.run(a.get(), b.get(), c.get(), ctx.workspace(), ctx.stream());
  const double allowance = bf16_reduction_allowance(mm.output_type_splits());
  CHECK(verify_gemm(call, 3, ctx.stream(), allowance).verification == Verification::passed);
  GOODPUT_CUDA(cudaMemsetAsync(c.get(), 0, 2 * 64, ctx.stream()));  // zero the first column
  const GemmCheck bad = verify_gemm(call, 3, ctx.stream(), allowance);
  CHECK(bad.verification == Verification::failed);
  CHECK(bad.bad_points >= 1);
  // The bf16 split-K allowance at a split of 16 (1/16 of sum |a b|, about |ref| here) still
  // catches a result that is wrong everywhere.
  GOODPUT_CUDA(cudaMemsetAsync(c.get(), 0, 2 * call.m * call.n, ctx.stream()));
  CHECK(verify_gemm(call, 3, ctx.stream(), bf16_reduction_allowance(16)).verification ==
        Verification::failed);
}

TEST_CASE("causal attention tiles (strided batched) verify, backward is about twice forward") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  for (std::int64_t seq : {512, 2048}) {  // 2 and 8 causal tiles
    CAPTURE(seq);
    const GemmEntry fwd = bench_gemm(ctx, {"tiny", {4}, attention_query(3, seq, 64, 2, Pass::fwd)});
    const GemmEntry bwd =
        bench_gemm(ctx, {"tiny", {4}, attention_query(3, seq, 64, 2, Pass::bwd_data)});
    CHECK(fwd.verification == Verification::passed);
    CHECK(bwd.verification == Verification::passed);
    CHECK(bwd.time_s.median > fwd.time_s.median);
    CHECK(fwd.algo.find("causal") != std::string::npos);
  }
}

TEST_CASE("ceilings are measured and verified") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  Ceilings c;
  CHECK(bench_gemm_ceiling(ctx, c) == Verification::passed);
  CHECK(c.gemm_tflops > 1.0);
  CHECK(ctx.gemm_ceiling_tflops == c.gemm_tflops);
  MESSAGE("GEMM ceiling " << c.gemm_tflops << " TFLOP/s");
}
