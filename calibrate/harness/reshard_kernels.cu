// The NTP reshard pack/unpack kernel: a batch of 2-D block copies of bf16 elements, each
// block row-major with its own leading dimensions (see reshard_map.hpp). Memory-bound by
// design: every element is read once and written once. The addressing (windows, vector width
// per block, merge offsets, bounds) is copy_addressing.hpp, shared with the CPU test; this file
// only turns a Window into loads and stores.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "calibrate/harness/copy_addressing.hpp"
#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"

namespace goodput::calib {
namespace {

using addr::BlockDesc;
using addr::Window;

constexpr int kThreads = 256;

// W bf16 elements as W/2 32-bit words (element 2j in the low half of word j).
template <int W>
struct Words {
  unsigned w[W / 2];
};

template <int W>
__device__ __forceinline__ Words<W> load_words(const unsigned short* p) {
  Words<W> r;
  if constexpr (W == 8) {
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    r.w[0] = v.x;
    r.w[1] = v.y;
    r.w[2] = v.z;
    r.w[3] = v.w;
  } else if constexpr (W == 4) {
    const uint2 v = *reinterpret_cast<const uint2*>(p);
    r.w[0] = v.x;
    r.w[1] = v.y;
  } else {
    r.w[0] = *reinterpret_cast<const unsigned*>(p);
  }
  return r;
}

template <int W>
__device__ __forceinline__ void store_words(unsigned short* p, const Words<W>& r) {
  if constexpr (W == 8) {
    *reinterpret_cast<uint4*>(p) = make_uint4(r.w[0], r.w[1], r.w[2], r.w[3]);
  } else if constexpr (W == 4) {
    *reinterpret_cast<uint2*>(p) = make_uint2(r.w[0], r.w[1]);
  } else {
    *reinterpret_cast<unsigned*>(p) = r.w[0];
  }
}

// out[i] = (a ++ b)[i + S], i < W: the Window's merge, with S known at compile time so every
// index is a register (funnel shifts for odd S).
template <int W, int S>
__device__ __forceinline__ Words<W> merge(const Words<W>& a, const Words<W>& b) {
  unsigned all[W];
#pragma unroll
  for (int j = 0; j < W / 2; ++j) {
    all[j] = a.w[j];
    all[W / 2 + j] = b.w[j];
  }
  Words<W> o;
#pragma unroll
  for (int j = 0; j < W / 2; ++j) {
    if constexpr (S % 2 == 0) {
      o.w[j] = all[j + S / 2];
    } else {
      o.w[j] = __funnelshift_r(all[j + S / 2], all[j + S / 2 + 1], 16);
    }
  }
  return o;
}

template <int W>
__device__ __forceinline__ Words<W> merge_by(const Words<W>& a, const Words<W>& b, int shift) {
  switch (shift) {
    case 1:
      return merge<W, 1>(a, b);
    case 2:
      if constexpr (W > 2) return merge<W, 2>(a, b);
      break;
    case 3:
      if constexpr (W > 2) return merge<W, 3>(a, b);
      break;
    case 4:
      if constexpr (W > 4) return merge<W, 4>(a, b);
      break;
    case 5:
      if constexpr (W > 4) return merge<W, 5>(a, b);
      break;
    case 6:
      if constexpr (W > 4) return merge<W, 6>(a, b);
      break;
    case 7:
      if constexpr (W > 4) return merge<W, 7>(a, b);
      break;
    default:
      break;
  }
  return a;  // shift 0 (never reached: callers store `a` directly)
}

template <int W>
__device__ __forceinline__ void copy_block(const unsigned short* __restrict__ src,
                                           unsigned short* __restrict__ dst, const BlockDesc& b,
                                           int src_elems) {
  const unsigned total = static_cast<unsigned>(b.rows) * b.windows;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
    const Window w = addr::window_at(b, idx, src_elems);
    if constexpr (W > 1) {
      if (w.vector) {
        const Words<W> a = load_words<W>(src + w.src_vec);
        if (w.loads == 1) {
          store_words<W>(dst + w.dst, a);
        } else {
          store_words<W>(dst + w.dst, merge_by<W>(a, load_words<W>(src + w.src_vec + W), w.shift));
        }
        continue;
      }
    }
    for (int i = 0; i < w.count; ++i) dst[w.dst + i] = src[w.src + i];
  }
}

__global__ void copy_blocks_kernel(const unsigned short* __restrict__ src,
                                   unsigned short* __restrict__ dst,
                                   const BlockDesc* __restrict__ blocks, int src_elems) {
  const BlockDesc b = blocks[blockIdx.y];
  switch (b.vec) {  // uniform per CTA: blockIdx.y is one block
    case 8:
      copy_block<8>(src, dst, b, src_elems);
      break;
    case 4:
      copy_block<4>(src, dst, b, src_elems);
      break;
    case 2:
      copy_block<2>(src, dst, b, src_elems);
      break;
    default:
      copy_block<1>(src, dst, b, src_elems);
      break;
  }
}

}  // namespace

