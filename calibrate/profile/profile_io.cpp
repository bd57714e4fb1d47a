#include <cstdio>
#include <fstream>
#include <sstream>

#include "calibrate/profile/fit.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/profile_json.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_pointer.hpp"

namespace goodput::calib {

Profile load_profile(const std::string& path, LoadOptions options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open calibration profile");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, "", std::string("invalid JSON: ") + e.what());
  } catch (const nlohmann::json::out_of_range& e) {  // a number beyond double range
    throw InputError(path, "", std::string("invalid JSON: ") + e.what());
  }
  Profile p = from_json(doc, path);
  p.path = path;
  if (options.reject_failed) {
    for (std::size_t i = 0; i < p.gemm.size(); ++i) {
      if (p.gemm[i].verification == Verification::failed) {
        throw InputError(path, pointer_append(pointer_append("/gemm", i), "verification"),
                         "entry failed verification; re-run goodput-calibrate on a healthy GPU");
      }
    }
    for (std::size_t i = 0; i < p.reshard.size(); ++i) {
      if (p.reshard[i].verification == Verification::failed) {
        throw InputError(path, pointer_append(pointer_append("/reshard", i), "verification"),
                         "entry failed verification; re-run goodput-calibrate on a healthy GPU");
      }
    }
  }
  refit(p);
  return p;
}

std::string profile_text(const Profile& profile) {
  return to_json(profile).dump(2) + "\n";
}

void save_profile(const Profile& profile, const std::string& path) {
  write_file_atomic(path, profile_text(profile));
}

std::string profile_hash(const Profile& profile) {
  const std::string canonical = to_json(profile).dump();
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64 offset basis
  for (unsigned char c : canonical) {
    h ^= c;
    h *= 0x100000001b3ULL;  // FNV-1a 64 prime
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

void refit(Profile& profile) {
  profile.fit_model = std::make_shared<const FitModel>(fit_profile(profile));
}

}  // namespace goodput::calib
