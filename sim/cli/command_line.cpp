#include "sim/cli/command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>

#include "sim/core/error.hpp"

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

}  // namespace goodput
