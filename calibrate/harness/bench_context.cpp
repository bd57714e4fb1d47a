#include "calibrate/harness/bench_context.hpp"

#include "calibrate/harness/cuda_check.hpp"

namespace goodput::calib {

BenchContext::BenchContext(DeviceInfo device, StopSettings stop)
    : device_(std::move(device)),
      stop_(stop),
      timer_(std::make_unique<Timer>(l2_flush_bytes(device_))),
      workspace_(kCublasLtWorkspaceBytes) {
  GOODPUT_CUBLAS(cublasLtCreate(&lt_));
  GOODPUT_CUBLAS(cublasCreate(&blas_));
  GOODPUT_CUBLAS(cublasSetStream(blas_, timer_->stream()));
  GOODPUT_CUBLAS(
      cublasSetWorkspace(blas_, workspace_.get(), static_cast<std::size_t>(workspace_.bytes())));
}

BenchContext::~BenchContext() {
  if (blas_ != nullptr) cublasDestroy(blas_);
  if (lt_ != nullptr) cublasLtDestroy(lt_);
}

}  // namespace goodput::calib
