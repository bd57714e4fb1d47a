#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "calibrate/tests/profile_fixture.hpp"
#include "models/scenario/model_preset_table.hpp"
#include "models/strategies/tp_degrees.hpp"
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
  // The step layout: layers given, vocab the simulator's default, pp given, dp absent: 1.
  REQUIRE(m.layout.has_value());
  CHECK(m.layout->layers == 100);
  CHECK(m.layout->vocab == goodput::kDefaultVocab);
  CHECK(m.layout->pp == 8);
  CHECK(m.layout->dp == 1);
}

TEST_CASE("the step layout comes from the scenario or its preset, unknown layers leave it null") {
  test::TempDir dir;
  test::write_text(
      dir.file("m.json"),
      R"({"job": {"tp": 8, "pp": 16, "dp": 128, "model": {"preset": "llama3-405b"}}})");
  const ProfiledModel l = read_scenario_model(dir.file("m.json"));
  REQUIRE(l.layout.has_value());
  CHECK(l.layout->layers == 126);
  CHECK(l.layout->vocab == 128256);
  CHECK(l.layout->pp == 16);
  CHECK(l.layout->dp == 128);
  test::write_text(
      dir.file("m.json"),
      R"({"job": {"tp": 8, "model": {"preset": "llama3-8b", "layers": 16, "vocab": 32000}}})");
  const ProfiledModel o = read_scenario_model(dir.file("m.json"));
  REQUIRE(o.layout.has_value());
  CHECK(o.layout->layers == 16);
  CHECK(o.layout->vocab == 32000);
  test::write_text(
      dir.file("m.json"),
      R"({"job": {"tp": 8, "model": {"hidden": 64, "heads": 4, "ffn": 8, "seq_len": 4}}})");
  CHECK_FALSE(read_scenario_model(dir.file("m.json")).layout.has_value());
  CHECK(locator_of(R"({"job": {"tp": 8, "dp": 0, "model": {"preset": "llama3-8b"}}})", dir) ==
        "/job/dp");
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"preset": "llama3-8b", "layers": "many"}}})",
                   dir) == "/job/model/layers");
}

TEST_CASE("scenario defaults: kv_heads = heads, micro_batch 1, degrees by the simulator's rule") {
  test::TempDir dir;
  test::write_text(
      dir.file("s.json"),
      R"({"job": {"tp": 8, "model": {"hidden": 4096, "heads": 32, "ffn": 11008, "seq_len": 4096}}})");
  const ScenarioModel none = read_scenario(dir.file("s.json"));
  CHECK(none.model.shape.kv_heads == 32);
  CHECK(none.model.shape.micro_batch == 1);
  CHECK_FALSE(none.model.shape.gated_mlp);
  CHECK(none.tp_degrees == std::vector<int>{8});  // no strategy degrades TP: tp only
  CHECK(none.model.tp_min == 8);
  test::write_text(
      dir.file("ntp.json"),
      R"({"job": {"tp": 32, "model": {"hidden": 4096, "heads": 32, "ffn": 11008, "seq_len": 4096}},
                       "strategies": {"ntp": {}}})");
  const ScenarioModel ntp = read_scenario(dir.file("ntp.json"));
  CHECK(ntp.model.tp_min == 24);  // default_min_tp(32) = 32 - 32/4
  CHECK(ntp.tp_degrees.size() == 9);
  test::write_text(
      dir.file("allowed.json"),
      R"({"job": {"tp": 32, "model": {"hidden": 4096, "heads": 32, "ffn": 11008, "seq_len": 4096}},
                       "strategies": {"ntp": {"min_tp": 20, "allowed_tp": [16, 24, 28]}, "ntp_boost": {"min_tp": 30}}})");
  const ScenarioModel allowed = read_scenario(dir.file("allowed.json"));
  CHECK(allowed.tp_degrees == std::vector<int>{24, 28, 30, 31, 32});  // 16 is below min_tp 20
  CHECK(allowed.model.tp_min == 24);
  CHECK(goodput::default_min_tp(2) == 2);
  CHECK(goodput::default_min_tp(1) == 1);
}

TEST_CASE("a model preset gives the same shape as the spelled-out shape (the simulator's table)") {
  test::TempDir dir;
  for (const goodput::ModelPresetShape& p : goodput::kModelPresets) {
    CAPTURE(p.name);
    const std::string spelled =
        R"({"job": {"tp": 8, "micro_batch": 2, "model": {"hidden": )" + std::to_string(p.hidden) +
        R"(, "heads": )" + std::to_string(p.heads) + R"(, "kv_heads": )" +
        std::to_string(p.kv_heads) + R"(, "ffn": )" + std::to_string(p.ffn) + R"(, "seq_len": )" +
        std::to_string(p.seq_len) + R"(, "gated_mlp": )" + (p.gated_mlp ? "true" : "false") + "}}}";
    const std::string named = R"({"job": {"tp": 8, "micro_batch": 2, "model": {"preset": ")" +
                              std::string(p.name) + R"("}}})";
    test::write_text(dir.file("m.json"), spelled);
    const ModelShape a = read_scenario_model(dir.file("m.json")).shape;
    test::write_text(dir.file("m.json"), named);
    const ModelShape b = read_scenario_model(dir.file("m.json")).shape;
    CHECK(b.hidden == a.hidden);
    CHECK(b.heads == a.heads);
    CHECK(b.kv_heads == a.kv_heads);
    CHECK(b.ffn == a.ffn);
    CHECK(b.gated_mlp == a.gated_mlp);
    CHECK(b.seq_len == a.seq_len);
    CHECK(b.micro_batch == 2);
  }
  // The shipped shapes, written out here so that a change to the table shows.
  test::write_text(dir.file("m.json"), R"({"job": {"tp": 8, "model": {"preset": "llama3-405b"}}})");
  const ModelShape l = read_scenario_model(dir.file("m.json")).shape;
  CHECK(l.hidden == 16384);
  CHECK(l.heads == 128);
  CHECK(l.kv_heads == 8);
  CHECK(l.ffn == 53248);
  CHECK(l.seq_len == 8192);
  CHECK(l.gated_mlp);
  test::write_text(dir.file("m.json"),
                   R"({"job": {"tp": 32, "model": {"preset": "ntp-paper-480b"}}})");
  const ModelShape n = read_scenario_model(dir.file("m.json")).shape;
  CHECK(n.hidden == 20480);
  CHECK(n.kv_heads == 128);
  CHECK(n.ffn == 81920);
  CHECK(n.seq_len == 16384);
  CHECK_FALSE(n.gated_mlp);
  // Keys given beside the preset override it, as in the simulator.
  test::write_text(
      dir.file("m.json"),
      R"({"job": {"tp": 8, "model": {"preset": "llama3-70b", "seq_len": 4096, "gated_mlp": false}}})");
  const ModelShape o = read_scenario_model(dir.file("m.json")).shape;
  CHECK(o.hidden == 8192);
  CHECK(o.kv_heads == 8);
  CHECK(o.seq_len == 4096);
  CHECK_FALSE(o.gated_mlp);
}

