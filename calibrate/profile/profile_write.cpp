#include <string>

#include "calibrate/profile/profile_json.hpp"
#include "calibrate/profile/profile_schema.hpp"

namespace goodput::calib {

// The profile's keys, order and value names are its bound sections' (profile_schema.cpp).

std::string_view to_string(Source source) {
  return enum_name(kSourceNames, source);
}

std::string_view to_string(Verification v) {
  return enum_name(kVerificationNames, v);
}

nlohmann::ordered_json to_json(const Profile& p) {
  return profile_sections::profile().values(p);
}

}  // namespace goodput::calib
