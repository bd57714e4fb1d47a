#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/reshard_map.hpp"
#include "calibrate/profile/scenario.hpp"
#include "calibrate/tests/profile_fixture.hpp"

using namespace goodput::calib;

TEST_CASE("layer GEMM shapes follow the uneven shards of the busiest GPU") {
  const ModelShape big = standard_models()[0].shape;  // 20480 hidden, 128 heads, ffn 81920
  const auto q = layer_gemms(big, 30);
  REQUIRE(q.size() == 14);
  auto find = [&](const char* name, Pass pass) {
    return *std::find_if(q.begin(), q.end(),
                         [&](const GemmQuery& g) { return g.name == name && g.pass == pass; });
  };
  // ceil(128/30) = 5 heads of 160: q 800 + k 800 + v 800 columns.
  CHECK(find("qkv", Pass::fwd).n == 2400);
  CHECK(find("qkv", Pass::fwd).k == 20480);
  CHECK(find("qkv", Pass::fwd).m == 16384);
  CHECK(find("mlp_up", Pass::fwd).n == 2736);  // ceil(81920/30) = 2731, dealt in 8s
  CHECK(find("mlp_down", Pass::bwd_data).n == 2736);
  CHECK(find("mlp_down", Pass::bwd_data).k == 20480);
  CHECK(find("mlp_down", Pass::bwd_weight).m == 20480);
  CHECK(find("mlp_down", Pass::bwd_weight).k == 16384);
  CHECK(find("attention", Pass::fwd).batch == 5);
  CHECK(gemm_flops(find("attention", Pass::bwd_data)) ==
        2 * gemm_flops(find("attention", Pass::fwd)));

  const ModelShape gqa = standard_models()[1].shape;  // 64 heads, 8 kv heads, gated 28672
  const auto g = layer_gemms(gqa, 6);
  const auto qkv =
      *std::find_if(g.begin(), g.end(), [](const GemmQuery& x) { return x.name == "qkv"; });
  CHECK(qkv.n == (11 + 2 * 2) * 128);  // ceil(64/6) = 11 q heads, ceil(8/6) = 2 kv heads
  const auto up =
      *std::find_if(g.begin(), g.end(), [](const GemmQuery& x) { return x.name == "mlp_up"; });
  CHECK(up.n == 2 * 4784);  // gated: 2 * ceil(28672/6) = 2 * 4779, dealt in 8s
}

TEST_CASE("FFN shards are dealt in multiples of 8 columns, never more than the FFN") {
  ModelShape s{"m", 64, 4, 4, 81920, false, 128, 1};
  CHECK(ffn_local(s, 32) == 2560);  // even split, already a multiple of 8
  CHECK(ffn_local(s, 31) == 2648);  // ceil = 2643
  CHECK(ffn_local(s, 28) == 2928);  // ceil = 2926
  for (int t = 1; t <= 64; ++t) {
    CAPTURE(t);
    const std::int64_t cols = ffn_local(s, t);
    CHECK(cols % kShardAlignColumns == 0);
    CHECK(cols >= ceil_div(s.ffn, t));
    CHECK(cols < ceil_div(s.ffn, t) + kShardAlignColumns);
    CHECK(cols * t >= s.ffn);  // the busiest rank's share covers the FFN
  }
  s.ffn = 13;  // smaller than one aligned block: one rank holds it all, unpadded
  CHECK(ffn_local(s, 1) == 13);
  CHECK(ffn_local(s, 2) == 8);
}

