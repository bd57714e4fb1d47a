// The iteration cost model on the shipped scenarios: the Llama 3 405B validation against Meta's
// published throughput, NTP's degraded replica as a smooth function of its TP degree, the
// bubble in dp_drop accumulate, causal attention, recomputation, the reshard bytes, presets.
#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "models/cost/cost_memo.hpp"
#include "models/cost/cost_model.hpp"
#include "models/cost/pipeline_schedule.hpp"
#include "models/scenario/model_presets.hpp"
#include "models/strategies/job_controller.hpp"
#include "sim/core/word_memo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

Scenario shipped(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return load_scenario(std::string(GOODPUT_SOURCE_DIR) + "/scenarios/" + name, overrides);
}

// Model TFLOP/s per GPU of the healthy step.
double tflops_per_gpu(const CostModel& cost) {
  const IterationDetail& d = *cost.iteration_detail();
  std::vector<StageBreakdown> stages;
  for (int i = 0; i < d.setup.pp; ++i)
    stages.push_back(stage_breakdown(d.setup, d.profile, d.setup.tp, i));
  return step_model_flops_per_gpu(d.setup, stages) / cost.healthy_step_s() / 1e12;
}

double memory_fwd_s(const LayerBreakdown& l) {
  double t = 0;
  for (const Term& k : l.memory) t += k.fwd_s;
  return t;
}

}  // namespace

TEST_CASE(
    "Llama 3 405B on 16K H100: interleaving shrinks the bubble (published figures: the "
    "validation table, not a tolerance here)") {
  const Scenario s = shipped("llama3-16k-h100.json");
  const auto cost = cost_model_of(s);
  const double tf = tflops_per_gpu(*cost);
  MESSAGE("llama3-16k-h100: " << tf << " TFLOP/s per GPU, step " << cost->healthy_step_s() << " s");
  CHECK(tf > 0);
  CHECK(tf < calib::gemm_ceiling_tflops(cost->iteration_detail()->profile));
  // Without interleaving the bubble is (pp - 1) / m = 94% of the busy time.
  const auto plain = cost_model_of(shipped("llama3-16k-h100.json", {"/job/virtual_stages=1"}));
  CHECK(tflops_per_gpu(*plain) < 0.8 * tf);
}

TEST_CASE("the healthy step is the exact schedule of the per-stage times") {
  const Scenario s = shipped("ntp-paper-nvl32.json");
  const auto cost = cost_model_of(s);
  const IterationDetail& d = *cost->iteration_detail();
  PipelineSpec spec;
  spec.microbatches = 8;
  for (int i = 0; i < 8; ++i)
    spec.stages.push_back(stage_breakdown(d.setup, d.profile, 32, i).times(1.0));
  CHECK(cost->healthy_step_s() == doctest::Approx(pipeline_step_s(spec)).epsilon(1e-12));
  CHECK(cost->step_s(8) == doctest::Approx(cost->healthy_step_s()).epsilon(1e-12));
}

TEST_CASE("paper setup: a degraded replica's throughput is smooth in its TP degree (no plateau)") {
  // The idealised fractional local batch (whole samples are tested in test_physical.cpp).
  const auto cost =
      cost_model_of(shipped("ntp-paper-nvl32.json", {"/cost/local_batch=fractional"}));
  double prev = cost->replica_throughput(32, 1.0);
  CHECK(prev == 1.0);
  for (int t = 31; t >= 24; --t) {
    const double r = cost->replica_throughput(t, 1.0);
    MESSAGE("TP" << t << ": " << r);
    CHECK(r < prev - 0.002);  // every lost GPU costs something
    CHECK(r > prev - 0.08);   // and no cliff
    prev = r;
  }
  // Whole micro-batches only: a step function again (8 micro-batches per replica).
  const auto whole =
      cost_model_of(shipped("ntp-paper-nvl32.json", {"/cost/local_batch=whole_microbatches"}));
  for (int t = 31; t >= 24; --t) {
    const double r = whole->replica_throughput(t, 1.0);
    CHECK(r * 8 == doctest::Approx(std::round(r * 8)));
    CHECK(r <= cost->replica_throughput(t, 1.0));
  }
}