TEST_CASE("an unknown or ill-typed model preset names the file, the field and the known names") {
  test::TempDir dir;
  const std::string path = dir.file("s.json");
  test::write_text(path, R"({"job": {"tp": 8, "model": {"preset": "gpt-5"}}})");
  try {
    (void)read_scenario_model(path);
    FAIL("an unknown preset was accepted");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK(e.locator() == "/job/model/preset");
    const std::string what = e.what();
    CHECK(what.find("gpt-5") != std::string::npos);
    CHECK(what.find("llama3-405b") != std::string::npos);  // the known names are listed
  }
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"preset": 405}}})", dir) == "/job/model/preset");
  // A bad override beside a valid preset is reported at its own pointer.
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"preset": "llama3-8b", "ffn": -1}}})", dir) ==
        "/job/model/ffn");
}

TEST_CASE("bad scenarios name the file and the JSON pointer") {
  test::TempDir dir;
  CHECK(locator_of(R"({"job": {"tp": 8, "model": {"heads": 32, "ffn": 1, "seq_len": 4}}})", dir) ==
        "/job/model/hidden");
  CHECK(
      locator_of(
          R"({"job": {"tp": 8, "model": {"hidden": "big", "heads": 32, "ffn": 1, "seq_len": 4}}})",
          dir) == "/job/model/hidden");
  CHECK(locator_of(
            R"({"job": {"tp": 0, "model": {"hidden": 64, "heads": 4, "ffn": 1, "seq_len": 4}}})",
            dir) == "/job/tp");
  CHECK(
      locator_of(
          R"({"job": {"tp": 8, "model": {"hidden": 64, "heads": 4, "ffn": 1, "seq_len": 4, "gated_mlp": 1}}})",
          dir) == "/job/model/gated_mlp");
  CHECK(locator_of(
            R"({"job": {"tp": 8, "model": {"hidden": 65, "heads": 4, "ffn": 1, "seq_len": 4}}})",
            dir) == "/job/model");
  CHECK(
      locator_of(R"({"job": {"tp": 8, "model": {"hidden": 64, "heads": 4, "ffn": 1, "seq_len": 4}},
                      "strategies": {"ntp": {"min_tp": 9}}})",
                 dir) == "/strategies/ntp/min_tp");
  CHECK(locator_of("{not json", dir).rfind("byte ", 0) == 0);  // a position, never the text
  CHECK_THROWS_AS(read_scenario_model(dir.file("absent.json")), InputError);
}

TEST_CASE("standard models are consistent and covered by their analytical profile") {
  const auto models = standard_models();
  REQUIRE(models.size() == 2);
  CHECK(models[0].shape.hidden == 20480);
  CHECK(models[0].tp_max == 32);
  CHECK(models[0].tp_min == 24);
  for (const auto& m : models) CHECK_NOTHROW(validate(m.shape));
  const Profile p = analytical_profile("H100", models);
  CHECK(covers_model(p, models[0].shape, 30));
  CHECK(covers_model(p, models[0].shape, 24));
  CHECK_FALSE(covers_model(p, models[0].shape, 23));
  CHECK(uncovered_degrees(p, models[0].shape, {23, 24, 32, 33}) == std::vector<int>{23, 33});
  // A model entry whose range claims a degree that no GEMM entry was measured at: not covered.
  Profile gap = p;
  for (GemmEntry& e : gap.gemm) e.tp.erase(std::remove(e.tp.begin(), e.tp.end(), 26), e.tp.end());
  CHECK_FALSE(covers_model(gap, models[0].shape, 26));
  ModelShape other = models[0].shape;
  other.seq_len = 8192;
  CHECK_FALSE(covers_model(p, other, 30));
}

TEST_CASE("context parallelism: the plan's shape is one CP rank's, the optimizer's shard dp x cp") {
  test::TempDir dir;
  test::write_text(dir.file("cp.json"), R"({
    "job": {"tp": 8, "pp": 16, "dp": 8, "cp": 16,
            "model": {"preset": "llama3-405b", "seq_len": 131072}}})");
  const ProfiledModel m = read_scenario_model(dir.file("cp.json"));
  CHECK(m.shape.seq_len == 131072 / 16);
  REQUIRE(m.layout.has_value());
  CHECK(m.layout->dp == 8 * 16);
  CHECK(m.layout->pp == 16);
}
