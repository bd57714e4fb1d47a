// Random fill and the fp64 sampled GEMM reference (see kernels.hpp).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/device_buffer.hpp"
#include "calibrate/harness/kernels.hpp"

namespace goodput::calib {
namespace {

__device__ __forceinline__ unsigned long long mix64(unsigned long long x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

__global__ void fill_kernel(__nv_bfloat16* data, long long count, unsigned long long seed,
                            float min_mag) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    const unsigned long long r = mix64(seed ^ mix64(static_cast<unsigned long long>(i)));
    const float u = static_cast<float>(r >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    const float mag = min_mag + (1.0f - min_mag) * u;
    data[i] = __float2bfloat16_rn((r & 1ULL) ? -mag : mag);
  }
}

__device__ __forceinline__ double load(const __nv_bfloat16* p, long long idx) {
  return static_cast<double>(__bfloat162float(p[idx]));
}

constexpr int kRefThreads = 128;

__global__ void reference_kernel(GemmCall call, const SamplePoint* points, SampleResult* results) {
  const SamplePoint pt = points[blockIdx.x];
  const auto* a = static_cast<const __nv_bfloat16*>(call.a) + pt.batch * call.stride_a;
  const auto* b = static_cast<const __nv_bfloat16*>(call.b) + pt.batch * call.stride_b;
  const auto* c = static_cast<const __nv_bfloat16*>(call.c) + pt.batch * call.stride_c;
  double sum = 0.0, abs_sum = 0.0;
  for (long long p = threadIdx.x; p < call.k; p += kRefThreads) {
    const double x = call.trans_a ? load(a, p + pt.i * call.lda) : load(a, pt.i + p * call.lda);
    const double y = call.trans_b ? load(b, pt.j + p * call.ldb) : load(b, p + pt.j * call.ldb);
    sum += x * y;
    abs_sum += fabs(x * y);
  }
  __shared__ double s_sum[kRefThreads], s_abs[kRefThreads];
  s_sum[threadIdx.x] = sum;
  s_abs[threadIdx.x] = abs_sum;
  __syncthreads();
  for (int w = kRefThreads / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) {
      s_sum[threadIdx.x] += s_sum[threadIdx.x + w];
      s_abs[threadIdx.x] += s_abs[threadIdx.x + w];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    results[blockIdx.x] = SampleResult{s_sum[0], s_abs[0], load(c, pt.i + pt.j * call.ldc)};
  }
}

}  // namespace

void fill_random_bf16(void* data, std::int64_t count, std::uint64_t seed, float min_magnitude,
                      cudaStream_t stream) {
  if (count <= 0) return;
  const long long blocks = (count + 255) / 256;
  fill_kernel<<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(
      static_cast<__nv_bfloat16*>(data), count, seed, min_magnitude);
  GOODPUT_CUDA(cudaGetLastError());
}

std::vector<SampleResult> sampled_reference(const GemmCall& call,
                                            const std::vector<SamplePoint>& points,
                                            cudaStream_t stream) {
  std::vector<SampleResult> out(points.size());
  if (points.empty()) return out;
  DeviceBuffer d_points(static_cast<std::int64_t>(points.size() * sizeof(SamplePoint)));
  DeviceBuffer d_results(static_cast<std::int64_t>(points.size() * sizeof(SampleResult)));
  GOODPUT_CUDA(cudaMemcpyAsync(d_points.get(), points.data(), points.size() * sizeof(SamplePoint),
                               cudaMemcpyHostToDevice, stream));
  reference_kernel<<<static_cast<unsigned>(points.size()), kRefThreads, 0, stream>>>(
      call, static_cast<const SamplePoint*>(d_points.get()),
      static_cast<SampleResult*>(d_results.get()));
  GOODPUT_CUDA(cudaGetLastError());
  GOODPUT_CUDA(cudaMemcpyAsync(out.data(), d_results.get(), points.size() * sizeof(SampleResult),
                               cudaMemcpyDeviceToHost, stream));
  GOODPUT_CUDA(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace goodput::calib