TEST_CASE("one degraded stage costs less than a replica paced by it on every stage") {
  const auto cost = cost_model_of(shipped("ntp-paper-nvl32.json"));
  std::vector<int> all30(8, 30);
  std::vector<double> ones(8, 1.0);
  CHECK(cost->replica_throughput(all30, ones) < cost->replica_throughput(30, 1.0));
  // Boost: the least power at which the replica keeps its whole batch.
  const double p = cost->boost_power(30, 1.3);
  CHECK(p > 1.0);
  CHECK(p < 1.3);
  CHECK(cost->replica_throughput(30, p) >= 1.0);
  CHECK(cost->replica_throughput(30, p - 1e-6) < 1.0);
}

TEST_CASE("dp_drop accumulate counts the bubble: the step of ceil(dp m / active) micro-batches") {
  const Scenario s = shipped("ntp-paper-nvl32.json");
  const auto cost = cost_model_of(s);
  DropOptions o;
  o.policy = BatchPolicy::Accumulate;
  const double r = drop_rate(o, 127, 128, 8, cost.get());
  CHECK(r == doctest::Approx(cost->step_s(8) / cost->step_s(9)));
  CHECK(r > 8.0 / 9);  // the pipeline's fill and drain do not grow with the micro-batches
  CHECK(drop_rate(o, 127, 128, 8, nullptr) == doctest::Approx(8.0 / 9));
}

TEST_CASE("per-layer terms: causal attention, recomputation, sequence parallelism") {
  const Scenario s = shipped("llama3-16k-h100.json");
  const auto cost = cost_model_of(s);
  const IterationDetail& d = *cost->iteration_detail();
  const LayerBreakdown l = layer_breakdown(d.setup, d.profile, 8);
  const auto& sh = d.setup.shape;
  // The H100 datasheet profile prices causal flash attention in closed form: forward
  // 2 s^2 d FLOPs per local head, backward twice that, at the BF16 peak x the catalogue's
  // flash-attention efficiency of each pass.
  const calib::GpuSpec& h100 = *calib::find_gpu("H100");
  const double s2 = static_cast<double>(sh.seq_len) * sh.seq_len;
  const double fwd_flops =
      2.0 * s2 * sh.head_dim() * static_cast<double>(calib::heads_local(sh, 8)) * sh.micro_batch;
  CHECK(l.attention.fwd_s == doctest::Approx(fwd_flops / (h100.bf16_dense_tflops * 1e12 *
                                                          h100.attention_fwd_efficiency)));
  CHECK(l.attention.bwd_s ==
        doctest::Approx(2 * fwd_flops /
                        (h100.bf16_dense_tflops * 1e12 * h100.attention_bwd_efficiency)));
  CHECK(l.attention.source.find("flash-attention efficiency") != std::string::npos);
  CHECK(l.attention.source.find("arXiv 2407.08608") != std::string::npos);
  StepSetup st = d.setup;
  st.recompute = Recompute::Selective;
  CHECK(layer_breakdown(st, d.profile, 8).compute_bwd_s() ==
        doctest::Approx(l.compute_bwd_s() + l.attention.fwd_s));
  st.recompute = Recompute::Full;
  const LayerBreakdown f = layer_breakdown(st, d.profile, 8);
  CHECK(f.compute_bwd_s() == doctest::Approx(l.compute_bwd_s() + l.compute_fwd_s()));
  CHECK(f.comm_bwd_s() == doctest::Approx(l.comm_bwd_s() + l.comm_fwd_s()));
  // Sequence parallelism: the same collective volume, element-wise work split over the TP ranks.
  st.recompute = Recompute::None;
  st.sequence_parallel = false;
  const LayerBreakdown nsp = layer_breakdown(st, d.profile, 8);
  CHECK(nsp.tp_comm.fwd_s == doctest::Approx(l.tp_comm.fwd_s));
  CHECK(memory_fwd_s(nsp) > memory_fwd_s(l));
  // Ring collectives: 2 per direction of one activation, (t - 1) / t of it over NVLink.
  const double act = 2.0 * sh.seq_len * sh.hidden;
  CHECK(l.tp_comm.fwd_s == doctest::Approx(2 * 2 * 7.0 / 8 * act / d.setup.nvlink_Bps));
}

