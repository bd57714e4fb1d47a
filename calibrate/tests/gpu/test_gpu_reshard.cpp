#include <doctest/doctest.h>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"
#include "calibrate/harness/multi_gpu_bench.hpp"
#include "calibrate/harness/reshard_bench.hpp"
#include "calibrate/profile/reshard_map.hpp"
#include "calibrate/tests/gpu/gpu_test_util.hpp"

using namespace goodput::calib;

namespace {

std::vector<ReshardJob> jobs_for(std::int64_t cols, int n1, int n2, std::int64_t rows) {
  std::vector<ReshardJob> out;
  // Build the same five jobs the planner makes, for an arbitrary geometry.
  const ReshardPlan p = make_reshard_plan(cols, n1, n2);
  const std::int64_t extra_bytes = rows * p.shard_cols(n2) * kGradElemBytes;
  const std::int64_t core_bytes = rows * p.received_cols(0) * kGradElemBytes;
  out.push_back({n1, n2, cols, rows, "pack", "extra", n2, extra_bytes});
  out.push_back({n1, n2, cols, rows, "unpack", "core", 0, core_bytes});
  out.push_back({n1, n2, cols, rows, "pack", "core", 0, core_bytes});
  out.push_back({n1, n2, cols, rows, "unpack", "extra", n2, extra_bytes});
  out.push_back({n1, n2, cols, rows, "d2d", "any", n2, extra_bytes});
  return out;
}

}  // namespace

TEST_CASE("reshard pack/unpack kernels equal the CPU reference exactly") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  Ceilings c;
  REQUIRE(bench_copy_ceiling(ctx, c) == Verification::passed);
  MESSAGE("copy ceiling " << c.copy_gbps << " GB/s");
  struct Geometry {
    std::int64_t cols;
    int n1, n2;
    std::int64_t rows;
  };
  // NTP notes (25-column moves, 8-byte vectors with merges), unaligned odd sizes, 16-byte
  // aligned, and the NTP paper's 480B QKV at TP32 -> TP24 and TP32 -> TP31.
  for (const Geometry g :
       {Geometry{12000, 32, 30, 256}, Geometry{1001, 9, 4, 33}, Geometry{65536, 16, 14, 512},
        Geometry{61440, 32, 24, 64}, Geometry{61440, 32, 31, 64}}) {
    for (const ReshardJob& job : jobs_for(g.cols, g.n1, g.n2, g.rows)) {
      CAPTURE(g.cols);
      CAPTURE(job.kernel);
      CAPTURE(job.role);
      const ReshardEntry e = bench_reshard(ctx, job);
      CHECK(e.verification == Verification::passed);
      CHECK(e.gbps > 0.0);
    }
  }
}

TEST_CASE("copy plans choose the vector width per block, >= 8 bytes for real widths") {
  GOODPUT_REQUIRE_GPU();
  (void)select_device(0);
  const std::int64_t rows = 8;
  // 65536 columns over 16 ranks, TP16 -> TP14: moves of ~585 columns: 16-byte vectors.
  const ReshardPlan aligned = make_reshard_plan(65536, 16, 14);
  const std::vector<CopyBlock> a = pack_at_extra(aligned, 14, rows);
  const CopyPlan pa(a, rows * aligned.shard_cols(14), 132, nullptr);
  REQUIRE(pa.vector_elems().size() == a.size());
  for (int v : pa.vector_elems()) CHECK(v == 8);
  // The NTP notes' 25-column moves (odd width, odd leading dimension 375): 8-byte vectors,
  // realigned by the merge, not the 2-byte scalar copies of a per-plan width.
  const ReshardPlan odd = make_reshard_plan(12000, 32, 30, 1);
  const std::vector<CopyBlock> o = unpack_at_core(odd, 0, rows);
  const CopyPlan po(o, rows * odd.received_cols(0), 132, nullptr);
  REQUIRE(po.vector_elems().size() == o.size());
  for (int v : po.vector_elems()) CHECK(v == 4);
  // The same geometry dealt in 8-column units (the default): 16-byte vectors throughout.
  const ReshardPlan dealt = make_reshard_plan(12000, 32, 30);
  const std::vector<CopyBlock> d = unpack_at_core(dealt, 0, rows);
  const CopyPlan pd(d, rows * dealt.received_cols(0), 132, nullptr);
  for (int v : pd.vector_elems()) CHECK(v == 8);
  GOODPUT_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("peer copy and NCCL all-to-all verify (two or more GPUs)") {
  GOODPUT_REQUIRE_GPU();
  BenchContext ctx(select_device(0), kQuickStop);
  if (ctx.device().device_count < 2) {
    MESSAGE("skipped: one GPU (" << nccl_status(1) << ")");
    return;
  }
  const std::vector<ReshardEntry> entries = bench_multi_gpu(ctx, jobs_for(65536, 16, 14, 512)[0]);
  REQUIRE_FALSE(entries.empty());
  for (const ReshardEntry& e : entries) {
    CAPTURE(e.kernel);
    CHECK(e.verification == Verification::passed);
  }
}
