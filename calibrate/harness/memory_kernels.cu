// The memory-bound kernels a training step runs between its GEMMs (see kernels.hpp): RMSNorm,
// LayerNorm, SwiGLU, GeLU, softmax and an AdamW step. Simple and memory-bound by design: 16-byte
// vector accesses where the sizes allow (8 bf16, 4 fp32), fp32 statistics, one block per row for
// the row kernels with the row kept in shared memory when it fits (so device memory sees one read
// and one write per element, the traffic memory_kernel_bytes() counts).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"
#include "calibrate/harness/memory_reference.hpp"

namespace goodput::calib {
namespace {

using bf16 = __nv_bfloat16;

constexpr int kRowThreads = 256;
constexpr int kFlatThreads = 256;
constexpr long long kMaxFlatBlocks = 1 << 20;
constexpr int kStaticSmemMargin = 1024;  // the reduction scratch and what the runtime keeps

// ---- vector loads and stores of V bf16 values (V = 8: one 16-byte access) ----

template <int V>
__device__ __forceinline__ void load_bf16(const bf16* p, float (&f)[V]) {
  if constexpr (V == 8) {
    const uint4 raw = *reinterpret_cast<const uint4*>(p);
    const auto* h = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const float2 t = __bfloat1622float2(h[i]);
      f[2 * i] = t.x;
      f[2 * i + 1] = t.y;
    }
  } else {
#pragma unroll
    for (int i = 0; i < V; ++i) f[i] = __bfloat162float(p[i]);
  }
}

template <int V>
__device__ __forceinline__ void store_bf16(bf16* p, const float (&f)[V]) {
  if constexpr (V == 8) {
    uint4 raw;
    auto* h = reinterpret_cast<__nv_bfloat162*>(&raw);
#pragma unroll
    for (int i = 0; i < 4; ++i) h[i] = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
    *reinterpret_cast<uint4*>(p) = raw;
  } else {
#pragma unroll
    for (int i = 0; i < V; ++i) p[i] = __float2bfloat16_rn(f[i]);
  }
}

// ---- block reductions (every thread gets the result) ----

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

template <bool kMax>
__device__ float block_reduce(float v, float* scratch) {
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const int warps = static_cast<int>(blockDim.x / 32);
  v = kMax ? warp_max(v) : warp_sum(v);
  __syncthreads();  // the scratch of a previous reduction has been read
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = lane < warps ? scratch[lane] : (kMax ? -INFINITY : 0.0f);
  return kMax ? warp_max(v) : warp_sum(v);
}

// ---- row kernels: one block per row of `cols` elements ----

template <int V, bool kLayerNorm>
__global__ void __launch_bounds__(kRowThreads)
    norm_kernel(const bf16* __restrict__ x, const bf16* __restrict__ gamma,
                const bf16* __restrict__ beta, bf16* __restrict__ y, long long cols, bool in_smem) {
  extern __shared__ __align__(16) unsigned char row_smem[];
  __shared__ float scratch[32];
  bf16* cache = reinterpret_cast<bf16*>(row_smem);
  const long long row = blockIdx.x;
  const bf16* xr = x + row * cols;
  bf16* yr = y + row * cols;
  const long long vecs = cols / V;
  // Pass 1: the sum (layernorm) or the sum of squares (rmsnorm); the row goes to shared memory.
  float acc = 0.0f;
  for (long long i = threadIdx.x; i < vecs; i += blockDim.x) {
    float f[V];
    load_bf16<V>(xr + i * V, f);
    if (in_smem) store_bf16<V>(cache + i * V, f);
#pragma unroll
    for (int k = 0; k < V; ++k) acc += kLayerNorm ? f[k] : f[k] * f[k];
  }
  const float n = static_cast<float>(cols);
  const float total = block_reduce<false>(acc, scratch);  // also orders the shared-memory copy
  const bf16* src = in_smem ? cache : xr;
  float mean = 0.0f, rstd = 0.0f;
  if constexpr (kLayerNorm) {
    mean = total / n;
    float sq = 0.0f;  // pass 2: the variance about the mean
    for (long long i = threadIdx.x; i < vecs; i += blockDim.x) {
      float f[V];
      load_bf16<V>(src + i * V, f);
#pragma unroll
      for (int k = 0; k < V; ++k) sq += (f[k] - mean) * (f[k] - mean);
    }
    rstd = rsqrtf(block_reduce<false>(sq, scratch) / n + static_cast<float>(memref::kNormEps));
  } else {
    rstd = rsqrtf(total / n + static_cast<float>(memref::kNormEps));
  }
  // Last pass: normalise, scale (and shift), write.
  for (long long i = threadIdx.x; i < vecs; i += blockDim.x) {
    float f[V], g[V], b[V];
    load_bf16<V>(src + i * V, f);
    load_bf16<V>(gamma + i * V, g);
    if constexpr (kLayerNorm) load_bf16<V>(beta + i * V, b);
#pragma unroll
    for (int k = 0; k < V; ++k) f[k] = (f[k] - mean) * rstd * g[k] + (kLayerNorm ? b[k] : 0.0f);
    store_bf16<V>(yr + i * V, f);
  }
}

template <int V>
__global__ void __launch_bounds__(kRowThreads)
    softmax_kernel(const bf16* __restrict__ x, bf16* __restrict__ y, long long cols, bool in_smem) {
  extern __shared__ __align__(16) unsigned char row_smem[];
  __shared__ float scratch[32];
  bf16* cache = reinterpret_cast<bf16*>(row_smem);
  const long long row = blockIdx.x;
  const bf16* xr = x + row * cols;
  bf16* yr = y + row * cols;
  const long long vecs = cols / V;
  float mx = -INFINITY;  // pass 1: the row's maximum
  for (long long i = threadIdx.x; i < vecs; i += blockDim.x) {
    float f[V];
    load_bf16<V>(xr + i * V, f);
    if (in_smem) store_bf16<V>(cache + i * V, f);
#pragma unroll
    for (int k = 0; k < V; ++k) mx = fmaxf(mx, f[k]);
  }
  mx = block_reduce<true>(mx, scratch);
  const bf16* src = in_smem ? cache : xr;
  float sum = 0.0f;  // pass 2: the sum of exponentials
  for (long long i = threadIdx.x; i < vecs; i += blockDim.x) {
    float f[V];
    load_bf16<V>(src + i * V, f);
#pragma unroll
    for (int k = 0; k < V; ++k) sum += expf(f[k] - mx);
  }
  const float inv = 1.0f / block_reduce<false>(sum, scratch);
  for (long long i = threadIdx.x; i < vecs; i += blockDim.x) {
    float f[V];
    load_bf16<V>(src + i * V, f);
#pragma unroll
    for (int k = 0; k < V; ++k) f[k] = expf(f[k] - mx) * inv;
    store_bf16<V>(yr + i * V, f);
  }
}

// ---- element-wise kernels ----

__device__ __forceinline__ float gelu_tanh(float v) {
  const float k = 0.7978845608028654f;  // sqrt(2 / pi)
  return 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
}

template <int V>
__global__ void gelu_kernel(const bf16* __restrict__ x, bf16* __restrict__ y, long long vecs) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < vecs;
       i += stride) {
    float f[V];
    load_bf16<V>(x + i * V, f);
#pragma unroll
    for (int k = 0; k < V; ++k) f[k] = gelu_tanh(f[k]);
    store_bf16<V>(y + i * V, f);
  }
}

