#include "models/scenario/model_presets.hpp"

namespace goodput {

namespace {

struct Preset {
  const char* name;
  int hidden, heads, kv_heads, ffn, layers, seq_len, vocab;
  bool gated_mlp;
};

// NTP paper (arXiv 2504.06095) 480B dense model; Llama 3 8B / 70B / 405B (arXiv 2407.21783,
// table 3; pre-training sequence 8K, vocabulary 128K, SwiGLU, GQA with 8 KV heads).
constexpr Preset kPresets[] = {
    {"ntp-paper-480b", 20480, 128, 128, 81920, 100, 16384, 128256, false},
    {"llama3-8b", 4096, 32, 8, 14336, 32, 8192, 128256, true},
    {"llama3-70b", 8192, 64, 8, 28672, 80, 8192, 128256, true},
    {"llama3-405b", 16384, 128, 8, 53248, 126, 8192, 128256, true},
};

}  // namespace

const std::vector<std::string>& model_preset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Preset& p : kPresets) n.push_back(p.name);
    return n;
  }();
  return names;
}

Json model_preset(const std::string& name) {
  for (const Preset& p : kPresets) {
    if (name != p.name) continue;
    return Json{{"hidden", p.hidden}, {"heads", p.heads},        {"kv_heads", p.kv_heads},
                {"ffn", p.ffn},       {"layers", p.layers},      {"seq_len", p.seq_len},
                {"vocab", p.vocab},   {"gated_mlp", p.gated_mlp}};
  }
  return Json();
}

}  // namespace goodput
