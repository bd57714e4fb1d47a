// GEMM benchmarks: the layer's linear GEMMs (cuBLASLt), attention (cuBLAS strided-batched
// QK^T / PV and their backward GEMMs) and the GEMM ceiling. Contract: each allocates its own
// buffers (random non-zero bf16), verifies every distinct GEMM call once, then times the
// whole query under the context's stopping rule and returns a complete profile entry
// (TFLOP/s = gemm_flops / median time; fraction = TFLOP/s / the context's GEMM ceiling).
#pragma once

#include "calibrate/harness/bench_context.hpp"
#include "calibrate/harness/kernels.hpp"
#include "calibrate/profile/plan.hpp"

namespace goodput::calib {

GemmEntry bench_gemm(BenchContext& ctx, const GemmJob& job);  // linear or attention

// Measures a kCeilingGemmDim^3 GEMM; sets ctx.gemm_ceiling_tflops. Returns its verification.
Verification bench_gemm_ceiling(BenchContext& ctx, Ceilings& ceilings);

// cuBLAS column-major call for a logical row-major linear-layer query (see shapes.hpp).
GemmCall linear_call(const GemmQuery& q);

}  // namespace goodput::calib
