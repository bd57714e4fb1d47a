#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "calibrate/profile/profile.hpp"
#include "calibrate/tests/profile_fixture.hpp"
#include "sim/core/error.hpp"

using namespace goodput::calib;
using goodput::InputError;
using test::TempDir;

namespace {

// Loads `doc` from a file and returns the InputError's locator ("" when it loads fine).
std::string load_error_locator(const nlohmann::json& doc, const TempDir& dir) {
  const std::string path = dir.file("bad.json");
  test::write_text(path, doc.dump(2));
  try {
    (void)load_profile(path);
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    return e.locator();
  }
  return "";
}

nlohmann::json profile_doc() {
  return nlohmann::json::parse(profile_text(test::test_profile()));
}

}  // namespace

TEST_CASE("profile save -> load -> save is byte-identical and hash-stable") {
  TempDir dir;
  const Profile p = test::test_profile();
  REQUIRE(p.gemm.size() > 10);
  save_profile(p, dir.file("p.json"));
  const Profile q = load_profile(dir.file("p.json"));
  CHECK(q.path == dir.file("p.json"));
  CHECK(profile_text(q) == profile_text(p));
  CHECK(profile_hash(q) == profile_hash(p));
  save_profile(q, dir.file("q.json"));
  CHECK(test::read_text(dir.file("q.json")) == test::read_text(dir.file("p.json")));
  CHECK(profile_hash(p).size() == 16);
  // Nullable fields survive the trip.
  CHECK(q.device.clocks.sm_observed_mhz.has_value());
  CHECK_FALSE(q.device.clocks.mem_observed_mhz.has_value());
  CHECK(q.device.driver_version == 13000);
}

TEST_CASE("profile hash changes with any value") {
  Profile p = test::test_profile();
  const std::string h = profile_hash(p);
  p.gemm[3].time_s.median *= 1.0000001;
  CHECK(profile_hash(p) != h);
}

TEST_CASE("load errors carry the JSON pointer") {
  TempDir dir;
  nlohmann::json doc = profile_doc();
  doc["gemm"][3]["time_s"]["median"] = "fast";
  CHECK(load_error_locator(doc, dir) == "/gemm/3/time_s/median");

  doc = profile_doc();
  doc["gemm"][3]["time_s"]["median"] = -1.0;
  CHECK(load_error_locator(doc, dir) == "/gemm/3/time_s/median");

  doc = profile_doc();
  doc["reshard"][1].erase("gbps");
  CHECK(load_error_locator(doc, dir) == "/reshard/1/gbps");

  doc = profile_doc();
  doc["device"]["clocks"]["turbo"] = true;
  CHECK(load_error_locator(doc, dir) == "/device/clocks/turbo");

  doc = profile_doc();
  doc["gemm"][0]["pass"] = "backward";
  CHECK(load_error_locator(doc, dir) == "/gemm/0/pass");

  doc = profile_doc();
  doc["gemm"][2]["tp"][0] = 0;
  CHECK(load_error_locator(doc, dir) == "/gemm/2/tp/0");

  doc = profile_doc();
  doc["schema_version"] = 99;
  CHECK(load_error_locator(doc, dir) == "/schema_version");

  doc = profile_doc();
  doc["schema_version"] = 0;
  CHECK(load_error_locator(doc, dir) == "/schema_version");

  doc = profile_doc();
  doc["settings"]["analytical_model"] = doc["settings"]["measurement"];
  CHECK(load_error_locator(doc, dir) == "/settings/analytical_model/cublaslt_workspace_bytes");

  doc = profile_doc();
  doc["settings"]["analytical_model"] = nullptr;
  doc["settings"]["measurement"] = nullptr;
  CHECK(load_error_locator(doc, dir) == "/settings/measurement");

  doc = profile_doc();
  doc["ceilings"]["gemm_tflops"] = 0.0;  // a ceiling must be > 0
  CHECK(load_error_locator(doc, dir) == "/ceilings/gemm_tflops");

  doc = profile_doc();
  doc["device"]["l2_bytes"] = nullptr;  // nullable: null is valid
  doc["device"]["sm_count"] = nullptr;  // not nullable
  CHECK(load_error_locator(doc, dir) == "/device/sm_count");

  doc = profile_doc();
  doc["gemm"][2]["tp"][0] = 2.5;
  CHECK(load_error_locator(doc, dir) == "/gemm/2/tp/0");

  doc = profile_doc();
  doc.erase("fit");  // a required section
  CHECK(load_error_locator(doc, dir) == "/fit");

  doc = profile_doc();
  CHECK(load_error_locator(doc, dir).empty());
}

