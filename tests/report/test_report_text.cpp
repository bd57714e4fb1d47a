// report.md / terminal wording: why ETTR and Goodput may rank strategies differently.
#include <doctest/doctest.h>

#include "sim/report/report.hpp"

using namespace goodput;

namespace {

StrategySummary summary(const std::string& name, double goodput, double ettr, double degraded,
                        double reshard) {
  StrategySummary s;
  s.name = name;
  s.goodput.mean = goodput;
  s.ettr.mean = ettr;
  s.badput[static_cast<int>(Bucket::DegradedCapacity)].mean = degraded;
  s.badput[static_cast<int>(Bucket::ReshardOverhead)].mean = reshard;
  return s;
}

}  // namespace

TEST_CASE("a note says why ETTR ranks a strategy above one with more Goodput") {
  // ntp trains 97% of the time but 2.5 pp of it is lost to reduced capacity: Goodput 94.5%.
  const std::vector<StrategySummary> s = {summary("dp_drop", 0.955, 0.956, 0.001, 0),
                                          summary("ntp", 0.945, 0.970, 0.020, 0.005),
                                          summary("checkpoint_restart", 0.75, 0.75, 0, 0)};
  const auto notes = ettr_goodput_notes(s);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("ETTR ranks ntp above dp_drop (97.00% vs 95.60%)") == 0);
  CHECK(notes[0].find("Goodput ranks it below (94.50% vs 95.50%)") != std::string::npos);
  CHECK(notes[0].find("RESHARD_OVERHEAD: 2.50% of wall time") != std::string::npos);
  // Against the best of several it outranks on ETTR.
  auto more = s;
  more.push_back(summary("hot_spares", 0.96, 0.961, 0, 0));
  const auto two = ettr_goodput_notes(more);
  REQUIRE(two.size() == 1);
  CHECK(two[0].find("ETTR ranks ntp above hot_spares") == 0);
}

TEST_CASE("no note when both rankings agree or the gap is within 0.05 pp") {
  CHECK(
      ettr_goodput_notes({summary("a", 0.96, 0.97, 0, 0), summary("b", 0.95, 0.96, 0, 0)}).empty());
  CHECK(ettr_goodput_notes({summary("a", 0.96, 0.9600, 0, 0), summary("b", 0.95, 0.9604, 0, 0)})
            .empty());
}
