// The GPU types' power ratings, each with its source: the nominal power the job's GPUs run at
// (the TDP of the configuration the shipped analytical profiles assume; a power multiplier of
// 1 in /cost/curve_power) and the rated maximum board power no boost may exceed. The scenario's
// /cluster/gpu_nominal_power_w and /cluster/gpu_max_power_w default to these and may override
// them (a fleet run power-capped below its TDP, say).
#pragma once

#include <string>

namespace goodput {

struct GpuPowerRating {
  const char* gpu;
  double nominal_w;    // TDP of the configuration the analytical profile assumes
  double max_board_w;  // rated maximum board power of the GPU
  const char* source;
};

inline constexpr GpuPowerRating kGpuPowerRatings[] = {
    {"H100", 700, 700,
     "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM: max thermal design power up to 700 W "
     "(configurable); the SXM board is rated no higher, so no boost headroom"},
    {"H200", 700, 700,
     "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM: max thermal design power up to 700 W "
     "(configurable); no boost headroom"},
    {"B200", 1000, 1200,
     "nominal: NVIDIA HGX B200 / DGX B200 datasheets, 1000 W per GPU (the configuration of "
     "calibrate/profiles/b200-analytical.json); maximum: the same Blackwell B200 GPU is rated "
     "and configured at up to 1200 W in GB200 NVL72 (NVIDIA GB200 NVL72 datasheet), so a "
     "rack-scale tray built for it has 1.2x headroom (an HGX baseboard does not: set "
     "/cluster/gpu_max_power_w to 1000)"},
    {"GB200", 1200, 1200,
     "NVIDIA GB200 NVL72 datasheet: each B200 GPU of a GB200 superchip configured at 1200 W, "
     "its rated maximum; no boost headroom"},
};

// The rating of a GPU type; null when the catalogue lacks it.
inline const GpuPowerRating* find_gpu_power(const std::string& gpu) {
  for (const auto& r : kGpuPowerRatings)
    if (gpu == r.gpu) return &r;
  return nullptr;
}

}  // namespace goodput
