#include "calibrate/cli/args.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <memory>
#include <utility>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "sim/core/error.hpp"

namespace goodput::calib {
namespace {

// Help text layout: the synopsis line first, then the description, the options and the footer
// (CLI11's own layout puts the description above a generic "Usage: NAME [OPTIONS]").
class SynopsisFormatter : public CLI::Formatter {
 public:
  explicit SynopsisFormatter(std::string synopsis) : synopsis_(std::move(synopsis)) {
    column_width(21);
  }
  std::string make_description(const CLI::App*) const override { return ""; }
  // A positional is listed by its name alone ("PROFILE", not "PROFILE TEXT REQUIRED").
  std::string make_option_opts(const CLI::Option* opt) const override {
    return opt->get_positional() ? "" : CLI::Formatter::make_option_opts(opt);
  }
  std::string make_usage(const CLI::App* app, std::string) const override {
    return synopsis_ + "\n\n" + app->get_description() + "\n";
  }

 private:
  std::string synopsis_;
};

// An app that parses the calibrate tools' flags: --help/-h, last value wins when a flag is
// repeated, anything unrecognised is left in remaining() (reported by parse_into).
std::unique_ptr<CLI::App> make_app(const std::string& synopsis, const std::string& description,
                                   const std::string& footer) {
  auto app = std::make_unique<CLI::App>(description);
  app->formatter(std::make_shared<SynopsisFormatter>(synopsis));
  app->set_help_flag("-h,--help", "print this help and exit");
  app->footer(footer);
  app->allow_extras();
  app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  return app;
}

// "--flag" (or a positional's name) when `what` names one of the app's options ("--out: ...",
// "quick was given ...", "PROFILE is required"), else "".
std::string option_named_in(const CLI::App& app, const std::string& what) {
  const auto is_name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  };
  for (const CLI::Option* opt : app.get_options()) {
    std::vector<std::pair<std::string, std::string>> names;  // (flag, bare name)
    for (const std::string& lname : opt->get_lnames()) names.emplace_back("--" + lname, lname);
    if (opt->get_positional()) names.emplace_back(opt->get_name(), opt->get_name());
    for (const auto& [flag, lname] : names) {
      for (const std::string& needle : {flag, lname}) {
        for (std::size_t at = what.find(needle); at != std::string::npos;
             at = what.find(needle, at + 1)) {
          const std::size_t end = at + needle.size();
          const bool starts = at == 0 || !is_name_char(what[at - 1]);
          const bool ends = end == what.size() || !is_name_char(what[end]);
          // A bare name ("quick") counts only at the start, where CLI11 puts it.
          if (starts && ends && (needle == flag || at == 0)) return flag;
        }
      }
    }
  }
  return "";
}

// Parses argv (without the program name) into the variables bound to `app`. Returns false
// when --help/-h was given (the other checks are skipped then). Bad usage throws
// InputError("", "--flag", why), so the message names the flag.
bool parse_into(CLI::App& app, const std::vector<std::string>& argv) {
  if (std::find(argv.begin(), argv.end(), "--help") != argv.end() ||
      std::find(argv.begin(), argv.end(), "-h") != argv.end()) {
    return false;
  }
  std::vector<std::string> reversed(argv.rbegin(), argv.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return false;
  } catch (const CLI::ParseError& e) {
    const std::string what = e.what();
    const std::string flag = option_named_in(app, what);
    std::string why = what;
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
      why = "is required";
    } else if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
      why = what.find("flag override") != std::string::npos ? "takes no value" : "needs a value";
    } else if (!flag.empty() && what.rfind(flag + ": ", 0) == 0) {
      why = what.substr(flag.size() + 2);  // "--gpu: A100 not in {...}" -> "A100 not in {...}"
    }
    throw InputError("", flag, why);
  }
  if (const std::vector<std::string> extra = app.remaining(); !extra.empty()) {
    std::string valid;
    for (const CLI::Option* opt : app.get_options()) {
      if (opt == app.get_help_ptr()) continue;
      valid += (valid.empty() ? "" : ", ") + opt->get_name();
    }
    const std::string& arg = extra.front();
    const std::size_t eq = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string::npos;
    throw InputError("", arg.substr(0, eq), "unknown argument (valid: " + valid + ")");
  }
  return true;
}

// A CUDA device index: digits only, >= 0, fits an int.
const CLI::Validator kDeviceIndex(
    [](const std::string& v) -> std::string {
      int d = -1;
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
      if (ec != std::errc() || end != v.data() + v.size() || d < 0) {
        return "expected a device index >= 0, got \"" + v + "\"";
      }
      return "";
    },
    "N");

