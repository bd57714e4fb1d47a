#include "sim/cli/command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "sim/core/error.hpp"
#include "sim/core/suggest.hpp"
#include "sim/report/units_text.hpp"

namespace goodput {

namespace {

// Options are registered once, on the main thread, before parsing; the lock is for safety only.
std::set<const CLI::Option*>& marked() {
  static std::set<const CLI::Option*> options;
  return options;
}
std::mutex& marked_mutex() {
  static std::mutex m;
  return m;
}
std::map<const CLI::Option*, std::string>& pointer_options() {
  static std::map<const CLI::Option*, std::string> p;
  return p;
}

std::map<const CLI::Option*, std::vector<std::string>>& choices() {
  static std::map<const CLI::Option*, std::vector<std::string>> c;
  return c;
}

// "--seeds" (also for hidden options, whose get_name() is empty).
std::string long_name(const CLI::Option* o) {
  return o->get_lnames().empty() ? o->get_name(true) : "--" + o->get_lnames().front();
}

}  // namespace

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !(v > 0) || !std::isfinite(v))
          return "must be a number > 0, got " + text;
        return {};
      },
      "> 0", "POSITIVE");
}

CLI::Option* affects_results(CLI::Option* option) {
  std::lock_guard<std::mutex> lock(marked_mutex());
  marked().insert(option);
  return option;
}

CLI::Option* one_of(CLI::Option* option, const std::vector<std::string>& values) {
  option->check(CLI::IsMember(values));
  std::lock_guard<std::mutex> lock(marked_mutex());
  choices()[option] = values;
  return option;
}

CLI::Option* takes_pointer(CLI::Option* option, const std::string& then) {
  std::lock_guard<std::mutex> lock(marked_mutex());
  pointer_options()[option] = then;
  return option;
}

std::optional<std::string> pointer_suffix(const CLI::Option* option) {
  std::lock_guard<std::mutex> lock(marked_mutex());
  const auto it = pointer_options().find(option);
  if (it == pointer_options().end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> option_choices(const CLI::Option* option) {
  std::lock_guard<std::mutex> lock(marked_mutex());
  const auto it = choices().find(option);
  return it == choices().end() ? std::vector<std::string>{} : it->second;
}

std::string unknown_flag_message(const CLI::App& app, const std::string& program) {
  std::string unknown;
  for (const std::string& arg : app.remaining(true))
    if (arg.size() > 1 && arg[0] == '-') {
      unknown = arg.substr(0, arg.find('='));
      break;
    }
  if (unknown.empty()) return "";
  // The deepest subcommand given, and its name as typed after the program's.
  const CLI::App* sub = &app;
  std::string where = program;
  while (!sub->get_subcommands().empty()) {
    sub = sub->get_subcommands().front();
    where += " " + sub->get_name();
  }
  std::vector<std::string> flags;
  for (const CLI::Option* o : sub->get_options()) {
    if (o->get_group().empty()) continue;  // hidden
    for (const auto& n : o->get_lnames()) flags.push_back("--" + n);
    for (const auto& n : o->get_snames()) flags.push_back("-" + n);
  }
  return where + ": unknown flag '" + unknown + "'" + did_you_mean(unknown, flags) + "; " + where +
         " --help lists the flags";
}

std::vector<std::string> canonical_command(const CLI::App& sub) {
  std::vector<const CLI::Option*> given;
  {
    std::lock_guard<std::mutex> lock(marked_mutex());
    for (const CLI::Option* o : sub.get_options())
      if (marked().count(o) && o->count() > 0) given.push_back(o);
  }
  // Positionals in registration order, then named options by name.
  std::stable_partition(given.begin(), given.end(),
                        [](const CLI::Option* o) { return !o->nonpositional(); });
  const auto named = std::find_if(given.begin(), given.end(),
                                  [](const CLI::Option* o) { return o->nonpositional(); });
  std::stable_sort(named, given.end(), [](const CLI::Option* a, const CLI::Option* b) {
    return long_name(a) < long_name(b);
  });
  std::vector<std::string> out = {"goodput", sub.get_name()};
  for (const CLI::Option* o : given) {
    if (!o->nonpositional()) {
      for (const auto& v : o->results()) out.push_back(v);
    } else if (o->get_type_size_max() == 0) {
      out.push_back(long_name(o));  // a flag
    } else {
      for (const auto& v : o->results()) {
        out.push_back(long_name(o));
        out.push_back(v);
      }
    }
  }
  return out;
}

int exit_code_for_current_exception(const char* program) {
  try {
    throw;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const FileError& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << program << ": internal error: " << e.what() << "\n";
  }
  return 1;
}

std::string elapsed_text(double seconds) {
  return seconds_text(seconds);
}

std::string count_text(long n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace goodput