TEST_CASE(
    "the NTP reshard moves each leaving rank's whole shard (31x the per-core share at TP31)") {
  const ReshardGeometry g = reshard_geometry(32 * 1000, 32, 31);
  CHECK(g.sent_per_extra == 1000);
  CHECK(g.sent_per_extra / g.moved_per_core == doctest::Approx(31));
}

TEST_CASE("model presets fill the shape, keys beside the preset override it") {
  Json j = small_scenario();
  j["job"]["model"] = {{"preset", "llama3-70b"}, {"seq_len", 4096}};
  const Scenario s = scenario_from(j);
  CHECK(s.job.model["hidden"] == 8192);
  CHECK(s.job.model["kv_heads"] == 8);
  CHECK(s.job.model["layers"] == 80);
  CHECK(s.job.model["seq_len"] == 4096);
  CHECK(s.job.model["gated_mlp"] == true);
  CHECK(model_preset("llama3-405b")["ffn"] == 53248);
  CHECK(model_preset("gpt-5").is_null());
  j["job"]["model"] = {{"preset", "gpt-5"}};
  CHECK_THROWS_AS(scenario_from(j), InputError);
}

TEST_CASE("CostMemo answers exactly what the cost model answers, asked in any order") {
  const auto cost = cost_model_of(shipped("ntp-paper-nvl32.json"));
  CostMemo memo(*cost);
  // Stage vectors of the paper setup (TP32, PP8) with one or two degraded stages, each asked
  // twice (the second answer comes from the memo), at two boost caps.
  for (int pass = 0; pass < 2; ++pass)
    for (const double cap : {1.3, 1.1, 1.3})
      for (int t = 24; t <= 32; ++t) {
        CHECK(memo.boost_power(t, cap) == cost->boost_power(t, cap));
        std::vector<int> degrees(8, 32);
        degrees[7] = t;
        degrees[3] = std::max(24, t - 2);
        std::vector<double> powers(8, 1.0);
        powers[7] = memo.boost_power(t, cap);
        CHECK(memo.replica_throughput(degrees, powers) ==
              cost->replica_throughput(degrees, powers));
        powers.assign(8, 1.0);
        CHECK(memo.replica_throughput(degrees, powers) ==
              cost->replica_throughput(degrees, powers));
      }
  // Vectors of another length are other keys, not a prefix match.
  const std::vector<int> short_one{30};
  const std::vector<double> one{1.0};
  CHECK(memo.replica_throughput(short_one, one) == cost->replica_throughput(short_one, one));
}

TEST_CASE(
    "WordMemo: exact keys, and a full memo forgets everything before it grows past its bound") {
  WordMemo<int> memo(4);
  auto key = [&](std::initializer_list<std::uint64_t> words) {
    auto& k = memo.key();
    k.insert(k.end(), words);
  };
  for (int i = 0; i < 4; ++i) {
    key({7, static_cast<std::uint64_t>(i)});
    REQUIRE(memo.find() == nullptr);
    memo.insert(i * 10);
  }
  CHECK(memo.size() == 4);
  key({7, 2});
  REQUIRE(memo.find() != nullptr);
  CHECK(*memo.find() == 20);
  key({7});  // a prefix is another key
  CHECK(memo.find() == nullptr);
  key({7, 2, 0});
  CHECK(memo.find() == nullptr);
  // The fifth key: the memo forgets the four, then remembers it.
  key({8});
  REQUIRE(memo.find() == nullptr);
  memo.insert(80);
  CHECK(memo.size() == 1);
  CHECK(*memo.find() == 80);
  key({7, 2});
  CHECK(memo.find() == nullptr);
}

