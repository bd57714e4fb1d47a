#include "calibrate/harness/gemm_bench.hpp"

#include <iostream>
#include <stdexcept>

#include "calibrate/harness/attention_bench.hpp"
#include "calibrate/harness/gemm_verify.hpp"
#include "calibrate/harness/lt_matmul.hpp"

namespace goodput::calib {

GemmCall linear_call(const GemmQuery& q) {
  if (q.layout.size() != 2) throw std::invalid_argument("linear GEMM needs a layout like \"TN\"");
  GemmCall c;
  c.trans_a = q.layout[0] == 'T';
  c.trans_b = q.layout[1] == 'T';
  // Row-major C[m x n] is column-major C^T: cuBLAS computes an (n x m) result.
  c.m = q.n;
  c.n = q.m;
  c.k = q.k;
  c.lda = c.trans_a ? c.k : c.m;
  c.ldb = c.trans_b ? c.n : c.k;
  c.ldc = c.m;
  c.stride_a = c.m * c.k;
  c.stride_b = c.k * c.n;
  c.stride_c = c.m * c.n;
  return c;
}

namespace {

struct LinearRun {
  GemmCall call;
  DeviceBuffer a, b, c;
  std::unique_ptr<LtMatmul> mm;

  LinearRun(BenchContext& ctx, const GemmQuery& q)
      : call(linear_call(q)),
        a(2 * call.m * call.k),
        b(2 * call.k * call.n),
        c(2 * call.m * call.n),
        mm(std::make_unique<LtMatmul>(ctx.lt(), call, ctx.workspace_bytes())) {
    fill_random_bf16(a.get(), call.m * call.k, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
    fill_random_bf16(b.get(), call.k * call.n, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
    call.a = a.get();
    call.b = b.get();
    call.c = c.get();
  }
  void run(BenchContext& ctx, cudaStream_t s) const {
    mm->run(a.get(), b.get(), c.get(), ctx.workspace(), s);
  }
  // The output of the last run against the sampled reference, with the allowance of the
  // algorithm cuBLASLt picked (bf16 split-K reductions).
  GemmCheck verify(BenchContext& ctx) const {
    return verify_gemm(call, ctx.next_seed(), ctx.stream(),
                       bf16_reduction_allowance(mm->output_type_splits()));
  }
};

}  // namespace

Verification bench_gemm_ceiling(BenchContext& ctx, Ceilings& ceilings) {
  const GemmQuery q{"ceiling", Pass::fwd, kCeilingGemmDim, kCeilingGemmDim, kCeilingGemmDim,
                    1,         "TN"};
  LinearRun run(ctx, q);
  run.run(ctx, ctx.stream());
  const GemmCheck check = run.verify(ctx);
  const TimeStats t = ctx.timer().measure([&](cudaStream_t s) { run.run(ctx, s); }, ctx.stop());
  ceilings.gemm_tflops = gemm_flops(q) / t.median / 1e12;
  ceilings.gemm_m = ceilings.gemm_n = ceilings.gemm_k = kCeilingGemmDim;
  ctx.gemm_ceiling_tflops = ceilings.gemm_tflops;
  return check.verification;
}

GemmEntry bench_gemm(BenchContext& ctx, const GemmJob& job) {
  const GemmQuery& q = job.query;
  GemmEntry e = entry_of(job);
  double executed = 1.0;  // share of gemm_flops(q) the kernels executed
  if (q.name == "attention") {
    AttentionResult r = bench_attention(ctx, q);
    e.time_s = r.time;
    e.verification = r.verification;
    executed = r.executed_fraction;
    e.algo = "cublasGemmStridedBatchedEx CUBLAS_GEMM_DEFAULT, causal tiles";
  } else {
    LinearRun run(ctx, q);
    run.run(ctx, ctx.stream());
    const GemmCheck check = run.verify(ctx);
    e.verification = check.verification;
    if (check.verification != Verification::passed)
      std::cerr << "goodput-calibrate: " << q.name << " " << to_string(q.pass) << " " << q.m << "x"
                << q.n << "x" << q.k << " (" << run.mm->algo() << ") verification "
                << check.describe() << "\n";
    e.time_s = ctx.timer().measure([&](cudaStream_t s) { run.run(ctx, s); }, ctx.stop());
    e.algo = run.mm->algo();
  }
  e.tflops = executed * gemm_flops(q) / e.time_s.median / 1e12;
  e.fraction_of_ceiling = ctx.gemm_ceiling_tflops > 0 ? e.tflops / ctx.gemm_ceiling_tflops : 0.0;
  return e;
}

}  // namespace goodput::calib
