#include "calibrate/harness/multi_gpu_bench.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"
#include "calibrate/profile/stats.hpp"
#include "calibrate/profile/stopping_rule.hpp"

#if GOODPUT_HAVE_NCCL
#include <nccl.h>
#define GOODPUT_NCCL(call)                                                       \
  do {                                                                           \
    const ncclResult_t goodput_nr_ = (call);                                     \
    if (goodput_nr_ != ncclSuccess)                                              \
      ::goodput::calib::detail::throw_failure("NCCL", #call, __FILE__, __LINE__, \
                                              ncclGetErrorString(goodput_nr_));  \
  } while (0)
#endif

namespace goodput::calib {
namespace {

std::vector<char> to_host(const void* p, std::int64_t bytes) {
  std::vector<char> h(static_cast<std::size_t>(bytes));
  GOODPUT_CUDA(cudaMemcpy(h.data(), p, h.size(), cudaMemcpyDefault));
  return h;
}

ReshardEntry base_entry(const ReshardJob& job, const char* kernel, int ranks) {
  ReshardEntry e;
  e.n1 = ranks;
  e.n2 = ranks;
  e.cols = job.cols;
  e.rows = job.rows;
  e.bytes = job.bytes;
  e.kernel = kernel;
  e.role = "any";
  return e;
}

ReshardEntry bench_peer(BenchContext& ctx, const ReshardJob& job, int a, int b) {
  ReshardEntry e = base_entry(job, "peer", 2);
  int can = 0;
  GOODPUT_CUDA(cudaDeviceCanAccessPeer(&can, a, b));
  if (can) {
    const cudaError_t err = cudaDeviceEnablePeerAccess(b, 0);
    if (err != cudaErrorPeerAccessAlreadyEnabled) GOODPUT_CUDA(err);
    (void)cudaGetLastError();
  }
  DeviceBuffer src(job.bytes);
  GOODPUT_CUDA(cudaSetDevice(b));
  DeviceBuffer dst(job.bytes);
  GOODPUT_CUDA(cudaSetDevice(a));
  fill_random_bf16(src.get(), job.bytes / 2, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
  auto op = [&](cudaStream_t s) {
    GOODPUT_CUDA(
        cudaMemcpyPeerAsync(dst.get(), b, src.get(), a, static_cast<std::size_t>(job.bytes), s));
  };
  op(ctx.stream());
  GOODPUT_CUDA(cudaStreamSynchronize(ctx.stream()));
  e.verification = to_host(src.get(), job.bytes) == to_host(dst.get(), job.bytes)
                       ? Verification::passed
                       : Verification::failed;
  e.time_s = ctx.timer().measure(op, ctx.stop());
  e.gbps = static_cast<double>(job.bytes) / e.time_s.median / 1e9;
  e.fraction_of_ceiling = ctx.copy_ceiling_gbps > 0 ? e.gbps / ctx.copy_ceiling_gbps : 0.0;
  return e;
}

#if GOODPUT_HAVE_NCCL
ReshardEntry bench_nccl(BenchContext& ctx, const ReshardJob& job, int n, int home) {
  const std::int64_t chunk = (job.bytes / n) & ~std::int64_t{1};
  ReshardEntry e = base_entry(job, "nccl_all_to_all", n);
  e.bytes = chunk * n;
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(n));
  std::vector<int> devs(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) devs[r] = r;
  GOODPUT_NCCL(ncclCommInitAll(comms.data(), n, devs.data()));
  std::vector<DeviceBuffer> send, recv;
  std::vector<cudaStream_t> streams(static_cast<std::size_t>(n));
  std::vector<cudaEvent_t> start(static_cast<std::size_t>(n)), stop(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    GOODPUT_CUDA(cudaSetDevice(r));
    send.emplace_back(e.bytes);
    recv.emplace_back(e.bytes);
    GOODPUT_CUDA(cudaStreamCreateWithFlags(&streams[r], cudaStreamNonBlocking));
    GOODPUT_CUDA(cudaEventCreate(&start[r]));
    GOODPUT_CUDA(cudaEventCreate(&stop[r]));
    fill_random_bf16(send[r].get(), e.bytes / 2, ctx.next_seed(), kRandomMinMagnitude, streams[r]);
  }
  auto all_to_all = [&] {
    GOODPUT_NCCL(ncclGroupStart());
    for (int r = 0; r < n; ++r) {
      for (int p = 0; p < n; ++p) {
        GOODPUT_NCCL(ncclSend(static_cast<char*>(send[r].get()) + p * chunk,
                              static_cast<std::size_t>(chunk), ncclChar, p, comms[r], streams[r]));
        GOODPUT_NCCL(ncclRecv(static_cast<char*>(recv[r].get()) + p * chunk,
                              static_cast<std::size_t>(chunk), ncclChar, p, comms[r], streams[r]));
      }
    }
    GOODPUT_NCCL(ncclGroupEnd());
  };
  auto sync_all = [&] {
    for (int r = 0; r < n; ++r) {
      GOODPUT_CUDA(cudaSetDevice(r));
      GOODPUT_CUDA(cudaStreamSynchronize(streams[r]));
    }
  };
  all_to_all();
  sync_all();
  bool ok = true;
  for (int r = 0; r < n && ok; ++r) {
    const std::vector<char> got = to_host(recv[r].get(), e.bytes);
    for (int p = 0; p < n && ok; ++p) {
      const std::vector<char> sent = to_host(static_cast<char*>(send[p].get()) + r * chunk, chunk);
      ok = std::equal(sent.begin(), sent.end(), got.begin() + p * chunk);
    }
  }
  e.verification = ok ? Verification::passed : Verification::failed;
  for (int i = 0; i < ctx.stop().warmup_runs; ++i) all_to_all();
  sync_all();
  StoppingRule rule(ctx.stop());
  const auto t0 = std::chrono::steady_clock::now();
  do {
    for (int r = 0; r < n; ++r) GOODPUT_CUDA(cudaEventRecord(start[r], streams[r]));
    all_to_all();
    for (int r = 0; r < n; ++r) GOODPUT_CUDA(cudaEventRecord(stop[r], streams[r]));
    double slowest = 0.0;
    for (int r = 0; r < n; ++r) {
      GOODPUT_CUDA(cudaEventSynchronize(stop[r]));
      float ms = 0.0F;
      GOODPUT_CUDA(cudaEventElapsedTime(&ms, start[r], stop[r]));
      slowest = std::max(slowest, static_cast<double>(ms) * 1e-3);
    }
    rule.add(slowest);
  } while (
      !rule.done(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  const SampleStats s = summarize(rule.samples());
  e.time_s =
      TimeStats{s.median, s.min, s.max, s.mean, s.spread, s.rel_stderr, s.samples, rule.reason()};
  e.gbps = static_cast<double>(e.bytes) / e.time_s.median * (n - 1.0) / n / 1e9;
  e.fraction_of_ceiling = ctx.copy_ceiling_gbps > 0 ? e.gbps / ctx.copy_ceiling_gbps : 0.0;
  for (int r = 0; r < n; ++r) {
    GOODPUT_CUDA(cudaSetDevice(r));
    cudaEventDestroy(start[r]);
    cudaEventDestroy(stop[r]);
    cudaStreamDestroy(streams[r]);
    ncclCommDestroy(comms[r]);
  }
  send.clear();  // frees on the current device's context is fine: cudaFree takes any device pointer
  recv.clear();
  GOODPUT_CUDA(cudaSetDevice(home));
  return e;
}
#endif

}  // namespace

std::string nccl_status(int device_count) {
#if GOODPUT_HAVE_NCCL
  return device_count >= 2 ? "measured" : "single_gpu";
#else
  (void)device_count;
  return "not_built";
#endif
}

std::vector<ReshardEntry> bench_multi_gpu(BenchContext& ctx, const ReshardJob& job) {
  std::vector<ReshardEntry> out;
  const int count = ctx.device().device_count;
  if (count < 2) return out;
  int home = 0;
  GOODPUT_CUDA(cudaGetDevice(&home));
  out.push_back(bench_peer(ctx, job, home, (home + 1) % count));
#if GOODPUT_HAVE_NCCL
  out.push_back(bench_nccl(ctx, job, std::min(count, 8), home));
#endif
  return out;
}

}  // namespace goodput::calib