TEST_CASE("WordMemo: many keys of several lengths, each found with exactly its value") {
  // Keys that differ only in their high bits or their length, enough to grow the table
  // several times and to share slot tags; checked against std::map after every insert.
  WordMemo<std::uint64_t> memo(1 << 20);
  std::map<std::vector<std::uint64_t>, std::uint64_t> want;
  std::mt19937_64 rng(7);
  auto set_key = [&](const std::vector<std::uint64_t>& k) {
    auto& words = memo.key();
    words.insert(words.end(), k.begin(), k.end());
  };
  for (int i = 0; i < 20000; ++i) {
    std::vector<std::uint64_t> k(1 + rng() % 4);
    for (auto& w : k) w = (rng() % 64) << (rng() % 2 ? 48 : 0);
    set_key(k);
    const std::uint64_t* found = memo.find();
    const auto it = want.find(k);
    REQUIRE((found != nullptr) == (it != want.end()));
    if (found) {
      REQUIRE(*found == it->second);
      continue;
    }
    memo.insert(static_cast<std::uint64_t>(i));
    want[k] = static_cast<std::uint64_t>(i);
  }
  CHECK(memo.size() == want.size());
  for (const auto& [k, v] : want) {
    set_key(k);
    const std::uint64_t* found = memo.find();
    REQUIRE(found != nullptr);
    CHECK(*found == v);
  }
}

TEST_CASE("measured profiles load and cover their models") {
  // calibrate/profiles/h200-*-measured.json: measured on one H200 (calibrate/README.md).
  const std::string dir = std::string(GOODPUT_SOURCE_DIR) + "/calibrate/profiles/";
  const Scenario paper =
      shipped("ntp-paper-nvl32.json",
              {"/cost/profile=" + dir + "h200-measured.json", "/cost/local_batch=fractional"});
  const RunPlan plan = make_plan(paper);
  CHECK(plan.cost_info.profile_source == "measured");
  CHECK(plan.cost_info.interpolated_tp.empty());  // every degree TP32..TP24 was measured
  const auto measured = cost_model_of(paper);
  const auto datasheet = cost_model_of(
      shipped("ntp-paper-nvl32.json",
              {"/cost/profile=" + dir + "h200-analytical.json", "/cost/local_batch=fractional"}));
  MESSAGE("ntp-paper-nvl32 on H200: step " << measured->healthy_step_s() << " s measured, "
                                           << datasheet->healthy_step_s() << " s analytical");
  CHECK(measured->healthy_step_s() == doctest::Approx(datasheet->healthy_step_s()).epsilon(0.2));
  // Measured kernels vary ~1-10 % run to run (calibrate/README.md), so neighbouring degrees
  // may swap by a little; over the range every lost GPU costs, and the measured prices stay
  // within 7 % of the datasheet model's.
  double prev = 1.0;
  for (int t = 31; t >= 24; --t) {
    CAPTURE(t);
    const double r = measured->replica_throughput(t, 1.0);
    MESSAGE("TP" << t << ": " << r << " measured, " << datasheet->replica_throughput(t, 1.0)
                 << " analytical");
    CHECK(r < prev + 0.02);
    CHECK(r > 0.5);
    CHECK(r == doctest::Approx(datasheet->replica_throughput(t, 1.0)).epsilon(0.07));
    prev = r;
  }
  CHECK(measured->replica_throughput(24, 1.0) < measured->replica_throughput(31, 1.0) - 0.1);
  const Scenario llama =
      shipped("llama3-16k-h100.json", {"/cost/profile=" + dir + "h200-llama3-405b-measured.json"});
  CHECK(make_plan(llama).cost_info.profile_source == "measured");
  CHECK(cost_model_of(llama)->healthy_step_s() > 0);
}

