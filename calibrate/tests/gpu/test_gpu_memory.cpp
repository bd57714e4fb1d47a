#include <doctest/doctest.h>

#include "calibrate/harness/memory_bench.hpp"
#include "calibrate/harness/reshard_bench.hpp"
#include "calibrate/tests/gpu/gpu_test_util.hpp"

using namespace goodput::calib;

namespace {

MemoryKernelJob job(MemoryKernel k, std::int64_t rows, std::int64_t cols) {
  return {"tiny", {1}, k, rows, cols, memory_kernel_bytes(k, rows, cols)};
}

}  // namespace

TEST_CASE("memory-bound kernels equal the CPU reference on their slices, every code path") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  Ceilings c;
  REQUIRE(bench_copy_ceiling(ctx, c) == Verification::passed);
  // Vectorised (cols a multiple of 8) and scalar (odd cols) paths; softmax over a row too long
  // for shared memory (128256 bf16 = 250 KiB: read again from L2); adam with n % 4 != 0.
  const MemoryKernelJob jobs[] = {
      job(MemoryKernel::rmsnorm, 333, 4096),   job(MemoryKernel::rmsnorm, 17, 1001),
      job(MemoryKernel::layernorm, 257, 5120), job(MemoryKernel::layernorm, 9, 77),
      job(MemoryKernel::swiglu, 129, 1792),    job(MemoryKernel::swiglu, 5, 301),
      job(MemoryKernel::gelu, 64, 2560),       job(MemoryKernel::gelu, 3, 999),
      job(MemoryKernel::softmax, 64, 16032),   job(MemoryKernel::softmax, 4, 128256),
      job(MemoryKernel::softmax, 7, 333),      job(MemoryKernel::adam, 1 << 20, 1),
      job(MemoryKernel::adam, 100003, 1),
  };
  for (const MemoryKernelJob& j : jobs) {
    CAPTURE(std::string(to_string(j.kernel)));
    CAPTURE(j.rows);
    CAPTURE(j.cols);
    const MemoryKernelEntry e = bench_memory_kernel(ctx, j);
    CHECK(e.verification == Verification::passed);
    CHECK(e.bytes == j.bytes);
    CHECK(e.time_s.samples >= kQuickStop.min_samples);
    CHECK(e.gbps > 0.0);
    CHECK(e.fraction_of_ceiling == doctest::Approx(e.gbps / c.copy_gbps));
  }
}

TEST_CASE("a large memory-bound kernel streams near the copy bandwidth") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  Ceilings c;
  REQUIRE(bench_copy_ceiling(ctx, c) == Verification::passed);
  // 256 MiB in, 256 MiB out: launch overhead is negligible; a simple streaming kernel should
  // reach at least half of cudaMemcpy's rate and never beat it by much (its bytes are right).
  for (MemoryKernel k : {MemoryKernel::gelu, MemoryKernel::rmsnorm, MemoryKernel::adam}) {
    CAPTURE(std::string(to_string(k)));
    const MemoryKernelJob j = k == MemoryKernel::adam ? job(k, 1 << 24, 1) : job(k, 16384, 8192);
    const MemoryKernelEntry e = bench_memory_kernel(ctx, j);
    MESSAGE(to_string(k) << ": " << e.gbps << " GB/s, " << e.fraction_of_ceiling
                         << " of the copy ceiling");
    CHECK(e.verification == Verification::passed);
    CHECK(e.fraction_of_ceiling > 0.5);
    CHECK(e.fraction_of_ceiling < 1.15);
  }
}
