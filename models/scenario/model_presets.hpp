// Transformer shapes people train, by name, for /job/model/preset (the table itself is
// model_preset_table.hpp, shared with calibrate/). Contract: model_preset()
// returns the preset's keys (hidden, heads, kv_heads, ffn, layers, seq_len, vocab, gated_mlp)
// as JSON, or null for an unknown name; keys the scenario gives override the preset's.
#pragma once

#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace goodput {

const std::vector<std::string>& model_preset_names();
Json model_preset(const std::string& name);

}  // namespace goodput
