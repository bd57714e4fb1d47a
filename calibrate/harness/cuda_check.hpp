// Error checks for CUDA runtime, cuBLAS and NCCL calls in the harness.
// Contract: each macro evaluates its call once and throws std::runtime_error naming the call,
// file, line and the library's error string on failure. Library code never exits.
#pragma once

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace goodput::calib::detail {

[[noreturn]] inline void throw_failure(const char* what, const char* call, const char* file,
                                       int line, const std::string& why) {
  throw std::runtime_error(std::string(what) + " call " + call + " failed at " + file + ":" +
                           std::to_string(line) + ": " + why);
}

}  // namespace goodput::calib::detail

#define GOODPUT_CUDA(call)                                                       \
  do {                                                                           \
    const cudaError_t goodput_err_ = (call);                                     \
    if (goodput_err_ != cudaSuccess)                                             \
      ::goodput::calib::detail::throw_failure("CUDA", #call, __FILE__, __LINE__, \
                                              cudaGetErrorString(goodput_err_)); \
  } while (0)

#define GOODPUT_CUBLAS(call)                                                       \
  do {                                                                             \
    const cublasStatus_t goodput_st_ = (call);                                     \
    if (goodput_st_ != CUBLAS_STATUS_SUCCESS)                                      \
      ::goodput::calib::detail::throw_failure("cuBLAS", #call, __FILE__, __LINE__, \
                                              cublasGetStatusString(goodput_st_)); \
  } while (0)
