#include "sim/cli/explain_step.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
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
#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

std::string line(const std::string& name, const std::string& value) {
  char buf[240];
  std::snprintf(buf, sizeof buf, "  %-46s %s\n", name.c_str(), value.c_str());
  return buf;
}

// Sources are long: each is printed once, numbered, and terms refer to their number.
class Sources {
 public:
  std::string ref(const std::string& source) {
    auto it = std::find(list_.begin(), list_.end(), source);
    if (it == list_.end()) it = list_.insert(list_.end(), source);
    return "[" + std::to_string(it - list_.begin() + 1) + "]";
  }
  void print(std::ostream& out) const {
    out << "\nSources:\n";
    for (std::size_t i = 0; i < list_.size(); ++i)
      out << "  [" << i + 1 << "] " << list_[i] << "\n";
  }

 private:
  std::vector<std::string> list_;
};

std::string term_row(const std::string& name, double fwd_s, double bwd_s, const std::string& ref) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "  %-52s %9.3f %9.3f  %s\n", name.c_str(), 1e3 * fwd_s,
                1e3 * bwd_s, ref.c_str());
  return buf;
}

void print_layer(std::ostream& out, const LayerBreakdown& l, Sources& src) {
  char head[160];
  std::snprintf(head, sizeof head, "  %-52s %9s %9s  %s\n", "term (one layer, one micro-batch)",
                "fwd ms", "bwd ms", "source");
  out << head;
  for (const Term& g : l.gemms)
    out << term_row("GEMM " + g.name, g.fwd_s, g.bwd_s, src.ref(g.source));
  out << term_row(l.attention.name, l.attention.fwd_s, l.attention.bwd_s,
                  src.ref(l.attention.source));
  for (const Term& k : l.memory) out << term_row(k.name, k.fwd_s, k.bwd_s, src.ref(k.source));
  out << term_row(l.tp_comm.name + " (exposed)", l.tp_comm.fwd_s, l.tp_comm.bwd_s,
                  src.ref(l.tp_comm.source));
  if (!l.cp_comm.name.empty())
    out << term_row(l.cp_comm.name, l.cp_comm.fwd_s, l.cp_comm.bwd_s, src.ref(l.cp_comm.source));
  if (l.recompute_compute_s + l.recompute_comm_s > 0)
    out << term_row("recomputation", 0, l.recompute_compute_s + l.recompute_comm_s,
                    src.ref("/job/recompute: the forward work it repeats, as above"));
  out << term_row("layer total", l.compute_fwd_s() + l.comm_fwd_s(),
                  l.compute_bwd_s() + l.comm_bwd_s(), "");
}

// "7, 8 x 14, 7": runs of equal layer counts.
std::string layer_runs(const std::vector<int>& layers) {
  std::string out;
  for (std::size_t i = 0; i < layers.size();) {
    std::size_t j = i;
    while (j < layers.size() && layers[j] == layers[i]) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(layers[i]) +
           (j - i > 1 ? " x " + std::to_string(j - i) : "");
    i = j;
  }
  return out;
}

void print_stages(std::ostream& out, const std::vector<StageBreakdown>& stages, int m) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "  %-9s %6s %10s %10s %10s %12s %10s\n", "stage", "layers",
                "fwd ms", "bwd ms", "busy s", "params/GPU", "tail ms");
  out << buf;
  for (std::size_t i = 0; i < stages.size();) {
    std::size_t j = i;
    const StageTimes a = stages[i].times(1.0);
    while (j < stages.size() && stages[j].layers == stages[i].layers &&
           stages[j].ends.size() == stages[i].ends.size())
      ++j;
    const std::string name =
        j - i > 1 ? std::to_string(i) + "-" + std::to_string(j - 1) : std::to_string(i);
    std::snprintf(buf, sizeof buf, "  %-9s %6.0f %10.3f %10.3f %10.3f %10.3f G %10.2f\n",
                  name.c_str(), stages[i].layers, 1e3 * a.fwd_s, 1e3 * a.bwd_s,
                  m * (a.fwd_s + a.bwd_s), stages[i].params_per_gpu / 1e9, 1e3 * a.tail_s);
    out << buf;
    i = j;
  }
}

