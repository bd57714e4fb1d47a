#include "calibrate/harness/memory_bench.hpp"

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"
#include "calibrate/harness/memory_reference.hpp"

namespace goodput::calib {
namespace {

using Bits = std::uint16_t;  // a bf16 value as stored

double value_of(Bits b) {
  const std::uint32_t u = std::uint32_t{b} << 16;
  float f = 0.0F;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// `count` elements of type T from element `offset` of a device buffer, as doubles.
template <class T>
std::vector<double> fetch(const void* base, std::int64_t offset, std::int64_t count,
                          cudaStream_t s) {
  std::vector<T> raw(static_cast<std::size_t>(count));
  GOODPUT_CUDA(cudaMemcpyAsync(raw.data(), static_cast<const T*>(base) + offset,
                               static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyDeviceToHost,
                               s));
  GOODPUT_CUDA(cudaStreamSynchronize(s));
  std::vector<double> out(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if constexpr (std::is_same_v<T, Bits>)
      out[i] = value_of(raw[i]);
    else
      out[i] = static_cast<double>(raw[i]);
  }
  return out;
}

// Up to `count` distinct indices of [0, n): the first, the last, then random ones; ascending.
std::vector<std::int64_t> sample(std::int64_t n, int count, std::uint64_t seed) {
  std::vector<std::int64_t> out{0};
  if (n > 1) out.push_back(n - 1);
  std::mt19937_64 rng(seed);
  for (int tries = 0;
       static_cast<int>(out.size()) < std::min<std::int64_t>(count, n) && tries < 16 * count;
       ++tries) {
    const auto i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    if (std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Tally {
  bool ok = true;
  void check(double got, double ref, double rtol, double atol) {
    ok = ok && memref::close(got, ref, rtol, atol);
  }
  void check_all(const std::vector<double>& got, const std::vector<double>& ref, double rtol,
                 double atol) {
    if (got.size() != ref.size()) ok = false;
    for (std::size_t i = 0; ok && i < got.size(); ++i) check(got[i], ref[i], rtol, atol);
  }
};

// The row kernels and the activations: sampled rows of the output against the reference.
bool verify_rows(BenchContext& ctx, const MemoryKernelArgs& a) {
  const cudaStream_t s = ctx.stream();
  const bool norm = a.kernel == MemoryKernel::rmsnorm || a.kernel == MemoryKernel::layernorm;
  const std::vector<double> gamma =
      norm ? fetch<Bits>(a.gamma, 0, a.cols, s) : std::vector<double>{};
  const std::vector<double> beta = a.kernel == MemoryKernel::layernorm
                                       ? fetch<Bits>(a.beta, 0, a.cols, s)
                                       : std::vector<double>{};
  const std::int64_t in_cols = a.kernel == MemoryKernel::swiglu ? 2 * a.cols : a.cols;
  const double atol = kMemoryVerifyAtol *
                      (a.kernel == MemoryKernel::softmax ? 1.0 / static_cast<double>(a.cols) : 1.0);
  Tally t;
  for (std::int64_t r : sample(a.rows, kMemoryVerifyRows, ctx.next_seed())) {
    const std::vector<double> x = fetch<Bits>(a.x, r * in_cols, in_cols, s);
    const std::vector<double> y = fetch<Bits>(a.y, r * a.cols, a.cols, s);
    std::vector<double> ref;
    switch (a.kernel) {
      case MemoryKernel::rmsnorm:
        ref = memref::rmsnorm(x, gamma);
        break;
      case MemoryKernel::layernorm:
        ref = memref::layernorm(x, gamma, beta);
        break;
      case MemoryKernel::swiglu:
        ref = memref::swiglu(x);
        break;
      case MemoryKernel::gelu:
        ref.resize(x.size());
        std::transform(x.begin(), x.end(), ref.begin(), [](double v) { return memref::gelu(v); });
        break;
      case MemoryKernel::softmax:
        ref = memref::softmax(x);
        break;
      case MemoryKernel::adam:
        throw std::logic_error("verify_rows: adam has no rows");
    }
    t.check_all(y, ref, kMemoryVerifyRtol, atol);
  }
  return t.ok;
}

struct AdamWindow {
  std::int64_t offset = 0;
  std::vector<double> p, m, v, g;
};

}  // namespace

MemoryKernelEntry bench_memory_kernel(BenchContext& ctx, const MemoryKernelJob& job) {
  MemoryKernelEntry e = entry_of(job);
  const cudaStream_t s = ctx.stream();
  const std::int64_t n = job.rows * job.cols;
  const bool adam = job.kernel == MemoryKernel::adam;
  const std::int64_t in_elems = job.kernel == MemoryKernel::swiglu ? 2 * n : n;
  DeviceBuffer x(2 * in_elems), y(2 * n), gamma(2 * job.cols), beta(2 * job.cols);
  DeviceBuffer master(adam ? 4 * n : 0), m(adam ? 4 * n : 0), v(adam ? 4 * n : 0);
  fill_random_bf16(x.get(), in_elems, ctx.next_seed(), kRandomMinMagnitude, s);
  fill_random_bf16(gamma.get(), job.cols, ctx.next_seed(), kRandomMinMagnitude, s);
  fill_random_bf16(beta.get(), job.cols, ctx.next_seed(), kRandomMinMagnitude, s);
  GOODPUT_CUDA(cudaMemsetAsync(y.get(), 0, static_cast<std::size_t>(y.bytes()), s));
  MemoryKernelArgs a;
  a.kernel = job.kernel;
  a.rows = job.rows;
  a.cols = job.cols;
  a.x = x.get();
  a.gamma = gamma.get();
  a.beta = beta.get();
  a.y = y.get();
  if (adam) {
    a.master = static_cast<float*>(master.get());
    a.m = static_cast<float*>(m.get());
    a.v = static_cast<float*>(v.get());
    fill_random_f32(a.master, n, ctx.next_seed(), kRandomMinMagnitude, 1.0F, false, s);
    fill_random_f32(a.m, n, ctx.next_seed(), kRandomMinMagnitude, 1e-2F, false, s);
    fill_random_f32(a.v, n, ctx.next_seed(), kRandomMinMagnitude, 1e-2F, true, s);
  }
  prepare_memory_kernel(a);

  // Verification: one call, a slice checked against the CPU reference (adam: its inputs are
  // read before the step changes them).
  if (adam) {
    const std::int64_t w = std::min(kAdamVerifyWindow, n);
    std::vector<AdamWindow> windows;
    for (std::int64_t at : sample(n - w + 1, kMemoryVerifyRows, ctx.next_seed())) {
      windows.push_back({at, fetch<float>(a.master, at, w, s), fetch<float>(a.m, at, w, s),
                         fetch<float>(a.v, at, w, s), fetch<Bits>(a.x, at, w, s)});
    }
    launch_memory_kernel(a, s);
    Tally t;
    for (const AdamWindow& win : windows) {
      const std::vector<double> p = fetch<float>(a.master, win.offset, w, s);
      const std::vector<double> mm = fetch<float>(a.m, win.offset, w, s);
      const std::vector<double> vv = fetch<float>(a.v, win.offset, w, s);
      const std::vector<double> copy = fetch<Bits>(a.y, win.offset, w, s);
      for (std::size_t i = 0; i < p.size(); ++i) {
        const memref::AdamState ref = memref::adam({win.p[i], win.m[i], win.v[i]}, win.g[i]);
        t.check(p[i], ref.p, kAdamVerifyRtol, 0.0);
        t.check(mm[i], ref.m, kAdamVerifyRtol, 0.0);
        t.check(vv[i], ref.v, kAdamVerifyRtol, 0.0);
        t.check(copy[i], ref.p, kMemoryVerifyRtol, 0.0);
      }
    }
    e.verification = t.ok ? Verification::passed : Verification::failed;
  } else {
    launch_memory_kernel(a, s);
    GOODPUT_CUDA(cudaStreamSynchronize(s));
    e.verification = verify_rows(ctx, a) ? Verification::passed : Verification::failed;
  }

  e.time_s = ctx.timer().measure([&](cudaStream_t st) { launch_memory_kernel(a, st); }, ctx.stop());
  e.gbps = static_cast<double>(e.bytes) / e.time_s.median / 1e9;
  e.fraction_of_ceiling = ctx.copy_ceiling_gbps > 0 ? e.gbps / ctx.copy_ceiling_gbps : 0.0;
  return e;
}

}  // namespace goodput::calib
