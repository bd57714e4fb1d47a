#include "calibrate/cli/args.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "sim/core/error.hpp"

namespace goodput::calib {
namespace {

// flag -> handler(value); flags in `switches` take no value.
void parse(const std::vector<std::string>& argv, const std::vector<std::string>& switches,
           const std::map<std::string, std::function<void(const std::string&)>>& handlers) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string flag = argv[i];
    std::optional<std::string> value;
    if (auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    const bool is_switch = std::find(switches.begin(), switches.end(), flag) != switches.end();
    auto it = handlers.find(flag);
    if (it == handlers.end()) {
      std::string valid;
      for (const auto& [name, h] : handlers) valid += (valid.empty() ? "" : ", ") + name;
      throw InputError("", flag, "unknown argument (valid: " + valid + ")");
    }
    if (is_switch) {
      if (value) throw InputError("", flag, "takes no value");
      it->second("");
      continue;
    }
    if (!value) {
      if (i + 1 >= argv.size()) throw InputError("", flag, "needs a value");
      value = argv[++i];
    }
    it->second(*value);
  }
}

bool wants_help(const std::vector<std::string>& argv) {
  return std::find(argv.begin(), argv.end(), "--help") != argv.end() ||
         std::find(argv.begin(), argv.end(), "-h") != argv.end();
}

}  // namespace

CalibrateArgs parse_calibrate_args(const std::vector<std::string>& argv) {
  CalibrateArgs a;
  if (wants_help(argv)) {
    a.help = true;
    return a;
  }
  parse(argv, {"--quick"},
        {{"--scenario", [&](const std::string& v) { a.scenario = v; }},
         {"--device",
          [&](const std::string& v) {
            std::size_t used = 0;
            int d = -1;
            try {
              d = std::stoi(v, &used);
            } catch (const std::exception&) {
              used = 0;
            }
            if (used != v.size() || d < 0) {
              throw InputError("", "--device", "expected a device index >= 0, got \"" + v + "\"");
            }
            a.device = d;
          }},
         {"--quick", [&](const std::string&) { a.quick = true; }},
         {"--out", [&](const std::string& v) { a.out = v; }}});
  if (a.out.empty()) throw InputError("", "--out", "is required (where to write the profile)");
  return a;
}

AnalyticalArgs parse_analytical_args(const std::vector<std::string>& argv) {
  AnalyticalArgs a;
  if (wants_help(argv)) {
    a.help = true;
    return a;
  }
  parse(argv, {},
        {{"--gpu",
          [&](const std::string& v) {
            if (v != "H100" && v != "H200" && v != "B200" && v != "GB200") {
              throw InputError("", "--gpu",
                               "unknown GPU \"" + v + "\" (valid: H100, H200, B200, GB200)");
            }
            a.gpu = v;
          }},
         {"--scenario", [&](const std::string& v) { a.scenario = v; }},
         {"--out", [&](const std::string& v) { a.out = v; }}});
  if (a.gpu.empty()) throw InputError("", "--gpu", "is required (H100, H200, B200 or GB200)");
  if (a.out.empty()) throw InputError("", "--out", "is required (where to write the profile)");
  return a;
}

std::string usage_calibrate() {
  return "usage: goodput-calibrate [--scenario S.json] [--device N] [--quick] --out PROFILE.json\n"
         "\n"
         "Times the sharded GEMMs, attention and NTP reshard kernels of the scenario's model\n"
         "(or a built-in standard set) on CUDA device N and writes a calibration profile.\n"
         "  --scenario S.json  read /job/model/*, /job/micro_batch, /job/tp and\n"
         "                     /strategies/{ntp,ntp_boost}/min_tp from a goodput scenario\n"
         "  --device N         CUDA device index (default 0)\n"
         "  --quick            few shapes, few samples: a smoke run\n"
         "  --out FILE         profile to write (atomically)\n"
         "Exit codes: 0 ok, 2 bad input, 3 no usable GPU, 1 other errors.\n";
}

std::string usage_analytical() {
  return "usage: goodput-profile-analytical --gpu H100|H200|B200 [--scenario S.json] --out P.json\n"
         "\n"
         "Writes a datasheet-based (\"analytical\") calibration profile for the scenario's model\n"
         "or the built-in standard set. Exit codes: 0 ok, 2 bad input, 1 other errors.\n";
}

void check_output_path(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent)) {
    throw InputError(path, "", "output directory " + parent.string() + " does not exist");
  }
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (!fs::exists(st)) return;
  if (fs::is_symlink(st)) throw InputError(path, "", "is a symbolic link; give a new file name");
  if (fs::is_directory(st)) throw InputError(path, "", "is a directory, expected a file name");
  if (!fs::is_regular_file(st))
    throw InputError(path, "", "is not a regular file (a device?); give a new file name");
  // Only a profile goodput wrote may be replaced: its "generator" field names the goodput tool.
  std::ifstream in(path, std::ios::binary);
  std::string head(2048, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.find("\"generator\": \"goodput-") == std::string::npos)
    throw InputError(path, "",
                     "exists and is not a goodput calibration profile; goodput never overwrites "
                     "files it did not write: give a new file name");
}

}  // namespace goodput::calib
