#include "calibrate/profile/memory_kernels.hpp"

#include <stdexcept>

namespace goodput::calib {

std::string_view to_string(MemoryKernel kernel) {
  return enum_name(kMemoryKernelNames, kernel);
}

const char* memory_kernel_dtype(MemoryKernel kernel) {
  return kernel == MemoryKernel::adam ? kMemoryKernelDtypes[1] : kMemoryKernelDtypes[0];
}

std::int64_t memory_kernel_bytes(MemoryKernel kernel, std::int64_t rows, std::int64_t cols) {
  if (rows < 1 || cols < 1 || rows > kMemoryKernelMaxElements / cols)
    throw std::invalid_argument("memory kernel: rows and cols must be >= 1, their product <= 2^50");
  constexpr std::int64_t kBf16 = 2;
  const std::int64_t rc = rows * cols;
  switch (kernel) {
    case MemoryKernel::rmsnorm:
      return 2 * kBf16 * rc + kBf16 * cols;
    case MemoryKernel::layernorm:
      return 2 * kBf16 * rc + 2 * kBf16 * cols;
    case MemoryKernel::swiglu:
      return 3 * kBf16 * rc;
    case MemoryKernel::gelu:
    case MemoryKernel::softmax:
      return 2 * kBf16 * rc;
    case MemoryKernel::adam:
      return kAdamBytesPerParam * rc;
  }
  throw std::logic_error("memory_kernel_bytes: unknown kernel");
}

}  // namespace goodput::calib