TEST_CASE("the cost model costs the TP degrees it is given, from the lowest up") {
  const Scenario s = shipped("ntp-paper-nvl32.json");
  const auto all = cost_model_of(s);  // the strategies reach TP24..TP32
  REQUIRE(needed_tp_degrees(s).front() == 24);
  const auto some = make_cost_model(s, {28, 32}, nullptr);
  CHECK(all->replica_throughput(27, 1.0) > 0);
  CHECK(some->replica_throughput(27, 1.0) == 0);  // below the lowest degree given: never run
  for (int t = 28; t <= 32; ++t) {
    CAPTURE(t);
    CHECK(some->replica_throughput(t, 1.0) == all->replica_throughput(t, 1.0));
    CHECK(some->reshard_overhead(t) == all->reshard_overhead(t));
  }
  CHECK_THROWS_AS((void)make_cost_model(s, {}, nullptr), std::invalid_argument);
  CHECK_THROWS_AS((void)make_cost_model(s, {24, 31}, nullptr), std::invalid_argument);
  CHECK_THROWS_AS((void)make_cost_model(s, {28, 24, 32}, nullptr), std::invalid_argument);
}

TEST_CASE("step model: memory-bound terms are their bytes over a bandwidth no faster than HBM") {
  const auto cost = cost_model_of(shipped("llama3-16k-h100.json"));
  const IterationDetail& d = *cost->iteration_detail();
  const auto& sh = d.setup.shape;
  const double hbm_peak = calib::copy_ceiling_gbps(d.profile) * 1e9;  // the datasheet's
  for (const int t : {8, 7}) {
    const LayerBreakdown l = layer_breakdown(d.setup, d.profile, t);
    const double tokens = static_cast<double>(sh.tokens());
    const double act_local = 2.0 * tokens * sh.hidden / t;  // sequence parallel
    const double ffn = static_cast<double>(calib::ffn_local(sh, t));
    const double qk =
        static_cast<double>(calib::heads_local(sh, t) + calib::ceil_div(sh.kv_heads, t)) *
        static_cast<double>(sh.head_dim());
    // Closed-form bytes of each kernel (forward), the floor bytes / HBM peak for every term.
    const std::map<std::string, double> bytes{
        {"RMSNorm (2, read + write)", 2 * 2 * act_local},
        {"residual adds (2, 2 reads + 1 write)", 2 * 3 * act_local},
        {"rotary embedding of q, k (read + write)", 2 * 2.0 * tokens * qk},
        {"SwiGLU activation (2 reads + 1 write)", 2.0 * tokens * ffn * 3}};
    REQUIRE(l.memory.size() == bytes.size());
    for (const Term& k : l.memory) {
      CAPTURE(k.name);
      REQUIRE(bytes.count(k.name) == 1);
      CHECK(k.fwd_s >= bytes.at(k.name) / hbm_peak);
      CHECK(k.bwd_s >= 2 * bytes.at(k.name) / hbm_peak);
      CHECK_FALSE(k.source.empty());
    }
    // Unmeasured kernels run at the profile's copy bandwidth x 0.8 (datasheet) exactly.
    const Term& rotary = l.memory[2];
    CHECK(rotary.fwd_s == doctest::Approx(bytes.at(rotary.name) / d.setup.hbm_Bps));
  }
  // Dropout adds two read + write passes and a 1-byte mask per layer when asked for.
  StepSetup st = d.setup;
  st.dropout = true;
  const LayerBreakdown with = layer_breakdown(st, d.profile, 8);
  const double act_local = 2.0 * static_cast<double>(sh.tokens()) * sh.hidden / 8;
  CHECK(with.memory.back().fwd_s ==
        doctest::Approx(2 * (2 * act_local + act_local / 2) / d.setup.hbm_Bps));
}

