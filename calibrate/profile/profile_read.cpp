#include <cmath>
#include <string>

#include "calibrate/profile/profile_json.hpp"
#include "calibrate/profile/profile_schema.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_pointer.hpp"
#include "sim/core/params.hpp"

// Reading a profile: the bound sections of profile_schema.cpp validate every key (type, range,
// choices, unknown and missing keys, with the JSON pointer) and fill the structs; this file
// checks the version first (an older profile is read as the current version without the keys
// later versions added) and, after the fill, what spans several keys.
namespace goodput::calib {
namespace {

void check_time(const TimeStats& t, Source source, const std::string& file,
                const std::string& pointer) {
  auto fail = [&](const char* key, const std::string& why) {
    throw InputError(file, pointer_append(pointer, key), why);
  };
  if (source == Source::measured && t.samples < 1)
    fail("samples", "a measured entry has at least one sample");
  if (t.min > t.median) fail("min", "must be <= median");
  if (t.max < t.median) fail("max", "must be >= median");
}

// What the declarations cannot say: the settings that match the source, a model's consistent
// shape and TP range, each time's order.
void check(const Profile& p, const std::string& file) {
  const Settings& s = p.settings;
  if (p.source == Source::measured && (!s.measurement || s.analytical_model))
    throw InputError(file, "/settings/measurement",
                     "a measured profile needs \"measurement\" and a null \"analytical_model\"");
  if (p.source == Source::analytical && (s.measurement || !s.analytical_model))
    throw InputError(file, "/settings/analytical_model",
                     "an analytical profile needs \"analytical_model\" and a null \"measurement\"");
  for (std::size_t i = 0; i < p.models.size(); ++i) {
    const std::string at = pointer_append("/models", i);
    const ProfiledModel& m = p.models[i];
    if (m.tp_min > m.tp_max) throw InputError(file, at + "/tp_min", "must be <= tp_max");
    try {
      validate(m.shape);
    } catch (const std::invalid_argument& e) {
      throw InputError(file, at + "/hidden", std::string("inconsistent model: ") + e.what());
    }
  }
  for (std::size_t i = 0; i < p.gemm.size(); ++i)
    check_time(p.gemm[i].time_s, p.source, file, pointer_append("/gemm", i) + "/time_s");
  for (std::size_t i = 0; i < p.reshard.size(); ++i)
    check_time(p.reshard[i].time_s, p.source, file, pointer_append("/reshard", i) + "/time_s");
  for (std::size_t i = 0; i < p.memory_kernels.size(); ++i) {
    const MemoryKernelEntry& e = p.memory_kernels[i];
    const std::string at = pointer_append("/memory_kernels", i);
    check_time(e.time_s, p.source, file, at + "/time_s");
    if (e.rows > kMemoryKernelMaxElements / e.cols)
      throw InputError(file, at + "/rows",
                       "rows x cols must be at most " + std::to_string(kMemoryKernelMaxElements));
    if (e.bytes != memory_kernel_bytes(e.kernel, e.rows, e.cols))
      throw InputError(file, at + "/bytes",
                       "must be " + std::to_string(memory_kernel_bytes(e.kernel, e.rows, e.cols)) +
                           ", the bytes " + std::string(to_string(e.kernel)) + " moves over " +
                           std::to_string(e.rows) + " x " + std::to_string(e.cols) + " elements");
    if (e.dtype != memory_kernel_dtype(e.kernel))
      throw InputError(
          file, at + "/dtype",
          std::string(to_string(e.kernel)) + " runs on " + memory_kernel_dtype(e.kernel));
  }
  for (std::size_t i = 0; i < p.attention.size(); ++i) {
    const AttentionEntry& e = p.attention[i];
    const std::string at = pointer_append("/attention", i);
    check_time(e.time_s, p.source, file, at + "/time_s");
    if (e.pass == Pass::bwd_weight)
      throw InputError(file, at + "/pass", "attention has no weights: fwd or bwd_data");
    if (!e.causal) throw InputError(file, at + "/causal", "only causal attention is recorded");
    if ((e.impl == "analytical") != (p.source == Source::analytical))
      throw InputError(file, at + "/impl",
                       "\"analytical\" in an analytical profile, a measured kernel otherwise");
  }
}

// A version 2 (or 1) profile has neither /attention nor /settings/analytical_model/
// flash_attention: read it as version 3 without fused attention entries and with attention
// priced as GEMMs (the writer leaves both out again).
nlohmann::json upgraded_from_v2(nlohmann::json doc, const std::string& file, int version) {
  const std::string why =
      "appears from schema_version 3; this profile says " + std::to_string(version);
  if (doc.contains("attention")) throw InputError(file, "/attention", why);
  doc["attention"] = nlohmann::json::array();
  if (doc.contains("settings") && doc["settings"].is_object() &&
      doc["settings"].contains("analytical_model") &&
      doc["settings"]["analytical_model"].is_object()) {
    nlohmann::json& a = doc["settings"]["analytical_model"];
    if (a.contains("flash_attention"))
      throw InputError(file, "/settings/analytical_model/flash_attention", why);
    a["flash_attention"] = nullptr;
  }
  return doc;
}

// A version 1 profile has neither /memory_kernels nor /models/N/layout: read it as version 2
// without memory-bound entries and without layouts (the writer leaves both out again).
nlohmann::json upgraded_from_v1(nlohmann::json doc, const std::string& file) {
  const std::string why = "appears from schema_version 2; this profile says 1";
  if (doc.contains("memory_kernels")) throw InputError(file, "/memory_kernels", why);
  doc["memory_kernels"] = nlohmann::json::array();
  if (doc.contains("models") && doc["models"].is_array()) {
    for (std::size_t i = 0; i < doc["models"].size(); ++i) {
      nlohmann::json& m = doc["models"][i];
      if (!m.is_object()) continue;  // the reader names it
      if (m.contains("layout"))
        throw InputError(file, pointer_append("/models", i) + "/layout", why);
      m["layout"] = nullptr;
    }
  }
  return doc;
}

}  // namespace

Profile from_json(const nlohmann::json& doc, const std::string& file) {
  // The version first: a profile of another version is refused as such, not for its keys.
  // (Any whole number, 2.0 too, since the reader takes 2.0 as the integer 2; a fractional one
  // is left to the reader's "expected an integer".)
  int version = kProfileSchemaVersion;
  if (doc.is_object() && doc.contains("schema_version")) {
    const nlohmann::json& v = doc.at("schema_version");
    if (v.is_number() && v.get<double>() == std::floor(v.get<double>())) {
      const double declared = v.get<double>();
      if (declared < kOldestProfileSchemaVersion || declared > kProfileSchemaVersion)
        throw InputError(file, "/schema_version",
                         "unsupported schema version " + v.dump() + " (this build reads " +
                             std::to_string(kOldestProfileSchemaVersion) + " to " +
                             std::to_string(kProfileSchemaVersion) + ")");
      version = static_cast<int>(v.get<double>());
    }
  }
  nlohmann::json upgraded = version == 1 ? upgraded_from_v1(doc, file) : doc;
  if (version < 3) upgraded = upgraded_from_v2(std::move(upgraded), file, version);
  const Json in(upgraded);
  const auto& fields = profile_sections::profile();
  Profile p;
  fields.fill(ParamReader(in, fields.section(), file, "", nullptr), p);
  check(p, file);
  return p;
}

}  // namespace goodput::calib