// Where the step goes on its busiest stage: each term times its count per step, its share of
// the step; what is left is the bubble, P2P and waiting.
void print_step_shares(std::ostream& out, const StageBreakdown& b, int m, double step,
                       Sources& src) {
  char buf[220];
  std::snprintf(buf, sizeof buf, "  %-52s %9s %7s  %s\n", "term (per step, this stage)", "ms",
                "share", "source");
  out << buf;
  double accounted = 0;
  auto row = [&](const std::string& name, double s, const std::string& source) {
    accounted += s;
    std::snprintf(buf, sizeof buf, "  %-52s %9.1f %6.1f%%  %s\n", name.c_str(), 1e3 * s,
                  100 * s / step, source.empty() ? "" : src.ref(source).c_str());
    out << buf;
  };
  const double per_layer = m * b.layers;
  const LayerBreakdown& l = b.layer;
  for (const Term& g : l.gemms) row("GEMM " + g.name, per_layer * (g.fwd_s + g.bwd_s), g.source);
  row(l.attention.name, per_layer * (l.attention.fwd_s + l.attention.bwd_s), l.attention.source);
  for (const Term& k : l.memory) row(k.name, per_layer * (k.fwd_s + k.bwd_s), k.source);
  row(l.tp_comm.name, per_layer * (l.tp_comm.fwd_s + l.tp_comm.bwd_s), l.tp_comm.source);
  if (!l.cp_comm.name.empty())
    row(l.cp_comm.name, per_layer * (l.cp_comm.fwd_s + l.cp_comm.bwd_s), l.cp_comm.source);
  if (l.recompute_compute_s + l.recompute_comm_s > 0)
    row("recomputation", per_layer * (l.recompute_compute_s + l.recompute_comm_s),
        "/job/recompute: the forward work it repeats, as above");
  for (const Term& e : b.ends) row(e.name, m * (e.fwd_s + e.bwd_s), e.source);
  row("DP gradient sync, exposed", b.dp_exposed_s, b.dp_source);
  row("gradient clipping", b.grad_clip_s, b.grad_clip_source);
  row("optimizer step", b.optimizer_s, b.optimizer_source);
  row("pipeline bubble, P2P sends and waits", step - accounted,
      b.p2p_source + "; the exact 1F1B / interleaved schedule");
}

PipelineSpec spec_of(const StepSetup& st, const std::vector<StageBreakdown>& stages) {
  PipelineSpec spec;
  spec.microbatches = st.microbatches;
  spec.virtual_stages = st.virtual_stages;
  for (const StageBreakdown& b : stages) spec.stages.push_back(b.times(1.0));
  return spec;
}

std::vector<StageBreakdown> stages_at(const StepSetup& st, const calib::Profile& profile, int t) {
  const LayerBreakdown layer = layer_breakdown(st, profile, t);
  std::vector<StageBreakdown> out;
  for (int i = 0; i < st.pp; ++i) out.push_back(stage_breakdown(st, profile, t, i, &layer));
  return out;
}

// The stage with the most forward + backward time (ties: the later one), as the cost model
// picks the stage a degraded TP group is costed on.
std::size_t busiest_stage(const std::vector<StageBreakdown>& stages) {
  std::size_t best = 0;
  double most = -1;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const StageTimes t = stages[i].times(1.0);
    if (t.fwd_s + t.bwd_s >= most) most = t.fwd_s + t.bwd_s, best = i;
  }
  return best;
}

}  // namespace

CLI::App* add_explain_step(CLI::App& app, ExplainArgs& a) {
  auto* cmd = app.add_subcommand("explain-step",
                                 "break the healthy training step down per layer, stage and step");
  cmd->add_option("scenario", a.scenario, "scenario JSON")->required();
  cmd->add_option("--tp", a.tp, "also explain a stage at this TP degree")
      ->check(goodput::positive_number());
  takes_pointer(cmd->add_option("--set", a.sets, "override: /json/pointer=value (repeatable)"))
      ->allow_extra_args(false);  // one value per --set: never the scenario after it
  return cmd;
}

