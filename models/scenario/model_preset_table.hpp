// The model presets' shapes: ONE table for the simulator (/job/model/preset, read through
// model_presets.hpp) and the calibration harness (calibrate/profile/scenario.cpp reads the same
// key of a scenario). Contract: header-only, standard library only (the standalone calibrate
// build includes it); find_model_preset() returns the named preset, or nullptr for an unknown
// name. Keys a scenario gives beside the preset override the preset's (both readers).
#pragma once

#include <array>
#include <string_view>

namespace goodput {

struct ModelPresetShape {
  std::string_view name;
  int hidden, heads, kv_heads, ffn, layers, seq_len, vocab;
  bool gated_mlp;
};

// NTP paper (arXiv 2504.06095) 480B dense model; Llama 3 8B / 70B / 405B (arXiv 2407.21783,
// table 3; pre-training sequence 8K, vocabulary 128K, SwiGLU, GQA with 8 KV heads).
inline constexpr std::array<ModelPresetShape, 4> kModelPresets{{
    {"ntp-paper-480b", 20480, 128, 128, 81920, 100, 16384, 128256, false},
    {"llama3-8b", 4096, 32, 8, 14336, 32, 8192, 128256, true},
    {"llama3-70b", 8192, 64, 8, 28672, 80, 8192, 128256, true},
    {"llama3-405b", 16384, 128, 8, 53248, 126, 8192, 128256, true},
}};

// /job/model/vocab when neither the scenario nor a preset gives it (Llama 3's 128K vocabulary).
inline constexpr int kDefaultVocab = 128256;

constexpr const ModelPresetShape* find_model_preset(std::string_view name) {
  for (const ModelPresetShape& p : kModelPresets)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace goodput
