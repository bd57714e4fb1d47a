// The memory-bound kernels of a training step that a calibration profile measures, and the bytes
// each one moves: the one definition of their traffic, for the harness (GB/s), the analytical
// profile, the plan and whoever costs them (models/cost).
// Contract: memory_kernel_bytes() is the bytes read plus the bytes written by one forward call of
// the kernel over `rows` x `cols` elements, as the harness's kernels run it (calibrate/README.md,
// "Memory-bound kernels"); a kernel's dtype is fixed by its kind.
//   rmsnorm   y = x / rms(x) * g              bf16 x, y [rows x cols], g [cols]:  4 rc + 2 c
//   layernorm y = (x - mean) / std * g + b    bf16 x, y, g and b [cols]:          4 rc + 4 c
//   swiglu    y = silu(x[:, :c]) * x[:, c:]   bf16 x [rows x 2c], y [rows x c]:   6 rc
//   gelu      y = gelu_tanh(x)                bf16 x, y:                          4 rc
//   softmax   y = softmax(x) along a row      bf16 x, y:                          4 rc
//   adam      AdamW step of rc parameters     fp32 master, m, v read + written, bf16 gradient
//             read, bf16 parameter copy written: 28 bytes per parameter
// Statistics and reductions run in fp32 everywhere.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/core/enum_names.hpp"

namespace goodput::calib {

enum class MemoryKernel { rmsnorm, layernorm, swiglu, gelu, softmax, adam };
inline constexpr EnumName<MemoryKernel> kMemoryKernelNames[] = {
    {MemoryKernel::rmsnorm, "rmsnorm"}, {MemoryKernel::layernorm, "layernorm"},
    {MemoryKernel::swiglu, "swiglu"},   {MemoryKernel::gelu, "gelu"},
    {MemoryKernel::softmax, "softmax"}, {MemoryKernel::adam, "adam"}};
std::string_view to_string(MemoryKernel kernel);

// Element types, as a profile names them: "bf16" for the activation kernels,
// "fp32_state_bf16_grad" for adam.
inline constexpr const char* kMemoryKernelDtypes[] = {"bf16", "fp32_state_bf16_grad"};
const char* memory_kernel_dtype(MemoryKernel kernel);

// Adam's traffic per parameter: fp32 master weight, m and v read and written (24), the bf16
// gradient read (2) and the bf16 parameter copy written for the next forward (2).
inline constexpr std::int64_t kAdamBytesPerParam = 28;

// Bytes read + written by one call over rows x cols elements (see the table above); throws
// std::invalid_argument unless rows, cols >= 1 and rows x cols <= kMemoryKernelMaxElements.
inline constexpr std::int64_t kMemoryKernelMaxElements = std::int64_t{1} << 50;
std::int64_t memory_kernel_bytes(MemoryKernel kernel, std::int64_t rows, std::int64_t cols);

}  // namespace goodput::calib
