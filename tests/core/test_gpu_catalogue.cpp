// The GPU catalogue (issue 28 item 2): every entry complete and sourced; /cluster/gpu names an
// entry whose figures reach the power defaults, the analytical profile and the step model;
// /cluster/gpu_spec describes a GPU of the scenario's own with the same keys (strictly); an
// unknown GPU is an input error naming the key, the catalogue and `goodput describe hardware`.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "models/cost/cost_model.hpp"
#include "models/scenario/scenario_params.hpp"
#include "sim/core/error.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

// The small HGX-8 scenario with a Llama-3-8B job, so the iteration cost model runs.
Json with_model() {
  Json j = small_scenario();
  j["job"]["model"] = {{"preset", "llama3-8b"}, {"seq_len", 2048}};
  return j;
}

const IterationDetail& detail_of(const CostModel& cost) {
  REQUIRE(cost.iteration_detail() != nullptr);
  return *cost.iteration_detail();
}

Json custom_gpu() {
  return Json::parse(R"({"name": "X1", "bf16_dense_tflops": 500, "hbm_bandwidth_gbps": 2500,
                         "hbm_capacity_gb": 96, "nvlink_gbps": 123, "nominal_power_w": 600,
                         "max_power_w": 660})");
}

std::string load_error(const Json& j) {
  try {
    scenario_from(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the GPU catalogue: every entry complete and sourced, names unique") {
  std::set<std::string> names;
  REQUIRE(calib::gpu_catalogue().size() >= 5);
  for (const calib::GpuSpec& g : calib::gpu_catalogue()) {
    CAPTURE(g.name);
    CHECK(names.insert(g.name).second);
    CHECK(calib::find_gpu(g.name) == &g);
    CHECK(!g.product.empty());
    CHECK(g.bf16_dense_tflops > 0);
    // FP8 doubles the BF16 rate where the tensor cores have it; 0 where they do not (A100).
    CHECK((g.fp8_dense_tflops == 0 || g.fp8_dense_tflops >= 1.9 * g.bf16_dense_tflops));
    CHECK(g.hbm_bandwidth_gbps > 0);
    CHECK(g.hbm_capacity_gb > 0);
    CHECK(g.nvlink_gbps > 0);
    CHECK(g.sm_count > 0);
    CHECK(!g.compute_capability.empty());
    CHECK(g.nominal_power_w > 0);
    CHECK(g.max_power_w >= g.nominal_power_w);
    for (const std::string* src :
         {&g.peaks_source, &g.spec_source, &g.nvlink_source, &g.power_source})
      CHECK(src->size() > 20);
    // Its CUDA device name finds it.
    CHECK(calib::gpu_of_device_name("NVIDIA " + g.cuda_name) == &g);
  }
  for (const char* want : {"A100-80GB", "H100", "H200", "B200", "GB200"})
    CHECK(names.count(want) == 1);
  CHECK(calib::find_gpu("A100") == nullptr);
}

TEST_CASE("/cluster/gpu: the entry's power ratings are the defaults, its figures reach the step") {
  for (const calib::GpuSpec& g : calib::gpu_catalogue()) {
    CAPTURE(g.name);
    Json j = with_model();
    j["cluster"]["gpu"] = g.name;
    const Scenario s = scenario_from(j);
    CHECK(s.gpu.name == g.name);
    CHECK(s.gpu_nominal_power_w == g.nominal_power_w);
    CHECK(s.gpu_max_power_w == g.max_power_w);
    CHECK(s.resolved["cluster"]["gpu_nominal_power_w"] == g.nominal_power_w);
    CHECK(s.resolved["cluster"]["gpu_max_power_w"] == g.max_power_w);
    CHECK(!s.resolved["cluster"].contains("gpu_spec"));
    const auto cost = cost_model_of(s);
    const IterationDetail& d = detail_of(*cost);
    CHECK(d.setup.nvlink_Bps == g.nvlink_gbps * 1e9);
    CHECK(d.setup.peak_flops == doctest::Approx(g.bf16_dense_tflops * 1e12).epsilon(1e-12));
    // /cost/nvlink_gbps still overrides the catalogue.
    j["cost"]["nvlink_gbps"] = 77;
    CHECK(detail_of(*cost_model_of(scenario_from(j))).setup.nvlink_Bps == 77e9);
  }
  // Given ratings override the entry's.
  Json j = with_model();
  j["cluster"]["gpu"] = "A100-80GB";
  j["cluster"]["gpu_max_power_w"] = 450;
  const Scenario a100 = scenario_from(j);
  CHECK(a100.gpu_nominal_power_w == 400);
  CHECK(a100.gpu_max_power_w == 450);
}

TEST_CASE("an HGX-8 A100 cluster is described by its catalogue name") {
  Json j = with_model();
  j["cluster"]["gpu"] = "A100-80GB";
  const Scenario s = scenario_from(j);
  CHECK(s.cluster.preset == "hgx-8");
  CHECK(s.cluster.gpus_per_domain() == 8);
  const auto cost = cost_model_of(s);
  CostInfo info;
  make_cost_model(s, needed_tp_degrees(s), &info);
  CHECK(info.profile_path == "analytical:A100-80GB");
  CHECK(info.device == "NVIDIA A100 SXM4 80GB (datasheet)");
  // Same job, same layout: the A100's lower peak makes the step slower than the H100's.
  Json h = with_model();
  h["cluster"]["gpu"] = "H100";
  CHECK(cost->healthy_step_s() > cost_model_of(scenario_from(h))->healthy_step_s());
}

TEST_CASE("an unknown /cluster/gpu is an input error naming the key, the catalogue, describe") {
  Json j = small_scenario();
  j["cluster"]["gpu"] = "A100";
  const std::string what = load_error(j);
  CHECK(what.find("test.json") != std::string::npos);
  CHECK(what.find("/cluster/gpu") != std::string::npos);
  CHECK(what.find("unknown GPU 'A100'") != std::string::npos);
  CHECK(what.find(calib::gpu_names_text()) != std::string::npos);
  CHECK(what.find("goodput describe hardware") != std::string::npos);
  CHECK(what.find("gpu_spec") != std::string::npos);
  // Even under the proportional cost model, which needs no figures.
  j["cluster"]["gpu"] = "TPUv5";
  CHECK(load_error(j).find("unknown GPU 'TPUv5'") != std::string::npos);
}

TEST_CASE("/cluster/gpu_spec: a GPU of the scenario's own, its NVLink and peaks reach the step") {
  Json j = with_model();
  j["cluster"]["gpu_spec"] = custom_gpu();
  const Scenario s = scenario_from(j);
  CHECK(s.cluster.gpu_type == "X1");
  CHECK(s.gpu.name == "X1");
  CHECK(s.gpu_nominal_power_w == 600);
  CHECK(s.gpu_max_power_w == 660);
  CHECK(s.gpu.peaks_source == "the scenario's /cluster/gpu_spec");
  CHECK(s.resolved["cluster"]["gpu"] == "X1");
  CHECK(s.resolved["cluster"]["gpu_spec"]["nvlink_gbps"] == 123);
  CostInfo info;
  const auto cost = make_cost_model(s, needed_tp_degrees(s), &info);
  const IterationDetail& d = detail_of(*cost);
  CHECK(d.setup.nvlink_Bps == 123e9);
  CHECK(d.setup.peak_flops == doctest::Approx(500e12).epsilon(1e-12));
  CHECK(info.profile_path == "analytical:X1");
  CHECK(info.device == "X1 (datasheet)");
  // The resolved scenario loads on its own and gives the same step.
  const Scenario again = scenario_from(s.resolved);
  CHECK(cost_model_of(again)->healthy_step_s() == cost->healthy_step_s());
  // More NVLink bandwidth: a shorter step (TP collectives are on the critical path).
  j["cluster"]["gpu_spec"]["nvlink_gbps"] = 1230;
  CHECK(cost_model_of(scenario_from(j))->healthy_step_s() < cost->healthy_step_s());
  // /cluster/gpu may name it.
  j["cluster"]["gpu"] = "X1";
  CHECK(scenario_from(j).gpu.nvlink_gbps == 1230);
}

TEST_CASE("the datasheet profile is remembered per GPU and model: each answer is its own") {
  // make_cost_model keeps the last few datasheet profiles (a sweep's points and goodput-mpi's
  // rank 0 share one): a GPU differing in one figure, or another model, must get its own.
  const auto info_of = [](const Json& j) {
    const Scenario s = scenario_from(j);
    CostInfo info;
    make_cost_model(s, needed_tp_degrees(s), &info);
    return info;
  };
  Json a = with_model();
  a["cluster"]["gpu_spec"] = custom_gpu();
  Json b = a;
  b["cluster"]["gpu_spec"]["bf16_dense_tflops"] = 600;  // same name, one figure apart
  Json c = a;
  c["job"]["model"]["seq_len"] = 4096;
  const CostInfo first = info_of(a), other_gpu = info_of(b), other_model = info_of(c);
  CHECK(other_gpu.profile_hash != first.profile_hash);
  CHECK(other_gpu.healthy_step_s < first.healthy_step_s);  // a faster GPU
  CHECK(other_model.profile_hash != first.profile_hash);
  CHECK(other_model.profile_hash != other_gpu.profile_hash);
  // Asked again, after others and after more than are kept (a fresh build): the same answers.
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    CHECK(info_of(a).profile_hash == first.profile_hash);
    CHECK(info_of(a).healthy_step_s == first.healthy_step_s);
    CHECK(info_of(b).profile_hash == other_gpu.profile_hash);
    CHECK(info_of(c).healthy_step_s == other_model.healthy_step_s);
    for (int tflops = 510; tflops <= 560; tflops += 10) {
      Json d = a;
      d["cluster"]["gpu_spec"]["bf16_dense_tflops"] = tflops;
      CHECK(info_of(d).profile_hash != first.profile_hash);
    }
  }
  // A cluster of another size is the same GPU and model: the same profile and step.
  Json bigger = a;
  bigger["cluster"]["domains"] = bigger["cluster"]["domains"].get<int>() + 2;
  CHECK(info_of(bigger).profile_hash == first.profile_hash);
  CHECK(info_of(bigger).healthy_step_s == first.healthy_step_s);
}

TEST_CASE("/cluster/gpu_spec is strict: unknown and missing keys, clashes are input errors") {
  Json j = small_scenario();
  j["cluster"]["gpu_spec"] = custom_gpu();
  j["cluster"]["gpu_spec"]["nvlink_gbs"] = 100;
  std::string what = load_error(j);
  CHECK(what.find("/cluster/gpu_spec/nvlink_gbs") != std::string::npos);
  CHECK(what.find("unknown key") != std::string::npos);

  j["cluster"]["gpu_spec"] = custom_gpu();
  j["cluster"]["gpu_spec"].erase("nvlink_gbps");
  CHECK(load_error(j).find("/cluster/gpu_spec") != std::string::npos);

  j["cluster"]["gpu_spec"] = custom_gpu();
  j["cluster"]["gpu_spec"]["bf16_dense_tflops"] = 0;
  CHECK(load_error(j).find("/cluster/gpu_spec/bf16_dense_tflops") != std::string::npos);

  j["cluster"]["gpu_spec"] = custom_gpu();
  j["cluster"]["gpu_spec"]["name"] = "H100";  // a catalogue entry's name
  CHECK(load_error(j).find("/cluster/gpu_spec/name") != std::string::npos);

  j["cluster"]["gpu_spec"] = custom_gpu();
  j["cluster"]["gpu"] = "H100";  // not gpu_spec's name
  what = load_error(j);
  CHECK(what.find("/cluster/gpu:") != std::string::npos);
  CHECK(what.find("X1") != std::string::npos);

  j["cluster"].erase("gpu");
  j["cluster"]["gpu_spec"]["max_power_w"] = 500;  // below nominal_power_w
  CHECK(load_error(j).find("/cluster/gpu_spec/max_power_w") != std::string::npos);
}

TEST_CASE("gpu_spec's keys are the catalogue's: describe prints every entry's values") {
  const auto& fields = sections::gpu_spec_fields();
  for (const calib::GpuSpec& g : calib::gpu_catalogue()) {
    const Json v = fields.values(g);
    // Every declared key has a value; read back, the entry is what it was.
    Json given = v;
    const calib::GpuSpec back =
        fields.read(ParamReader(given, fields.section(), "catalogue", "/gpu_spec", nullptr));
    CHECK(fields.values(back) == v);
    CHECK(back.nvlink_gbps == g.nvlink_gbps);
  }
}
