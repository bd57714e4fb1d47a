#include "sim/report/sensitivity_ahead.hpp"

#include <utility>

#include "sim/report/sensitivity.hpp"

namespace goodput {

std::string evaluation_key(const Scenario& sc, const EvaluationScope& scope) {
  return sc.resolved.dump() + "|" +
         Json{scope.strategies, static_cast<int>(scope.pilot), scope.own_pilot, scope.first_run}
             .dump();
}

void EvaluationsAhead::add(Scenario scenario, const EvaluationScope& scope,
                           const std::string& label, double value) {
  entries_.push_back({std::move(scenario), scope, label, value});
}

void EvaluationsAhead::run(const BatchEvaluate& run_all, const Settled& settled,
                           const std::function<void(const std::string&, double)>& progress) {
  const std::size_t k = entries_.size();
  // First: every seed, or the first seeds where the scenario has more.
  std::vector<EvaluationRequest> early;
  std::vector<char> sequential(k, 0);
  for (const Entry& e : entries_) {
    const bool seq = first_ > 0 && first_ < e.scenario.seeds;
    sequential[early.size()] = seq ? 1 : 0;
    if (!seq) {
      early.push_back({e.scenario, e.scope});
      continue;
    }
    try {
      early.push_back({scenario_with(e.scenario, {"/seeds=" + std::to_string(first_)}), e.scope});
    } catch (const std::exception&) {  // a seed count it refuses: every seed at once
      sequential[early.size()] = 0;
      early.push_back({e.scenario, e.scope});
    }
  }
  std::vector<EvaluationOutcome> got = run_all(early, [&](std::size_t i) {
    if (progress) progress(entries_[i].label, entries_[i].value);
  });
  got.resize(k);
  // Then the rest of the seeds where the first leave a lead's sign in doubt.
  std::vector<EvaluationRequest> rest;
  std::vector<std::size_t> rest_of;
  for (std::size_t i = 0; i < k; ++i) {
    if (!sequential[i] || got[i].error || settled(got[i].runs)) continue;
    EvaluationScope more = entries_[i].scope;
    more.first_run = first_;
    rest.push_back({entries_[i].scenario, more});
    rest_of.push_back(i);
  }
  std::vector<EvaluationOutcome> more =
      rest.empty() ? std::vector<EvaluationOutcome>{} : run_all(rest, {});
  more.resize(rest.size());
  std::vector<char> whole(k, 0);
  for (std::size_t j = 0; j < rest.size(); ++j) {
    const std::size_t i = rest_of[j];
    whole[i] = 1;
    if (more[j].error) {
      got[i] = std::move(more[j]);
      continue;
    }
    append_runs(got[i].runs, more[j].runs);
  }
  for (std::size_t i = 0; i < k; ++i) {
    ++evaluated_;
    if (sequential[i] && whole[i]) ++extended_;
    const bool short_runs = sequential[i] && !whole[i] && !got[i].error;
    ready_.emplace(evaluation_key(entries_[i].scenario, entries_[i].scope),
                   Ready{std::move(got[i]), short_runs});
  }
  entries_.clear();
}

std::optional<EvaluationOutcome> EvaluationsAhead::take(const Scenario& sc,
                                                        const EvaluationScope& scope,
                                                        bool& short_runs) {
  short_runs = false;
  if (ready_.empty()) return std::nullopt;
  const auto it = ready_.find(evaluation_key(sc, scope));
  if (it == ready_.end()) return std::nullopt;
  short_runs = it->second.short_runs;
  EvaluationOutcome o = std::move(it->second.outcome);
  ready_.erase(it);
  return o;
}

}  // namespace goodput
