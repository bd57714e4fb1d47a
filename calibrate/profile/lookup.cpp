#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "calibrate/profile/fit.hpp"
#include "calibrate/profile/profile.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_pointer.hpp"

namespace goodput::calib {
namespace {

std::string describe(const GemmQuery& q) {
  return q.name + " " + std::string(to_string(q.pass)) + " m=" + std::to_string(q.m) +
         " n=" + std::to_string(q.n) + " k=" + std::to_string(q.k) +
         " batch=" + std::to_string(q.batch);
}

// The fitted model: the cached one, or one built now (profiles assembled by hand).
std::shared_ptr<const FitModel> model_of(const Profile& p) {
  if (p.fit_model) return p.fit_model;
  return std::make_shared<const FitModel>(fit_profile(p));
}

[[noreturn]] void refuse(const Profile& p, const std::string& pointer, const std::string& what) {
  throw InputError(p.path, pointer,
                   what +
                       " failed verification when the profile was measured; refusing to use it "
                       "(re-run goodput-calibrate)");
}

void check_fit_inputs(const Profile& p) {
  // A fit built from failed entries would be untrustworthy; fit_profile skips them, but if
  // every entry failed there is nothing to fit, so say why.
  const bool any_ok = std::any_of(p.gemm.begin(), p.gemm.end(), [](const GemmEntry& e) {
    return e.verification != Verification::failed;
  });
  if (!any_ok && !p.gemm.empty()) refuse(p, "/gemm", "every GEMM entry");
  if (p.gemm.empty()) throw InputError(p.path, "/gemm", "the profile has no GEMM entries");
}

}  // namespace

double gemm_time_s(const Profile& p, const GemmQuery& q) {
  for (std::size_t i = 0; i < p.gemm.size(); ++i) {
    const GemmEntry& e = p.gemm[i];
    if (e.name == q.name && e.pass == q.pass && e.m == q.m && e.n == q.n && e.k == q.k &&
        e.batch == q.batch) {
      if (e.verification == Verification::failed) {
        refuse(p, pointer_append(pointer_append("/gemm", i), "verification"),
               "the entry for " + describe(q));
      }
      return e.time_s.median;
    }
  }
  check_fit_inputs(p);
  return predict_gemm_s(*model_of(p), q);
}

double reshard_time_s(const Profile& p, std::int64_t bytes) {
  if (bytes <= 0) return 0.0;
  for (std::size_t i = 0; i < p.reshard.size(); ++i) {
    const ReshardEntry& e = p.reshard[i];
    if (e.verification == Verification::failed && (e.kernel == "pack" || e.kernel == "unpack")) {
      refuse(p, pointer_append(pointer_append("/reshard", i), "verification"),
             "reshard entry " + std::to_string(i) + " (" + e.kernel + ")");
    }
  }
  const auto fit = model_of(p);
  return predict_reshard_s(*fit, "pack", bytes) + predict_reshard_s(*fit, "unpack", bytes);
}

LayerTime layer_time(const Profile& p, const ModelShape& shape, int tp) {
  LayerTime t;
  for (const GemmQuery& q : layer_gemms(shape, tp)) {
    const double time = q.name == "attention"
                            ? attention_time(p, attention_call(shape, tp, q.pass)).time_s
                            : gemm_time_s(p, q);
    (q.pass == Pass::fwd ? t.fwd_s : t.bwd_s) += time;
  }
  return t;
}

double gemm_ceiling_tflops(const Profile& p) {
  return p.ceilings.gemm_tflops;
}
double copy_ceiling_gbps(const Profile& p) {
  return p.ceilings.copy_gbps;
}
double copy_efficiency(const Profile& p) {
  if (p.ceilings.kind != "datasheet") return 1.0;
  return p.settings.analytical_model ? p.settings.analytical_model->hbm_efficiency
                                     : kDatasheetCopyEfficiency;
}
const std::string& device_name(const Profile& p) {
  return p.device.name;
}

FitSummary fit_report(const Profile& p) {
  auto summarize_errors = [](std::vector<double> errs) {
    FitStats s;
    s.method = errs.empty() ? "none" : "leave_one_out";
    s.held_out = static_cast<int>(errs.size());
    if (errs.empty()) return s;
    std::sort(errs.begin(), errs.end());
    s.max_rel_error = errs.back();
    const std::size_t n = errs.size();
    s.median_rel_error = n % 2 ? errs[n / 2] : 0.5 * (errs[n / 2 - 1] + errs[n / 2]);
    return s;
  };
  FitSummary out;
  std::vector<double> errs;
  for (std::size_t i = 0; i < p.gemm.size(); ++i) {
    const GemmEntry& e = p.gemm[i];
    if (e.verification == Verification::failed) continue;
    const FitModel fit = fit_profile(p, i, std::nullopt, FitParts::gemm);
    if (!fit.has_gemm) continue;
    const double pred = predict_gemm_s(fit, {e.name, e.pass, e.m, e.n, e.k, e.batch, e.layout});
    errs.push_back(std::abs(pred - e.time_s.median) / e.time_s.median);
  }
  out.gemm = summarize_errors(errs);
  errs.clear();
  for (std::size_t i = 0; i < p.reshard.size(); ++i) {
    const ReshardEntry& e = p.reshard[i];
    if (e.verification == Verification::failed || (e.kernel != "pack" && e.kernel != "unpack")) {
      continue;
    }
    const FitModel fit = fit_profile(p, std::nullopt, i, FitParts::reshard);
    const double pred = predict_reshard_s(fit, e.kernel, e.bytes);
    errs.push_back(std::abs(pred - e.time_s.median) / e.time_s.median);
  }
  out.reshard = summarize_errors(errs);
  return out;
}

}  // namespace goodput::calib
