#include <doctest/doctest.h>

#include <string>

#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "calibrate/tests/profile_fixture.hpp"
#include "sim/core/error.hpp"

using namespace goodput::calib;
using goodput::InputError;

namespace {

const char* kFull = R"({
  "name": "ignored", "failures": {"anything": [1, 2, 3]},
  "job": {"tp": 32, "micro_batch": 2, "pp": 8,
          "model": {"hidden": 20480, "heads": 128, "kv_heads": 16, "ffn": 81920,
                    "gated_mlp": true, "seq_len": 16384, "layers": 100}},
  "strategies": {"ntp": {"min_tp": 29}, "ntp_boost": {"min_tp": 30}}
})";

std::string locator_of(const std::string& text, const test::TempDir& dir) {
  const std::string path = dir.file("s.json");
  test::write_text(path, text);
  try {
    (void)read_scenario_model(path);
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    return e.locator();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("scenario fields are read, everything else ignored") {
  test::TempDir dir;
  test::write_text(dir.file("paper.json"), kFull);
  const ProfiledModel m = read_scenario_model(dir.file("paper.json"));
  CHECK(m.shape.name == "paper");
  CHECK(m.shape.hidden == 20480);
  CHECK(m.shape.heads == 128);
  CHECK(m.shape.kv_heads == 16);
  CHECK(m.shape.ffn == 81920);
  CHECK(m.shape.gated_mlp);
  CHECK(m.shape.seq_len == 16384);
  CHECK(m.shape.micro_batch == 2);
  CHECK(m.tp_max == 32);
  CHECK(m.tp_min == 29);  // the lower of the two strategies' min_tp
}

TEST_CASE("scenario defaults: kv_heads = heads, micro_batch 1, min_tp = max(1, tp - 4)") {
  test::TempDir dir;
  test::write_text(dir.file("s.json"),
                   R"({"job": {"tp": 8, "model": {"hidden": 4096, "heads": 32, "ffn": 11008, "seq_len": 4096}}})");
  const ProfiledModel m = read_scenario_model(dir.file("s.json"));
  CHECK(m.shape.kv_heads == 32);
  CHECK(m.shape.micro_batch == 1);
  CHECK_FALSE(m.shape.gated_mlp);
  CHECK(m.tp_min == 4);
  CHECK(default_min_tp(2) == 1);
  CHECK(default_min_tp(1) == 1);
}

TEST_CASE("bad scenarios name the file and the JSON pointer") {
  test::TempDir dir;
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"heads": 32, "ffn": 1, "seq_len": 4}}})", dir) ==
        "/job/model/hidden");
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"hidden": "big", "heads": 32, "ffn": 1, "seq_len": 4}}})", dir) ==
        "/job/model/hidden");
  CHECK(locator_of(R"({"job": {"tp": 0, "model": {"hidden": 64, "heads": 4, "ffn": 1, "seq_len": 4}}})", dir) ==
        "/job/tp");
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"hidden": 64, "heads": 4, "ffn": 1, "seq_len": 4, "gated_mlp": 1}}})", dir) ==
        "/job/model/gated_mlp");
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"hidden": 65, "heads": 4, "ffn": 1, "seq_len": 4}}})", dir) ==
        "/job/model");
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"hidden": 64, "heads": 4, "ffn": 1, "seq_len": 4}},
                      "strategies": {"ntp": {"min_tp": 9}}})", dir) == "/strategies/ntp/min_tp");
  CHECK(locator_of("{not json", dir).empty());
  CHECK_THROWS_AS(read_scenario_model(dir.file("absent.json")), InputError);
}

TEST_CASE("standard models are consistent and covered by their analytical profile") {
  const auto models = standard_models();
  REQUIRE(models.size() == 2);
  CHECK(models[0].shape.hidden == 20480);
  CHECK(models[0].tp_max == 32);
  CHECK(models[0].tp_min == 28);
  for (const auto& m : models) CHECK_NOTHROW(validate(m.shape));
  const Profile p = analytical_profile("H100", models);
  CHECK(covers_model(p, models[0].shape, 30));
  CHECK_FALSE(covers_model(p, models[0].shape, 27));
  ModelShape other = models[0].shape;
  other.seq_len = 8192;
  CHECK_FALSE(covers_model(p, other, 30));
}
