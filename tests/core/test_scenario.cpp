// Every class of bad scenario input is an InputError naming the file and the JSON pointer.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "models/scenario/scenario_params.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/run/seed_rule.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

std::string locator_of(const Json& j) {
  try {
    make_plan(scenario_from(j));
  } catch (const InputError& e) {
    CHECK(e.file() == "test.json");
    return e.locator();
  }
  return "(no error)";
}

Json with(const std::string& pointer, const Json& value) {
  Json j = small_scenario();
  j[Json::json_pointer(pointer)] = value;
  return j;
}

}  // namespace

TEST_CASE("bad scenario values are reported with their JSON pointer") {
  CHECK(locator_of(with("/job/tpp", 8)) == "/job/tpp");  // unknown key
  CHECK(locator_of(with("/horizon", 8)) == "/horizon");  // unknown top-level key
  CHECK(locator_of(with("/job/tp", "8")) == "/job/tp");  // wrong type
  CHECK(locator_of(with("/job/dp", 2.5)) == "/job/dp");  // not an integer
  CHECK(locator_of(with("/failures/rate_scale", -1)) == "/failures/rate_scale");  // out of range
  CHECK(locator_of(with("/cluster/preset", "nvl9")) == "/cluster/preset");  // unknown enum value
  CHECK(locator_of(with("/strategies/ntpp", Json::object())) == "/strategies/ntpp");
  CHECK(locator_of(with("/strategies/dp_drop/batch_policy", "grow")) ==
        "/strategies/dp_drop/batch_policy");
  CHECK(locator_of(with("/strategies/hot_spares/swap_minutes", 3)) ==
        "/strategies/hot_spares/swap_minutes");
  CHECK(locator_of(with("/job/tp", 16)) == "/job/tp");                   // TP larger than a domain
  CHECK(locator_of(with("/cluster/domains", 2)) == "/cluster/domains");  // job does not fit
  CHECK(locator_of(with("/failures/classes", Json::array({{{"name", "x"}, {"mtbf_hours", 0}}}))) ==
        "/failures/classes/0/mtbf_hours");
  CHECK(locator_of(with(
            "/failures/classes",
            Json::array({{{"name", "x"}, {"mtbf_hours", 10}, {"repair", {{"kind", "fixed"}}}}}))) ==
        "/failures/classes/0/repair");
  CHECK(locator_of(with("/strategies", Json::object())) == "/strategies");
  CHECK(locator_of(with("/strategies/ntp", {{"min_tp", 9}})) ==
        "/strategies/ntp/min_tp");                                       // above tp 8
  CHECK(locator_of(with("/cost/model", "iteration")) == "/cost/model");  // needs /job/model
  Json missing = small_scenario();
  missing["job"].erase("tp");
  CHECK(locator_of(missing) == "/job/tp");
  Json trace = small_scenario();
  trace["failures"] = {{"model", "trace"}, {"trace", {{"path", "no-such-trace.csv"}}}};
  CHECK(locator_of(trace) == "/failures/trace/path");
}

TEST_CASE("a valid scenario resolves its defaults, and the resolved form loads again") {
  const Scenario s = scenario_from(small_scenario());
  CHECK(s.cluster.domains == 4);
  CHECK(s.spare_domains == 1);
  CHECK(s.strategies.size() == 3);
  CHECK(s.resolved["recovery"]["detection_s"] == 100.0);
  CHECK(s.resolved["recovery"]["spare_swap_s"] == 180.0);
  CHECK(!s.resolved["recovery"].contains("state_copy_s"));  // absent: derived from bytes
  const Scenario again = parse_scenario(s.resolved, "resolved.json");
  CHECK(again.resolved == s.resolved);
}

TEST_CASE("the resolved form keeps the model shape, so it reloads to the same cost model") {
  Json j = small_scenario();
  j["job"]["model"] = {
      {"hidden", 1024}, {"heads", 8}, {"ffn", 4096}, {"layers", 4}, {"seq_len", 2048}};
  j["cost"] = {{"model", "iteration"}};
  const Scenario s = scenario_from(j);
  REQUIRE(s.resolved["job"].contains("model"));
  CHECK(s.resolved["job"]["model"]["vocab"] == 128256);                // defaults filled in
  const Scenario again = parse_scenario(s.resolved, "resolved.json");  // threw: needs /job/model
  CHECK(again.job.model == s.job.model);
  CHECK(again.resolved == s.resolved);
}

