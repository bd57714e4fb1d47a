// Goal seek over one integer scenario field: the smallest value in [lo, hi] whose evaluation
// meets the target, by bisection. Assumes the property is monotone: once a value meets the
// target every larger one does (e.g. Goodput does not fall, or WAITING_FOR_CAPACITY does not
// rise, as spare domains are added). It evaluates hi first (no answer if even hi fails), then
// lo, then halves the gap. When hi misses it still evaluates lo, so "neither end meets" and
// "only lo meets" (the property runs the other way) are told apart.
//
// The target is a per-strategy metric (strategy_metrics.hpp) compared with a bound, met when
// its 95% CI clears the bound, not merely its mean: for `>=` the lower bound (mean - ci95), for
// `<=` the upper bound (mean + ci95). With one seed there is no CI and the mean decides.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/stats.hpp"
#include "sim/report/strategy_metrics.hpp"

namespace goodput {

struct SeekStep {
  long value = 0;
  bool meets = false;
};

struct SeekResult {
  std::optional<long> answer;
  std::vector<SeekStep> steps;  // in evaluation order
  // hi misses but lo meets: the answer is lo, but the property falls as the value grows, the
  // opposite of what bisection assumes (values in between are not evaluated).
  bool only_min_meets = false;
};

SeekResult bisect_smallest(long lo, long hi, const std::function<bool(long)>& meets);

enum class Comparison { AtLeast, AtMost };
const char* comparison_text(Comparison c);  // ">=" or "<="

struct SeekTarget {
  const StrategyMetric* metric = nullptr;  // from strategy_metrics()
  Comparison comparison = Comparison::AtLeast;
  double value = 0;
};

// "METRIC>=X" or "METRIC<=X" (spaces allowed around the parts; for a fraction metric X may be a
// percentage, "1%"). Throws InputError naming `flag` for an unknown metric (listing the valid
// names, with a did-you-mean), a malformed comparison or value, or a fraction outside [0, 1].
SeekTarget parse_seek_target(const std::string& text, const std::string& flag = "--target");

// The value the rule compares with the target: mean - ci95 for >=, mean + ci95 for <=.
double ci_bound(const Summary& s, Comparison c);
bool meets_target(const Summary& s, const SeekTarget& t);

// For people: "WAITING_FOR_CAPACITY <= 1%"; "lower 95% CI bound" / "upper 95% CI bound";
// the monotonicity bisection assumes, e.g. "goodput does not decrease as /cluster/spare_domains
// grows".
std::string target_text(const SeekTarget& t);
std::string bound_text(Comparison c);
std::string monotone_assumption(const SeekTarget& t, const std::string& pointer);

// Where the evaluated means (value -> the metric's Summary) move against the direction bisection
// assumes by more than their two 95% CI half-widths together: one line per such pair of
// neighbouring values. Bisection itself cannot see this (it only asks meets / misses).
std::vector<std::string> monotonicity_warnings(const SeekTarget& t, const std::string& pointer,
                                               const std::map<long, Summary>& evaluated);

// The answer of a finished seek, from its sweep.json "seek" block (sweep_command.cpp writes it):
// "smallest /cluster/spare_domains with dp_drop WAITING_FOR_CAPACITY <= 1% (upper 95% CI bound):
// 12 (9 values evaluated; assumed ...)", or "...: not reached in [0, 16] (even 16 gives ...)".
// An answer already met at the minimum adds sweep.json's "already_met_reason" (fault_reach.hpp).
// `markdown`: pointer as code, answer in bold.
std::string seek_answer_text(const Json& seek, bool markdown);

}  // namespace goodput