TEST_CASE("step model: per-step terms, stage ends and whole layers per stage") {
  const auto cost = cost_model_of(shipped("llama3-16k-h100.json"));
  const IterationDetail& d = *cost->iteration_detail();
  const StepSetup& st = d.setup;
  REQUIRE(st.stage_layers.size() == 16u);
  CHECK(st.stage_layers.front() == 7);
  CHECK(st.stage_layers[1] == 8);
  CHECK(st.layers() == 126);
  const StageBreakdown first = stage_breakdown(st, d.profile, 8, 0);
  const StageBreakdown mid = stage_breakdown(st, d.profile, 8, 1);
  const StageBreakdown last = stage_breakdown(st, d.profile, 8, 15);
  CHECK(first.layers == 7);
  CHECK(mid.layers == 8);
  CHECK(mid.ends.empty());
  CHECK(first.ends.size() == 2u);  // embedding lookup and its TP collective
  CHECK(last.ends.size() == 3u);   // LM head GEMM, its collective, the loss
  // The first and last stages hold the embedding table and the LM head: vocab x hidden / t.
  const double layer = mid.params_per_gpu / 8;  // one layer's parameters per GPU
  CHECK(first.params_per_gpu == doctest::Approx(7 * layer + st.vocab * st.shape.hidden / 8));
  // Gradient clipping: 12 bytes per parameter of the DP shard at the HBM bandwidth.
  CHECK(mid.grad_clip_s == doctest::Approx(12 * mid.params_per_gpu / st.dp / st.hbm_Bps));
  // The tail: exposed DP sync, clipping and the optimizer; the step's model FLOPs count every
  // stage's layers once.
  CHECK(mid.tail_s() == doctest::Approx(mid.dp_exposed_s + mid.grad_clip_s + mid.optimizer_s));
  std::vector<StageBreakdown> stages;
  for (int i = 0; i < 16; ++i) stages.push_back(stage_breakdown(st, d.profile, 8, i));
  double layer_flops = 0;
  for (const StageBreakdown& s : stages) layer_flops += s.layers * s.layer.model_flops;
  CHECK(step_model_flops_per_gpu(st, stages) ==
        doctest::Approx(st.microbatches * (layer_flops + last.head_flops) / 16));
}

TEST_CASE("a degraded group is costed at the same place whichever position the caller gives") {
  const auto cost = cost_model_of(shipped("ntp-paper-nvl32.json"));
  std::vector<double> ones(8, 1.0);
  std::vector<int> at_end(8, 32), at_start(8, 32);
  at_end[7] = 28;
  at_start[0] = 28;
  const double r = cost->replica_throughput(at_end, ones);
  CHECK(r < 1.0);
  CHECK(cost->replica_throughput(at_start, ones) == r);
  // The worst position: no position costs the step more than the one it is costed at.
  const IterationDetail& d = *cost->iteration_detail();
  std::vector<StageBreakdown> healthy;
  for (int i = 0; i < 8; ++i) healthy.push_back(stage_breakdown(d.setup, d.profile, 32, i));
  auto step_with_slow = [&](int pos, int degree) {
    PipelineSpec spec;
    spec.microbatches = d.setup.microbatches;
    spec.virtual_stages = d.setup.virtual_stages;
    for (int i = 0; i < 8; ++i)
      spec.stages.push_back(
          (i == pos ? stage_breakdown(d.setup, d.profile, degree, i) : healthy[i]).times(1.0));
    return pipeline_step_s(spec);
  };
  for (int t = 24; t < 32; ++t) {
    CAPTURE(t);
    const double worst = step_with_slow(d.worst_position.at(t), t);
    for (int i = 0; i < 8; ++i) CHECK(step_with_slow(i, t) <= worst);
  }
}