// y[r, c] = silu(x[r, c]) * x[r, cols + c]: the gate and the up projection side by side.
template <int V>
__global__ void swiglu_kernel(const bf16* __restrict__ x, bf16* __restrict__ y, long long rows,
                              long long cols) {
  const long long row_vecs = cols / V;
  const long long vecs = rows * row_vecs;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < vecs;
       i += stride) {
    const long long r = i / row_vecs;
    const long long c = (i - r * row_vecs) * V;
    float g[V], u[V];
    load_bf16<V>(x + r * 2 * cols + c, g);
    load_bf16<V>(x + r * 2 * cols + cols + c, u);
#pragma unroll
    for (int k = 0; k < V; ++k) g[k] = g[k] / (1.0f + expf(-g[k])) * u[k];
    store_bf16<V>(y + r * cols + c, g);
  }
}

struct AdamCoefficients {
  float lr, beta1, beta2, eps, weight_decay, bias1, bias2;  // bias: 1 - beta^step
};

// One AdamW step of V parameters per thread (V = 4: 16-byte fp32 and 8-byte bf16 accesses).
template <int V>
__global__ void adam_kernel(float* __restrict__ master, float* __restrict__ m,
                            float* __restrict__ v, const bf16* __restrict__ grad,
                            bf16* __restrict__ out, long long vecs, AdamCoefficients a) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < vecs;
       i += stride) {
    float p[V], mm[V], vv[V], g[V];
    if constexpr (V == 4) {
      const float4 p4 = reinterpret_cast<const float4*>(master)[i];
      const float4 m4 = reinterpret_cast<const float4*>(m)[i];
      const float4 v4 = reinterpret_cast<const float4*>(v)[i];
      const uint2 g2 = reinterpret_cast<const uint2*>(grad)[i];
      const auto* gh = reinterpret_cast<const __nv_bfloat162*>(&g2);
      const float2 g01 = __bfloat1622float2(gh[0]), g23 = __bfloat1622float2(gh[1]);
      p[0] = p4.x, p[1] = p4.y, p[2] = p4.z, p[3] = p4.w;
      mm[0] = m4.x, mm[1] = m4.y, mm[2] = m4.z, mm[3] = m4.w;
      vv[0] = v4.x, vv[1] = v4.y, vv[2] = v4.z, vv[3] = v4.w;
      g[0] = g01.x, g[1] = g01.y, g[2] = g23.x, g[3] = g23.y;
    } else {
#pragma unroll
      for (int k = 0; k < V; ++k) {
        p[k] = master[i * V + k];
        mm[k] = m[i * V + k];
        vv[k] = v[i * V + k];
        g[k] = __bfloat162float(grad[i * V + k]);
      }
    }
#pragma unroll
    for (int k = 0; k < V; ++k) {
      mm[k] = a.beta1 * mm[k] + (1.0f - a.beta1) * g[k];
      vv[k] = a.beta2 * vv[k] + (1.0f - a.beta2) * g[k] * g[k];
      const float m_hat = mm[k] / a.bias1, v_hat = vv[k] / a.bias2;
      p[k] -= a.lr * (m_hat / (sqrtf(v_hat) + a.eps) + a.weight_decay * p[k]);
    }
    if constexpr (V == 4) {
      reinterpret_cast<float4*>(master)[i] = make_float4(p[0], p[1], p[2], p[3]);
      reinterpret_cast<float4*>(m)[i] = make_float4(mm[0], mm[1], mm[2], mm[3]);
      reinterpret_cast<float4*>(v)[i] = make_float4(vv[0], vv[1], vv[2], vv[3]);
      uint2 o;
      auto* oh = reinterpret_cast<__nv_bfloat162*>(&o);
      oh[0] = __floats2bfloat162_rn(p[0], p[1]);
      oh[1] = __floats2bfloat162_rn(p[2], p[3]);
      reinterpret_cast<uint2*>(out)[i] = o;
    } else {
#pragma unroll
      for (int k = 0; k < V; ++k) {
        master[i * V + k] = p[k];
        m[i * V + k] = mm[k];
        v[i * V + k] = vv[k];
        out[i * V + k] = __float2bfloat16_rn(p[k]);
      }
    }
  }
}

