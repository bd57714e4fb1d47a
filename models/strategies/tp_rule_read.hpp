// Which strategies run replicas below the job's TP degree, and the one reader of the keys by
// which they declare how far (/strategies/<name>/min_tp and allowed_tp). ntp and ntp_boost read
// their options and their strategy-table rule through it, and so does the calibration harness,
// which builds without the simulator: header-only (the standard library, nlohmann/json through
// the caller's JSON type, sim/core/error.hpp), so no other module parses those keys.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>

#include "models/strategies/tp_degrees.hpp"
#include "sim/core/error.hpp"

namespace goodput {

// Exactly the strategy-table entries with a tp_degrees rule (tests/core/test_ntp.cpp checks).
inline constexpr std::array<std::string_view, 2> kTpDegradingStrategies{"ntp", "ntp_boost"};

// The rule a degrading strategy declares in `params` (its object; absent keys: the defaults)
// for a job of TP degree `tp`. Errors name `file` and the key under `where` (the strategy's
// JSON pointer, e.g. "/strategies/ntp"): min_tp and every allowed_tp entry must be integers in
// [1, tp]; allowed_tp must be a list.
template <class JsonT>
TpDegreeRule read_tp_rule(const JsonT& params, int tp, const std::string& file,
                          const std::string& where) {
  TpDegreeRule rule;
  if (!params.is_object()) return rule;
  auto degree = [&](const JsonT& v, const std::string& pointer, const char* what) {
    const double d = v.is_number() ? v.template get<double>() : 0.0;
    if (!v.is_number() || d != std::floor(d) || d < 1 || d > tp)
      throw InputError(file, pointer,
                       std::string(what) + " must be an integer in [1, " + std::to_string(tp) +
                           "] (the job's tp)");
    return static_cast<int>(d);
  };
  if (const auto it = params.find("min_tp"); it != params.end())
    rule.min_tp = degree(*it, where + "/min_tp", "min_tp");
  if (const auto it = params.find("allowed_tp"); it != params.end()) {
    if (!it->is_array())
      throw InputError(file, where + "/allowed_tp", "expected a list of TP degrees");
    for (std::size_t i = 0; i < it->size(); ++i)
      rule.allowed.push_back(
          degree((*it)[i], where + "/allowed_tp/" + std::to_string(i), "an allowed degree"));
  }
  return rule;
}

}  // namespace goodput