TEST_CASE("the plan measures each shape once and lists every TP degree using it") {
  const auto models = standard_models();
  const CalibrationPlan plan = make_plan({models[0]}, false);
  auto attn = std::find_if(plan.gemm.begin(), plan.gemm.end(), [](const GemmJob& j) {
    return j.query.name == "attention" && j.query.pass == Pass::fwd && j.query.batch == 5;
  });
  REQUIRE(attn != plan.gemm.end());
  CHECK(attn->tp == std::vector<int>{31, 30, 29, 28, 27, 26});
  // TP32 -> TP24 (tp - tp/4): qkv, attn_out (3 passes) and attention (2) depend only on the
  // local heads, 4 (TP32), 5 (TP31..26) or 6 (TP25, 24); the MLP (2 x 3) differs for every degree.
  CHECK(plan.gemm.size() == 3 * (2 * 3 + 2) + 9 * 2 * 3);
  for (const GemmJob& a : plan.gemm)
    for (const GemmJob& b : plan.gemm)
      if (&a != &b)
        CHECK_FALSE((a.query.name == b.query.name && a.query.pass == b.query.pass &&
                     a.query.m == b.query.m && a.query.n == b.query.n && a.query.k == b.query.k &&
                     a.query.batch == b.query.batch));
  // Reshard: 8 degraded degrees x 2 matrices x 5 kernels.
  CHECK(plan.reshard.size() == 8 * 2 * 5);
  for (const ReshardJob& j : plan.reshard) {
    const ReshardPlan rp = make_reshard_plan(j.cols, j.n1, j.n2);
    if (j.role == "extra") CHECK(j.bytes == rp.shard_cols(j.rank) * j.rows * kGradElemBytes);
    if (j.role == "core") CHECK(j.bytes == rp.received_cols(j.rank) * j.rows * kGradElemBytes);
  }
}

TEST_CASE("quick plans are small") {
  const CalibrationPlan full = make_plan(standard_models(), false);
  const CalibrationPlan quick = make_plan(standard_models(), true);
  CHECK(quick.gemm.size() < full.gemm.size() / 2);
  CHECK(quick.reshard.size() == 2 * 5);
}

namespace {

std::vector<MemoryKernelJob> jobs_of(const CalibrationPlan& plan, MemoryKernel k) {
  std::vector<MemoryKernelJob> out;
  for (const MemoryKernelJob& j : plan.memory_kernels)
    if (j.kernel == k) out.push_back(j);
  return out;
}

}  // namespace

TEST_CASE("memory-bound kernels are planned at the extreme degrees, by the model's kind") {
  const auto models = standard_models();
  const ModelShape& gpt = models[0].shape;  // ungated: layernorm + gelu, TP32 -> TP24
  const CalibrationPlan plan = make_plan({models[0]}, false);
  CHECK(jobs_of(plan, MemoryKernel::rmsnorm).empty());
  CHECK(jobs_of(plan, MemoryKernel::swiglu).empty());
  const auto norm = jobs_of(plan, MemoryKernel::layernorm);
  REQUIRE(norm.size() == 3);  // sequence-parallel shares at TP32 and TP24, the whole at "TP1"
  CHECK(norm[0].rows == 16384 / 32);
  CHECK(norm[0].tp == std::vector<int>{32});
  CHECK(norm[1].rows == ceil_div(16384, 24));
  CHECK(norm[2].rows == 16384);
  CHECK(norm[2].tp == std::vector<int>{1});
  for (const auto& j : norm) CHECK(j.cols == gpt.hidden);
  const auto act = jobs_of(plan, MemoryKernel::gelu);
  REQUIRE(act.size() == 2);
  CHECK(act[0].cols == ffn_local(gpt, 32));
  CHECK(act[1].cols == ffn_local(gpt, 24));
  const auto soft = jobs_of(plan, MemoryKernel::softmax);
  REQUIRE(soft.size() == 2);
  CHECK(soft[0].cols == ceil_div(128256, 32));
  // Adam over the busiest stage's shard: ceil(100 / 8) = 13 layers of 12 h^2 (ungated, MHA) plus
  // the embedding, over TP32 x DP128.
  const auto adam = jobs_of(plan, MemoryKernel::adam);
  REQUIRE(adam.size() == 2);
  const std::int64_t h = 20480;
  CHECK(layer_params(gpt) == 12 * h * h);
  CHECK(adam[0].rows == ceil_div(13 * 12 * h * h + 128256 * h, 32 * 128));
  CHECK(adam[1].rows == ceil_div(13 * 12 * h * h + 128256 * h, 24 * 128));
  for (const MemoryKernelJob& j : plan.memory_kernels) {
    CHECK(j.bytes == memory_kernel_bytes(j.kernel, j.rows, j.cols));
    CHECK(j.bytes <= kMemoryKernelMaxBytes);
  }
  // The quick plan measures the same memory-bound kernels; a model without layout only the layer's.
  CHECK(make_plan({models[0]}, true).memory_kernels.size() == plan.memory_kernels.size());
  ProfiledModel bare = models[1];
  bare.layout.reset();
  const CalibrationPlan layer_only = make_plan({bare}, false);
  CHECK(jobs_of(layer_only, MemoryKernel::rmsnorm).size() == 3);
  CHECK(jobs_of(layer_only, MemoryKernel::swiglu).size() == 2);
  CHECK(jobs_of(layer_only, MemoryKernel::softmax).empty());
  CHECK(jobs_of(layer_only, MemoryKernel::adam).empty());
}