__device__ __forceinline__ unsigned long long mix64(unsigned long long x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

__global__ void fill_f32_kernel(float* data, long long count, unsigned long long seed,
                                float min_mag, float scale, bool positive) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const unsigned long long r = mix64(seed ^ mix64(static_cast<unsigned long long>(i)));
    const float u = static_cast<float>(r >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    const float mag = (min_mag + (1.0f - min_mag) * u) * scale;
    data[i] = (!positive && (r & 1ULL)) ? -mag : mag;
  }
}

// ---- host side ----

unsigned flat_blocks(long long work) {
  return static_cast<unsigned>(
      std::max(1LL, std::min(kMaxFlatBlocks, (work + kFlatThreads - 1) / kFlatThreads)));
}

bool is_row_kernel(MemoryKernel k) {
  return k == MemoryKernel::rmsnorm || k == MemoryKernel::layernorm || k == MemoryKernel::softmax;
}

// The row kernel instance a launch uses (its vector width follows cols).
const void* row_kernel_symbol(MemoryKernel k, bool vec8) {
  switch (k) {
    case MemoryKernel::rmsnorm:
      return vec8 ? reinterpret_cast<const void*>(&norm_kernel<8, false>)
                  : reinterpret_cast<const void*>(&norm_kernel<1, false>);
    case MemoryKernel::layernorm:
      return vec8 ? reinterpret_cast<const void*>(&norm_kernel<8, true>)
                  : reinterpret_cast<const void*>(&norm_kernel<1, true>);
    case MemoryKernel::softmax:
      return vec8 ? reinterpret_cast<const void*>(&softmax_kernel<8>)
                  : reinterpret_cast<const void*>(&softmax_kernel<1>);
    default:
      throw std::logic_error("not a row kernel");
  }
}

}  // namespace

