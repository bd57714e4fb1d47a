// Timing of one GPU operation under the measurement discipline of settings.hpp.
// Contract: measure(op) runs op warmup_runs times untimed, then repeats
// [flush L2 by a read-only sweep (untimed) -> event -> op -> event] until the StoppingRule
// says stop, and returns the statistics in seconds with the stop reason. op must enqueue its
// work on the given stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

#include "calibrate/harness/device_buffer.hpp"
#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

class Timer {
 public:
  explicit Timer(std::int64_t flush_bytes);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  cudaStream_t stream() const { return stream_; }
  std::int64_t flush_bytes() const { return flush_.bytes(); }
  TimeStats measure(const std::function<void(cudaStream_t)>& op, const StopSettings& stop);

 private:
  DeviceBuffer flush_;  // read (never written) before every sample
  DeviceBuffer sink_;   // where the flush sweep would write its checksum
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// max(kL2FlushFactor * L2, kL2FlushMinBytes).
std::int64_t l2_flush_bytes(const DeviceInfo& device);

}  // namespace goodput::calib