TEST_CASE("a memory-kernel size beyond the cap is planned with fewer rows") {
  ProfiledModel m = standard_models()[1];
  m.tp_max = m.tp_min = 1;
  m.layout = StepLayout{80, 128256, 1, 1};  // the whole 70B model's optimizer on one GPU
  const auto adam = jobs_of(make_plan({m}, false), MemoryKernel::adam);
  REQUIRE(adam.size() == 1);
  CHECK(adam[0].rows == kMemoryKernelMaxBytes / kAdamBytesPerParam);
  CHECK(adam[0].tp == std::vector<int>{1});
}

TEST_CASE("the shipped scenarios' plans hold every memory-bound size their model asks for") {
  // The sizes the step model asks for at every degree the scenario can reach (with and without
  // sequence parallelism) lie within the planned sizes of that kernel, the extremes exactly:
  // the lookup interpolates between measured sizes and never has to clamp.
  int scenarios = 0;
  for (const std::string& file : test::shipped_model_scenarios()) {
    CAPTURE(file);
    const ScenarioModel sm = read_scenario(file);
    REQUIRE(sm.model.layout.has_value());
    const ModelShape& s = sm.model.shape;
    const StepLayout& l = *sm.model.layout;
    const CalibrationPlan plan = make_plan({sm.model}, false);
    const MemoryKernel norm = s.gated_mlp ? MemoryKernel::rmsnorm : MemoryKernel::layernorm;
    const MemoryKernel act = s.gated_mlp ? MemoryKernel::swiglu : MemoryKernel::gelu;
    struct Ask {
      MemoryKernel kernel;
      std::int64_t rows, cols;
    };
    std::vector<Ask> asks{{norm, s.tokens(), s.hidden}};  // without sequence parallelism
    for (int t : sm.tp_degrees) {
      asks.push_back({norm, ceil_div(s.tokens(), t), s.hidden});
      asks.push_back({act, s.tokens(), ffn_local(s, t)});
      asks.push_back({MemoryKernel::softmax, s.tokens(), ceil_div(l.vocab, t)});
      asks.push_back({MemoryKernel::adam, adam_shard_params(s, l, t), 1});
    }
    for (const Ask& a : asks) {
      CAPTURE(std::string(to_string(a.kernel)));
      const auto jobs = jobs_of(plan, a.kernel);
      REQUIRE_FALSE(jobs.empty());
      const std::int64_t bytes = memory_kernel_bytes(a.kernel, a.rows, a.cols);
      std::int64_t lo = jobs[0].bytes, hi = jobs[0].bytes;
      for (const auto& j : jobs) lo = std::min(lo, j.bytes), hi = std::max(hi, j.bytes);
      CHECK(bytes >= lo);
      CHECK(bytes <= hi);
      CHECK(bytes <= kMemoryKernelMaxBytes);
    }
    for (int t : {sm.tp_degrees.front(), sm.tp_degrees.back()}) {
      for (const MemoryKernel k : {norm, act, MemoryKernel::softmax, MemoryKernel::adam}) {
        const auto jobs = jobs_of(plan, k);
        CHECK(std::any_of(jobs.begin(), jobs.end(), [&](const MemoryKernelJob& j) {
          return std::find(j.tp.begin(), j.tp.end(), t) != j.tp.end();
        }));
      }
    }
    CHECK(plan.memory_kernels.size() <= 9);  // small: 3 norms, 2 of each other kernel
    ++scenarios;
  }
  CHECK(scenarios >= 4);  // default, gb200-nvl72-tp64, llama3-16k-h100, ntp-paper-nvl32
}
