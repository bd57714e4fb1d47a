#include <cstdio>
#include <mutex>

#include "calibrate/profile/fit.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/profile_json.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/json_pointer.hpp"
#include "sim/core/json_text.hpp"

namespace goodput::calib {

namespace {

// The last profile loaded, by path, options and file text: the plans of a run's break-even and
// robustness evaluations load the same file again and again (a parse and a fit each).
struct LastLoad {
  std::string path, text;
  bool reject_failed = false;
  Profile profile;
  bool valid = false;
};
std::mutex last_load_mutex;
LastLoad last_load;

Profile parse_profile(const std::string& path, const std::string& text, LoadOptions options);

}  // namespace

Profile load_profile(const std::string& path, LoadOptions options) {
  const std::string text = read_input_file(path, "the calibration profile");
  {
    const std::lock_guard<std::mutex> lock(last_load_mutex);
    if (last_load.valid && last_load.path == path &&
        last_load.reject_failed == options.reject_failed && last_load.text == text)
      return last_load.profile;
  }
  Profile p = parse_profile(path, text, options);
  const std::lock_guard<std::mutex> lock(last_load_mutex);
  last_load = {path, text, options.reject_failed, p, true};
  return p;
}

namespace {

Profile parse_profile(const std::string& path, const std::string& text, LoadOptions options) {
  check_utf8(text, path);  // names the line; the JSON parser would not
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {  // named by position, never quoted
    throw InputError(path, "byte " + std::to_string(e.byte),
                     "invalid JSON: " + json_error_description(e));
  } catch (const nlohmann::json::out_of_range&) {
    throw InputError(path, "", "invalid JSON: a number beyond double range");
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

}  // namespace

std::string profile_text(const Profile& profile) {
  return to_json(profile).dump(2) + "\n";
}

void save_profile(const Profile& profile, const std::string& path) {
  write_file_atomic(path, profile_text(profile));  // Ctrl-C waits for it: no temporary left
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