TEST_CASE("unreadable and malformed profiles are input errors") {
  TempDir dir;
  CHECK_THROWS_AS(load_profile(dir.file("missing.json")), InputError);
  test::write_text(dir.file("broken.json"), "{\"schema_version\": 1,");
  CHECK_THROWS_AS(load_profile(dir.file("broken.json")), InputError);
  test::write_text(dir.file("huge.json"),
                   "{\"schema_version\": 1e999}");  // was out_of_range (exit 1)
  CHECK_THROWS_AS(load_profile(dir.file("huge.json")), InputError);
}

TEST_CASE("entries that failed verification are refused") {
  TempDir dir;
  Profile p = test::test_profile();
  const GemmEntry failed = p.gemm[5];
  p.gemm[5].verification = Verification::failed;
  save_profile(p, dir.file("p.json"));

  const Profile q = load_profile(dir.file("p.json"));
  const GemmQuery query{failed.name, failed.pass, failed.m, failed.n, failed.k, failed.batch, ""};
  try {
    (void)gemm_time_s(q, query);
    FAIL("expected the failed entry to be refused");
  } catch (const InputError& e) {
    CHECK(e.locator() == "/gemm/5/verification");
    CHECK(std::string(e.what()).find("failed verification") != std::string::npos);
  }
  // Other entries, and fitted shapes, still answer (the fit skips the failed entry).
  CHECK(gemm_time_s(q, {p.gemm[0].name, p.gemm[0].pass, p.gemm[0].m, p.gemm[0].n, p.gemm[0].k,
                        p.gemm[0].batch, ""}) == p.gemm[0].time_s.median);
  CHECK(gemm_time_s(q, {"mlp_up", Pass::fwd, 4096, 1000, 1024, 1, ""}) > 0.0);

  LoadOptions strict;
  strict.reject_failed = true;
  try {
    (void)load_profile(dir.file("p.json"), strict);
    FAIL("expected load to refuse the profile");
  } catch (const InputError& e) {
    CHECK(e.locator() == "/gemm/5/verification");
  }

  Profile r = test::test_profile();
  r.reshard[0].verification = Verification::failed;
  CHECK_THROWS_AS(reshard_time_s(r, 1 << 20), InputError);
}

TEST_CASE("save is atomic: a failed save leaves nothing behind") {
  TempDir dir;
  const std::string path = dir.file("no-such-dir/p.json");
  CHECK_THROWS(save_profile(test::test_profile(), path));
  CHECK_FALSE(std::filesystem::exists(std::filesystem::path(path).parent_path()));
  save_profile(test::test_profile(), dir.file("ok.json"));
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.file(""))) {
    (void)e;
    ++files;
  }
  CHECK(files == 1);  // no temporary left next to the profile
}

TEST_CASE("version 2 adds memory-bound kernels and the step layout, read strictly") {
  TempDir dir;
  nlohmann::json doc = profile_doc();
  REQUIRE(doc["schema_version"] == kProfileSchemaVersion);
  REQUIRE(doc["memory_kernels"].size() > 4);
  CHECK(doc["models"][0]["layout"]["pp"] == 2);

  doc.erase("memory_kernels");
  CHECK(load_error_locator(doc, dir) == "/memory_kernels");

  doc = profile_doc();
  doc["models"][0].erase("layout");
  CHECK(load_error_locator(doc, dir) == "/models/0/layout");

  doc = profile_doc();
  doc["models"][0]["layout"] = nullptr;  // unknown layout: valid
  CHECK(load_error_locator(doc, dir).empty());

  doc = profile_doc();
  doc["memory_kernels"][1]["bytes"] = doc["memory_kernels"][1]["bytes"].get<std::int64_t>() + 2;
  CHECK(load_error_locator(doc, dir) == "/memory_kernels/1/bytes");

  doc = profile_doc();
  doc["memory_kernels"][0]["kernel"] = "dropout";
  CHECK(load_error_locator(doc, dir) == "/memory_kernels/0/kernel");

  doc = profile_doc();
  doc["memory_kernels"][0]["dtype"] = "fp32_state_bf16_grad";  // not an rmsnorm's
  CHECK(load_error_locator(doc, dir) == "/memory_kernels/0/dtype");

  doc = profile_doc();
  doc["memory_kernels"][2]["time_s"]["samples"] = 0;  // measured: at least one
  CHECK(load_error_locator(doc, dir) == "/memory_kernels/2/time_s/samples");

  doc = profile_doc();
  doc["models"][0]["layout"]["dp"] = 0;
  CHECK(load_error_locator(doc, dir) == "/models/0/layout/dp");

  doc = profile_doc();
  doc["schema_version"] = kProfileSchemaVersion + 1;
  CHECK(load_error_locator(doc, dir) == "/schema_version");
}

