#include <string>

#include "calibrate/profile/profile_json.hpp"
#include "calibrate/profile/profile_schema.hpp"

namespace goodput::calib {

// The profile's keys, order and value names are its bound sections' (profile_schema.cpp); a
// profile of an older version leaves out the keys later versions added.

std::string_view to_string(Source source) {
  return enum_name(kSourceNames, source);
}

std::string_view to_string(Verification v) {
  return enum_name(kVerificationNames, v);
}

nlohmann::ordered_json to_json(const Profile& p) {
  nlohmann::ordered_json doc = profile_sections::profile().values(p);
  if (p.schema_version < 3) {  // an older profile is written back as it was read
    doc.erase("attention");
    if (doc["settings"]["analytical_model"].is_object())
      doc["settings"]["analytical_model"].erase("flash_attention");
  }
  if (p.schema_version < 2) {
    doc.erase("memory_kernels");
    for (auto& m : doc["models"]) m.erase("layout");
  }
  return doc;
}

}  // namespace goodput::calib
