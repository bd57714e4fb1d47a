// What an evaluation of the verdict analysis needs (sensitivity.hpp): where its checkpoint pilot
// comes from (pilot_rule), the one strategy an input configures, its rules' name for a reused own
// pilot, and which strategies read an input (statically, or from what the base runs read).
#include <algorithm>

#include "models/job/job_signals.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/report/sensitivity.hpp"

namespace goodput {

EvaluationScope::Pilot pilot_rule(const std::string& pointer, bool scale) {
  using Pilot = EvaluationScope::Pilot;
  const auto under = [&](const char* prefix) { return pointer.rfind(prefix, 0) == 0; };
  const auto ends = [&](const std::string& tail) {
    return pointer.size() > tail.size() &&
           pointer.compare(pointer.size() - tail.size(), tail.size(), tail) == 0;
  };
  // What strategies do about a slow component decides which slow faults stop the job (and roll
  // it back): a price no longer.
  if (pointer == "/recovery/slow_response") return Pilot::Simulate;
  if (under("/recovery/") || under("/checkpoint/")) return Pilot::Keep;
  // The failures, or only how fast the job trains (the cost model's inputs: strategies see
  // them as throughputs): which faults roll it back is unchanged.
  if (under("/failures/") || under("/cost/") || pointer == "/job/virtual_stages" ||
      (under("/strategies/") && ends("/max_power")))
    return scale ? Pilot::Scale : Pilot::Simulate;
  return Pilot::Simulate;  // e.g. a strategy's rules, the job's shape, the cluster
}

std::optional<std::pair<std::string, std::string>> split_strategy_input(
    const std::string& pointer) {
  const std::string prefix = "/strategies/";
  if (pointer.rfind(prefix, 0) != 0) return std::nullopt;
  const auto slash = pointer.find('/', prefix.size());
  if (slash == std::string::npos) return std::nullopt;  // the whole entry: not one input
  return std::pair{pointer.substr(prefix.size(), slash - prefix.size()), pointer.substr(slash + 1)};
}

std::optional<std::size_t> strategy_of_input(const Scenario& s, const std::string& pointer) {
  const auto split = split_strategy_input(pointer);
  if (!split) return std::nullopt;
  const std::string& name = split->first;
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < s.strategies.size(); ++i)
    if (s.strategies[i].name == name) {
      if (found) return std::nullopt;  // listed twice: not one strategy's
      found = i;
    }
  return found;
}

std::string pilot_rules_of(const Scenario& s, std::size_t j) {
  const StrategyConfig& c = s.strategies.at(j);
  Json rules = c.params;
  if (rules.is_object())
    for (auto it = rules.begin(); it != rules.end();) {
      if (pilot_rule("/strategies/" + c.name + "/" + it.key()) != EvaluationScope::Pilot::Simulate)
        it = rules.erase(it);
      else
        ++it;
    }
  return c.name + rules.dump();
}

void name_own_pilots(const Scenario& s, EvaluationScope& scope) {
  scope.own_pilot_rules.clear();
  for (std::size_t j : scope.own_pilot)
    scope.own_pilot_rules.push_back(j < s.strategies.size() ? pilot_rules_of(s, j) : "");
}

std::optional<std::vector<std::size_t>> readers_of_input(const Scenario& s,
                                                         const std::string& pointer) {
  if (const auto one = strategy_of_input(s, pointer)) return std::vector<std::size_t>{*one};
  // A TP group's reshard and re-forming at a new degree: paid only by a strategy that runs
  // groups below the job's tp (StrategyInfo::tp_degrees), which one that only runs full groups
  // never does.
  if (pointer != "/recovery/ntp_reshard_s" && pointer != "/recovery/ntp_reconfig_s")
    return std::nullopt;
  std::vector<std::size_t> readers;
  for (std::size_t i = 0; i < s.strategies.size(); ++i) {
    const StrategyInfo* info = find_strategy(s.strategies[i].name);
    if (!info || info->tp_degrees) readers.push_back(i);
  }
  return readers;
}

std::uint32_t price_only_mechanisms(const Scenario& s, const std::string& pointer) {
  const auto bit = [](Mechanism m) { return 1u << static_cast<int>(m); };
  if (pointer == "/recovery/spare_swap_s") return bit(Mechanism::SpareSwapIn);
  if (pointer == "/recovery/state_copy_s") return bit(Mechanism::StateCopy);
  if (pointer == "/recovery/rejoin_s") return bit(Mechanism::Rejoin);
  if (pointer == "/recovery/communicator_rebuild_s")  // also the rejoin's price when it has none
    return bit(Mechanism::CommunicatorRebuild) |
           (s.recovery.rejoin_s < 0 ? bit(Mechanism::Rejoin) : 0);
  // The availability-optimal interval reads the restart's length, the load included.
  if (pointer == "/checkpoint/load_s" &&
      s.checkpoint.policy != CheckpointSpec::Policy::AvailabilityOptimal)
    return bit(Mechanism::CheckpointLoad);
  return 0;
}

std::optional<std::vector<std::size_t>> readers_of_input(const Scenario& s,
                                                         const std::string& pointer,
                                                         const std::vector<StrategyRuns>& base) {
  std::optional<std::vector<std::size_t>> readers = readers_of_input(s, pointer);
  const std::uint32_t mask = price_only_mechanisms(s, pointer);
  if (mask == 0) return readers;
  std::vector<std::size_t> read;
  for (std::size_t i = 0; i < base.size(); ++i) {
    if (readers && std::find(readers->begin(), readers->end(), i) == readers->end()) continue;
    bool any = base[i].runs.empty();  // nothing known: it may read it
    for (const RunMetrics& m : base[i].runs) any = any || (m.prices_read & mask) != 0;
    if (any) read.push_back(i);
  }
  if (!readers && read.size() == base.size()) return std::nullopt;
  return read;
}

}  // namespace goodput
