// Which models and TP degrees to calibrate: from a goodput scenario, or the built-in set.
// Contract: read_scenario_model() reads only /job/model/{hidden,heads,kv_heads,ffn,gated_mlp,
// seq_len}, /job/micro_batch, /job/tp and /strategies/{ntp,ntp_boost}/min_tp; everything
// else in the file is ignored. Bad or missing fields throw goodput::InputError naming the file
// and JSON pointer. Without a min_tp the lowest degree is default_min_tp(tp) = max(1, tp - 4).
#pragma once

#include <string>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

int default_min_tp(int tp);

ProfiledModel read_scenario_model(const std::string& path);

// The NTP paper's 480B model (hidden 20480, 128 heads, FFN 81920, seq 16384, TP32 -> TP28)
// and a Llama-3-70B-like GQA model (hidden 8192, 64/8 heads, gated FFN 28672, seq 8192,
// TP8 -> TP4).
std::vector<ProfiledModel> standard_models();

// True when `profile` was made for exactly this model shape and tp is in its range.
bool covers_model(const Profile& profile, const ModelShape& shape, int tp);

}  // namespace goodput::calib
