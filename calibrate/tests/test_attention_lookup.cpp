// Fused causal attention: what the plan asks the harness to measure for the shipped scenarios,
// and which number the lookup takes (measured fused > measured GEMM tiles > the analytical
// flash-attention efficiency > the analytical GEMM curve).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "calibrate/tests/profile_fixture.hpp"
#include "sim/core/error.hpp"

using namespace goodput::calib;

namespace {

bool same(const AttentionQuery& a, const AttentionQuery& b) {
  return a.pass == b.pass && a.batch == b.batch && a.heads == b.heads && a.kv_heads == b.kv_heads &&
         a.seq_len == b.seq_len && a.head_dim == b.head_dim;
}

// goodput's causal count, spelled out: forward 2 s^2 d per head and sequence, backward twice.
double causal_flops(const AttentionQuery& q) {
  const double s = static_cast<double>(q.seq_len);
  return (q.pass == Pass::fwd ? 2.0 : 4.0) * s * s * static_cast<double>(q.head_dim) *
         static_cast<double>(q.heads * q.batch);
}

}  // namespace

TEST_CASE("the plan lists the fused-attention calls of the shipped scenarios, once each") {
  int scenarios = 0;
  for (const std::string& file : test::shipped_model_scenarios()) {
    CAPTURE(file);
    const ScenarioModel sm = read_scenario(file);
    const ModelShape& s = sm.model.shape;
    const CalibrationPlan plan = make_plan({sm.model}, false);
    for (const AttentionJob& a : plan.attention)
      for (const AttentionJob& b : plan.attention)
        if (&a != &b) CHECK_FALSE(same(a.query, b.query));  // each shape measured once
    std::size_t degrees = 0;
    for (int t : sm.tp_degrees) {
      for (Pass pass : {Pass::fwd, Pass::bwd_data}) {
        const AttentionQuery q = attention_call(s, t, pass);
        CHECK(q.heads == ceil_div(s.heads, t));
        CHECK(q.kv_heads == ceil_div(s.kv_heads, t));
        CHECK(q.seq_len == s.seq_len);  // one CP rank's sequence
        CHECK(q.head_dim == s.hidden / s.heads);
        CHECK(q.batch == s.micro_batch);
        const auto it = std::find_if(plan.attention.begin(), plan.attention.end(),
                                     [&](const AttentionJob& j) { return same(j.query, q); });
        REQUIRE(it != plan.attention.end());
        CHECK(std::count(it->tp.begin(), it->tp.end(), t) == 1);
        degrees += 1;
      }
    }
    std::size_t listed = 0;
    for (const AttentionJob& j : plan.attention) listed += j.tp.size();
    CHECK(listed == degrees);  // nothing the scenario does not run
    ++scenarios;
  }
  CHECK(scenarios >= 4);
}

TEST_CASE("Llama 3 405B on H100 plans one fused attention call per pass: 16 heads of 128, 8K") {
  const ScenarioModel sm =
      read_scenario(std::string(GOODPUT_CALIB_SOURCE_DIR) + "/../scenarios/llama3-16k-h100.json");
  const CalibrationPlan plan = make_plan({sm.model}, false);
  const AttentionQuery q = attention_call(sm.model.shape, 8, Pass::fwd);
  CHECK(q.heads == 16);
  CHECK(q.kv_heads == 1);
  CHECK(q.seq_len == 8192);
  CHECK(q.head_dim == 128);
  CHECK(std::any_of(plan.attention.begin(), plan.attention.end(),
                    [&](const AttentionJob& j) { return same(j.query, q); }));
  CHECK(attention_flops(q) == doctest::Approx(2.0 * 8192.0 * 8192 * 128 * 16));
  CHECK(attention_flops(attention_call(sm.model.shape, 8, Pass::bwd_data)) ==
        doctest::Approx(2 * attention_flops(q)));
  CHECK_THROWS_AS(attention_call(sm.model.shape, 8, Pass::bwd_weight), std::invalid_argument);
}