int command_explain_step(const ExplainArgs& a) {
  const Scenario s = load_scenario(a.scenario, a.sets);
  CostInfo info;
  const auto cost = make_cost_model(s, cost_model_tp_degrees(s), &info);
  const IterationDetail* d = cost->iteration_detail();
  if (!d)
    throw InputError(s.file, "/cost/model",
                     "explain-step needs the iteration cost model (give /job/model)");
  const StepSetup& st = d->setup;
  if (a.tp > st.tp)
    throw InputError("--tp", std::to_string(a.tp),
                     "above the job's TP degree " + std::to_string(st.tp));
  Sources src;
  const std::vector<StageBreakdown> stages = stages_at(st, d->profile, st.tp);
  std::ostringstream out;
  out << "goodput explain-step: " << s.name << " on " << info.device << " (profile "
      << info.profile_path << ")\n";
  out << "TP" << st.tp << (st.cp > 1 ? " x CP" + std::to_string(st.cp) : "") << " x PP" << st.pp
      << " x DP" << st.dp << ", " << st.microbatches << " micro-batches of " << st.shape.micro_batch
      << " x " << st.shape.seq_len * st.cp << " tokens"
      << (st.cp > 1 ? " (" + std::to_string(st.shape.seq_len) + " per CP rank)" : "") << ", "
      << (st.virtual_stages > 1
              ? "interleaved 1F1B, " + std::to_string(st.virtual_stages) + " chunks per stage"
              : std::string("1F1B"))
      << ", recompute " << enum_name(kRecomputeNames, s.job.recompute) << ", sequence parallel "
      << (st.sequence_parallel ? "on" : "off") << "\n";
  out << "Layers per stage: " << layer_runs(st.stage_layers)
      << (s.job.stage_layers.empty() ? " (even split)" : " (/job/stage_layers)") << "\n\n";
  out << "Per layer at TP" << st.tp << " (busiest GPU, speed 1):\n";
  print_layer(out, stages.front().layer, src);

  out << "\nPer stage at TP" << st.tp
      << " (one micro-batch through all its layers; busy = " << st.microbatches
      << " micro-batches; tail = exposed DP sync, clipping, optimizer):\n";
  print_stages(out, stages, st.microbatches);
  for (const StageBreakdown& b : stages) {
    if (b.ends.empty()) continue;
    out << "  stage " << b.index << " also runs:\n";
    for (const Term& e : b.ends)
      out << "  " << term_row(e.name, e.fwd_s, e.bwd_s, src.ref(e.source));
  }

  const PipelineSpec spec = spec_of(st, stages);
  const double step = pipeline_step_s(spec);
  const std::size_t busiest = busiest_stage(stages);
  out << "\nWhere the step goes (stage " << busiest << ", the busiest; shares of the "
      << fmt("%.3f s", step) << " step):\n";
  print_step_shares(out, stages[busiest], st.microbatches, step, src);

  const double flops = step_model_flops_per_gpu(st, stages);
  out << "\nPer step (exact pipeline schedule):\n";
  out << line("step time", fmt("%.3f s", step));
  out << line("model FLOPs per GPU per step", fmt("%.1f TFLOP", flops / 1e12));
  out << line("model TFLOP/s per GPU", fmt("%.1f", flops / step / 1e12));
  out << line("MFU (of the profile's GEMM ceiling)",
              fmt("%.1f%%", 100 * flops / step / st.peak_flops));

  if (a.tp > 0 && a.tp < st.tp) {
    const std::vector<StageBreakdown> slow = stages_at(st, d->profile, a.tp);
    out << "\nPer layer at TP" << a.tp << ":\n";
    print_layer(out, slow.front().layer, src);
    std::vector<StageBreakdown> mixed = stages;
    const auto worst =
        static_cast<std::size_t>(d->worst_position.at(static_cast<std::size_t>(std::max(a.tp, 1))));
    mixed[worst] = slow[worst];
    const double full = pipeline_step_s(spec_of(st, mixed));
    out << "\nA replica with its stage " << worst << " at TP" << a.tp
        << " (the position where a slow stage costs the step most, where the cost model puts "
           "a degraded group):\n";
    out << line("step at the full local batch",
                fmt("%.3f s", full) + " (" + fmt("%+.2f%%", 100 * (full / step - 1)) + ")");
    const double keep = cost->replica_throughput(a.tp, 1.0);
    if (keep > 0) {
      out << line("batch kept within the healthy step",
                  fmt("%.4f", keep) + " of a healthy replica's");
      out << line("reshard: share of every replica's step",
                  fmt("%.3f%%", 100 * cost->reshard_overhead(a.tp)));
    } else
      out << line("batch kept within the healthy step",
                  "(below the scenario's lowest NTP degree: never run)");
  }
  src.print(out);
  std::cout << out.str();
  return 0;
}

}  // namespace goodput
