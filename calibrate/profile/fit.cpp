#include "calibrate/profile/fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "calibrate/profile/profile.hpp"

namespace goodput::calib {
namespace {

std::string key_of(const std::string& name, Pass pass) {
  return name + "/" + std::string(to_string(pass));
}

double efficiency_shape(std::int64_t d, double d_half) {
  const auto x = static_cast<double>(d);
  return x / (x + d_half);
}

// One entry, normalised: time = c * ideal / g(d) + beta * bytes.
struct Point {
  int key = 0;
  double ideal = 0.0;  // flops / P
  double bytes = 0.0;  // bf16 operand + result traffic
  double d = 0.0;
  double t = 0.0;
};

struct KeyFit {
  double c = 0.0, beta = 0.0, loss = 0.0;
};

// Minimizes sum (c x + beta y - 1)^2 with x = ideal / (g t), y = bytes / t (relative error)
// over three candidates: both terms (needs >= 3 points and a physical c > 0, beta >= 0),
// compute only, memory only; the lowest loss wins.
KeyFit fit_key(const std::vector<const Point*>& pts, double d_half) {
  std::vector<double> xs, ys;
  double sxx = 0, sxy = 0, syy = 0, sx = 0, sy = 0;
  for (const Point* p : pts) {
    const double x = p->ideal / (efficiency_shape(static_cast<std::int64_t>(p->d), d_half) * p->t);
    const double y = p->bytes / p->t;
    xs.push_back(x);
    ys.push_back(y);
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sx += x;
    sy += y;
  }
  auto with_loss = [&](KeyFit f) {
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double r = f.c * xs[i] + f.beta * ys[i] - 1.0;
      f.loss += r * r;
    }
    return f;
  };
  KeyFit best = with_loss({sx / sxx, 0.0, 0.0});
  const double det = sxx * syy - sxy * sxy;
  if (pts.size() >= 3 && det > 1e-9 * sxx * syy) {
    const KeyFit joint{(sx * syy - sy * sxy) / det, (sxx * sy - sxy * sx) / det, 0.0};
    if (joint.c > 0.0 && joint.beta >= 0.0) {
      const KeyFit f = with_loss(joint);
      if (f.loss < best.loss) best = f;
    }
  }
  if (pts.size() >= 2) {
    const KeyFit memory = with_loss({0.0, sy / syy, 0.0});
    if (memory.loss < best.loss) best = memory;
  }
  return best;
}

void fit_gemm(const Profile& prof, std::optional<std::size_t> skip, FitModel& fit) {
  fit.peak_flops = prof.ceilings.gemm_tflops * 1e12;
  std::vector<std::string> keys;
  std::vector<Point> points;
  for (std::size_t i = 0; i < prof.gemm.size(); ++i) {
    const GemmEntry& e = prof.gemm[i];
    if ((skip && *skip == i) || e.verification == Verification::failed) continue;
    const std::string key = key_of(e.name, e.pass);
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) it = keys.insert(keys.end(), key);
    const GemmQuery q{e.name, e.pass, e.m, e.n, e.k, e.batch, e.layout};
    points.push_back({static_cast<int>(it - keys.begin()), gemm_flops(q) / fit.peak_flops,
                      gemm_bytes(q), static_cast<double>(smallest_dim(e.m, e.n, e.k)),
                      e.time_s.median});
  }
  if (points.empty()) return;
  std::vector<std::vector<const Point*>> by_key(keys.size());
  std::vector<const Point*> linear;
  for (const Point& p : points) {
    by_key[p.key].push_back(&p);
    if (keys[p.key].rfind("attention/", 0) != 0) linear.push_back(&p);
  }
  // Grid over d_half: 0 and 49 log-spaced values in [1, 65536] (ratio 2^(1/3)).
  double best_loss = INFINITY;
  for (int i = -1; i <= 48; ++i) {
    const double dh = i < 0 ? 0.0 : std::pow(2.0, 16.0 * i / 48.0);
    double loss = 0.0;
    std::vector<KeyFit> fits;
    for (const auto& pts : by_key) {
      fits.push_back(fit_key(pts, dh));
      loss += fits.back().loss;
    }
    if (loss < best_loss * (1.0 - 1e-12)) {
      best_loss = loss;
      fit.d_half = dh;
      fit.scale.clear();
      for (std::size_t k = 0; k < keys.size(); ++k) fit.scale[keys[k]] = {fits[k].c, fits[k].beta};
      const KeyFit pooled = fit_key(linear.empty() ? by_key.front() : linear, dh);
      fit.pooled = {pooled.c, pooled.beta};
      fit.has_gemm = true;
    }
  }
}

