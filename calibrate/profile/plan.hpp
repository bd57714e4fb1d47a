// What one calibration run measures: the unique GEMM shapes and reshard kernels of a list of
// models over their TP ranges. Contract: make_plan() is deterministic; shapes that several TP
// degrees share (uneven shards often coincide) are measured once and list every degree;
// quick mode keeps only tp_max and tp_min and one reshard geometry per model. The harness
// and analytical_profile() both build their entries from this plan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

struct GemmJob {
  std::string model;
  std::vector<int> tp;
  GemmQuery query;
};

struct ReshardJob {
  int n1 = 0, n2 = 0;
  std::int64_t cols = 0, rows = 0;
  std::string kernel;  // pack | unpack | d2d
  std::string role;    // extra | core | any
  int rank = 0;        // the busiest rank of that role (for pack/unpack)
  std::int64_t bytes = 0;
};

struct CalibrationPlan {
  std::vector<GemmJob> gemm;
  std::vector<ReshardJob> reshard;
};

inline constexpr std::int64_t kGradElemBytes = 2;  // bf16 gradients

CalibrationPlan make_plan(const std::vector<ProfiledModel>& models, bool quick);

// A job's profile entry with what the plan says filled in (model, degrees, shape / geometry);
// the measurement (or the analytical estimate) fills the rest.
GemmEntry entry_of(const GemmJob& job);
ReshardEntry entry_of(const ReshardJob& job);

// The reshard matrices of one layer: (rows, cols) = (hidden, qkv columns) and
// (hidden, MLP up columns), the widest column-split weights.
std::vector<std::int64_t> reshard_matrix_cols(const ModelShape& shape);

}  // namespace goodput::calib
