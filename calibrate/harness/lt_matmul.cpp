#include "calibrate/harness/lt_matmul.hpp"

#include <stdexcept>

#include "calibrate/harness/cuda_check.hpp"

namespace goodput::calib {
namespace {

template <class T>
T algo_attr(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attr) {
  T value{};
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, attr, &value, sizeof value, &written) !=
      CUBLAS_STATUS_SUCCESS) {
    return T{};
  }
  return value;
}

}  // namespace

LtMatmul::LtMatmul(cublasLtHandle_t handle, const GemmCall& s, std::int64_t workspace_bytes)
    : handle_(handle), workspace_bytes_(workspace_bytes) {
  GOODPUT_CUBLAS(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t ta = s.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t tb = s.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  GOODPUT_CUBLAS(
      cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
  GOODPUT_CUBLAS(
      cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
  // Stored shapes: op(A) is m x k, op(B) is k x n.
  const auto rows_a = static_cast<std::uint64_t>(s.trans_a ? s.k : s.m);
  const auto cols_a = static_cast<std::uint64_t>(s.trans_a ? s.m : s.k);
  const auto rows_b = static_cast<std::uint64_t>(s.trans_b ? s.n : s.k);
  const auto cols_b = static_cast<std::uint64_t>(s.trans_b ? s.k : s.n);
  GOODPUT_CUBLAS(cublasLtMatrixLayoutCreate(&a_, CUDA_R_16BF, rows_a, cols_a, s.lda));
  GOODPUT_CUBLAS(cublasLtMatrixLayoutCreate(&b_, CUDA_R_16BF, rows_b, cols_b, s.ldb));
  GOODPUT_CUBLAS(cublasLtMatrixLayoutCreate(&c_, CUDA_R_16BF, static_cast<std::uint64_t>(s.m),
                                            static_cast<std::uint64_t>(s.n), s.ldc));
  cublasLtMatmulPreference_t pref = nullptr;
  GOODPUT_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  const auto ws = static_cast<std::uint64_t>(workspace_bytes);
  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  const cublasStatus_t st1 = cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  const cublasStatus_t st2 = st1 != CUBLAS_STATUS_SUCCESS
                                 ? st1
                                 : cublasLtMatmulAlgoGetHeuristic(handle_, desc_, a_, b_, c_, c_,
                                                                  pref, 1, &result, &returned);
  cublasLtMatmulPreferenceDestroy(pref);
  GOODPUT_CUBLAS(st2);
  if (returned < 1) throw std::runtime_error("cuBLASLt heuristic found no algorithm for this GEMM");
  algo_struct_ = result.algo;
  const auto splits = algo_attr<std::int32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
  if (algo_attr<std::uint32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME) ==
          CUBLASLT_REDUCTION_SCHEME_OUTPUT_TYPE &&
      splits > 1) {
    output_type_splits_ = splits;
  }
  algo_ =
      "id=" + std::to_string(algo_attr<std::int32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_ID)) +
      " tile=" +
      std::to_string(algo_attr<std::uint32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_TILE_ID)) +
      " stages=" +
      std::to_string(algo_attr<std::uint32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_STAGES_ID)) +
      " splitk=" +
      std::to_string(algo_attr<std::int32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_SPLITK_NUM)) +
      " reduction=" +
      std::to_string(
          algo_attr<std::uint32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME)) +
      " swizzle=" +
      std::to_string(algo_attr<std::uint32_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING)) +
      " cluster=" +
      std::to_string(
          algo_attr<std::uint16_t>(algo_struct_, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID)) +
      " workspace=" + std::to_string(result.workspaceSize);
}

LtMatmul::~LtMatmul() {
  if (c_ != nullptr) cublasLtMatrixLayoutDestroy(c_);
  if (b_ != nullptr) cublasLtMatrixLayoutDestroy(b_);
  if (a_ != nullptr) cublasLtMatrixLayoutDestroy(a_);
  if (desc_ != nullptr) cublasLtMatmulDescDestroy(desc_);
}

void LtMatmul::run(const void* a, const void* b, void* c, void* workspace,
                   cudaStream_t stream) const {
  const float alpha = 1.0F, beta = 0.0F;
  GOODPUT_CUBLAS(cublasLtMatmul(handle_, desc_, &alpha, a, a_, b, b_, &beta, c, c_, c, c_,
                                &algo_struct_, workspace,
                                static_cast<std::size_t>(workspace_bytes_), stream));
}

}  // namespace goodput::calib
