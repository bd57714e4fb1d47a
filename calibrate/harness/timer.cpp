#include "calibrate/harness/timer.hpp"

#include <algorithm>
#include <chrono>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"
#include "calibrate/profile/stats.hpp"
#include "calibrate/profile/stopping_rule.hpp"

namespace goodput::calib {

std::int64_t l2_flush_bytes(const DeviceInfo& device) {
  return std::max(kL2FlushFactor * device.l2_bytes.value_or(0), kL2FlushMinBytes);
}

Timer::Timer(std::int64_t flush_bytes) : flush_((flush_bytes + 15) / 16 * 16), sink_(16) {
  GOODPUT_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  // Defined contents once; every flush afterwards only reads.
  GOODPUT_CUDA(
      cudaMemsetAsync(flush_.get(), 0x5a, static_cast<std::size_t>(flush_.bytes()), stream_));
  GOODPUT_CUDA(cudaMemsetAsync(sink_.get(), 0, 16, stream_));
  GOODPUT_CUDA(cudaStreamSynchronize(stream_));
  GOODPUT_CUDA(cudaEventCreate(&start_));
  GOODPUT_CUDA(cudaEventCreate(&stop_));
}

Timer::~Timer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaStreamDestroy(stream_);
}

TimeStats Timer::measure(const std::function<void(cudaStream_t)>& op, const StopSettings& stop) {
  for (int i = 0; i < stop.warmup_runs; ++i) op(stream_);
  GOODPUT_CUDA(cudaStreamSynchronize(stream_));
  GOODPUT_CUDA(cudaGetLastError());
  StoppingRule rule(stop);
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    // Read the whole flush buffer so no line of the operands stays in L2 and none is dirty;
    // outside the events.
    l2_flush_read(flush_.get(), flush_.bytes(), static_cast<unsigned*>(sink_.get()), stream_);
    GOODPUT_CUDA(cudaEventRecord(start_, stream_));
    op(stream_);
    GOODPUT_CUDA(cudaEventRecord(stop_, stream_));
    GOODPUT_CUDA(cudaEventSynchronize(stop_));
    float ms = 0.0F;
    GOODPUT_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    rule.add(static_cast<double>(ms) * 1e-3);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rule.done(wall)) break;
  }
  GOODPUT_CUDA(cudaGetLastError());
  const SampleStats s = summarize(rule.samples());
  return TimeStats{s.median, s.min,        s.max,     s.mean,
                   s.spread, s.rel_stderr, s.samples, rule.reason()};
}

}  // namespace goodput::calib
