// One bf16 GEMM through cuBLASLt with fp32 accumulation and the heuristic's top algorithm.
// Like PyTorch by default (allow_bf16_reduced_precision_reduction), the heuristic may pick a
// split-K algorithm that sums its partial results in bf16: output_type_splits() says so.
// Contract: the constructor builds the descriptors for the GemmCall's shape, ops and leading
// dimensions (pointers are ignored), asks the heuristic for one algorithm within the given
// workspace and throws if there is none; run() enqueues C = op(A) op(B) (alpha 1, beta 0).
#pragma once

#include <cublasLt.h>

#include <string>

#include "calibrate/harness/kernels.hpp"

namespace goodput::calib {

class LtMatmul {
 public:
  LtMatmul(cublasLtHandle_t handle, const GemmCall& shape, std::int64_t workspace_bytes);
  ~LtMatmul();
  LtMatmul(const LtMatmul&) = delete;
  LtMatmul& operator=(const LtMatmul&) = delete;

  void run(const void* a, const void* b, void* c, void* workspace, cudaStream_t stream) const;
  const std::string& algo() const { return algo_; }  // "id=.. tile=.. stages=.. splitk=.."
  // Split-K partial sums reduced in the output type (bf16): their count, else 0.
  int output_type_splits() const { return output_type_splits_; }

 private:
  cublasLtHandle_t handle_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  cublasLtMatmulAlgo_t algo_struct_{};
  std::int64_t workspace_bytes_ = 0;
  std::string algo_;
  int output_type_splits_ = 0;
};

}  // namespace goodput::calib
