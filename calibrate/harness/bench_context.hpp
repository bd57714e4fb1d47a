// Everything the benchmarks of one run share: the device, its handles, the timer and the
// ceilings measured so far. Contract: one BenchContext per run, created after select_device();
// owns the cuBLAS/cuBLASLt handles and the cuBLASLt workspace; next_seed() gives every buffer
// fill its own deterministic seed.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

#include <cstdint>
#include <memory>

#include "calibrate/harness/device_buffer.hpp"
#include "calibrate/harness/timer.hpp"
#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

class BenchContext {
 public:
  BenchContext(DeviceInfo device, StopSettings stop);
  ~BenchContext();
  BenchContext(const BenchContext&) = delete;
  BenchContext& operator=(const BenchContext&) = delete;

  const DeviceInfo& device() const { return device_; }
  const StopSettings& stop() const { return stop_; }
  Timer& timer() { return *timer_; }
  cudaStream_t stream() const { return timer_->stream(); }
  cublasLtHandle_t lt() const { return lt_; }
  cublasHandle_t blas() const { return blas_; }
  void* workspace() const { return workspace_.get(); }
  std::int64_t workspace_bytes() const { return workspace_.bytes(); }
  std::uint64_t next_seed() { return seed_++; }

  double gemm_ceiling_tflops = 0.0;  // set by the ceiling benchmarks, used for fractions
  double copy_ceiling_gbps = 0.0;

 private:
  DeviceInfo device_;
  StopSettings stop_;
  std::unique_ptr<Timer> timer_;
  cublasLtHandle_t lt_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  DeviceBuffer workspace_;
  std::uint64_t seed_ = 0x5eed;
};

}  // namespace goodput::calib