LinearTime fit_linear(const std::vector<std::pair<double, double>>& pts) {
  // Weighted least squares, weights 1/t^2 (relative error); t0 clamped to >= 0.
  LinearTime lt;
  if (pts.empty()) return lt;
  lt.valid = true;
  double sw = 0, sb = 0, sbb = 0, st = 0, sbt = 0;
  for (const auto& [b, t] : pts) {
    const double w = 1.0 / (t * t);
    sw += w;
    sb += w * b;
    sbb += w * b * b;
    st += w * t;
    sbt += w * b * t;
  }
  const double det = sw * sbb - sb * sb;
  if (pts.size() >= 2 && det > 1e-12 * sw * sbb) {
    lt.t0 = (sbb * st - sb * sbt) / det;
    lt.s_per_byte = (sw * sbt - sb * st) / det;
    if (lt.t0 >= 0.0 && lt.s_per_byte > 0.0) return lt;
  }
  // Through the origin: minimize sum (s b / t - 1)^2.
  double sr = 0, sr2 = 0;
  for (const auto& [b, t] : pts) {
    sr += b / t;
    sr2 += (b / t) * (b / t);
  }
  lt.t0 = 0.0;
  lt.s_per_byte = sr / sr2;
  return lt;
}

}  // namespace

FitModel fit_profile(const Profile& prof, std::optional<std::size_t> skip_gemm,
                     std::optional<std::size_t> skip_reshard, FitParts parts) {
  FitModel fit;
  if (parts != FitParts::reshard) fit_gemm(prof, skip_gemm, fit);
  if (parts == FitParts::gemm) return fit;
  std::map<std::string, std::vector<std::pair<double, double>>> pts;
  for (std::size_t i = 0; i < prof.reshard.size(); ++i) {
    const ReshardEntry& e = prof.reshard[i];
    if ((skip_reshard && *skip_reshard == i) || e.verification == Verification::failed) continue;
    pts[e.kernel].emplace_back(static_cast<double>(e.bytes), e.time_s.median);
  }
  for (const auto& [kernel, p] : pts) fit.reshard[kernel] = fit_linear(p);
  // Every byte is read once and written once: time = 2 * bytes / copy bandwidth.
  fit.copy_s_per_byte = 2.0 / (prof.ceilings.copy_gbps * 1e9);
  return fit;
}

double predict_gemm_s(const FitModel& fit, const GemmQuery& q) {
  if (!fit.has_gemm) throw std::invalid_argument("the profile has no usable GEMM entries");
  auto it = fit.scale.find(key_of(q.name, q.pass));
  const GemmScale s = it != fit.scale.end() ? it->second : fit.pooled;
  const double g = efficiency_shape(smallest_dim(q.m, q.n, q.k), fit.d_half);
  return gemm_flops(q) * s.c / (fit.peak_flops * g) + s.beta * gemm_bytes(q);
}

double predict_reshard_s(const FitModel& fit, const std::string& kernel, std::int64_t bytes) {
  const char* order[] = {kernel.c_str(), kernel == "pack" ? "unpack" : "pack", "d2d"};
  for (const char* k : order) {
    auto it = fit.reshard.find(k);
    if (it != fit.reshard.end() && it->second.valid) return it->second.at(bytes);
  }
  return fit.copy_s_per_byte * static_cast<double>(bytes);
}

}  // namespace goodput::calib