TEST_CASE("version 3 adds fused attention entries and the flash-attention model, read strictly") {
  TempDir dir;
  nlohmann::json doc = profile_doc();
  REQUIRE(doc["schema_version"] == 3);
  REQUIRE(doc["attention"].size() >= 2);
  CHECK(doc["attention"][0]["impl"] == "cudnn_sdpa");

  doc.erase("attention");
  CHECK(load_error_locator(doc, dir) == "/attention");

  doc = profile_doc();
  doc["attention"][0]["pass"] = "bwd_weight";
  CHECK(load_error_locator(doc, dir) == "/attention/0/pass");

  doc = profile_doc();
  doc["attention"][1]["causal"] = false;
  CHECK(load_error_locator(doc, dir) == "/attention/1/causal");

  doc = profile_doc();
  doc["attention"][0]["impl"] = "analytical";  // in a measured profile
  CHECK(load_error_locator(doc, dir) == "/attention/0/impl");

  doc = profile_doc();
  doc["attention"][0]["time_s"]["samples"] = 0;
  CHECK(load_error_locator(doc, dir) == "/attention/0/time_s/samples");

  // An analytical profile carries its flash-attention model (or null); version 2 has neither
  // key, and is read as version 3 without them and written back as it was.
  nlohmann::json a =
      nlohmann::json::parse(profile_text(analytical_profile("H100", test::small_model(), 8, 6)));
  REQUIRE(a["settings"]["analytical_model"]["flash_attention"]["fwd_efficiency"] == 0.609);
  CHECK(a["attention"][0]["impl"] == "analytical");
  test::write_text(dir.file("a.json"), a.dump());
  CHECK(load_profile(dir.file("a.json")).settings.analytical_model->flash_attention.has_value());
  a["settings"]["analytical_model"]["flash_attention"] = nullptr;
  a["attention"] = nlohmann::json::array();
  test::write_text(dir.file("a.json"), a.dump());
  CHECK_FALSE(load_profile(dir.file("a.json")).settings.analytical_model->flash_attention);
  a["schema_version"] = 2;
  a.erase("attention");
  a["settings"]["analytical_model"].erase("flash_attention");
  test::write_text(dir.file("a.json"), a.dump());
  const Profile v2 = load_profile(dir.file("a.json"));
  CHECK(v2.attention.empty());
  CHECK_FALSE(v2.settings.analytical_model->flash_attention);
  CHECK(nlohmann::json::parse(profile_text(v2)) == a);
  a["attention"] = nlohmann::json::array();
  test::write_text(dir.file("a.json"), a.dump());
  CHECK_THROWS_WITH_AS(load_profile(dir.file("a.json")), doctest::Contains("/attention"),
                       goodput::InputError);
}

TEST_CASE("version 1 profiles still load, without memory-bound kernels, and write back unchanged") {
  // The shipped measured profiles are version 1.
  const std::string shipped =
      std::string(GOODPUT_CALIB_SOURCE_DIR) + "/profiles/h200-measured.json";
  const Profile m = load_profile(shipped);
  CHECK(m.schema_version == 1);
  CHECK(m.memory_kernels.empty());
  for (const ProfiledModel& model : m.models) CHECK_FALSE(model.layout.has_value());
  CHECK(profile_text(m) == test::read_text(shipped));  // the same text, so the same hash
  CHECK(memory_kernel_time(m, MemoryKernel::rmsnorm, 1e8).source ==
        MemoryKernelSource::copy_ceiling_fallback);

  TempDir dir;
  nlohmann::json doc = profile_doc();
  doc["schema_version"] = 1;
  doc.erase("memory_kernels");
  doc.erase("attention");
  doc["models"][0].erase("layout");
  CHECK(load_error_locator(doc, dir).empty());
  const Profile v1 = load_profile(dir.file("bad.json"));
  CHECK(nlohmann::json::parse(profile_text(v1)) == doc);

  nlohmann::json with = doc;
  with["memory_kernels"] = nlohmann::json::array();
  CHECK(load_error_locator(with, dir) == "/memory_kernels");
  with = doc;
  with["models"][0]["layout"] = nullptr;
  CHECK(load_error_locator(with, dir) == "/models/0/layout");
}

TEST_CASE("a memory kernel entry too large to count its bytes is an input error") {
  TempDir dir;
  nlohmann::json doc = profile_doc();
  doc["memory_kernels"][0]["rows"] = std::int64_t{1} << 40;
  doc["memory_kernels"][0]["cols"] = std::int64_t{1} << 40;
  CHECK(load_error_locator(doc, dir) == "/memory_kernels/0/rows");
}
