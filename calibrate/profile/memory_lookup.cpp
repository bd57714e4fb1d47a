// memory_kernel_time(): the memory-bound kernels' lookup (contract in profile.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "calibrate/profile/profile.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_pointer.hpp"

namespace goodput::calib {
namespace {

struct Point {
  double bytes = 0.0, gbps = 0.0, median_s = 0.0;
  int count = 0;
};

// The kernel's entries as (bytes, GB/s), sorted by size; entries of one size averaged.
std::vector<Point> points_of(const Profile& p, MemoryKernel kernel) {
  std::vector<Point> pts;
  for (std::size_t i = 0; i < p.memory_kernels.size(); ++i) {
    const MemoryKernelEntry& e = p.memory_kernels[i];
    if (e.kernel != kernel) continue;
    if (e.verification == Verification::failed) {
      throw InputError(p.path, pointer_append(pointer_append("/memory_kernels", i), "verification"),
                       "the " + std::string(to_string(kernel)) + " entry of " +
                           std::to_string(e.bytes) +
                           " bytes failed verification when the profile was measured; refusing "
                           "to use it (re-run goodput-calibrate)");
    }
    const auto bytes = static_cast<double>(e.bytes);
    const auto same =
        std::find_if(pts.begin(), pts.end(), [&](const Point& q) { return q.bytes == bytes; });
    if (same == pts.end()) {
      pts.push_back({bytes, bytes / e.time_s.median / 1e9, e.time_s.median, 1});
    } else {  // running means
      same->count += 1;
      same->gbps += (bytes / e.time_s.median / 1e9 - same->gbps) / same->count;
      same->median_s += (e.time_s.median - same->median_s) / same->count;
    }
  }
  std::sort(pts.begin(), pts.end(),
            [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  return pts;
}

}  // namespace

std::string_view to_string(MemoryKernelSource source) {
  switch (source) {
    case MemoryKernelSource::measured:
      return "profile measurement";
    case MemoryKernelSource::datasheet:
      return "datasheet";
    case MemoryKernelSource::copy_ceiling_fallback:
      return "copy ceiling fallback";
  }
  return "?";
}

MemoryKernelTime memory_kernel_time(const Profile& p, MemoryKernel kernel, double bytes) {
  const std::vector<Point> pts = points_of(p, kernel);
  MemoryKernelTime out;
  if (pts.empty()) {
    out.gbps = p.ceilings.copy_gbps * copy_efficiency(p);
    out.source = MemoryKernelSource::copy_ceiling_fallback;
  } else {
    out.source =
        p.source == Source::measured ? MemoryKernelSource::measured : MemoryKernelSource::datasheet;
    if (bytes <= pts.front().bytes) {
      out.gbps = pts.front().gbps;
    } else if (bytes >= pts.back().bytes) {
      out.gbps = pts.back().gbps;
    } else {
      const auto hi = std::upper_bound(pts.begin(), pts.end(), bytes,
                                       [](double b, const Point& q) { return b < q.bytes; });
      const Point& a = *(hi - 1);
      const Point& b = *hi;
      const double w = std::log(bytes / a.bytes) / std::log(b.bytes / a.bytes);
      out.gbps = a.gbps + w * (b.gbps - a.gbps);
    }
    out.gbps = std::min(out.gbps, p.ceilings.copy_gbps);  // never beyond the HBM ceiling
    // Exactly at a measured size (and not capped): its measured time, not a rounded quotient.
    for (const Point& q : pts) {
      if (q.bytes == bytes && q.count == 1 && q.gbps <= p.ceilings.copy_gbps) {
        out.time_s = q.median_s;
        return out;
      }
    }
  }
  out.time_s = bytes > 0 ? bytes / (out.gbps * 1e9) : 0.0;
  return out;
}

double memory_kernel_time_s(const Profile& p, MemoryKernel kernel, double bytes) {
  return memory_kernel_time(p, kernel, bytes).time_s;
}

}  // namespace goodput::calib
