#include "sim/cli/explain_step.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "models/cost/cost_model.hpp"
#include "models/cost/pipeline_schedule.hpp"
#include "models/scenario/scenario_enums.hpp"
#include "models/scenario/scenario_loader.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/cli/command_line.hpp"
#include "sim/core/error.hpp"

namespace goodput {

namespace {

std::string row(const std::string& name, double a_ms, double b_ms) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %-46s %10.3f %10.3f\n", name.c_str(), a_ms, b_ms);
  return buf;
}

std::string line(const std::string& name, const std::string& value) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "  %-46s %s\n", name.c_str(), value.c_str());
  return buf;
}

std::string num(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

void print_layer(std::ostream& out, const LayerBreakdown& l) {
  char head[160];
  std::snprintf(head, sizeof head, "  %-46s %10s %10s\n", "term (one layer, one micro-batch)",
                "fwd ms", "bwd ms");
  out << head;
  for (const Term& g : l.gemms) out << row("GEMM " + g.name, 1e3 * g.fwd_s, 1e3 * g.bwd_s);
  out << row(l.attention.name, 1e3 * l.attention.fwd_s, 1e3 * l.attention.bwd_s);
  out << row(l.elementwise.name, 1e3 * l.elementwise.fwd_s, 1e3 * l.elementwise.bwd_s);
  out << row(l.tp_comm.name + " (exposed)", 1e3 * l.tp_comm.fwd_s, 1e3 * l.tp_comm.bwd_s);
  if (l.recompute_compute_s + l.recompute_comm_s > 0)
    out << row("recomputation", 0, 1e3 * (l.recompute_compute_s + l.recompute_comm_s));
  out << row("layer total", 1e3 * (l.compute_fwd_s() + l.comm_fwd_s()),
             1e3 * (l.compute_bwd_s() + l.comm_bwd_s()));
}

void print_stage(std::ostream& out, const std::string& title, const StageBreakdown& s) {
  out << title << "\n";
  out << line("layers", num("%.3f", s.layers));
  out << row("compute (all layers), ms fwd / bwd", 1e3 * s.compute_fwd_s(),
             1e3 * s.compute_bwd_s());
  out << row("TP collectives (all layers), ms fwd / bwd", 1e3 * s.comm_fwd_s(),
             1e3 * s.comm_bwd_s());
  if (s.head.fwd_s + s.head.bwd_s > 0)
    out << row("LM head + loss, ms fwd / bwd", 1e3 * s.head.fwd_s, 1e3 * s.head.bwd_s);
  out << line("P2P send per chunk", num("%.3f ms", 1e3 * s.p2p_s));
  out << line("parameters per GPU", num("%.3f G", s.params_per_gpu / 1e9));
  out << line("DP grad reduce-scatter + param all-gather",
              num("%.1f ms", 1e3 * s.dp_sync_s) + " (exposed " +
                  num("%.1f ms", 1e3 * s.dp_exposed_s) + ")");
  out << line("optimizer step", num("%.2f ms", 1e3 * s.optimizer_s));
}

PipelineSpec spec_of(const StepSetup& st, const StageBreakdown& mid, const StageBreakdown& last,
                     int degraded_last, const StageBreakdown* slow) {
  PipelineSpec spec;
  spec.microbatches = st.microbatches;
  spec.virtual_stages = st.virtual_stages;
  for (int i = 0; i < st.pp; ++i) {
    const bool is_last = i + 1 == st.pp;
    const StageBreakdown& b = is_last && degraded_last && slow ? *slow : is_last ? last : mid;
    spec.stages.push_back(b.times(1.0));
  }
  return spec;
}

}  // namespace

CLI::App* add_explain_step(CLI::App& app, ExplainArgs& a) {
  auto* cmd = app.add_subcommand("explain-step",
                                 "break the healthy training step down per layer, stage and step");
  cmd->add_option("scenario", a.scenario, "scenario JSON")->required();
  cmd->add_option("--tp", a.tp, "also explain a stage at this TP degree")
      ->check(goodput::positive_number());
  cmd->add_option("--set", a.sets, "override: /json/pointer=value (repeatable)")
      ->allow_extra_args(false);  // one value per --set: never the scenario after it
  return cmd;
}

