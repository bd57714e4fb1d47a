#include <doctest/doctest.h>

#include <algorithm>

#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/reshard_map.hpp"
#include "calibrate/profile/scenario.hpp"

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