const char* const kScenarioHelp =
    "read /job/model/*, /job/micro_batch, /job/tp and\n"
    "/strategies/{ntp,ntp_boost}/min_tp from a goodput scenario";

std::unique_ptr<CLI::App> calibrate_app(CalibrateArgs& a) {
  auto app = make_app(
      "usage: goodput-calibrate [--scenario S.json] [--device N] [--quick] --out PROFILE.json",
      "Times the sharded GEMMs, attention and NTP reshard kernels of the scenario's model\n"
      "(or a built-in standard set) on CUDA device N and writes a calibration profile.",
      "Exit codes: 0 ok, 2 bad input, 3 no usable GPU, 1 other errors.");
  app->add_option("--scenario", a.scenario, kScenarioHelp)->option_text("S.json");
  app->add_option("--device", a.device, "CUDA device index (default 0)")
      ->check(kDeviceIndex)
      ->option_text("N");
  app->add_flag("--quick", a.quick, "few shapes, few samples: a smoke run")
      ->disable_flag_override();
  app->add_option("--out", a.out, "profile to write (atomically)")->required()->option_text("FILE");
  return app;
}

// "A100-80GB|H100|...": the GPU catalogue's names, for a synopsis.
std::string gpu_choices() {
  std::string out;
  for (const std::string& n : gpu_names()) out += (out.empty() ? "" : "|") + n;
  return out;
}

std::unique_ptr<CLI::App> analytical_app(AnalyticalArgs& a) {
  auto app = make_app(
      "usage: goodput-profile-analytical --gpu " + gpu_choices() + " [--scenario S.json] " +
          "--out P.json",
      "Writes a datasheet-based (\"analytical\") calibration profile for the scenario's model\n"
      "or the built-in standard set.",
      "Exit codes: 0 ok, 2 bad input, 1 other errors.");
  app->add_option("--gpu", a.gpu,
                  "the GPU catalogue's entry whose datasheet figures to use:\n" + gpu_names_text() +
                      " (goodput describe hardware)")
      ->required()
      ->check(CLI::IsMember(gpu_names()))
      ->option_text("GPU");
  app->add_option("--scenario", a.scenario, kScenarioHelp)->option_text("S.json");
  app->add_option("--out", a.out, "profile to write (atomically)")->required()->option_text("FILE");
  return app;
}

std::unique_ptr<CLI::App> check_app(CheckArgs& a) {
  auto app = make_app(
      "usage: goodput-profile-check PROFILE.json [--gpu " + gpu_choices() + "] [--out FILE]",
      "Reviews a measured calibration profile against the analytical model and the\n"
      "measured ceilings and writes a markdown report.",
      "Exit codes: 0 nothing flagged, 1 entries flagged (or another error), 2 bad "
      "input.");
  app->add_option("PROFILE", a.profile, "the measured profile (JSON) to review")->required();
  app->add_option("--gpu", a.gpu, "datasheet to compare with (default: from /device/name)")
      ->check(CLI::IsMember(gpu_names()))
      ->option_text("GPU");
  app->add_option("--out", a.out, "markdown report to write (default: stdout)")
      ->option_text("FILE");
  return app;
}

void check_out_named(const std::string& out) {
  if (out.empty()) throw InputError("", "--out", "needs a file name (where to write the profile)");
}

}  // namespace

CalibrateArgs parse_calibrate_args(const std::vector<std::string>& argv) {
  CalibrateArgs a;
  a.help = !parse_into(*calibrate_app(a), argv);
  if (!a.help) check_out_named(a.out);
  return a;
}

AnalyticalArgs parse_analytical_args(const std::vector<std::string>& argv) {
  AnalyticalArgs a;
  a.help = !parse_into(*analytical_app(a), argv);
  if (!a.help) check_out_named(a.out);
  return a;
}

CheckArgs parse_check_args(const std::vector<std::string>& argv) {
  CheckArgs a;
  a.help = !parse_into(*check_app(a), argv);
  return a;
}

std::string usage_calibrate() {
  CalibrateArgs unused;
  return calibrate_app(unused)->help();
}

std::string usage_analytical() {
  AnalyticalArgs unused;
  return analytical_app(unused)->help();
}

std::string usage_check() {
  CheckArgs unused;
  return check_app(unused)->help();
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