TEST_CASE("context parallelism: CP ranks split the step's work exactly, cp = 1 is the old step") {
  const auto one = cost_model_of(shipped("llama3-16k-h100.json"));
  const auto same = cost_model_of(shipped("llama3-16k-h100.json", {"/job/cp=1"}));
  CHECK(same->healthy_step_s() == one->healthy_step_s());
  const auto two = cost_model_of(shipped("llama3-16k-h100.json", {"/job/cp=2", "/job/dp=64"}));
  CHECK(two->pp() == 32);  // a replica's TP groups: cp per stage
  CHECK(two->tp() == 8);
  CHECK(tflops_per_gpu(*two) > 0);
  // Model FLOPs per GPU per step: every term halves (tokens, and 1/cp of the attention).
  auto flops = [](const CostModel& c) {
    const IterationDetail& d = *c.iteration_detail();
    std::vector<StageBreakdown> stages;
    for (int i = 0; i < d.setup.pp; ++i)
      stages.push_back(stage_breakdown(d.setup, d.profile, d.setup.tp, i));
    return step_model_flops_per_gpu(d.setup, stages);
  };
  CHECK(flops(*two) == doctest::Approx(flops(*one) / 2).epsilon(1e-12));
  const IterationDetail& d1 = *one->iteration_detail();
  const IterationDetail& d2 = *two->iteration_detail();
  CHECK(d2.setup.shape.seq_len * 2 == d1.setup.shape.seq_len);
  // The analytical profile made for the scenario plans Adam over the dp x cp shards.
  REQUIRE(d2.profile.models.size() == 1u);
  REQUIRE(d2.profile.models[0].layout.has_value());
  CHECK(d2.profile.models[0].layout->dp == 64 * 2);
  const LayerBreakdown l1 = layer_breakdown(d1.setup, d1.profile, 8);
  const LayerBreakdown l2 = layer_breakdown(d2.setup, d2.profile, 8);
  CHECK(l1.cp_comm.fwd_s == 0);
  CHECK(l2.cp_comm.fwd_s >= 0);
  CHECK(l2.model_flops == doctest::Approx(l1.model_flops / 2).epsilon(1e-12));
  // The DP sync spans dp x cp ranks holding the same weights: the same 128 as before.
  const StageBreakdown s1 = stage_breakdown(d1.setup, d1.profile, 8, 1);
  const StageBreakdown s2 = stage_breakdown(d2.setup, d2.profile, 8, 1);
  CHECK(s2.dp_sync_s == doctest::Approx(s1.dp_sync_s));
  // A degraded group slows its whole stage, wherever in the replica's 32 groups it is listed.
  std::vector<double> ones(32, 1.0);
  std::vector<int> a(32, 8), b(32, 8);
  a[31] = 7;
  b[4] = 7;
  CHECK(two->replica_throughput(a, ones) == two->replica_throughput(b, ones));
}

TEST_CASE("context parallelism: the K/V ring exchange is what the attention does not hide") {
  // 128K sequences on CP16 across hosts (scale-out), and the same ring squeezed into fast links.
  for (const char* scaleout : {"50", "0.5"}) {
    CAPTURE(scaleout);
    const auto cost = cost_model_of(
        shipped("llama3-16k-h100.json", {"/job/cp=16", "/job/dp=8", "/job/model/seq_len=131072",
                                         std::string("/cost/scaleout_gbps=") + scaleout}));
    const IterationDetail& d = *cost->iteration_detail();
    const auto& sh = d.setup.shape;
    CHECK(d.setup.cp_Bps == d.setup.scaleout_Bps);  // tp x cp = 128 GPUs > an 8-GPU host
    const LayerBreakdown l = layer_breakdown(d.setup, d.profile, 8);
    const double kv = 2 * 2.0 * static_cast<double>(sh.tokens()) *
                      static_cast<double>(calib::ceil_div(sh.kv_heads, 8)) * sh.head_dim();
    const double fwd = 15 * kv / d.setup.cp_Bps;
    CHECK(l.cp_comm.fwd_s == doctest::Approx(std::max(0.0, fwd - l.attention.fwd_s)));
    CHECK(l.cp_comm.bwd_s == doctest::Approx(std::max(0.0, 2 * fwd - l.attention.bwd_s)));
    // 50 GB/s: the exchange hides behind the attention; 0.5 GB/s: most of it is exposed.
    if (std::string(scaleout) == "50")
      CHECK(l.cp_comm.fwd_s == 0);
    else
      CHECK(l.cp_comm.fwd_s > l.attention.fwd_s);
  }
}