void prepare_memory_kernel(MemoryKernelArgs& a) {
  if (a.rows < 1 || a.cols < 1) throw std::invalid_argument("memory kernel: empty shape");
  a.smem_bytes = 0;
  if (!is_row_kernel(a.kernel)) return;
  if (a.rows > 0x7fffffffLL) throw std::invalid_argument("memory kernel: too many rows");
  int device = 0, optin = 0;
  GOODPUT_CUDA(cudaGetDevice(&device));
  GOODPUT_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const long long need = 2 * a.cols;
  if (need + kStaticSmemMargin > optin) return;  // the row is read again from L2
  a.smem_bytes = static_cast<int>(need);
  GOODPUT_CUDA(cudaFuncSetAttribute(row_kernel_symbol(a.kernel, a.cols % 8 == 0),
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, a.smem_bytes));
}

void launch_memory_kernel(const MemoryKernelArgs& a, cudaStream_t s) {
  const auto* x = static_cast<const bf16*>(a.x);
  auto* y = static_cast<bf16*>(a.y);
  const bool in_smem = a.smem_bytes > 0;
  const auto smem = static_cast<std::size_t>(a.smem_bytes);
  const auto rows = static_cast<unsigned>(std::min<std::int64_t>(a.rows, 0x7fffffff));
  const long long count = a.rows * a.cols;
  const auto* g = static_cast<const bf16*>(a.gamma);
  const auto* b = static_cast<const bf16*>(a.beta);
  switch (a.kernel) {
    case MemoryKernel::rmsnorm:
      if (a.cols % 8 == 0)
        norm_kernel<8, false><<<rows, kRowThreads, smem, s>>>(x, g, b, y, a.cols, in_smem);
      else
        norm_kernel<1, false><<<rows, kRowThreads, smem, s>>>(x, g, b, y, a.cols, in_smem);
      break;
    case MemoryKernel::layernorm:
      if (a.cols % 8 == 0)
        norm_kernel<8, true><<<rows, kRowThreads, smem, s>>>(x, g, b, y, a.cols, in_smem);
      else
        norm_kernel<1, true><<<rows, kRowThreads, smem, s>>>(x, g, b, y, a.cols, in_smem);
      break;
    case MemoryKernel::softmax:
      if (a.cols % 8 == 0)
        softmax_kernel<8><<<rows, kRowThreads, smem, s>>>(x, y, a.cols, in_smem);
      else
        softmax_kernel<1><<<rows, kRowThreads, smem, s>>>(x, y, a.cols, in_smem);
      break;
    case MemoryKernel::gelu:
      if (count % 8 == 0)
        gelu_kernel<8><<<flat_blocks(count / 8), kFlatThreads, 0, s>>>(x, y, count / 8);
      else
        gelu_kernel<1><<<flat_blocks(count), kFlatThreads, 0, s>>>(x, y, count);
      break;
    case MemoryKernel::swiglu:
      if (a.cols % 8 == 0)
        swiglu_kernel<8><<<flat_blocks(count / 8), kFlatThreads, 0, s>>>(x, y, a.rows, a.cols);
      else
        swiglu_kernel<1><<<flat_blocks(count), kFlatThreads, 0, s>>>(x, y, a.rows, a.cols);
      break;
    case MemoryKernel::adam: {
      const memref::AdamHyper& h = memref::kAdam;
      const AdamCoefficients c{static_cast<float>(h.lr),
                               static_cast<float>(h.beta1),
                               static_cast<float>(h.beta2),
                               static_cast<float>(h.eps),
                               static_cast<float>(h.weight_decay),
                               static_cast<float>(1.0 - std::pow(h.beta1, h.step)),
                               static_cast<float>(1.0 - std::pow(h.beta2, h.step))};
      if (count % 4 == 0)
        adam_kernel<4><<<flat_blocks(count / 4), kFlatThreads, 0, s>>>(a.master, a.m, a.v, x, y,
                                                                       count / 4, c);
      else
        adam_kernel<1>
            <<<flat_blocks(count), kFlatThreads, 0, s>>>(a.master, a.m, a.v, x, y, count, c);
      break;
    }
  }
  GOODPUT_CUDA(cudaGetLastError());
}

void fill_random_f32(float* data, std::int64_t count, std::uint64_t seed, float min_magnitude,
                     float scale, bool positive, cudaStream_t stream) {
  if (count <= 0) return;
  fill_f32_kernel<<<flat_blocks(count), kFlatThreads, 0, stream>>>(data, count, seed, min_magnitude,
                                                                   scale, positive);
  GOODPUT_CUDA(cudaGetLastError());
}

}  // namespace goodput::calib
