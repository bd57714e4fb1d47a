#include "calibrate/profile/scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "models/scenario/model_preset_table.hpp"
#include "models/strategies/tp_degrees.hpp"
#include "models/strategies/tp_rule_read.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_text.hpp"

namespace goodput::calib {
namespace {

using json = nlohmann::json;

const json* find(const json& doc, const std::string& pointer) {
  const json::json_pointer ptr(pointer);
  return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
}

std::optional<int> positive_int(const json& doc, const std::string& file, const std::string& p,
                                bool required) {
  const json* v = find(doc, p);
  if (v == nullptr) {
    if (required) throw InputError(file, p, "missing required field");
    return std::nullopt;
  }
  if (!v->is_number_integer() || v->get<std::int64_t>() < 1 ||
      v->get<std::int64_t>() > 100'000'000) {
    throw InputError(file, p, "expected a positive integer");
  }
  return v->get<int>();
}

// /job/model/preset, as the simulator reads it: nullptr when absent; an unknown name throws.
const goodput::ModelPresetShape* model_preset(const json& doc, const std::string& file) {
  const std::string p = "/job/model/preset";
  const json* v = find(doc, p);
  if (v == nullptr) return nullptr;
  if (!v->is_string()) throw InputError(file, p, "expected a model preset name (a string)");
  if (const goodput::ModelPresetShape* preset = goodput::find_model_preset(v->get<std::string>()))
    return preset;
  std::string known;
  for (const goodput::ModelPresetShape& m : goodput::kModelPresets)
    known += (known.empty() ? "" : ", ") + std::string(m.name);
  throw InputError(file, p,
                   "unknown model preset '" + v->get<std::string>() + "' (known: " + known + ")");
}

// A shape field: the scenario's value, else the preset's, else `fallback` (absent: required).
int shape_field(const json& doc, const std::string& file, const std::string& key,
                const goodput::ModelPresetShape* preset, int goodput::ModelPresetShape::*member,
                std::optional<int> fallback = std::nullopt) {
  const std::string p = "/job/model/" + key;
  if (preset != nullptr) fallback = preset->*member;
  if (fallback) return positive_int(doc, file, p, false).value_or(*fallback);
  return *positive_int(doc, file, p, true);
}

}  // namespace

ScenarioModel read_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "cannot open scenario file");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error& e) {  // named by position, never quoted
    throw InputError(path, "byte " + std::to_string(e.byte),
                     "invalid JSON: " + json_error_description(e));
  }
  ProfiledModel m;
  m.shape.name = std::filesystem::path(path).stem().string();
  using Shape = goodput::ModelPresetShape;
  const Shape* preset = model_preset(doc, path);
  m.shape.hidden = shape_field(doc, path, "hidden", preset, &Shape::hidden);
  m.shape.heads = shape_field(doc, path, "heads", preset, &Shape::heads);
  m.shape.kv_heads = shape_field(doc, path, "kv_heads", preset, &Shape::kv_heads, m.shape.heads);
  m.shape.ffn = shape_field(doc, path, "ffn", preset, &Shape::ffn);
  m.shape.seq_len = shape_field(doc, path, "seq_len", preset, &Shape::seq_len);
  m.shape.micro_batch = positive_int(doc, path, "/job/micro_batch", false).value_or(1);
  // With context parallelism a GPU runs seq_len / cp tokens of each sequence (the simulator's
  // shape, models/cost/cost_model.cpp), and the optimizer's shards span dp x cp ranks.
  const int cp = positive_int(doc, path, "/job/cp", false).value_or(1);
  if (m.shape.seq_len % cp == 0) m.shape.seq_len /= cp;
  if (preset != nullptr) m.shape.gated_mlp = preset->gated_mlp;
  if (const json* g = find(doc, "/job/model/gated_mlp")) {
    if (!g->is_boolean()) throw InputError(path, "/job/model/gated_mlp", "expected true or false");
    m.shape.gated_mlp = g->get<bool>();
  }
  // The step layout, for the optimizer shard and the loss softmax: known when the layers are
  // (the scenario's or the preset's); /job/pp and /job/dp default to 1 as the simulator's.
  std::optional<int> layers = positive_int(doc, path, "/job/model/layers", false);
  if (!layers && preset != nullptr) layers = preset->layers;
  const int vocab = positive_int(doc, path, "/job/model/vocab", false)
                        .value_or(preset != nullptr ? preset->vocab : goodput::kDefaultVocab);
  const int pp = positive_int(doc, path, "/job/pp", false).value_or(1);
  const int dp = positive_int(doc, path, "/job/dp", false).value_or(1);
  if (layers) m.layout = StepLayout{*layers, vocab, pp, dp * cp};
  m.tp_max = *positive_int(doc, path, "/job/tp", true);
  // The degrading strategies' declarations, read by the simulator's own reader.
  std::vector<goodput::TpDegreeRule> rules;
  for (std::string_view name : goodput::kTpDegradingStrategies) {
    const std::string base = "/strategies/" + std::string(name);
    if (const json* params = find(doc, base))
      rules.push_back(goodput::read_tp_rule(*params, m.tp_max, path, base));
  }
  ScenarioModel out;
  out.tp_degrees = goodput::reachable_tp_degrees(m.tp_max, rules);
  m.tp_min = out.tp_degrees.front();
  try {
    validate(m.shape);
  } catch (const std::invalid_argument& e) {
    throw InputError(path, "/job/model", e.what());
  }
  out.model = m;
  return out;
}

std::vector<ProfiledModel> standard_models() {
  // Shapes from the preset table; the names are those the shipped profiles were made under.
  // Layouts: the 480B model as the shipped default scenario runs it (PP8 DP128); the 70B-like
  // model at PP4 DP64, an assumption (only the Adam shard's size depends on it).
  auto standard = [](const char* preset, const char* name, int tp, int pp, int dp) {
    const goodput::ModelPresetShape& p = *goodput::find_model_preset(preset);
    ProfiledModel m;
    m.shape = {name, p.hidden, p.heads, p.kv_heads, p.ffn, p.gated_mlp, p.seq_len, 1};
    m.tp_max = tp;
    m.tp_min = goodput::default_min_tp(tp);
    m.layout = StepLayout{p.layers, p.vocab, pp, dp};
    return m;
  };
  return {standard("ntp-paper-480b", "ntp-paper-480b", 32, 8, 128),
          standard("llama3-70b", "llama3-70b-like", 8, 4, 64)};
}

bool covers_model(const Profile& profile, const ModelShape& s, int tp) {
  return std::any_of(profile.models.begin(), profile.models.end(), [&](const ProfiledModel& m) {
    const ModelShape& a = m.shape;
    const bool same = a.hidden == s.hidden && a.heads == s.heads && a.kv_heads == s.kv_heads &&
                      a.ffn == s.ffn && a.gated_mlp == s.gated_mlp && a.seq_len == s.seq_len &&
                      a.micro_batch == s.micro_batch && tp >= m.tp_min && tp <= m.tp_max;
    return same && std::any_of(profile.gemm.begin(), profile.gemm.end(), [&](const GemmEntry& e) {
             return e.model == a.name && std::find(e.tp.begin(), e.tp.end(), tp) != e.tp.end();
           });
  });
}

std::vector<int> uncovered_degrees(const Profile& profile, const ModelShape& shape,
                                   const std::vector<int>& degrees) {
  std::vector<int> out;
  for (int t : degrees) {
    if (!covers_model(profile, shape, t)) out.push_back(t);
  }
  return out;
}

}  // namespace goodput::calib
