// Calibration profiles: the interface the simulator's cost model uses.
// Contract: load_profile() is strict (unknown/missing/ill-typed fields throw
// goodput::InputError with the file and JSON pointer); lookups answer from an exact entry when
// one matches, else from the fitted model (fit.hpp), and refuse entries that failed
// verification with an InputError naming the entry. Times are seconds for one execution on
// the busiest GPU. save_profile() is atomic; profile_hash() is FNV-1a 64 of the canonical JSON.
#pragma once

#include <cstdint>
#include <string>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "calibrate/profile/profile_types.hpp"
#include "calibrate/profile/shapes.hpp"

namespace goodput::calib {

struct LoadOptions {
  bool reject_failed = false;  // refuse the whole profile if any entry failed verification
};

Profile load_profile(const std::string& path, LoadOptions options = {});
void save_profile(const Profile& profile, const std::string& path);
std::string profile_text(const Profile& profile);  // canonical JSON, indented, newline-ended
std::string profile_hash(const Profile& profile);  // 16 lowercase hex digits

// (Re)builds profile.fit_model from the entries; load_profile/analytical_profile call it.
void refit(Profile& profile);

double gemm_time_s(const Profile& profile, const GemmQuery& query);
double attention_time_s(const Profile& profile, std::int64_t heads_local, std::int64_t seq_len,
                        std::int64_t head_dim, std::int64_t micro_batch, Pass pass = Pass::fwd);
// Local cost of moving `bytes` of gradient out of one rank and into another: fitted pack time
// plus fitted unpack time (the wire transfer is the topology's business).
double reshard_time_s(const Profile& profile, std::int64_t bytes);

// Forward and backward GEMM + attention time of one layer at TP degree tp (busiest GPU).
struct LayerTime {
  double fwd_s = 0.0, bwd_s = 0.0;
};
LayerTime layer_time(const Profile& profile, const ModelShape& shape, int tp);

double gemm_ceiling_tflops(const Profile& profile);
double copy_ceiling_gbps(const Profile& profile);
const std::string& device_name(const Profile& profile);

// Leave-one-out error of the fit over the profile's own entries.
FitSummary fit_report(const Profile& profile);

// Datasheet-based profile from a GPU's figures (analytical.cpp): a catalogue entry by name
// (gpu_catalogue.hpp; std::invalid_argument naming the valid ones for another) or a GpuSpec
// (a scenario's /cluster/gpu_spec; it needs bf16_dense_tflops and hbm_bandwidth_gbps > 0).
Profile analytical_profile(const GpuSpec& gpu, const std::vector<ProfiledModel>& models);
Profile analytical_profile(const GpuSpec& gpu, const ModelShape& shape, int tp_max, int tp_min);
Profile analytical_profile(const std::string& gpu, const std::vector<ProfiledModel>& models);
Profile analytical_profile(const std::string& gpu, const ModelShape& shape, int tp_max, int tp_min);

}  // namespace goodput::calib