TEST_CASE("attention lookup: measured fused > measured GEMM tiles > flash efficiency > curve") {
  const ModelShape m = test::small_model();
  const AttentionQuery fwd = attention_call(m, 8, Pass::fwd);
  const AttentionQuery bwd = attention_call(m, 8, Pass::bwd_data);

  // A measured profile with fused entries: the entry of the shape, else the nearest's rate.
  Profile p = test::test_profile();
  REQUIRE_FALSE(p.attention.empty());
  const auto entry = std::find_if(p.attention.begin(), p.attention.end(), [&](const auto& e) {
    return same({e.pass, e.batch, e.heads, e.kv_heads, e.seq_len, e.head_dim}, fwd);
  });
  REQUIRE(entry != p.attention.end());
  entry->time_s.median *= 1.25;  // distinguishable from anything computed
  AttentionTime t = attention_time(p, fwd);
  CHECK(t.source == AttentionSource::measured_fused);
  CHECK(t.time_s == entry->time_s.median);
  CHECK(t.tflops == doctest::Approx(causal_flops(fwd) / t.time_s / 1e12));
  AttentionQuery longer = fwd;
  longer.seq_len = 3 * fwd.seq_len;  // unmeasured: the rate of the nearest fused entry
  t = attention_time(p, longer);
  CHECK(t.source == AttentionSource::measured_fused);
  const AttentionQuery near = attention_call(m, 6, Pass::fwd);  // the most FLOPs planned
  const auto near_entry = std::find_if(p.attention.begin(), p.attention.end(), [&](const auto& e) {
    return same({e.pass, e.batch, e.heads, e.kv_heads, e.seq_len, e.head_dim}, near);
  });
  REQUIRE(near_entry != p.attention.end());
  CHECK(t.time_s ==
        doctest::Approx(causal_flops(longer) / (causal_flops(near) / near_entry->time_s.median)));
  entry->verification = Verification::failed;
  CHECK_THROWS_WITH_AS(attention_time(p, fwd), doctest::Contains("verification"),
                       goodput::InputError);

  // Without fused entries: the attention GEMM tiles (causal as measured; old dense ones halved).
  p.attention.clear();
  const double gemm =
      gemm_time_s(p, attention_query(fwd.heads, fwd.seq_len, fwd.head_dim, fwd.batch, Pass::fwd));
  REQUIRE(p.settings.attention_impl == "cublas_strided_batched");
  t = attention_time(p, fwd);
  CHECK(t.source == AttentionSource::measured_gemm_tiles);
  CHECK(t.time_s == doctest::Approx(0.5 * gemm));
  p.settings.attention_impl = "cublas_causal_blocked";
  CHECK(attention_time(p, fwd).time_s == doctest::Approx(gemm));

  // Analytical: causal FLOPs / (datasheet peak x the GPU's flash efficiency), closed form.
  const GpuSpec& h100 = *find_gpu("H100");
  Profile a = analytical_profile("H100", m, 8, 6);
  t = attention_time(a, fwd);
  CHECK(t.source == AttentionSource::flash_efficiency);
  CHECK(t.time_s == doctest::Approx(causal_flops(fwd) / (h100.bf16_dense_tflops * 1e12 *
                                                         h100.attention_fwd_efficiency)));
  CHECK(attention_time(a, bwd).time_s ==
        doctest::Approx(causal_flops(bwd) /
                        (h100.bf16_dense_tflops * 1e12 * h100.attention_bwd_efficiency)));
  // The profile's analytical fused entries say the same.
  for (const AttentionEntry& e : a.attention)
    CHECK(e.time_s.median == doctest::Approx(attention_time(a, {e.pass, e.batch, e.heads,
                                                                e.kv_heads, e.seq_len, e.head_dim})
                                                 .time_s));

  // An analytical profile without a flash model (older, or a GPU without figures): the curve.
  a.settings.analytical_model->flash_attention.reset();
  t = attention_time(a, fwd);
  CHECK(t.source == AttentionSource::gemm_curve);
  CHECK(t.time_s ==
        doctest::Approx(0.5 * gemm_time_s(a, attention_query(fwd.heads, fwd.seq_len, fwd.head_dim,
                                                             fwd.batch, Pass::fwd))));
  GpuSpec own = h100;
  own.name = "X1";
  own.attention_fwd_efficiency = own.attention_bwd_efficiency = 0;
  const Profile x = analytical_profile(own, m, 8, 6);
  CHECK_FALSE(x.settings.analytical_model->flash_attention);
  CHECK(x.attention.empty());
  CHECK(attention_time(x, fwd).source == AttentionSource::gemm_curve);
}

TEST_CASE("every catalogue GPU declares a flash-attention efficiency with its source") {
  for (const GpuSpec& g : gpu_catalogue()) {
    CAPTURE(g.name);
    CHECK(g.attention_fwd_efficiency > 0.3);
    CHECK(g.attention_fwd_efficiency < 0.8);  // below the GEMM curve's limit
    CHECK(g.attention_bwd_efficiency > 0.3);
    CHECK(g.attention_bwd_efficiency < g.attention_fwd_efficiency);  // backward is slower
    CHECK(g.attention_source.find("arXiv") != std::string::npos);
  }
}
