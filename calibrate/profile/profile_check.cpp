#include "calibrate/profile/profile_check.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "calibrate/profile/profile.hpp"

namespace goodput::calib {
namespace {

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

std::string reshard_label(const ReshardEntry& e) {
  std::ostringstream s;
  s << e.kernel << "/" << e.role << " " << e.n1 << "->" << e.n2 << " " << e.rows << "x" << e.cols
    << " " << e.bytes << " B";
  return s.str();
}

const GemmEntry* find_gemm(const Profile& p, const GemmEntry& e) {
  for (const GemmEntry& a : p.gemm) {
    if (a.name == e.name && a.pass == e.pass && a.m == e.m && a.n == e.n && a.k == e.k &&
        a.batch == e.batch) {
      return &a;
    }
  }
  return nullptr;
}

const ReshardEntry* find_reshard(const Profile& p, const ReshardEntry& e) {
  for (const ReshardEntry& a : p.reshard) {
    if (a.n1 == e.n1 && a.n2 == e.n2 && a.cols == e.cols && a.rows == e.rows &&
        a.kernel == e.kernel && a.role == e.role) {
      return &a;
    }
  }
  return nullptr;
}

std::string memory_label(const MemoryKernelEntry& e) {
  std::ostringstream s;
  s << e.model << " " << to_string(e.kernel) << " tp";
  for (std::size_t i = 0; i < e.tp.size(); ++i) s << (i ? "," : "") << e.tp[i];
  s << " " << e.rows << "x" << e.cols << " " << e.bytes << " B";
  return s.str();
}

const MemoryKernelEntry* find_memory(const Profile& p, const MemoryKernelEntry& e) {
  for (const MemoryKernelEntry& a : p.memory_kernels) {
    if (a.kernel == e.kernel && a.rows == e.rows && a.cols == e.cols) return &a;
  }
  return nullptr;
}

void note_ratio(CheckRow& row) {
  if (row.analytical_s <= 0.0 || row.measured_s <= 0.0) return;
  const double r = row.measured_s / row.analytical_s;
  if (r > kCheckAnalyticalRatio || r < 1.0 / kCheckAnalyticalRatio) {
    row.note = fmt("%.2fx the analytical time", r);
  }
}

}  // namespace

std::string gemm_label(const GemmEntry& e) {
  std::ostringstream s;
  s << e.model << " " << e.name << " " << to_string(e.pass) << " tp";
  for (std::size_t i = 0; i < e.tp.size(); ++i) s << (i ? "," : "") << e.tp[i];
  s << " " << e.m << "x" << e.n << "x" << e.k;
  if (e.batch > 1) s << "x" << e.batch;
  return s.str();
}

std::string datasheet_gpu_of(const std::string& name) {
  const GpuSpec* g = gpu_of_device_name(name);
  return g ? g->name : "";
}

CheckReport check_profile(const Profile& m, const Profile& a) {
  CheckReport r;
  r.device = m.device.name;
  r.datasheet_gpu = a.settings.analytical_model ? a.settings.analytical_model->gpu : "";
  r.gemm_ceiling_tflops = m.ceilings.gemm_tflops;
  r.copy_ceiling_gbps = m.ceilings.copy_gbps;
  r.datasheet_gemm_tflops = a.ceilings.gemm_tflops;
  r.datasheet_copy_gbps = a.ceilings.copy_gbps;
  for (const GemmEntry& e : m.gemm) {
    CheckRow row;
    row.kind = "gemm";
    row.label = gemm_label(e);
    row.measured_s = e.time_s.median;
    if (const GemmEntry* x = find_gemm(a, e)) row.analytical_s = x->time_s.median;
    row.fraction = m.ceilings.gemm_tflops > 0 ? e.tflops / m.ceilings.gemm_tflops : 0.0;
    row.checked = e.name != "attention" && std::min({e.m, e.n, e.k}) >= kCheckLargeDim;
    if (e.verification == Verification::failed) {
      row.flag = "verification failed";
    } else if (row.checked && row.fraction < kCheckGemmFraction) {
      row.flag =
          fmt("large GEMM below %.0f %% of the measured GEMM ceiling", 100 * kCheckGemmFraction);
    }
    note_ratio(row);
    r.rows.push_back(row);
  }
  for (const ReshardEntry& e : m.reshard) {
    CheckRow row;
    row.kind = "reshard";
    row.label = reshard_label(e);
    row.measured_s = e.time_s.median;
    if (const ReshardEntry* x = find_reshard(a, e)) row.analytical_s = x->time_s.median;
    row.fraction = m.ceilings.copy_gbps > 0 ? e.gbps / m.ceilings.copy_gbps : 0.0;
    row.checked = (e.kernel == "pack" || e.kernel == "unpack" || e.kernel == "d2d") &&
                  e.bytes >= kCheckLargeCopyBytes;
    if (e.verification == Verification::failed) {
      row.flag = "verification failed";
    } else if (row.checked && row.fraction < kCheckCopyFraction) {
      row.flag = fmt("below %.0f %% of the measured copy bandwidth", 100 * kCheckCopyFraction);
    }
    note_ratio(row);
    r.rows.push_back(row);
  }
  for (const MemoryKernelEntry& e : m.memory_kernels) {
    CheckRow row;
    row.kind = "memory";
    row.label = memory_label(e);
    row.measured_s = e.time_s.median;
    if (const MemoryKernelEntry* x = find_memory(a, e)) row.analytical_s = x->time_s.median;
    row.fraction = m.ceilings.copy_gbps > 0 ? e.gbps / m.ceilings.copy_gbps : 0.0;
    row.checked = true;
    if (e.verification == Verification::failed) {
      row.flag = "verification failed";
    } else if (row.fraction > kCheckMemoryOverCeiling) {
      row.flag = fmt("faster than %.2fx the measured copy bandwidth", kCheckMemoryOverCeiling);
    }
    note_ratio(row);
    r.rows.push_back(row);
  }
  for (const CheckRow& row : r.rows) {
    r.flagged += !row.flag.empty();
    r.noted += !row.note.empty();
  }
  return r;
}

std::string to_markdown(const CheckReport& r) {
  std::ostringstream s;
  s << "# Calibration check: " << r.device << "\n\n";
  s << "| ceiling | measured | datasheet (" << r.datasheet_gpu
    << ") | measured / datasheet |\n|---|---|---|---|\n";
  s << "| GEMM 8192^3 bf16, TFLOP/s | " << fmt("%.0f", r.gemm_ceiling_tflops) << " | "
    << fmt("%.0f", r.datasheet_gemm_tflops) << " | "
    << fmt("%.2f",
           r.datasheet_gemm_tflops > 0 ? r.gemm_ceiling_tflops / r.datasheet_gemm_tflops : 0.0)
    << " |\n";
  s << "| copy 1 GiB d2d, GB/s (read + write) | " << fmt("%.0f", r.copy_ceiling_gbps) << " | "
    << fmt("%.0f", r.datasheet_copy_gbps) << " | "
    << fmt("%.2f", r.datasheet_copy_gbps > 0 ? r.copy_ceiling_gbps / r.datasheet_copy_gbps : 0.0)
    << " |\n\n";
  s << r.rows.size() << " entries, " << r.flagged << " flagged, " << r.noted << " more than "
    << fmt("%.0fx", kCheckAnalyticalRatio) << " from the analytical model.\n\n";
  s << "| kind | entry | measured ms | analytical ms | measured / analytical | of ceiling | flag | "
       "note |\n";
  s << "|---|---|---|---|---|---|---|---|\n";
  for (const CheckRow& row : r.rows) {
    s << "| " << row.kind << " | " << row.label << " | " << fmt("%.4f", row.measured_s * 1e3)
      << " | " << (row.analytical_s > 0 ? fmt("%.4f", row.analytical_s * 1e3) : "-") << " | "
      << (row.analytical_s > 0 ? fmt("%.2f", row.measured_s / row.analytical_s) : "-") << " | "
      << fmt("%.2f", row.fraction) << (row.checked ? "" : " (not checked)") << " | "
      << (row.flag.empty() ? "ok" : "**" + row.flag + "**") << " | " << row.note << " |\n";
  }
  return s.str();
}

}  // namespace goodput::calib
