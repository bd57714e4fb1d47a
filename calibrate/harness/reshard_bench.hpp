// Reshard benchmarks on one GPU: the pack/unpack kernels of a ReshardJob (the busiest rank of
// its role, see plan.hpp), a contiguous device-to-device copy of the same payload, and the
// copy ceiling. Contract: GB/s = (bytes read + bytes written) / median time = 2 * payload /
// time; fraction = GB/s / the context's copy ceiling. Pack/unpack are verified once by exact
// comparison of the whole destination buffer with the CPU reference (apply_blocks).
#pragma once

#include "calibrate/harness/bench_context.hpp"
#include "calibrate/profile/plan.hpp"

namespace goodput::calib {

ReshardEntry bench_reshard(BenchContext& ctx, const ReshardJob& job);

// Measures a kCopyCeilingBytes cudaMemcpyAsync; sets ctx.copy_ceiling_gbps.
Verification bench_copy_ceiling(BenchContext& ctx, Ceilings& ceilings);

}  // namespace goodput::calib