TEST_CASE("a number beyond double range in a scenario file is an input error naming the file") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("goodput-huge-number-" + std::to_string(::getpid()) + ".json"))
                               .string();
  std::ofstream(path) << R"({"horizon_hours": 1e999})";
  try {
    load_scenario(path);  // was json out_of_range 406: "internal error", exit 1
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK(std::string(e.what()).find("not valid JSON") != std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST_CASE("--set overrides: JSON values, strings, and a missing parent is an error") {
  Json j = small_scenario();
  apply_override(j, "/horizon_hours=12.5", "f.json");
  apply_override(j, "/failures/preset=llama3", "f.json");
  apply_override(j, "/strategies/dp_drop={\"batch_policy\":\"accumulate\"}", "f.json");
  CHECK(j["horizon_hours"] == 12.5);
  CHECK(j["failures"]["preset"] == "llama3");
  CHECK(j["strategies"]["dp_drop"]["batch_policy"] == "accumulate");
  CHECK_THROWS_AS(apply_override(j, "/nope/deeper=1", "f.json"), InputError);
  CHECK_THROWS_AS(apply_override(j, "horizon_hours=1", "f.json"), InputError);
}

TEST_CASE("--set under a missing parent names a near miss, or how to add the parent") {
  Json j = small_scenario();
  REQUIRE(j["strategies"].contains("dp_drop"));
  REQUIRE_FALSE(j["strategies"].contains("ntp_boost"));
  auto message = [&](const std::string& assignment) {
    try {
      apply_override(j, assignment, "f.json", &sections::scenario());
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string typo = message("/strategies/dpdrop/min_replicas=2");
  CHECK(typo.find("did you mean 'dp_drop'") != std::string::npos);
  const std::string absent = message("/strategies/ntp_boost/max_power=1.2");
  CHECK(absent.find("give --set /strategies/ntp_boost={} before this one") != std::string::npos);
  CHECK(absent.find("did you mean") == std::string::npos);
  // Following the advice works.
  apply_override(j, "/strategies/ntp_boost={}", "f.json", &sections::scenario());
  apply_override(j, "/strategies/ntp_boost/max_power=1.2", "f.json", &sections::scenario());
  CHECK(j["strategies"]["ntp_boost"]["max_power"] == 1.2);
  // A parent that is not an object gets neither.
  const std::string scalar = message("/horizon_hours/x=1");
  CHECK(scalar.find("did you mean") == std::string::npos);
  CHECK(scalar.find("to add it") == std::string::npos);
}

TEST_CASE("every declared parameter has a doc line and a valid default") {
  std::vector<const ParamSection*> all = {&sections::scenario(), &sections::cluster(),
                                          &sections::job(),      &sections::failures(),
                                          &sections::recovery(), &sections::checkpoint()};
  for (const auto& st : strategy_table()) all.push_back(st.params);
  for (const ParamSection* s : all) {
    for (const auto& p : s->params) {
      CAPTURE(p.key);
      CHECK_FALSE(p.doc.empty());
      if (p.default_value.is_number()) {
        CHECK(p.default_value.get<double>() >= p.min);
        CHECK(p.default_value.get<double>() <= p.max);
      }
    }
  }
}

TEST_CASE("--set creates missing parent objects the schema declares, and only those") {
  Json j = small_scenario();
  j.erase("recovery");
  j["failures"].erase("trace");
  apply_override(j, "/recovery/detection_s=60", "f.json", &sections::scenario());
  CHECK(j["recovery"]["detection_s"] == 60);
  apply_override(j, "/report/failed_gpu_thresholds=[0.01]", "f.json", &sections::scenario());
  CHECK(j["report"]["failed_gpu_thresholds"][0] == 0.01);
  CHECK_THROWS_AS(apply_override(j, "/nope/deeper=1", "f.json", &sections::scenario()), InputError);
  CHECK_THROWS_AS(apply_override(j, "/job/nope/deeper=1", "f.json", &sections::scenario()),
                  InputError);
  CHECK(!j.contains("nope"));
  CHECK(scenario_from(j).recovery.detection_s == 60);
  const ParamDecl* d = find_decl(sections::scenario(), "/cluster/spare_domains");
  REQUIRE(d);
  CHECK(d->unit == "domains");
  CHECK(find_decl(sections::scenario(), "/cluster/nope") == nullptr);
}

TEST_CASE(
    "/seeds is a positive integer or auto, any other string an error naming the file and /seeds") {
  const Scenario counted = scenario_from(with("/seeds", 5));
  CHECK(counted.seeds == 5);
  CHECK_FALSE(counted.seeds_auto);
  CHECK(counted.resolved["seeds"] == 5);
  const Scenario automatic = scenario_from(with("/seeds", "auto"));
  CHECK(automatic.seeds_auto);
  CHECK(automatic.seeds == kAutoSeedBatch);  // the rule's first batch until the rule runs
  CHECK(automatic.resolved["seeds"] == "auto");
  CHECK(parse_scenario(automatic.resolved, "resolved.json").seeds_auto);  // reloads as auto
  for (const Json& bad :
       {Json("fast"), Json("Auto"), Json(""), Json(true), Json(2.5), Json(0), Json::array({1})}) {
    CAPTURE(bad.dump());
    try {
      scenario_from(with("/seeds", bad));
      FAIL("expected an InputError");
    } catch (const InputError& e) {
      CHECK(e.file() == "test.json");
      CHECK(e.locator() == "/seeds");
      if (bad.is_string())
        CHECK(std::string(e.what()).find("expected an integer in [1, 1e+06] or \"auto\"") !=
              std::string::npos);
    }
  }
  // --set /seeds=auto (the override --seeds auto adds) reads the word as a string.
  Json j = small_scenario();
  apply_override(j, "/seeds=auto", "f.json", &sections::scenario());
  CHECK(scenario_from(j).seeds_auto);
  CHECK(param_type_name(*sections::scenario().find("seeds")) == "integer or auto");
}

TEST_CASE("set_seeds gives the count the rule chose to the scenario, its resolved form and input") {
  Scenario s = scenario_from(with("/seeds", "auto"));
  set_seeds(s, 24);
  CHECK(s.seeds == 24);
  CHECK(s.seeds_auto);  // the count was chosen by the rule
  CHECK(s.resolved["seeds"] == 24);
  // A scenario derived from its input (the verdict analysis' --set-style changes) runs 24 seeds.
  const Scenario derived = parse_scenario(s.input, s.file);
  CHECK(derived.seeds == 24);
  CHECK_FALSE(derived.seeds_auto);
}
