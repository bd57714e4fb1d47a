// The NTP reshard pack/unpack kernel: a batch of 2-D block copies of bf16 elements, each
// block row-major with its own leading dimensions (see reshard_map.hpp). Memory-bound by
// design: every element is read once and written once, with the widest vector access
// (up to 16 bytes) that all offsets, leading dimensions and widths allow.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"

namespace goodput::calib {
namespace {

struct DevBlock {
  long long src_offset, src_ld, dst_offset, dst_ld, rows, ncols;
};

constexpr int kThreads = 256;
constexpr int kUnroll = 4;  // independent loads in flight per thread

template <class V, int W>
__global__ void copy_blocks_kernel(const unsigned short* __restrict__ src,
                                   unsigned short* __restrict__ dst,
                                   const DevBlock* __restrict__ blocks) {
  const DevBlock b = blocks[blockIdx.y];
  const unsigned nvec = static_cast<unsigned>(b.ncols / W);
  const unsigned total = static_cast<unsigned>(b.rows) * nvec;
  const V* s = reinterpret_cast<const V*>(src + b.src_offset);
  V* d = reinterpret_cast<V*>(dst + b.dst_offset);
  const unsigned src_ld = static_cast<unsigned>(b.src_ld / W);
  const unsigned dst_ld = static_cast<unsigned>(b.dst_ld / W);
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned base = blockIdx.x * blockDim.x + threadIdx.x; base < total;
       base += stride * kUnroll) {
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const unsigned idx = base + u * stride;
      if (idx < total) {
        const unsigned r = idx / nvec;
        v[u] = s[static_cast<size_t>(r) * src_ld + (idx - r * nvec)];
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const unsigned idx = base + u * stride;
      if (idx < total) {
        const unsigned r = idx / nvec;
        d[static_cast<size_t>(r) * dst_ld + (idx - r * nvec)] = v[u];
      }
    }
  }
}

bool all_divisible(const std::vector<CopyBlock>& blocks, int w) {
  return std::all_of(blocks.begin(), blocks.end(), [w](const CopyBlock& b) {
    return b.src_offset % w == 0 && b.src_ld % w == 0 && b.dst_offset % w == 0 &&
           b.dst_ld % w == 0 && b.ncols % w == 0;
  });
}

}  // namespace

CopyPlan::CopyPlan(const std::vector<CopyBlock>& blocks, int sm_count)
    : count_(static_cast<int>(blocks.size())) {
  if (blocks.empty()) throw std::invalid_argument("copy plan without blocks");
  if (blocks.size() > 65535) throw std::invalid_argument("copy plan: too many blocks");
  std::vector<DevBlock> dev;
  long long max_elems = 0;
  for (const CopyBlock& b : blocks) {
    if (b.rows * b.ncols >= (1LL << 31)) throw std::invalid_argument("copy block too large");
    dev.push_back({b.src_offset, b.src_ld, b.dst_offset, b.dst_ld, b.rows, b.ncols});
    max_elems = std::max(max_elems, static_cast<long long>(b.rows * b.ncols));
  }
  for (int w : {8, 4, 2}) {
    if (all_divisible(blocks, w)) {
      vec_ = w;
      break;
    }
  }
  // About 8 resident CTAs of 256 threads per SM in total, spread over the blocks.
  const long long wanted = std::max(1LL, (8LL * sm_count + count_ - 1) / count_);
  const long long needed = (max_elems / vec_ + kThreads - 1) / kThreads;
  grid_x_ = static_cast<unsigned>(std::max(1LL, std::min(wanted, needed)));
  GOODPUT_CUDA(cudaMalloc(&blocks_, dev.size() * sizeof(DevBlock)));
  GOODPUT_CUDA(cudaMemcpy(blocks_, dev.data(), dev.size() * sizeof(DevBlock), cudaMemcpyHostToDevice));
}

CopyPlan::~CopyPlan() {
  if (blocks_ != nullptr) cudaFree(blocks_);
}

void CopyPlan::launch(const void* src, void* dst, cudaStream_t stream) const {
  const dim3 grid(grid_x_, static_cast<unsigned>(count_));
  const auto* s = static_cast<const unsigned short*>(src);
  auto* d = static_cast<unsigned short*>(dst);
  const auto* b = static_cast<const DevBlock*>(blocks_);
  switch (vec_) {
    case 8: copy_blocks_kernel<uint4, 8><<<grid, kThreads, 0, stream>>>(s, d, b); break;
    case 4: copy_blocks_kernel<uint2, 4><<<grid, kThreads, 0, stream>>>(s, d, b); break;
    case 2: copy_blocks_kernel<unsigned, 2><<<grid, kThreads, 0, stream>>>(s, d, b); break;
    default: copy_blocks_kernel<unsigned short, 1><<<grid, kThreads, 0, stream>>>(s, d, b); break;
  }
  GOODPUT_CUDA(cudaGetLastError());
}

}  // namespace goodput::calib
