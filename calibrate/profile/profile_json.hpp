// Conversion between Profile and its JSON document (internal to goodput_calibration).
// Contract: to_json() writes every field in a fixed key order (the canonical form that
// profile_hash() hashes); from_json() is strict: unknown, missing or ill-typed fields throw
// goodput::InputError(file, json_pointer, message). from_json(to_json(p)) == p field by field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

nlohmann::ordered_json to_json(const Profile& profile);
Profile from_json(const nlohmann::json& doc, const std::string& file);

std::string_view to_string(Source source);
std::string_view to_string(Verification verification);

}  // namespace goodput::calib
