// Which models and TP degrees to calibrate: from a goodput scenario, or the built-in set.
// Contract: read_scenario() reads only /job/model/{preset,hidden,heads,kv_heads,ffn,gated_mlp,
// seq_len,layers,vocab}, /job/{micro_batch,tp,pp,dp} and the TP-degrading strategies' min_tp
// and allowed_tp (read by the simulator's own reader, models/strategies/tp_rule_read.hpp);
// everything else in the file is ignored. A preset is looked up in the simulator's own table
// (models/scenario/model_preset_table.hpp); keys given beside it override it, as in the
// simulator. The model's step layout (plan.hpp: the Adam shard and the loss softmax) is set when
// the layers are known (the scenario's or the preset's); vocab defaults to the preset's or
// kDefaultVocab, pp and dp to 1. Bad or missing fields throw goodput::InputError naming the file
// and JSON pointer. The TP degrees are the simulator's own rule
// (models/strategies/tp_degrees.hpp): every degree the scenario's strategies can reach; the
// profiled range [tp_min, tp_max] spans them all.
#pragma once

#include <string>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

struct ScenarioModel {
  ProfiledModel model;
  std::vector<int> tp_degrees;  // reachable degrees, ascending, ending with tp
};

ScenarioModel read_scenario(const std::string& path);
inline ProfiledModel read_scenario_model(const std::string& path) {
  return read_scenario(path).model;
}

// The NTP paper's 480B model (hidden 20480, 128 heads, FFN 81920, seq 16384, TP32 -> TP24,
// PP8 DP128) and a Llama-3-70B-like GQA model (hidden 8192, 64/8 heads, gated FFN 28672, seq
// 8192, TP8 -> TP6, PP4 DP64): default_min_tp(tp) of tp_degrees.hpp, as the simulator defaults.
std::vector<ProfiledModel> standard_models();

// True when `profile` was made for exactly this model shape, tp is in that model's range and
// the profile holds GEMM entries measured at tp (not only a fit reaching it).
bool covers_model(const Profile& profile, const ModelShape& shape, int tp);

// The degrees of `degrees` that covers_model() refuses, in the given order.
std::vector<int> uncovered_degrees(const Profile& profile, const ModelShape& shape,
                                   const std::vector<int>& degrees);

}  // namespace goodput::calib
