#include "sim/cli/strategy_choice.hpp"

#include "models/scenario/scenario_loader.hpp"
#include "models/scenario/scenario_params.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/core/error.hpp"
#include "sim/core/suggest.hpp"

namespace goodput {

std::string strategies_override(const std::string& scenario_path,
                                const std::vector<std::string>& sets, const std::string& list) {
  Json input = read_json_file(scenario_path);
  for (const auto& o : sets) apply_override(input, o, scenario_path, &sections::scenario());
  Json chosen = Json::object();
  std::string name;
  auto take = [&] {
    if (name.empty()) return;
    if (!find_strategy(name))
      throw InputError("--strategies", name,
                       "unknown strategy" + did_you_mean(name, strategy_name_list()) +
                           " (valid: " + strategy_names() + ")");
    chosen[name] = input.contains("strategies") && input["strategies"].contains(name)
                       ? input["strategies"][name]
                       : Json::object();
    name.clear();
  };
  for (char c : list) {
    if (c == ',')
      take();
    else if (c != ' ')
      name += c;
  }
  take();
  if (chosen.empty())
    throw InputError("--strategies", list, "names no strategy (valid: " + strategy_names() + ")");
  return "/strategies=" + chosen.dump();
}

}  // namespace goodput
