// The L2 flush of the timer: a read-only sweep over a buffer at least twice the L2 size.
// Reading (never writing) leaves every line of L2 clean and filled with the flush buffer, so
// the timed operation neither hits on its operands nor pays write-backs of the flush.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"

namespace goodput::calib {
namespace {

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 2048;
constexpr unsigned kImpossible = 0x9e3779b9u;  // a XOR of the buffer that decides nothing

__global__ void read_sweep(const uint4* __restrict__ p, long long n, unsigned* sink) {
  unsigned acc = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const uint4 v = __ldcg(p + i);  // cached in L2 only: evicts the operands from L2
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == kImpossible) atomicAdd(sink, 1U);  // keeps the loads alive; almost never writes
}

}  // namespace

void l2_flush_read(const void* buffer, std::int64_t bytes, unsigned* sink, cudaStream_t stream) {
  if (bytes % 16 != 0 || reinterpret_cast<std::uintptr_t>(buffer) % 16 != 0) {
    throw std::invalid_argument("l2_flush_read: buffer must be 16-byte aligned and sized");
  }
  const long long n = bytes / 16;
  const long long blocks = std::max(1LL, std::min(kMaxBlocks, (n + kThreads - 1) / kThreads));
  read_sweep<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const uint4*>(buffer), n, sink);
  GOODPUT_CUDA(cudaGetLastError());
}

}  // namespace goodput::calib
