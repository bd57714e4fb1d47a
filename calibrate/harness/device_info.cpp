#include "calibrate/harness/device_info.hpp"

#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <string>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/profile/stats.hpp"
#include "sim/core/error.hpp"

namespace goodput::calib {

DeviceInfo select_device(int device) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    throw NoDeviceError(std::string("no CUDA device available (cudaGetDeviceCount: ") +
                        cudaGetErrorString(err) + "); nothing measured");
  }
  if (count == 0) throw NoDeviceError("no CUDA device available (0 devices); nothing measured");
  if (device < 0 || device >= count) {
    throw NoDeviceError("no CUDA device " + std::to_string(device) + " (" + std::to_string(count) +
                        " visible); nothing measured");
  }
  GOODPUT_CUDA(cudaSetDevice(device));
  cudaDeviceProp prop{};
  GOODPUT_CUDA(cudaGetDeviceProperties(&prop, device));
  DeviceInfo d;
  d.name = prop.name;
  d.sm_count = prop.multiProcessorCount;
  d.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  d.l2_bytes = prop.l2CacheSize;
  d.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  d.device_count = count;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess && khz > 0)
    d.clocks.sm_max_mhz = khz / 1000;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess && khz > 0)
    d.clocks.mem_max_mhz = khz / 1000;
  d.clocks.observed_via = "none";
  int v = 0;
  if (cudaDriverGetVersion(&v) == cudaSuccess) d.driver_version = v;
  if (cudaRuntimeGetVersion(&v) == cudaSuccess) d.cuda_runtime_version = v;
  d.cublas_version = static_cast<int>(cublasLtGetVersion());
  return d;
}

// Minimal NVML surface, resolved with dlsym (types per nvml.h: nvmlReturn_t is an int enum,
// NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2).
struct ClockSampler::Api {
  void* lib = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*by_pci)(const char*, void**) = nullptr;
  int (*clock)(void*, int, unsigned*) = nullptr;
};

ClockSampler::ClockSampler(int device) : api_(std::make_unique<Api>()) {
  api_->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (api_->lib == nullptr) return;
  api_->init = reinterpret_cast<int (*)()>(dlsym(api_->lib, "nvmlInit_v2"));
  api_->shutdown = reinterpret_cast<int (*)()>(dlsym(api_->lib, "nvmlShutdown"));
  api_->by_pci = reinterpret_cast<int (*)(const char*, void**)>(
      dlsym(api_->lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  api_->clock =
      reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(api_->lib, "nvmlDeviceGetClockInfo"));
  if (!api_->init || !api_->shutdown || !api_->by_pci || !api_->clock || api_->init() != 0) {
    dlclose(api_->lib);
    api_->lib = nullptr;
    return;
  }
  char bus[64] = {};
  void* h = nullptr;
  // CUDA and NVML number devices differently; the PCI bus id is common to both.
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) == cudaSuccess && api_->by_pci(bus, &h) == 0) {
    handle_ = h;
  }
}

ClockSampler::~ClockSampler() {
  if (api_->lib != nullptr) {
    api_->shutdown();
    dlclose(api_->lib);
  }
}

void ClockSampler::sample() {
  if (handle_ == nullptr) return;
  unsigned mhz = 0;
  if (api_->clock(handle_, 1, &mhz) == 0) sm_.push_back(mhz);
  if (api_->clock(handle_, 2, &mhz) == 0) mem_.push_back(mhz);
}

void ClockSampler::fill(Clocks& clocks) const {
  auto range = [](const std::vector<double>& v) -> std::optional<ClockRange> {
    if (v.empty()) return std::nullopt;
    const SampleStats s = summarize(v);
    return ClockRange{s.min, s.median, s.max};
  };
  clocks.sm_observed_mhz = range(sm_);
  clocks.mem_observed_mhz = range(mem_);
  clocks.observed_via = sm_.empty() ? "none" : "nvml";
}

}  // namespace goodput::calib
