// Memory-bound kernel benchmarks: one MemoryKernelJob of the plan (plan.hpp) timed on this GPU
// with the harness's own kernels (kernels.hpp, memory_kernels.cu). Contract: allocates its own
// buffers (bf16 inputs uniform in +-[0.5, 1]; adam: fp32 master weights likewise, m in
// +-[0.5, 1] x 1e-2, v in [0.5, 1] x 1e-2), verifies one call on a slice against the CPU
// reference (memory_reference.hpp, with settings.hpp's tolerances) outside the timed loop, times
// it under the context's stopping rule (warm-up, L2 flush, events) and returns a complete entry:
// GB/s = bytes / median time (bytes = memory_kernel_bytes, read + written), fraction = GB/s /
// the context's copy ceiling.
#pragma once

#include "calibrate/harness/bench_context.hpp"
#include "calibrate/profile/plan.hpp"

namespace goodput::calib {

MemoryKernelEntry bench_memory_kernel(BenchContext& ctx, const MemoryKernelJob& job);

}  // namespace goodput::calib
