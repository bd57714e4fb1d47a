#include <string>

#include "calibrate/profile/profile_json.hpp"
#include "calibrate/profile/profile_schema.hpp"

namespace goodput::calib {

// The profile's keys, order and value names are its bound sections' (profile_schema.cpp); a
// version 1 profile leaves out the keys version 2 added.

std::string_view to_string(Source source) {
  return enum_name(kSourceNames, source);
}

std::string_view to_string(Verification v) {
  return enum_name(kVerificationNames, v);
}

nlohmann::ordered_json to_json(const Profile& p) {
  nlohmann::ordered_json doc = profile_sections::profile().values(p);
  if (p.schema_version < 2) {  // a version 1 profile is written back as it was read
    doc.erase("memory_kernels");
    for (auto& m : doc["models"]) m.erase("layout");
  }
  return doc;
}

}  // namespace goodput::calib
