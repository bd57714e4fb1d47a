#include "models/scenario/model_presets.hpp"

#include "models/scenario/model_preset_table.hpp"

namespace goodput {

const std::vector<std::string>& model_preset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const ModelPresetShape& p : kModelPresets) n.emplace_back(p.name);
    return n;
  }();
  return names;
}

Json model_preset(const std::string& name) {
  const ModelPresetShape* p = find_model_preset(name);
  if (p == nullptr) return Json();
  return Json{{"hidden", p->hidden}, {"heads", p->heads},        {"kv_heads", p->kv_heads},
              {"ffn", p->ffn},       {"layers", p->layers},      {"seq_len", p->seq_len},
              {"vocab", p->vocab},   {"gated_mlp", p->gated_mlp}};
}

}  // namespace goodput