int command_explain_step(const ExplainArgs& a) {
  const Scenario s = load_scenario(a.scenario, a.sets);
  CostInfo info;
  const auto cost = make_cost_model(s, needed_tp_degrees(s), &info);
  const IterationDetail* d = cost->iteration_detail();
  if (!d)
    throw InputError(s.file, "/cost/model",
                     "explain-step needs the iteration cost model (give /job/model)");
  const StepSetup& st = d->setup;
  if (a.tp > st.tp)
    throw InputError("--tp", std::to_string(a.tp),
                     "above the job's TP degree " + std::to_string(st.tp));
  const StageBreakdown mid = stage_breakdown(st, d->profile, st.tp, false);
  const StageBreakdown last = stage_breakdown(st, d->profile, st.tp, true);
  std::ostringstream out;
  out << "goodput explain-step: " << s.name << " on " << info.device << " (profile "
      << info.profile_path << ")\n";
  out << "TP" << st.tp << " x PP" << st.pp << " x DP" << st.dp << ", " << st.microbatches
      << " micro-batches of " << st.shape.micro_batch << " x " << st.shape.seq_len << " tokens, "
      << (st.virtual_stages > 1
              ? "interleaved 1F1B, " + std::to_string(st.virtual_stages) + " chunks per stage"
              : std::string("1F1B"))
      << ", recompute " << enum_name(kRecomputeNames, s.job.recompute) << ", sequence parallel "
      << (st.sequence_parallel ? "on" : "off") << "\n\n";
  out << "Per layer at TP" << st.tp << " (busiest GPU, speed 1):\n";
  print_layer(out, mid.layer);
  out << "\n";
  print_stage(out, "Per stage at TP" + std::to_string(st.tp) + " (middle stages):", mid);
  if (st.pp > 1 || last.head.fwd_s > 0) print_stage(out, "Last stage:", last);

  const PipelineSpec spec = spec_of(st, mid, last, 0, nullptr);
  const double step = pipeline_step_s(spec);
  const double busy = st.microbatches * (spec.stages.back().fwd_s + spec.stages.back().bwd_s);
  const double flops = step_model_flops_per_gpu(st, mid, last);
  out << "\nPer step (exact pipeline schedule):\n";
  out << line("step time", num("%.3f s", step));
  out << line("last stage busy (m x (fwd + bwd))", num("%.3f s", busy));
  out << line("bubble, P2P waits and exposed tails",
              num("%.3f s", step - busy) + " (" + num("%.1f%%", 100 * (step - busy) / step) + ")");
  out << line("model FLOPs per GPU per step", num("%.1f TFLOP", flops / 1e12));
  out << line("model TFLOP/s per GPU", num("%.1f", flops / step / 1e12));
  out << line("MFU (of the profile's GEMM ceiling)",
              num("%.1f%%", 100 * flops / step / st.peak_flops));

  if (a.tp > 0 && a.tp < st.tp) {
    const StageBreakdown slow_mid = stage_breakdown(st, d->profile, a.tp, false);
    const StageBreakdown slow_last = stage_breakdown(st, d->profile, a.tp, true);
    out << "\nPer layer at TP" << a.tp << ":\n";
    print_layer(out, slow_mid.layer);
    out << "\n";
    print_stage(out, "A last stage at TP" + std::to_string(a.tp) + ":", slow_last);
    const double full = pipeline_step_s(spec_of(st, mid, last, 1, &slow_last));
    out << "\nA replica with its last stage at TP" << a.tp << ":\n";
    out << line("step at the full local batch",
                num("%.3f s", full) + " (" + num("%+.2f%%", 100 * (full / step - 1)) + ")");
    const double keep = cost->replica_throughput(a.tp, 1.0);
    if (keep > 0) {
      out << line("batch kept within the healthy step",
                  num("%.4f", keep) + " of a healthy replica's");
      out << line("reshard: share of every replica's step",
                  num("%.3f%%", 100 * cost->reshard_overhead(a.tp)));
    } else
      out << line("batch kept within the healthy step",
                  "(below the scenario's lowest NTP degree: never run)");
  }
  std::cout << out.str();
  return 0;
}

}  // namespace goodput
