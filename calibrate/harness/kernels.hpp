// Host entry points of the harness's own CUDA kernels (kernels in *.cu, callers in *.cpp).
// Contract: all element data is bf16 (2 bytes; adam's state fp32); launches are asynchronous on
// `stream` and report launch errors by throwing. GemmCall describes one (strided-batched) GEMM in
// cuBLAS column-major terms, C[i + j*ldc] = sum_p op(A)[i,p] op(B)[p,j]; the sampled reference
// recomputes chosen elements of C in fp64 from the same bf16 inputs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "calibrate/profile/memory_kernels.hpp"
#include "calibrate/profile/reshard_map.hpp"

namespace goodput::calib {

struct GemmCall {
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  std::int64_t lda = 0, stride_a = 0;
  const void* b = nullptr;
  std::int64_t ldb = 0, stride_b = 0;
  void* c = nullptr;
  std::int64_t ldc = 0, stride_c = 0;
  std::int64_t batch = 1;
};

struct SamplePoint {
  std::int64_t batch = 0, i = 0, j = 0;
};

struct SampleResult {
  double reference = 0.0;  // fp64 sum of products
  double abs_sum = 0.0;    // sum of |products|, the scale of accumulation error
  double got = 0.0;        // the GEMM's output element
};

// Uniform in +-[min_magnitude, 1]: never zero.
void fill_random_bf16(void* data, std::int64_t count, std::uint64_t seed, float min_magnitude,
                      cudaStream_t stream);

// Synchronous: runs the reference for `points` and returns the results.
std::vector<SampleResult> sampled_reference(const GemmCall& call,
                                            const std::vector<SamplePoint>& points,
                                            cudaStream_t stream);

// Device-resident list of 2-D block copies (the reshard pack/unpack), launched repeatedly.
// The descriptors are uploaded from pinned memory on `stream` (stream-ordered); launch() on
// any stream waits for that upload first. src_elems bounds every source read (see
// copy_addressing.hpp); src and dst must be 16-byte aligned (cudaMalloc'd buffers are).
class CopyPlan {
 public:
  CopyPlan(const std::vector<CopyBlock>& blocks, std::int64_t src_elems, int sm_count,
           cudaStream_t stream);
  ~CopyPlan();
  CopyPlan(const CopyPlan&) = delete;
  CopyPlan& operator=(const CopyPlan&) = delete;
  void launch(const void* src, void* dst, cudaStream_t stream) const;
  // Elements per vector access of each block (8 = 16 bytes), chosen per block.
  const std::vector<int>& vector_elems() const { return vec_; }

 private:
  void* blocks_ = nullptr;
  void* staging_ = nullptr;  // pinned host copy of the descriptors
  cudaEvent_t ready_ = nullptr;
  int count_ = 0;
  std::int64_t src_elems_ = 0;
  std::vector<int> vec_;
  unsigned grid_x_ = 1;
};

// Memory-bound kernels (memory_kernels.cu; their math: memory_reference.hpp; their bytes:
// calibrate/profile/memory_kernels.hpp). bf16 in and out, fp32 statistics and arithmetic; the
// row kernels (norms, softmax) run one block per row and keep the row in shared memory when it
// fits, so each element is read from device memory once.
struct MemoryKernelArgs {
  MemoryKernel kernel = MemoryKernel::rmsnorm;
  std::int64_t rows = 0, cols = 0;
  const void* x = nullptr;      // bf16 [rows x cols] ([rows x 2 cols] for swiglu; adam: gradient)
  const void* gamma = nullptr;  // bf16 [cols]: the norms' weight
  const void* beta = nullptr;   // bf16 [cols]: layernorm's bias
  void* y = nullptr;            // bf16 [rows x cols] (adam: the bf16 copy of the new weights)
  float* master = nullptr;      // adam: fp32 master weights, first and second moments
  float* m = nullptr;
  float* v = nullptr;
  int smem_bytes = 0;  // set by prepare_memory_kernel: shared memory per block of a row kernel
};
// Once, outside the timed loop: decides whether a row kernel keeps its row in shared memory
// (when 2 cols bytes fit the device's opt-in limit; otherwise it reads the row again from L2)
// and raises the kernel's dynamic shared memory limit to what it needs.
void prepare_memory_kernel(MemoryKernelArgs& args);
// One call (AdamW: one step with memory_reference.hpp's kAdam), asynchronous on `stream`.
void launch_memory_kernel(const MemoryKernelArgs& args, cudaStream_t stream);
// fp32 uniform in +-[min_magnitude, 1] * scale (positive only: [min_magnitude, 1] * scale).
void fill_random_f32(float* data, std::int64_t count, std::uint64_t seed, float min_magnitude,
                     float scale, bool positive, cudaStream_t stream);

// Reads `bytes` of `buffer` (a multiple of 16) with a read-only sweep, so that L2 holds only
// clean lines of it afterwards; the sum goes to *sink only if it equals an impossible value.
void l2_flush_read(const void* buffer, std::int64_t bytes, unsigned* sink, cudaStream_t stream);

}  // namespace goodput::calib
