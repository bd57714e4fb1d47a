// Owning device allocation (RAII) for the harness.
// Contract: DeviceBuffer(bytes) allocates with cudaMalloc on the current device (throws on
// failure, e.g. out of memory) and frees in the destructor; move-only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

#include "calibrate/harness/cuda_check.hpp"

namespace goodput::calib {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::int64_t bytes) : bytes_(bytes) {
    if (bytes > 0) GOODPUT_CUDA(cudaMalloc(&ptr_, static_cast<std::size_t>(bytes)));
  }
  ~DeviceBuffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return ptr_; }
  std::int64_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::int64_t bytes_ = 0;
};

}  // namespace goodput::calib
