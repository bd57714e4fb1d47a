// Enum name tables: each name maps to its value and back, unknown names are refused with the
// known ones, and the scenario's declarations offer exactly the table's names.
#include <doctest/doctest.h>

#include "models/scenario/scenario_enums.hpp"
#include "models/scenario/scenario_params.hpp"
#include "models/trace/trace.hpp"
#include "support.hpp"

using namespace goodput;

namespace {

template <class E, std::size_t N>
void check_round_trip(const EnumName<E> (&table)[N]) {
  for (const auto& e : table) {
    CAPTURE(e.name);
    CHECK(enum_value(table, e.name) == e.value);
    CHECK(std::string(enum_name(table, e.value)) == e.name);
  }
}

const ParamDecl& decl(const ParamSection& s, const std::string& key) {
  for (const auto& d : s.params)
    if (d.key == key) return d;
  FAIL("no declaration " << key);
  throw;
}

}  // namespace

TEST_CASE("enum name tables round-trip and refuse unknown names") {
  check_round_trip(kRunModeNames);
  check_round_trip(kRepairKindNames);
  check_round_trip(kFailureModelNames);
  check_round_trip(kCheckpointPolicyNames);
  check_round_trip(kComponentKindNames);
  check_round_trip(kBatchNames);
  check_round_trip(kSaveModeNames);
  check_round_trip(kInterArrivalNames);
  check_round_trip(kRecomputeNames);
  check_round_trip(kCostModelNames);
  CHECK_THROWS_WITH_AS(enum_value(kRunModeNames, "snap"),
                       "unknown name 'snap' (known: time, snapshot)", std::invalid_argument);
  for (int k = 0; k < kComponentKinds; ++k)
    CHECK(kComponentKindNames[k].value == static_cast<ComponentKind>(k));  // indexed by value
}

TEST_CASE("the scenario's declarations take their choices from the name tables") {
  CHECK(decl(sections::scenario(), "mode").choices == enum_choices(kRunModeNames));
  CHECK(decl(sections::checkpoint(), "interval").choices == enum_choices(kCheckpointPolicyNames));
  CHECK(decl(sections::failures(), "model").choices == enum_choices(kFailureModelNames));
  CHECK(decl(sections::failure_class(), "scope").choices == enum_choices(kComponentKindNames));
  CHECK(decl(sections::trace(), "format").choices == trace::format_names());
  CHECK(decl(sections::job(), "recompute").choices == enum_choices(kRecomputeNames));
  CHECK(decl(sections::cost(), "model").choices == enum_choices(kCostModelNames));
  // ... and the loader fills the value the name stands for.
  Json j = test::small_scenario();
  j["mode"] = "snapshot";
  j["checkpoint"]["interval"] = "availability_optimal";
  const Scenario s = test::scenario_from(j);
  CHECK(s.mode == RunMode::Snapshot);
  CHECK(s.checkpoint.policy == CheckpointSpec::Policy::AvailabilityOptimal);
}