CopyPlan::CopyPlan(const std::vector<CopyBlock>& blocks, std::int64_t src_elems, int sm_count,
                   cudaStream_t stream)
    : count_(static_cast<int>(blocks.size())), src_elems_(src_elems) {
  if (blocks.empty()) throw std::invalid_argument("copy plan without blocks");
  if (blocks.size() > 65535) throw std::invalid_argument("copy plan: too many blocks");
  std::vector<BlockDesc> dev;
  long long max_windows = 0;
  for (const CopyBlock& b : blocks) {
    const long long src_end = b.src_offset + (b.rows - 1) * b.src_ld + b.ncols;
    const long long dst_end = b.dst_offset + (b.rows - 1) * b.dst_ld + b.ncols;
    if (b.src_offset < 0 || b.dst_offset < 0 || src_end > src_elems) {
      throw std::invalid_argument("copy block outside its source buffer");
    }
    if (!addr::describable(src_elems, dst_end, b.rows, b.ncols)) {
      throw std::invalid_argument("copy block too large for 32-bit addressing");
    }
    const BlockDesc d =
        addr::describe_block(b.src_offset, b.src_ld, b.dst_offset, b.dst_ld, b.rows, b.ncols);
    dev.push_back(d);
    vec_.push_back(d.vec);
    max_windows = std::max(max_windows, b.rows * static_cast<long long>(d.windows));
  }
  // About 32 CTAs of 256 threads per SM in all (4 waves of 8 resident), spread over the blocks.
  const long long wanted = std::max(1LL, (32LL * sm_count + count_ - 1) / count_);
  const long long needed = (max_windows + kThreads - 1) / kThreads;
  grid_x_ = static_cast<unsigned>(std::max(1LL, std::min(wanted, needed)));
  // Stream-ordered upload from pinned memory; launch() waits on ready_ on its own stream.
  const std::size_t bytes = dev.size() * sizeof(BlockDesc);
  GOODPUT_CUDA(cudaMallocHost(&staging_, bytes));
  std::memcpy(staging_, dev.data(), bytes);
  GOODPUT_CUDA(cudaMalloc(&blocks_, bytes));
  GOODPUT_CUDA(cudaMemcpyAsync(blocks_, staging_, bytes, cudaMemcpyHostToDevice, stream));
  GOODPUT_CUDA(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
  GOODPUT_CUDA(cudaEventRecord(ready_, stream));
}

CopyPlan::~CopyPlan() {
  if (ready_ != nullptr) {
    cudaEventSynchronize(ready_);
    cudaEventDestroy(ready_);
  }
  if (blocks_ != nullptr) cudaFree(blocks_);  // synchronises with launches still in flight
  if (staging_ != nullptr) cudaFreeHost(staging_);
}

void CopyPlan::launch(const void* src, void* dst, cudaStream_t stream) const {
  if (reinterpret_cast<std::uintptr_t>(src) % 16 != 0 ||
      reinterpret_cast<std::uintptr_t>(dst) % 16 != 0) {
    throw std::invalid_argument("copy plan: buffers must be 16-byte aligned");
  }
  GOODPUT_CUDA(cudaStreamWaitEvent(stream, ready_, 0));
  const dim3 grid(grid_x_, static_cast<unsigned>(count_));
  copy_blocks_kernel<<<grid, kThreads, 0, stream>>>(
      static_cast<const unsigned short*>(src), static_cast<unsigned short*>(dst),
      static_cast<const BlockDesc*>(blocks_), static_cast<int>(src_elems_));
  GOODPUT_CUDA(cudaGetLastError());
}

}  // namespace goodput::calib
